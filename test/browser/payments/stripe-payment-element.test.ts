/**
 * Issue 25 in Chromium: with Stripe connected, the checkout page takes the payment in Stripe's Payment Element.
 * Stripe.js is a local stand-in (test/helpers/stripe-js-standin.js, loaded from STRIPE_JS_URL) that talks to the
 * stand-in of Stripe's API, so the app's own code runs the whole journey: a card payment, a decline with Stripe's
 * words on the payment field, 3-D Secure in Stripe's dialog, and Afterpay offered only for an eligible cart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { hydrated, launchBrowser, liveSite, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { OWNER, Visitor } from '../../helpers/app.js';
import { StripeStandin } from '../../helpers/stripe-standin.js';
import { rows } from '../../../src/server/db-util.js';
import { expectNoAxeViolations, WCAG_AA } from '../../helpers/axe.js';

type OrderRow = { status: string; payment: { provider: string; paymentId: string; brand: string; last4: string } };

describe('Stripe Payment Element in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let standin: StripeStandin;
  let owner: Visitor;
  beforeAll(async () => {
    standin = await new StripeStandin().start();
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory', ...standin.env() }), launchBrowser()]);
    owner = new Visitor(site.app);
    expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
    expect(
      (await owner.send('POST', '/api/checkout/admin/shipping-options', { name: 'Standard', kind: 'flat', priceCents: 500 })).statusCode,
    ).toBe(200);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
    await standin?.stop();
  });

  const ordersOf = (email: string) => rows<OrderRow>(site.database.db, sql`select status, payment from orders where email = ${email}`);

  /** A fresh shopper with the digital field guide ($12.00, no shipping) at checkout, the Payment Element mounted. */
  async function checkoutWithGuide(ctx: BrowserContext, email: string): Promise<Page> {
    const page = await ctx.newPage();
    await page.goto(`${site.url}/shop/p/houseplant-field-guide`);
    await page.waitForFunction(...hydrated('AddToCart'));
    await page.getByRole('article').getByRole('button', { name: 'Add To Cart' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'One item in cart' }).isVisible(), { timeout: 5000 }).toBe(true);
    await page.goto(`${site.url}/checkout`);
    await page.waitForFunction(...hydrated('CheckoutPage'));
    await page.getByLabel('Email').fill(email);
    await page.getByRole('region', { name: 'Payment' }).getByLabel('Card number').waitFor();
    return page;
  }

  async function card(page: Page, number: string) {
    const payment = page.getByRole('region', { name: 'Payment' });
    await payment.getByLabel('Card number').fill(number);
    await payment.getByLabel('Expiration date (MM / YY)').fill('12 / 34');
    await payment.getByLabel('Security code').fill('123');
  }

  it('pays by card in the Payment Element and lands on the confirmed order; no card number reaches Tessera', async () => {
    const ctx = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await checkoutWithGuide(ctx, 'element-card@example.com');
    const problems = watchConsole(page);
    const payment = page.getByRole('region', { name: 'Payment' });
    expect(await payment.getByText(/Test mode: pay with card 4242/).isVisible()).toBe(true);
    // Only card: the guide is digital, so no instalments.
    expect(await payment.getByRole('radio', { name: 'Afterpay' }).count()).toBe(0);
    // Tessera's own card fields are gone: the Payment Element has them (and the no-JavaScript note is gone too).
    expect(await page.locator('#card-number').count()).toBe(0);
    expect(await payment.getByText("You pay on Stripe's secure page").count()).toBe(0);
    await expectNoAxeViolations(page, { element: 'form.checkout', tags: WCAG_AA });
    await page.screenshot({ path: '/tmp/shots/stripe-element-1280.png', fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: '/tmp/shots/stripe-element-390.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    // An incomplete field: Stripe's words on the field, nothing sent.
    await payment.getByLabel('Card number').fill('4242');
    await page.getByRole('button', { name: 'Place order' }).click();
    await payment.getByText('Your card number is incomplete.').waitFor();
    expect(await payment.getByLabel('Card number').getAttribute('aria-invalid')).toBe('true');

    await card(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/order-confirmed\//);
    const orders = await ordersOf('element-card@example.com');
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'paid', payment: { provider: 'stripe', brand: 'visa', last4: '4242' } });
    expect(standin.held(orders[0]!.payment.paymentId)).toBe(1200);
    // The card number went to Stripe (the PaymentMethod), never in a call to Tessera's server.
    const toStripe = standin.requests.filter((r) => r.path === '/v1/payment_methods');
    expect(toStripe.at(-1)!.body).toMatchObject({ type: 'card', card: { number: '4242424242424242' } });
    const confirm = standin.requests.filter((r) => r.path.endsWith('/confirm')).at(-1)!;
    expect(confirm.headers.authorization).toBe(`Bearer ${standin.secretKey}`);
    expect(problems).toEqual([]);
    await ctx.close();
  }, 120_000);

  it('shows Stripe’s decline message on the payment field and makes no order', async () => {
    const ctx = await b.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await checkoutWithGuide(ctx, 'element-decline@example.com');
    const payment = page.getByRole('region', { name: 'Payment' });
    await card(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Place order' }).click();
    await payment.getByRole('alert').filter({ hasText: 'Your card was declined.' }).waitFor();
    expect(await ordersOf('element-decline@example.com')).toHaveLength(0);
    // Another card then pays (a fresh attempt).
    await card(page, '5555 5555 5555 4444');
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/order-confirmed\//);
    const orders = await ordersOf('element-decline@example.com');
    expect(orders).toHaveLength(1);
    expect(orders[0]!.payment).toMatchObject({ brand: 'mastercard', last4: '4444' });
    await ctx.close();
  }, 120_000);

  it('asks for 3-D Secure in Stripe’s dialog: a failed step says so, a completed one makes the order', async () => {
    const ctx = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await checkoutWithGuide(ctx, 'element-3ds@example.com');
    const payment = page.getByRole('region', { name: 'Payment' });
    await card(page, '4000 0027 6000 3184');
    await page.getByRole('button', { name: 'Place order' }).click();
    const dialog = page.getByRole('dialog', { name: '3D Secure test payment' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Fail authentication' }).click();
    await payment.getByRole('alert').filter({ hasText: 'We are unable to authenticate your payment method.' }).waitFor();
    expect(await ordersOf('element-3ds@example.com')).toHaveLength(0);

    await page.getByRole('button', { name: 'Place order' }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Complete authentication' }).click();
    await page.waitForURL(/\/order-confirmed\//);
    const orders = await ordersOf('element-3ds@example.com');
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'paid', payment: { provider: 'stripe', last4: '3184' } });
    await ctx.close();
  }, 120_000);

  /** A shopper with the pour-over set ($39.00, physical) and the address filled in, at checkout. */
  async function checkoutWithPourOver(ctx: BrowserContext, email: string, extra?: string): Promise<Page> {
    const page = await ctx.newPage();
    for (const path of ['/shop/p/ceramic-pour-over-set', ...(extra ? [extra] : [])]) {
      await page.goto(`${site.url}${path}`);
      await page.waitForFunction(...hydrated('AddToCart'));
      // Wait for this add's answer: the pill already reads "in cart" after the first item.
      const added = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/shopping-cart/entries') && r.ok());
      await page.getByRole('article').getByRole('button', { name: 'Add To Cart' }).click();
      await added;
      await page.getByRole('link', { name: /in cart/ }).waitFor();
    }
    await page.goto(`${site.url}/checkout`);
    await page.waitForFunction(...hydrated('CheckoutPage'));
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Full name').fill('Ada Buyer');
    await page.getByLabel('Address', { exact: true }).fill('1 Main St');
    await page.getByLabel('City').fill('Portland');
    await page.getByLabel('State', { exact: true }).selectOption('OR');
    await page.getByLabel('ZIP code').fill('97201');
    await page.getByLabel('Country').selectOption('US');
    await page.getByRole('radio', { name: /Standard/ }).check();
    await page.getByRole('region', { name: 'Payment' }).getByLabel('Card number').waitFor();
    return page;
  }

  it('offers Afterpay for an eligible physical cart in USD and pays through Afterpay’s page; not for a mixed or out-of-range cart', async () => {
    const s = (await owner.get('/api/config/store-settings')).json();
    expect((await owner.send('PUT', '/api/config/store-settings', { ...s, instalmentsEnabled: true })).statusCode).toBe(200);
    const ctx = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await checkoutWithPourOver(ctx, 'element-afterpay@example.com');
    const payment = page.getByRole('region', { name: 'Payment' });
    await payment.getByRole('radio', { name: 'Afterpay' }).check();
    await payment.getByText('After you place your order you will be taken to Afterpay').waitFor();
    await expectNoAxeViolations(page, { element: 'form.checkout', tags: WCAG_AA });
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL((u) => u.toString().startsWith(`${standin.url}/afterpay/pi_`));
    await page.getByRole('button', { name: 'Authorize payment' }).click();
    await page.waitForURL(/\/order-confirmed\//);
    const orders = await ordersOf('element-afterpay@example.com');
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'paid', payment: { provider: 'stripe', brand: 'afterpay' } });
    await ctx.close();

    // A mixed cart (a digital item beside the set): cards only.
    const mixed = await b.browser.newContext({ viewport: { width: 390, height: 844 } });
    const m = await checkoutWithPourOver(mixed, 'element-mixed@example.com', '/shop/p/houseplant-field-guide');
    expect(await m.getByRole('region', { name: 'Payment' }).getByRole('radio', { name: 'Afterpay' }).count()).toBe(0);
    await mixed.close();

    // Over the owner's limit (lowered to $30.00 in the instalment preferences): cards only.
    const PREFS = '/api/v1/commerce-preferences/instalments';
    expect((await owner.send('PUT', PREFS, { limits: { USD: { min: 100, max: 3000 } } })).statusCode).toBe(200);
    try {
      const over = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const o = await checkoutWithPourOver(over, 'element-over@example.com');
      expect(await o.getByRole('region', { name: 'Payment' }).getByRole('radio', { name: 'Afterpay' }).count()).toBe(0);
      await over.close();
    } finally {
      expect((await owner.send('PUT', PREFS, { limits: { USD: { min: 100, max: 200000 } } })).statusCode).toBe(200);
    }
  }, 180_000);
});
