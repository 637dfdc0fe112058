import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DB_KINDS } from '../../helpers/db.js';
import { testApp, type TestApp } from '../../helpers/app.js';

/**
 * Item pages missed at about the same time read their items in one statement (pages/routes.ts itemReader,
 * db-util.ts BatchedRead): every page still shows its own item, a missing one is not found, and a write
 * committed before the requests is in every page.
 */
describe.each(DB_KINDS)('item pages read together on %s', (kind) => {
  let t: TestApp;
  /** Statements that read items by a list of url ids, counted as they reach the database driver. */
  let batched = 0;

  beforeAll(async () => {
    t = await testApp(kind, { PAGE_CACHE_SECONDS: '0', RATE_LIMIT_STORE: 'memory' });
    const client = (t.database.db as unknown as { $client: { query: (...a: unknown[]) => Promise<unknown> } }).$client;
    const query = client.query.bind(client);
    client.query = (...a: unknown[]) => {
      const text = typeof a[0] === 'string' ? a[0] : String((a[0] as { text?: string })?.text ?? '');
      if (text.includes('"url_id" = any(')) batched++;
      return query(...a);
    };
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const page = (path: string) => t.app.inject({ method: 'GET', url: path, headers: { accept: 'text/html' } });
  const title = (html: string) => /<h1[^>]*>([^<]*)</.exec(html)?.[1]?.trim();

  it('renders every product of a burst from fewer statements than pages, each with its own item', async () => {
    const urlIds = Object.keys(t.seed.productIds);
    expect(urlIds.length).toBeGreaterThan(4);
    // One sequential render per product for the expected pages (and their titles).
    const alone = new Map<string, string | undefined>();
    for (const u of urlIds) {
      const r = await page(`/shop/p/${u}`);
      expect(r.statusCode, u).toBe(200);
      alone.set(u, title(r.body));
      expect(alone.get(u), u).toBeTruthy();
    }
    // A new content version: the next requests miss every kept row and read the items again, together.
    await t.database.db.execute(sql`update items set title = title || ' (new)' where url_id = ${urlIds[0]!}`);
    const before = batched;
    const burst = await Promise.all([...urlIds, 'no-such-product', ...urlIds].map((u) => page(`/shop/p/${u}`)));
    const statements = batched - before;
    expect(statements).toBeGreaterThan(0);
    expect(statements).toBeLessThan(urlIds.length);
    urlIds.forEach((u, i) => {
      for (const r of [burst[i]!, burst[urlIds.length + 1 + i]!]) {
        expect(r.statusCode, u).toBe(200);
        expect(title(r.body), u).toBe(i === 0 ? `${alone.get(u)} (new)` : alone.get(u));
      }
    });
    expect(burst[urlIds.length]!.statusCode).toBe(404);
  });
});
