/**
 * Issue 25, the payment methods beside the card, against the local stand-in of Stripe's API on both databases:
 * Afterpay/Clearpay (a PaymentIntent that allows it only for a cart the instalment rules accept, Afterpay's page,
 * the shopper's return to /checkout/payment-return), and donations, which pay on Stripe's Checkout page once
 * Stripe is connected (recorded once, whichever of the return page and the webhook comes first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { StripeStandin, type StandinEvent } from '../../helpers/stripe-standin.js';
import { rows } from '../../../src/server/db-util.js';
import { stripeMessages } from '../../../src/server/stripe/settings.js';
import { checkoutMessages } from '../../../src/core/messages.js';

const ADD = '/api/commerce/shopping-cart/entries';
const PLACE = '/api/checkout/place-order';
const QUOTE = '/api/checkout/quote';
const WEBHOOK = '/api/payments/stripe/webhook';
const ADDRESS = { name: 'Ada Buyer', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };

let seq = 0;
const key = () => `methods-key-${Date.now()}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

describe.each(APP_KINDS)('Stripe payment methods on %s', (kind) => {
  let t: TestApp;
  let standin: StripeStandin;
  let ids: Record<string, string>;
  let owner: Visitor;

  beforeAll(async () => {
    standin = await new StripeStandin().start();
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory', ...standin.env() });
    ids = t.seed.productIds;
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
    expect(
      (await owner.send('POST', '/api/checkout/admin/shipping-options', { name: 'Standard', kind: 'flat', priceCents: 500 })).statusCode,
    ).toBe(200);
    const s = (await owner.get('/api/config/store-settings')).json();
    const put = await owner.send('PUT', '/api/config/store-settings', { ...s, instalmentsEnabled: true });
    expect(put.statusCode, put.body).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await standin?.stop();
  });

  async function deliver(e: StandinEvent) {
    const d = standin.signedDelivery(e);
    return t.app.inject({ method: 'POST', url: WEBHOOK, payload: d.body, headers: d.headers });
  }
  /** A PaymentMethod as Stripe.js makes it (the publishable key, as the `key` parameter). */
  async function method(body: string): Promise<string> {
    const r = await fetch(`${standin.url}/v1/payment_methods`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `key=${standin.publishableKey}&${body}`,
    });
    expect(r.status).toBe(200);
    return ((await r.json()) as { id: string }).id;
  }
  const afterpayMethod = () => method('type=afterpay_clearpay&billing_details[name]=Ada%20Buyer&billing_details[email]=ada%40example.com');
  async function cartWith(items: Array<[string, string]>) {
    const v = new Visitor(t.app);
    for (const [item, sku] of items) expect((await v.send('POST', ADD, { itemId: ids[item], sku, quantity: 1 })).statusCode).toBe(200);
    const q = await v.send('POST', QUOTE, { email: 'ada@example.com', shippingAddress: ADDRESS });
    expect(q.statusCode, q.body).toBe(200);
    return { v, total: q.json().cart.grandTotalCents as number };
  }
  const placeBody = (k: string, token: string, total: number) => ({
    email: 'ada@example.com',
    shippingAddress: ADDRESS,
    payment: { type: 'token', provider: 'stripe', token },
    idempotencyKey: k,
    expectedTotalCents: total,
  });
  /** The shopper at Afterpay's page: authorise (or fail), and the address Afterpay sends them back to. */
  async function atAfterpay(url: string, outcome: 'authorize' | 'fail'): Promise<URL> {
    const r = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `outcome=${outcome}`,
    });
    expect(r.status).toBe(303);
    return new URL(r.headers.get('location')!);
  }

  it('offers Afterpay for a physical cart in USD within the limits: Afterpay’s page, then the return makes the order once', async () => {
    const { v, total } = await cartWith([['linen-camp-shirt', 'SHIRT-M-SAND']]);
    const html = (await v.get('/checkout')).body;
    // The island's props: Stripe's Payment Element with instalments offered for this cart.
    expect(html).toContain('&quot;publishableKey&quot;:&quot;pk_test_tessera_standin&quot;');
    expect(html).toMatch(/&quot;instalments&quot;:\{&quot;min&quot;:&quot;100&quot;,&quot;max&quot;:&quot;200000&quot;/);

    const k = key();
    const r = await v.send('POST', PLACE, placeBody(k, await afterpayMethod(), total));
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ status: 'requires_action' });
    const pi = standin.intents.get(r.json().paymentId as string)!;
    expect(pi.payment_method_types).toEqual(['card', 'afterpay_clearpay']);
    expect(pi).toMatchObject({
      amount: total,
      currency: 'usd',
      shipping: { name: 'Ada Buyer', address: { postal_code: '97201', country: 'US' } },
    });
    const back = await atAfterpay(String(r.json().redirectUrl), 'authorize');
    expect(back.pathname).toBe('/checkout/payment-return');
    const ret = await v.get(`${back.pathname}${back.search}`);
    expect(ret.statusCode).toBe(303);
    expect(ret.headers.location).toMatch(/^\/order-confirmed\//);
    const orders = await rows<{ status: string; payment: Record<string, unknown> }>(
      t.database.db,
      sql`select status, payment from orders where idempotency_key = ${k}`,
    );
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'paid', payment: { provider: 'stripe', brand: 'afterpay', amountCents: total } });
    // The webhook after the return, and the return again: still one order.
    expect((await deliver(standin.eventsOf('payment_intent.succeeded', String(pi.id)).at(-1)!)).statusCode).toBe(200);
    expect((await v.get(`${back.pathname}${back.search}`)).headers.location).toMatch(/^\/order-confirmed\//);
    expect(await rows(t.database.db, sql`select id from orders where idempotency_key = ${k}`)).toHaveLength(1);
  });

  it('a failed Afterpay step comes back to the checkout with a message and no order; a forged return changes nothing', async () => {
    const { v, total } = await cartWith([['linen-camp-shirt', 'SHIRT-M-SAND']]);
    const k = key();
    const r = await v.send('POST', PLACE, placeBody(k, await afterpayMethod(), total));
    expect(r.json()).toMatchObject({ status: 'requires_action' });
    const back = await atAfterpay(String(r.json().redirectUrl), 'fail');
    const ret = await v.get(`${back.pathname}${back.search}`);
    expect(ret.headers.location).toBe('/checkout?payment=failed');
    expect((await v.get('/checkout?payment=failed')).body).toContain(checkoutMessages.PAYMENT_NOT_COMPLETED);
    // Saying "succeeded" in the address proves nothing: only the PaymentIntent at Stripe counts.
    const forged = await v.get(`/checkout/payment-return?payment_intent=${String(r.json().paymentId)}&redirect_status=succeeded`);
    expect(forged.headers.location).toBe('/checkout?payment=failed');
    expect((await v.get('/checkout/payment-return?payment_intent=pi_000000000000000000000000')).headers.location).toBe(
      '/checkout?payment=failed',
    );
    expect((await v.get('/checkout/payment-return?payment_intent=<script>')).headers.location).toBe('/checkout');
    expect(await rows(t.database.db, sql`select id from orders where idempotency_key = ${k}`)).toHaveLength(0);
  });

  it('a payment still processing when the shopper returns is not called failed, and no order is made before it settles', async () => {
    const { v, total } = await cartWith([['linen-camp-shirt', 'SHIRT-M-SAND']]);
    const k = key();
    const r = await v.send('POST', PLACE, placeBody(k, await afterpayMethod(), total));
    expect(r.json()).toMatchObject({ status: 'requires_action' });
    const piId = String(r.json().paymentId);
    standin.intents.get(piId)!.status = 'processing';
    const ret = await v.get(`/checkout/payment-return?payment_intent=${piId}`);
    expect(ret.headers.location).toBe('/checkout?payment=processing');
    const page = (await v.get('/checkout?payment=processing')).body;
    expect(page).toContain(checkoutMessages.PAYMENT_PROCESSING);
    expect(page).not.toContain(checkoutMessages.PAYMENT_NOT_COMPLETED);
    expect(await rows(t.database.db, sql`select id from orders where idempotency_key = ${k}`)).toHaveLength(0);
  });

  it('does not allow Afterpay for a mixed cart (a digital item) or a total over the limit: the card still works', async () => {
    const { v, total } = await cartWith([
      ['linen-camp-shirt', 'SHIRT-M-SAND'],
      ['houseplant-field-guide', 'EBOOK-PLANTS'],
    ]);
    expect((await v.get('/checkout')).body).toContain('&quot;instalments&quot;:null');
    const k = key();
    const r = await v.send('POST', PLACE, placeBody(k, await afterpayMethod(), total));
    expect(r.statusCode, r.body).toBe(402);
    expect(r.json().message).toBe(stripeMessages.METHOD_NOT_ALLOWED);
    const pi = [...standin.intents.values()].find((x) => (x.metadata as Record<string, string>).tessera_key === k)!;
    expect(pi.payment_method_types).toEqual(['card']);
    expect(await rows(t.database.db, sql`select id from orders where idempotency_key = ${k}`)).toHaveLength(0);
    const card = await v.send(
      'POST',
      PLACE,
      placeBody(key(), await method('type=card&card[number]=4242424242424242&card[exp_month]=12&card[exp_year]=2034&card[cvc]=123'), total),
    );
    expect(card.statusCode, card.body).toBe(200);
    expect(card.json().status).toBe('paid');

    // Over the limit ($2,000.00): 30 shirts at $68.00.
    const big = new Visitor(t.app);
    expect((await big.send('POST', ADD, { itemId: ids['linen-camp-shirt'], sku: 'SHIRT-M-SAND', quantity: 30 })).statusCode).toBe(200);
    const q = await big.send('POST', QUOTE, { email: 'ada@example.com', shippingAddress: ADDRESS });
    const over = await big.send('POST', PLACE, placeBody(key(), await afterpayMethod(), q.json().cart.grandTotalCents as number));
    expect(over.statusCode, over.body).toBe(402);
    expect(over.json().message).toBe(stripeMessages.METHOD_NOT_ALLOWED);
  });

  it('Afterpay follows the connected Stripe account’s country once Check connection has retrieved it, not the preferences’ merchant country', async () => {
    const offered = async () => (await (await cartWith([['linen-camp-shirt', 'SHIRT-M-SAND']])).v.get('/checkout')).body;
    // The preferences' merchant country (US) until the account is checked.
    expect(await offered()).toMatch(/&quot;instalments&quot;:\{&quot;min&quot;/);
    standin.account = { ...standin.account, country: 'DE' };
    try {
      const check = await owner.send('POST', '/api/config/payments/check', {});
      expect(check.statusCode, check.body).toBe(200);
      expect(check.json()).toMatchObject({ ok: true, country: 'DE' });
      expect(await offered()).toContain('&quot;instalments&quot;:null');
      const { v, total } = await cartWith([['linen-camp-shirt', 'SHIRT-M-SAND']]);
      const r = await v.send('POST', PLACE, placeBody(key(), await afterpayMethod(), total));
      expect(r.statusCode, r.body).toBe(402);
      expect(r.json().message).toBe(stripeMessages.METHOD_NOT_ALLOWED);
    } finally {
      standin.account = { ...standin.account, country: 'US' };
    }
    expect((await owner.send('POST', '/api/config/payments/check', {})).json()).toMatchObject({ ok: true, country: 'US' });
    expect(await offered()).toMatch(/&quot;instalments&quot;:\{&quot;min&quot;/);
  });

  it('donations go to Stripe’s Checkout page once Stripe is connected: no card fields, one donation whichever comes first', async () => {
    const v = new Visitor(t.app);
    const form = (await v.get('/donate')).body;
    expect(form).not.toContain('name="cardNumber"');
    expect(form).toContain('You pay on Stripe&rsquo;s secure page');
    const k = key();
    const body = { donorName: 'Dee Donor', email: 'dee@example.com', amountCents: 2500, idempotencyKey: k };
    const r = await v.send('POST', '/api/donations', body);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ status: 'redirect' });
    const sessionId = /\/pay\/(cs_test_[0-9a-f]+)$/.exec(String(r.json().url))![1]!;
    const session = standin.sessions.get(sessionId)!;
    expect(session).toMatchObject({ mode: 'payment', amount_total: 2500, currency: 'usd', customer_email: 'dee@example.com' });
    expect(session.success_url).toMatch(/\/donate\/stripe\/return\?session_id=\{CHECKOUT_SESSION_ID\}$/);
    // A second submit of the same form is the same session (Stripe's idempotency), nothing recorded yet.
    expect((await v.send('POST', '/api/donations', body)).json().url).toBe(r.json().url);
    expect(await rows(t.database.db, sql`select id from donations where idempotency_key = ${k}`)).toHaveLength(0);

    standin.paySession(sessionId);
    // The webhook first, then twice, then the donor's return: one donation.
    const done = standin.eventsOf('checkout.session.completed', sessionId).at(-1)!;
    expect((await deliver(done)).statusCode).toBe(200);
    expect((await deliver(done)).json()).toMatchObject({ duplicate: true });
    const ret = await v.get(`/donate/stripe/return?session_id=${sessionId}`);
    expect(ret.statusCode).toBe(303);
    expect(ret.headers.location).toMatch(/^\/donate\/confirmed\//);
    const list = await rows<{ amount_cents: number; provider: string; test_mode: boolean; payment_id: string }>(
      t.database.db,
      sql`select amount_cents, provider, test_mode, payment_id from donations where idempotency_key = ${k}`,
    );
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ amount_cents: 2500, provider: 'stripe', test_mode: true });
    expect(standin.held(list[0]!.payment_id)).toBe(2500);
    expect((await v.get(String(ret.headers.location))).statusCode).toBe(200);
    // The same form once more answers the recorded donation.
    expect((await v.send('POST', '/api/donations', body)).json()).toMatchObject({ duplicate: true });

    // Without JavaScript the form post is sent on to Stripe's page.
    const plainBody = new URLSearchParams({
      donorName: 'Dee Donor',
      email: 'dee@example.com',
      amountCents: '2500',
      idempotencyKey: key(),
      crumb: await v.crumb(),
    }).toString();
    const plain = await v.send('POST', '/api/donations', plainBody, { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(plain.statusCode).toBe(303);
    expect(plain.headers.location).toMatch(new RegExp(`^${standin.url}/pay/cs_test_`));
    // An unpaid session's return goes back to the form.
    const unpaidId = /\/pay\/(cs_test_[0-9a-f]+)$/.exec(String(plain.headers.location))![1]!;
    expect((await v.get(`/donate/stripe/return?session_id=${unpaidId}`)).headers.location).toBe('/donate');
  });
});
