/**
 * Issue 21 item 10: search reads a stored, GIN-indexed tsvector that every writer keeps current, repeated
 * queries are answered from the cache of the content version, the search route is rate limited per address,
 * and PGlite and PostgreSQL give the same results.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { OWNER, pinRateLimitClock, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { DB_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { SEARCH_RATE, searchSite, type SearchHit } from '../../../src/server/search/search.js';
import { search as searchMessages } from '../../../src/core/messages.js';

const QUERIES = [
  'linen',
  'coffee',
  'pour-over',
  '"pour-over" -ceramic',
  'tasting',
  'wholesale enquiry',
  'gift',
  'ceramic OR linen',
  'zebra xylophone',
  '((( OR ',
];

/** What a hit shows, for comparing two databases. */
const shown = (hits: SearchHit[]) => hits.map((h) => ({ ...h, rank: Math.round(h.rank * 1e5) / 1e5 }));

/** The document each row's stored one must equal (what the search used to compute at query time). */
const STALE_ITEMS = sql`select count(*)::int as n from items where search_doc is distinct from (
  setweight(to_tsvector('english', title), 'A') ||
  setweight(to_tsvector('english', array_to_string(array(select jsonb_array_elements_text(tags || categories)), ' ')), 'B') ||
  setweight(to_tsvector('english', excerpt), 'B') ||
  setweight(to_tsvector('english', translate(regexp_replace(body, '<[^>]*>', ' ', 'g'), U&'\\27E6\\27E7', '')), 'C'))`;
const STALE_PAGES = sql`select count(*)::int as n from collections where search_doc is distinct from (
  setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', description), 'B') ||
  setweight(to_tsvector('english', translate(regexp_replace(coalesce(settings->>'body', ''), '<[^>]*>', ' ', 'g'), U&'\\27E6\\27E7', '')), 'C') ||
  setweight(to_tsvector('english', translate(coalesce(settings->>'layoutText', ''), U&'\\27E6\\27E7', '')), 'C'))`;

let ipSeq = 0;
const freshIp = () => `10.77.${Math.floor(ipSeq / 250)}.${(ipSeq++ % 250) + 1}`;

describe.each(DB_KINDS)('search index, cache and rate limit on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
  });
  afterAll(() => t?.close());

  it('stores the documents in GIN-indexed tsvector columns, filled for every seeded row, and the query uses the index', async () => {
    const idx = await rows<{ indexname: string; indexdef: string }>(
      t.database.db,
      sql`select indexname, indexdef from pg_indexes where indexname in ('items_search_doc_idx', 'collections_search_doc_idx') order by indexname`,
    );
    expect(idx.map((i) => i.indexname)).toEqual(['collections_search_doc_idx', 'items_search_doc_idx']);
    for (const i of idx) expect(i.indexdef).toMatch(/USING gin \(search_doc\)/);
    expect((await rows<{ n: number }>(t.database.db, STALE_ITEMS))[0]!.n).toBe(0);
    expect((await rows<{ n: number }>(t.database.db, STALE_PAGES))[0]!.n).toBe(0);
    expect((await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from items where search_doc is null`))[0]!.n).toBe(0);
    // With sequential scans priced out, the match runs on the index (the planner picks it on big sites by itself).
    const plan = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return rows<{ 'QUERY PLAN': string }>(
        tx,
        sql`explain select id from items where search_doc @@ websearch_to_tsquery('english', 'linen')`,
      );
    });
    expect(plan.map((p) => p['QUERY PLAN']).join('\n')).toContain('items_search_doc_idx');
  });

  it('every writer keeps the documents current: owner calls for posts and pages, and plain SQL', async () => {
    const journalId = (await owner.get('/api/config/posts')).json().journals[0].id as string;
    const made = await owner.send('POST', '/api/config/posts', {
      collectionId: journalId,
      title: 'Quokka sightings',
      body: '<p>A <b>wombat</b> story</p>',
      tags: ['marsupials'],
      status: 'published',
    });
    expect(made.statusCode, made.body).toBeLessThan(300);
    const post = made.json();
    const titles = async (q: string) => (await searchSite(t.database.db, t.seed.websiteId, q)).map((h) => h.title);
    expect(await titles('quokka')).toEqual(['Quokka sightings']);
    expect(await titles('wombat')).toEqual(['Quokka sightings']);
    expect(await titles('marsupials')).toEqual(['Quokka sightings']);
    const edited = await owner.send('PUT', `/api/config/posts/${post.id}`, {
      version: post.version,
      title: 'Echidna sightings',
      body: '<p>A platypus story</p>',
      status: 'published',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await titles('quokka')).toEqual([]);
    expect(await titles('wombat')).toEqual([]);
    expect(await titles('echidna platypus')).toEqual(['Echidna sightings']);
    await t.database.db.execute(sql`update items set excerpt = 'bandicoot' where id = ${post.id}`);
    expect(await titles('bandicoot')).toEqual(['Echidna sightings']);

    const page = await owner.send('POST', '/api/config/pages', { title: 'Visit us', body: '<p>Find the <i>lighthouse</i> gate</p>' });
    expect(page.statusCode, page.body).toBe(201);
    expect(await titles('lighthouse')).toEqual(['Visit us']);
    const p = page.json();
    expect(
      (
        await owner.send('PUT', `/api/config/pages/${p.id}`, {
          version: p.version,
          title: 'Visit us',
          body: '<p>Find the harbour gate</p>',
        })
      ).statusCode,
    ).toBe(200);
    expect(await titles('lighthouse')).toEqual([]);
    expect(await titles('harbour')).toEqual(['Visit us']);
    expect((await rows<{ n: number }>(t.database.db, STALE_ITEMS))[0]!.n).toBe(0);
    expect((await rows<{ n: number }>(t.database.db, STALE_PAGES))[0]!.n).toBe(0);
  });

  it('answers a repeated query from the cache of the content version; a content change is seen at once', async () => {
    const loads = () => t.app.siteCache.loads.get('search') ?? 0;
    const ask = async (q: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/search?q=${encodeURIComponent(q)}&format=json`, remoteAddress: freshIp() });
      expect(res.statusCode).toBe(200);
      return (res.json().search.results as Array<{ title: string }>).map((r) => r.title);
    };
    const first = await ask('linen');
    const before = loads();
    for (let i = 0; i < 5; i++) expect(await ask('linen')).toEqual(first);
    expect(loads()).toBe(before);
    await t.database.db.execute(sql`update items set title = 'Linen Camp Shirt (linen)' where url_id = 'linen-camp-shirt'`);
    expect(await ask('linen')).toContain('Linen Camp Shirt (linen)');
    expect(loads()).toBe(before + 1);
    await t.database.db.execute(sql`update items set title = 'Linen Camp Shirt' where url_id = 'linen-camp-shirt'`);
  });

  it('limits searches per address with 429 and the message; another address and the empty search page are not held up', async () => {
    pinRateLimitClock(t); // every search of the run in one window
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i <= SEARCH_RATE.max; i++)
      statuses.push((await t.app.inject({ method: 'GET', url: `/search?q=word${i}&format=json`, remoteAddress: ip })).statusCode);
    expect(statuses.slice(0, SEARCH_RATE.max).every((s) => s === 200)).toBe(true);
    expect(statuses[SEARCH_RATE.max]).toBe(429);
    const held = await t.app.inject({ method: 'GET', url: '/search?q=linen&format=json', remoteAddress: ip });
    expect(held.statusCode).toBe(429);
    expect(held.body).toContain(searchMessages.TOO_MANY_SEARCHES);
    expect((await t.app.inject({ method: 'GET', url: '/search', remoteAddress: ip })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/search?q=linen', remoteAddress: freshIp() })).statusCode).toBe(200);
  });
});

describe('search gives the same results on PGlite and PostgreSQL', () => {
  const apps: TestApp[] = [];
  beforeAll(async () => {
    for (const kind of DB_KINDS) apps.push(await testApp(kind));
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
  });

  it('same hits, order, ranks and excerpts for every query', async () => {
    expect(apps).toHaveLength(2);
    for (const q of QUERIES) {
      const [a, b] = await Promise.all(apps.map((t) => searchSite(t.database.db, t.seed.websiteId, q)));
      // The seeds differ only in ids: compare what a visitor sees.
      const strip = (hits: SearchHit[]) => shown(hits).map(({ id: _id, collectionId: _c, ...rest }) => rest);
      expect(strip(b!), q).toEqual(strip(a!));
      if (q === 'linen' || q === 'coffee') expect(a!.length, q).toBeGreaterThan(0);
    }
  });
});
