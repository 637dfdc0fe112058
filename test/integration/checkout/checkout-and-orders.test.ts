import { UNKNOWN_COUNTRY } from '../../../src/core/countries.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { DB_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { commerce, cart as cartMessages, checkoutMessages } from '../../../src/core/messages.js';
import { computeCheckout } from '../../../src/core/checkout.js';
import { newId } from '../../../src/db/ids.js';
import { confirmed } from '../../helpers/orders.js';

const ADD = '/api/commerce/shopping-cart/entries';
const PLACE = '/api/checkout/place-order';
const QUOTE = '/api/checkout/quote';
const CARD = { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Buyer' };
const ADDRESS = { name: 'Ada Buyer', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };

let keySeq = 0;
const key = () => `test-key-${Date.now()}-${++keySeq}-${Math.random().toString(36).slice(2, 8)}`;

describe.each(DB_KINDS)('checkout and orders on %s', (kind) => {
  let t: TestApp;
  let ids: Record<string, string>;
  let websiteId: string;
  let owner: Visitor;

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    ids = t.seed.productIds;
    websiteId = t.seed.websiteId;
    owner = new Visitor(t.app);
    const login = await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password });
    expect(login.statusCode).toBe(200);
    // The owner's store setup, through the owner calls.
    const post = async (url: string, body: unknown) => {
      const r = await owner.send('POST', url, body);
      expect(r.statusCode, r.body).toBe(200);
      return r.json();
    };
    await post('/api/checkout/admin/shipping-options', { name: 'Standard', kind: 'flat', priceCents: 599 });
    await post('/api/checkout/admin/shipping-options', {
      name: 'Free over $100',
      kind: 'free_above',
      priceCents: 999,
      freeAboveCents: 10000,
      countries: ['US'],
    });
    await post('/api/checkout/admin/shipping-options', {
      name: 'By weight',
      kind: 'weight',
      weightRates: [
        { upToGrams: 1000, priceCents: 450 },
        { upToGrams: 5000, priceCents: 1200 },
      ],
    });
    await post('/api/checkout/admin/tax-rules', { name: 'Oregon', country: 'US', region: 'OR', rateBasisPoints: 0 });
    await post('/api/checkout/admin/tax-rules', { name: 'California', country: 'US', region: 'CA', rateBasisPoints: 725 });
    await post('/api/checkout/admin/tax-rules', {
      name: 'US federal (test)',
      country: 'US',
      region: '',
      rateBasisPoints: 500,
      appliesToShipping: true,
    });
    await post('/api/checkout/admin/coupons', { code: 'save10', kind: 'percent', percentBasisPoints: 1000 });
    await post('/api/checkout/admin/coupons', { code: 'FIVEOFF', kind: 'fixed', amountCents: 500, minSubtotalCents: 5000 });
    await post('/api/checkout/admin/coupons', { code: 'SHIPFREE', kind: 'free_shipping' });
    await post('/api/checkout/admin/coupons', { code: 'OLD', kind: 'percent', percentBasisPoints: 5000, expiresAt: Date.now() - 1000 });
    await post('/api/checkout/admin/coupons', { code: 'ONCE', kind: 'fixed', amountCents: 100, usageLimit: 1 });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function stockOf(sku: string): Promise<number> {
    const r = await rows<{ q: number }>(t.database.db, sql`select qty_in_stock as q from product_variants where sku = ${sku}`);
    return Number(r[0]!.q);
  }
  async function setStock(sku: string, qty: number) {
    await t.database.db.execute(sql`update product_variants set qty_in_stock = ${qty}, unlimited = false where sku = ${sku}`);
  }
  async function visitorWith(itemKey: string, sku: string, quantity = 1): Promise<Visitor> {
    const v = new Visitor(t.app);
    const r = await v.send('POST', ADD, { itemId: ids[itemKey], sku, quantity });
    expect(r.statusCode, r.body).toBe(200);
    return v;
  }
  async function mailsFor(ref: string) {
    return rows<{ to_address: string; subject: string; text_body: string }>(
      t.database.db,
      sql`select to_address, subject, text_body from mail_outbox where ref = ${ref}`,
    );
  }

  it('quotes a cart with shipping, tax and coupons, and lists invalid coupons with a reason', async () => {
    const v = await visitorWith('ceramic-pour-over-set', 'POUR-OVER', 2); // 2 x 3900 = 7800
    const r = await v.send('POST', QUOTE, {
      email: 'a@example.com',
      shippingAddress: ADDRESS,
      coupons: ['save10', 'nope', 'OLD', 'fiveoff'],
    });
    expect(r.statusCode, r.body).toBe(200);
    const { cart } = r.json();
    expect(cart.subtotalCents).toBe(7800);
    expect(cart.validCoupons).toEqual(['SAVE10']);
    expect(cart.invalidCoupons).toEqual([
      { code: 'NOPE', reason: 'This coupon code does not exist.' },
      { code: 'OLD', reason: 'This coupon has expired.' },
      { code: 'FIVEOFF', reason: 'Only one discount coupon can be used per order.' },
    ]);
    expect(cart.discountCents).toBe(780);
    expect(cart.shippingOptions.map((o: { name: string; costCents: number }) => [o.name, o.costCents])).toEqual([
      ['Standard', 599],
      ['Free over $100', 999],
      ['By weight', 450],
    ]);
    expect(cart.selectedShippingOption.name).toBe('Standard');
    expect(cart.shippingCostCents).toBe(599);
    // Oregon 0 % plus the 5 % country rule on goods and shipping: round((7020 + 599) * 0.05) = 381.
    expect(cart.taxCents).toBe(381);
    expect(cart.grandTotalCents).toBe(7800 - 780 + 599 + 381);
    expect(cart.shippingLocation).toEqual({ country: 'US', region: 'OR' });
    // The cart keeps what was entered.
    const again = await v.get('/api/checkout');
    expect(again.json().cart.grandTotalCents).toBe(cart.grandTotalCents);
    // The page computes the same totals from the pricing inputs the server sends.
    const { pricing } = r.json();
    const local = computeCheckout({
      lines: pricing.lines,
      shippingOptions: pricing.shippingOptions,
      taxRules: pricing.taxRules,
      coupons: pricing.coupons,
      couponCodes: ['save10', 'nope', 'OLD', 'fiveoff'],
      location: { country: 'US', region: 'OR' },
      now: Date.now(),
    });
    expect(local.grandTotalCents).toBe(cart.grandTotalCents);
  });

  it('places an order: stock down, cart purchased, purchase confirmation with decimal values, email after commit', async () => {
    const before = await stockOf('POUR-OVER');
    const v = await visitorWith('ceramic-pour-over-set', 'POUR-OVER', 1);
    const k = key();
    const r = await v.send(
      'POST',
      PLACE,
      await confirmed(v, { email: 'buyer@example.com', shippingAddress: ADDRESS, coupons: ['SHIPFREE'], payment: CARD }),
      { headers: { 'idempotency-key': k } },
    );
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.status).toBe('paid');
    const pc = body.purchaseConfirmation;
    expect(pc).toMatchObject({
      testMode: true,
      websiteId,
      items: [
        {
          sku: 'POUR-OVER',
          productName: 'Ceramic Pour-Over Set',
          quantity: 1,
          unitPrice: { value: '3900', currency: 'USD', decimalValue: '39.00' },
        },
      ],
    });
    expect(pc.shippingTotal).toEqual({ value: '0', currency: 'USD', decimalValue: '0.00' });
    // 5 % of 3900 = 195.
    expect(pc.taxTotal.decimalValue).toBe('1.95');
    expect(pc.grandTotal.decimalValue).toBe('40.95');
    expect(await stockOf('POUR-OVER')).toBe(before - 1);
    const cart = await rows<{ is_purchased: boolean; order_id: string }>(
      t.database.db,
      sql`select is_purchased, order_id from carts where id = ${pc.purchasedCartId}`,
    );
    expect(cart[0]).toMatchObject({ is_purchased: true, order_id: pc.id });
    const order = await rows<{ payment: Record<string, unknown> }>(t.database.db, sql`select payment from orders where id = ${pc.id}`);
    expect(order[0]!.payment).toMatchObject({ provider: 'test', brand: 'visa', last4: '4242' });
    expect(JSON.stringify(order[0]!.payment)).not.toContain('4242424242424242');
    const mails = await mailsFor(pc.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to_address).toBe('buyer@example.com');
    expect(mails[0]!.text_body).toContain('/order-status/');

    // The confirmation page (202) and the status page (211) by the signed link; a wrong signature is a 404.
    const page = await v.get(body.confirmationUrl);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Your order is confirmed');
    expect(page.body).toContain('$40.95');
    const statusLink = /https?:\/\/[^/\s]+(\/order-status\/\S+)/.exec(mails[0]!.text_body)![1]!;
    const status = await new Visitor(t.app).get(statusLink);
    expect(status.statusCode).toBe(200);
    expect(status.body).toContain('Paid');
    const json = await new Visitor(t.app).get(`${statusLink}&format=json`);
    expect(json.json().pageType).toBe(211);
    expect((await new Visitor(t.app).get(`/order-status/${pc.id}?t=${'x'.repeat(32)}`)).statusCode).toBe(404);
    // The cart is gone from the cart pill's point of view: the next checkout is empty.
    const after = await v.get('/api/checkout');
    expect(after.json().cart.entries).toEqual([]);
  });

  it('refuses bad input with the words of the spec and changes nothing', async () => {
    const before = await stockOf('POUR-OVER');
    const v = await visitorWith('ceramic-pour-over-set', 'POUR-OVER', 1);
    const noKey = await v.send('POST', PLACE, await confirmed(v, { email: 'x@example.com', shippingAddress: ADDRESS, payment: CARD }));
    expect(noKey.statusCode).toBe(400);
    const missing = await v.send(
      'POST',
      PLACE,
      await confirmed(v, { email: 'not-an-email', shippingAddress: { country: 'US' }, payment: CARD, idempotencyKey: key() }),
    );
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(cartMessages.UPDATE_MISSING_INFO);
    expect(Object.keys(missing.json().errors)).toEqual(expect.arrayContaining(['email', 'shippingAddress.name', 'shippingAddress.line1']));
    // Two letters that name no country: refused at the country field, in words.
    const nowhere = await v.send(
      'POST',
      PLACE,
      await confirmed(v, { email: 'x@example.com', shippingAddress: { ...ADDRESS, country: 'ZZ' }, payment: CARD, idempotencyKey: key() }),
    );
    expect(nowhere.statusCode, nowhere.body).toBe(400);
    expect(nowhere.json().errors).toEqual({ 'shippingAddress.country': UNKNOWN_COUNTRY });
    const declined = await v.send(
      'POST',
      PLACE,
      await confirmed(v, {
        email: 'x@example.com',
        shippingAddress: ADDRESS,
        payment: { ...CARD, number: '4000 0000 0000 0002' },
        idempotencyKey: key(),
      }),
    );
    expect(declined.statusCode).toBe(402);
    expect(declined.json().message).toBe('Your card was declined.');
    const badCard = await v.send(
      'POST',
      PLACE,
      await confirmed(v, {
        email: 'x@example.com',
        shippingAddress: ADDRESS,
        payment: { ...CARD, number: '4242 4242 4242 4241' },
        idempotencyKey: key(),
      }),
    );
    expect(badCard.statusCode).toBe(402);
    expect(badCard.json().errors.cardNumber).toBe('Your card number is incorrect.');
    const noCsrf = await v.send('POST', PLACE, await confirmed(v, { email: 'x@example.com' }), { crumb: false });
    expect(noCsrf.statusCode).toBe(403);
    expect(await stockOf('POUR-OVER')).toBe(before);
    const open = await v.get('/api/checkout');
    expect(open.json().cart.entries).toHaveLength(1);
  });

  it('takes a second authentication step (4000 0027 6000 3184): complete pays, fail declines', async () => {
    const v = await visitorWith('ceramic-pour-over-set', 'POUR-OVER', 1);
    const k = key();
    const body = {
      email: 'three@example.com',
      shippingAddress: ADDRESS,
      payment: { ...CARD, number: '4000002760003184' },
      idempotencyKey: k,
    };
    const first = await v.send('POST', PLACE, await confirmed(v, body));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ status: 'requires_action', brand: 'visa', last4: '3184' });
    const paymentId = first.json().paymentId;
    // Not authenticated yet: asking again still needs the step.
    const pending = await v.send('POST', PLACE, await confirmed(v, { ...body, payment: { type: 'existing', paymentId } }));
    expect(pending.json().status).toBe('requires_action');
    const auth = await v.send('POST', `/api/checkout/test-payments/${paymentId}/authenticate`, { outcome: 'complete' });
    expect(auth.statusCode).toBe(200);
    const done = await v.send('POST', PLACE, await confirmed(v, { ...body, payment: { type: 'existing', paymentId } }));
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().status).toBe('paid');

    const w = await visitorWith('ceramic-pour-over-set', 'POUR-OVER', 1);
    const k2 = key();
    const b2 = { ...body, idempotencyKey: k2 };
    const p = (await w.send('POST', PLACE, await confirmed(w, b2))).json().paymentId;
    await w.send('POST', `/api/checkout/test-payments/${p}/authenticate`, { outcome: 'fail' });
    const failed = await w.send('POST', PLACE, await confirmed(w, { ...b2, payment: { type: 'existing', paymentId: p } }));
    expect(failed.statusCode).toBe(402);
    expect(failed.json().message).toMatch(/unable to authenticate/);
  });

  it('oversell: 5 in stock, 50 concurrent checkouts of 1 from 50 carts -> 5 orders, stock 0, 45 clean failures', async () => {
    await setStock('SHIRT-S-SAND', 5);
    const visitors = await Promise.all(Array.from({ length: 50 }, () => visitorWith('linen-camp-shirt', 'SHIRT-S-SAND', 1)));
    // Each shopper's confirmed total first, so the 50 place-orders still race each other.
    const bodies = await Promise.all(
      visitors.map((v) => confirmed(v, { email: 'rush@example.com', shippingAddress: ADDRESS, payment: CARD })),
    );
    const results = await Promise.all(visitors.map((v, i) => v.send('POST', PLACE, bodies[i], { headers: { 'idempotency-key': key() } })));
    const ok = results.filter((r) => r.statusCode === 200);
    const failed = results.filter((r) => r.statusCode !== 200);
    expect(ok).toHaveLength(5);
    expect(failed).toHaveLength(45);
    for (const f of failed) {
      expect(f.statusCode).toBe(400);
      expect(f.json().message).toBe(commerce.NOT_ENOUGH_STOCK);
    }
    expect(await stockOf('SHIRT-S-SAND')).toBe(0);
    const orders = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from orders where items @> ${JSON.stringify([{ sku: 'SHIRT-S-SAND' }])}::jsonb`,
    );
    expect(Number(orders[0]!.n)).toBe(5);
    // The 45 carts are still open and untouched.
    const openCarts = await Promise.all(failed.map((_, i) => visitors[results.indexOf(failed[i]!)]!.get('/api/checkout')));
    expect(openCarts.every((r) => r.json().cart.entries.length === 1)).toBe(true);
    // Their payments were voided at the provider.
    const charged = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from test_payments where status = 'succeeded' and last4 = '4242' and amount_cents = ${ok[0]!.json().purchaseConfirmation.grandTotal.value}::bigint`,
    );
    expect(Number(charged[0]!.n)).toBeGreaterThanOrEqual(5);
  });

  it('idempotency: one place-order sent 10 times at once with one key -> one order, one decrement, one email', async () => {
    await setStock('SHIRT-S-NAVY', 10);
    const v = await visitorWith('linen-camp-shirt', 'SHIRT-S-NAVY', 2);
    const k = key();
    const body = await confirmed(v, { email: 'twice@example.com', shippingAddress: ADDRESS, payment: CARD });
    const results = await Promise.all(Array.from({ length: 10 }, () => v.send('POST', PLACE, body, { headers: { 'idempotency-key': k } })));
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    const orderIds = new Set(results.map((r) => r.json().purchaseConfirmation.id));
    expect(orderIds.size).toBe(1);
    expect(await stockOf('SHIRT-S-NAVY')).toBe(8);
    const orderId = [...orderIds][0]!;
    expect(await mailsFor(orderId)).toHaveLength(1);
    const n = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from orders where idempotency_key = ${k}`);
    expect(Number(n[0]!.n)).toBe(1);
    // A later retry answers the same order too; another visitor cannot read it with the key.
    const later = await v.send('POST', PLACE, await confirmed(v, { email: 'twice@example.com', shippingAddress: ADDRESS, payment: CARD }), {
      headers: { 'idempotency-key': k },
    });
    expect(later.json().purchaseConfirmation.id).toBe(orderId);
    expect(later.json().duplicate).toBe(true);
    const stranger = new Visitor(t.app);
    const denied = await stranger.send('POST', PLACE, await confirmed(stranger, { email: 'x@example.com', payment: CARD }), {
      headers: { 'idempotency-key': k },
    });
    expect(denied.statusCode).toBe(404);
  });

  it('enforces the minimum order subtotal (storeSettings.minimumOrderSubtotalCents) set by the owner', async () => {
    const set = await owner.send('PUT', '/api/checkout/admin/settings', { minimumOrderSubtotalCents: 100000 });
    expect(set.statusCode).toBe(200);
    try {
      const v = await visitorWith('ceramic-pour-over-set', 'POUR-OVER', 1);
      const r = await v.send(
        'POST',
        PLACE,
        await confirmed(v, { email: 'min@example.com', shippingAddress: ADDRESS, payment: CARD, idempotencyKey: key() }),
      );
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toBe(cartMessages.minimumSubtotal('$1,000.00'));
    } finally {
      await owner.send('PUT', '/api/checkout/admin/settings', { minimumOrderSubtotalCents: 0 });
    }
  });

  it('coupon usage limit, digital download link, gift card bought and spent', async () => {
    // A digital product with a file, and a gift card in one order.
    await t.database.db.execute(
      sql`update items set structured_content = structured_content || '{"digitalFile":{"url":"/demo-media/houseplants-ebook.svg"}}'::jsonb where id = ${ids['houseplant-field-guide']}`,
    );
    const v = await visitorWith('houseplant-field-guide', 'EBOOK-PLANTS', 1);
    const add = await v.send('POST', ADD, { itemId: ids['gift-card'], sku: 'GIFT-25', quantity: 1 });
    expect(add.statusCode).toBe(200);
    const r = await v.send(
      'POST',
      PLACE,
      await confirmed(v, { email: 'digital@example.com', coupons: ['ONCE'], payment: CARD, idempotencyKey: key() }),
    );
    expect(r.statusCode, r.body).toBe(200);
    const pc = r.json().purchaseConfirmation;
    expect(pc.shippingTotal.value).toBe('0');
    expect(pc.grandTotal.value).toBe(String(Math.round((1200 + 2500 - 100) * 1.0)));
    const page = await v.get(r.json().confirmationUrl);
    const link = /href="(\/order-download\/[^"]+)"/.exec(page.body)![1]!.replace(/&amp;/g, '&');
    const dl = await v.get(link);
    expect(dl.statusCode).toBe(302);
    expect(dl.headers.location).toBe('/demo-media/houseplants-ebook.svg');
    const url = new URL(link, 'http://x');
    url.searchParams.set('expires', String(Date.now() - 1000));
    expect((await v.get(url.pathname + url.search)).statusCode).toBe(403);
    // A link made more than 24 hours ago has expired.
    const stale = t.app.checkout.service.downloadPath(pc.id, 0, Date.now() - 25 * 3600 * 1000);
    const gone = await v.get(stale);
    expect(gone.statusCode).toBe(410);
    expect(gone.body).toContain('expired');
    const code = /<code>([A-Z0-9-]+)<\/code>/.exec(page.body)![1]!;

    // The coupon was used once: its limit is reached.
    const w = await visitorWith('ceramic-pour-over-set', 'POUR-OVER', 1);
    const q = await w.send('POST', QUOTE, {
      email: 'g@example.com',
      shippingAddress: ADDRESS,
      coupons: ['ONCE'],
      giftCardCode: code.toLowerCase().replace(/-/g, ' '),
    });
    expect(q.json().cart.invalidCoupons).toEqual([{ code: 'ONCE', reason: 'This coupon has reached its usage limit.' }]);
    // 3900 + 599 shipping + 5 % tax on both (225) = 4724; the gift card pays 2500.
    expect(q.json().cart).toMatchObject({ grandTotalCents: 4724, giftCardCents: 2500, amountDueCents: 2224 });
    const paid = await w.send(
      'POST',
      PLACE,
      await confirmed(w, { email: 'g@example.com', shippingAddress: ADDRESS, giftCardCode: code, payment: CARD, idempotencyKey: key() }),
    );
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().purchaseConfirmation.giftCardTotal.value).toBe('2500');
    const bal = await rows<{ b: number }>(t.database.db, sql`select balance_cents as b from gift_cards where code = ${code}`);
    expect(Number(bal[0]!.b)).toBe(0);
    // The spent card pays nothing more: placing an order with it says so, and places nothing.
    const x = await visitorWith('ceramic-pour-over-set', 'POUR-OVER', 1);
    const empty = await x.send(
      'POST',
      PLACE,
      await confirmed(x, { email: 'g@example.com', shippingAddress: ADDRESS, giftCardCode: code, payment: CARD, idempotencyKey: key() }),
    );
    expect(empty.statusCode, empty.body).toBe(400);
    expect(empty.json().message).toBe(checkoutMessages.GIFT_CARD_EMPTY);
  });

  it('subscriptions: the subscription cart checks out into a subscription with its billing period', async () => {
    const v = new Visitor(t.app);
    const s = await v.send('POST', '/api/3/commerce/cart/subscription', {
      itemId: ids['fresh-roast-coffee-subscription'],
      sku: 'COFFEE-SUB',
      qty: 1,
    });
    expect(s.statusCode, s.body).toBe(200);
    const cartToken = s.json().cartToken;
    // The subscription page of the cart leads to the full checkout, which shows the plan's price text.
    const sp = await v.get(`/checkout/subscription?cartToken=${encodeURIComponent(cartToken)}`);
    expect(sp.body).toContain(`/checkout?cartToken=${encodeURIComponent(cartToken)}`);
    const page = await v.get(`/checkout?cartToken=${encodeURIComponent(cartToken)}&format=json`);
    expect(page.json().pageType).toBe(201);
    const html = await v.get(`/checkout?cartToken=${encodeURIComponent(cartToken)}`);
    expect(html.body).toContain('$18.00 every month');
    const r = await v.send(
      'POST',
      PLACE,
      await confirmed(v, { cartToken, email: 'sub@example.com', shippingAddress: ADDRESS, payment: CARD, idempotencyKey: key() }),
    );
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().confirmationUrl).toMatch(/^\/subscription-confirmed\//);
    const confirmedPage = await v.get(`${r.json().confirmationUrl}&format=json`);
    expect(confirmedPage.json().pageType).toBe(206);
    expect(confirmedPage.json().subscription).toMatchObject({
      billingPeriod: 'MONTH',
      billingPeriodValue: 1,
      numBillingCycles: 0,
      status: 'active',
    });
    const done = await v.get(r.json().confirmationUrl);
    expect(done.body).toContain('Your subscription is confirmed');
  });

  it('owner: lists orders, marks one fulfilled, refunds one in test mode and the stock comes back; visitors are refused', async () => {
    await setStock('BOARD-WALNUT', 3);
    const v = new Visitor(t.app);
    const add = await v.send('POST', ADD, {
      itemId: ids['engraved-cutting-board'],
      sku: 'BOARD-WALNUT',
      quantity: 2,
      additionalFields: JSON.stringify({ 'engraving-text': 'Ada', 'engraving-font': 'Serif' }),
    });
    expect(add.statusCode, add.body).toBe(200);
    const r = await v.send(
      'POST',
      PLACE,
      await confirmed(v, { email: 'owner-flow@example.com', shippingAddress: ADDRESS, payment: CARD, idempotencyKey: key() }),
    );
    expect(r.statusCode, r.body).toBe(200);
    const id = r.json().purchaseConfirmation.id;
    expect(await stockOf('BOARD-WALNUT')).toBe(1);

    expect((await new Visitor(t.app).get('/api/checkout/admin/orders')).statusCode).toBe(401);
    const list = await owner.get('/api/checkout/admin/orders');
    expect(list.statusCode).toBe(200);
    expect(list.json().orders.some((o: { id: string }) => o.id === id)).toBe(true);
    const detail = await owner.get(`/api/checkout/admin/orders/${id}`);
    expect(detail.json().order).toMatchObject({ email: 'owner-flow@example.com', status: 'paid' });

    const ful = await owner.send('POST', `/api/checkout/admin/orders/${id}/fulfil`);
    expect(ful.json().order.status).toBe('fulfilled');
    const ref = await owner.send('POST', `/api/checkout/admin/orders/${id}/refund`);
    expect(ref.statusCode, ref.body).toBe(200);
    expect(ref.json().order.status).toBe('refunded');
    expect(await stockOf('BOARD-WALNUT')).toBe(3);
    const again = await owner.send('POST', `/api/checkout/admin/orders/${id}/refund`);
    expect(again.statusCode).toBe(409);
    expect(await stockOf('BOARD-WALNUT')).toBe(3);
    const payment = detail.json().order.payment.paymentId;
    const tp = await rows<{ status: string }>(t.database.db, sql`select status from test_payments where id = ${payment}`);
    expect(tp[0]!.status).toBe('refunded');
    const bad = await owner.send('POST', '/api/checkout/admin/coupons', { code: 'X', kind: 'percent' });
    expect(bad.statusCode).toBe(400);
    void newId;
  });

  it('malformed requests to every checkout route get a clear 4xx, never a 500', async () => {
    const v = await visitorWith('ceramic-pour-over-set', 'POUR-OVER', 1);
    const weird: unknown[] = [
      null,
      1,
      'x',
      [],
      {},
      [1],
      { email: 'a\u0000b@example.com' },
      { coupons: ['\u0000'] },
      { coupons: 'SAVE10' },
      { shippingAddress: { country: 'ÄÄ' } },
      { payment: { type: 'card' } },
      { payment: { type: 'nope' } },
      { payment: { type: 'existing', paymentId: '\u0000' } },
      { idempotencyKey: 'x'.repeat(500) },
      { giftCardCode: 'x'.repeat(100) },
      { cartToken: '\u0000' },
    ];
    const statuses: number[] = [];
    for (const body of weird) {
      for (const url of [
        QUOTE,
        PLACE,
        '/api/checkout/test-payments/%00/authenticate',
        '/api/checkout/test-payments/tp_000000000000000000000000/authenticate',
      ]) {
        const r = await v.send('POST', url, body, { headers: { 'idempotency-key': key() } });
        statuses.push(r.statusCode);
        expect(r.statusCode, `${url} ${JSON.stringify(body)} -> ${r.body}`).toBeLessThan(500);
      }
      for (const url of ['/api/checkout/admin/coupons', '/api/checkout/admin/tax-rules', '/api/checkout/admin/shipping-options']) {
        const r = await owner.send('POST', url, body);
        expect(r.statusCode, `${url} ${JSON.stringify(body)} -> ${r.body}`).toBeLessThan(500);
      }
    }
    for (const url of [
      '/order-confirmed/%00',
      '/order-status/%00?t=%00',
      '/order-status/x?t=' + 'y'.repeat(300),
      '/subscription-confirmed/..%2f',
      '/order-download/%00/x',
      '/order-download/a/1?expires=1e309&t=x',
      '/checkout?cartToken=%00',
      '/checkout?cartToken=' + 'z'.repeat(300),
      '/api/checkout?cartToken=%00',
      '/api/checkout/admin/orders/%00',
      '/api/checkout/admin/orders?limit=1e309&status=x',
    ]) {
      const r = await owner.get(url);
      expect(r.statusCode, `${url} -> ${r.body.slice(0, 200)}`).toBeLessThan(500);
    }
    for (const url of [
      '/api/checkout/admin/orders/%00/refund',
      '/api/checkout/admin/orders/000000000000000000000000/refund',
      '/api/checkout/admin/orders/000000000000000000000000/fulfil',
    ]) {
      const r = await owner.send('POST', url);
      expect(r.statusCode, url).toBeLessThan(500);
    }
    expect(statuses.some((x) => x === 400)).toBe(true);
  });
});
