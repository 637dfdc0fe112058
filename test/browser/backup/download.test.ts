import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, liveSite, signInAsOwner, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { expectNoAxeViolations, WCAG_AA } from '../../helpers/axe.js';

describe('backup download in /config Settings', () => {
  let site: LiveSite;
  let session: BrowserSession;
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bkui-'));
  beforeAll(async () => {
    site = await liveSite('pglite', { DATA_DIR: dataDir, RATE_LIMIT_STORE: 'memory' });
    session = await launchBrowser();
  });
  afterAll(async () => {
    await session?.close();
    await site?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the owner downloads an archive from the Backup card, which passes axe at 390 and 1280 px', async () => {
    const context = await session.browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
    const page = await signInAsOwner(await context.newPage(), site, '/config/settings');
    const card = page.getByRole('region', { name: 'Backup' });
    const link = card.getByRole('link', { name: 'Download a backup' });
    await link.waitFor();
    await card.scrollIntoViewIfNeeded();
    if (process.env.SCREENSHOTS) await page.screenshot({ path: join(process.env.SCREENSHOTS, 'backup-1280.png'), fullPage: false });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^tessera-backup-.+\.tar\.gz$/);
    const file = await download.path();
    const head = readFileSync(file!).subarray(0, 2);
    expect([...head]).toEqual([0x1f, 0x8b]); // gzip
    await page.setViewportSize({ width: 390, height: 844 });
    await card.scrollIntoViewIfNeeded();
    if (process.env.SCREENSHOTS) await page.screenshot({ path: join(process.env.SCREENSHOTS, 'backup-390.png'), fullPage: false });
    // The main region that holds the settings cards.
    await expectNoAxeViolations(page, { element: 'main:has(section[aria-labelledby])', tags: WCAG_AA });
    await context.close();
  });
});
