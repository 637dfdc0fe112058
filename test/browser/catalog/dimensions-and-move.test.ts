/**
 * Catalogue (issue 24) in Chromium at 1280 px and 390 px: a variant's dimensions (length, width, height and unit)
 * typed in the product editor are saved and read back, half-typed dimensions are refused in words; the product
 * list's bulk "Move" puts a product into another store page. Axe finds nothing on either screen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { schema } from '../../../src/db/index.js';
import { newId } from '../../../src/db/ids.js';
import { CollectionType } from '../../../src/core/enums.js';
import { DIMENSIONS_HINT } from '../../../src/web/admin/catalog/model.js';
import { expectNoAxeViolations, WCAG_AA } from '../../helpers/axe.js';

async function getJson(page: Page, url: string): Promise<Record<string, unknown>> {
  return page.evaluate(async (u) => (await fetch(u)).json() as Promise<Record<string, unknown>>, url);
}

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('variant dimensions and bulk move in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let second = '';
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
    second = newId();
    await site.database.db.insert(schema.collections).values({
      id: second,
      websiteId: site.seed.websiteId,
      urlId: 'second-shop',
      title: 'Second shop',
      type: CollectionType.PRODUCTS,
      typeName: 'products',
      ordering: 90,
      description: '',
    });
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  for (const width of [1280, 390]) {
    it(`at ${width} px: dimensions are typed, refused when half given, saved and read back`, async () => {
      const ctx = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      const problems = watchConsole(page);
      const id = site.seed.productIds['ceramic-pour-over-set']!;
      await signInAsOwner(page, site, `/config/products/${id}`);
      const card = page.getByRole('group', { name: 'Pricing and inventory' });
      const dims = card.getByRole('group', { name: 'Dimensions' });
      await dims.waitFor();
      const length = String(width === 1280 ? 30 : 31);
      await dims.getByLabel('Length').fill(length);
      await dims.getByLabel('Width').fill('20,5');
      await dims.getByLabel('Height').fill('');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await dims.getByText(DIMENSIONS_HINT).waitFor();
      await dims.getByLabel('Height').fill('12');
      await dims.getByLabel('Unit').selectOption('in');
      expect(await noSideScroll(page)).toBe(true);
      await expectNoAxeViolations(page, { tags: WCAG_AA });
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
      const saved = await getJson(page, `/api/config/products/${id}`);
      expect((saved.variants as Array<{ dimensions: unknown }>)[0]!.dimensions).toEqual({
        unit: 'in',
        length: Number(length),
        width: 20.5,
        height: 12,
      });
      // Read back into the editor after a reload.
      await page.reload();
      await expect.poll(() => page.getByRole('group', { name: 'Dimensions' }).getByLabel('Length').inputValue()).toBe(length);
      expect(await page.getByRole('group', { name: 'Dimensions' }).getByLabel('Unit').inputValue()).toBe('in');
      expect(problems.filter((x) => !/Failed to load resource/.test(x))).toEqual([]);
      await ctx.close();
    });

    it(`at ${width} px: the bulk bar moves a product to another store page`, async () => {
      const ctx = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      const problems = watchConsole(page);
      const product = width === 1280 ? 'Engraved Walnut Cutting Board' : 'Linen Camp Shirt';
      await signInAsOwner(page, site, '/config/products');
      const list = page.getByRole('region', { name: 'Product list' });
      await list.getByRole('checkbox', { name: `Select ${product}` }).check();
      const bar = list.getByRole('region', { name: 'Bulk actions' });
      expect(await bar.getByRole('button', { name: 'Move', exact: true }).isDisabled()).toBe(true);
      await bar.getByLabel('Move to store page').selectOption({ label: 'Second shop' });
      expect(await noSideScroll(page)).toBe(true);
      await expectNoAxeViolations(page, { tags: WCAG_AA });
      await bar.getByRole('button', { name: 'Move', exact: true }).click();
      await page.getByText('1 product moved to Second shop.').first().waitFor();
      await list.getByLabel('Store').selectOption({ label: 'Second shop' });
      await list.getByRole('link', { name: product }).waitFor();
      const rows = (await getJson(page, `/api/config/catalog/products?collectionId=${second}`)).products as Array<{ title: string }>;
      expect(rows.map((r) => r.title)).toContain(product);
      expect(problems.filter((x) => !/Failed to load resource/.test(x))).toEqual([]);
      await ctx.close();
    });
  }
});
