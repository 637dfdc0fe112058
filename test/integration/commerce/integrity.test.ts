/**
 * Issue 21, items 8, 9, 13 (in process), 14 and 15: carts stay bounded, checkout charges current prices
 * and only the total the shopper confirmed, coupons leave gift cards at full price, and every payment
 * attempt is recorded before the charge.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { DB_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { cart as cartMessages, forms as formMessages, security } from '../../../src/core/messages.js';
import { CART_LINES_MAX } from '../../../src/core/constants.js';
import { confirmed } from '../../helpers/orders.js';

const ADD = '/api/commerce/shopping-cart/entries';
const CART = '/api/commerce/shopping-cart';
const PLACE = '/api/checkout/place-order';
const QUOTE = '/api/checkout/quote';
const CARD = { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Buyer' };
const AUTH_CARD = { ...CARD, number: '4000 0027 6000 3184' };
const ADDRESS = { name: 'Ada Buyer', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };

let seq = 0;
const key = () => `integrity-${Date.now()}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

describe.each(DB_KINDS)('commerce integrity on %s', (kind) => {
  let t: TestApp;
  let ids: Record<string, string>;
  let owner: Visitor;

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    ids = t.seed.productIds;
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    expect(
      (await owner.send('POST', '/api/checkout/admin/shipping-options', { name: 'Standard', kind: 'flat', priceCents: 500 })).statusCode,
    ).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => {
    // The per-visitor write limit would stop the 300 adds first; this test is about the cart's own caps.
    t.app.services.carts.writeLimit = { max: 0, windowMs: 10_000 };
  });

  const board = () => ({ itemId: ids['engraved-cutting-board'], sku: 'BOARD-WALNUT' });
  const answers = (text: string, font = 'Serif') => JSON.stringify({ 'engraving-text': text, 'engraving-font': font });
  const sql1 = async <T extends Record<string, unknown>>(q: ReturnType<typeof sql>) => (await rows<T>(t.database.db, q))[0];
  const paymentsCount = async () => Number((await sql1<{ n: number }>(sql`select count(*)::int as n from test_payments`))!.n);
  const setPrice = (sku: string, priceCents: number, sale?: { onSale: boolean; salePriceCents: number }) =>
    t.database.db.execute(
      sql`update product_variants set price_cents = ${priceCents}, on_sale = ${sale?.onSale ?? false}, sale_price_cents = ${sale?.salePriceCents ?? 0} where sku = ${sku}`,
    );

  // ---- Item 8 ---------------------------------------------------------------------------------------

  it('refuses additional-fields answers for a product without a form: 300 adds stay one line', async () => {
    const v = new Visitor(t.app);
    const shirt = { itemId: ids['linen-camp-shirt'], sku: 'SHIRT-M-SAND' };
    for (let i = 0; i < 300; i++) {
      const r = await v.send('POST', ADD, {
        ...shirt,
        quantity: 1,
        additionalFields: JSON.stringify({ note: `${i}-${'x'.repeat(2000)}` }),
      });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({
        message: cartMessages.NO_ADDITIONAL_FIELDS,
        errors: { additionalFields: cartMessages.NO_ADDITIONAL_FIELDS },
      });
    }
    expect((await v.get(CART)).json().entries).toHaveLength(0);
    // Without answers the adds merge into one line.
    for (let i = 0; i < 5; i++) expect((await v.send('POST', ADD, { ...shirt, quantity: 1 })).statusCode).toBe(200);
    const cart = (await v.get(CART)).json();
    expect(cart.entries).toHaveLength(1);
    expect(cart.totalQuantity).toBe(5);
  });

  it(`caps a cart at ${CART_LINES_MAX} lines: 300 adds with distinct answers leave ${CART_LINES_MAX} lines and a small /cart page`, async () => {
    await t.database.db.execute(sql`update product_variants set unlimited = true where sku = 'BOARD-WALNUT'`);
    const v = new Visitor(t.app);
    let ok = 0;
    let refused = 0;
    for (let i = 0; i < 300; i++) {
      const r = await v.send('POST', ADD, { ...board(), quantity: 1, additionalFields: answers(`Name ${i}`) });
      if (r.statusCode === 200) ok++;
      else {
        expect(r.statusCode).toBe(400);
        expect(r.json().message).toBe(cartMessages.linesLimit(CART_LINES_MAX));
        refused++;
      }
    }
    expect(ok).toBe(CART_LINES_MAX);
    expect(refused).toBe(300 - CART_LINES_MAX);
    const cart = (await v.get(CART)).json();
    expect(cart.entries).toHaveLength(CART_LINES_MAX);
    // Adding to a line the cart already has still works at the cap (it merges).
    const merged = await v.send('POST', ADD, { ...board(), quantity: 2, additionalFields: answers('Name 0') });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(merged.json().newlyAdded.quantity).toBe(3);
    // The cart page stays small (the report saw 36 MB for 300 adds of 64 KB answers).
    const page = await v.get('/cart');
    expect(page.statusCode).toBe(200);
    expect(page.body.length).toBeLessThan(2_000_000);
  });

  it('checks answers against the form: known questions, options, sizes and required answers', async () => {
    const v = new Visitor(t.app);
    const add = (fields: unknown) => v.send('POST', ADD, { ...board(), quantity: 1, additionalFields: JSON.stringify(fields) });
    const notOption = await add({ 'engraving-text': 'Ada', 'engraving-font': 'Comic Sans' });
    expect(notOption.statusCode).toBe(400);
    expect(notOption.json().errors).toEqual({ 'engraving-font': cartMessages.NOT_AN_OPTION });
    const unknown = await add({ 'engraving-text': 'Ada', 'engraving-font': 'Serif', 'free-text': 'x' });
    expect(unknown.json().errors).toEqual({ 'free-text': cartMessages.UNKNOWN_QUESTION });
    const long = await add({ 'engraving-text': 'y'.repeat(2001), 'engraving-font': 'Serif' });
    expect(long.json().errors).toEqual({ 'engraving-text': formMessages.CHARACTER_LIMIT });
    const shape = await add({ 'engraving-text': { nested: { deep: 'x' } }, 'engraving-font': 'Serif' });
    expect(shape.json().errors).toEqual({ 'engraving-text': cartMessages.INVALID_ANSWER });
    const tooMuch = await add({
      'engraving-text': 'z'.repeat(1900),
      'engraving-font': 'Serif',
      ...Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`q${i}`, 'w'.repeat(1500)])),
    });
    expect(tooMuch.json().errors).toEqual({ additionalFields: cartMessages.ANSWERS_TOO_LONG });
    const missing = await add({ 'engraving-font': 'Serif' });
    expect(missing.json().errors).toEqual({ 'engraving-text': 'Required' });
    expect(v.cookies.has('tessera_cart')).toBe(false);
    const good = await add({ 'engraving-text': 'Ada', 'engraving-font': 'Block' });
    expect(good.statusCode, good.body).toBe(200);
    // The same rules on the answers' own update call.
    const entryId = good.json().newlyAdded.id;
    const upd = await v.send('PUT', `${ADD}/${entryId}/additionalFields`, { ...board(), additionalFields: answers('Ada', 'Wingdings') });
    expect(upd.statusCode).toBe(400);
    expect(upd.json().errors).toEqual({ 'engraving-font': cartMessages.NOT_AN_OPTION });
  });

  // ---- Item 9 ---------------------------------------------------------------------------------------

  it('prices the cart, the quote and the order from the current variant, and charges only a confirmed total', async () => {
    await setPrice('POUR-OVER', 3900);
    const v = new Visitor(t.app);
    expect((await v.send('POST', ADD, { itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 })).statusCode).toBe(200);
    const before = (await v.send('POST', QUOTE, { email: 'p@example.com', shippingAddress: ADDRESS })).json().cart;
    expect(before.subtotalCents).toBe(3900);
    // The owner raises the price while the item sits in the cart.
    await setPrice('POUR-OVER', 5000);
    const cart = (await v.get(CART)).json();
    expect(cart.entries[0].purchasePriceCents).toBe(5000);
    expect(cart.subtotalCents).toBe(5000);
    expect((await v.get('/cart')).body).toContain('$50.00');
    const quoted = (await v.send('POST', QUOTE, { email: 'p@example.com', shippingAddress: ADDRESS })).json().cart;
    expect(quoted.subtotalCents).toBe(5000);

    // The shopper confirmed the old total: refused before any charge, with the new quote.
    const charges = await paymentsCount();
    const stale = await v.send('POST', PLACE, {
      email: 'p@example.com',
      shippingAddress: ADDRESS,
      payment: CARD,
      idempotencyKey: key(),
      expectedTotalCents: before.grandTotalCents,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(
      `The order total is now $${(quoted.grandTotalCents / 100).toFixed(2)}, not $${(before.grandTotalCents / 100).toFixed(2)}. Please review your order and confirm the new total.`,
    );
    expect(stale.json()).toMatchObject({
      code: 'total_changed',
      confirmedTotalCents: before.grandTotalCents,
      grandTotalCents: quoted.grandTotalCents,
    });
    expect(stale.json().quote.cart.grandTotalCents).toBe(quoted.grandTotalCents);
    expect(await paymentsCount()).toBe(charges);

    // Confirming the new total places the order at the current price.
    const placed = await v.send('POST', PLACE, {
      email: 'p@example.com',
      shippingAddress: ADDRESS,
      payment: CARD,
      idempotencyKey: key(),
      expectedTotalCents: quoted.grandTotalCents,
    });
    expect(placed.statusCode, placed.body).toBe(200);
    expect(placed.json().purchaseConfirmation.items[0].unitPrice.value).toBe('5000');
    expect(Number(placed.json().purchaseConfirmation.grandTotal.value)).toBe(quoted.grandTotalCents);
    const pay = await sql1<{ amount_cents: number }>(sql`select amount_cents from test_payments order by created desc limit 1`);
    expect(Number(pay!.amount_cents)).toBe(quoted.grandTotalCents);
    await setPrice('POUR-OVER', 3900);
  });

  it('a sale price ends with the sale: checkout charges the regular price once the sale is over', async () => {
    await setPrice('POUR-OVER', 3900, { onSale: true, salePriceCents: 1000 });
    const v = new Visitor(t.app);
    const added = await v.send('POST', ADD, { itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 2 });
    expect(added.json().newlyAdded.purchasePriceCents).toBe(1000);
    await setPrice('POUR-OVER', 3900);
    const quoted = (await v.send('POST', QUOTE, { email: 's@example.com', shippingAddress: ADDRESS })).json().cart;
    expect(quoted.subtotalCents).toBe(7800);
    // Without a confirmed total (an API client), the order is still priced as it is now, never at the sale price.
    const placed = await v.send(
      'POST',
      PLACE,
      await confirmed(v, { email: 's@example.com', shippingAddress: ADDRESS, payment: CARD, idempotencyKey: key() }),
    );
    expect(placed.statusCode, placed.body).toBe(200);
    expect(placed.json().purchaseConfirmation.subtotal.value).toBe('7800');
  });

  // ---- Item 14 --------------------------------------------------------------------------------------

  it('a coupon used up between quote and place-order stops the payment with a clear message', async () => {
    expect(
      (await owner.send('POST', '/api/checkout/admin/coupons', { code: 'LASTONE', kind: 'fixed', amountCents: 1500, usageLimit: 1 }))
        .statusCode,
    ).toBe(200);
    const a = new Visitor(t.app);
    const b = new Visitor(t.app);
    for (const v of [a, b])
      expect((await v.send('POST', ADD, { itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 })).statusCode).toBe(200);
    const qa = (await a.send('POST', QUOTE, { email: 'a@example.com', shippingAddress: ADDRESS, coupons: ['LASTONE'] })).json().cart;
    const qb = (await b.send('POST', QUOTE, { email: 'b@example.com', shippingAddress: ADDRESS, coupons: ['LASTONE'] })).json().cart;
    expect(qa.discountCents).toBe(1500);
    // b uses the coupon first.
    const pb = await b.send('POST', PLACE, {
      email: 'b@example.com',
      shippingAddress: ADDRESS,
      coupons: ['LASTONE'],
      payment: CARD,
      idempotencyKey: key(),
      expectedTotalCents: qb.grandTotalCents,
    });
    expect(pb.statusCode, pb.body).toBe(200);
    const charges = await paymentsCount();
    const pa = await a.send('POST', PLACE, {
      email: 'a@example.com',
      shippingAddress: ADDRESS,
      coupons: ['LASTONE'],
      payment: CARD,
      idempotencyKey: key(),
      expectedTotalCents: qa.grandTotalCents,
    });
    expect(pa.statusCode).toBe(409);
    expect(pa.json().message).toMatch(
      /^The order total is now \$\d+\.\d\d, not \$\d+\.\d\d\. Please review your order and confirm the new total\.$/,
    );
    expect(pa.json().quote.cart.invalidCoupons).toEqual([{ code: 'LASTONE', reason: 'This coupon has reached its usage limit.' }]);
    expect(pa.json().quote.cart.grandTotalCents).toBe(qa.grandTotalCents + 1500);
    expect(await paymentsCount()).toBe(charges);
    const orders = await sql1<{ n: number }>(sql`select count(*)::int as n from orders where email = 'a@example.com'`);
    expect(Number(orders!.n)).toBe(0);
  });

  // ---- Item 15 --------------------------------------------------------------------------------------

  it('coupons leave gift cards at full price unless the owner turns the coupon option on', async () => {
    const created = await owner.send('POST', '/api/checkout/admin/coupons', { code: 'HALFOFF', kind: 'percent', percentBasisPoints: 5000 });
    expect(created.json().coupon.appliesToGiftCards).toBe(false);
    const big = await owner.send('POST', '/api/checkout/admin/coupons', { code: 'BIGFIXED', kind: 'fixed', amountCents: 7000 });
    expect(big.statusCode).toBe(200);
    const v = new Visitor(t.app);
    expect((await v.send('POST', ADD, { itemId: ids['gift-card'], sku: 'GIFT-100', quantity: 1 })).statusCode).toBe(200);
    // Only a gift card: nothing to discount.
    const onlyGift = (await v.send('POST', QUOTE, { email: 'g@example.com', coupons: ['HALFOFF'] })).json().cart;
    expect(onlyGift).toMatchObject({ subtotalCents: 10000, discountCents: 0, grandTotalCents: 10000 });
    const fixed = (await v.send('POST', QUOTE, { email: 'g@example.com', coupons: ['BIGFIXED'] })).json().cart;
    expect(fixed).toMatchObject({ discountCents: 0, grandTotalCents: 10000 });
    // With a physical item: the discount counts the physical item only.
    expect((await v.send('POST', ADD, { itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 })).statusCode).toBe(200);
    const mixed = (await v.send('POST', QUOTE, { email: 'g@example.com', shippingAddress: ADDRESS, coupons: ['HALFOFF'] })).json().cart;
    expect(mixed.discountCents).toBe(1950);
    // The order is charged that way too.
    const placed = await v.send('POST', PLACE, {
      email: 'g@example.com',
      shippingAddress: ADDRESS,
      coupons: ['HALFOFF'],
      payment: CARD,
      idempotencyKey: key(),
      expectedTotalCents: mixed.grandTotalCents,
    });
    expect(placed.statusCode, placed.body).toBe(200);
    expect(placed.json().purchaseConfirmation.discountTotal.value).toBe('1950');

    // The owner may choose otherwise, on the coupon.
    const id = created.json().coupon.id;
    const edited = await owner.send('PUT', `/api/checkout/admin/coupons/${id}`, {
      code: 'HALFOFF',
      kind: 'percent',
      percentBasisPoints: 5000,
      appliesToGiftCards: true,
    });
    expect(edited.json().coupon.appliesToGiftCards).toBe(true);
    const w = new Visitor(t.app);
    expect((await w.send('POST', ADD, { itemId: ids['gift-card'], sku: 'GIFT-100', quantity: 1 })).statusCode).toBe(200);
    const chosen = (await w.send('POST', QUOTE, { email: 'g@example.com', coupons: ['HALFOFF'] })).json().cart;
    expect(chosen).toMatchObject({ discountCents: 5000, grandTotalCents: 5000 });
    const listed = (await owner.get('/api/checkout/admin/coupons')).json().coupons.find((c: { code: string }) => c.code === 'HALFOFF');
    expect(listed.appliesToGiftCards).toBe(true);
  });

  // ---- Item 13 (in process; the kill -9 test is payment-crash.test.ts) -----------------------------

  it('records a payment attempt before the charge and closes it with the order, or voids it', async () => {
    const v = new Visitor(t.app);
    expect((await v.send('POST', ADD, { itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 })).statusCode).toBe(200);
    const k = key();
    const placed = await v.send(
      'POST',
      PLACE,
      await confirmed(v, { email: 'att@example.com', shippingAddress: ADDRESS, payment: CARD, idempotencyKey: k }),
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const done = await sql1<{ state: string; order_id: string; payment_id: string; input: unknown }>(
      sql`select state, order_id, payment_id, input from payment_attempts where idempotency_key = ${k}`,
    );
    expect(done).toMatchObject({ state: 'completed', order_id: placed.json().purchaseConfirmation.id });
    // The attempt keeps what the order needs, never the card.
    expect(JSON.stringify(done!.input)).not.toContain('4242');
    // A declined card: the attempt is voided, nothing is held.
    const w = new Visitor(t.app);
    expect((await w.send('POST', ADD, { itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 })).statusCode).toBe(200);
    const k2 = key();
    const declined = await w.send(
      'POST',
      PLACE,
      await confirmed(w, {
        email: 'att@example.com',
        shippingAddress: ADDRESS,
        payment: { ...CARD, number: '4000 0000 0000 0002' },
        idempotencyKey: k2,
      }),
    );
    expect(declined.statusCode).toBe(402);
    expect((await sql1<{ state: string }>(sql`select state from payment_attempts where idempotency_key = ${k2}`))!.state).toBe('voided');
  });

  it('the reconciler voids an attempt left waiting on authentication, and a retry with the same key still completes it', async () => {
    const v = new Visitor(t.app);
    expect((await v.send('POST', ADD, { itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 })).statusCode).toBe(200);
    const k = key();
    const body = { email: 'auth@example.com', shippingAddress: ADDRESS, idempotencyKey: k };
    const first = await v.send('POST', PLACE, await confirmed(v, { ...body, payment: AUTH_CARD }));
    expect(first.json().status).toBe('requires_action');
    expect((await sql1<{ state: string }>(sql`select state from payment_attempts where idempotency_key = ${k}`))!.state).toBe('created');
    // Nothing was taken, so the reconciler only closes the attempt. It looks a second ahead: the database's
    // clock has microseconds, so an attempt written in this millisecond is not yet older than Date.now().
    const r = await t.app.checkout.service.reconcile(0, Date.now() + 1000);
    expect(r.voided).toBeGreaterThanOrEqual(1);
    expect((await sql1<{ state: string }>(sql`select state from payment_attempts where idempotency_key = ${k}`))!.state).toBe('voided');
    // The shopper comes back from the bank: the attempt opens again and the order is made.
    const paymentId = first.json().paymentId;
    expect((await v.send('POST', `/api/checkout/test-payments/${paymentId}/authenticate`, { outcome: 'complete' })).statusCode).toBe(200);
    const second = await v.send('POST', PLACE, await confirmed(v, { ...body, payment: { type: 'existing', paymentId } }));
    expect(second.statusCode, second.body).toBe(200);
    expect((await sql1<{ state: string }>(sql`select state from payment_attempts where idempotency_key = ${k}`))!.state).toBe('completed');
  });

  it('checks bad input before any payment: a lone surrogate is a 400 and nothing is charged', async () => {
    const v = new Visitor(t.app);
    expect((await v.send('POST', ADD, { itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 })).statusCode).toBe(200);
    const charges = await paymentsCount();
    const k = key();
    const r = await v.send(
      'POST',
      PLACE,
      await confirmed(v, { email: 'x@example.com', shippingAddress: { ...ADDRESS, name: 'Ada \ud800' }, payment: CARD, idempotencyKey: k }),
    );
    expect(r.statusCode).toBe(400);
    expect(r.body).toContain(security.INVALID_UNICODE);
    expect(await paymentsCount()).toBe(charges);
    expect(await sql1(sql`select id from payment_attempts where idempotency_key = ${k}`)).toBeUndefined();
  });
});
