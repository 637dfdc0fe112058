import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { DB_KINDS } from '../../helpers/db.js';
import { OWNER, otherInstance, testApp, Visitor, type OtherInstance, type TestApp } from '../../helpers/app.js';
import type { Database } from '../../../src/db/index.js';
import { rows } from '../../../src/server/db-util.js';
import { COMPACT_AT, MAX_ENTRIES } from '../../../src/server/plugins/site-cache.js';

const PRODUCT = '/shop/p/linen-camp-shirt';

/**
 * The shared site cache (src/server/plugins/site-cache.ts): per-request reads of reviews, related products
 * and instalment preferences are kept per content version, and a write through another instance (its own
 * app and database connection) is seen by the next page of this one.
 */
describe.each(DB_KINDS)('site cache on %s', (kind) => {
  let t: TestApp;
  /** The other instance: its own app (own caches) and, on PostgreSQL, its own connection pool. */
  let other: FastifyInstance;
  let otherDb: Database;
  let second: OtherInstance;
  let owner: Visitor;

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    second = await otherInstance(t);
    ({ app: other, database: otherDb } = second);
    owner = new Visitor(other);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  const page = async (app: FastifyInstance = t.app) => {
    const r = await app.inject({ method: 'GET', url: PRODUCT, headers: { accept: 'text/html' } });
    expect(r.statusCode).toBe(200);
    return r.body;
  };

  it('reads the version at most once per page request (PostgreSQL), or only after a commit (PGlite), and nothing else the cache holds', async () => {
    await page();
    const reads = t.app.siteCache.versionReads;
    await page();
    // PGlite tells this process of every commit before the committing statement returns: no read is needed.
    const each = kind === 'postgres' ? 1 : 0;
    expect(t.app.siteCache.versionReads - reads).toBe(each);
    // Two pages at once: on PostgreSQL the second shares a read that starts after it arrived.
    await Promise.all([page(), page()]);
    expect(t.app.siteCache.versionReads - reads).toBe(kind === 'postgres' ? 3 : 0);
    if (kind === 'pglite') {
      await t.database.db.execute(sql`update items set title = title where url_id = 'gift-card'`);
      await Promise.all([page(), page(), page()]);
      expect(t.app.siteCache.versionReads - reads).toBe(1);
    }
  });

  it('hands the version to the requests of one turn together: PGlite at the next check phase, PostgreSQL from one shared read (so their renders run back to back)', async () => {
    await page();
    const cache = t.app.siteCache;
    if (kind === 'postgres') {
      const reads = cache.versionReads;
      // The first starts a read; the others arrived after it started, so they share the one read after it.
      const [x, y, z] = await Promise.all([1, 2, 3].map(() => cache.inRequest(() => cache.version())));
      expect(new Set([x, y, z]).size).toBe(1);
      expect(cache.versionReads - reads).toBe(2);
      return;
    }
    const order: string[] = [];
    setImmediate(() => order.push('immediate queued first'));
    const a = cache.inRequest(() => cache.version().then((v) => (order.push('a'), v)));
    const b = cache.inRequest(() => cache.version().then((v) => (order.push('b'), v)));
    queueMicrotask(() => order.push('microtask'));
    const outside = cache.version().then((v) => (order.push('outside a request'), v));
    const [va, vb, vo] = await Promise.all([a, b, outside]);
    expect(order).toEqual(['microtask', 'outside a request', 'immediate queued first', 'a', 'b']);
    expect(va).toBe(vo);
    expect(vb).toBe(vo);
    // A commit notified in between: the next request reads the new version, not the one handed out before.
    await t.database.db.execute(sql`update items set title = title where url_id = 'gift-card'`);
    const after = await cache.inRequest(() => cache.version());
    expect(after).not.toBe(va);
  });

  it('an area past its bound lets its least recently used value go, not the others (a catalogue larger than the bound is not read again)', async () => {
    const cache = t.app.siteCache;
    const loads = () => cache.loads.get('bound-test') ?? 0;
    const get = (key: number) => cache.inRequest(() => cache.get('bound-test', String(key), async () => key));
    for (let i = 0; i < MAX_ENTRIES; i++) await get(i);
    expect(loads()).toBe(MAX_ENTRIES);
    // Key 0 is used again, so key 1 is now the least recently used: one more key lets it go.
    await get(0);
    await get(MAX_ENTRIES);
    expect(loads()).toBe(MAX_ENTRIES + 1);
    await get(0);
    await get(2);
    await get(MAX_ENTRIES - 1);
    expect(loads()).toBe(MAX_ENTRIES + 1);
    await get(1);
    expect(loads()).toBe(MAX_ENTRIES + 2);
  });

  it('a product page whose row the products list read at this version sends no read of its own, and shows a rename at once', async () => {
    const statements = async (url: string) => {
      const client = (t.database.db as unknown as { $client: { query: (...a: unknown[]) => unknown } }).$client;
      const query = client.query;
      const seen: string[] = [];
      client.query = function (this: unknown, ...a: unknown[]) {
        const q = a[0] as string | { text?: string };
        seen.push(typeof q === 'string' ? q : String(q?.text ?? ''));
        return query.apply(this, a);
      };
      try {
        const r = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
        expect(r.statusCode).toBe(200);
        return { html: r.body, itemReads: seen.filter((q) => /"items"\."url_id" = (\$|any\()/.test(q)).length };
      } finally {
        client.query = query;
      }
    };
    // A new version: nothing is kept yet. The product page alone reads its row.
    await t.database.db.execute(sql`update items set title = title where url_id = 'gift-card'`);
    expect((await statements(PRODUCT)).itemReads).toBe(1);
    await t.database.db.execute(sql`update items set title = title where url_id = 'gift-card'`);
    expect((await statements('/shop')).html).toContain('linen-camp-shirt');
    expect((await statements(PRODUCT)).itemReads).toBe(0);
    // A rename moves the version: the list and the page read the new row.
    const renamed = `Camp Shirt ${kind} listed`;
    await otherDb.db.execute(sql`update items set title = ${renamed} where url_id = 'linen-camp-shirt'`);
    expect((await statements('/shop')).html).toContain(renamed);
    const after = await statements(PRODUCT);
    expect(after.itemReads).toBe(0);
    expect(after.html).toContain(renamed);
  });

  it('the version moves only when a content write commits, and not for a rolled-back one', async () => {
    const v0 = await t.app.siteCache.version();
    expect(await t.app.siteCache.version()).toBe(v0);
    await t.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`update items set title = title where url_id = 'gift-card'`);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await t.app.siteCache.version()).toBe(v0);
    await otherDb.db.execute(sql`update items set title = title where url_id = 'gift-card'`);
    expect(await t.app.siteCache.version()).not.toBe(v0);
  });

  it('folds old change rows into one without moving the version back, and later writes still move it', async () => {
    // Many committed content writes (as checkouts changing stock would make over months).
    for (let i = 0; i < COMPACT_AT + 20; i++) await otherDb.db.execute(sql`update items set title = title where url_id = 'gift-card'`);
    const count = async () => Number((await rows<{ c: string }>(t.database.db, sql`select count(*) as c from site_changes`))[0]!.c);
    expect(await count()).toBeGreaterThan(COMPACT_AT);
    const sum = (v: string) => v.split('.')[0];
    const before = await t.app.siteCache.version();
    // The read above started a fold in the background; wait until it has left one row.
    await vi.waitFor(async () => expect(await count()).toBe(1), { timeout: 5000, interval: 20 });
    expect(t.app.siteCache.compactions).toBeGreaterThan(0);
    const after = await t.app.siteCache.version();
    expect(sum(after)).toBe(sum(before));
    // A fold on the other instance with nothing left to fold adds nothing and changes nothing.
    await other.siteCache.compact(Number.MAX_SAFE_INTEGER);
    expect(await t.app.siteCache.version()).toBe(after);
    await otherDb.db.execute(sql`update items set title = title where url_id = 'gift-card'`);
    const next = await t.app.siteCache.version();
    expect(Number(sum(next))).toBe(Number(sum(after)) + 1);
  });

  it("the owner's related-products choice made on the other instance, and a rename of that product, show here at once", async () => {
    await page();
    const ids = t.seed.productIds;
    const r = await owner.send('PUT', `/api/reviews/admin/related/${ids['linen-camp-shirt']}`, {
      relatedItemIds: [ids['engraved-cutting-board']],
    });
    expect(r.statusCode, r.body).toBe(200);
    const [board] = await rows<{ title: string }>(t.database.db, sql`select title from items where id = ${ids['engraved-cutting-board']}`);
    const html = await page();
    const related = html.slice(html.indexOf('related'));
    expect(related).toContain(board!.title);
    // A write by any area, straight to the table on the other connection, moves the version too.
    const renamed = `Walnut Board ${kind} edition`;
    await otherDb.db.execute(sql`update items set title = ${renamed} where id = ${ids['engraved-cutting-board']}`);
    expect(await page()).toContain(renamed);
  });

  it("the item page's own product renamed through the other connection, and a new URL, show at once", async () => {
    await page();
    await otherDb.db.execute(sql`update items set title = 'Linen Camp Shirt, second run' where url_id = 'linen-camp-shirt'`);
    expect(await page()).toContain('Linen Camp Shirt, second run');
    // A 404 is kept too, until a write makes the item appear.
    const missing = await t.app.inject({ method: 'GET', url: '/shop/p/not-yet-there', headers: { accept: 'text/html' } });
    expect(missing.statusCode).toBe(404);
    await otherDb.db.execute(sql`update items set url_id = 'not-yet-there' where url_id = 'gift-card'`);
    expect((await t.app.inject({ method: 'GET', url: '/shop/p/not-yet-there', headers: { accept: 'text/html' } })).statusCode).toBe(200);
  });

  it('instalment preferences changed on the other instance apply to the next page here', async () => {
    const pill = (html: string) => html.includes('instalment-pill');
    const withPill = await page();
    await otherDb.db.execute(
      sql`update commerce_preferences set value = ${JSON.stringify({ available: false })}::jsonb where namespace = 'instalments'`,
    );
    const without = await page();
    expect(pill(withPill)).toBe(true);
    expect(pill(without)).toBe(false);
  });
});
