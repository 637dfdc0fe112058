/**
 * Issue 25 in Chromium with JavaScript off: with Stripe connected (a local stand-in of its API and hosted page), a
 * shopper checks out with the plain form, is sent to Stripe's Checkout page, pays, and comes back to the
 * order-confirmed page; one order, paid through Stripe. (With JavaScript the Payment Element takes the payment on
 * the page: stripe-payment-element.test.ts.) Screenshots at 390 px and 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { launchBrowser, liveSite, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { StripeStandin } from '../../helpers/stripe-standin.js';
import { rows } from '../../../src/server/db-util.js';

describe('Stripe checkout in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let standin: StripeStandin;
  beforeAll(async () => {
    standin = await new StripeStandin().start();
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory', ...standin.env() }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
    await standin?.stop();
  });

  it('with JavaScript off, the checkout form goes to Stripe’s page, pays, and returns to the confirmed order', async () => {
    const ctx = await b.browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const page = await ctx.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/shop/p/houseplant-field-guide`);
    await page.getByRole('article').getByRole('button', { name: 'Add To Cart' }).click();
    await page.waitForLoadState();
    await page.goto(`${site.url}/checkout`);
    await page.getByLabel('Email').fill('shopper@example.com');
    const payment = page.getByRole('region', { name: 'Payment' });
    await payment.getByText("You pay on Stripe's secure page, then come back here to your order.").waitFor();
    expect(await payment.getByText(/Test mode: pay with card 4242/).isVisible()).toBe(true);
    expect(await page.getByLabel('Card number').count()).toBe(0);
    // (axe-core runs on this page with JavaScript on: stripe-payment-element.test.ts; it cannot run in a page without it.)
    await page.screenshot({ path: '/tmp/shots/stripe-checkout-1280.png', fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: '/tmp/shots/stripe-checkout-390.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL((u) => u.toString().startsWith(`${standin.url}/pay/cs_test_`));
    await page.getByRole('heading', { name: 'Pay 12.00 USD' }).waitFor();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/order-confirmed\//);
    await page
      .getByText(/Order #\d+/)
      .first()
      .waitFor();
    const orders = await rows<{ status: string; payment: { provider: string; paymentId: string } }>(
      site.database.db,
      sql`select status, payment from orders where email = 'shopper@example.com'`,
    );
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'paid', payment: { provider: 'stripe' } });
    expect(standin.held(orders[0]!.payment.paymentId)).toBe(1200);
    expect(problems).toEqual([]);
    await ctx.close();
  }, 120_000);
});
