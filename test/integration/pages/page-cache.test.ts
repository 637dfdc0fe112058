import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { DB_KINDS } from '../../helpers/db.js';
import { OWNER, otherInstance, pinRateLimitClock, testApp, Visitor, type OtherInstance, type TestApp } from '../../helpers/app.js';
import type { Database } from '../../../src/db/index.js';
import { renderIsland } from '../../../src/web/ssr.js';
import { hashToken } from '../../../src/db/ids.js';
import { listeningOrigin } from '../../../src/server/email-origin.js';
import { CartService } from '../../../src/server/commerce/cart-service.js';
import { SEARCH_RATE } from '../../../src/server/search/search.js';
import { publishDueProducts } from '../../../src/server/catalog/routes.js';
import { publishDuePosts } from '../../../src/server/editor/posts.js';
import {
  CART_COOKIES,
  EXPERIMENT_COOKIES,
  KEYED_COOKIES,
  NEUTRAL_COOKIES,
  PRIVATE_COOKIES,
  pickEncoding,
} from '../../../src/server/pages/page-cache.js';
import { SiteUserService } from '../../../src/server/platform/site-users.js';
import { newId } from '../../../src/db/ids.js';
import { schema } from '../../../src/db/index.js';
import { formatSiteUserInfo } from '../../../src/core/cookies.js';

const PRODUCT = '/shop/p/linen-camp-shirt';

/**
 * Whole pages shared by visitors (src/server/pages/page-cache.ts): a second visitor gets the same page
 * without a render, in every encoding; nothing private is shared; and a write committed anywhere, by this
 * instance or another, shows on the next page.
 */
describe.each(DB_KINDS)('page cache on %s', (kind) => {
  let t: TestApp;
  let other: FastifyInstance;
  let otherDb: Database;
  let second: OtherInstance;

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    second = await otherInstance(t);
    ({ app: other, database: otherDb } = second);
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });
  const stats = () => ({ ...t.app.pageCache.stats });
  /** Runs `fn` and answers how the cache counters moved meanwhile. */
  const counted = async <T>(fn: () => Promise<T>) => {
    await t.app.pageCache.idle();
    const before = stats();
    const value = await fn();
    await t.app.pageCache.idle();
    const after = stats();
    return { value, hits: after.hits - before.hits, misses: after.misses - before.misses, stored: after.stored - before.stored };
  };
  /** Waits until the pages requests rendered are kept (their encodings are made off the event loop). */
  const settled = () => t.app.pageCache.idle();

  it('serves the second visitor the first one’s page, identical in brotli, gzip and plain, with the data island', async () => {
    const first = await get(PRODUCT);
    expect(first.statusCode).toBe(200);
    await settled();
    const plain = await counted(() => get(PRODUCT));
    expect(plain.hits).toBe(1);
    expect(plain.value.statusCode).toBe(200);
    expect(plain.value.headers['content-type']).toMatch(/^text\/html/);
    expect(plain.value.headers['content-encoding']).toBeUndefined();
    expect(plain.value.body).toBe(first.body);
    expect(plain.value.body).toContain('id="tessera-page"');
    expect(plain.value.body).toContain('Linen Camp Shirt');

    const br = await get(PRODUCT, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(first.body);
    const gz = await get(PRODUCT, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(first.body);
    const head = await t.app.inject({ method: 'HEAD', url: PRODUCT });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('sends a rendered page compressed once, keeps that copy, and re-encodes a page asked for again smaller, never changing what it decodes to', async () => {
    t.app.pageCache.clear();
    const br = { 'accept-encoding': 'br' };
    const first = await get('/journal', br);
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(first.headers['content-length'])).toBe(first.rawPayload.length);
    const page = brotliDecompressSync(first.rawPayload).toString();
    expect(page).toContain('</html>');
    await settled();
    // The first copy is the render's own bytes; the second copy served sets off the better encoding.
    const again = await counted(() => get('/journal', br));
    expect(again.hits).toBe(1);
    expect(again.value.rawPayload.equals(first.rawPayload)).toBe(true);
    await counted(() => get('/journal', br));
    const later = await get('/journal', br);
    expect(brotliDecompressSync(later.rawPayload).toString()).toBe(page);
    expect(later.rawPayload.length).toBeLessThan(first.rawPayload.length);
    // gzip is made when first asked for; deflate and identity are left to the compression plugin as before.
    const gz = await get('/journal', { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gz.rawPayload).toString()).toBe(page);
    const deflate = await get('/journal', { 'accept-encoding': 'deflate' });
    expect(deflate.headers['content-encoding']).toBe('deflate');
    expect(inflateSync(deflate.rawPayload).toString()).toBe(page);
    const none = await get('/journal', { 'accept-encoding': 'br', 'x-no-compression': '1' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body).toBe(page);
  });

  it('puts the data island once before </body> in every copy of a page rendered compressed: the render, the kept copies, a page for one visitor', async () => {
    const island = (html: string) => {
      const at = html.indexOf('<script type="application/json" id="tessera-page">');
      return {
        count: html.split('id="tessera-page"').length - 1,
        beforeBodyEnd: at >= 0 && html.indexOf('</script></body>', at) === html.lastIndexOf('</script></body>'),
      };
    };
    for (const encoding of ['br', 'gzip']) {
      t.app.pageCache.clear();
      const decode = (r: { rawPayload: Buffer; headers: Record<string, unknown> }) =>
        (r.headers['content-encoding'] === 'br'
          ? brotliDecompressSync(r.rawPayload)
          : r.headers['content-encoding'] === 'gzip'
            ? gunzipSync(r.rawPayload)
            : r.rawPayload
        ).toString();
      for (const url of [PRODUCT, '/journal', '/shop']) {
        const first = await counted(() => get(url, { 'accept-encoding': encoding }));
        expect(first.stored, url).toBe(1);
        expect(first.value.headers['content-encoding']).toBe(encoding);
        const page = decode(first.value);
        expect(island(page), `${encoding} ${url}`).toEqual({ count: 1, beforeBodyEnd: true });
        for (const asked of ['br', 'gzip', 'identity']) {
          const again = await counted(() => get(url, { 'accept-encoding': asked }));
          expect(again.hits).toBe(1);
          expect(decode(again.value), `${encoding} then ${asked} ${url}`).toBe(page);
        }
      }
    }
    // Rendered for one visitor alone (never kept): the owner's page, compressed, with its island (track false).
    const owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    for (const encoding of ['br', 'gzip', 'identity']) {
      const r = await owner.get(PRODUCT, { 'accept-encoding': encoding });
      const html =
        r.headers['content-encoding'] === 'br'
          ? brotliDecompressSync(r.rawPayload).toString()
          : r.headers['content-encoding'] === 'gzip'
            ? gunzipSync(r.rawPayload).toString()
            : r.body;
      expect(island(html), encoding).toEqual({ count: 1, beforeBodyEnd: true });
      expect(html).toContain('"track":false');
    }
  });

  it('compresses a page rendered for one visitor alone (a signed-in owner) the same way', async () => {
    const owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    const before = stats();
    const r = await owner.get('/journal', { 'accept-encoding': 'gzip, br' });
    expect(stats().hits).toBe(before.hits);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(r.rawPayload).toString()).toContain('</html>');
  });

  it('keeps every page through the scheduled-publishing sweeps when nothing is due, and shows a due product after the sweep', async () => {
    await get(PRODUCT);
    await settled();
    const version = await t.app.siteCache.version();
    // Nothing is due: the sweeps write nothing, so the content version (and every kept page) stays.
    expect(await publishDueProducts(t.database.db)).toBe(0);
    expect(await publishDuePosts(t.database.db)).toBe(0);
    expect(await t.app.siteCache.version()).toBe(version);
    expect((await counted(() => get(PRODUCT))).hits).toBe(1);
    await t.database.db.execute(
      sql`update items set status = 'scheduled', publish_on = now() - interval '1 minute' where url_id = 'linen-camp-shirt'`,
    );
    try {
      expect((await get(PRODUCT)).statusCode).toBe(404);
      expect(await publishDueProducts(t.database.db)).toBe(1);
      const live = await counted(() => get(PRODUCT));
      expect(live.hits).toBe(0);
      expect(live.value.statusCode).toBe(200);
    } finally {
      await t.database.db.execute(sql`update items set status = 'published' where url_id = 'linen-camp-shirt'`);
    }
  });

  it('shares a search page by its query, still counts every search against its address, and shows a write in the next search', async () => {
    let ip = 0;
    const search = (q: string, from = `198.51.100.${++ip % 250}`) =>
      t.app.inject({ method: 'GET', url: `/search?q=${encodeURIComponent(q)}`, headers: { accept: 'text/html' }, remoteAddress: from });
    const first = await search('linen');
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-robots-tag']).toBe('noindex');
    expect(first.body).toContain('Linen Camp Shirt');
    await settled();
    const again = await counted(() => search('linen'));
    expect(again.hits).toBe(1);
    expect(again.value.body).toBe(first.body);
    expect(again.value.headers['x-robots-tag']).toBe('noindex');
    // Another query is another page.
    const coffee = await counted(() => search('coffee'));
    expect(coffee.hits).toBe(0);
    expect(coffee.value.body).not.toBe(first.body);
    // Every search counts against its address, answered from the cache or not (all in one window).
    pinRateLimitClock(t);
    const statuses: number[] = [];
    for (let i = 0; i <= SEARCH_RATE.max; i++) statuses.push((await search('linen', '203.0.113.1')).statusCode);
    expect(statuses.slice(0, SEARCH_RATE.max).every((s) => s === 200)).toBe(true);
    expect(statuses[SEARCH_RATE.max]).toBe(429);
    // A write shows in the next search, on this instance and another.
    await otherDb.db.execute(sql`update items set title = 'Linen Camp Shirt, Washed' where url_id = 'linen-camp-shirt'`);
    try {
      expect((await search('linen')).body).toContain('Linen Camp Shirt, Washed');
    } finally {
      await t.database.db.execute(sql`update items set title = 'Linen Camp Shirt' where url_id = 'linen-camp-shirt'`);
    }
    expect((await search('linen')).body).not.toContain('Linen Camp Shirt, Washed');
  });

  it("keeps a noindex page's X-Robots-Tag on every copy it serves", async () => {
    const owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    const journal = (
      (await owner.get('/api/config/collections')).json().collections as Array<{
        id: string;
        urlId: string;
        title: string;
        version: number;
      }>
    ).find((c) => c.urlId === 'journal')!;
    const marked = await owner.send('PUT', `/api/config/collections/${journal.id}`, {
      version: journal.version,
      title: journal.title,
      noindex: true,
    });
    expect(marked.statusCode, marked.body).toBe(200);
    try {
      expect((await get('/journal')).headers['x-robots-tag']).toBe('noindex');
      await settled();
      const again = await counted(() => get('/journal', { 'accept-encoding': 'br' }));
      expect(again.hits).toBe(1);
      expect(again.value.headers['x-robots-tag']).toBe('noindex');
    } finally {
      await owner.send('PUT', `/api/config/collections/${journal.id}`, {
        version: marked.json().version,
        title: journal.title,
        noindex: false,
      });
    }
    await settled();
    const open = await get('/journal');
    expect(open.headers['x-robots-tag']).toBeUndefined();
  });

  it('still gives a new visitor their crumb cookie, which the shared page does not contain', async () => {
    await get(PRODUCT);
    await settled();
    const a = await counted(() => t.app.inject({ method: 'GET', url: PRODUCT }));
    expect(a.hits).toBe(1);
    const crumb = a.value.cookies.find((c) => c.name === 'crumb')?.value;
    expect(crumb).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(a.value.body).not.toContain(crumb!);
  });

  it('renders every page for itself for an owner, a signed-in site user, an unlocked page and the JSON view', async () => {
    await get(PRODUCT);
    await settled();
    for (const cookie of [
      'tessera_owner=x',
      'tessera_site_user=x',
      'SiteUserInfo=x',
      'tessera_unlock=x',
      'tessera_preview=x',
      'tessera_safe_mode=1',
    ]) {
      const r = await counted(() => get(PRODUCT, { cookie: `crumb=aaaaaaaaaaaaaaaaaaaaaaaa; ${cookie}` }));
      expect(r.hits, cookie).toBe(0);
      expect(r.value.statusCode, cookie).toBe(200);
    }
    const json = await counted(() => get(`${PRODUCT}?format=json`));
    expect(json.hits + json.misses).toBe(0);
    expect(json.value.headers['content-type']).toMatch(/json/);
  });

  it("shows a shopper's cart pill as the cart is after every write, whoever makes it (the cart calls, plain SQL, the other instance)", async () => {
    const pill = (html: string) => /data-island="CartPill" data-props="([^"]*)"/.exec(html)?.[1]?.replace(/&quot;/g, '"');
    const shopper = new Visitor(t.app);
    const page = async () => pill((await shopper.get(PRODUCT, { accept: 'text/html' })).body);
    const shirt = { itemId: t.seed.productIds['linen-camp-shirt'], sku: 'SHIRT-M-SAND', quantity: 1 };
    expect((await shopper.send('POST', '/api/commerce/shopping-cart/entries', shirt)).statusCode).toBe(200);
    const cart = sql`token_hash = ${hashToken(shopper.cookies.get('tessera_cart')!)}`;
    expect(await page()).toBe('{"totalQuantity":1,"hasCart":true}');
    expect(await page()).toBe('{"totalQuantity":1,"hasCart":true}');
    expect((await shopper.send('POST', '/api/commerce/shopping-cart/entries', shirt)).statusCode).toBe(200);
    expect(await page()).toBe('{"totalQuantity":2,"hasCart":true}');
    await t.database.db.execute(sql`update carts set total_quantity = 7 where ${cart}`);
    expect(await page()).toBe('{"totalQuantity":7,"hasCart":true}');
    // The other instance (on PGlite the same database, with its own cart service) adds to the same cart.
    const elsewhere = new Visitor(other);
    elsewhere.cookies.set('tessera_cart', shopper.cookies.get('tessera_cart')!);
    const added = await elsewhere.send('POST', '/api/commerce/shopping-cart/entries', shirt);
    expect(added.statusCode, added.body).toBe(200);
    expect(await page()).toBe('{"totalQuantity":3,"hasCart":true}');
    await t.database.db.execute(sql`delete from carts where ${cart}`);
    expect(await page()).toBe('{"totalQuantity":0}');
  });

  it('splits a kept page at its pill as its render compresses it, so no shopper waits for the parts, in brotli and gzip alike', async () => {
    const pill = (html: string) => /data-island="CartPill" data-props="([^"]*)"/.exec(html)?.[1]?.replace(/&quot;/g, '"');
    const shopper = new Visitor(t.app);
    const add = await shopper.send('POST', '/api/commerce/shopping-cart/entries', {
      itemId: t.seed.productIds['linen-camp-shirt'],
      sku: 'SHIRT-S-NAVY',
      quantity: 2,
    });
    expect(add.statusCode, add.body).toBe(200);
    const decode = (r: { rawPayload: Buffer; headers: Record<string, unknown> }) =>
      (r.headers['content-encoding'] === 'br'
        ? brotliDecompressSync(r.rawPayload)
        : r.headers['content-encoding'] === 'gzip'
          ? gunzipSync(r.rawPayload)
          : r.rawPayload
      ).toString();
    const other = new Visitor(t.app);
    expect(
      (
        await other.send('POST', '/api/commerce/shopping-cart/entries', {
          itemId: t.seed.productIds['linen-camp-shirt'],
          sku: 'SHIRT-M-SAND',
          quantity: 5,
        })
      ).statusCode,
    ).toBe(200);
    for (const [encoding, renderedBy] of [
      ['br', 'shopper'],
      ['gzip', 'shopper'],
      ['br', 'anonymous'],
      ['gzip', 'anonymous'],
    ] as const) {
      t.app.pageCache.clear();
      const withPill = (n: number) =>
        plain.replace(renderIsland('CartPill', { totalQuantity: 0 }), renderIsland('CartPill', { totalQuantity: n, hasCart: true }));
      const headers = { accept: 'text/html', 'accept-encoding': encoding };
      const partsBefore = t.app.pageCache.stats.pillParts;
      // The miss: rendered, sent in the encoding asked for, and kept with the parts made from that one compression.
      const first = await counted(() => (renderedBy === 'shopper' ? shopper.get(PRODUCT, headers) : get(PRODUCT, headers)));
      expect(first.stored, `${encoding} ${renderedBy}`).toBe(1);
      expect(first.value.headers['content-encoding']).toBe(encoding);
      expect(Number(first.value.headers['content-length'])).toBe(first.value.rawPayload.length);
      // The kept page, as it is (its script nonce is the render's).
      const plain = (await get(PRODUCT, { 'x-no-compression': '1' })).body;
      expect(decode(first.value)).toBe(renderedBy === 'shopper' ? withPill(2) : plain);
      expect(t.app.pageCache.stats.pillParts - partsBefore).toBe(1);
      // Every later copy in that encoding, shoppers' and the shared one, is put together from those parts.
      for (const [who, expected] of [
        [other, withPill(5)],
        [shopper, withPill(2)],
        [null, plain],
        [null, plain],
        [other, withPill(5)],
      ] as const) {
        const r = await counted(() => (who ? who.get(PRODUCT, headers) : get(PRODUCT, headers)));
        expect(r.hits, `${encoding} ${renderedBy}`).toBe(1);
        expect(r.value.headers['content-encoding']).toBe(encoding);
        expect(decode(r.value), `${encoding} ${renderedBy}`).toBe(expected);
        expect(pill(decode(r.value))).toBe(
          who === null
            ? '{"totalQuantity":0}'
            : who === other
              ? '{"totalQuantity":5,"hasCart":true}'
              : '{"totalQuantity":2,"hasCart":true}',
        );
      }
      expect(t.app.pageCache.stats.pillParts - partsBefore, `${encoding} ${renderedBy}`).toBe(1);
    }
    t.app.pageCache.clear();
  });

  it('reads the carts of shoppers who ask at the same time in one statement, and never misses a write committed before a shopper asked', async () => {
    // An unwatched service reads as findShared does on PostgreSQL (the app's own on PGlite follows notifications).
    const carts = new CartService(t.database);
    const shoppers = await Promise.all(
      [1, 2, 3].map(async (quantity) => {
        const v = new Visitor(t.app);
        const added = await v.send('POST', '/api/commerce/shopping-cart/entries', {
          itemId: t.seed.productIds['linen-camp-shirt'],
          sku: 'SHIRT-M-SAND',
          quantity,
        });
        expect(added.statusCode, added.body).toBe(200);
        return { token: v.cookies.get('tessera_cart')! };
      }),
    );
    const before = carts.sharedReads;
    // The first asks alone; the rest ask while its statement is in flight and share the next one.
    const found = await Promise.all([...shoppers, ...shoppers, { token: 'no-such-cart' }].map((ident) => carts.findShared(ident)));
    expect(carts.sharedReads - before).toBe(2);
    expect(found.map((c) => c?.totalQuantity ?? null)).toEqual([1, 2, 3, 1, 2, 3, null]);
    // A write committed while a statement is in flight shows to a shopper who asks after it.
    const first = carts.findShared(shoppers[0]!);
    await t.database.db.execute(sql`update carts set total_quantity = 9 where token_hash = ${hashToken(shoppers[0]!.token)}`);
    expect((await carts.findShared(shoppers[0]!))?.totalQuantity).toBe(9);
    await first;
    if (kind === 'postgres') {
      // The app reads this way on PostgreSQL: a shopper's page asks with one statement.
      const app = t.app.services.carts;
      const reads = app.sharedReads;
      const shopper = new Visitor(t.app);
      shopper.cookies.set('tessera_cart', shoppers[1]!.token);
      expect((await shopper.get(PRODUCT, { accept: 'text/html' })).body).toContain(
        '{&quot;totalQuantity&quot;:2,&quot;hasCart&quot;:true}',
      );
      expect(app.sharedReads - reads).toBe(1);
    }
  });

  it('gives a visitor with a cart the shared page with their own cart pill, and shares a page they rendered with the empty pill', async () => {
    const pill = (html: string) => /data-island="CartPill" data-props="([^"]*)"/.exec(html)?.[1]?.replace(/&quot;/g, '"');
    const shopper = new Visitor(t.app);
    const add = await shopper.send('POST', '/api/commerce/shopping-cart/entries', {
      itemId: t.seed.productIds['linen-camp-shirt'],
      sku: 'SHIRT-S-NAVY',
      quantity: 3,
    });
    expect(add.statusCode, add.body).toBe(200);
    expect(shopper.cookies.get('tessera_cart')).toBeTruthy();
    const anonymous = await get(PRODUCT);
    await settled();
    const own = await counted(() => shopper.get(PRODUCT, { accept: 'text/html' }));
    expect(own.hits).toBe(1);
    expect(pill(own.value.body)).toBe('{"totalQuantity":3,"hasCart":true}');
    expect(pill(anonymous.body)).toBe('{"totalQuantity":0}');
    const expected = anonymous.body.replace(
      renderIsland('CartPill', { totalQuantity: 0 }),
      renderIsland('CartPill', { totalQuantity: 3, hasCart: true }),
    );
    expect(own.value.body).toBe(expected);
    // In brotli or gzip, the page is compressed once per encoding (split at its pill) for every shopper, whatever their pill.
    const parts = t.app.pageCache.stats.pillParts;
    const again = await counted(() => shopper.get(PRODUCT, { accept: 'text/html', 'accept-encoding': 'br' }));
    expect(again.hits).toBe(1);
    expect(again.value.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(again.value.rawPayload).toString()).toBe(expected);
    const gz = await shopper.get(PRODUCT, { accept: 'text/html', 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(expected);
    const other = new Visitor(t.app);
    expect(
      (
        await other.send('POST', '/api/commerce/shopping-cart/entries', {
          itemId: t.seed.productIds['linen-camp-shirt'],
          sku: 'SHIRT-M-SAND',
          quantity: 2,
        })
      ).statusCode,
    ).toBe(200);
    const two = anonymous.body.replace(
      renderIsland('CartPill', { totalQuantity: 0 }),
      renderIsland('CartPill', { totalQuantity: 2, hasCart: true }),
    );
    for (const encoding of ['br', 'gzip', 'br, gzip', 'identity']) {
      const r = await counted(() => other.get(PRODUCT, { accept: 'text/html', 'accept-encoding': encoding }));
      expect(r.hits, encoding).toBe(1);
      const raw = r.value.rawPayload;
      const body =
        r.value.headers['content-encoding'] === 'br'
          ? brotliDecompressSync(raw)
          : r.value.headers['content-encoding'] === 'gzip'
            ? gunzipSync(raw)
            : raw;
      expect(body.toString(), encoding).toBe(two);
    }
    expect(t.app.pageCache.stats.pillParts - parts).toBe(2);
    // A page the shopper renders first is kept with the empty pill for everyone else.
    await t.database.db.execute(sql`update items set excerpt = excerpt where url_id = 'linen-camp-shirt'`);
    const first = await counted(() => shopper.get('/shop', { accept: 'text/html' }));
    expect(first.stored).toBe(1);
    expect(pill(first.value.body)).toBe('{"totalQuantity":3,"hasCart":true}');
    const next = await counted(() => get('/shop'));
    expect(next.hits).toBe(1);
    expect(pill(next.value.body)).toBe('{"totalQuantity":0}');
    // A cart cookie without a cart is the shared page as it is, in its stored encoding.
    const stale = await counted(() => get('/shop', { cookie: 'tessera_cart=no-such-cart', 'accept-encoding': 'br' }));
    expect(stale.hits).toBe(1);
    expect(stale.value.headers['content-encoding']).toBe('br');
  });

  it('serves a signed-in site user the shared page with their own cart pill, shares their render when it never asked who they are, and renders for them alone a page that asked or carries their language', async () => {
    const pill = (html: string) => /data-island="CartPill" data-props="([^"]*)"/.exec(html)?.[1]?.replace(/&quot;/g, '"');
    const users = new SiteUserService(t.database, { send: async () => undefined } as never);
    const id = newId();
    await t.database.db
      .insert(schema.siteUsers)
      .values({ id, websiteId: t.seed.websiteId, email: `shared-${id}@example.com`, passwordHash: 'not-a-password' });
    const token = (await users.startSession(id, true)).token;
    const signedIn = `crumb=aaaaaaaaaaaaaaaaaaaaaaaa; tessera_site_user=${token}; SiteUserInfo=${encodeURIComponent(formatSiteUserInfo({ authenticated: true, siteUserId: id }))}`;
    const asUser = (url: string, headers: Record<string, string> = {}) => get(url, { cookie: signedIn, ...headers });
    await t.database.db.execute(sql`update items set excerpt = excerpt where url_id = 'linen-camp-shirt'`);
    const anonymous = await get(PRODUCT);
    await settled();
    const same = await counted(() => asUser(PRODUCT));
    expect(same.hits).toBe(1);
    expect(same.value.body).toBe(anonymous.body);
    expect(same.value.headers['cache-control']).toBe('private, no-store');
    // Their cart follows them (found by their account, no cart cookie on this device): their own pill.
    const device = new Visitor(t.app);
    device.cookies.set('tessera_site_user', token);
    const add = await device.send('POST', '/api/commerce/shopping-cart/entries', {
      itemId: t.seed.productIds['linen-camp-shirt'],
      sku: 'SHIRT-S-NAVY',
      quantity: 2,
    });
    expect(add.statusCode, add.body).toBe(200);
    const withCart = await counted(() => asUser(PRODUCT, { 'accept-encoding': 'br' }));
    expect(withCart.hits).toBe(1);
    expect(pill(brotliDecompressSync(withCart.value.rawPayload).toString())).toBe('{"totalQuantity":2,"hasCart":true}');
    // A page a signed-in visitor renders without asking who they are is kept with the empty pill for everyone.
    await t.database.db.execute(sql`update items set excerpt = excerpt where url_id = 'linen-camp-shirt'`);
    const theirs = await counted(() => asUser(PRODUCT));
    expect([theirs.misses, theirs.stored]).toEqual([1, 1]);
    expect(pill(theirs.value.body)).toBe('{"totalQuantity":2,"hasCart":true}');
    const after = await counted(() => get(PRODUCT));
    expect(after.hits).toBe(1);
    // The same page as an anonymous render, but for the script nonce each render draws.
    const nonces = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""');
    expect(after.value.body).not.toBe(anonymous.body);
    expect(nonces(after.value.body)).toBe(nonces(anonymous.body));
    // A search whose results depend on who is signed in (a members-only journal): the anonymous page is kept
    // without the members' post; a signed-in visitor gets their own render, with it.
    const journal = t.seed.collectionIds.journal!;
    await t.database.db.execute(
      sql`update websites set settings = jsonb_set(settings, '{navigation,_memberareas}', ${JSON.stringify([{ title: 'Journal', collectionId: journal }])}::jsonb) where id = ${t.seed.websiteId}`,
    );
    try {
      const search = '/search?q=linen';
      const outside = await counted(() => get(search));
      expect(outside.stored).toBe(1);
      expect(outside.value.body).not.toContain('How we choose our linen');
      expect((await counted(() => get(search))).hits).toBe(1);
      const member = await counted(() => asUser(search));
      expect(member.hits).toBe(0);
      expect(member.value.body).toContain('How we choose our linen');
      // Nor is their render of a page that asked kept: anonymous visitors never see the members' post.
      const alone = '/search?q=choose';
      const first = await counted(() => asUser(alone));
      expect([first.misses, first.stored]).toEqual([1, 0]);
      expect(first.value.body).toContain('How we choose our linen');
      const next = await counted(() => get(alone));
      expect(next.hits).toBe(0);
      expect(next.value.body).not.toContain('How we choose our linen');
    } finally {
      await t.database.db.execute(
        sql`update websites set settings = settings #- '{navigation,_memberareas}' where id = ${t.seed.websiteId}`,
      );
    }
    // A visitor with a language of their own has it in the page's island: their own render.
    await get(PRODUCT);
    await settled();
    await t.database.db.insert(schema.siteUserProfiles).values({ siteUserId: id, language: 'fr-FR' });
    const french = await counted(() => asUser(PRODUCT));
    expect(french.hits).toBe(0);
    expect(french.value.body).toContain('"memberLocale":"fr-FR"');
  });

  it('keys pages by the consent cookies and by the host', async () => {
    await get('/journal');
    await settled();
    expect((await counted(() => get('/journal'))).hits).toBe(1);
    const choices = await counted(() => get('/journal', { cookie: 'tessera_cookie_choices=analytics' }));
    expect(choices.hits).toBe(0);
    const otherHost = await counted(() => get('/journal', { host: 'shop.example.com' }));
    expect(otherHost.hits).toBe(0);
    // Still rendered for that host on its own; its canonical address comes from the configured public origin,
    // never the Host header (server/seo).
    expect(otherHost.value.body).toContain(`<link rel="canonical" href="${listeningOrigin(t.app)}/journal">`);
    expect(otherHost.value.body).not.toContain('http://shop.example.com/journal');
  });

  it('never keeps a page that carries the visitor’s crumb (a form), nor an error or missing page', async () => {
    const alice = new Visitor(t.app);
    const bob = new Visitor(t.app);
    const a = await counted(() => alice.get('/contact'));
    const b = await counted(() => bob.get('/contact'));
    expect(a.value.statusCode).toBe(200);
    expect(a.value.body).toContain(alice.cookies.get('crumb')!);
    expect(b.value.body).toContain(bob.cookies.get('crumb')!);
    expect(b.value.body).not.toContain(alice.cookies.get('crumb')!);
    expect(a.stored + b.stored + b.hits).toBe(0);
    const missing = await counted(async () => [await get('/no-such-page'), await get('/no-such-page')]);
    expect(missing.value[1]!.statusCode).toBe(404);
    expect(missing.stored + missing.hits).toBe(0);
  });

  it('renders a page once for visitors who arrive together', async () => {
    await t.database.db.execute(sql`update items set excerpt = excerpt where url_id = 'linen-camp-shirt'`);
    const r = await counted(() => Promise.all(Array.from({ length: 12 }, () => get(PRODUCT))));
    expect(r.value.every((x) => x.statusCode === 200 && x.body === r.value[0]!.body)).toBe(true);
    expect(r.stored).toBe(1);
    expect(r.misses).toBeLessThanOrEqual(2);
  });

  /** Kept page, a write through the other instance (its own connection on PostgreSQL), then the next page. */
  const changeShows = async (path: string, write: () => Promise<unknown>, shows: (html: string) => boolean) => {
    const before = await get(path);
    expect(before.statusCode).toBe(200);
    expect(shows(before.body)).toBe(false);
    await settled();
    expect((await counted(() => get(path))).hits).toBe(1);
    await write();
    const after = await get(path);
    expect(shows(after.body)).toBe(true);
  };

  it('shows a change of a product, a collection, a comment or a page layout on the next page', async () => {
    await changeShows(
      PRODUCT,
      () => otherDb.db.execute(sql`update items set title = 'Linen Camp Shirt, kept fresh' where url_id = 'linen-camp-shirt'`),
      (h) => h.includes('Linen Camp Shirt, kept fresh'),
    );
    await changeShows(
      '/journal',
      () => otherDb.db.execute(sql`update collections set title = 'Field Notes' where url_id = 'journal'`),
      (h) => h.includes('Field Notes'),
    );
    await changeShows(
      '/journal/how-we-choose-our-linen',
      () =>
        otherDb.db.execute(
          sql`update comments set body = 'A comment changed elsewhere' where item_id = (select id from items where url_id = 'how-we-choose-our-linen') `,
        ),
      (h) => h.includes('A comment changed elsewhere'),
    );
    await changeShows(
      '/studio',
      () =>
        otherDb.db.execute(
          sql`update page_layouts set published = replace(published, 'That is the whole secret.', 'Our story, told again.')`,
        ),
      (h) => h.includes('Our story, told again.'),
    );
  });

  it('shows a change of the analytics settings, the engagement settings or a page password on the next page', async () => {
    const site = t.seed.websiteId;
    await changeShows(
      '/events',
      () =>
        otherDb.db.execute(
          sql`insert into analytics_settings (website_id, tracking_enabled) values (${site}, false) on conflict (website_id) do update set tracking_enabled = false`,
        ),
      (h) => h.includes('"track":false'),
    );
    const owner = new Visitor(other);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    await changeShows(
      '/gallery',
      async () => {
        const { popup } = JSON.parse((await owner.get('/api/config/engagement/popup')).body) as { popup: Record<string, unknown> };
        const { version: _v, ...rest } = popup;
        const r = await owner.send('PUT', '/api/config/engagement/popup', {
          ...rest,
          enabled: true,
          pages: 'all',
          title: 'A popup saved elsewhere',
        });
        expect(r.statusCode, r.body).toBe(200);
      },
      (h) => h.includes('A popup saved elsewhere'),
    );
    await changeShows(
      '/shop',
      () =>
        otherDb.db.execute(
          sql`insert into content_passwords (website_id, target, password_hash, nonce) values (${site}, (select id from collections where url_id = 'shop'), 'x', 'n1')`,
        ),
      (h) => !h.includes('Linen Camp Shirt'),
    );
  });

  it('re-renders a page older than PAGE_CACHE_SECONDS, and keeps none at 0', async () => {
    const shortLived = await otherInstance(t, { PAGE_CACHE_SECONDS: '1' });
    const switchedOff = await otherInstance(t, { PAGE_CACHE_SECONDS: '0' });
    const [short, off] = [shortLived.app, switchedOff.app];
    try {
      const visit = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/journal' });
      let now = Date.now();
      short.pageCache.now = () => now;
      await visit(short);
      await short.pageCache.idle();
      const hits = short.pageCache.stats.hits;
      now += 999;
      await visit(short);
      expect(short.pageCache.stats.hits).toBe(hits + 1);
      now += 1;
      await visit(short);
      expect(short.pageCache.stats.hits).toBe(hits + 1);
      for (let i = 0; i < 3; i++) expect((await visit(off)).statusCode).toBe(200);
      expect(off.pageCache.stats).toEqual({ hits: 0, misses: 0, stored: 0, shared: 0, pillParts: 0 });
    } finally {
      await shortLived.close();
      await switchedOff.close();
    }
  });
});

describe('page cache rules', () => {
  it('picks brotli, then gzip, by Accept-Encoding and its weights', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding('')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });

  it('knows every cookie the server or the site scripts set: private, cart, keyed, experiment or neutral', () => {
    const classified = new Set([...PRIVATE_COOKIES, ...CART_COOKIES, ...KEYED_COOKIES, ...EXPERIMENT_COOKIES, ...NEUTRAL_COOKIES]);
    const found = new Set<string>();
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.(ts|tsx)$/.test(name)) {
          for (const m of readFileSync(p, 'utf8').matchAll(/export const [A-Z_]*COOKIE[A-Z_]* = '([^']+)'/g)) found.add(m[1]!);
        }
      }
    };
    walk(join(process.cwd(), 'src'));
    expect(found.size).toBeGreaterThan(10);
    expect([...found].filter((n) => !classified.has(n))).toEqual([]);
  });
});
