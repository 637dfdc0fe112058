import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { schema } from '../../../src/db/index.js';
import { newId } from '../../../src/db/ids.js';
import { BlockType, ProductType, RecordType } from '../../../src/core/enums.js';
import { addBlock, addSection, createBlock, emptyLayout, type OpResult, type PageLayout } from '../../../src/core/layout.js';
import { pageEditor } from '../../../src/core/messages.js';
import {
  MAX_ITEMS_USER_ORDERABLE_COLLECTION,
  MAX_PRODUCTS_IN_COLLECTION,
  PHOTO_GALLERY_SERVICE_GALLERY_SIZE,
} from '../../../src/core/constants.js';

const TAG_MESSAGE = 'Tags can be up to 50 characters.';
const CATEGORY_MESSAGE = 'Categories can be up to 25 characters.';
const PRODUCTS_MESSAGE = 'A store can hold at most 200 products. Delete a product to add another.';
const ITEMS_MESSAGE = 'A collection can hold at most 250 items. Delete an item to add another.';

let n = 0;
const ids = { newId: (p: string) => `${p}c${++n}` };
const must = (r: OpResult): PageLayout => {
  if (!r.ok) throw new Error(r.message);
  return r.layout;
};
/** A page layout with one gallery block of `count` images. */
function galleryLayout(count: number): PageLayout {
  const l = must(addSection(emptyLayout(), 0, ids));
  const images = Array.from({ length: count }, (_, i) => ({ assetUrl: '/demo-media/gallery-2.svg', altText: `Photo ${i}` }));
  return must(addBlock(l, l.sections[0]!.id, createBlock(BlockType.GALLERY, { ...ids, data: { title: 'Photos', images } })));
}

function product(collectionId: string, title: string, over: Record<string, unknown> = {}) {
  return {
    collectionId,
    title,
    productType: ProductType.PHYSICAL,
    variants: [{ sku: `SKU-${title.replace(/\W+/g, '-').toUpperCase()}`, attributes: {}, priceCents: 1000, qtyInStock: 3 }],
    ...over,
  };
}

describe.each(APP_KINDS)('content limits (lengths, counts, sizes) on %s', (kind) => {
  let t: TestApp;
  let admin: Visitor;
  let storesUrl: string;

  const count = async (collectionId: string) =>
    Number(
      (await rows<{ n: number | string }>(t.database.db, sql`select count(*) as n from items where collection_id = ${collectionId}`))[0]!.n,
    );
  const newStore = async (title: string): Promise<string> => {
    const res = await admin.send('POST', storesUrl, { title });
    expect(res.statusCode).toBe(201);
    return res.json().id as string;
  };
  /** Fills a store straight in the database (the limit is about the count, not how items got there). */
  const fill = async (collectionId: string, n: number, recordType: number = RecordType.STORE_ITEM) => {
    const values = Array.from({ length: n }, (_, i) => ({
      id: newId(),
      websiteId: t.seed.websiteId,
      collectionId,
      urlId: `filler-${i}`,
      title: `Filler ${i}`,
      recordType,
      ordering: i,
    }));
    await t.database.db.insert(schema.items).values(values);
  };

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    admin = new Visitor(t.app);
    expect((await admin.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    storesUrl = `/api/content-service/product/1.1/websites/${t.seed.websiteId}/products`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a product tag longer than 50 characters, and writes nothing', async () => {
    const store = await newStore('Tag Store');
    const long = await admin.send('POST', '/api/config/products', product(store, 'Long Tag', { tags: ['fine', 'x'.repeat(51)] }));
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ message: TAG_MESSAGE });
    expect(JSON.stringify(long.json())).toContain('tags.1');
    expect(await count(store)).toBe(0);
    const ok = await admin.send('POST', '/api/config/products', product(store, 'Fifty Tag', { tags: ['y'.repeat(50)] }));
    expect(ok.statusCode).toBe(201);
    expect(ok.json().tags).toEqual(['y'.repeat(50)]);
    // Editing the product with a too-long tag is refused too, and the stored tags stay.
    const p = ok.json();
    const edit = await admin.send(
      'PUT',
      `/api/config/products/${p.id}`,
      product(store, 'Fifty Tag', { version: p.version, tags: ['z'.repeat(51)] }),
    );
    expect(edit.statusCode).toBe(400);
    expect(edit.json().message).toBe(TAG_MESSAGE);
    expect((await admin.get(`/api/config/products/${p.id}`)).json()).toMatchObject({ tags: ['y'.repeat(50)], version: p.version });
  });

  it('refuses a store category longer than 25 characters, and writes nothing', async () => {
    const store = await newStore('Category Store');
    const url = `${storesUrl}/${store}/categories`;
    const long = await admin.send('POST', url, { displayName: 'c'.repeat(26), parentCategoryId: null, type: 'ROOT' });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(CATEGORY_MESSAGE);
    const [c] = await rows<{ settings: { categories?: unknown[] } }>(
      t.database.db,
      sql`select settings from collections where id = ${store}`,
    );
    expect(c!.settings.categories ?? []).toEqual([]);
    const ok = await admin.send('POST', url, { displayName: 'c'.repeat(25), parentCategoryId: null, type: 'ROOT' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().displayName).toBe('c'.repeat(25));
  });

  it('refuses a product category longer than 25 characters on create and edit; an edit without categories keeps them', async () => {
    const store = await newStore('Product Category Store');
    const long = await admin.send(
      'POST',
      '/api/config/products',
      product(store, 'Long Category', { categories: ['Mugs', 'k'.repeat(26)] }),
    );
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(CATEGORY_MESSAGE);
    expect(await count(store)).toBe(0);
    const ok = await admin.send('POST', '/api/config/products', product(store, 'Fine Category', { categories: ['k'.repeat(25)] }));
    expect(ok.statusCode, ok.body).toBe(201);
    const p = ok.json();
    expect(p.categories).toEqual(['k'.repeat(25)]);
    const edit = await admin.send(
      'PUT',
      `/api/config/products/${p.id}`,
      product(store, 'Fine Category', { version: p.version, categories: ['m'.repeat(26)] }),
    );
    expect(edit.statusCode).toBe(400);
    expect(edit.json().message).toBe(CATEGORY_MESSAGE);
    const kept = await admin.send('PUT', `/api/config/products/${p.id}`, product(store, 'Fine Category', { version: p.version }));
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().categories).toEqual(['k'.repeat(25)]);
  });

  it('refuses a journal post tag over 50 or category over 25 characters on create and edit, writing nothing', async () => {
    const journalId = (await admin.get('/api/config/posts')).json().journals[0].id as string;
    const before = await count(journalId);
    const longTag = await admin.send('POST', '/api/config/posts', {
      collectionId: journalId,
      title: 'Tagged',
      tags: ['t'.repeat(51)],
      status: 'draft',
    });
    expect(longTag.statusCode).toBe(400);
    expect(longTag.json().message).toBe(TAG_MESSAGE);
    const longCategory = await admin.send('POST', '/api/config/posts', {
      collectionId: journalId,
      title: 'Filed',
      categories: ['c'.repeat(26)],
      status: 'draft',
    });
    expect(longCategory.statusCode).toBe(400);
    expect(longCategory.json().message).toBe(CATEGORY_MESSAGE);
    expect(await count(journalId)).toBe(before);
    const ok = await admin.send('POST', '/api/config/posts', {
      collectionId: journalId,
      title: 'Within limits',
      tags: ['t'.repeat(50)],
      categories: ['c'.repeat(25)],
      status: 'draft',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const post = ok.json();
    expect(post).toMatchObject({ tags: ['t'.repeat(50)], categories: ['c'.repeat(25)] });
    const edit = await admin.send('PUT', `/api/config/posts/${post.id}`, {
      version: post.version,
      title: 'Within limits',
      tags: ['u'.repeat(51)],
      status: 'draft',
    });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().message).toBe(TAG_MESSAGE);
    const kept = await admin.send('PUT', `/api/config/posts/${post.id}`, { version: post.version, title: 'Renamed', status: 'draft' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({ title: 'Renamed', tags: ['t'.repeat(50)], categories: ['c'.repeat(25)] });
  });

  it('a store holds at most 200 products: of two concurrent adds at 199, exactly one succeeds', async () => {
    const store = await newStore('Full Store');
    await fill(store, MAX_PRODUCTS_IN_COLLECTION - 1);
    const [a, b] = await Promise.all([
      admin.send('POST', '/api/config/products', product(store, 'Racer A')),
      admin.send('POST', '/api/config/products', product(store, 'Racer B')),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 400]);
    const refused = a.statusCode === 400 ? a : b;
    expect(refused.json().message).toBe(PRODUCTS_MESSAGE);
    expect(await count(store)).toBe(MAX_PRODUCTS_IN_COLLECTION);
    // Full: a further add is refused, nothing written.
    const again = await admin.send('POST', '/api/config/products', product(store, 'One Too Many'));
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(PRODUCTS_MESSAGE);
    expect(await count(store)).toBe(MAX_PRODUCTS_IN_COLLECTION);
  });

  it('moving a product into a full store is refused; it stays where it was', async () => {
    const full = await newStore('Move Full');
    await fill(full, MAX_PRODUCTS_IN_COLLECTION);
    const other = await newStore('Move From');
    const made = await admin.send('POST', '/api/config/products', product(other, 'Mover'));
    expect(made.statusCode).toBe(201);
    const p = made.json();
    const move = await admin.send('PUT', `/api/config/products/${p.id}`, product(full, 'Mover', { version: p.version }));
    expect(move.statusCode).toBe(400);
    expect(move.json().message).toBe(PRODUCTS_MESSAGE);
    expect((await admin.get(`/api/config/products/${p.id}`)).json()).toMatchObject({ collectionId: other, version: p.version });
    expect(await count(full)).toBe(MAX_PRODUCTS_IN_COLLECTION);
    // Editing the product where it is (not adding it anywhere) still works.
    const stay = await admin.send('PUT', `/api/config/products/${p.id}`, product(other, 'Mover Renamed', { version: p.version }));
    expect(stay.statusCode).toBe(200);
  });

  it('a user-orderable collection (a video course) holds at most 250 items: of two concurrent adds at 249, exactly one succeeds', async () => {
    const made = await admin.send('POST', '/api/members/courses', { title: 'Long course', description: 'Many lessons.' });
    expect(made.statusCode, made.body).toBe(201);
    const course = made.json().id as string;
    await fill(course, MAX_ITEMS_USER_ORDERABLE_COLLECTION - 1, RecordType.VIDEO);
    const url = `/api/members/courses/${course}/lessons`;
    const [a, b] = await Promise.all([
      admin.send('POST', url, { title: 'Lesson A', chapter: 'End', embedUrl: 'https://www.youtube-nocookie.com/embed/a1' }),
      admin.send('POST', url, { title: 'Lesson B', chapter: 'End', embedUrl: 'https://www.youtube-nocookie.com/embed/b2' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 400]);
    expect((a.statusCode === 400 ? a : b).json().message).toBe(ITEMS_MESSAGE);
    expect(await count(course)).toBe(MAX_ITEMS_USER_ORDERABLE_COLLECTION);
    const again = await admin.send('POST', url, {
      title: 'Lesson C',
      chapter: 'End',
      embedUrl: 'https://www.youtube-nocookie.com/embed/c3',
    });
    expect(again.statusCode).toBe(400);
    expect(await count(course)).toBe(MAX_ITEMS_USER_ORDERABLE_COLLECTION);
  });

  it("a member area's paywall product counts against its store's 200: a full memberships store refuses the area, nothing written", async () => {
    const first = await admin.send('POST', '/api/members/areas', { name: 'First Club', access: 'once', priceCents: 500 });
    expect(first.statusCode, first.body).toBe(201);
    const [store] = await rows<{ id: string }>(t.database.db, sql`select id from collections where url_id = 'member-area-products'`);
    expect(store).toBeDefined();
    await fill(store!.id, MAX_PRODUCTS_IN_COLLECTION - (await count(store!.id)));
    const areasBefore = Number((await rows<{ n: number | string }>(t.database.db, sql`select count(*) as n from member_areas`))[0]!.n);
    const second = await admin.send('POST', '/api/members/areas', { name: 'Second Club', access: 'once', priceCents: 700 });
    expect(second.statusCode).toBe(400);
    expect(second.json().message).toBe(PRODUCTS_MESSAGE);
    expect(Number((await rows<{ n: number | string }>(t.database.db, sql`select count(*) as n from member_areas`))[0]!.n)).toBe(
      areasBefore,
    );
    expect(await count(store!.id)).toBe(MAX_PRODUCTS_IN_COLLECTION);
  });

  it('a gallery block holds at most 50 images (the photo-gallery-service size): the editor refuses a draft with 51', async () => {
    const page = await admin.send('POST', '/api/config/pages', { title: 'Big gallery' });
    expect(page.statusCode, page.body).toBe(201);
    const url = `/api/editor/pages/${page.json().id}/draft`;
    const tooMany = await admin.send('PUT', url, { version: 0, layout: galleryLayout(PHOTO_GALLERY_SERVICE_GALLERY_SIZE + 1) });
    expect(tooMany.statusCode).toBe(400);
    expect(JSON.stringify(tooMany.json())).toContain(pageEditor.galleryImageLimit(PHOTO_GALLERY_SERVICE_GALLERY_SIZE));
    expect((await admin.get(`/api/editor/pages/${page.json().id}`)).json()).toMatchObject({ page: { version: 0 } });
    const ok = await admin.send('PUT', url, { version: 0, layout: galleryLayout(PHOTO_GALLERY_SERVICE_GALLERY_SIZE) });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
