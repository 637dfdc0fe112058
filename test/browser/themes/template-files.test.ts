/**
 * Issue 38, item 3, in Chromium: a developer template's SVG holding a <script>, opened on its own at
 * /assets/…, runs nothing (the folder files' Content-Security-Policy sandboxes it), while the same file
 * still shows as an image on the template's pages. The fixture is the repository's own test template,
 * copied to a temporary folder with the SVG added.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, liveSite, type BrowserSession, type LiveSite } from '../../helpers/browser.js';

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#2a6f4e"/>
<script>document.documentElement.setAttribute('data-ran', 'yes'); alert(document.domain);</script></svg>`;

describe('developer template files in Chromium', () => {
  let base: string;
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'tessera-svg-template-'));
    const tpl = join(base, 'svg-template');
    cpSync(resolve('test/data/dev-templates/multi-region'), tpl, { recursive: true });
    writeFileSync(join(tpl, 'assets', 'mark.svg'), SVG);
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory', THEME_DIR: tpl }), launchBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await site?.close();
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it('runs no script of an SVG opened directly, and the SVG still shows on the page', async () => {
    const page = await (await b.browser.newContext()).newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const res = await page.goto(`${site.url}/assets/mark.svg`);
    expect(res?.status()).toBe(200);
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-ran'))).toBeNull();
    // Sandboxed: the document has an opaque origin, so even a script that ran would reach nothing of the site.
    expect(await page.evaluate(() => window.origin)).toBe('null');
    expect(dialogs).toEqual([]);

    await page.goto(`${site.url}/journal`);
    const mark = page.locator('img.tr-mark');
    await expect.poll(() => mark.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(10);
    expect(dialogs).toEqual([]);
  });
});
