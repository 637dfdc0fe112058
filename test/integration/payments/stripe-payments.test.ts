/**
 * Issue 25: real payments through Stripe, against a local stand-in of Stripe's HTTP API (test/helpers/
 * stripe-standin.ts) that the official SDK reaches through its host, port and protocol options. The real app on
 * both databases: card orders, declines, 3-D Secure, webhooks in every order and twice, signatures, refunds
 * settled by webhook, disputes, a changed price, and 20 racing checkouts for the last 5 units.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { DB_KINDS } from '../../helpers/db.js';
import { StripeStandin, type StandinEvent } from '../../helpers/stripe-standin.js';
import { rows } from '../../../src/server/db-util.js';
import { commerce } from '../../../src/core/messages.js';
import { confirmed } from '../../helpers/orders.js';

const ADD = '/api/commerce/shopping-cart/entries';
const PLACE = '/api/checkout/place-order';
const QUOTE = '/api/checkout/quote';
const WEBHOOK = '/api/payments/stripe/webhook';
const pay = (token: string) => ({ type: 'token', provider: 'stripe', token });

let seq = 0;
const key = () => `stripe-key-${Date.now()}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

describe.each(DB_KINDS)('Stripe payments on %s', (kind) => {
  let t: TestApp;
  let standin: StripeStandin;
  let ids: Record<string, string>;
  let owner: Visitor;

  beforeAll(async () => {
    standin = await new StripeStandin().start();
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory', ...standin.env() });
    ids = t.seed.productIds;
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await standin?.stop();
  });
  // Enough tune-ups for every test (the race sets its own 5).
  beforeEach(async () => {
    await t.database.db.execute(sql`update product_variants set qty_in_stock = 1000, unlimited = false where sku = 'SERVICE-TUNEUP'`);
  });

  async function stockOf(sku: string): Promise<number> {
    const r = await rows<{ q: number }>(t.database.db, sql`select qty_in_stock as q from product_variants where sku = ${sku}`);
    return Number(r[0]!.q);
  }
  async function shopper(itemKey = 'bike-tune-up', sku = 'SERVICE-TUNEUP', quantity = 1) {
    const v = new Visitor(t.app);
    const r = await v.send('POST', ADD, { itemId: ids[itemKey], sku, quantity });
    expect(r.statusCode, r.body).toBe(200);
    const q = await v.send('POST', QUOTE, { email: 'shopper@example.com' });
    expect(q.statusCode, q.body).toBe(200);
    return { v, total: q.json().cart.grandTotalCents as number };
  }
  const place = async (v: Visitor, k: string, payment: unknown, extra: Record<string, unknown> = {}) =>
    v.send('POST', PLACE, await confirmed(v, { email: 'shopper@example.com', payment, idempotencyKey: k, ...extra }));
  async function deliver(e: StandinEvent, opts: { t?: number; signature?: string; body?: string } = {}) {
    const d = standin.signedDelivery(e, opts.t);
    return t.app.inject({
      method: 'POST',
      url: WEBHOOK,
      payload: opts.body ?? d.body,
      headers: { ...d.headers, ...(opts.signature ? { 'stripe-signature': opts.signature } : {}) },
    });
  }
  const eventFor = (type: string, objectId: string) => {
    const list = standin.eventsOf(type, objectId);
    expect(list.length, `${type} for ${objectId}`).toBeGreaterThan(0);
    return list[list.length - 1]!;
  };
  async function ordersOfPayment(pi: string) {
    return rows<{ id: string; status: string; payment: Record<string, unknown>; test_mode: boolean; grand_total_cents: number }>(
      t.database.db,
      sql`select id, status, payment, test_mode, grand_total_cents from orders where payment ->> 'paymentId' = ${pi}`,
    );
  }
  async function mailsFor(ref: string) {
    return rows<{ to_address: string; kind: string; subject: string }>(
      t.database.db,
      sql`select to_address, kind, subject from mail_outbox where ref = ${ref}`,
    );
  }

  it('takes a paid card order through a PaymentIntent for the server’s total, with an idempotency key', async () => {
    const before = await stockOf('SERVICE-TUNEUP');
    const { v, total } = await shopper();
    const k = key();
    const r = await place(v, k, pay('pm_card_visa'), { expectedTotalCents: total });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ status: 'paid', duplicate: false });
    const orderId = r.json().purchaseConfirmation.id as string;
    const [o] = await rows<{
      payment: { provider: string; paymentId: string; brand: string; last4: string; amountCents: number };
      test_mode: boolean;
      grand_total_cents: number;
    }>(t.database.db, sql`select payment, test_mode, grand_total_cents from orders where id = ${orderId}`);
    expect(o!.payment).toMatchObject({ provider: 'stripe', brand: 'visa', last4: '4242', amountCents: total });
    expect(o!.test_mode).toBe(true);
    const pi = standin.intents.get(o!.payment.paymentId)!;
    expect(pi).toMatchObject({ status: 'succeeded', amount: total, currency: 'usd' });
    expect((pi.metadata as Record<string, string>).tessera_key).toBe(k);
    // The attempt was recorded with the intent's id before it was confirmed, and the calls carried idempotency keys.
    const [a] = await rows<{ state: string; payment_id: string; order_id: string }>(
      t.database.db,
      sql`select state, payment_id, order_id from payment_attempts where idempotency_key = ${k}`,
    );
    expect(a).toMatchObject({ state: 'completed', payment_id: pi.id, order_id: orderId });
    const calls = standin.requests.filter(
      (q) => q.method === 'POST' && q.path.startsWith('/v1/payment_intents') && String(q.headers['idempotency-key'] ?? '').includes(k),
    );
    expect(calls.map((q) => q.path)).toEqual(['/v1/payment_intents', `/v1/payment_intents/${String(pi.id)}/confirm`]);
    expect(calls[0]!.body).toMatchObject({ amount: String(total), currency: 'usd', metadata: { tessera_key: k } });
    expect(calls[0]!.headers['stripe-version']).toBe('2026-10-28.endive');
    expect(await stockOf('SERVICE-TUNEUP')).toBe(before - 1);
    expect((await mailsFor(orderId)).map((m) => m.kind)).toEqual(['order-confirmation']);
    // A retry of the same attempt is the same order, and no new charge.
    const again = await place(v, k, pay('pm_card_visa'), { expectedTotalCents: total });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ duplicate: true, purchaseConfirmation: { id: orderId } });
    expect([...standin.intents.values()].filter((x) => (x.metadata as Record<string, string>).tessera_key === k)).toHaveLength(1);
  });

  it('refuses raw card numbers once Stripe takes the payments', async () => {
    const { v } = await shopper();
    const r = await place(v, key(), { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' });
    expect(r.statusCode).toBe(402);
    expect(r.json().message).toBe('Please enter your card in the secure card form.');
  });

  it('answers a declined card with Stripe’s words for the shopper: no order, stock untouched', async () => {
    const before = await stockOf('SERVICE-TUNEUP');
    const { v } = await shopper();
    const k = key();
    const r = await place(v, k, pay('pm_card_chargeDeclined'));
    expect(r.statusCode, r.body).toBe(402);
    expect(r.json().message).toBe('Your card was declined.');
    const funds = await place(v, k, pay('pm_card_chargeDeclinedInsufficientFunds'));
    expect(funds.statusCode).toBe(402);
    expect(funds.json().message).toBe('Your card has insufficient funds.');
    expect(await stockOf('SERVICE-TUNEUP')).toBe(before);
    const [a] = await rows<{ state: string; order_id: string | null }>(
      t.database.db,
      sql`select state, order_id from payment_attempts where idempotency_key = ${k}`,
    );
    expect(a).toMatchObject({ state: 'voided', order_id: null });
    expect(await rows(t.database.db, sql`select id from orders where idempotency_key = ${k}`)).toHaveLength(0);
    // The same attempt then pays with another card: one intent for the attempt, now succeeded.
    const ok = await place(v, k, pay('pm_card_mastercard'));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await stockOf('SERVICE-TUNEUP')).toBe(before - 1);
  });

  it('handles 3-D Secure: requires_action, then the shopper returns and the order is paid once', async () => {
    const before = await stockOf('SERVICE-TUNEUP');
    const { v, total } = await shopper();
    const k = key();
    const r = await place(v, k, pay('pm_card_authenticationRequired'), { expectedTotalCents: total });
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ status: 'requires_action', brand: expect.any(String), amountDueCents: total });
    expect(body.paymentId).toMatch(/^pi_/);
    expect(body.clientSecret).toMatch(new RegExp(`^${String(body.paymentId)}_secret_`));
    expect(body.redirectUrl).toContain(`/3ds/${String(body.paymentId)}`);
    expect(await stockOf('SERVICE-TUNEUP')).toBe(before);
    // Before the bank step, resuming answers requires_action again; another attempt's key cannot take this intent.
    expect((await place(v, k, { type: 'existing', paymentId: body.paymentId })).json().status).toBe('requires_action');
    const thief = await shopper();
    const stolen = await place(thief.v, key(), { type: 'existing', paymentId: body.paymentId });
    expect(stolen.statusCode).toBe(402);
    standin.authenticate(body.paymentId, true);
    const done = await place(v, k, { type: 'existing', paymentId: body.paymentId }, { expectedTotalCents: total });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: 'paid', duplicate: false });
    expect(await stockOf('SERVICE-TUNEUP')).toBe(before - 1);
    // The webhook that follows changes nothing.
    const w = await deliver(eventFor('payment_intent.succeeded', body.paymentId));
    expect(w.statusCode, w.body).toBe(200);
    expect(await ordersOfPayment(body.paymentId)).toHaveLength(1);
    expect(await stockOf('SERVICE-TUNEUP')).toBe(before - 1);
  });

  it('a failed 3-D Secure step declines with the bank’s words and makes no order', async () => {
    const { v } = await shopper();
    const k = key();
    const r = await place(v, k, pay('pm_card_authenticationRequired'));
    const pi = r.json().paymentId as string;
    standin.authenticate(pi, false);
    const back = await place(v, k, { type: 'existing', paymentId: pi });
    expect(back.statusCode).toBe(402);
    expect(back.json().message).toBe(
      'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
    );
    expect(await deliver(eventFor('payment_intent.payment_failed', pi)).then((x) => x.statusCode)).toBe(200);
    expect(await ordersOfPayment(pi)).toHaveLength(0);
  });

  it('the webhook arriving before the shopper returns, then again: one order, one stock decrement, one email', async () => {
    const before = await stockOf('SERVICE-TUNEUP');
    const { v, total } = await shopper();
    const k = key();
    const pi = (await place(v, k, pay('pm_card_authenticationRequired'), { expectedTotalCents: total })).json().paymentId as string;
    standin.authenticate(pi, true);
    const e = eventFor('payment_intent.succeeded', pi);
    const first = await deliver(e);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ received: true, duplicate: false, result: 'completed' });
    const orders = await ordersOfPayment(pi);
    expect(orders).toHaveLength(1);
    expect(orders[0]!.status).toBe('paid');
    // The same event again (Stripe retries): acknowledged and ignored.
    const replay = await deliver(e);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toMatchObject({ received: true, duplicate: true });
    // An older event for the same intent arriving late (out of order) changes nothing either.
    expect((await deliver(eventFor('payment_intent.requires_action', pi))).statusCode).toBe(200);
    // The shopper comes back from the bank: the order the webhook made.
    const back = await place(v, k, { type: 'existing', paymentId: pi }, { expectedTotalCents: total });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({ status: 'paid', duplicate: true, purchaseConfirmation: { id: orders[0]!.id } });
    expect(await ordersOfPayment(pi)).toHaveLength(1);
    expect(await stockOf('SERVICE-TUNEUP')).toBe(before - 1);
    expect((await mailsFor(orders[0]!.id)).filter((m) => m.kind === 'order-confirmation')).toHaveLength(1);
  });

  it('the webhook arriving after the shopper’s order, and twice: still one order', async () => {
    const before = await stockOf('SERVICE-TUNEUP');
    const { v } = await shopper();
    const r = await place(v, key(), pay('pm_card_visa'));
    expect(r.statusCode).toBe(200);
    const orderId = r.json().purchaseConfirmation.id as string;
    const pi = (await rows<{ p: string }>(t.database.db, sql`select payment ->> 'paymentId' as p from orders where id = ${orderId}`))[0]!.p;
    const e = eventFor('payment_intent.succeeded', pi);
    const one = await deliver(e);
    const two = await deliver(e);
    expect([one.statusCode, two.statusCode]).toEqual([200, 200]);
    expect(two.json().duplicate).toBe(true);
    expect(await ordersOfPayment(pi)).toHaveLength(1);
    expect(await stockOf('SERVICE-TUNEUP')).toBe(before - 1);
    expect((await mailsFor(orderId)).filter((m) => m.kind === 'order-confirmation')).toHaveLength(1);
  });

  it('refuses unsigned, forged and stale webhooks with 400, and needs no crumb', async () => {
    const { v } = await shopper();
    const r = await place(v, key(), pay('pm_card_authenticationRequired'));
    const pi = r.json().paymentId as string;
    standin.authenticate(pi, true);
    const e = eventFor('payment_intent.succeeded', pi);
    const d = standin.signedDelivery(e);
    const unsigned = await t.app.inject({ method: 'POST', url: WEBHOOK, payload: d.body, headers: { 'content-type': 'application/json' } });
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json().message).toBe('This endpoint takes only events signed by Stripe (Stripe-Signature header).');
    const forged = await deliver(e, { signature: standin.sign(d.body, Math.floor(Date.now() / 1000), 'whsec_someone_else') });
    expect(forged.statusCode).toBe(400);
    const tampered = await deliver(e, { body: d.body.replace('"succeeded"', '"canceled"') });
    expect(tampered.statusCode).toBe(400);
    const stale = await deliver(e, { t: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().message).toContain('older than 5 minutes');
    expect(await ordersOfPayment(pi)).toHaveLength(0);
    const good = await deliver(e); // no cookie, no crumb
    expect(good.statusCode, good.body).toBe(200);
    expect(await ordersOfPayment(pi)).toHaveLength(1);
  });

  it('settles partial and full refunds by webhook, counting a refund made here and confirmed by Stripe once', async () => {
    const before = await stockOf('SERVICE-TUNEUP');
    const { v, total } = await shopper();
    const r = await place(v, key(), pay('pm_card_visa'));
    const orderId = r.json().purchaseConfirmation.id as string;
    const pi = (await rows<{ p: string }>(t.database.db, sql`select payment ->> 'paymentId' as p from orders where id = ${orderId}`))[0]!.p;
    // A partial refund through the provider interface (what the admin's amount refund calls).
    const stripe = t.app.checkout.payments.get('stripe')!;
    expect(await stripe.refund(pi, 1000)).toEqual({ refundedCents: 1000 });
    expect(standin.held(pi)).toBe(total - 1000);
    const partial = eventFor('charge.refunded', pi);
    expect((await deliver(partial)).json()).toMatchObject({ result: 'partial' });
    expect((await deliver(partial)).json()).toMatchObject({ duplicate: true });
    let [o] = await ordersOfPayment(pi);
    expect(o).toMatchObject({ status: 'paid', payment: { refundedCents: 1000 } });
    expect(await stockOf('SERVICE-TUNEUP')).toBe(before - 1);
    // The rest from Stripe's dashboard: the event carries the running total, the order is refunded, stock back.
    standin.refundFromDashboard(pi);
    const full = eventFor('charge.refunded', pi);
    expect((await deliver(full)).json()).toMatchObject({ result: 'refunded' });
    // The older partial event arriving late (a new delivery id) does not lower the total.
    expect((await deliver({ ...partial, id: `${partial.id}_late` })).statusCode).toBe(200);
    [o] = await ordersOfPayment(pi);
    expect(o).toMatchObject({ status: 'refunded', payment: { refundedCents: total } });
    expect(await stockOf('SERVICE-TUNEUP')).toBe(before);
    expect(standin.held(pi)).toBe(0);
  });

  it('an owner’s full refund goes through the Refunds API; the webhook confirming it restores nothing twice', async () => {
    const before = await stockOf('SERVICE-TUNEUP');
    const { v, total } = await shopper();
    const r = await place(v, key(), pay('pm_card_visa'));
    const orderId = r.json().purchaseConfirmation.id as string;
    const refund = await owner.send('POST', `/api/checkout/admin/orders/${orderId}/refund`, {});
    expect(refund.statusCode, refund.body).toBe(200);
    const [o] = await rows<{ p: string }>(t.database.db, sql`select payment ->> 'paymentId' as p from orders where id = ${orderId}`);
    expect(standin.held(o!.p)).toBe(0);
    expect([...standin.refunds.values()].filter((x) => x.payment_intent === o!.p).map((x) => x.amount)).toEqual([total]);
    expect(await stockOf('SERVICE-TUNEUP')).toBe(before);
    expect((await deliver(eventFor('charge.refunded', o!.p))).json()).toMatchObject({ result: 'refunded' });
    expect(await stockOf('SERVICE-TUNEUP')).toBe(before);
  });

  it('a dispute marks the order and tells the owner by email, once', async () => {
    const { v } = await shopper();
    const r = await place(v, key(), pay('pm_card_visa'));
    const orderId = r.json().purchaseConfirmation.id as string;
    const [o] = await rows<{ p: string }>(t.database.db, sql`select payment ->> 'paymentId' as p from orders where id = ${orderId}`);
    standin.dispute(o!.p, 'fraudulent');
    const e = eventFor('charge.dispute.created', o!.p);
    expect((await deliver(e)).json()).toMatchObject({ result: 'marked' });
    expect((await deliver({ ...e, id: `${e.id}_again` })).json()).toMatchObject({ result: 'no order' });
    const [row] = await ordersOfPayment(o!.p);
    expect(row!.payment.dispute).toMatchObject({ reason: 'fraudulent', status: 'needs_response' });
    const mails = (await mailsFor(orderId)).filter((m) => m.kind === 'payment-dispute');
    expect(mails.map((m) => m.to_address)).toEqual([OWNER.email]);
    expect(mails[0]!.subject).toMatch(/^A payment for order #\d+ is disputed$/);
  });

  it('a price change between cart and payment asks the shopper to confirm, and charges nothing', async () => {
    const { v, total } = await shopper();
    const intents = standin.intents.size;
    await t.database.db.execute(sql`update product_variants set price_cents = price_cents + 500 where sku = 'SERVICE-TUNEUP'`);
    try {
      const r = await place(v, key(), pay('pm_card_visa'), { expectedTotalCents: total });
      expect(r.statusCode).toBe(409);
      expect(r.json()).toMatchObject({ code: 'total_changed', grandTotalCents: total + 500 });
      expect(standin.intents.size).toBe(intents);
      const ok = await place(v, key(), pay('pm_card_visa'), { expectedTotalCents: total + 500 });
      expect(ok.statusCode, ok.body).toBe(200);
      const [o] = await rows<{ p: string }>(
        t.database.db,
        sql`select payment ->> 'paymentId' as p from orders where id = ${ok.json().purchaseConfirmation.id as string}`,
      );
      expect(standin.intents.get(o!.p)!.amount).toBe(total + 500);
    } finally {
      await t.database.db.execute(sql`update product_variants set price_cents = price_cents - 500 where sku = 'SERVICE-TUNEUP'`);
    }
  });

  it('the reconciler completes an intent that succeeded without an order, and cancels one left waiting', async () => {
    const before = await stockOf('SERVICE-TUNEUP');
    // A shopper passes 3-D Secure and never comes back; the webhook is lost.
    const a = await shopper();
    const ka = key();
    const piA = (await place(a.v, ka, pay('pm_card_authenticationRequired'), { expectedTotalCents: a.total })).json().paymentId as string;
    standin.authenticate(piA, true);
    // Another leaves the bank's page open for good.
    const b = await shopper();
    const kb = key();
    const piB = (await place(b.v, kb, pay('pm_card_authenticationRequired'))).json().paymentId as string;
    // "Older than 0 ms" as of a second from now: an attempt written in the same millisecond as Date.now()
    // would otherwise not be older than it.
    const r = await t.app.checkout.service.reconcile(0, Date.now() + 1000);
    expect(r.completed).toBeGreaterThanOrEqual(1);
    expect(r.voided).toBeGreaterThanOrEqual(1);
    const attempts = await rows<{ idempotency_key: string; state: string; order_id: string | null }>(
      t.database.db,
      sql`select idempotency_key, state, order_id from payment_attempts where idempotency_key in (${ka}, ${kb}) order by idempotency_key`,
    );
    expect(Object.fromEntries(attempts.map((x) => [x.idempotency_key, x.state]))).toEqual({ [ka]: 'completed', [kb]: 'voided' });
    const orders = await ordersOfPayment(piA);
    expect(orders).toHaveLength(1);
    expect(orders[0]!.status).toBe('paid');
    expect(standin.intents.get(piB)!.status).toBe('canceled');
    expect(await stockOf('SERVICE-TUNEUP')).toBe(before - 1);
    // The shopper's late return is that order; the webhooks that follow change nothing.
    const back = await place(a.v, ka, { type: 'existing', paymentId: piA });
    expect(back.json()).toMatchObject({ status: 'paid', duplicate: true, purchaseConfirmation: { id: orders[0]!.id } });
    expect((await deliver(eventFor('payment_intent.succeeded', piA))).statusCode).toBe(200);
    expect((await deliver(eventFor('payment_intent.canceled', piB))).statusCode).toBe(200);
    expect(await ordersOfPayment(piA)).toHaveLength(1);
    expect(await stockOf('SERVICE-TUNEUP')).toBe(before - 1);
  });

  it('Stripe unreachable: the shopper is told in words, the attempt stays open, and nothing is charged twice', async () => {
    const { v } = await shopper();
    const k = key();
    standin.down = true;
    try {
      const r = await place(v, k, pay('pm_card_visa'));
      expect(r.statusCode).toBe(503);
      expect(r.json().message).toBe(
        'We could not reach the payment processor. Please try again in a moment: you will not be charged twice.',
      );
    } finally {
      standin.down = false;
    }
    const again = await place(v, k, pay('pm_card_visa'));
    expect(again.statusCode, again.body).toBe(200);
    expect([...standin.intents.values()].filter((x) => (x.metadata as Record<string, string>).tessera_key === k)).toHaveLength(1);
  }, 60_000);

  it('Settings → Payments: keys masked, environment keys locked, Check connection, admin only', async () => {
    const view = await owner.get('/api/config/payments');
    expect(view.statusCode, view.body).toBe(200);
    const v = view.json();
    expect(v).toMatchObject({
      provider: 'stripe',
      mode: 'test',
      publishableKey: 'pk_test_tessera_standin',
      sources: { secretKey: 'environment' },
    });
    expect(v.secretKey).toBe('sk_test_…ndin');
    expect(v.webhookSecret).toBe('whsec_…cret');
    expect(view.body).not.toContain(standin.secretKey);
    expect(view.body).not.toContain(standin.webhookSecret);
    expect(v.webhookUrl).toMatch(/\/api\/payments\/stripe\/webhook$/);
    const locked = await owner.send('PUT', '/api/config/payments', { secretKey: 'sk_test_another_key_1234' });
    expect(locked.statusCode).toBe(400);
    expect(locked.json().errors).toEqual({ secretKey: 'This key is set by the server environment and cannot be changed here.' });
    const check = await owner.send('POST', '/api/config/payments/check', {});
    expect(check.json()).toEqual({
      ok: true,
      accountId: 'acct_test_tessera',
      country: 'US',
      currency: 'USD',
      chargesEnabled: true,
      mode: 'test',
      problem: null,
    });
    standin.account = { ...standin.account, charges_enabled: false };
    const notYet = await owner.send('POST', '/api/config/payments/check', {});
    expect(notYet.json()).toMatchObject({
      ok: true,
      chargesEnabled: false,
      problem: 'Stripe has not enabled charges on this account yet: finish the account details in your Stripe dashboard.',
    });
    standin.account = { ...standin.account, charges_enabled: true };
    // The browser's configuration carries the publishable key only.
    const pub = await new Visitor(t.app).get('/api/payments/stripe/config');
    expect(pub.json()).toEqual({
      enabled: true,
      publishableKey: 'pk_test_tessera_standin',
      testMode: true,
      jsUrl: `${standin.url}/v3/stripe.js`,
    });
    expect(pub.body).not.toContain('sk_test');
    // Not for a visitor, nor without the crumb.
    expect((await new Visitor(t.app).get('/api/config/payments')).statusCode).toBe(401);
    expect((await owner.send('POST', '/api/config/payments/check', {}, { crumb: false })).statusCode).toBe(403);
  });

  it('without JavaScript: a Checkout Session for the cart’s total, Stripe’s page, and back to the order (webhook first or return first)', async () => {
    const before = await stockOf('SERVICE-TUNEUP');
    for (const webhookFirst of [false, true]) {
      const { v, total } = await shopper();
      const k = key();
      const r = await v.send('POST', '/api/payments/stripe/checkout-session', {
        email: 'shopper@example.com',
        idempotencyKey: k,
        expectedTotalCents: total,
      });
      expect(r.statusCode, r.body).toBe(200);
      const url = r.json().url as string;
      expect(url.startsWith(`${standin.url}/pay/cs_test_`)).toBe(true);
      const sessionId = url.split('/').pop()!;
      const session = standin.sessions.get(sessionId)!;
      expect(session.amount_total).toBe(total);
      expect(session.success_url).toMatch(/\/checkout\/stripe\/return\?session_id=\{CHECKOUT_SESSION_ID\}$/);
      expect(session.cancel_url).toMatch(/\/checkout$/);
      expect(session.metadata).toMatchObject({ tessera_key: k });
      // Nothing is taken before the shopper pays on Stripe's page.
      expect(await stockOf('SERVICE-TUNEUP')).toBe(webhookFirst ? before - 1 : before);
      standin.paySession(sessionId);
      if (webhookFirst)
        expect((await deliver(eventFor('checkout.session.completed', sessionId))).json()).toMatchObject({ result: 'completed' });
      const back = await v.get(`/checkout/stripe/return?session_id=${sessionId}`);
      expect(back.statusCode).toBe(303);
      expect(back.headers.location).toMatch(/^\/order-confirmed\/[0-9a-f]{24}\?t=/);
      const pi = String(standin.sessions.get(sessionId)!.payment_intent);
      for (const e of [...standin.eventsOf('checkout.session.completed', sessionId), ...standin.eventsOf('payment_intent.succeeded', pi)])
        expect((await deliver(e)).statusCode).toBe(200);
      const orders = await ordersOfPayment(pi);
      expect(orders).toHaveLength(1);
      expect(back.headers.location).toContain(orders[0]!.id);
      expect(Number(orders[0]!.grand_total_cents)).toBe(total);
      expect((await mailsFor(orders[0]!.id)).filter((m) => m.kind === 'order-confirmation')).toHaveLength(1);
    }
    expect(await stockOf('SERVICE-TUNEUP')).toBe(before - 2);
    // A form post (no JavaScript) is answered with a redirect to Stripe's page; a cancelled return goes back to checkout.
    const { v } = await shopper();
    const form = await v.send('POST', '/api/payments/stripe/checkout-session', `email=shopper%40example.com&idempotencyKey=${key()}`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode, form.body).toBe(303);
    expect(form.headers.location).toContain(`${standin.url}/pay/cs_test_`);
    const unpaid = await v.get(`/checkout/stripe/return?session_id=${String(form.headers.location).split('/').pop()}`);
    expect(unpaid.headers.location).toBe('/checkout');
  });

  it('without JavaScript: the checkout page’s own form post goes to a Checkout Session for the same total', async () => {
    const { v, total } = await shopper();
    const page = await v.get('/checkout');
    expect(page.statusCode).toBe(200);
    // With Stripe connected the page draws no card fields; its plain form posts here.
    expect(page.body).not.toContain('name="cardNumber"');
    const crumb = await v.crumb();
    const k = key();
    const form = await v.send(
      'POST',
      '/api/checkout/form',
      `crumb=${crumb}&action=place&email=shopper%40example.com&idempotencyKey=${k}&expectedTotalCents=${total}`,
      {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
    );
    expect(form.statusCode, form.body).toBe(303);
    const url = String(form.headers.location);
    expect(url.startsWith(`${standin.url}/pay/cs_test_`)).toBe(true);
    const session = standin.sessions.get(url.split('/').pop()!)!;
    expect(session.amount_total).toBe(total);
    expect(session.metadata).toMatchObject({ tessera_key: k });
  });

  it('20 racing checkouts for the last 5 units: 5 orders, 15 refused, no charge left unrefunded', async () => {
    await t.database.db.execute(sql`update product_variants set qty_in_stock = 5, unlimited = false where sku = 'SERVICE-TUNEUP'`);
    const shoppers = await Promise.all(Array.from({ length: 20 }, () => shopper()));
    const keys = shoppers.map(() => key());
    const results = await Promise.all(shoppers.map(({ v }, i) => place(v, keys[i]!, pay('pm_card_visa'))));
    const paid = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(paid).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const r of refused) expect(r.json().message).toBe(commerce.NOT_ENOUGH_STOCK);
    expect(await stockOf('SERVICE-TUNEUP')).toBe(0);
    const orderPayments = new Set(
      (
        await rows<{ p: string }>(
          t.database.db,
          sql`select payment ->> 'paymentId' as p from orders where idempotency_key in (${sql.join(
            keys.map((k) => sql`${k}`),
            sql`, `,
          )})`,
        )
      ).map((x) => x.p),
    );
    expect(orderPayments.size).toBe(5);
    // Every intent of these checkouts: money held only by the 5 orders; the rest refunded in full (or never charged).
    const raced = [...standin.intents.values()].filter((pi) => keys.includes((pi.metadata as Record<string, string>).tessera_key ?? ''));
    expect(raced.length).toBeGreaterThanOrEqual(5);
    for (const pi of raced) expect(standin.held(String(pi.id))).toBe(orderPayments.has(String(pi.id)) ? pi.amount : 0);
    // Every webhook of the race delivered afterwards: still 5 orders, stock still 0.
    for (const pi of raced)
      for (const e of standin.eventsOf('payment_intent.succeeded', String(pi.id))) expect((await deliver(e)).statusCode).toBe(200);
    for (const pi of raced)
      for (const e of standin.eventsOf('charge.refunded', String(pi.id))) expect((await deliver(e)).statusCode).toBe(200);
    const after = await rows(
      t.database.db,
      sql`select id from orders where idempotency_key in (${sql.join(
        keys.map((k) => sql`${k}`),
        sql`, `,
      )})`,
    );
    expect(after).toHaveLength(5);
    expect(await stockOf('SERVICE-TUNEUP')).toBe(0);
    for (const pi of raced) expect(standin.held(String(pi.id))).toBe(orderPayments.has(String(pi.id)) ? pi.amount : 0);
  }, 120_000);
});
