/**
 * Duplicate, archive and the bulk editor (issue 41) on both databases:
 * - a duplicate copies the product as a draft with "-copy" slug and SKUs and no stock, and never shows on the site;
 * - an archived product leaves the product page, search, the sitemap and the product feed, keeps its past orders,
 *   is found by the list's Archived filter, comes back as a draft, and can still be deleted;
 * - the bulk editor's save changes prices and weights of 20 variants across 4 products in one call, and a bad cell
 *   refuses the whole save, its message keyed by the variant and field, with nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { DB_KINDS } from '../../helpers/db.js';
import { placeOrder } from '../../helpers/orders.js';
import { rows } from '../../../src/server/db-util.js';
import { ProductType } from '../../../src/core/enums.js';
import { CATALOG_TEXT } from '../../../src/core/api/catalog.js';

const BULK = '/api/config/catalog/products/bulk';
const SHEET = '/api/config/catalog/bulk-edit';

describe.each(DB_KINDS)('duplicate, archive and bulk edit on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  let shopId: string;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' }, { shipping: true });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    shopId = (await owner.get(`/api/config/products/${t.seed.productIds['linen-camp-shirt']}`)).json().collectionId;
  });
  afterAll(async () => {
    await t?.close();
  });

  const visitor = () => new Visitor(t.app);

  it('duplicates a product as a draft with "-copy" slug and SKUs, the same prices and images, and no stock', async () => {
    const id = t.seed.productIds['linen-camp-shirt']!;
    const original = (await owner.get(`/api/config/products/${id}`)).json();
    const r = await owner.send('POST', `/api/config/products/${id}/duplicate`, {});
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json()).toMatchObject({ title: 'Copy of Linen Camp Shirt', urlId: 'linen-camp-shirt-copy', status: 'draft' });
    const copy = (await owner.get(`/api/config/products/${r.json().id}`)).json();
    expect(copy.body).toBe(original.body);
    expect(copy.images).toEqual(original.images);
    expect(copy.variantOptionOrdering).toEqual(original.variantOptionOrdering);
    expect(copy.variants.map((v: { sku: string }) => v.sku)).toEqual(original.variants.map((v: { sku: string }) => `${v.sku}-copy`));
    expect(copy.variants.map((v: { priceCents: number }) => v.priceCents)).toEqual(
      original.variants.map((v: { priceCents: number }) => v.priceCents),
    );
    expect(copy.variants.map((v: { qtyInStock: number }) => v.qtyInStock)).toEqual(original.variants.map(() => 0));
    expect(copy.variants.map((v: { unlimited: boolean }) => v.unlimited)).toEqual(
      original.variants.map((v: { unlimited: boolean }) => v.unlimited),
    );
    // The original is untouched, and the draft copy is not on the site.
    expect((await owner.get(`/api/config/products/${id}`)).json().variants[0].qtyInStock).toBe(original.variants[0].qtyInStock);
    expect((await visitor().get('/shop/p/linen-camp-shirt-copy')).statusCode).toBe(404);

    // A second copy, with its own title, gets the next free slug and SKUs.
    const again = await owner.send('POST', `/api/config/products/${id}/duplicate`, { title: 'Linen shirt, summer' });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({ title: 'Linen shirt, summer', urlId: 'linen-camp-shirt-copy-1' });
    const second = (await owner.get(`/api/config/products/${again.json().id}`)).json();
    expect(second.variants[0].sku).toBe(`${original.variants[0].sku}-copy-1`);

    expect((await owner.send('POST', '/api/config/products/nope/duplicate', {})).statusCode).toBe(404);
    const blank = await owner.send('POST', `/api/config/products/${id}/duplicate`, { title: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors.title).toBe('Enter a title.');
  });

  it('archives a product: off the product page, search, sitemap and feed; its order stays; filtered, unarchived to draft, deletable', async () => {
    const id = t.seed.productIds['ceramic-pour-over-set']!;
    const order = await placeOrder(t.app, [{ itemId: id, sku: 'POUR-OVER', quantity: 1 }]);
    const sitemap = () => visitor().get('/sitemap.xml');
    const feed = () => visitor().get('/products.xml');
    expect((await sitemap()).body).toContain('/shop/p/ceramic-pour-over-set');
    expect((await feed()).body).toContain('Ceramic Pour-Over Set');

    const r = await owner.send('POST', BULK, { action: 'archive', ids: [id] });
    expect(r.statusCode, r.body).toBe(200);
    expect((await visitor().get('/shop/p/ceramic-pour-over-set')).statusCode).toBe(404);
    expect((await sitemap()).body).not.toContain('ceramic-pour-over-set');
    expect((await feed()).body).not.toContain('Ceramic Pour-Over Set');
    const search = await t.app.inject({ method: 'GET', url: '/search?q=pour-over&format=json', remoteAddress: '10.41.0.1' });
    expect((search.json().search.results as Array<{ title: string }>).map((x) => x.title)).not.toContain('Ceramic Pour-Over Set');
    // The shop's list no longer offers it, and a cart cannot take it.
    expect((await visitor().get('/shop')).body).not.toContain('Ceramic Pour-Over Set');
    expect(
      (await visitor().send('POST', '/api/commerce/shopping-cart/entries', { itemId: id, sku: 'POUR-OVER', quantity: 1 })).statusCode,
    ).toBe(404);

    // The past order keeps its line.
    const detail = (await owner.get(`/api/checkout/admin/orders/${order.id}`)).json();
    expect(JSON.stringify(detail)).toContain('Ceramic Pour-Over Set');

    const archived = (await owner.get('/api/config/catalog/products?status=archived')).json();
    expect(archived.products.map((p: { id: string }) => p.id)).toEqual([id]);
    expect(archived.products[0].status).toBe('archived');

    // Unarchive: a draft to look over; unarchive leaves a product that was not archived as it was.
    const live = t.seed.productIds['merino-wool-throw']!;
    expect((await owner.send('POST', BULK, { action: 'unarchive', ids: [id, live] })).statusCode).toBe(200);
    expect((await owner.get(`/api/config/products/${id}`)).json().status).toBe('draft');
    expect((await owner.get(`/api/config/products/${live}`)).json().status).toBe('published');

    // The editor saves the archived state too, and Delete is still possible.
    const p = (await owner.get(`/api/config/products/${id}`)).json();
    const saved = await owner.send('PUT', `/api/config/products/${id}`, { ...p, status: 'archived' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().status).toBe('archived');
    const del = await owner.send('DELETE', `/api/config/products/${id}?version=${saved.json().version}`);
    expect(del.statusCode, del.body).toBe(200);
    expect((await owner.get(`/api/checkout/admin/orders/${order.id}`)).statusCode).toBe(200);
  });

  /** Four products of five variants each (a Size option), physical. */
  async function fourProducts(prefix: string): Promise<string[]> {
    const ids: string[] = [];
    for (let n = 1; n <= 4; n++) {
      const sizes = ['XS', 'S', 'M', 'L', 'XL'];
      const r = await owner.send('POST', '/api/config/products', {
        collectionId: shopId,
        title: `${prefix} tee ${n}`,
        productType: ProductType.PHYSICAL,
        variantOptionOrdering: ['Size'],
        variants: sizes.map((s) => ({
          sku: `${prefix}-${n}-${s}`,
          attributes: { Size: s },
          priceCents: 1000,
          qtyInStock: 3,
          weightGrams: 200,
        })),
      });
      expect(r.statusCode, r.body).toBe(201);
      ids.push(r.json().id);
    }
    return ids;
  }

  type SheetVariant = {
    id: string;
    sku: string;
    priceCents: number;
    salePriceCents: number | null;
    weightGrams: number;
    qtyInStock: number;
  };
  const sheetOf = async (ids: string[]) => {
    const r = await owner.get(`${SHEET}?ids=${ids.join(',')}`);
    expect(r.statusCode, r.body).toBe(200);
    return r.json().products as Array<{ id: string; version: number; variants: SheetVariant[] }>;
  };

  it('saves prices and weights of 20 variants across 4 products in one call', async () => {
    const ids = await fourProducts('BULK');
    const sheet = await sheetOf(ids);
    expect(sheet.map((p) => p.id)).toEqual(ids);
    const variants = sheet.flatMap((p) => p.variants);
    expect(variants).toHaveLength(20);
    const changes = variants.map((v, i) => ({ variantId: v.id, priceCents: 1500 + i, weightGrams: 250 + i }));
    const r = await owner.send('PUT', SHEET, { changes });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ ok: true, count: 20 });
    const after = (await sheetOf(ids)).flatMap((p) => p.variants);
    expect(after.map((v) => v.priceCents)).toEqual(variants.map((_, i) => 1500 + i));
    expect(after.map((v) => v.weightGrams)).toEqual(variants.map((_, i) => 250 + i));
    expect(after.map((v) => v.qtyInStock)).toEqual(variants.map(() => 3));
    // Each product's version moved, so an editor open on the old one is told to reload.
    expect((await sheetOf(ids)).map((p) => p.version)).toEqual(sheet.map((p) => p.version + 1));

    // Sale prices, stock and SKUs too; two variants of one product may swap their SKUs; null takes a variant off sale.
    const [a, b, c] = after;
    const more = await owner.send('PUT', SHEET, {
      changes: [
        { variantId: a!.id, sku: b!.sku, salePriceCents: 900, qtyInStock: 7 },
        { variantId: b!.id, sku: a!.sku },
        { variantId: c!.id, salePriceCents: null },
      ],
    });
    expect(more.statusCode, more.body).toBe(200);
    const now = (await sheetOf(ids)).flatMap((p) => p.variants);
    expect(now[0]).toMatchObject({ sku: b!.sku, salePriceCents: 900, qtyInStock: 7 });
    expect(now[1]!.sku).toBe(a!.sku);
    expect(now[2]!.salePriceCents).toBeNull();
    const moves = await rows<{ reason: string; delta: number }>(
      t.database.db,
      sql`select reason, delta from stock_movements where variant_id = ${a!.id} order by id desc limit 1`,
    );
    expect(moves[0]).toMatchObject({ reason: 'manual', delta: 4 });
  });

  it('refuses a save with a bad cell, with the message keyed by the cell, and writes nothing', async () => {
    const ids = await fourProducts('HALF');
    const before = (await sheetOf(ids)).flatMap((p) => p.variants);
    const good = before.map((v) => ({ variantId: v.id, priceCents: 2222, weightGrams: 333 }));
    const stored = async () => (await sheetOf(ids)).flatMap((p) => p.variants);

    // A sale price at or over the price, in the last cell of the last product.
    const last = before[19]!;
    const sale = await owner.send('PUT', SHEET, { changes: [...good.slice(0, 19), { ...good[19], salePriceCents: 5000 }] });
    expect(sale.statusCode).toBe(400);
    expect(sale.json().errors).toEqual({ [`${last.id}.salePriceCents`]: CATALOG_TEXT.SALE_NOT_LOWER });
    expect(sale.json().error).toBe(CATALOG_TEXT.NOT_SAVED);
    expect(await stored()).toEqual(before);

    // A cell the schema refuses is keyed by its variant too.
    const negative = await owner.send('PUT', SHEET, {
      changes: [...good.slice(0, 10), { ...good[10], weightGrams: -5 }, ...good.slice(11)],
    });
    expect(negative.statusCode).toBe(400);
    expect(negative.json().errors).toEqual({ [`${before[10]!.id}.weightGrams`]: 'Weight cannot be negative.' });
    expect(await stored()).toEqual(before);

    // A SKU another product has, and one used twice in one product.
    const taken = await owner.send('PUT', SHEET, {
      changes: [...good.slice(1), { variantId: before[0]!.id, sku: 'shirt-s-sand' }],
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().errors).toEqual({
      [`${before[0]!.id}.sku`]: 'The SKU shirt-s-sand is already used by another product. Choose another one.',
    });
    const twice = await owner.send('PUT', SHEET, { changes: [{ variantId: before[0]!.id, sku: before[1]!.sku }] });
    expect(twice.statusCode).toBe(400);
    expect(Object.keys(twice.json().errors)).toEqual([`${before[0]!.id}.sku`]);
    expect(await stored()).toEqual(before);

    // Stock of an unlimited variant, weight of a digital product, a variant of no product of the site.
    const shirt = (await owner.get(`/api/config/products/${t.seed.productIds['linen-camp-shirt']}`)).json();
    const unlimited = shirt.variants.find((v: { unlimited: boolean }) => v.unlimited);
    const guide = (await owner.get(`/api/config/products/${t.seed.productIds['houseplant-field-guide']}`)).json();
    const refused = await owner.send('PUT', SHEET, {
      changes: [
        ...good,
        { variantId: unlimited.id, qtyInStock: 5 },
        { variantId: guide.variants[0].id, weightGrams: 100 },
        { variantId: 'no-such-variant', priceCents: 100 },
      ],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual({
      [`${unlimited.id}.qtyInStock`]: CATALOG_TEXT.NO_STOCK_OF_UNLIMITED,
      [`${guide.variants[0].id}.weightGrams`]: CATALOG_TEXT.NO_WEIGHT_OF_DIGITAL,
      'no-such-variant._': CATALOG_TEXT.NO_SUCH_VARIANT,
    });
    expect(await stored()).toEqual(before);
    expect((await owner.send('PUT', SHEET, { changes: [] })).json().error).toBe(CATALOG_TEXT.NO_CHANGES);
  });

  it('refuses a sheet older than a product it changes, with the 409 of a stale edit', async () => {
    const [id] = await fourProducts('STALE');
    const [p] = await sheetOf([id!]);
    const change = { variantId: p!.variants[0]!.id, priceCents: 4321 };
    expect((await owner.send('PUT', SHEET, { changes: [change], versions: { [id!]: p!.version } })).statusCode).toBe(200);
    const stale = await owner.send('PUT', SHEET, { changes: [{ ...change, priceCents: 1 }], versions: { [id!]: p!.version } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().currentVersion).toBe(p!.version + 1);
    expect((await sheetOf([id!]))[0]!.variants[0]!.priceCents).toBe(4321);
  });

  it('keeps the bulk editor to roles that may change products', async () => {
    const anonymous = visitor();
    expect((await anonymous.get(`${SHEET}?ids=${t.seed.productIds['linen-camp-shirt']}`)).statusCode).toBe(401);
    expect((await anonymous.send('PUT', SHEET, { changes: [{ variantId: 'x', priceCents: 1 }] })).statusCode).toBe(401);
    expect((await owner.get(`${SHEET}?ids=nope`)).statusCode).toBe(404);
  });
});
