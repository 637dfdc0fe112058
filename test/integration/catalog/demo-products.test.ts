import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { DEMO_PRODUCTS } from '../../../src/server/seed.js';
import { optionOrderingOf } from '../../../src/server/catalog/product-service.js';

/** Issue 24: every seeded product saves unchanged through the owner's product API. */
describe.each(APP_KINDS)('demo products round-trip through the product save API on %s', (kind) => {
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

  const stored = async (id: string) => {
    const item = await rows<{
      title: string;
      body: string;
      assets: unknown;
      structured_content: unknown;
      tags: unknown;
      categories: unknown;
      url_id: string;
      status: string;
    }>(t.database.db, sql`select title, body, assets, structured_content, tags, categories, url_id, status from items where id = ${id}`);
    const variants = await rows(
      t.database.db,
      sql`select id, sku, attributes, price_cents, sale_price_cents, on_sale, qty_in_stock, unlimited, weight_grams, ordering from product_variants where item_id = ${id} order by ordering, id`,
    );
    return { item: item[0], variants };
  };

  it('every demo product (all eight) saves unchanged: same answer, same rows, only the version moves', async () => {
    expect(DEMO_PRODUCTS.length).toBe(8);
    for (const demo of DEMO_PRODUCTS) {
      const id = t.seed.productIds[demo.urlId]!;
      const got = await owner.get(`/api/config/products/${id}`);
      expect(got.statusCode, demo.title).toBe(200);
      const before = got.json();
      const rowsBefore = await stored(id);
      const put = await owner.send('PUT', `/api/config/products/${id}`, before);
      expect(put.statusCode, `${demo.title}: ${put.body}`).toBe(200);
      const after = put.json();
      expect(after.version, demo.title).toBe(before.version + 1);
      expect({ ...after, version: 0 }, demo.title).toEqual({ ...before, version: 0 });
      expect(await stored(id), demo.title).toEqual(rowsBefore);
    }
  });

  it('the products with options (shirt, throw, gift card) answer the option names their variants use', async () => {
    const names = async (urlId: string) =>
      (await owner.get(`/api/config/products/${t.seed.productIds[urlId]}`)).json().variantOptionOrdering;
    expect(await names('linen-camp-shirt')).toEqual(['Size', 'Color']);
    expect(await names('merino-wool-throw')).toEqual(['Color']);
    expect(await names('gift-card')).toEqual(['Amount']);
  });

  it('a product stored without an option ordering (data seeded before the fix) still saves: the names come from its variants', async () => {
    const id = t.seed.productIds['gift-card']!;
    await t.database.db.execute(sql`update items set structured_content = structured_content - 'variantOptionOrdering' where id = ${id}`);
    const before = (await owner.get(`/api/config/products/${id}`)).json();
    expect(before.variantOptionOrdering).toEqual(['Amount']);
    const put = await owner.send('PUT', `/api/config/products/${id}`, before);
    expect(put.statusCode, put.body).toBe(200);
    const sc = await rows<{ o: unknown }>(
      t.database.db,
      sql`select structured_content -> 'variantOptionOrdering' as o from items where id = ${id}`,
    );
    expect(sc[0]!.o).toEqual(['Amount']);
    // A genuinely unknown attribute is still refused with its message.
    const saved = put.json();
    const variants = saved.variants.map((v: { attributes: Record<string, string> }, i: number) =>
      i === 0 ? { ...v, attributes: { ...v.attributes, Value: 'x' } } : v,
    );
    const bad = await owner.send('PUT', `/api/config/products/${id}`, { ...saved, variants });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Value is not one of the expected options');
  });
});

describe('optionOrderingOf', () => {
  it('keeps a stored ordering and otherwise lists attribute names in first-seen order', () => {
    expect(optionOrderingOf(['Size', 'Color'], [{ attributes: { Color: 'a', Size: 'b' } }])).toEqual(['Size', 'Color']);
    expect(optionOrderingOf(undefined, [{ attributes: { Color: 'a' } }, { attributes: { Color: 'b', Size: 'M' } }])).toEqual([
      'Color',
      'Size',
    ]);
    expect(optionOrderingOf([], [{ attributes: {} }])).toEqual([]);
  });
});
