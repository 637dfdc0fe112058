import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Locator, Page } from 'playwright-core';
import {
  addFromPalette,
  launchBrowser,
  liveSite,
  savedStatus as saved,
  signInAsOwner,
  type BrowserSession,
  type LiveSite,
} from '../../helpers/browser.js';
import { expectNoAxeViolations } from '../../helpers/axe.js';

/** The fraction of pixels of two same-sized PNG screenshots that differ by more than `threshold` in any channel. */
async function pixelDiff(
  a: Buffer,
  b: Buffer,
  threshold = 24,
): Promise<{ width: number; height: number; otherWidth: number; otherHeight: number; ratio: number }> {
  const ra = await sharp(a).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const rb = await sharp(b).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const w = Math.min(ra.info.width, rb.info.width);
  const h = Math.min(ra.info.height, rb.info.height);
  let differ = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const ia = (y * ra.info.width + x) * 3;
      const ib = (y * rb.info.width + x) * 3;
      if (
        Math.abs(ra.data[ia]! - rb.data[ib]!) > threshold ||
        Math.abs(ra.data[ia + 1]! - rb.data[ib + 1]!) > threshold ||
        Math.abs(ra.data[ia + 2]! - rb.data[ib + 2]!) > threshold
      )
        differ++;
    }
  }
  return {
    width: ra.info.width,
    height: ra.info.height,
    otherWidth: rb.info.width,
    otherHeight: rb.info.height,
    ratio: differ / Math.max(1, w * h),
  };
}

/** A screenshot of an element, clipped to its box (no scrolling offsets: the element is scrolled into view first). */
async function shot(page: Page, el: Locator): Promise<Buffer> {
  await el.scrollIntoViewIfNeeded();
  const box = (await el.boundingBox())!;
  return page.screenshot({
    clip: { x: Math.round(box.x), y: Math.round(box.y), width: Math.round(box.width), height: Math.round(box.height) },
  });
}

describe('the visual canvas in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  it('an owner builds a page on the canvas as the site draws it, adds it to the navigation when creating it, and a visitor finds its text through search', async () => {
    const context = await b.browser.newContext({ viewport: { width: 1920, height: 1200 } });
    const page = await signInAsOwner(await context.newPage(), site);

    // Create the page, last in the main navigation.
    await page.getByRole('link', { name: 'Page editor', exact: true }).click();
    await page.waitForURL(`${site.url}/config/pages`);
    const form = page.getByRole('form', { name: 'Create a page' });
    await form.getByLabel('Page title').fill('Kiln notes');
    await form.getByLabel('Add to the main navigation').selectOption({ label: 'Last' });
    await form.getByRole('button', { name: 'Create page' }).click();
    await page.waitForURL(/\/config\/pages\/[^/]+$/);
    await page.getByRole('heading', { level: 1, name: /Edit page: Kiln notes/ }).waitFor();
    const pageId = page.url().split('/').pop()!;
    await page.getByRole('button', { name: 'Add section' }).click();
    const panel = page.getByRole('complementary');
    const canvas = page.locator('.ed-canvas');

    // Heading, from the side panel; it shows on the canvas as the theme's heading.
    await addFromPalette(page, 1, 'Heading');
    await panel.getByLabel('Heading text').fill('Glazes we love');
    await canvas.getByRole('heading', { name: 'Glazes we love', level: 2 }).waitFor();
    // Text, typed in place on the canvas with the rich-text toolbar.
    await addFromPalette(page, 1, 'Text');
    const region = canvas.getByRole('textbox', { name: 'Text', exact: true });
    await region.click();
    await page.keyboard.type('Our quokka glaze is fired ');
    await canvas.getByRole('toolbar', { name: 'Text formatting' }).getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type('twice');
    await saved(page);
    // Image, uploaded.
    await addFromPalette(page, 1, 'Image');
    const png = await sharp({ create: { width: 240, height: 160, channels: 3, background: '#c8643c' } })
      .png()
      .toBuffer();
    await panel.getByLabel('Upload image').setInputFiles({ name: 'kiln.png', mimeType: 'image/png', buffer: png });
    await panel.getByRole('status').filter({ hasText: 'Uploaded kiln.png' }).waitFor();
    await panel.getByLabel('Alt text').fill('The kiln at night');
    // Product: a real product card with price, variants and Add to Cart on the canvas.
    await addFromPalette(page, 1, 'Product');
    await panel.getByLabel('Product').selectOption({ label: 'Linen Camp Shirt' });
    const card = canvas.locator('.product-block');
    await card.getByRole('button', { name: /add to cart/i }).waitFor();
    expect(await card.locator('.product-price').textContent()).toMatch(/\$\d/);
    expect(await card.locator('select').count()).toBeGreaterThan(0);
    await saved(page);

    // The canvas passes axe-core with the blocks drawn.
    await expectNoAxeViolations(page, { element: '.ed-canvas-frame' });

    await page.getByRole('button', { name: 'Publish' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Published\./ })
      .waitFor();

    // Nothing selected, the pointer away: the canvas shows only the page.
    await page.locator('.ed-canvas__main').click({ position: { x: 5, y: 5 } });
    await page.mouse.move(1, 1);
    const doc = await page.evaluate(async (id) => (await fetch(`/api/editor/pages/${id}`)).json(), pageId);
    const blocks = (doc.layout.sections[0].blocks as Array<{ id: string; type: number }>).map((x) => x.id);
    expect(blocks).toHaveLength(4);

    // The visitor's page at the same width as the canvas's page column.
    const visitorContext = await b.browser.newContext({ viewport: { width: 1280, height: 1200 } });
    const visitor = await visitorContext.newPage();
    const res = await visitor.goto(`${site.url}/kiln-notes`);
    expect(res?.status()).toBe(200);
    await visitor.getByRole('main').getByRole('heading', { name: 'Glazes we love' }).waitFor();
    await visitor.locator('img[alt="The kiln at night"]').evaluate((img: HTMLImageElement) => img.decode());
    await page.locator('.ed-canvas img[alt="The kiln at night"]').evaluate((img: HTMLImageElement) => img.decode());
    await visitor.mouse.move(1, 1);
    const results: Record<string, Awaited<ReturnType<typeof pixelDiff>>> = {};
    for (const [i, id] of blocks.entries()) {
      const inEditor = await shot(page, page.locator(`#ed-block-${id}`));
      const onSite = await shot(visitor, visitor.locator(`#block-${id}`));
      results[['heading', 'text', 'image', 'product'][i]!] = await pixelDiff(inEditor, onSite);
    }
    // The canvas's page column is the site's (.site-main at 1120 px), so blocks have the site's widths.
    expect(await page.locator('.ed-canvas__main').evaluate((e) => e.getBoundingClientRect().width)).toBe(1120);
    for (const [name, r] of Object.entries(results)) {
      expect(Math.abs(r.width - r.otherWidth), `${name} width`).toBeLessThanOrEqual(1);
      expect(Math.abs(r.height - r.otherHeight), `${name} height`).toBeLessThanOrEqual(1);
      expect(r.ratio, `${name} differing pixels`).toBeLessThanOrEqual(0.01);
    }

    // At phone width: the canvas at 375 px against a 375 px visitor (the blocks' mobile placement).
    await page.getByRole('group', { name: 'Device' }).getByRole('button', { name: 'Phone' }).click();
    await expect.poll(() => page.locator('.ed-canvas').evaluate((e) => e.getBoundingClientRect().width)).toBe(375);
    await visitor.setViewportSize({ width: 375, height: 1200 });
    await page.mouse.move(1, 1);
    for (const [i, id] of blocks.entries()) {
      const name = ['heading', 'text', 'image', 'product'][i]!;
      const r = await pixelDiff(await shot(page, page.locator(`#ed-block-${id}`)), await shot(visitor, visitor.locator(`#block-${id}`)));
      expect(Math.abs(r.width - r.otherWidth), `${name} width at phone width`).toBeLessThanOrEqual(1);
      expect(Math.abs(r.height - r.otherHeight), `${name} height at phone width`).toBeLessThanOrEqual(1);
      // Same boxes at phone width too; text glyphs there differ in 2-5% of the pixels (see the report), so only
      // the image's pixels are compared at this width.
      if (name === 'image') expect(r.ratio, `${name} differing pixels at phone width`).toBeLessThanOrEqual(0.01);
    }

    // The navigation offers the page, and search finds its text.
    await visitor.setViewportSize({ width: 1280, height: 1200 });
    await visitor.goto(`${site.url}/`);
    expect(await visitor.getByRole('navigation').first().getByRole('link', { name: 'Kiln notes' }).getAttribute('href')).toBe(
      '/kiln-notes',
    );
    await visitor.goto(`${site.url}/search?q=quokka`);
    await visitor.getByRole('main').getByRole('link', { name: 'Kiln notes' }).first().waitFor();
    expect(await visitor.getByRole('main').locator('mark').first().textContent()).toMatch(/quokka/i);
    await visitorContext.close();
    await context.close();
  });
});
