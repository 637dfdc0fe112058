/** Issue 30, storefront commerce items: the calls, on both databases. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { APP_KINDS } from '../../helpers/db.js';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { cart as cartMessages } from '../../../src/core/messages.js';
import { DEMO_SHIPPING_OPTION } from '../../../src/server/seed.js';
import { confirmed } from '../../helpers/orders.js';

const ADD = '/api/commerce/shopping-cart/entries';
const CART = '/api/commerce/shopping-cart';
const TWO_53 = 2n ** 53n;

for (const kind of APP_KINDS) {
  describe(`issue 30 storefront calls on ${kind}`, () => {
    let t: TestApp;
    let ids: Record<string, string>;
    let owner: Visitor;
    beforeAll(async () => {
      // The demo store as it starts, with its shipping option.
      t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' }, {});
      ids = t.seed.productIds;
      owner = new Visitor(t.app);
      expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    });
    afterAll(async () => {
      await t?.close();
    });
    beforeEach(() => {
      t.app.services.carts.writeLimit = { max: 200, windowMs: 10_000 };
    });

    const setPrice = (sku: string, cents: bigint | number) =>
      t.database.db.execute(
        sql`update product_variants set price_cents = ${String(cents)}::bigint, on_sale = false, unlimited = true where sku = ${sku}`,
      );

    describe('query parser limits', () => {
      it('reads only the first 1000 parameters of a query string', async () => {
        const v = new Visitor(t.app);
        const filler = Array.from({ length: 1000 }, (_, i) => `p${i}=1`).join('&');
        expect((await v.get(`/api/captcha/challenge?action=form-block&${filler}`)).statusCode).toBe(200);
        const late = await v.get(`/api/captcha/challenge?${filler}&action=form-block`);
        expect(late.statusCode).toBe(400);
        expect(late.json().message).toBe('action is not one of the expected options');
      });

      it('nests bracketed keys: ?itemId[a][b]=x is an object the stock call refuses, not a stray key', async () => {
        const v = new Visitor(t.app);
        const nested = await v.get(`/api/commerce/inventory/stock?itemId=${ids['linen-camp-shirt']}&itemId[a][b]=x`);
        // The plain value and the nested keys merge into one object (not a string): refused, never a 500.
        expect(nested.statusCode).toBe(400);
        const plain = await v.get(`/api/commerce/inventory/stock?itemId=${ids['linen-camp-shirt']}&other[a][b]=x`);
        expect(plain.statusCode).toBe(200);
      });

      it('applies the same limits to url-encoded form bodies', async () => {
        const v = new Visitor(t.app);
        await v.crumb();
        const filler = Array.from({ length: 1000 }, (_, i) => `p${i}=1`).join('&');
        const body = `${filler}&itemId=${ids['ceramic-pour-over-set']}&sku=POUR-OVER&quantity=1&crumb=${v.cookies.get('crumb')}`;
        const res = await v.send('POST', ADD, body, { crumb: false, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
        // itemId, sku and the crumb come after the 1000th parameter, so they are not read.
        expect(res.statusCode).not.toBe(303);
        expect(res.statusCode).toBeLessThan(500);
        expect((await v.get(CART)).json().entries ?? []).toHaveLength(0);
      });
    });

    describe('money exact to 15 integer places', () => {
      it('refuses an add that takes the subtotal to 2^53 minor units, before saving; the cart keeps working', async () => {
        await setPrice('BOARD-WALNUT', TWO_53 / 2n);
        const v = new Visitor(t.app);
        const first = await v.send('POST', ADD, {
          itemId: ids['engraved-cutting-board'],
          sku: 'BOARD-WALNUT',
          quantity: 1,
          additionalFields: JSON.stringify({ 'engraving-text': 'A', 'engraving-font': 'Serif' }),
        });
        expect(first.statusCode, first.body).toBe(200);
        expect(first.json().shoppingCart.subtotal).toEqual({ value: String(TWO_53 / 2n), currency: 'USD' });
        // A second one makes exactly 2^53: refused with the message, nothing saved.
        const over = await v.send('POST', ADD, {
          itemId: ids['engraved-cutting-board'],
          sku: 'BOARD-WALNUT',
          quantity: 1,
          additionalFields: JSON.stringify({ 'engraving-text': 'A', 'engraving-font': 'Serif' }),
        });
        expect(over.statusCode).toBe(400);
        expect(over.json().message).toBe(cartMessages.TOTAL_TOO_LARGE);
        // Also through the quantity call and as a new line.
        const entryId = first.json().newlyAdded.id as string;
        const raise = await v.send('PUT', `${ADD}/${entryId}`, { quantity: 2 });
        expect(raise.statusCode).toBe(400);
        expect(raise.json().message).toBe(cartMessages.TOTAL_TOO_LARGE);
        const line = await v.send('POST', ADD, {
          itemId: ids['engraved-cutting-board'],
          sku: 'BOARD-WALNUT',
          quantity: 1,
          additionalFields: JSON.stringify({ 'engraving-text': 'B', 'engraving-font': 'Serif' }),
        });
        expect(line.statusCode).toBe(400);
        // The visitor's cart still reads and still takes ordinary items.
        const read = await v.get(CART);
        expect(read.statusCode).toBe(200);
        expect(read.json().entries).toHaveLength(1);
        expect(read.json().subtotal.value).toBe(String(TWO_53 / 2n));
        const tea = await v.send('POST', ADD, { itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 });
        expect(tea.statusCode, tea.body).toBe(200);
        expect(tea.json().shoppingCart.subtotal.value).toBe(String(TWO_53 / 2n + 3900n));
        const cartRow = await t.database.db.execute(sql`select subtotal_cents::text as s from carts where id = ${read.json().id}`);
        expect((cartRow as unknown as { rows: Array<{ s: string }> }).rows[0]!.s).toBe(String(TWO_53 / 2n + 3900n));
      });

      it('refuses a single add of a price at or past 2^53 and a quantity that multiplies past it', async () => {
        await setPrice('EBOOK-PLANTS', TWO_53);
        const v = new Visitor(t.app);
        const res = await v.send('POST', ADD, { itemId: ids['houseplant-field-guide'], sku: 'EBOOK-PLANTS', quantity: 1 });
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe(cartMessages.TOTAL_TOO_LARGE);
        expect((await v.get(CART)).statusCode).toBe(200);
        await setPrice('GIFT-100', 10n ** 12n); // $10 billion: 9999 of them pass 2^53
        const many = await v.send('POST', ADD, { itemId: ids['gift-card'], sku: 'GIFT-100', quantity: 9999 });
        expect(many.statusCode).toBe(400);
        expect(many.json().message).toBe(cartMessages.TOTAL_TOO_LARGE);
        const one = await v.send('POST', ADD, { itemId: ids['gift-card'], sku: 'GIFT-100', quantity: 1 });
        expect(one.statusCode).toBe(200);
        expect(one.json().shoppingCart.subtotal.value).toBe(String(10n ** 12n));
        await setPrice('GIFT-100', 10000);
      });

      it('a cart an owner price change takes past 2^53 still reads (exact amounts), and can be brought back down', async () => {
        await setPrice('SHIRT-M-SAND', 6800);
        const v = new Visitor(t.app);
        const add = await v.send('POST', ADD, { itemId: ids['linen-camp-shirt'], sku: 'SHIRT-M-SAND', quantity: 3 });
        expect(add.statusCode).toBe(200);
        const big = 10n ** 16n; // three of them: 3 x 10^16 minor units, past 2^53 and within 15 integer places
        await setPrice('SHIRT-M-SAND', big);
        const read = await v.get(CART);
        expect(read.statusCode, read.body).toBe(200);
        expect(read.json().subtotal.value).toBe(String(3n * big));
        expect(read.json().entries[0].subTotal.value).toBe(String(3n * big));
        const page = await v.get('/cart');
        expect(page.statusCode).toBe(200);
        const entryId = read.json().entries[0].id as string;
        expect((await v.send('PUT', `${ADD}/${entryId}`, { quantity: 4 })).statusCode).toBe(400);
        const down = await v.send('PUT', `${ADD}/${entryId}`, { quantity: 1 });
        expect(down.statusCode, down.body).toBe(200);
        expect(down.json().shoppingCart.subtotal.value).toBe(String(big));
        await setPrice('SHIRT-M-SAND', 6800);
      });
    });

    it('with multiple quantity for services off, the API refuses a service quantity above 1', async () => {
      const settings = (await owner.get('/api/config/store-settings')).json();
      const put = await owner.send('PUT', '/api/config/store-settings', { ...settings, multipleQuantityAllowedForServices: false });
      expect(put.statusCode, put.body).toBe(200);
      try {
        const v = new Visitor(t.app);
        const two = await v.send('POST', ADD, { itemId: ids['bike-tune-up'], sku: 'SERVICE-TUNEUP', quantity: 2 });
        expect(two.statusCode).toBe(400);
        expect(two.json().message).toBe(cartMessages.SERVICE_QUANTITY_ONE);
        const one = await v.send('POST', ADD, { itemId: ids['bike-tune-up'], sku: 'SERVICE-TUNEUP', quantity: 1 });
        expect(one.statusCode).toBe(200);
        const again = await v.send('POST', ADD, { itemId: ids['bike-tune-up'], sku: 'SERVICE-TUNEUP', quantity: 1 });
        expect(again.statusCode).toBe(400);
        expect(again.json().message).toBe(cartMessages.SERVICE_QUANTITY_ONE);
        const raise = await v.send('PUT', `${ADD}/${one.json().newlyAdded.id}`, { quantity: 3 });
        expect(raise.statusCode).toBe(400);
        // Physical products are not limited.
        expect((await v.send('POST', ADD, { itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 2 })).statusCode).toBe(200);
        expect((await v.get(CART)).json().entries.find((e: { itemId: string }) => e.itemId === ids['bike-tune-up']).quantity).toBe(1);
      } finally {
        const now = (await owner.get('/api/config/store-settings')).json();
        await owner.send('PUT', '/api/config/store-settings', { ...now, multipleQuantityAllowedForServices: true });
      }
      // Back on: two are fine.
      const v = new Visitor(t.app);
      expect((await v.send('POST', ADD, { itemId: ids['bike-tune-up'], sku: 'SERVICE-TUNEUP', quantity: 2 })).statusCode).toBe(200);
    });

    it('the demo store is seeded with a shipping option, so a physical product checks out on first start', async () => {
      const v = new Visitor(t.app);
      expect((await v.send('POST', ADD, { itemId: ids['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 })).statusCode).toBe(200);
      const address = { name: 'Ada Buyer', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };
      const quote = await v.send('POST', '/api/checkout/quote', { email: 'ada@example.com', shippingAddress: address });
      expect(quote.statusCode, quote.body).toBe(200);
      expect(quote.json().cart.selectedShippingOption).toMatchObject({ name: DEMO_SHIPPING_OPTION.name });
      const placed = await v.send(
        'POST',
        '/api/checkout/place-order',
        await confirmed(v, {
          email: 'ada@example.com',
          shippingAddress: address,
          payment: { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Buyer' },
        }),
        { headers: { 'idempotency-key': `demo-ship-${kind}-${Date.now()}` } },
      );
      expect(placed.statusCode, placed.body).toBe(200);
      expect(placed.json().purchaseConfirmation.shippingTotal.value).toBe(String(DEMO_SHIPPING_OPTION.priceCents));
    });
  });
}

for (const kind of APP_KINDS) {
  describe(`issue 30 mixed sale prices on ${kind}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    });
    afterAll(async () => {
      await t?.close();
    });

    const priceOf = (html: string) => {
      const m = /data-product-price-for="[^"]+">([\s\S]*?)<\/div>/.exec(html);
      return (m?.[1] ?? '')
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
    };

    it('first variant not on sale, a later one on sale: page, list and instalment pill all show the from price', async () => {
      const item = t.seed.productIds['linen-camp-shirt'];
      await t.database.db.execute(
        sql`update product_variants set price_cents = 5000, sale_price_cents = 0, on_sale = false where item_id = ${item}`,
      );
      await t.database.db.execute(sql`update product_variants set sale_price_cents = 4000, on_sale = true where sku = 'SHIRT-L-NAVY'`);
      const v = new Visitor(t.app);
      const page = (await v.get('/shop/p/linen-camp-shirt')).body;
      expect(priceOf(page)).toBe('from $40.00');
      expect(page).not.toContain('$0.00');
      // The product is on sale (any variant is), so it keeps its sale badge.
      expect(page).toContain('<div class="product-mark sale">sale</div>');
      const list = (await v.get('/shop')).body;
      const card = /<li class="product-card"[^>]*>[\s\S]*?Linen Camp Shirt[\s\S]*?<\/li>/.exec(list)?.[0] ?? '';
      const cardPrice = (/class="product-card__price">([\s\S]*?)<\/span>\s*<\/a>/.exec(card)?.[1] ?? '')
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
      expect(cardPrice).toBe('from $40.00');
      expect(card).not.toContain('$0.00');
      // The pill (server-rendered island) is about the same $40.00: 4 payments of $10.00.
      expect(page).toContain('4 interest-free payments of $10.00');

      // All variants on sale at one price: sale price beside the original, struck through.
      await t.database.db.execute(sql`update product_variants set sale_price_cents = 4000, on_sale = true where item_id = ${item}`);
      const sale = (await v.get('/shop/p/linen-camp-shirt')).body;
      expect(priceOf(sale)).toBe('$50.00 $40.00');
      expect(sale).toContain('<s>$50.00</s> <span class="sale-price">$40.00</span>');
      expect(sale).toContain('4 interest-free payments of $10.00');
    });
  });
}

for (const kind of APP_KINDS) {
  describe(`issue 30 additional-fields form by reference on ${kind}`, () => {
    let t: TestApp;
    let owner: Visitor;
    beforeAll(async () => {
      t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
      owner = new Visitor(t.app);
      expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    });
    afterAll(async () => {
      await t?.close();
    });

    it('a form attached to a product in /config by id renders on the product page, and adds that skip required answers or answer outside a select are refused', async () => {
      const created = await owner.send('POST', '/api/config/forms', {
        name: 'Gift note',
        fields: [
          { id: 'note', type: 'text', title: 'Gift note', required: true },
          { id: 'wrap', type: 'select', title: 'Wrapping', required: true, options: ['Paper', 'Cloth'] },
        ],
      });
      expect(created.statusCode, created.body).toBe(200);
      const formId = created.json().form.id as string;
      const itemId = t.seed.productIds['ceramic-pour-over-set'];
      const product = (await owner.get(`/api/config/products/${itemId}`)).json();
      const put = await owner.send('PUT', `/api/config/products/${itemId}`, {
        ...(product.product ?? product),
        additionalFieldsFormId: formId,
      });
      expect(put.statusCode, put.body).toBe(200);
      // Only the reference is stored: no copy of the form on the product.
      const stored = await t.database.db.execute(sql`select structured_content as sc from items where id = ${itemId}`);
      const sc = (stored as unknown as { rows: Array<{ sc: Record<string, unknown> | string }> }).rows[0]!.sc;
      const scObj = (typeof sc === 'string' ? JSON.parse(sc) : sc) as Record<string, unknown>;
      expect(scObj.additionalFieldsFormId).toBe(formId);
      expect(scObj.additionalFieldsForm).toBeUndefined();

      const v = new Visitor(t.app);
      const page = (await v.get('/shop/p/ceramic-pour-over-set')).body;
      // The page carries the form itself (its fields), so the lightbox opens with them.
      expect(page).toContain('Gift note');
      expect(page).toContain('Wrapping');

      const add = (fields: unknown) =>
        v.send('POST', ADD, { itemId, sku: 'POUR-OVER', quantity: 1, additionalFields: fields === null ? null : JSON.stringify(fields) });
      const none = await add(null);
      expect(none.statusCode).toBe(400);
      expect(none.json().message).toBe(cartMessages.UPDATE_MISSING_INFO);
      const skipped = await add({ wrap: 'Paper' });
      expect(skipped.statusCode).toBe(400);
      expect(Object.keys(skipped.json().errors)).toContain('note');
      const outside = await add({ note: 'Happy birthday', wrap: 'Gold leaf' });
      expect(outside.statusCode).toBe(400);
      expect(Object.keys(outside.json().errors)).toContain('wrap');
      const ok = await add({ note: 'Happy birthday', wrap: 'Cloth' });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(JSON.parse(ok.json().newlyAdded.additionalFields as string)).toEqual({ note: 'Happy birthday', wrap: 'Cloth' });

      // The owner changes the form: the storefront follows it (no stale copy).
      const form = (await owner.get(`/api/config/forms/${formId}`)).json().form;
      const changed = await owner.send('PUT', `/api/config/forms/${formId}`, {
        ...form,
        fields: [
          ...(form.fields as unknown[]).slice(0, 1),
          { id: 'wrap', type: 'select', title: 'Wrapping', required: true, options: ['Paper', 'Cloth', 'Gold leaf'] },
        ],
      });
      expect(changed.statusCode, changed.body).toBe(200);
      const v2 = new Visitor(t.app);
      const gold = await v2.send('POST', ADD, {
        itemId,
        sku: 'POUR-OVER',
        quantity: 1,
        additionalFields: JSON.stringify({ note: 'Hi', wrap: 'Gold leaf' }),
      });
      expect(gold.statusCode, gold.body).toBe(200);
    });
  });
}

for (const kind of APP_KINDS) {
  describe(`issue 30 instalments at checkout on ${kind}`, () => {
    let t: TestApp;
    let owner: Visitor;
    beforeAll(async () => {
      t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
      owner = new Visitor(t.app);
      expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
      expect(
        (await owner.send('POST', '/api/checkout/admin/shipping-options', { name: 'Standard', kind: 'flat', priceCents: 500 })).statusCode,
      ).toBe(200);
    });
    afterAll(async () => {
      await t?.close();
    });
    const setSwitch = async (on: boolean) => {
      const s = (await owner.get('/api/config/store-settings')).json();
      const put = await owner.send('PUT', '/api/config/store-settings', { ...s, instalmentsEnabled: on });
      expect(put.statusCode, put.body).toBe(200);
    };
    const address = { name: 'Ada Buyer', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };
    const placeInInstalments = async (v: Visitor) =>
      v.send(
        'POST',
        '/api/checkout/place-order',
        await confirmed(v, {
          email: 'ada@example.com',
          shippingAddress: address,
          payment: { type: 'token', provider: 'instalments', token: 'instalments_test_approved' },
        }),
        { headers: { 'idempotency-key': `inst-${kind}-${Date.now()}-${Math.random().toString(36).slice(2, 10)}` } },
      );

    it("the /config 'Offer instalment payments' switch turns the offer on and off: pill, checkout method and the payment itself", async () => {
      const shirt = { itemId: t.seed.productIds['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 };
      await setSwitch(true);
      const on = new Visitor(t.app);
      expect((await on.send('POST', ADD, shirt)).statusCode).toBe(200);
      expect((await on.get('/shop/p/ceramic-pour-over-set')).body).toContain('interest-free payments of');
      const page = (await on.get('/checkout')).body;
      expect(page).toContain('name="payment-method" value="instalments"');
      expect(page).toContain('4 interest-free payments of');
      const paid = await placeInInstalments(on);
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json().status).toBe('paid');

      await setSwitch(false);
      const off = new Visitor(t.app);
      expect((await off.send('POST', ADD, shirt)).statusCode).toBe(200);
      expect((await off.get('/shop/p/ceramic-pour-over-set')).body).not.toContain('interest-free payments of');
      const offPage = (await off.get('/checkout')).body;
      expect(offPage).not.toContain('name="payment-method"');
      expect(offPage).toContain('Card number');
      const refused = await placeInInstalments(off);
      expect(refused.statusCode).toBe(402);
      expect(refused.json().message).toBe(
        'Instalment payments are not available for this order total. Please choose a different payment method.',
      );
      await setSwitch(true);
    });

    it('checkout offers the method only when every item is physical', async () => {
      await setSwitch(true);
      const v = new Visitor(t.app);
      expect(
        (await v.send('POST', ADD, { itemId: t.seed.productIds['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 })).statusCode,
      ).toBe(200);
      expect(
        (await v.send('POST', ADD, { itemId: t.seed.productIds['houseplant-field-guide'], sku: 'EBOOK-PLANTS', quantity: 1 })).statusCode,
      ).toBe(200);
      expect((await v.get('/checkout')).body).not.toContain('name="payment-method"');
    });
  });
}

for (const kind of APP_KINDS) {
  describe(`issue 30 comments switch on ${kind}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('the Comments feature switch really turns comments off', async () => {
      const v = new Visitor(t.app);
      const on = (await v.get('/journal/how-we-choose-our-linen')).body;
      expect(on).toContain('class="comments"');
      await t.database.db.execute(
        sql`update websites set settings = jsonb_set(settings, '{features}', coalesce(settings->'features', '{}'::jsonb) || '{"comments": false}'::jsonb), version = version + 1`,
      );
      t.app.services.websites.invalidate();
      t.app.pageCache.clear();
      const off = await v.get('/journal/how-we-choose-our-linen?fresh=1');
      expect(off.statusCode).toBe(200);
      expect(off.body).not.toContain('class="comments"');
      // The owner's site setting alone turns them off too.
      await t.database.db.execute(
        sql`update websites set settings = jsonb_set(settings, '{features}', '{"comments": true}'::jsonb) || '{"commentsEnabled": false}'::jsonb, version = version + 1`,
      );
      t.app.services.websites.invalidate();
      t.app.pageCache.clear();
      expect((await v.get('/journal/how-we-choose-our-linen?fresh=2')).body).not.toContain('class="comments"');
    });
  });
}
