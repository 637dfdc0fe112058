/**
 * The one-statement add works from what this process last saw of a cart and a variant. These tests change
 * the rows behind its back (another instance's service on the same database, an owner's edit in SQL) and
 * check that every add still follows the true state: no lost update, the stock rule on the current stock,
 * the current price and status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { CartService } from '../../../src/server/commerce/cart-service.js';

const ADD = '/api/commerce/shopping-cart/entries';
const CART = '/api/commerce/shopping-cart';

describe.each(APP_KINDS)('adds from a kept cart snapshot on %s', (kind) => {
  let t: TestApp;
  let itemId: string;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    itemId = t.seed.productIds['linen-camp-shirt']!;
  });
  afterAll(async () => {
    await t?.close();
  });

  const sand = (quantity = 1, additionalFields: string | null = null) => ({ itemId, sku: 'SHIRT-M-SAND', quantity, additionalFields });

  it('an add made by another instance in between is not lost', async () => {
    const v = new Visitor(t.app);
    expect((await v.send('POST', ADD, sand(1))).statusCode).toBe(200);
    expect((await v.send('POST', ADD, sand(1))).json().shoppingCart.totalQuantity).toBe(2);
    // Another instance (its own service, same database) adds to the same cart.
    const other = new CartService(t.database);
    const site = await t.app.services.websites.get();
    const r = await other.add(
      site.id,
      { token: v.cookies.get('tessera_cart') },
      { itemId, sku: 'SHIRT-M-SAND', quantity: 5, additionalFields: '' },
      'USD',
    );
    expect(r.cart.totalQuantity).toBe(7);
    const res = (await v.send('POST', ADD, sand(1))).json();
    expect(res.shoppingCart.totalQuantity).toBe(8);
    expect(res.shoppingCart.entries).toHaveLength(1);
    expect(res.newlyAdded.quantity).toBe(8);
    const cart = (await v.get(CART)).json();
    expect(cart.totalQuantity).toBe(8);
    expect(cart.subtotalCents).toBe(8 * 6800);
  });

  it('an entry removed elsewhere is not brought back; a quantity set elsewhere is added to', async () => {
    const v = new Visitor(t.app);
    await v.send('POST', ADD, sand(2));
    const first = (await v.send('POST', ADD, { itemId, sku: 'SHIRT-L-SAND', quantity: 1 })).json();
    const entry = first.shoppingCart.entries.find((e: { chosenVariant: { sku: string } }) => e.chosenVariant.sku === 'SHIRT-M-SAND');
    // Straight in the database, as another instance's write would leave it.
    await t.database.db.execute(sql`delete from cart_entries where id = ${entry.id}`);
    await t.database.db.execute(
      sql`update carts set total_quantity = 1, subtotal_cents = 6800, grand_total_cents = 6800 where id = ${first.shoppingCart.id}`,
    );
    const res = (await v.send('POST', ADD, { itemId, sku: 'SHIRT-L-SAND', quantity: 1 })).json();
    expect(
      res.shoppingCart.entries.map((e: { chosenVariant: { sku: string }; quantity: number }) => [e.chosenVariant.sku, e.quantity]),
    ).toEqual([['SHIRT-L-SAND', 2]]);
    expect((await v.get(CART)).json().totalQuantity).toBe(2);
  });

  it('follows the current stock, price and status of the product, not the ones it saw', async () => {
    const v = new Visitor(t.app);
    const sku = 'SHIRT-L-NAVY';
    await t.database.db.execute(
      sql`update product_variants set qty_in_stock = 10, unlimited = false where item_id = ${itemId} and sku = ${sku}`,
    );
    expect((await v.send('POST', ADD, { itemId, sku, quantity: 1 })).statusCode).toBe(200);
    expect((await v.send('POST', ADD, { itemId, sku, quantity: 1 })).statusCode).toBe(200);
    // Stock falls to 2: a third unit is refused with the stock message.
    await t.database.db.execute(sql`update product_variants set qty_in_stock = 2 where item_id = ${itemId} and sku = ${sku}`);
    const refused = await v.send('POST', ADD, { itemId, sku, quantity: 1 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Sorry, we do not have enough of that item available.');
    // Restocked: accepted again.
    await t.database.db.execute(sql`update product_variants set qty_in_stock = 50 where item_id = ${itemId} and sku = ${sku}`);
    expect((await v.send('POST', ADD, { itemId, sku, quantity: 1 })).json().shoppingCart.totalQuantity).toBe(3);
    // A new price applies to a new entry, even when this process saw the old one a moment ago.
    const a = new Visitor(t.app);
    expect((await a.send('POST', ADD, { itemId, sku: 'SHIRT-S-NAVY', quantity: 1 })).json().newlyAdded.purchasePriceCents).toBe(7200);
    const b = new Visitor(t.app);
    await b.send('POST', ADD, sand(1));
    await b.send('POST', ADD, sand(1));
    await t.database.db.execute(
      sql`update product_variants set price_cents = 1234, on_sale = false where item_id = ${itemId} and sku = 'SHIRT-S-NAVY'`,
    );
    const priced = (await b.send('POST', ADD, { itemId, sku: 'SHIRT-S-NAVY', quantity: 1 })).json();
    expect(priced.newlyAdded.purchasePriceCents).toBe(1234);
    expect(priced.shoppingCart.subtotalCents).toBe(2 * 6800 + 1234);
    // Unpublished: 404, nothing added.
    await t.database.db.execute(sql`update items set status = 'draft' where id = ${itemId}`);
    try {
      const gone = await v.send('POST', ADD, { itemId, sku, quantity: 1 });
      expect(gone.statusCode).toBe(404);
      expect((await v.get(CART)).json().totalQuantity).toBe(3);
    } finally {
      await t.database.db.execute(sql`update items set status = 'published' where id = ${itemId}`);
    }
  });
});
