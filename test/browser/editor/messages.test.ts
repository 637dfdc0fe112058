/**
 * Issue 30, "Editor messages" in Chromium: each message where its failure happens. Requests are made to
 * fail with page.route() (a network or server failure); where the screen offers a retry, the retry works.
 * One site, one sign-in: the Android context reuses the signed-in state under an Android user agent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { BrowserContext, Page } from 'playwright-core';
import {
  addFromPalette,
  createPage,
  launchBrowser,
  liveSite,
  savedStatus,
  signInAsOwner,
  type BrowserSession,
  type LiveSite,
} from '../../helpers/browser.js';
import { schema } from '../../../src/db/index.js';
import { editor as edm, platform as pm } from '../../../src/core/messages.js';
import { FONT_LIBRARY } from '../../../src/core/font-library.js';
import { STALE_PROCESSING_MS } from '../../../src/server/storage/index.js';

const ANDROID_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

/** Vimeo's oEmbed stand-in: video 111111 belongs to a Basic account, the others to Pro accounts. */
function vimeoStandIn(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const id = /vimeo\.com\/(\d+)$/.exec(new URL(req.url ?? '/', 'http://x').searchParams.get('url') ?? '')?.[1];
    if (!id) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ type: 'video', provider_name: 'Vimeo', video_id: Number(id), account_type: id === '111111' ? 'basic' : 'pro' }),
    );
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () =>
      done({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/oembed.json` }),
    ),
  );
}

describe('editor messages in Chromium: field refusals and upload states', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let vimeo: { server: Server; url: string };
  let context: BrowserContext;
  let page: Page;
  let editorUrl: string;

  beforeAll(async () => {
    vimeo = await vimeoStandIn();
    // Uploads answer 202 at once, so the editor polls each one's processing job.
    [site, b] = await Promise.all([
      liveSite('pglite', { RATE_LIMIT_STORE: 'memory', UPLOAD_PROCESSING_WAIT_MS: '0', VIMEO_OEMBED_URL: vimeo.url }),
      launchBrowser(),
    ]);
    context = await b.browser.newContext({ viewport: { width: 1400, height: 900 } });
    page = await signInAsOwner(await context.newPage(), site);
    editorUrl = await createPage(page, site, 'Messages');
    await page.getByRole('button', { name: 'Add section' }).click();
    await savedStatus(page);
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await b?.close();
    await site?.close();
    vimeo?.server.close();
  });

  const panel = () => page.getByRole('complementary');
  const canvas = () => page.locator('.ed-canvas');

  it("a picker whose list fails to load says 'Unable to load collections', and Try again loads it", async () => {
    // The pickers' lists (GET /api/editor/pages) fail; the page itself still loads.
    let fail = true;
    await page.route('**/api/editor/pages', (route) =>
      fail && route.request().method() === 'GET' ? route.abort('failed') : route.continue(),
    );
    await page.goto(editorUrl);
    await addFromPalette(page, 1, 'Summary');
    const alert = panel().getByRole('alert').filter({ hasText: edm.UNABLE_TO_LOAD_COLLECTIONS });
    await alert.waitFor();
    expect(await panel().getByLabel('Collection').count()).toBe(0);
    fail = false;
    await alert.getByRole('button', { name: edm.TRY_AGAIN }).click();
    const collection = panel().getByLabel('Collection');
    await collection.waitFor();
    // The select can appear before its list's options do (they arrive with the retried fetch).
    await expect.poll(async () => (await collection.locator('option').allTextContents()).length, { timeout: 10_000 }).toBeGreaterThan(1);
    expect(await alert.count()).toBe(0);
    await page.unroute('**/api/editor/pages');
  });

  it("a Vimeo address of a Basic account: 'Vimeo Basic accounts are unsupported' on the block's field, and the page is not saved until it changes", async () => {
    await addFromPalette(page, 1, 'Video');
    const address = panel().getByLabel('Video address (a file, YouTube or Vimeo)');
    await address.fill('https://vimeo.com/111111');
    await panel().getByText(pm.VIMEO_BASIC_UNSUPPORTED).waitFor();
    expect(await address.getAttribute('aria-invalid')).toBe('true');
    await page
      .locator('.ed-save[role="status"]')
      .filter({ hasText: `Not saved. ${pm.VIMEO_BASIC_UNSUPPORTED}` })
      .waitFor();
    expect(
      await canvas()
        .getByRole('group', { name: /^Video/ })
        .getAttribute('aria-invalid'),
    ).toBe('true');
    await address.fill('https://vimeo.com/333333');
    await savedStatus(page);
    expect(await panel().getByText(pm.VIMEO_BASIC_UNSUPPORTED).count()).toBe(0);
  });

  it("an open link editor keeps its block: selecting another says 'You may only edit one link at a time'", async () => {
    await addFromPalette(page, 1, 'Text');
    const textBlock = canvas().getByRole('group', { name: /^Text/ });
    await canvas().getByRole('toolbar', { name: 'Text formatting' }).getByRole('button', { name: 'Link', exact: true }).click();
    const address = canvas().getByRole('dialog', { name: 'Add link' }).getByRole('textbox', { name: 'Link address' });
    await address.fill('/shop');
    await canvas()
      .getByRole('group', { name: /^Video/ })
      .click();
    await page
      .getByRole('alert')
      .filter({ hasText: pm.oneTagAtATime('link') })
      .waitFor();
    // The text block stays selected, its link editor open with what was typed, and focus goes back there.
    expect(await textBlock.getAttribute('aria-current')).toBe('true');
    expect(await address.inputValue()).toBe('/shop');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(await address.getAttribute('id'));
    // Adding a block would select it: refused the same way.
    await page.keyboard.press('Escape');
    await page
      .getByRole('alert')
      .filter({ hasText: pm.oneTagAtATime('link') })
      .waitFor({ state: 'detached' });
    await canvas().getByRole('toolbar', { name: 'Text formatting' }).getByRole('button', { name: 'Link', exact: true }).click();
    await address.waitFor();
    await page.getByRole('button', { name: 'Add block to section 1' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: pm.oneTagAtATime('link') })
      .waitFor();
    expect(await page.getByRole('dialog', { name: 'Add a block' }).count()).toBe(0);
    // Cancelled: the message goes, and another block can be selected.
    await page.keyboard.press('Escape');
    await expect
      .poll(() =>
        page
          .getByRole('alert')
          .filter({ hasText: pm.oneTagAtATime('link') })
          .count(),
      )
      .toBe(0);
    await canvas()
      .getByRole('group', { name: /^Video/ })
      .click();
    await expect
      .poll(() =>
        canvas()
          .getByRole('group', { name: /^Video/ })
          .getAttribute('aria-current'),
      )
      .toBe('true');
  });

  it('uploads: a processing job is polled to the end; a failed request, a job answering no data and a processing that never finished each say so', async () => {
    await addFromPalette(page, 1, 'Image');
    const input = panel().getByLabel('Upload image');
    const png = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#36c' } })
      .png()
      .toBuffer();
    const polls: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'GET' && /\/api\/editor\/uploads\/[^/?]+$/.test(r.url())) polls.push(r.url());
    });
    // The server answers 202 (still processing): the editor polls the job until the image is ready.
    await input.setInputFiles({ name: 'swatch.png', mimeType: 'image/png', buffer: png });
    await panel().getByRole('status').filter({ hasText: 'Uploaded swatch.png' }).waitFor();
    expect(polls.length).toBeGreaterThanOrEqual(1);
    expect(await panel().getByLabel('Image address').inputValue()).toMatch(/^\/uploads\/[0-9a-f]{24}\.png$/);

    // The upload request itself fails on the way.
    await page.route('**/api/editor/uploads?*', (route) => route.abort('failed'));
    await input.setInputFiles({ name: 'lost.png', mimeType: 'image/png', buffer: png });
    await panel()
      .getByRole('alert')
      .filter({ hasText: `${edm.UPLOAD_TITLE}: ${edm.UPLOAD_PROBLEM}` })
      .waitFor();
    await page.unroute('**/api/editor/uploads?*');

    // The job answers without data.
    await page.route(/\/api\/editor\/uploads\/[^/?]+$/, (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{}' }),
    );
    await input.setInputFiles({ name: 'quiet.png', mimeType: 'image/png', buffer: png });
    await panel()
      .getByRole('alert')
      .filter({ hasText: `${edm.UPLOAD_TITLE}: ${edm.NO_JOB_RESPONSE}` })
      .waitFor();
    await page.unroute(/\/api\/editor\/uploads\/[^/?]+$/);

    // A processing its instance never finished: the job (the real server) settles it as failed to complete.
    const id = 'c'.repeat(24);
    const old = new Date(Date.now() - STALE_PROCESSING_MS - 1000);
    await site.database.db.insert(schema.uploads).values({
      id,
      websiteId: site.seed.websiteId,
      kind: 'image',
      name: 'stuck.png',
      storedName: `${id}.png`,
      contentType: 'image/png',
      bytes: png.length,
      status: 'processing',
      createdAt: old,
      updatedAt: old,
    });
    await page.route('**/api/editor/uploads?*', (route) =>
      route.fulfill({
        status: 202,
        contentType: 'application/json',
        body: JSON.stringify({
          upload: {
            id,
            name: 'stuck.png',
            kind: 'image',
            contentType: 'image/png',
            bytes: png.length,
            status: 'processing',
            error: null,
            url: `/uploads/${id}.png`,
            originalSize: null,
            createdAt: old.toISOString(),
          },
        }),
      }),
    );
    await input.setInputFiles({ name: 'stuck.png', mimeType: 'image/png', buffer: png });
    await panel()
      .getByRole('alert')
      .filter({ hasText: `${edm.UPLOAD_TITLE}: ${edm.FILE_PROCESSING_INCOMPLETE}` })
      .waitFor();
    await page.unroute('**/api/editor/uploads?*');
  });

  it("Site styles: the font library failing says 'Unable to load fonts' (Try again loads it); a font file failing says 'Unable to load preview for a font'", async () => {
    let fail = true;
    await page.route('**/site-fonts/library.css*', (route) => (fail ? route.abort('failed') : route.continue()));
    await page.goto(`${site.url}/config/styles`);
    const alert = page.getByRole('alert').filter({ hasText: edm.UNABLE_TO_LOAD_FONTS });
    await alert.waitFor();
    fail = false;
    await alert.getByRole('button', { name: edm.TRY_AGAIN }).click();
    await expect.poll(() => alert.count()).toBe(0);
    await page.unroute('**/site-fonts/library.css*');

    // A library family chosen whose font file does not arrive.
    await page.route('**/site-fonts/*/*/*.woff2', (route) => route.abort('failed'));
    await page.reload();
    const library = FONT_LIBRARY.find((f) => f.id === 'playfair-display')!;
    await page.getByRole('form', { name: 'Site styles' }).getByLabel('Headings font').selectOption(library.stack);
    await page.getByRole('alert').filter({ hasText: edm.FONT_PREVIEW_FAILED }).waitFor();
    expect(await page.getByText(edm.UNABLE_TO_LOAD_FONTS).count()).toBe(0);
    await page.unroute('**/site-fonts/*/*/*.woff2');
  });

  it("Site settings: the time zone list failing says 'Failed to load timezone, retry connection', and Retry loads it", async () => {
    let fail = true;
    await page.route('**/api/admin/time-zones', (route) => (fail ? route.abort('failed') : route.continue()));
    await page.goto(`${site.url}/config/settings`);
    const alert = page.getByRole('alert').filter({ hasText: edm.TIMEZONE_FAILED });
    await alert.waitFor();
    // The site's own zone stays chosen, so the rest of the form still saves.
    const zone = page.getByLabel('Time zone');
    expect(await zone.locator('option').count()).toBe(1);
    fail = false;
    await alert.getByRole('button', { name: edm.RETRY }).click();
    await expect.poll(() => zone.locator('option').count()).toBeGreaterThan(100);
    expect(await zone.locator('option[value="Europe/Paris"]').count()).toBe(1);
    expect(await alert.count()).toBe(0);
    await page.unroute('**/api/admin/time-zones');
  });

  it("on Android, code is not edited: 'Code editing is not available on Android' in the code block and header and footer code", async () => {
    const android = await b.browser.newContext({
      viewport: { width: 412, height: 900 },
      userAgent: ANDROID_UA,
      storageState: await context.storageState(),
    });
    try {
      const p = await android.newPage();
      await p.goto(`${site.url}/config/code`);
      await p.getByRole('alert').filter({ hasText: edm.NO_CODE_EDITING_ANDROID }).waitFor();
      expect(await p.getByRole('textbox', { name: 'Header code' }).count()).toBe(0);

      await p.goto(editorUrl);
      await addFromPalette(p, 1, 'Code');
      const side = p.getByRole('complementary');
      await side.getByRole('alert').filter({ hasText: edm.NO_CODE_EDITING_ANDROID }).waitFor();
      expect(await side.getByRole('textbox', { name: 'Code', exact: true }).count()).toBe(0);
    } finally {
      await android.close();
    }
    // The same screens elsewhere keep their code fields.
    await page.goto(`${site.url}/config/code`);
    await page.getByRole('textbox', { name: 'Header code' }).waitFor();
    expect(await page.getByText(edm.NO_CODE_EDITING_ANDROID).count()).toBe(0);
  });
});
