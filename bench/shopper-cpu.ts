/**
 * A shopper's CPU per request beside an anonymous visitor's, through the page cache, in process and
 * sequential (no load generator sharing the cores, so it holds on a busy machine where bench:catalog's
 * req/s swing): the demo store plus the 50-product list, six pages (home, shop, the list, journal, a
 * product, a post). One generation: a content write (every page's entry goes stale), then per page one
 * request that renders it and HITS requests answered from the cache (all anonymous, or all with a cart:
 * three carts of 1, 2 and 3 items in turn). Prints the median and best process CPU (user + system, every
 * thread, so zlib's pool too) per request of 15 generations each, alternating. Asserts nothing.
 *
 * Run: npx tsx bench/shopper-cpu.ts   (BENCH_DB=pglite,postgres, HITS=4)
 */
import { addCatalog } from './catalog-fixture.js';
import { cpuMs } from './bench-util.js';

process.env.NODE_ENV ??= 'production';
const KINDS = (process.env.BENCH_DB ?? 'pglite,postgres').split(',').map((s) => s.trim()) as Array<'pglite' | 'postgres'>;
const HITS = Number(process.env.HITS ?? 4);
const URLS = ['/', '/shop', '/catalog', '/journal', '/shop/p/linen-camp-shirt', '/journal/how-we-choose-our-linen'];

async function run(kind: 'pglite' | 'postgres') {
  const { testDatabase } = await import('../test/helpers/db.js');
  const { seedDemo } = await import('../src/server/seed.js');
  const { buildApp } = await import('../src/server/app.js');
  const { loadConfig } = await import('../src/server/config.js');
  const { sql } = await import('drizzle-orm');
  const database = await testDatabase(kind);
  const seed = await seedDemo(database);
  await addCatalog(database, seed.websiteId);
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent', WORKERS: 'false', PAGE_CACHE_SECONDS: '3600' }),
    database,
    logger: false as never,
  });
  await app.ready();
  const crumb = (await app.inject({ method: 'GET', url: '/health' })).cookies.find((c) => c.name === 'crumb')?.value ?? '';
  const anonymous = `crumb=${crumb}`;
  const carts: string[] = [];
  for (const quantity of [1, 2, 3]) {
    const added = await app.inject({
      method: 'POST',
      url: '/api/commerce/shopping-cart/entries',
      headers: { cookie: anonymous, 'x-csrf-token': crumb, 'content-type': 'application/json' },
      payload: JSON.stringify({ itemId: seed.productIds['linen-camp-shirt'], sku: 'SHIRT-S-NAVY', quantity }),
    });
    const cart = added.cookies.find((c) => c.name === 'tessera_cart')?.value;
    if (!cart) throw new Error(`no cart: ${added.statusCode}`);
    carts.push(`${anonymous}; tessera_cart=${cart}`);
  }
  const ask = async (url: string, cookie: string) => {
    const r = await app.inject({ method: 'GET', url, headers: { cookie, accept: 'text/html', 'accept-encoding': 'gzip, br' } });
    if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode}`);
  };
  /** CPU per request of one generation (encodings made off the event loop are waited for and counted). */
  const generation = async (shopper: boolean) => {
    await database.db.execute(sql`update websites set title = title`);
    let n = 0;
    const t = cpuMs();
    for (const url of URLS) {
      await ask(url, shopper ? carts[0]! : anonymous);
      await app.pageCache.idle();
      for (let i = 0; i < HITS; i++) await ask(url, shopper ? carts[i % carts.length]! : anonymous);
      await app.pageCache.idle();
      n += 1 + HITS;
    }
    return (cpuMs() - t) / n;
  };
  for (let i = 0; i < 5; i++) {
    await generation(false);
    await generation(true);
  }
  const anon: number[] = [];
  const shop: number[] = [];
  for (let i = 0; i < 15; i++) {
    anon.push(await generation(false));
    shop.push(await generation(true));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(
    `${kind}: ${HITS} hits per render; CPU ms per request, median (best): anonymous ${median(anon).toFixed(3)} (${Math.min(...anon).toFixed(3)}), ` +
      `with a cart ${median(shop).toFixed(3)} (${Math.min(...shop).toFixed(3)}); cart/anonymous ${(median(shop) / median(anon)).toFixed(2)}`,
  );
  await app.close();
  await database.close();
}

for (const kind of KINDS) await run(kind);
