/**
 * Issue 25, subscriptions through Stripe Billing, against the local stand-in of Stripe's API: a subscription
 * checkout starts a Stripe subscription whose first invoice's PaymentIntent is confirmed like a one-off payment;
 * renewals are orders once per invoice; a failed renewal is past due; a fixed-cycle plan ends after its cycles;
 * cancelling from the account page and /config reaches Stripe; the hosted page (no JavaScript) in mode=subscription.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { StripeStandin, type StandinEvent } from '../../helpers/stripe-standin.js';
import { rows } from '../../../src/server/db-util.js';
import { addPeriods } from '../../../src/server/stripe/billing.js';
import { confirmed } from '../../helpers/orders.js';

const PLACE = '/api/checkout/place-order';
const WEBHOOK = '/api/payments/stripe/webhook';
const ADDRESS = { name: 'Sam Subscriber', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };
const PASSWORD = 'a long enough secret';
const XSRF = 'x-siteuser-xsrf-token';

let seq = 0;
const key = () => `billing-key-${Date.now()}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;
type Obj = Record<string, unknown>;

describe.each(APP_KINDS)('subscriptions through Stripe Billing on %s', (kind) => {
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
    // Shipping repeats with every cycle: it goes on the subscription as a second recurring line.
    expect(
      (await owner.send('POST', '/api/checkout/admin/shipping-options', { name: 'Standard', kind: 'flat', priceCents: 500 })).statusCode,
    ).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await standin?.stop();
  });

  async function deliver(e: StandinEvent, signed = true) {
    const d = standin.signedDelivery(e);
    const headers: Record<string, string> = signed ? d.headers : { 'content-type': 'application/json' };
    return t.app.inject({ method: 'POST', url: WEBHOOK, payload: d.body, headers });
  }
  const lastEvent = (type: string, objectId: string) => {
    const list = standin.events.filter((e) => e.type === type && e.data.object.id === objectId);
    expect(list.length, `${type} for ${objectId}`).toBeGreaterThan(0);
    return list[list.length - 1]!;
  };
  async function setCycles(n: number) {
    await t.database.db.execute(
      sql`update items set structured_content = jsonb_set(structured_content, '{subscriptionPlan,numBillingCycles}', ${JSON.stringify(n)}::jsonb) where id = ${ids['fresh-roast-coffee-subscription']!}`,
    );
  }
  async function subscriptionCart(v: Visitor): Promise<string> {
    const s = await v.send('POST', '/api/3/commerce/cart/subscription', {
      itemId: ids['fresh-roast-coffee-subscription'],
      sku: 'COFFEE-SUB',
      qty: 1,
    });
    expect(s.statusCode, s.body).toBe(200);
    return String(s.json().cartToken);
  }
  /** A subscription checkout paid with the Payment Element's PaymentMethod: the order, our subscription row and Stripe's subscription. */
  async function subscribe(email: string, v = new Visitor(t.app)) {
    const cartToken = await subscriptionCart(v);
    const k = key();
    const r = await v.send(
      'POST',
      PLACE,
      await confirmed(v, {
        cartToken,
        email,
        shippingAddress: ADDRESS,
        payment: { type: 'token', provider: 'stripe', token: 'pm_card_visa' },
        idempotencyKey: k,
      }),
    );
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ status: 'paid', duplicate: false });
    const orderId = String(r.json().purchaseConfirmation.id);
    const [sub] = await rows<Obj>(t.database.db, sql`select * from subscriptions where order_id = ${orderId}`);
    expect(sub).toBeDefined();
    const stripeSub = standin.subscriptions.get(String(sub!.provider_subscription_id))!;
    return { v, k, orderId, sub: sub!, stripeSub };
  }
  const ordersOf = (subId: string) =>
    rows<{ id: string; idempotency_key: string; grand_total_cents: number; payment: Obj; cart_kind: string }>(
      t.database.db,
      sql`select id, idempotency_key, grand_total_cents, payment, cart_kind from orders where subscription_id = ${subId} order by order_number`,
    );
  const statusOf = async (subId: string) =>
    (await rows<{ status: string }>(t.database.db, sql`select status from subscriptions where id = ${subId}`))[0]!.status;

  it('a subscription checkout with Stripe connected starts a Stripe subscription: Price, Customer, first invoice paid through the Payment Element’s method', async () => {
    const before = standin.requests.length;
    const { k, orderId, sub, stripeSub } = await subscribe('sam@example.com');
    expect(sub).toMatchObject({ provider: 'stripe', status: 'active', provider_customer_id: stripeSub.customer, billing_period: 'MONTH' });
    expect(Number(sub.price_cents)).toBe(1800);
    expect(stripeSub).toMatchObject({ status: 'active', cancel_at: null });
    const items = (stripeSub.items as { data: Array<{ price: Obj; quantity: number }> }).data;
    expect(items[0]!.price).toMatchObject({ unit_amount: 1800, currency: 'usd', recurring: { interval: 'month', interval_count: 1 } });
    expect(items[0]!.quantity).toBe(1);
    // The flat shipping repeats with every cycle: a second recurring line on the same Product.
    expect(items[1]!.price).toMatchObject({
      unit_amount: 500,
      product: items[0]!.price.product,
      recurring: { interval: 'month', interval_count: 1 },
    });
    // The order is the first invoice's PaymentIntent, for the order's total, and it names its subscription.
    const [o] = await rows<{ payment: Obj; grand_total_cents: number; subscription_id: string; cart_kind: string }>(
      t.database.db,
      sql`select payment, grand_total_cents, subscription_id, cart_kind from orders where id = ${orderId}`,
    );
    expect(o).toMatchObject({ cart_kind: 'subscription', subscription_id: sub.id });
    const pi = standin.firstIntentOf(String(stripeSub.id));
    expect(Number(o!.grand_total_cents)).toBe(2300);
    expect(o!.payment).toMatchObject({ provider: 'stripe', paymentId: pi.id, brand: 'visa', last4: '4242', amountCents: 2300 });
    expect(pi).toMatchObject({ status: 'succeeded', amount: 2300, metadata: { tessera_key: k } });
    // The wire: default_incomplete with the latest invoice's payments expanded, every POST with an idempotency key.
    const calls = standin.requests.slice(before).filter((q) => q.path.startsWith('/v1/'));
    const create = calls.find((q) => q.method === 'POST' && q.path === '/v1/subscriptions')!;
    expect(create.body).toMatchObject({
      customer: stripeSub.customer,
      payment_behavior: 'default_incomplete',
      expand: ['latest_invoice.payments'],
      items: [
        { price: items[0]!.price.id, quantity: '1' },
        {
          price_data: {
            currency: 'usd',
            product: items[0]!.price.product,
            unit_amount: '500',
            recurring: { interval: 'month', interval_count: '1' },
          },
          quantity: '1',
        },
      ],
    });
    for (const q of calls.filter((c) => c.method === 'POST')) expect(q.headers['idempotency-key'], q.path).toBeTruthy();
    expect(
      calls.some(
        (q) => q.method === 'POST' && q.path === `/v1/payment_intents/${String(pi.id)}/confirm` && q.body.payment_method === 'pm_card_visa',
      ),
    ).toBe(true);
    // The first invoice's invoice.paid (and the intent's own event) after the shopper's answer: still one order.
    expect((await deliver(lastEvent('invoice.paid', String(stripeSub.latest_invoice)))).json()).toMatchObject({ duplicate: false });
    expect((await deliver(standin.eventsOf('payment_intent.succeeded', String(pi.id)).at(-1)!)).statusCode).toBe(200);
    expect(await ordersOf(String(sub.id))).toHaveLength(1);

    // A second subscription by the same shopper reuses the Customer and the Price.
    const priceCalls = standin.requests.filter((q) => q.method === 'POST' && q.path === '/v1/prices').length;
    const again = await subscribe('SAM@example.com');
    expect(again.stripeSub.customer).toBe(stripeSub.customer);
    expect((again.stripeSub.items as { data: Array<{ price: Obj }> }).data[0]!.price.id).toBe(items[0]!.price.id);
    expect(standin.requests.filter((q) => q.method === 'POST' && q.path === '/v1/prices')).toHaveLength(priceCalls);
    expect(standin.requests.filter((q) => q.method === 'POST' && q.path === '/v1/customers')).toHaveLength(1);
    // A changed price is a new Price.
    await t.database.db.execute(sql`update product_variants set price_cents = 2000 where sku = 'COFFEE-SUB'`);
    try {
      const dearer = await subscribe('sam@example.com');
      const p = (dearer.stripeSub.items as { data: Array<{ price: Obj }> }).data[0]!.price;
      expect(p.unit_amount).toBe(2000);
      expect(p.id).not.toBe(items[0]!.price.id);
      expect(p.product).toBe(items[0]!.price.product);
    } finally {
      await t.database.db.execute(sql`update product_variants set price_cents = 1800 where sku = 'COFFEE-SUB'`);
    }
  });

  it('a first payment that needs 3-D Secure takes the one-off path: requires_action with the client secret, then the existing payment makes the order', async () => {
    const v = new Visitor(t.app);
    const cartToken = await subscriptionCart(v);
    const k = key();
    const body = { cartToken, email: 'secure@example.com', shippingAddress: ADDRESS, idempotencyKey: k };
    const first = await v.send(
      'POST',
      PLACE,
      await confirmed(v, { ...body, payment: { type: 'token', provider: 'stripe', token: 'pm_card_authenticationRequired' } }),
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      status: 'requires_action',
      paymentId: expect.stringMatching(/^pi_/),
      clientSecret: expect.stringMatching(/_secret_/),
    });
    const piId = String(first.json().paymentId);
    expect(await rows(t.database.db, sql`select id from orders where idempotency_key = ${k}`)).toHaveLength(0);
    standin.authenticate(piId, true);
    const done = await v.send('POST', PLACE, await confirmed(v, { ...body, payment: { type: 'existing', paymentId: piId } }));
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: 'paid' });
    const orderId = String(done.json().purchaseConfirmation.id);
    const [sub] = await rows<Obj>(t.database.db, sql`select * from subscriptions where order_id = ${orderId}`);
    const stripeSub = standin.subscriptions.get(String(sub!.provider_subscription_id))!;
    expect(stripeSub.status).toBe('active');
    expect(standin.firstIntentOf(String(stripeSub.id)).id).toBe(piId);
    // Its invoice.paid arrives afterwards: the same one order.
    expect((await deliver(lastEvent('invoice.paid', String(stripeSub.latest_invoice)))).json()).toMatchObject({ result: 'settled before' });
    expect(await rows(t.database.db, sql`select id from orders where subscription_id = ${String(sub!.id)}`)).toHaveLength(1);
  });

  it('a renewal’s invoice.paid is one renewal order, however often it arrives; a failed renewal is past due and the owner is told', async () => {
    const { sub, stripeSub, orderId } = await subscribe('renew@example.com');
    const inv = standin.renew(String(stripeSub.id));
    const paid = lastEvent('invoice.paid', String(inv.id));
    const r = await deliver(paid);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ result: 'renewal recorded' });
    let list = await ordersOf(String(sub.id));
    expect(list).toHaveLength(2);
    const renewal = list[1]!;
    expect(renewal).toMatchObject({ idempotency_key: `stripe-invoice:${String(inv.id)}`, cart_kind: 'subscription' });
    expect(Number(renewal.grand_total_cents)).toBe(Number(inv.amount_paid));
    expect(Number(inv.amount_paid)).toBe(2300);
    expect(renewal.payment).toMatchObject({ provider: 'stripe', invoiceId: inv.id, brand: 'visa', last4: '4242' });
    expect(renewal.id).not.toBe(orderId);
    // The same event again, and the same invoice in another event (Stripe may send both): still one renewal order.
    expect((await deliver(paid)).json()).toMatchObject({ duplicate: true });
    const twin = { ...paid, id: `${paid.id}_twin` };
    expect((await deliver(twin)).json()).toMatchObject({ duplicate: false, result: 'renewal recorded before' });
    list = await ordersOf(String(sub.id));
    expect(list).toHaveLength(2);
    const mails = await rows<{ kind: string; to_address: string }>(
      t.database.db,
      sql`select kind, to_address from mail_outbox where ref = ${renewal.id}`,
    );
    expect(mails.map((m) => m.kind)).toContain('order-confirmation');

    // A renewal the card refuses: past due, the owner is emailed once.
    const failed = standin.renew(String(stripeSub.id), 'pm_card_chargeDeclined');
    expect((await deliver(lastEvent('invoice.payment_failed', String(failed.id)))).statusCode).toBe(200);
    expect(await statusOf(String(sub.id))).toBe('past_due');
    const owners = await rows<{ to_address: string; subject: string }>(
      t.database.db,
      sql`select to_address, subject from mail_outbox where kind = 'subscription-past-due' and ref = ${String(sub.id)}`,
    );
    expect(owners.map((m) => m.to_address)).toContain(OWNER.email);
    expect(await ordersOf(String(sub.id))).toHaveLength(2);
    expect((await deliver(lastEvent('customer.subscription.updated', String(stripeSub.id)))).statusCode).toBe(200);
    expect(await statusOf(String(sub.id))).toBe('past_due');
    // The next renewal goes through: active again, one more order.
    const next = standin.renew(String(stripeSub.id));
    expect((await deliver(lastEvent('invoice.paid', String(next.id)))).statusCode).toBe(200);
    expect(await statusOf(String(sub.id))).toBe('active');
    expect(await ordersOf(String(sub.id))).toHaveLength(3);
  });

  it('a plan of 3 monthly cycles ends after 3: cancel_at three months after the anchor, then Stripe ends it', async () => {
    await setCycles(3);
    try {
      const { sub, stripeSub } = await subscribe('three@example.com');
      const anchor = Number(stripeSub.billing_cycle_anchor);
      expect(stripeSub.cancel_at).toBe(addPeriods(anchor, 'MONTH', 3));
      expect(
        new Date(
          String(
            sub.cancel_at ??
              (await rows<Obj>(t.database.db, sql`select cancel_at from subscriptions where id = ${String(sub.id)}`))[0]!.cancel_at,
          ),
        ).getTime(),
      ).toBe(Number(stripeSub.cancel_at) * 1000);
      for (let i = 0; i < 2; i++) {
        const inv = standin.renew(String(stripeSub.id));
        expect((await deliver(lastEvent('invoice.paid', String(inv.id)))).statusCode).toBe(200);
      }
      expect(await ordersOf(String(sub.id))).toHaveLength(3);
      standin.advanceClock(Number(stripeSub.cancel_at) - standin.time() + 1);
      expect(stripeSub.status).toBe('canceled');
      expect((await deliver(lastEvent('customer.subscription.deleted', String(stripeSub.id)))).statusCode).toBe(200);
      expect(await statusOf(String(sub.id))).toBe('ended');
    } finally {
      await setCycles(0);
      standin.clockOffset = 0;
    }
  });

  it('the customer cancels from the account page: DELETE at Stripe, recorded here', async () => {
    const email = 'acct.billing@example.com';
    const v = new Visitor(t.app);
    expect((await v.send('POST', '/api/site-users/accounts', { email, password: PASSWORD })).statusCode).toBe(202);
    const [mail] = await rows<{ text_body: string }>(
      t.database.db,
      sql`select text_body from mail_outbox where to_address = ${email} order by id desc`,
    );
    const link = mail!.text_body.match(/https?:\/\/\S+/g)!.find((u) => new URL(u).pathname === '/account/confirm')!;
    expect((await v.get(new URL(link).pathname + new URL(link).search)).statusCode).toBe(303);
    const session = await v.send('POST', '/api/site-users/account/session', { email, password: PASSWORD });
    expect(session.statusCode).toBe(200);
    const h = { [XSRF]: String(session.json().xsrfToken) };
    const { sub, stripeSub } = await subscribe(email, v);
    const listed = (await v.get('/api/site-users/account/subscriptions', h)).json().subscriptions as Array<{ id: string; status: string }>;
    expect(listed.find((s) => s.id === sub.id)?.status).toBe('active');
    // A renewal the card refuses: the customer sees it overdue (not 'active'), and can still cancel it.
    const failed = standin.renew(String(stripeSub.id), 'pm_card_chargeDeclined');
    expect((await deliver(lastEvent('invoice.payment_failed', String(failed.id)))).statusCode).toBe(200);
    const overdue = (await v.get('/api/site-users/account/subscriptions', h)).json().subscriptions as Array<{ id: string; status: string }>;
    expect(overdue.find((s) => s.id === sub.id)?.status).toBe('past_due');
    const page = await v.get('/account', h);
    expect(page.body).toContain('Payment overdue');
    expect(page.body).toContain('Cancel subscription');
    const r = await v.send('POST', `/api/site-users/account/subscriptions/${String(sub.id)}/cancel`, {}, { headers: h });
    expect(r.statusCode, r.body).toBe(200);
    expect(standin.requests.some((q) => q.method === 'DELETE' && q.path === `/v1/subscriptions/${String(stripeSub.id)}`)).toBe(true);
    expect(stripeSub.status).toBe('canceled');
    expect(await statusOf(String(sub.id))).toBe('canceled');
    // Stripe's own event afterwards changes nothing; a second cancel is refused.
    expect((await deliver(lastEvent('customer.subscription.deleted', String(stripeSub.id)))).statusCode).toBe(200);
    expect(await statusOf(String(sub.id))).toBe('canceled');
    expect((await v.send('POST', `/api/site-users/account/subscriptions/${String(sub.id)}/cancel`, {}, { headers: h })).statusCode).toBe(
      409,
    );
  });

  it('the owner cancels from /config: DELETE at Stripe, recorded here; Stripe unreachable leaves it active', async () => {
    const { orderId, sub, stripeSub } = await subscribe('config.cancel@example.com');
    const detail = await owner.get(`/api/checkout/admin/orders/${orderId}`);
    expect(detail.json().subscription).toMatchObject({
      id: sub.id,
      status: 'active',
      provider: 'stripe',
      providerSubscriptionId: stripeSub.id,
    });
    standin.down = true;
    try {
      const down = await owner.send('POST', `/api/checkout/admin/orders/${orderId}/subscription/cancel`, {});
      expect(down.statusCode).toBe(503);
      expect(await statusOf(String(sub.id))).toBe('active');
    } finally {
      standin.down = false;
    }
    const r = await owner.send('POST', `/api/checkout/admin/orders/${orderId}/subscription/cancel`, {});
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().subscription).toMatchObject({ status: 'canceled' });
    expect(
      standin.requests.filter((q) => q.method === 'DELETE' && q.path === `/v1/subscriptions/${String(stripeSub.id)}`).length,
    ).toBeGreaterThanOrEqual(1);
    expect(stripeSub.status).toBe('canceled');
    expect((await owner.send('POST', `/api/checkout/admin/orders/${orderId}/subscription/cancel`, {})).statusCode).toBe(409);
    // Not for a visitor.
    expect(
      (await new Visitor(t.app).send('POST', `/api/checkout/admin/orders/${orderId}/subscription/cancel`, {})).statusCode,
    ).toBeGreaterThanOrEqual(401);
  });

  it('a whole refund of the first order from /config cancels the subscription at Stripe too', async () => {
    const { orderId, sub, stripeSub } = await subscribe('refund.sub@example.com');
    const r = await owner.send('POST', `/api/checkout/admin/orders/${orderId}/refund`, {
      lines: [{ line: 0, quantity: 1 }],
      amountCents: 2300,
      restock: false,
      notify: false,
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(await statusOf(String(sub.id))).toBe('canceled');
    expect(standin.requests.some((q) => q.method === 'DELETE' && q.path === `/v1/subscriptions/${String(stripeSub.id)}`)).toBe(true);
    expect(stripeSub.status).toBe('canceled');
  });

  it('an unsigned or wrongly signed invoice.paid is refused with 400 and records nothing', async () => {
    const { sub, stripeSub } = await subscribe('unsigned@example.com');
    const inv = standin.renew(String(stripeSub.id));
    const e = lastEvent('invoice.paid', String(inv.id));
    expect((await deliver(e, false)).statusCode).toBe(400);
    const d = standin.signedDelivery(e);
    const forged = await t.app.inject({
      method: 'POST',
      url: WEBHOOK,
      payload: d.body,
      headers: { ...d.headers, 'stripe-signature': standin.sign(d.body, undefined, 'whsec_not_the_secret') },
    });
    expect(forged.statusCode).toBe(400);
    expect(await ordersOf(String(sub.id))).toHaveLength(1);
    expect((await deliver(e)).statusCode).toBe(200);
    expect(await ordersOf(String(sub.id))).toHaveLength(2);
  });

  it('without JavaScript: a Checkout Session in mode=subscription, and the return makes the order linked to its subscription', async () => {
    const v = new Visitor(t.app);
    const cartToken = await subscriptionCart(v);
    const page = await v.get(`/checkout?cartToken=${encodeURIComponent(cartToken)}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('name="cardNumber"');
    const k = key();
    const fields = new URLSearchParams({
      crumb: await v.crumb(),
      action: 'place',
      cartToken,
      email: 'plain.sub@example.com',
      idempotencyKey: k,
      ...ADDRESS,
    });
    const form = await v.send('POST', `/api/checkout/form?cartToken=${encodeURIComponent(cartToken)}`, fields.toString(), {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode, form.body).toBe(303);
    const url = String(form.headers.location);
    expect(url.startsWith(`${standin.url}/pay/cs_test_`)).toBe(true);
    const sessionId = url.split('/').pop()!;
    const session = standin.sessions.get(sessionId)!;
    expect(session).toMatchObject({ mode: 'subscription', metadata: { tessera_key: k } });
    expect(session.line_items_sent).toEqual(
      expect.arrayContaining([expect.objectContaining({ price: expect.stringMatching(/^price_/), quantity: '1' })]),
    );
    standin.paySession(sessionId);
    const back = await v.get(`/checkout/stripe/return?session_id=${sessionId}`);
    expect(back.statusCode).toBe(303);
    expect(String(back.headers.location)).toMatch(/^\/subscription-confirmed\//);
    const [o] = await rows<{ id: string; subscription_id: string }>(
      t.database.db,
      sql`select id, subscription_id from orders where idempotency_key = ${k}`,
    );
    const [sub] = await rows<Obj>(t.database.db, sql`select * from subscriptions where order_id = ${o!.id}`);
    expect(sub).toMatchObject({
      id: o!.subscription_id,
      provider: 'stripe',
      provider_subscription_id: session.subscription,
      status: 'active',
    });
    // The webhook afterwards: still one order.
    expect((await deliver(lastEvent('checkout.session.completed', sessionId))).statusCode).toBe(200);
    expect(await rows(t.database.db, sql`select id from orders where idempotency_key = ${k}`)).toHaveLength(1);
  });
});
