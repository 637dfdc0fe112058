/**
 * Catalogue (issue 24) on both databases:
 * - a variant's dimensions (length, width, height in cm or in) are stored by the product editor's save and
 *   answered back; bad dimensions are refused with a clear error and nothing changes;
 * - the product list's bulk "move" puts products into another store page: slugs taken there get the next free
 *   one, the page's 200-product limit counts the arrivals, and an unknown page is refused;
 * - a subscription product's page shows its billing words in the price (core/product-price.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { schema } from '../../../src/db/index.js';
import { newId } from '../../../src/db/ids.js';
import { CollectionType, RecordType } from '../../../src/core/enums.js';

const BULK = '/api/config/catalog/products/bulk';

describe.each(APP_KINDS)('variant dimensions, bulk move and subscription price on %s', (kind) => {
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

  it('stores and answers a variant’s dimensions, clears them with null, and refuses bad ones', async () => {
    const id = t.seed.productIds['linen-camp-shirt']!;
    const p = (await owner.get(`/api/config/products/${id}`)).json();
    expect(p.variants[0].dimensions).toBeNull();
    const dims = { unit: 'in', length: 12.5, width: 9, height: 1.25 };
    const withDims = {
      ...p,
      variants: p.variants.map((v: Record<string, unknown>, i: number) => (i === 0 ? { ...v, dimensions: dims } : v)),
    };
    const r = await owner.send('PUT', `/api/config/products/${id}`, withDims);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().variants[0].dimensions).toEqual(dims);
    expect(r.json().variants[1].dimensions).toBeNull();
    const [stored] = await rows<{ d: unknown }>(
      t.database.db,
      sql`select dimensions as d from product_variants where id = ${p.variants[0].id}`,
    );
    expect(typeof stored!.d === 'string' ? JSON.parse(stored!.d) : stored!.d).toEqual(dims);

    const saved = r.json();
    for (const [bad, message] of [
      [{ ...dims, length: -1 }, 'Length cannot be negative.'],
      [{ ...dims, width: 'wide' }, 'Width must be a number.'],
      [{ ...dims, unit: 'ft' }, 'Choose cm or in for the dimensions.'],
    ] as const) {
      const res = await owner.send('PUT', `/api/config/products/${id}`, {
        ...saved,
        variants: saved.variants.map((v: Record<string, unknown>, i: number) => (i === 0 ? { ...v, dimensions: bad } : v)),
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain(message);
    }
    expect((await owner.get(`/api/config/products/${id}`)).json().variants[0].dimensions).toEqual(dims);

    const cleared = await owner.send('PUT', `/api/config/products/${id}`, {
      ...saved,
      variants: saved.variants.map((v: Record<string, unknown>) => ({ ...v, dimensions: null })),
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().variants[0].dimensions).toBeNull();
  });

  it('moves products to another store page, with the next free slug where it is taken there', async () => {
    const otherId = newId();
    await t.database.db.insert(schema.collections).values({
      id: otherId,
      websiteId: t.seed.websiteId,
      urlId: 'second-shop',
      title: 'Second shop',
      type: CollectionType.PRODUCTS,
      typeName: 'products',
      ordering: 90,
      description: '',
    });
    const shirt = t.seed.productIds['linen-camp-shirt']!;
    const mug = t.seed.productIds['ceramic-pour-over-set']!;
    // A product already in the second shop holds the shirt's slug.
    await t.database.db.insert(schema.items).values({
      id: newId(),
      websiteId: t.seed.websiteId,
      collectionId: otherId,
      urlId: 'linen-camp-shirt',
      title: 'Older shirt',
      recordType: RecordType.STORE_ITEM,
      status: 'draft',
    });
    const res = await owner.send('POST', BULK, { action: 'move', ids: [shirt, mug], collectionId: otherId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, count: 2 });
    const moved = await rows<{ id: string; collection_id: string; url_id: string }>(
      t.database.db,
      sql`select id, collection_id, url_id from items where id in (${shirt}, ${mug}) order by url_id`,
    );
    expect(moved.every((m) => m.collection_id === otherId)).toBe(true);
    expect(moved.map((m) => m.url_id).sort()).toEqual(['ceramic-pour-over-set', 'linen-camp-shirt-1']);
    // The public pages follow (the move moves the content version).
    const v = new Visitor(t.app);
    expect((await v.get('/second-shop/p/ceramic-pour-over-set')).statusCode).toBe(200);
    // The old address sends visitors on to the new one.
    const old = await v.get('/shop/p/ceramic-pour-over-set');
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toMatch(/\/second-shop\/p\/ceramic-pour-over-set$/);

    const noPage = await owner.send('POST', BULK, { action: 'move', ids: [shirt] });
    expect(noPage.statusCode).toBe(400);
    expect(noPage.body).toContain('Choose the store this product belongs to.');
    const unknown = await owner.send('POST', BULK, { action: 'move', ids: [shirt], collectionId: 'nope' });
    expect(unknown.statusCode).toBe(400);
    expect((await rows<{ c: string }>(t.database.db, sql`select collection_id as c from items where id = ${shirt}`))[0]!.c).toBe(otherId);
  });

  it('refuses a move that would pass the store page’s 200-product limit, and moves nothing', async () => {
    const fullId = newId();
    await t.database.db.insert(schema.collections).values({
      id: fullId,
      websiteId: t.seed.websiteId,
      urlId: 'full-shop',
      title: 'Full shop',
      type: CollectionType.PRODUCTS,
      typeName: 'products',
      ordering: 91,
      description: '',
    });
    await t.database.db.insert(schema.items).values(
      Array.from({ length: 199 }, (_, i) => ({
        id: newId(),
        websiteId: t.seed.websiteId,
        collectionId: fullId,
        urlId: `filler-${i}`,
        title: `Filler ${i}`,
        recordType: RecordType.STORE_ITEM,
        status: 'draft',
      })),
    );
    const a = t.seed.productIds['engraved-cutting-board']!;
    const b = t.seed.productIds['fresh-roast-coffee-subscription']!;
    const res = await owner.send('POST', BULK, { action: 'move', ids: [a, b], collectionId: fullId });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('200');
    const still = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from items where collection_id = ${fullId}`);
    expect(still[0]!.n).toBe(199);
  });

  it('shows a subscription product’s billing words in its price on the product page', async () => {
    const v = new Visitor(t.app);
    const page = await v.get('/shop/p/fresh-roast-coffee-subscription');
    expect(page.statusCode).toBe(200);
    const price = /data-product-price-for="[^"]+">([\s\S]*?)<\/div>\s*<\/div>/.exec(page.body)?.[1] ?? '';
    expect(
      price
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ).toBe('$18.00 every month');
    // A product without a plan keeps its plain price.
    const plain = await v.get('/shop/p/engraved-cutting-board');
    expect(plain.statusCode).toBe(200);
    expect(plain.body).not.toContain('every month');
  });
});
