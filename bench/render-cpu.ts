/**
 * Render-path CPU per request, in process and sequential (no load generator sharing the cores): the demo
 * store plus bench:pages' 50-product catalog, the page cache off (PAGE_CACHE_SECONDS=0), each page asked
 * for with `accept-encoding: gzip, br` as a browser would, and a hello-world route of the same app as the
 * peer measured in the same run. Prints the process CPU time (user + system) per request of each page,
 * measured in two rounds (alternating pages) so a neighbour's burst shows as a difference between them.
 * BENCH_CPU_PROFILE=<dir> also writes one CPU profile per page (summarise with bench/profile-summary.ts).
 *
 * Run: npx tsx bench/render-cpu.ts   (BENCH_DB=pglite,postgres, BENCH_REQUESTS=400 per page and round,
 *                                     BENCH_CART=1 to ask as a visitor with a cart, BENCH_PAGE_CACHE=1 for the
 *                                     page cache's hit path instead of the render)
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { addCatalog } from './catalog-fixture.js';
import { cpuMs } from './bench-util.js';

process.env.NODE_ENV ??= 'production';
const KINDS = (process.env.BENCH_DB ?? 'pglite,postgres').split(',').map((s) => s.trim()) as Array<'pglite' | 'postgres'>;
const N = Number(process.env.BENCH_REQUESTS ?? 400);
const PROFILE = process.env.BENCH_CPU_PROFILE;

const PAGES: Array<[string, string]> = [
  ['hello world', '/__bench/hello'],
  ['home', '/'],
  ['50-product list', '/catalog'],
  ['product page', '/shop/p/linen-camp-shirt'],
  ['journal post', '/journal/how-we-choose-our-linen'],
];

async function run(kind: 'pglite' | 'postgres') {
  const { testDatabase } = await import('../test/helpers/db.js');
  const { seedDemo } = await import('../src/server/seed.js');
  const { buildApp } = await import('../src/server/app.js');
  const { loadConfig } = await import('../src/server/config.js');
  const database = await testDatabase(kind);
  const seed = await seedDemo(database);
  await addCatalog(database, seed.websiteId);
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent', WORKERS: 'false', PAGE_CACHE_SECONDS: process.env.BENCH_PAGE_CACHE ? '3600' : '0' }),
    database,
    logger: false as never,
  });
  app.get('/__bench/hello', async () => ({ hello: 'world' }));
  await app.ready();
  const first = await app.inject({ method: 'GET', url: '/health' });
  const crumb = first.cookies.find((c) => c.name === 'crumb')?.value ?? '';
  let cookie = `crumb=${crumb}`;
  if (process.env.BENCH_CART) {
    const added = await app.inject({
      method: 'POST',
      url: '/api/commerce/shopping-cart/entries',
      headers: { cookie, 'x-csrf-token': crumb, 'content-type': 'application/json' },
      payload: JSON.stringify({ itemId: seed.productIds['linen-camp-shirt'], sku: 'SHIRT-S-NAVY', quantity: 2 }),
    });
    const cart = added.cookies.find((c) => c.name === 'tessera_cart')?.value;
    if (!cart) throw new Error(`no cart: ${added.statusCode}`);
    cookie += `; tessera_cart=${cart}`;
  }
  // BENCH_QUERIES=1: print the statements each page sends (one request per page after the warm-up).
  let seen: string[] | null = null;
  if (process.env.BENCH_QUERIES) {
    const client = (database.db as unknown as { $client: Record<string, (...a: unknown[]) => Promise<unknown>> }).$client;
    for (const m of ['query', 'exec'] as const) {
      if (typeof client[m] !== 'function') continue;
      const orig = client[m]!.bind(client);
      client[m] = async (...a: unknown[]) => {
        seen?.push(typeof a[0] === 'string' ? a[0] : String((a[0] as { text?: string })?.text ?? a[0]));
        return orig(...a);
      };
    }
  }
  const headers = { cookie, accept: 'text/html', 'accept-encoding': 'gzip, br' };
  const ask = async (url: string) => {
    const r = await app.inject({ method: 'GET', url, headers });
    if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode}`);
  };
  // Warm up every path (JIT, caches, image variants).
  for (const [, url] of PAGES) for (let i = 0; i < 60; i++) await ask(url);
  if (process.env.BENCH_QUERIES) {
    for (const [name, url] of PAGES) {
      seen = [];
      await ask(url);
      console.log(`${name}: ${seen.length} statements`);
      for (const q of seen) console.log(`    ${q.replace(/\s+/g, ' ').slice(0, 200)}`);
      seen = null;
    }
  }
  const results = new Map<string, number[]>();
  const session = PROFILE ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    mkdirSync(PROFILE!, { recursive: true });
  }
  for (let round = 0; round < 2; round++) {
    for (const [name, url] of PAGES) {
      const profiling = session && round === 0;
      if (profiling) await session!.post('Profiler.start');
      const t = cpuMs();
      for (let i = 0; i < N; i++) await ask(url);
      const per = (cpuMs() - t) / N;
      if (profiling) {
        const { profile } = await session!.post('Profiler.stop');
        writeFileSync(`${PROFILE}/${kind}-${name.replace(/\W+/g, '-')}.cpuprofile`, JSON.stringify(profile));
      }
      results.set(name, [...(results.get(name) ?? []), per]);
    }
  }
  console.log(
    `${kind}${process.env.BENCH_CART ? ' (with a cart)' : ''}: CPU ms per request, page cache ${process.env.BENCH_PAGE_CACHE ? 'on (every page a hit)' : 'off'}, two rounds`,
  );
  const hello = Math.min(...results.get('hello world')!);
  for (const [name, runs] of results) {
    const best = Math.min(...runs);
    console.log(
      `  ${name.padEnd(18)} ${runs.map((r) => r.toFixed(3).padStart(7)).join(' ')}   ${(best / hello).toFixed(1).padStart(5)}x hello world`,
    );
  }
  await app.close();
  await database.close();
}

for (const kind of KINDS) await run(kind);
