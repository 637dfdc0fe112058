import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { schema } from '../../../src/db/index.js';
import { highlight, searchSite } from '../../../src/server/search/search.js';

describe.each(APP_KINDS)('search on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('finds products, posts and pages, ranked by title first, with highlighted excerpts', async () => {
    const hits = await searchSite(t.database.db, t.seed.websiteId, 'linen');
    // Items with the word in their title come first.
    expect(
      hits
        .slice(0, 2)
        .map((h) => h.title)
        .sort(),
    ).toEqual(['How we choose our linen', 'Linen Camp Shirt']);
    expect(hits.find((h) => h.kind === 'product')).toMatchObject({ title: 'Linen Camp Shirt', fullUrl: '/shop/p/linen-camp-shirt' });
    expect(hits[0]!.excerptHtml).toMatch(/<mark>[Ll]inen<\/mark>/);
    expect(hits[0]!.rank).toBeGreaterThanOrEqual(hits[hits.length - 1]!.rank);
    const page = await searchSite(t.database.db, t.seed.websiteId, 'wholesale enquiry');
    expect(page[0]).toMatchObject({ kind: 'page', title: 'Contact', fullUrl: '/contact' });
    const events = await searchSite(t.database.db, t.seed.websiteId, 'tasting');
    expect(events[0]).toMatchObject({ kind: 'event', fullUrl: '/events/pour-over-tasting-evening' });
    expect(await searchSite(t.database.db, t.seed.websiteId, 'zebra xylophone')).toEqual([]);
    // websearch syntax: quoted phrases and exclusions never error.
    expect(
      (await searchSite(t.database.db, t.seed.websiteId, '"pour-over" -ceramic')).every((h) => h.title !== 'Ceramic Pour-Over Set'),
    ).toBe(true);
    expect(await searchSite(t.database.db, t.seed.websiteId, '((( OR ')).toEqual([]);
  });

  it('serves /search as page type 102 with results, counts, and a no-results message', async () => {
    const v = new Visitor(t.app);
    const res = await v.get('/search?q=coffee');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('data-page-type="102"');
    expect(res.body).toMatch(/\d+ results? for “coffee”/);
    expect(res.body).toContain('<mark>coffee</mark>');
    expect(res.body).toContain('href="/shop/p/fresh-roast-coffee-subscription"');
    const none = await v.get('/search?q=zebra');
    expect(none.body).toContain('No results for “zebra”');
    const empty = await v.get('/search');
    expect(empty.statusCode).toBe(200);
    expect(empty.body).not.toContain('search-summary');
    const ctx = (await v.get('/search?q=linen&format=json')).json();
    expect(ctx.pageType).toBe(102);
    expect(ctx.search.results.length).toBeGreaterThan(0);
  });

  it('escapes content in excerpts and leaves unpublished items out', async () => {
    await t.database.db
      .update(schema.items)
      .set({ body: '<p>Tiny <b>marmalade</b> & <img src=x onerror=alert(1)> jars</p>' })
      .where(eq(schema.items.urlId, 'gift-card'));
    const hits = await searchSite(t.database.db, t.seed.websiteId, 'marmalade');
    expect(hits).toHaveLength(1);
    expect(hits[0]!.excerptHtml).not.toMatch(/<img|<b>/);
    expect(hits[0]!.excerptHtml).toContain('<mark>marmalade</mark>');
    expect(hits[0]!.excerptHtml).toContain('&amp;');
    await t.database.db.update(schema.items).set({ status: 'draft' }).where(eq(schema.items.urlId, 'gift-card'));
    expect(await searchSite(t.database.db, t.seed.websiteId, 'marmalade')).toEqual([]);
    await t.database.db.update(schema.items).set({ status: 'published' }).where(eq(schema.items.urlId, 'gift-card'));
    const long = await new Visitor(t.app).get(`/search?q=${'a'.repeat(5000)}`);
    expect(long.statusCode).toBe(200);
  });
});

describe('highlight', () => {
  it('escapes everything and turns only the markers into <mark>', () => {
    expect(highlight('a \u27e6<b>\u27e7 & \u27e6c')).toBe('a <mark>&lt;b&gt;</mark> &amp; <mark>c</mark>');
    expect(highlight('&lt;script&gt;')).toBe('&lt;script&gt;');
  });
});
