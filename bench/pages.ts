/**
 * Page benchmark: req/s and latency of the home page, a 50-product list, a product page and a journal
 * post on PGlite and on PostgreSQL, beside a static-file ceiling (GET /theme/favicon.svg, served by
 * the same server in the same run, measured again right before each page).
 *
 * Each database is measured twice. 'shared' is the server as it runs: a visitor with nothing of their own
 * on the page gets the page kept for the current content version (src/server/pages/page-cache.ts), which
 * is what these connections are. 'rendered' switches that off (PAGE_CACHE_SECONDS=0), so every request
 * renders its page: what a signed-in member, a visitor with a cart or the first visitor after an edit
 * costs. The target is judged on the first; the second keeps the cost of a render in view.
 *
 * The server runs in a child process (so the load generator does not share its event loop); autocannon
 * drives it over loopback with 50 connections. Each connection is a returning visitor holding a crumb.
 * Prints figures and ratios; asserts nothing. Beside req/s it prints the server's CPU time per response
 * (user + system of the server process, all threads) and the ratio of those CPU costs: on a machine shared
 * with other work, req/s of both the page and the ceiling swing with the neighbours' load; CPU per
 * request much less so.
 *
 * Run: npm run bench:pages   (BENCH_SECONDS=10, BENCH_CONNECTIONS=50, BENCH_DB=pglite,postgres, BENCH_MODES=shared,rendered, BENCH_PAGES=home,product,journal,product-list,
 *                             TEST_DATABASE_URL for PostgreSQL, BENCH_LOG=info to log at info level to /dev/null,
 *                             BENCH_CPU_PROFILE=<dir> for one CPU profile of the server per page and mode)
 */
import { startChildServer } from './child-server.js';
import { profileRoute } from './bench-util.js';
import { addCatalog, CATALOG_SIZE } from './catalog-fixture.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const KINDS = (process.env.BENCH_DB ?? 'pglite,postgres').split(',').map((s) => s.trim()) as Array<'pglite' | 'postgres'>;
type Mode = 'shared' | 'rendered';
const MODES = (process.env.BENCH_MODES ?? 'shared,rendered').split(',').map((s) => s.trim()) as Mode[];

interface Ready {
  url: string;
  cookie: string;
  /** The same visitor's cookies once they have two shirts in their cart. */
  cartCookie: string;
}

// ------------------------------------------------------------------------------------------------
// Server side (child process)
// ------------------------------------------------------------------------------------------------

async function serve(kind: 'pglite' | 'postgres', mode: Mode) {
  // React renders islands with its production build, as a deployment would.
  process.env.NODE_ENV ??= 'production';
  const { testDatabase } = await import('../test/helpers/db.js');
  const { seedDemo } = await import('../src/server/seed.js');
  const { buildApp } = await import('../src/server/app.js');
  const { loadConfig } = await import('../src/server/config.js');
  const { createWriteStream } = await import('node:fs');
  const database = await testDatabase(kind);
  const seed = await seedDemo(database);
  await addCatalog(database, seed.websiteId);
  const level = process.env.BENCH_LOG;
  const logger = level ? { level, stream: createWriteStream('/dev/null') } : false;
  const app = await buildApp({
    config: loadConfig({
      LOG_LEVEL: (level ?? 'silent') as string,
      WORKERS: 'false',
      ...(mode === 'rendered' ? { PAGE_CACHE_SECONDS: '0' } : {}),
    }),
    database,
    logger: logger as never,
  });
  // The server's own CPU time and responses, so the parent can work out CPU milliseconds per request:
  // a figure other processes on a shared machine disturb far less than requests per second.
  let served = 0;
  app.addHook('onResponse', async () => {
    served++;
  });
  // Time the main thread spent paused in garbage collection, to tell allocation from work.
  const { PerformanceObserver } = await import('node:perf_hooks');
  let gcMs = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcMs += e.duration;
  }).observe({ entryTypes: ['gc'] });
  // Statements sent to the database (query, exec and transaction calls of the client), to see which page sends any.
  let statements = 0;
  const client = (database.db as unknown as { $client: Record<string, (...a: unknown[]) => unknown> }).$client;
  for (const m of ['query', 'exec', 'transaction', 'connect'] as const) {
    if (typeof client[m] !== 'function') continue;
    const orig = client[m]!.bind(client);
    client[m] = (...a: unknown[]) => (statements++, orig(...a));
  }
  app.get('/__bench/cpu', async () => {
    const c = process.cpuUsage();
    const u = process.resourceUsage();
    return {
      cpuMs: (c.user + c.system) / 1000,
      gcMs,
      statements,
      faults: u.minorPageFault + u.majorPageFault,
      switches: u.voluntaryContextSwitches + u.involuntaryContextSwitches,
      served,
      pageCache: app.pageCache.stats,
    };
  });
  profileRoute(app, (name) => `${kind}-${mode}-${name}`);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const first = await app.inject({ method: 'GET', url: '/health' });
  const crumb = first.cookies.find((c) => c.name === 'crumb')?.value ?? '';
  const added = await app.inject({
    method: 'POST',
    url: '/api/commerce/shopping-cart/entries',
    headers: { cookie: `crumb=${crumb}`, 'x-csrf-token': crumb, 'content-type': 'application/json' },
    payload: JSON.stringify({ itemId: seed.productIds['linen-camp-shirt'], sku: 'SHIRT-S-NAVY', quantity: 2 }),
  });
  const cart = added.cookies.find((c) => c.name === 'tessera_cart')?.value;
  if (added.statusCode !== 200 || !cart) throw new Error(`could not fill a cart: ${added.statusCode} ${added.body}`);
  process.stdout.write(
    JSON.stringify({
      url: `http://127.0.0.1:${port}`,
      cookie: `crumb=${crumb}`,
      cartCookie: `crumb=${crumb}; tessera_cart=${cart}`,
    } satisfies Ready) + '\n',
  );
  const stop = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.stdin.on('end', () => void stop());
  process.stdin.resume();
}

// ------------------------------------------------------------------------------------------------
// Load side (parent)
// ------------------------------------------------------------------------------------------------

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  kb: number;
  /** Server CPU time (all threads) per response. */
  cpuMs: number;
  /** Main-thread garbage-collection pauses per response. */
  gcMs: number;
  /** Database calls (statements, transactions, pool checkouts) per response. */
  statements: number;
  /** Page faults and context switches of the server process per response. */
  faults: number;
  switches: number;
}

const serverCpu = (ready: Ready) =>
  fetch(ready.url + '/__bench/cpu').then(
    (r) => r.json() as Promise<{ cpuMs: number; gcMs: number; statements: number; faults: number; switches: number; served: number }>,
  );

async function load(ready: Ready, path: string, seconds = SECONDS, cookie = ready.cookie): Promise<Figures> {
  const autocannon = (await import('autocannon')).default;
  const before = await serverCpu(ready);
  const result = await autocannon({
    url: ready.url + path,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { cookie, accept: 'text/html', 'accept-encoding': 'gzip, br' },
  });
  // Requests still queued when the load stops are served (and counted) before this answer.
  const after = await serverCpu(ready);
  return {
    cpuMs: (after.cpuMs - before.cpuMs) / Math.max(1, after.served - before.served - 1),
    gcMs: (after.gcMs - before.gcMs) / Math.max(1, after.served - before.served - 1),
    statements: (after.statements - before.statements) / Math.max(1, after.served - before.served - 1),
    faults: (after.faults - before.faults) / Math.max(1, after.served - before.served - 1),
    switches: (after.switches - before.switches) / Math.max(1, after.served - before.served - 1),
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    kb: result.throughput.average / Math.max(1, result.requests.average) / 1024,
  };
}

/** Waits until the server has worked off what an earlier run left queued (no response but ours for 300 ms). */
async function settle(ready: Ready): Promise<void> {
  let last = await serverCpu(ready);
  for (let i = 0; i < 200; i++) {
    await new Promise((r) => setTimeout(r, 300));
    const now = await serverCpu(ready);
    if (now.served - last.served <= 1) return;
    last = now;
  }
}

const start = (kind: 'pglite' | 'postgres', mode: Mode) => startChildServer<Ready>(import.meta.url, kind, mode);

const fmt = (f: Figures) =>
  `${f.rps.toFixed(0).padStart(7)} req/s   p50 ${String(f.p50).padStart(4)} ms   p99 ${String(f.p99).padStart(4)} ms   ${f.kb.toFixed(1).padStart(5)} KB/resp   cpu ${f.cpuMs.toFixed(2).padStart(6)} ms/req (gc ${f.gcMs.toFixed(2)}, db calls ${f.statements.toFixed(2)}, faults ${f.faults.toFixed(1)}, switches ${f.switches.toFixed(2)})` +
  (f.non2xx || f.errors ? `   (non-2xx ${f.non2xx}, errors ${f.errors})` : '');

const ALL_PAGES: Array<[string, string]> = [
  ['home page (/)', '/'],
  [`${CATALOG_SIZE}-product list`, '/catalog'],
  ['product page', '/shop/p/linen-camp-shirt'],
  ['journal post', '/journal/how-we-choose-our-linen'],
];
/** BENCH_PAGES=home,product,...: only the pages whose name starts with one of these words. */
const PAGES = process.env.BENCH_PAGES
  ? ALL_PAGES.filter(([name]) => process.env.BENCH_PAGES!.split(',').some((w) => name.replace(/^\d+-/, '').startsWith(w.trim())))
  : ALL_PAGES;

async function main() {
  console.log(`Pages: ${CONNECTIONS} connections, ${SECONDS} s per run, loopback, logging ${process.env.BENCH_LOG ?? 'off'}\n`);
  for (const kind of KINDS)
    for (const mode of MODES) {
      const s = await start(kind, mode);
      try {
        // Warm up: compile paths, fill caches, make the image variants nobody asks for here anyway.
        for (const [, path] of PAGES) await load(s.ready, path, 1);
        console.log(
          `${kind}, ${mode === 'shared' ? 'pages shared per content version (as served)' : 'every page rendered per request (PAGE_CACHE_SECONDS=0)'}`,
        );
        for (const [name, path] of PAGES) {
          // The ceiling is measured right before each page: on a shared machine the load changes from minute
          // to minute, and a ratio against an adjacent ceiling says more than one against the first.
          await settle(s.ready);
          const ceiling = await load(s.ready, '/theme/favicon.svg', Math.max(2, Math.round(SECONDS / 2)));
          console.log(`  ${'  static file (ceiling)'.padEnd(24)} ${fmt(ceiling)}`);
          await settle(s.ready);
          const profiling = process.env.BENCH_CPU_PROFILE;
          if (profiling) await fetch(`${s.ready.url}/__bench/profile/start`, { method: 'POST' });
          const f = await load(s.ready, path);
          if (profiling) await fetch(`${s.ready.url}/__bench/profile/${name.replace(/\W+/g, '-')}`, { method: 'POST' });
          const ratio = ceiling.rps > 0 ? f.rps / ceiling.rps : 0;
          const cpuRatio = f.cpuMs > 0 ? ceiling.cpuMs / f.cpuMs : 0;
          console.log(
            `  ${name.padEnd(24)} ${fmt(f)}   ${(ratio * 100).toFixed(0).padStart(3)}% of ceiling (by CPU per request ${(cpuRatio * 100).toFixed(0)}%)`,
          );
          if (path.includes('/p/') && mode === 'shared') {
            const ok = ratio >= 0.25 && f.p99 < 50;
            console.log(`  target for the product page (>= 25% of ceiling, p99 < 50 ms): ${ok ? 'reached' : 'NOT reached'}`);
            // The same page for visitors with two shirts in their cart: shared page, their own pill, compressed per request.
            await settle(s.ready);
            const carted = await load(s.ready, path, SECONDS, s.ready.cartCookie);
            console.log(
              `  ${'  with a cart'.padEnd(24)} ${fmt(carted)}   ${((carted.rps / Math.max(1, ceiling.rps)) * 100).toFixed(0).padStart(3)}% of ceiling`,
            );
          }
        }
        const { pageCache } = (await fetch(s.ready.url + '/__bench/cpu').then((r) => r.json())) as {
          pageCache: { hits: number; misses: number; stored: number };
        };
        if (mode === 'shared')
          console.log(`  page cache: ${pageCache.hits} hits, ${pageCache.misses} renders, ${pageCache.stored} pages kept`);
        console.log('');
      } finally {
        await s.stop();
      }
    }
}

if (process.argv[2] === 'serve') await serve(process.argv[3] as 'pglite' | 'postgres', (process.argv[4] ?? 'shared') as Mode);
else await main();
