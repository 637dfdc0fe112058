/**
 * Issue 23: screenshots of the dashboard, the product list and the site settings at 1280 px and 390 px are in
 * docs/screenshots/ and the README shows them, so a reader sees the admin before installing.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = process.cwd();

describe('the README shows the admin', () => {
  it('references each screenshot the issue asks for, and each file is a PNG in docs/screenshots', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const images = [...readme.matchAll(/!\[[^\]]+\]\((docs\/screenshots\/[^)\s]+)\)/g)].map((m) => m[1]!);
    for (const name of ['dashboard', 'product-list', 'settings'])
      for (const width of [1280, 390]) expect(images).toContain(`docs/screenshots/${name}-${width}.png`);
    for (const img of images) {
      const file = join(root, img);
      expect(existsSync(file), img).toBe(true);
      expect(statSync(file).size).toBeGreaterThan(1000);
      expect(readFileSync(file).subarray(0, 8).toString('hex'), img).toBe('89504e470d0a1a0a');
    }
  });
});
