/**
 * Issue 25 in Chromium: a subscription paid in Stripe's Payment Element (Stripe.js stand-in) through Stripe
 * Billing: the checkout page's own client path (PaymentMethod, place-order, the first invoice's PaymentIntent
 * confirmed by the server) lands on the subscription-confirmed page, with a Stripe subscription behind it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { hydrated, launchBrowser, liveSite, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { OWNER, Visitor } from '../../helpers/app.js';
import { StripeStandin } from '../../helpers/stripe-standin.js';
import { rows } from '../../../src/server/db-util.js';

describe('a Stripe Billing subscription in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let standin: StripeStandin;
  beforeAll(async () => {
    standin = await new StripeStandin().start();
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory', ...standin.env() }), launchBrowser()]);
    const owner = new Visitor(site.app);
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

  it('pays the first period by card in the Payment Element and lands on the subscription confirmation', async () => {
    const v = new Visitor(site.app);
    const s = await v.send('POST', '/api/3/commerce/cart/subscription', {
      itemId: site.seed.productIds['fresh-roast-coffee-subscription'],
      sku: 'COFFEE-SUB',
      qty: 1,
    });
    expect(s.statusCode, s.body).toBe(200);
    const cartToken = String(s.json().cartToken);
    const ctx = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/checkout?cartToken=${encodeURIComponent(cartToken)}`);
    await page.waitForFunction(...hydrated('CheckoutPage'));
    expect(await page.getByText('Subscription: $18.00 every month').isVisible()).toBe(true);
    await page.getByLabel('Email').fill('browser.sub@example.com');
    await page.getByLabel('Full name').fill('Sam Subscriber');
    await page.getByLabel('Address', { exact: true }).fill('1 Main St');
    await page.getByLabel('City').fill('Portland');
    await page.getByLabel('State', { exact: true }).selectOption('OR');
    await page.getByLabel('ZIP code').fill('97201');
    await page.getByLabel('Country').selectOption('US');
    const payment = page.getByRole('region', { name: 'Payment' });
    await payment.getByLabel('Card number').waitFor();
    await payment.getByLabel('Card number').fill('4242 4242 4242 4242');
    await payment.getByLabel('Expiration date (MM / YY)').fill('12 / 34');
    await payment.getByLabel('Security code').fill('123');
    await expect.poll(() => page.getByRole('button', { name: 'Place order' }).isEnabled(), { timeout: 5000 }).toBe(true);
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/subscription-confirmed\//, { timeout: 15_000 });
    const [sub] = await rows<{ provider: string; provider_subscription_id: string; status: string }>(
      site.database.db,
      sql`select provider, provider_subscription_id, status from subscriptions where email = 'browser.sub@example.com'`,
    );
    expect(sub).toMatchObject({ provider: 'stripe', status: 'active' });
    const stripeSub = standin.subscriptions.get(sub!.provider_subscription_id)!;
    expect(stripeSub.status).toBe('active');
    expect(standin.firstIntentOf(String(stripeSub.id))).toMatchObject({ status: 'succeeded', amount: 2300 });
    expect(problems).toEqual([]);
    await ctx.close();
  }, 120_000);
});
