import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { OWNER, Visitor } from '../../helpers/app.js';
import { rows } from '../../../src/server/db-util.js';

describe('checkout in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
    const owner = new Visitor(site.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    for (const [url, body] of [
      ['/api/checkout/admin/shipping-options', { name: 'Standard', kind: 'flat', priceCents: 599 }],
      ['/api/checkout/admin/shipping-options', { name: 'Express', kind: 'flat', priceCents: 1500 }],
      ['/api/checkout/admin/tax-rules', { name: 'US', country: 'US', region: '', rateBasisPoints: 500, appliesToShipping: true }],
      ['/api/checkout/admin/tax-rules', { name: 'Oregon', country: 'US', region: 'OR', rateBasisPoints: 0 }],
      ['/api/checkout/admin/coupons', { code: 'SAVE10', kind: 'percent', percentBasisPoints: 1000 }],
    ] as const) {
      const r = await owner.send('POST', url, body);
      expect(r.statusCode, r.body).toBe(200);
    }
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  const stock = async () =>
    Number(
      (await rows<{ q: number }>(site.database.db, sql`select qty_in_stock as q from product_variants where sku = 'POUR-OVER'`))[0]!.q,
    );

  it('a visitor buys with a coupon and shipping, sees every total to the cent; the owner refunds the order', async () => {
    const before = await stock();
    const context = await b.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/shop/p/ceramic-pour-over-set`);
    await page.waitForFunction(() => document.querySelector('[data-island="AddToCart"]')?.getAttribute('data-hydrated') === '1');
    await page.getByRole('article').getByRole('button', { name: 'Add To Cart' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'One item in cart' }).isVisible(), { timeout: 5000 }).toBe(true);

    await page.goto(`${site.url}/checkout`);
    await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    await page.waitForFunction(() => document.querySelector('[data-island="CheckoutPage"]')?.getAttribute('data-hydrated') === '1');
    const totals = page.getByRole('table', { name: 'Totals' });
    const cell = (name: string) => totals.getByRole('row', { name: new RegExp(`^${name}`) }).getByRole('cell');

    await page.getByLabel('Email').fill('shopper@example.com');
    await page.getByLabel('Full name').fill('Sam Shopper');
    await page.getByLabel('Address', { exact: true }).fill('12 Pine Street');
    await page.getByLabel('City').fill('Portland');
    await page.getByLabel('State', { exact: true }).selectOption('OR');
    await page.getByLabel('ZIP code').fill('97201');
    // Every country, named by CLDR: Portugal and Côte d’Ivoire are there, sorted by name.
    const countries = await page.getByLabel('Country').locator('option').allTextContents();
    expect(countries.length).toBeGreaterThan(249);
    expect(countries).toEqual(expect.arrayContaining(['Portugal', 'Côte d’Ivoire', 'Poland', 'Belgium']));
    expect(countries.indexOf('Belgium')).toBeLessThan(countries.indexOf('Portugal'));
    await page.getByLabel('Country').selectOption('US');
    // $39.00; shipping options appear for the address.
    await page.getByRole('radio', { name: /Express/ }).check();
    expect(await cell('Shipping').textContent()).toBe('$15.00');
    await page.getByRole('radio', { name: /Standard/ }).check();

    await page.getByLabel('Coupon code').fill('nope');
    await page.getByRole('button', { name: 'Apply coupon' }).click();
    await page.getByRole('list', { name: 'Coupons that cannot be used' }).getByText('This coupon code does not exist.').waitFor();
    await page.getByRole('button', { name: 'Remove coupon NOPE' }).click();
    await page.getByLabel('Coupon code').fill('save10');
    await page.getByRole('button', { name: 'Apply coupon' }).click();
    await page.getByRole('list', { name: 'Applied coupons' }).getByText('SAVE10').waitFor();

    // 3900 - 390 + 599 + round((3510 + 599) x 5 %) = 3900 - 390 + 599 + 205 = 4314.
    expect(await cell('Subtotal').textContent()).toBe('$39.00');
    expect(await cell('Discount').textContent()).toBe('-$3.90');
    expect(await cell('Shipping').textContent()).toBe('$5.99');
    expect(await cell('Tax').textContent()).toBe('$2.05');
    expect(await cell('Total').textContent()).toBe('$43.14');

    // A declined card shows the decline message and changes nothing.
    await page.getByLabel('Name on card').fill('Sam Shopper');
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByLabel('Expiry (MM/YY)').fill('12/40');
    await page.getByLabel('Security code (CVC)').fill('123');
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 5000 }).toBe('Your card was declined.');
    expect(await stock()).toBe(before);

    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/order-confirmed\//);
    await page.getByRole('heading', { name: 'Thank you! Your order is confirmed.' }).waitFor();
    const orderTotals = page.getByRole('table', { name: 'Order totals' });
    expect(
      await orderTotals
        .getByRole('row', { name: /^Total/ })
        .getByRole('cell')
        .textContent(),
    ).toBe('$43.14');
    expect(await orderTotals.getByRole('row', { name: /^Tax/ }).getByRole('cell').textContent()).toBe('$2.05');
    expect(await page.getByText('Paid with visa ending in 4242.').isVisible()).toBe(true);
    const orderNumber = /Order #(\d+)/.exec((await page.locator('.order-confirmed').textContent()) ?? '')?.[1];
    expect(orderNumber).toBeTruthy();
    expect(await stock()).toBe(before - 1);
    // The declined card's 402 is logged by the browser; nothing else may be.
    expect(problems.filter((p) => !p.includes('favicon') && !p.includes('status of 402'))).toEqual([]);
    await context.close();

    // The owner sees the order and refunds it; the stock comes back.
    const admin = await (await b.browser.newContext()).newPage();
    await signInAsOwner(admin, site);
    await admin.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Orders' }).click();
    await admin.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    const row = admin.getByRole('table', { name: 'Orders' }).getByRole('row', { name: new RegExp(`Order #${orderNumber}`) });
    expect(await row.getByRole('cell', { name: '$43.14' }).isVisible()).toBe(true);
    await row.getByRole('link', { name: `Order #${orderNumber}` }).click();
    await admin.getByRole('heading', { name: `Order #${orderNumber}` }).waitFor();
    await admin.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = admin.getByRole('dialog', { name: `Refund order #${orderNumber}` });
    await dialog.getByRole('button', { name: /^Refund everything/ }).click();
    await dialog.getByRole('button', { name: 'Refund $43.14' }).click();
    await dialog.waitFor({ state: 'detached' });
    await admin.getByText('Refunded', { exact: true }).first().waitFor();
    expect(await stock()).toBe(before);
  });

  it('a digital order with a card that needs a second authentication step: the dialog, then the download link', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.url}/shop/p/houseplant-field-guide`);
    await page.waitForFunction(() => document.querySelector('[data-island="AddToCart"]')?.getAttribute('data-hydrated') === '1');
    await page.getByRole('article').getByRole('button', { name: 'Add To Cart' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'One item in cart' }).isVisible(), { timeout: 5000 }).toBe(true);
    await page.goto(`${site.url}/checkout`);
    await page.waitForFunction(() => document.querySelector('[data-island="CheckoutPage"]')?.getAttribute('data-hydrated') === '1');
    // No address and no shipping for a purely digital cart.
    expect(await page.getByLabel('Full name').count()).toBe(0);
    expect(
      await page
        .getByRole('table', { name: 'Totals' })
        .getByRole('row', { name: /^Total/ })
        .getByRole('cell')
        .textContent(),
    ).toBe('$12.00');
    await page.getByLabel('Email').fill('reader@example.com');
    await page.getByLabel('Card number').fill('4000 0027 6000 3184');
    await page.getByLabel('Expiry (MM/YY)').fill('12/40');
    await page.getByLabel('Security code (CVC)').fill('123');
    await page.getByRole('button', { name: 'Place order' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm your payment' });
    await dialog.waitFor();
    // Escape closes the dialog: the payment is not authenticated, and the message says so.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 5000 }).toMatch(/unable to authenticate/);
    await page.getByRole('button', { name: 'Place order' }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Complete authentication' }).click();
    await page.waitForURL(/\/order-confirmed\//);
    expect(await page.getByRole('link', { name: 'Download The Houseplant Field Guide (eBook)' }).isVisible()).toBe(true);
    await context.close();
  });

  it('a price change after the page showed the total: the shopper sees the new total and confirms it with a second click', async () => {
    const setPrice = (cents: number) =>
      site.database.db.execute(sql`update product_variants set price_cents = ${cents}, on_sale = false where sku = 'EBOOK-PLANTS'`);
    const payments = async () =>
      Number((await rows<{ n: number }>(site.database.db, sql`select count(*)::int as n from test_payments`))[0]!.n);
    await setPrice(1200);
    const context = await b.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    try {
      await page.goto(`${site.url}/shop/p/houseplant-field-guide`);
      await page.waitForFunction(() => document.querySelector('[data-island="AddToCart"]')?.getAttribute('data-hydrated') === '1');
      await page.getByRole('article').getByRole('button', { name: 'Add To Cart' }).click();
      await expect.poll(() => page.getByRole('link', { name: 'One item in cart' }).isVisible(), { timeout: 5000 }).toBe(true);
      await page.goto(`${site.url}/checkout`);
      await page.waitForFunction(() => document.querySelector('[data-island="CheckoutPage"]')?.getAttribute('data-hydrated') === '1');
      const total = page
        .getByRole('table', { name: 'Totals' })
        .getByRole('row', { name: /^Total/ })
        .getByRole('cell');
      expect(await total.textContent()).toBe('$12.00');
      await page.getByLabel('Email').fill('late@example.com');
      await page.getByLabel('Card number').fill('4242 4242 4242 4242');
      await page.getByLabel('Expiry (MM/YY)').fill('12/40');
      await page.getByLabel('Security code (CVC)').fill('123');
      // The owner raises the price while the shopper is on the page.
      await setPrice(1500);
      const charges = await payments();
      await page.getByRole('button', { name: 'Place order' }).click();
      await expect
        .poll(() => page.getByRole('alert').textContent(), { timeout: 5000 })
        .toBe('The order total is now $15.00, not $12.00. Please review your order and confirm the new total.');
      expect(await total.textContent()).toBe('$15.00');
      expect(await payments()).toBe(charges);
      expect(page.url()).toMatch(/\/checkout$/);
      // The second click confirms the new total.
      await page.getByRole('button', { name: 'Confirm new total $15.00 and place order' }).click();
      await page.waitForURL(/\/order-confirmed\//);
      const orderTotals = page.getByRole('table', { name: 'Order totals' });
      expect(
        await orderTotals
          .getByRole('row', { name: /^Total/ })
          .getByRole('cell')
          .textContent(),
      ).toBe('$15.00');
      expect(problems.filter((p) => !p.includes('favicon') && !p.includes('status of 409'))).toEqual([]);
    } finally {
      await setPrice(1200);
      await context.close();
    }
  });
});
