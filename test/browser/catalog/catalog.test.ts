/**
 * The catalogue (issue 24) in Chromium at 1280 px and 390 px: an owner creates a product with two options (3 x 2
 * variants generated), uploads three images and reorders them by keyboard, sets per-variant stock and one variant's
 * image, publishes, and sees the product on the public site with the right image per variant. Then the product
 * list: search, filter, inline stock edit, bulk unpublish. Screenshots of the list and the editor go to
 * SCREENSHOT_DIR (docs/screenshots/ when regenerating them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import {
  hydrated,
  launchBrowser,
  liveSite,
  signInAsOwner,
  watchConsole,
  type BrowserSession,
  type LiveSite,
} from '../../helpers/browser.js';
import { expectNoAxeViolations, WCAG_AA } from '../../helpers/axe.js';

async function call(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; data: Record<string, unknown> }> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const crumb =
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('crumb='))
          ?.slice(6) ?? '';
      const res = await fetch(url, {
        method,
        headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(crumb) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, data: (await res.json().catch(() => ({}))) as Record<string, unknown> };
    },
    { method, url, body },
  );
}

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const tileOrder = (page: Page) =>
  page
    .getByRole('list', { name: 'Product images' })
    .locator('li img')
    .evaluateAll((imgs) => imgs.map((i) => i.getAttribute('src') ?? ''));

/** Where the screenshots go: docs/screenshots/ when regenerating the README's images (SCREENSHOT_DIR=docs/screenshots), else a temporary folder, so a test run leaves the checkout as it was. */
const SHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'tessera-catalog-shots');

describe('catalogue in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  const files: Record<string, string> = {};
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
    const dir = join(tmpdir(), `catalog-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    mkdirSync(SHOTS, { recursive: true });
    const colours: Record<string, { r: number; g: number; b: number }> = {
      red: { r: 200, g: 40, b: 40 },
      green: { r: 40, g: 160, b: 80 },
      blue: { r: 40, g: 70, b: 200 },
    };
    for (const [name, background] of Object.entries(colours)) {
      files[name] = join(dir, `${name}.png`);
      await sharp({ create: { width: 600, height: 600, channels: 3, background } })
        .png()
        .toFile(files[name]);
    }
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  for (const width of [1280, 390]) {
    it(`at ${width} px: a product with 3 x 2 variants, three images reordered by keyboard, per-variant stock and image, published and shown per variant on the site`, async () => {
      const ctx = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      const problems = watchConsole(page);
      await signInAsOwner(page, site, '/config/products/new');
      const form = page.getByRole('form', { name: 'New product' });
      await form.waitFor();
      const title = `Canvas Tote ${width}`;
      await form.getByLabel('Title', { exact: true }).fill(title);
      await form.getByRole('textbox', { name: 'Description', exact: true }).click();
      await page.keyboard.type('A sturdy tote for the market.');

      // Three images through the upload route (sharp pipeline), in the order chosen.
      await form.getByLabel('Choose images to upload').setInputFiles([files.red!, files.green!, files.blue!]);
      await form.getByRole('button', { name: 'Move image 3 of 3' }).waitFor();
      const uploaded = await tileOrder(page);
      expect(uploaded).toHaveLength(3);
      expect(uploaded.every((u) => u.startsWith('/uploads/'))).toBe(true);

      // Keyboard reorder: pick up image 3 with Space, move it to the front with the arrow keys (the grid's
      // layout decides which arrows lead there; the live region says where the image is), drop with Space.
      await page.waitForFunction(() =>
        [...document.querySelectorAll('ol[aria-label="Product images"] img')].every((i) => (i as HTMLImageElement).complete),
      );
      const live = page.locator('[id^="DndLiveRegion"]');
      const handle = form.getByRole('button', { name: 'Move image 3 of 3' });
      await handle.focus();
      await page.keyboard.press('Space');
      await expect.poll(() => live.textContent()).toMatch(/Picked up image 3|image 3 is over position 3 of 3/);
      // Each press waits for the live region to announce the move before the next, so a slow machine never
      // sends a key while the previous move is still being measured; an arrow that leads nowhere changes nothing.
      for (let i = 0; i < 8; i++) {
        const before = await live.textContent();
        if (before?.includes('over position 1 of 3')) break;
        await page.keyboard.press(i % 2 === 0 ? 'ArrowLeft' : 'ArrowUp');
        await expect
          .poll(async () => (await live.textContent()) !== before, { timeout: 3000 })
          .toBe(true)
          .catch(() => undefined);
      }
      await expect.poll(() => live.textContent()).toContain('over position 1 of 3');
      await page.keyboard.press('Space');
      await expect.poll(() => tileOrder(page)).toEqual([uploaded[2], uploaded[0], uploaded[1]]);
      await form.getByLabel('Alt text for image 1').fill('Blue tote');

      // Two options: Size S, M, L and Colour Sand, Navy generate 6 variants.
      await form.getByRole('button', { name: 'Add options like size or colour' }).click();
      const o1 = form.getByRole('group', { name: 'Option 1' });
      await o1.getByLabel('Option name').fill('Size');
      for (const v of ['S', 'M', 'L']) {
        await o1.getByLabel('Add a value to Size').fill(v);
        await o1.getByLabel('Add a value to Size').press('Enter');
      }
      await form.getByRole('button', { name: 'Add another option' }).click();
      const o2 = form.getByRole('group', { name: 'Option 2' });
      await o2.getByLabel('Option name').fill('Colour');
      for (const v of ['Sand', 'Navy']) {
        await o2.getByLabel('Add a value to Colour').fill(v);
        await o2.getByLabel('Add a value to Colour').press('Enter');
      }
      const variants = form.getByRole('group', { name: /^Variant / });
      await expect.poll(() => variants.count()).toBe(6);
      const names = await variants.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
      expect(names).toEqual([
        'Variant S / Sand',
        'Variant S / Navy',
        'Variant M / Sand',
        'Variant M / Navy',
        'Variant L / Sand',
        'Variant L / Navy',
      ]);
      // SKUs are suggested from the title and the options.
      expect(await form.getByRole('group', { name: 'Variant M / Navy' }).getByLabel('SKU').inputValue()).toBe(
        `CANVAS-TOTE-${width}-M-NAVY`,
      );

      for (let i = 0; i < 6; i++) {
        const g = variants.nth(i);
        await g.getByLabel('Price', { exact: true }).fill(i < 2 ? '24.00' : '26.50');
        await g.getByLabel('Stock', { exact: true }).fill(String(i + 1));
        await g.getByLabel('Weight (kg)').fill('0.4');
      }
      // M / Navy shows the green image (now image 3).
      await form.getByRole('group', { name: 'Variant M / Navy' }).getByLabel('Image').selectOption({ label: 'Image 3' });

      await form.getByLabel('Page title').fill(`${title} | Fernhill`);
      await form.getByLabel('Tags').fill('bags');
      await form.getByLabel('Tags').press('Enter');
      expect(await form.getByRole('status').filter({ hasText: 'Unsaved changes' }).isVisible()).toBe(true);

      if (width === 1280 || width === 390) {
        await page.screenshot({ path: join(SHOTS, `product-editor-${width}.png`), fullPage: true });
        await expectNoAxeViolations(page, { tags: WCAG_AA });
        expect(await noSideScroll(page)).toBe(true);
      }

      await form.getByRole('button', { name: 'Publish' }).click();
      await page.waitForURL(/\/config\/products\/[0-9a-f]{24}$/);
      const id = page.url().split('/').pop()!;
      await page.getByRole('form', { name: 'Edit product' }).getByRole('link', { name: 'View on site' }).waitFor();

      const saved = await call(page, 'GET', `/api/config/products/${id}`);
      const p = saved.data as {
        status: string;
        urlId: string;
        images: Array<{ assetUrl: string; altText: string }>;
        variants: Array<{
          attributes: Record<string, string>;
          priceCents: number;
          qtyInStock: number;
          sku: string;
          imageUrl: string;
          weightGrams: number;
        }>;
        seoTitle: string;
        tags: string[];
      };
      expect(p.status).toBe('published');
      expect(p.images.map((i) => i.assetUrl)).toEqual([uploaded[2], uploaded[0], uploaded[1]]);
      expect(p.images[0]!.altText).toBe('Blue tote');
      expect(p.variants.map((v) => [Object.values(v.attributes).join('/'), v.priceCents, v.qtyInStock, v.weightGrams])).toEqual([
        ['S/Sand', 2400, 1, 400],
        ['S/Navy', 2400, 2, 400],
        ['M/Sand', 2650, 3, 400],
        ['M/Navy', 2650, 4, 400],
        ['L/Sand', 2650, 5, 400],
        ['L/Navy', 2650, 6, 400],
      ]);
      expect(p.variants.find((v) => v.attributes.Size === 'M' && v.attributes.Colour === 'Navy')!.imageUrl).toBe(uploaded[1]);
      expect(p.seoTitle).toBe(`${title} | Fernhill`);
      expect(p.tags).toEqual(['bags']);

      // The public product page: the main image, and the chosen variant's own image.
      const shop = await ctx.newPage();
      const shopProblems = watchConsole(shop);
      const href = await page.getByRole('link', { name: 'View on site' }).getAttribute('href');
      await shop.goto(`${site.url}${href}`);
      await shop.waitForFunction(...hydrated('VariantSelect'));
      expect(await shop.title()).toContain(`${title} | Fernhill`);
      const main = shop.locator('img.product-detail__image');
      expect(await main.getAttribute('src')).toBe(uploaded[2]);
      await shop.getByLabel('Select Size').selectOption('M');
      await shop.getByLabel('Select Colour').selectOption('Navy');
      await expect.poll(() => main.getAttribute('src')).toBe(uploaded[1]);
      expect(await shop.locator('[data-product-price-for]').first().textContent()).toContain('$26.50');
      await shop.getByLabel('Select Colour').selectOption('Sand');
      await expect.poll(() => main.getAttribute('src')).toBe(uploaded[2]);
      expect(shopProblems).toEqual([]);

      expect(problems.filter((x) => !/Failed to load resource/.test(x))).toEqual([]);
      await ctx.close();
    });
  }

  for (const width of [1280, 390]) {
    it(`at ${width} px: the product list searches, filters, edits stock inline and unpublishes in bulk`, async () => {
      const ctx = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      const problems = watchConsole(page);
      await signInAsOwner(page, site, '/config/products');
      const list = page.getByRole('region', { name: 'Product list' });
      await list.getByRole('link', { name: `Canvas Tote ${width}` }).waitFor();
      expect(await noSideScroll(page)).toBe(true);
      await page.screenshot({ path: join(SHOTS, `product-list-${width}.png`), fullPage: true });
      await expectNoAxeViolations(page, { tags: WCAG_AA });

      await list.getByRole('searchbox', { name: 'Search products' }).fill('tote');
      await expect.poll(() => list.getByRole('link', { name: 'Ceramic Pour-Over Set' }).count()).toBe(0);
      expect(await list.getByRole('link', { name: /^Canvas Tote/ }).count()).toBe(2);

      // A one-variant product's stock, edited in place.
      await list.getByRole('searchbox', { name: 'Search products' }).fill('');
      await list.getByLabel('Sort by').selectOption('title');
      await list.getByLabel('Status').selectOption('published');
      const stock = list.getByLabel('Stock of Ceramic Pour-Over Set');
      await stock.waitFor();
      await stock.fill(String(40 + (width === 390 ? 1 : 0)));
      await stock.press('Enter');
      await page
        .getByText(`Stock of Ceramic Pour-Over Set set to ${40 + (width === 390 ? 1 : 0)}.`)
        .first()
        .waitFor();
      const inv = await call(page, 'GET', '/api/config/catalog/inventory?q=pour-over');
      expect((inv.data.variants as Array<{ qtyInStock: number }>)[0]!.qtyInStock).toBe(40 + (width === 390 ? 1 : 0));

      // Bulk: select this width's tote, unpublish it; the Draft filter then lists it.
      await list.getByLabel('Status').selectOption('');
      await list.getByRole('checkbox', { name: `Select Canvas Tote ${width}` }).check();
      await list.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Unpublish' }).click();
      await page.getByText('1 product set to draft.').first().waitFor();
      await list.getByLabel('Status').selectOption('draft');
      await list.getByRole('link', { name: `Canvas Tote ${width}` }).waitFor();
      expect(problems.filter((x) => !/Failed to load resource/.test(x))).toEqual([]);
      await ctx.close();
    });
  }

  it('import screen at 1280 px: a file with a bad row lists it; a good file imports with progress to done', async () => {
    const ctx = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    const problems = watchConsole(page);
    await signInAsOwner(page, site, '/config/products/import');
    const header =
      'Product ID [Non Editable],Variant ID [Non Editable],Product Type [Non Editable],Product Page,Product URL,Title,Description,SKU,Option Name 1,Option Value 1,Price,Sale Price,On Sale,Stock,Visible,Hosted Image URLs';
    const bad = `${header}\n,,PHYSICAL,shop,tin-cup,Tin Cup,,CUP-1,,,nine,,No,4,Yes,\n`;
    const good = `${header}\n,,PHYSICAL,shop,tin-cup,Tin Cup,,CUP-1,Size,Small,9.00,,No,4,Yes,\n,,,,,,,CUP-2,,Large,11.00,,No,2,,\n`;
    const file = page.getByLabel('CSV file');
    await file.setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    const dry = page.getByRole('region', { name: 'Dry run' });
    await dry.getByRole('cell', { name: 'Price "nine" is not an amount (use a number such as 12.50).' }).waitFor();
    expect(await dry.getByRole('button', { name: /^Import/ }).count()).toBe(0);
    await file.setInputFiles({ name: 'good.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
    await dry.getByText('1 products with 2 variants: 1 to add, 0 to update. No errors.').waitFor();
    await page.screenshot({ path: join(SHOTS, 'product-import-1280.png'), fullPage: true });
    await dry.getByRole('button', { name: 'Import 1 products' }).click();
    const progress = page.getByRole('region', { name: 'Import progress' });
    await progress.getByText('Done: 1 created, 0 updated.').waitFor();
    expect(await progress.getByRole('progressbar').getAttribute('value')).toBe('1');
    await expectNoAxeViolations(page, { tags: WCAG_AA });
    expect(problems.filter((x) => !/Failed to load resource/.test(x))).toEqual([]);
    await ctx.close();
  });

  it('inventory at 390 px: bulk edit of stock and a threshold, then the variant history names the manual edit', async () => {
    const ctx = await b.browser.newContext({ viewport: { width: 390, height: 900 } });
    const page = await ctx.newPage();
    const problems = watchConsole(page);
    await signInAsOwner(page, site, '/config/inventory');
    const inv = page.getByRole('region', { name: 'Inventory' });
    await inv.getByRole('searchbox', { name: 'Search variants' }).fill('tin cup');
    await inv.getByLabel('Stock of Tin Cup (Small)').fill('10');
    await inv.getByLabel('Low-stock threshold of Tin Cup (Large)').fill('3');
    await page.getByRole('region', { name: 'Bulk edit' }).getByRole('button', { name: 'Save 2 changes' }).click();
    await page.getByText('2 variants updated.').first().waitFor();
    expect(await noSideScroll(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'inventory-390.png'), fullPage: true });
    await inv.getByRole('button', { name: 'Stock history of Tin Cup (Small)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Stock history' });
    await dialog.getByRole('cell', { name: 'Manual edit' }).waitFor();
    expect(await dialog.getByRole('cell', { name: 'Import', exact: true }).count()).toBe(1);
    expect(await dialog.getByRole('cell', { name: '+4', exact: true }).count()).toBe(1);
    expect(await dialog.getByRole('cell', { name: '+6', exact: true }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Large is at its threshold (2 <= 3): the low-stock filter lists it.
    await inv.getByLabel('Low stock only').check();
    await inv.getByRole('link', { name: 'Tin Cup' }).first().waitFor();
    expect(await inv.getByLabel('Stock of Tin Cup (Small)').count()).toBe(0);
    expect(problems.filter((x) => !/Failed to load resource/.test(x))).toEqual([]);
    await ctx.close();
  });
});
