/**
 * Issue 25 in Chromium: with Stripe connected (a local stand-in of its API and hosted page), a shopper checks out,
 * continues to Stripe's page, pays, and comes back to the order-confirmed page; one order, paid through Stripe.
 * Screenshots of the checkout's payment section at 390 px and 1280 px; axe-core finds nothing on it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { hydrated, launchBrowser, liveSite, watchConsole, type BrowserSession, type LiveSite } from '../helpers/browser.js';
import { StripeStandin } from '../helpers/stripe-standin.js';
import { rows } from '../../src/server/db-util.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's WCAG A/AA violations inside the checkout form (the part this issue changes). */
async function axe(page: Page): Promise<Array<{ id: string; help: string; targets: unknown[] }>> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const a = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: Array<{ id: string; help: string; nodes: Array<{ target: unknown }> }> }> } }).axe;
    const r = await a.run(document.querySelector('form.checkout'), { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations.map((v) => ({ id: v.id, help: v.help, targets: v.nodes.map((n) => n.target) }));
  });
}

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

  it('continues to Stripe’s page, pays, and returns to the confirmed order', async () => {
    const ctx = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/shop/p/houseplant-field-guide`);
    await page.waitForFunction(...hydrated('AddToCart'));
    await page.getByRole('article').getByRole('button', { name: 'Add To Cart' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'One item in cart' }).isVisible(), { timeout: 5000 }).toBe(true);
    await page.goto(`${site.url}/checkout`);
    await page.waitForFunction(...hydrated('CheckoutPage'));
    await page.getByLabel('Email').fill('shopper@example.com');
    const payment = page.getByRole('region', { name: 'Payment' });
    await payment.getByText("You pay on Stripe's secure page, then come back here to your order.").waitFor();
    expect(await payment.getByText(/Test mode: on Stripe's page, pay with card 4242/).isVisible()).toBe(true);
    expect(await page.getByLabel('Card number').count()).toBe(0);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/shots/stripe-checkout-1280.png', fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: '/tmp/shots/stripe-checkout-390.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL((u) => u.toString().startsWith(`${standin.url}/pay/cs_test_`));
    await page.getByRole('heading', { name: 'Pay 12.00 USD' }).waitFor();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/order-confirmed\//);
    await page.getByText(/Order #\d+/).first().waitFor();
    const orders = await rows<{ status: string; payment: { provider: string; paymentId: string } }>(site.database.db, sql`select status, payment from orders where email = 'shopper@example.com'`);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'paid', payment: { provider: 'stripe' } });
    expect(standin.held(orders[0]!.payment.paymentId)).toBe(1200);
    expect(problems).toEqual([]);
    await ctx.close();
  }, 120_000);
});
