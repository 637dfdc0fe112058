/**
 * Duplicate, archive and the bulk editor (issue 41) in Chromium at 1280 px and 390 px, found by role and name:
 * - the owner duplicates a product from its editor (a draft copy with "-copy" SKUs and no stock), archives the
 *   original (it leaves the site), finds it with the list's Archived filter and unarchives it;
 * - the bulk editor, opened on 4 products chosen in the list, changes prices and weights of their 20 variants in
 *   one save; then a sale price over its price is refused with the message on that cell, and nothing is saved.
 * axe-core checks each screen; screenshots go to SCREENSHOT_DIR (docs/screenshots/ when regenerating them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { OWNER, Visitor } from '../../helpers/app.js';
import { expectNoAxeViolations, WCAG_AA_BEST_PRACTICE } from '../../helpers/axe.js';
import { ProductType } from '../../../src/core/enums.js';
import { CATALOG_TEXT } from '../../../src/core/api/catalog.js';

const SHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'tessera-catalog-shots');
const SIZES = ['XS', 'S', 'M', 'L', 'XL'];
const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
/** A full-page screenshot from the top (sticky bars then sit where a reader first sees them). */
async function shot(page: Page, name: string, width: number, fullPage = true) {
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage });
}

type SheetVariant = { id: string; sku: string; priceCents: number; salePriceCents: number | null; weightGrams: number };

describe('duplicate, archive and the bulk editor in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let owner: Visitor;
  let shopId: string;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
    mkdirSync(SHOTS, { recursive: true });
    owner = new Visitor(site.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    shopId = (await owner.get(`/api/config/products/${site.seed.productIds['linen-camp-shirt']}`)).json().collectionId;
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  /** A published product of five sizes, through the product editor's call. */
  async function product(title: string, sku: string): Promise<string> {
    const r = await owner.send('POST', '/api/config/products', {
      collectionId: shopId,
      title,
      productType: ProductType.PHYSICAL,
      variantOptionOrdering: ['Size'],
      variants: SIZES.map((s) => ({ sku: `${sku}-${s}`, attributes: { Size: s }, priceCents: 1000, qtyInStock: 4, weightGrams: 200 })),
    });
    expect(r.statusCode, r.body).toBe(201);
    return r.json().id;
  }
  const sheet = async (ids: string[]) =>
    (
      (await owner.get(`/api/config/catalog/bulk-edit?ids=${ids.join(',')}`)).json().products as Array<{ variants: SheetVariant[] }>
    ).flatMap((p) => p.variants);

  for (const width of [1280, 390]) {
    it(`at ${width} px: duplicates a product, archives the original, finds it under Archived and unarchives it`, async () => {
      const title = `Field Jacket ${width}`;
      const id = await product(title, `JACKET${width}`);
      const ctx = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      const problems = watchConsole(page);
      await signInAsOwner(page, site, `/config/products/${id}`);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();

      await page.getByRole('button', { name: 'Duplicate', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Duplicate ${title}` });
      await dialog.waitFor();
      const copyTitle = dialog.getByRole('textbox', { name: 'Title of the copy' });
      expect(await copyTitle.inputValue()).toBe(`Copy of ${title}`);
      await expectNoAxeViolations(page, { tags: WCAG_AA_BEST_PRACTICE }, 'the duplicate dialog');
      await shot(page, 'product-duplicate', width, false);
      // Escape closes the dialog and gives focus back to its button.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Duplicate');
      await page.getByRole('button', { name: 'Duplicate', exact: true }).click();
      await copyTitle.fill(`${title}, olive`);
      await dialog.getByRole('button', { name: 'Duplicate product' }).click();
      await page.getByRole('heading', { level: 1, name: `${title}, olive` }).waitFor();
      expect(page.url()).not.toContain(id);
      expect(await page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('draft');
      expect(await page.getByRole('textbox', { name: 'SKU' }).first().inputValue()).toBe(`JACKET${width}-XS-copy`);
      expect(await page.getByRole('spinbutton', { name: 'Stock' }).first().inputValue()).toBe('0');

      // Archive the original from its editor: it leaves the site.
      await page.goto(`${site.url}/config/products/${id}`);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      const slug = (await owner.get(`/api/config/products/${id}`)).json().urlId;
      expect((await new Visitor(site.app).get(`/shop/p/${slug}`)).statusCode).toBe(200);
      await page.getByRole('button', { name: 'Archive product' }).click();
      const ask = page.getByRole('alertdialog', { name: `Archive ${title}?` });
      await ask.getByRole('button', { name: 'Archive product' }).click();
      await page.getByRole('button', { name: 'Unarchive product' }).waitFor();
      expect(await page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('archived');
      expect((await new Visitor(site.app).get(`/shop/p/${slug}`)).statusCode).toBe(404);
      await expectNoAxeViolations(page, { tags: WCAG_AA_BEST_PRACTICE }, 'an archived product');
      expect(await noSideScroll(page)).toBe(true);

      // The list's Archived filter finds it; Unarchive brings it back as a draft.
      await page.goto(`${site.url}/config/products`);
      const list = page.getByRole('region', { name: 'Product list' });
      await list.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Archived' });
      await list.getByRole('link', { name: title, exact: true }).waitFor();
      await expect.poll(() => list.getByRole('link', { name: `${title}, olive` }).count()).toBe(0);
      await list.getByRole('checkbox', { name: `Select ${title}` }).check();
      await expectNoAxeViolations(page, { tags: WCAG_AA_BEST_PRACTICE }, 'the archived products');
      expect(await noSideScroll(page)).toBe(true);
      await shot(page, 'product-list-archived', width);
      await list.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Unarchive' }).click();
      await page.getByText('1 product unarchived as drafts.').first().waitFor();
      expect((await owner.get(`/api/config/products/${id}`)).json().status).toBe('draft');

      // A digital product is not sent as a parcel: its editor asks for no weight or dimensions (a physical one does).
      await page.goto(`${site.url}/config/products/${site.seed.productIds['houseplant-field-guide']}`);
      await page.getByRole('heading', { level: 1, name: 'The Houseplant Field Guide (eBook)' }).waitFor();
      await page.getByRole('textbox', { name: 'SKU' }).first().waitFor();
      expect(await page.getByRole('textbox', { name: 'Weight (kg)' }).count()).toBe(0);
      expect(await page.getByRole('group', { name: 'Dimensions' }).count()).toBe(0);
      await page.goto(`${site.url}/config/products/${id}`);
      await page.getByRole('textbox', { name: 'Weight (kg)' }).first().waitFor();
      expect(problems.filter((x) => !/Failed to load resource/.test(x))).toEqual([]);
      await ctx.close();
    });

    it(`at ${width} px: the bulk editor changes prices and weights of 20 variants across 4 products in one save, and refuses a bad cell on that cell`, async () => {
      const tag = `Bulk${width}`;
      const ids: string[] = [];
      for (let n = 1; n <= 4; n++) ids.push(await product(`${tag} tee ${n}`, `${tag}-${n}`));
      const ctx = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      const problems = watchConsole(page);
      await signInAsOwner(page, site, '/config/products');
      const list = page.getByRole('region', { name: 'Product list' });
      await list.getByRole('searchbox', { name: 'Search products' }).fill(tag);
      await expect.poll(() => list.getByRole('link', { name: new RegExp(`^${tag} tee`) }).count()).toBe(4);
      // Phones have no select-all box (the list is cards there): each product is chosen on its own.
      for (let n = 1; n <= 4; n++) await list.getByRole('checkbox', { name: `Select ${tag} tee ${n}` }).check();
      await list.getByRole('region', { name: 'Bulk actions' }).getByRole('link', { name: 'Edit in bulk' }).click();
      await page.getByRole('heading', { level: 1, name: 'Bulk editor' }).waitFor();
      const editor = page.getByRole('region', { name: 'Bulk editor' });
      const cell = (column: string, n: number, size: string) =>
        editor.getByRole('textbox', { name: `${column} of ${tag} tee ${n}, ${size}`, exact: true });
      await cell('Price', 4, 'XL').waitFor();
      expect(await editor.getByRole('textbox', { name: /^Price of / }).count()).toBe(20);
      await expectNoAxeViolations(page, { tags: WCAG_AA_BEST_PRACTICE }, 'the bulk editor');
      expect(await noSideScroll(page)).toBe(true);
      await shot(page, 'product-bulk-editor', width);

      // Every weight through Apply to all; every price typed, moving down the column with Enter.
      const apply = editor.getByRole('group', { name: 'Apply to all' });
      await apply.getByRole('combobox', { name: 'Column' }).selectOption({ label: 'Weight (kg)' });
      await apply.getByRole('textbox', { name: 'Value' }).fill('0.35');
      await apply.getByRole('button', { name: 'Apply to every variant' }).click();
      expect(await cell('Weight (kg)', 3, 'M').inputValue()).toBe('0.35');
      await cell('Price', 1, 'XS').click();
      for (let n = 1; n <= 4; n++)
        for (const [i, size] of SIZES.entries()) {
          const price = cell('Price', n, size);
          expect(await price.evaluate((el) => el === document.activeElement)).toBe(true);
          await price.fill(`${20 + n}.${i}0`);
          await price.press('Enter');
        }
      await editor.getByRole('status').filter({ hasText: '20 variants changed' }).waitFor();
      await editor.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved 20 variants.').first().waitFor();
      const saved = await sheet(ids);
      expect(saved.map((v) => v.priceCents)).toEqual([1, 2, 3, 4].flatMap((n) => SIZES.map((_, i) => (20 + n) * 100 + i * 10)));
      expect(saved.map((v) => v.weightGrams)).toEqual(saved.map(() => 350));
      await editor.getByRole('status').filter({ hasText: 'No changes' }).waitFor();

      // A sale price over its price refuses the save: the message is on that cell, and the other change is not saved.
      await cell('Price', 1, 'XS').fill('99.00');
      const sale = cell('Sale price', 2, 'M');
      await sale.fill('50.00');
      await editor.getByRole('button', { name: 'Save' }).click();
      await editor.getByRole('alert').filter({ hasText: CATALOG_TEXT.NOT_SAVED }).waitFor();
      expect(await sale.getAttribute('aria-invalid')).toBe('true');
      const described = await sale.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent);
      expect(described).toBe(CATALOG_TEXT.SALE_NOT_LOWER);
      // The message sits in the sale price's own cell.
      expect(await sale.evaluate((el) => el.closest('td')?.querySelector('.field-error')?.textContent)).toBe(CATALOG_TEXT.SALE_NOT_LOWER);
      expect(await cell('Price', 1, 'XS').getAttribute('aria-invalid')).toBeNull();
      expect(await sheet(ids)).toEqual(saved);
      await expectNoAxeViolations(page, { tags: WCAG_AA_BEST_PRACTICE }, 'the bulk editor with a refused cell');
      expect(await noSideScroll(page)).toBe(true);
      await shot(page, 'product-bulk-editor-refused', width);

      // Fixed, the same save goes through.
      await sale.fill('19.00');
      expect(await sale.getAttribute('aria-invalid')).toBeNull();
      await editor.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved 2 variants.').first().waitFor();
      const after = await sheet(ids);
      expect(after[0]!.priceCents).toBe(9900);
      expect(after[7]!.salePriceCents).toBe(1900);
      expect(problems.filter((x) => !/Failed to load resource|status of 400/.test(x))).toEqual([]);
      await ctx.close();
    });
  }
});
