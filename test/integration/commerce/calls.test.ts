import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { sql } from 'drizzle-orm';

const ADD = '/api/commerce/shopping-cart/entries';
const CART = '/api/commerce/shopping-cart';

describe.each(APP_KINDS)('commerce calls on %s', (kind) => {
  let t: TestApp;
  let ids: Record<string, string>;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    ids = t.seed.productIds;
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => {
    t.app.services.carts.writeLimit = { max: 60, windowMs: 10_000 };
  });

  const shirt = () => ({ itemId: ids['linen-camp-shirt'], sku: 'SHIRT-S-NAVY' });

  describe('POST /api/commerce/shopping-cart/entries', () => {
    it('creates the cart on the first add, sets the cart cookie and answers shoppingCart and newlyAdded', async () => {
      const v = new Visitor(t.app);
      const res = await v.send('POST', ADD, { ...shirt(), quantity: 2, additionalFields: null });
      expect(res.statusCode).toBe(200);
      const { shoppingCart, newlyAdded } = res.json();
      expect(v.cookies.get('tessera_cart')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      const cookie = res.cookies.find((c) => c.name === 'tessera_cart')!;
      expect(cookie.httpOnly).toBe(true);
      expect(cookie.sameSite).toBe('Lax');
      expect(newlyAdded).toMatchObject({
        itemId: ids['linen-camp-shirt'],
        quantity: 2,
        title: 'Linen Camp Shirt',
        purchasePriceCents: 7200,
        chosenVariant: { sku: 'SHIRT-S-NAVY', attributes: { Size: 'S', Color: 'Navy' } },
      });
      expect(newlyAdded.subTotal).toEqual({ value: '14400', currency: 'USD' });
      expect(shoppingCart).toMatchObject({
        subtotalCents: 14400,
        grandTotalCents: 14400,
        totalQuantity: 2,
        hasDigital: false,
        purelyDigital: false,
        requiresShipping: true,
        isPurchased: false,
        taxCents: 0,
        shippingCostCents: 0,
        discountCents: 0,
        subtotal: { value: '14400', currency: 'USD' },
      });
      expect(shoppingCart.entries).toHaveLength(1);
      expect(shoppingCart.id).toMatch(/^[0-9a-f]{24}$/);
      expect(typeof shoppingCart.created).toBe('number');
    });

    it('merges an add with the same item, sku and additional fields; adds a new entry otherwise', async () => {
      const v = new Visitor(t.app);
      await v.send('POST', ADD, { ...shirt(), quantity: 1 });
      const again = (await v.send('POST', ADD, { ...shirt(), quantity: 2 })).json();
      expect(again.shoppingCart.entries).toHaveLength(1);
      expect(again.shoppingCart.entries[0].quantity).toBe(3);
      expect(again.newlyAdded.quantity).toBe(3);
      const other = (await v.send('POST', ADD, { itemId: ids['linen-camp-shirt'], sku: 'SHIRT-M-SAND', quantity: 1 })).json();
      expect(other.shoppingCart.entries.map((e: { chosenVariant: { sku: string } }) => e.chosenVariant.sku)).toEqual([
        'SHIRT-S-NAVY',
        'SHIRT-M-SAND',
      ]);
      expect(other.shoppingCart.totalQuantity).toBe(4);
      expect(other.shoppingCart.subtotalCents).toBe(3 * 7200 + 6800);

      const board = { itemId: ids['engraved-cutting-board'], sku: 'BOARD-WALNUT', quantity: 1 };
      const a = JSON.stringify({ 'engraving-text': 'Ana', 'engraving-font': 'Serif' });
      const b = JSON.stringify({ 'engraving-text': 'Sam', 'engraving-font': 'Serif' });
      await v.send('POST', ADD, { ...board, additionalFields: a });
      // The same answers written with other spacing and key order are the same answers.
      const same = (
        await v.send('POST', ADD, {
          ...board,
          additionalFields: JSON.stringify({ 'engraving-text': 'Ana', 'engraving-font': 'Serif' }, null, 2),
        })
      ).json();
      expect(same.newlyAdded.quantity).toBe(2);
      const diff = (await v.send('POST', ADD, { ...board, additionalFields: b })).json();
      expect(diff.shoppingCart.entries).toHaveLength(4);
      expect(diff.newlyAdded.additionalFields).toBe(b);
    });

    it('sets the digital flags from the product types (core computeCartTotals)', async () => {
      const v = new Visitor(t.app);
      const ebook = (await v.send('POST', ADD, { itemId: ids['houseplant-field-guide'], sku: 'EBOOK-PLANTS', quantity: 1 })).json();
      expect(ebook.shoppingCart).toMatchObject({ hasDigital: true, purelyDigital: true, requiresShipping: false, subtotalCents: 1200 });
      const gift = (await v.send('POST', ADD, { itemId: ids['gift-card'], sku: 'GIFT-50', quantity: 1 })).json();
      expect(gift.shoppingCart).toMatchObject({ hasDigital: true, purelyDigital: true, requiresShipping: false, subtotalCents: 6200 });
      const mixed = (await v.send('POST', ADD, { itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 })).json();
      expect(mixed.shoppingCart).toMatchObject({
        hasDigital: true,
        purelyDigital: false,
        requiresShipping: true,
        subtotalCents: 6200 + 3900,
        grandTotalCents: 10100,
      });
      expect(mixed.newlyAdded.purchasePriceCents).toBe(3900);
    });

    it('checks stock by the spec rule: nothing beyond the stock, counting what the cart holds', async () => {
      const v = new Visitor(t.app);
      const soldOut = await v.send('POST', ADD, { itemId: ids['linen-camp-shirt'], sku: 'SHIRT-L-NAVY', quantity: 1 });
      expect(soldOut.statusCode).toBe(400);
      expect(soldOut.json().message).toBe('Sorry, we do not have enough of that item available.');
      expect(v.cookies.has('tessera_cart')).toBe(false);
      // SHIRT-L-SAND has 2 in stock.
      const lSand = { itemId: ids['linen-camp-shirt'], sku: 'SHIRT-L-SAND' };
      expect((await v.send('POST', ADD, { ...lSand, quantity: 3 })).json().message).toBe(
        'Sorry, we do not have enough of that item available.',
      );
      expect((await v.send('POST', ADD, { ...lSand, quantity: 2 })).statusCode).toBe(200);
      const more = await v.send('POST', ADD, { ...lSand, quantity: 1 });
      expect(more.statusCode).toBe(400);
      expect(more.json().message).toBe('Sorry, we do not have enough of that item available.');
      // Unlimited variants and digital products take any quantity up to 9999.
      expect((await v.send('POST', ADD, { itemId: ids['linen-camp-shirt'], sku: 'SHIRT-M-SAND', quantity: 9999 })).statusCode).toBe(200);
      expect((await v.send('POST', ADD, { itemId: ids['linen-camp-shirt'], sku: 'SHIRT-M-SAND', quantity: 1 })).json().message).toBe(
        'Sorry, we do not have enough of that item available.',
      );
      const cart = (await v.get(CART)).json();
      expect(cart.totalQuantity).toBe(2 + 9999);
    });

    it('validates the additional-fields answers against the product form (core forms)', async () => {
      const v = new Visitor(t.app);
      const board = { itemId: ids['engraved-cutting-board'], sku: 'BOARD-WALNUT', quantity: 1 };
      const none = await v.send('POST', ADD, board);
      expect(none.statusCode).toBe(400);
      expect(none.json()).toMatchObject({
        message: 'Update the missing or invalid information above',
        errors: { 'engraving-text': 'Required', 'engraving-font': 'Required' },
      });
      const half = await v.send('POST', ADD, { ...board, additionalFields: JSON.stringify({ 'engraving-text': 'Hi' }) });
      expect(half.json().errors).toEqual({ 'engraving-font': 'Required' });
      const list = await v.send('POST', ADD, { ...board, additionalFields: '[1,2]' });
      expect(list.statusCode).toBe(400);
      expect(v.cookies.has('tessera_cart')).toBe(false);
    });

    const bad: Array<[string, unknown, number, RegExp | string]> = [
      ['an unknown item', { itemId: 'f'.repeat(24), sku: 'SHIRT-S-NAVY', quantity: 1 }, 404, 'This product is no longer available.'],
      ['an unknown sku', { sku: 'NOPE', quantity: 1 }, 400, 'Sorry, that item variant is unavailable. Please select another variant.'],
      ['a missing itemId', { itemId: undefined, quantity: 1 }, 400, /itemId/],
      ['a missing sku', { sku: undefined, quantity: 1 }, 400, /sku/],
      ['quantity 0', { quantity: 0 }, 400, 'Quantity must be a whole number.'],
      ['quantity 10000', { quantity: 10000 }, 400, 'Sorry, we do not have enough of that item available.'],
      ['quantity 1.5', { quantity: 1.5 }, 400, 'Quantity must be a whole number.'],
      ["quantity 'abc'", { quantity: 'abc' }, 400, 'Quantity must be a number.'],
      ['a negative quantity', { quantity: -2 }, 400, 'Quantity must be a whole number.'],
      ['quantity null', { quantity: null }, 400, 'Quantity must be a number.'],
      ['quantity true', { quantity: true }, 400, 'Quantity must be a number.'],
      ['additionalFields that are not JSON', { quantity: 1, additionalFields: '{not json' }, 400, 'additionalFields must be JSON text.'],
      ['additionalFields as an object', { quantity: 1, additionalFields: { a: 1 } }, 400, 'additionalFields must be JSON text.'],
    ];
    it.each(bad)('answers %s with 4xx and a clear message, changing nothing', async (_name, patch, status, message) => {
      const v = new Visitor(t.app);
      await v.send('POST', ADD, { itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 });
      const before = (await v.get(CART)).json();
      const res = await v.send('POST', ADD, { ...shirt(), ...(patch as object) });
      expect(res.statusCode).toBe(status);
      if (typeof message === 'string') expect(res.json().message).toBe(message);
      else expect(res.json().message).toMatch(message);
      expect((await v.get(CART)).json()).toEqual(before);
    });

    it('answers malformed JSON, a non-object body and a body over 64 KB with 4xx, changing nothing', async () => {
      const v = new Visitor(t.app);
      const malformed = await v.send('POST', ADD, '{"itemId": "x",');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().message).toBe('The request body is not valid JSON.');
      const array = await v.send('POST', ADD, '[1,2,3]');
      expect(array.statusCode).toBe(400);
      const big = await v.send('POST', ADD, { ...shirt(), quantity: 1, additionalFields: JSON.stringify({ x: 'y'.repeat(70_000) }) });
      expect(big.statusCode).toBe(413);
      expect(big.json().message).toBe('The request body is too large.');
      expect(v.cookies.has('tessera_cart')).toBe(false);
      expect((await v.get(CART)).json().totalQuantity).toBe(0);
    });

    it('refuses a write without the crumb (403 crumbFail) and changes nothing', async () => {
      const v = new Visitor(t.app);
      await v.send('POST', ADD, { ...shirt(), quantity: 1 });
      const entryId = (await v.get(CART)).json().entries[0].id;
      for (const [method, url, body] of [
        ['POST', ADD, { ...shirt(), quantity: 1 }],
        ['PUT', `${ADD}/${entryId}`, { quantity: 2 }],
        ['DELETE', `${ADD}/${entryId}`, undefined],
        ['PUT', `${ADD}/${entryId}/additionalFields`, { ...shirt(), additionalFields: '' }],
        ['POST', '/api/3/commerce/cart/subscription', { itemId: ids['fresh-roast-coffee-subscription'], sku: 'COFFEE-SUB', qty: 1 }],
      ] as const) {
        const res = await v.send(method, url, body, { crumb: false });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ crumbFail: true });
      }
      expect((await v.get(CART)).json().entries[0].quantity).toBe(1);
    });

    it('rate limits cart writes per visitor with 429 and the spec message', async () => {
      t.app.services.carts.writeLimit = { max: 5, windowMs: 60_000 };
      const v = new Visitor(t.app);
      const codes: number[] = [];
      for (let i = 0; i < 7; i++) codes.push((await v.send('POST', ADD, { ...shirt(), quantity: 1 })).statusCode);
      expect(codes).toEqual([200, 200, 200, 200, 200, 429, 429]);
      const res = await v.send('POST', ADD, { ...shirt(), quantity: 1 });
      expect(res.json().message).toBe('Please try again in a few seconds.');
      expect((await v.get(CART)).json().totalQuantity).toBe(5);
      // Another visitor is not held back.
      expect((await new Visitor(t.app).send('POST', ADD, { ...shirt(), quantity: 1 })).statusCode).toBe(200);
    });

    it('accepts a form-encoded add (no JavaScript) and goes to /cart', async () => {
      const v = new Visitor(t.app);
      const crumb = await v.crumb();
      const body = new URLSearchParams({ itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: '2', crumb }).toString();
      const res = await v.send('POST', ADD, body, { crumb: false, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/cart');
      expect((await v.get(CART)).json().totalQuantity).toBe(2);
    });
  });

  describe('entry updates', () => {
    async function cartWith(v: Visitor) {
      await v.send('POST', ADD, { ...shirt(), quantity: 2 });
      const r = await v.send('POST', ADD, { itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 });
      return r.json().shoppingCart.entries as Array<{ id: string; quantity: number }>;
    }

    it('PUT entries/{id} sets the quantity and recomputes the totals', async () => {
      const v = new Visitor(t.app);
      const [a] = await cartWith(v);
      const res = await v.send('PUT', `${ADD}/${a.id}`, { quantity: 5 });
      expect(res.statusCode).toBe(200);
      const { shoppingCart, updatedEntry } = res.json();
      expect(updatedEntry).toMatchObject({ id: a.id, quantity: 5, subTotalCents: 36000 });
      expect(shoppingCart).toMatchObject({ totalQuantity: 6, subtotalCents: 36000 + 3900, grandTotalCents: 39900 });
      // S/Navy has 6: 7 is too many.
      const tooMany = await v.send('PUT', `${ADD}/${a.id}`, { quantity: 7 });
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json().message).toBe('Sorry, we do not have enough of that item available.');
      // Lowering is always allowed.
      expect((await v.send('PUT', `${ADD}/${a.id}`, { quantity: 1 })).json().shoppingCart.totalQuantity).toBe(2);
    });

    it.each([
      [0, 'Quantity must be a whole number.'],
      [10000, 'Sorry, we do not have enough of that item available.'],
      [1.5, 'Quantity must be a whole number.'],
      ['abc', 'Quantity must be a number.'],
      [-1, 'Quantity must be a whole number.'],
      [undefined, 'Quantity must be a number.'],
    ])('PUT entries/{id} with quantity %s answers 400 %s and changes nothing', async (quantity, message) => {
      const v = new Visitor(t.app);
      const [a] = await cartWith(v);
      const before = (await v.get(CART)).json();
      const res = await v.send('PUT', `${ADD}/${a.id}`, { quantity });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
      expect((await v.get(CART)).json()).toEqual(before);
    });

    it('DELETE entries/{id} removes the entry; an unknown entry or another visitor gets 404', async () => {
      const v = new Visitor(t.app);
      const [a, b] = await cartWith(v);
      const other = new Visitor(t.app);
      await other.send('POST', ADD, { ...shirt(), quantity: 1 });
      expect((await other.send('DELETE', `${ADD}/${a.id}`)).statusCode).toBe(404);
      expect((await new Visitor(t.app).send('DELETE', `${ADD}/${a.id}`)).statusCode).toBe(404);
      const res = await v.send('DELETE', `${ADD}/${a.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().shoppingCart).toMatchObject({ totalQuantity: 1, subtotalCents: 3900 });
      expect(res.json().shoppingCart.entries.map((e: { id: string }) => e.id)).toEqual([b.id]);
      expect((await v.send('DELETE', `${ADD}/${a.id}`)).statusCode).toBe(404);
      const last = (await v.send('DELETE', `${ADD}/${b.id}`)).json().shoppingCart;
      expect(last).toMatchObject({ totalQuantity: 0, subtotalCents: 0, grandTotalCents: 0, requiresShipping: false, entries: [] });
    });

    it('has form-encoded fallbacks for quantity and remove that go back to /cart', async () => {
      const v = new Visitor(t.app);
      const [a] = await cartWith(v);
      const crumb = await v.crumb();
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const q = await v.send('POST', `${ADD}/${a.id}/quantity`, `quantity=4&crumb=${crumb}`, { crumb: false, headers: form });
      expect(q.statusCode).toBe(303);
      expect(q.headers.location).toBe('/cart');
      expect((await v.get(CART)).json().totalQuantity).toBe(5);
      const r = await v.send('POST', `${ADD}/${a.id}/remove`, `crumb=${crumb}`, { crumb: false, headers: form });
      expect(r.statusCode).toBe(303);
      expect((await v.get(CART)).json().totalQuantity).toBe(1);
    });

    it('PUT entries/{id}/additionalFields replaces the answers, validated against the form', async () => {
      const v = new Visitor(t.app);
      const board = { itemId: ids['engraved-cutting-board'], sku: 'BOARD-WALNUT' };
      const first = JSON.stringify({ 'engraving-text': 'Ana', 'engraving-font': 'Serif' });
      const added = (await v.send('POST', ADD, { ...board, quantity: 1, additionalFields: first })).json();
      const id = added.newlyAdded.id;
      const next = JSON.stringify({ 'engraving-text': 'Ana & Sam', 'engraving-font': 'Script' });
      const res = await v.send('PUT', `${ADD}/${id}/additionalFields`, { ...board, additionalFields: next });
      expect(res.statusCode).toBe(200);
      expect(res.json().updatedEntry).toMatchObject({ id, additionalFields: next, quantity: 1 });
      expect(res.json().shoppingCart.entries[0].additionalFields).toBe(next);
      const missing = await v.send('PUT', `${ADD}/${id}/additionalFields`, {
        ...board,
        additionalFields: JSON.stringify({ 'engraving-text': '' }),
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errors).toEqual({ 'engraving-text': 'Required', 'engraving-font': 'Required' });
      const notJson = await v.send('PUT', `${ADD}/${id}/additionalFields`, { ...board, additionalFields: 'nope' });
      expect(notJson.statusCode).toBe(400);
      const wrongSku = await v.send('PUT', `${ADD}/${id}/additionalFields`, { itemId: board.itemId, sku: 'OTHER', additionalFields: next });
      expect(wrongSku.statusCode).toBe(400);
      expect((await v.get(CART)).json().entries[0].additionalFields).toBe(next);
    });
  });

  describe('GET /api/commerce/shopping-cart', () => {
    it('answers an empty cart without a cookie, 404 with mock=false, and the cart with calculateSubtotal and timecode', async () => {
      const v = new Visitor(t.app);
      const empty = await v.get(`${CART}?mock=true&timecode=${Date.now()}`);
      expect(empty.statusCode).toBe(200);
      expect(empty.headers['cache-control']).toBe('no-store');
      expect(empty.json()).toMatchObject({ id: null, entries: [], totalQuantity: 0, subtotalCents: 0 });
      expect((await v.get(`${CART}?mock=false`)).statusCode).toBe(404);
      await v.send('POST', ADD, { ...shirt(), quantity: 2 });
      const full = await v.get(`${CART}?calculateSubtotal=true&timecode=123`);
      expect(full.json()).toMatchObject({ totalQuantity: 2, subtotalCents: 14400 });
      expect(full.json()).toEqual((await v.get(CART)).json());
      expect((await v.get(`${CART}?timecode=abc`)).statusCode).toBe(400);
      expect((await v.get(`${CART}?mock=maybe`)).statusCode).toBe(400);
    });

    it('ignores a forged cart cookie', async () => {
      const v = new Visitor(t.app);
      v.cookies.set('tessera_cart', 'forged-token-value');
      expect((await v.get(CART)).json().id).toBeNull();
      const res = await v.send('POST', ADD, { ...shirt(), quantity: 1 });
      expect(res.statusCode).toBe(200);
      expect(v.cookies.get('tessera_cart')).not.toBe('forged-token-value');
    });
  });

  describe('GET /api/commerce/inventory/stock/', () => {
    it('answers unlimited and qtyInStock per variant', async () => {
      const v = new Visitor(t.app);
      const res = await v.get(`/api/commerce/inventory/stock/?itemId=${ids['linen-camp-shirt']}`);
      expect(res.statusCode).toBe(200);
      const { results } = res.json();
      expect(results.map((r: { sku: string; unlimited: boolean; qtyInStock: number }) => [r.sku, r.unlimited, r.qtyInStock])).toEqual([
        ['SHIRT-S-SAND', false, 4],
        ['SHIRT-M-SAND', true, 0],
        ['SHIRT-L-SAND', false, 2],
        ['SHIRT-S-NAVY', false, 6],
        ['SHIRT-M-NAVY', false, 1],
        ['SHIRT-L-NAVY', false, 0],
      ]);
      expect((await v.get('/api/commerce/inventory/stock/?itemId=' + 'f'.repeat(24))).statusCode).toBe(404);
      expect((await v.get('/api/commerce/inventory/stock/')).statusCode).toBe(400);
    });
  });

  describe('POST /api/3/commerce/cart/subscription', () => {
    it('stores a separate single-item cart, answers cartToken, and the subscription checkout shows the price text', async () => {
      const v = new Visitor(t.app);
      const res = await v.send('POST', '/api/3/commerce/cart/subscription', {
        itemId: ids['fresh-roast-coffee-subscription'],
        sku: 'COFFEE-SUB',
        qty: 1,
        additionalFields: null,
      });
      expect(res.statusCode).toBe(200);
      const { cartToken } = res.json();
      expect(cartToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      expect(v.cookies.has('tessera_cart')).toBe(false);
      expect((await v.get(CART)).json().totalQuantity).toBe(0);
      const page = await v.get(`/checkout/subscription?cartToken=${cartToken}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Fresh Roast Coffee Subscription');
      expect(page.body).toContain('$18.00 every month');
      expect((await v.get('/checkout/subscription?cartToken=nope')).statusCode).toBe(404);
    });

    it('refuses products that are not subscribable and bad quantities', async () => {
      const v = new Visitor(t.app);
      const notSub = await v.send('POST', '/api/3/commerce/cart/subscription', { ...shirt(), qty: 1 });
      expect(notSub.statusCode).toBe(400);
      const q = await v.send('POST', '/api/3/commerce/cart/subscription', {
        itemId: ids['fresh-roast-coffee-subscription'],
        sku: 'COFFEE-SUB',
        qty: 1.5,
      });
      expect(q.json().message).toBe('Quantity must be a whole number.');
    });
  });

  describe('concurrency', () => {
    it('100 concurrent adds of one variant to one cart end with one entry of quantity 100 (no lost update)', async () => {
      t.app.services.carts.writeLimit = { max: 0, windowMs: 10_000 };
      const v = new Visitor(t.app);
      const body = { itemId: ids['linen-camp-shirt'], sku: 'SHIRT-M-SAND', quantity: 1 };
      expect((await v.send('POST', ADD, body)).statusCode).toBe(200);
      const results = await Promise.all(Array.from({ length: 99 }, () => v.send('POST', ADD, body)));
      expect(results.map((r) => r.statusCode).filter((s) => s !== 200)).toEqual([]);
      const cart = (await v.get(CART)).json();
      expect(cart.entries).toHaveLength(1);
      expect(cart.entries[0].quantity).toBe(100);
      expect(cart.totalQuantity).toBe(100);
      expect(cart.subtotalCents).toBe(680_000);
      const stored = (await t.database.db.execute(
        sql`select count(*)::int as n from cart_entries where cart_id = ${cart.id}`,
      )) as unknown as { rows: Array<{ n: number }> };
      expect(stored.rows[0]!.n).toBe(1);
    });

    it('concurrent adds never oversell a limited variant', async () => {
      t.app.services.carts.writeLimit = { max: 0, windowMs: 10_000 };
      const v = new Visitor(t.app);
      // S/Sand has 4 in stock.
      const body = { itemId: ids['linen-camp-shirt'], sku: 'SHIRT-S-SAND', quantity: 1 };
      expect((await v.send('POST', ADD, body)).statusCode).toBe(200);
      const results = await Promise.all(Array.from({ length: 10 }, () => v.send('POST', ADD, body)));
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
      expect((await v.get(CART)).json().totalQuantity).toBe(4);
    });
  });
});
