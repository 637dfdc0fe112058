/**
 * Every file of every bundled theme (themes/*, assets aside) compiles with no
 * error, and the server's theme loader logs none: a theme error cannot ship.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../../src/template';
import { Theme } from '../../../src/server/site-page/index.js';

const root = join(__dirname, '../../../themes');
const themes = readdirSync(root).filter((d) => statSync(join(root, d)).isDirectory());

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'assets' ? [] : files(p);
    return [p];
  });
}

describe('bundled themes compile', () => {
  it('there is at least the default theme', () => {
    expect(themes).toContain('default');
  });

  for (const theme of themes) {
    const dir = join(root, theme);
    const all = files(dir);

    it(`${theme}: every template file compiles with zero errors (${all.length} files)`, () => {
      expect(all.length).toBeGreaterThan(0);
      const errors = all.flatMap((f) =>
        compile(readFileSync(f, 'utf8')).errors.map((e) => `${relative(root, f)}:${e.line}:${e.column} ${e.message}`),
      );
      expect(errors).toEqual([]);
    });

    it(`${theme}: loading the theme logs no template error`, () => {
      const logged: string[] = [];
      const log = { error: (_o: unknown, msg: string) => logged.push(msg), warn: () => {}, info: () => {}, debug: () => {} };
      new Theme(dir, log as never);
      expect(logged).toEqual([]);
    });
  }
});
