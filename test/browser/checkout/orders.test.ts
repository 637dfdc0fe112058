import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { placeOrder } from '../../helpers/orders.js';
import { rows } from '../../../src/server/db-util.js';
import { newId } from '../../../src/db/ids.js';
import { DEMO_PRODUCTS } from '../../../src/server/seed.js';
import { expectNoAxeViolations, WCAG_AA } from '../../helpers/axe.js';

const SHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'tessera-orders-shots');

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Issue 24's order acceptance in a real browser at 1280 px and 390 px. */
describe('orders in /config (browser)', () => {
  let b: BrowserSession;
  let site: LiveSite;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    site = await liveSite('pglite', { RATE_LIMIT_STORE: 'memory' });
    b = await launchBrowser();
    await site.database.db.execute(
      sql`insert into shipping_options (id, website_id, name, kind, price_cents) values (${newId()}, ${site.seed.websiteId}, 'Standard', 'flat', 500)`,
    );
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  const stockOf = async (sku: string) =>
    Number((await rows<{ q: number }>(site.database.db, sql`select qty_in_stock as q from product_variants where sku = ${sku}`))[0]!.q);
  const ids = () => site.seed.productIds;

  for (const width of [1280, 390]) {
    it(`at ${width} px: fulfil with a tracking number and find the shipping email; refund one line with restock and see stock and analytics revenue change; export CSV`, async () => {
      const email = `buyer-${width}@example.com`;
      const order = await placeOrder(
        site.app,
        [
          { itemId: ids()['ceramic-pour-over-set']!, sku: 'POUR-OVER', quantity: 2 },
          { itemId: ids()['linen-camp-shirt']!, sku: 'SHIRT-S-NAVY', quantity: 1 },
        ],
        {
          email,
          address: { name: `Wanda Width${width}`, line1: '5 Elm St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' },
        },
      );
      await site.app.analytics.record('order_placed', {
        cart_value: Number(order.grandTotal.value),
        currency_code: 'USD',
        order_id: order.id,
      });
      await site.app.analytics.ingest.drain();

      const ctx = await b.browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
      const page = await ctx.newPage();
      const problems = watchConsole(page);
      await signInAsOwner(page, site, '/config/orders');

      // The list: find the order by the customer's name.
      await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
      await page.getByRole('searchbox', { name: 'Search orders' }).fill(`Width${width}`);
      const table = page.getByRole('table', { name: 'Orders' });
      const dataRows = () => table.getByRole('link', { name: /^Order #/ }).count();
      await expect.poll(dataRows).toBe(1);
      const row = table.getByRole('row', { name: new RegExp(`Order #${order.orderNumber}`) });
      expect(await row.getByText('Unfulfilled').isVisible()).toBe(true);
      expect(await noSideScroll(page)).toBe(true);
      await page.getByRole('searchbox', { name: 'Search orders' }).fill('');
      const placed = Number(
        (await rows<{ c: number }>(site.database.db, sql`select count(*) as c from orders where status <> 'pending'`))[0]!.c,
      );
      await expect.poll(dataRows).toBe(placed);
      await page.screenshot({ path: join(SHOTS, `orders-list-${width}.png`), fullPage: true });
      await expectNoAxeViolations(page, { tags: WCAG_AA });

      // The detail.
      await row.getByRole('link', { name: `Order #${order.orderNumber}` }).click();
      await page.getByRole('heading', { name: `Order #${order.orderNumber}`, level: 1 }).waitFor();
      expect(await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'Orders' }).getAttribute('href')).toBe(
        '/config/orders',
      );
      expect(await page.getByRole('region', { name: 'Customer' }).getByText(email).isVisible()).toBe(true);

      // Fulfil every line with UPS and a tracking number.
      await page.getByRole('button', { name: 'Fulfil items' }).click();
      const fulfil = page.getByRole('dialog', { name: `Fulfil order #${order.orderNumber}` });
      await fulfil.getByLabel('Carrier').selectOption('ups');
      await fulfil.getByLabel('Tracking number').fill('1Z999AA10123456784');
      await fulfil.getByRole('button', { name: 'Fulfil 3 items' }).click();
      await fulfil.waitFor({ state: 'detached' });
      const items = page.getByRole('region', { name: 'Items' });
      await items.getByRole('link', { name: 'Track 1Z999AA10123456784' }).waitFor();
      expect(await items.getByRole('link', { name: 'Track 1Z999AA10123456784' }).getAttribute('href')).toBe(
        'https://www.ups.com/track?tracknum=1Z999AA10123456784',
      );
      await page
        .getByRole('region', { name: 'Timeline' })
        .getByText(/has shipped/)
        .first()
        .waitFor();

      // Refund the shirt with restock; analytics revenue before and after.
      const shirtBefore = await stockOf('SHIRT-S-NAVY');
      const today = new Date().toISOString().slice(0, 10);
      const revenue = async () =>
        Number(
          (await (await page.request.get(`${site.url}/api/analytics/dashboard?from=${today}&to=${today}`)).json()).revenue.find(
            (r: { dim: string }) => r.dim === 'USD',
          )?.total ?? 0,
        );
      const revenueBefore = await revenue();
      await page.getByRole('button', { name: 'Refund', exact: true }).click();
      const refund = page.getByRole('dialog', { name: `Refund order #${order.orderNumber}` });
      await refund.getByLabel('Quantity to refund for Linen Camp Shirt (SHIRT-S-NAVY)').fill('1');
      expect(await refund.getByLabel('Refund amount (USD)').inputValue()).toBe('72.00');
      expect(await refund.getByLabel('Restock the refunded items').isChecked()).toBe(true);
      await page.screenshot({ path: join(SHOTS, `orders-refund-dialog-${width}.png`) });
      await expectNoAxeViolations(page, { tags: WCAG_AA });
      await refund.getByRole('button', { name: 'Refund $72.00' }).click();
      await refund.waitFor({ state: 'detached' });
      await page.getByText('Partially refunded').first().waitFor();
      expect(await stockOf('SHIRT-S-NAVY')).toBe(shirtBefore + 1);
      expect(await revenue()).toBe(revenueBefore - 7200);
      // The Analytics screen shows the net revenue and the refunds.
      const analytics = await ctx.newPage();
      await analytics.goto(`${site.url}/config/analytics`);
      await analytics
        .getByRole('list', { name: 'Totals' })
        .getByText(/refunded/)
        .waitFor();

      // A note, then the detail's screenshot and accessibility check.
      await page.getByRole('textbox', { name: 'Add a note' }).fill('Customer will swap the shirt for a medium.');
      await page.getByRole('button', { name: 'Add note' }).click();
      await page.getByRole('region', { name: 'Timeline' }).getByText('Customer will swap the shirt for a medium.').waitFor();
      expect(await noSideScroll(page)).toBe(true);
      await page.screenshot({ path: join(SHOTS, `orders-detail-${width}.png`), fullPage: true });
      await expectNoAxeViolations(page, { tags: WCAG_AA });
      // The print pages exist for the packing slip and the invoice.
      await page.evaluate(() => {
        window.print = () => undefined;
      });
      await page.getByRole('button', { name: 'Print invoice' }).click();
      await page.emulateMedia({ media: 'print' });
      await page.getByRole('region', { name: 'Invoice' }).waitFor();
      expect(
        await page
          .getByRole('region', { name: 'Invoice' })
          .getByText('Wanda Width' + width)
          .isVisible(),
      ).toBe(true);
      await page.screenshot({ path: join(SHOTS, `orders-invoice-${width}.png`), fullPage: true });
      await page.emulateMedia({ media: 'screen' });

      // The shipping email in the Emails screen.
      await page.goto(`${site.url}/config/outbox`);
      const subject = new RegExp(`^Your order #${order.orderNumber} from .+ has shipped$`);
      await page.getByRole('table', { name: 'Emails' }).getByRole('link', { name: subject }).click();
      await page.getByText('Track your parcel: https://www.ups.com/track?tracknum=1Z999AA10123456784').waitFor();

      // Export the filtered list as CSV.
      await page.goto(`${site.url}/config/orders`);
      await page.getByLabel('Payment').selectOption('partially_refunded');
      const partly = Number(
        (await rows<{ c: number }>(site.database.db, sql`select count(*) as c from orders where status = 'partially_refunded'`))[0]!.c,
      );
      await expect
        .poll(() =>
          page
            .getByRole('table', { name: 'Orders' })
            .getByRole('link', { name: /^Order #/ })
            .count(),
        )
        .toBe(partly);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
      const csv = readFileSync((await download.path())!, 'utf8');
      const records = parse(csv, { bom: true, columns: true }) as Array<Record<string, string>>;
      expect(records.length).toBeGreaterThan(0);
      expect(records.every((r) => r['Payment status'] === 'partially_refunded')).toBe(true);
      const mine = records.find((r) => r.Order === String(order.orderNumber))!;
      expect(mine).toMatchObject({
        Email: email,
        Customer: `Wanda Width${width}`,
        'Fulfilment status': 'fulfilled',
        Refunded: '72.00',
        Items: '2 x Ceramic Pour-Over Set (POUR-OVER); 1 x Linen Camp Shirt (SHIRT-S-NAVY)',
      });
      expect(problems.filter((p) => !p.includes('favicon'))).toEqual([]);
      await ctx.close();
    });
  }

  for (const width of [1280, 390]) {
    it(`at ${width} px: every demo product opens in /config and saves unchanged`, async () => {
      const ctx = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      await signInAsOwner(page, site);
      for (const demo of DEMO_PRODUCTS) {
        const id = site.seed.productIds[demo.urlId]!;
        const before = await (await page.request.get(`${site.url}/api/config/products/${id}`)).json();
        await page.goto(`${site.url}/config/products/${id}`);
        const save = page.getByRole('region', { name: 'Save' }).getByRole('button', { name: 'Save', exact: true });
        await save.waitFor();
        await save.click();
        await page
          .getByText(/^Product (saved|published)\.$/)
          .first()
          .waitFor();
        const after = await (await page.request.get(`${site.url}/api/config/products/${id}`)).json();
        expect({ ...after, version: 0 }, demo.title).toEqual({ ...before, version: 0 });
        expect(after.version, demo.title).toBe(before.version + 1);
      }
      await ctx.close();
    });
  }
});
