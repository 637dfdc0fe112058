/**
 * Add-to-cart benchmark: throughput and latency of POST /api/commerce/shopping-cart/entries on PGlite
 * and on PostgreSQL, beside two trivial routes of the same server as the ceiling (GET /health, which runs
 * `select 1`, and GET /api/commerce/shopping-cart without a cart, which touches no database).
 *
 * The server runs in a child process (so the load generator does not share its event loop); autocannon
 * drives it over loopback with 50 connections, each its own visitor with its own crumb and cart cookie.
 * Prints figures and ratios; asserts nothing.
 *
 * Run: npm run bench:cart    (BENCH_SECONDS=10, BENCH_CONNECTIONS=50, BENCH_DB=pglite,postgres,
 *                             TEST_DATABASE_URL for PostgreSQL, RATE_LIMIT_STORE=database|memory)
 */
import { startChildServer } from './child-server.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const KINDS = (process.env.BENCH_DB ?? 'pglite,postgres').split(',').map((s) => s.trim()) as Array<'pglite' | 'postgres'>;
const ADD = '/api/commerce/shopping-cart/entries';

interface Ready {
  url: string;
  visitors: Array<{ cookie: string; crumb: string }>;
  body: string;
}

// ------------------------------------------------------------------------------------------------
// Server side (child process)
// ------------------------------------------------------------------------------------------------

async function serve(kind: 'pglite' | 'postgres') {
  const { testApp, Visitor } = await import('../test/helpers/app.js');
  const t = await testApp(kind, { LOG_LEVEL: 'silent', WORKERS: 'false', RATE_LIMIT_STORE: process.env.RATE_LIMIT_STORE ?? 'database' });
  // The per-visitor limit (60 writes / 10 s) would stop a benchmark visitor; the check itself still runs.
  t.app.services.carts.writeLimit = { max: 1_000_000_000, windowMs: 10_000 };
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as { port: number }).port;
  const body = JSON.stringify({ itemId: t.seed.productIds['linen-camp-shirt'], sku: 'SHIRT-M-SAND', quantity: 1, additionalFields: null });
  const visitors: Ready['visitors'] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    const v = new Visitor(t.app);
    const res = await v.send('POST', ADD, body);
    if (res.statusCode !== 200) throw new Error(`setup add failed: ${res.statusCode} ${res.body}`);
    visitors.push({ cookie: [...v.cookies].map(([k, x]) => `${k}=${x}`).join('; '), crumb: v.cookies.get('crumb')! });
  }
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${port}`, visitors, body } satisfies Ready) + '\n');
  const stop = async () => {
    await t.close();
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
}

async function load(ready: Ready, path: string, method: 'GET' | 'POST'): Promise<Figures> {
  const autocannon = (await import('autocannon')).default;
  let n = 0;
  const result = await autocannon({
    url: ready.url + path,
    connections: CONNECTIONS,
    duration: SECONDS,
    method,
    setupClient: (client: { setHeaders(h: Record<string, string>): void; setBody(b: string): void }) => {
      const v = ready.visitors[n++ % ready.visitors.length]!;
      const headers: Record<string, string> = { cookie: v.cookie };
      if (method === 'POST') {
        headers['content-type'] = 'application/json';
        headers['x-csrf-token'] = v.crumb;
        client.setBody(ready.body);
      }
      client.setHeaders(headers);
    },
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

const start = (kind: 'pglite' | 'postgres') => startChildServer<Ready>(import.meta.url, kind);

const fmt = (f: Figures) =>
  `${f.rps.toFixed(0).padStart(7)} req/s   p50 ${String(f.p50).padStart(4)} ms   p99 ${String(f.p99).padStart(4)} ms` +
  (f.non2xx || f.errors ? `   (non-2xx ${f.non2xx}, errors ${f.errors})` : '');

async function main() {
  console.log(
    `Add to cart: ${CONNECTIONS} connections over ${CONNECTIONS} carts, ${SECONDS} s per run, loopback, rate-limit store ${process.env.RATE_LIMIT_STORE ?? 'database'}\n`,
  );
  for (const kind of KINDS) {
    const s = await start(kind);
    try {
      const health = await load(s.ready, '/health', 'GET');
      const read = await load(s.ready, '/api/commerce/shopping-cart', 'GET');
      const add = await load(s.ready, ADD, 'POST');
      console.log(`${kind}`);
      console.log(`  GET /health (select 1)        ${fmt(health)}`);
      console.log(`  GET shopping-cart (read)      ${fmt(read)}`);
      console.log(`  POST entries (add to cart)    ${fmt(add)}`);
      console.log(`  add / health ${(add.rps / health.rps).toFixed(2)}   add / cart read ${(add.rps / read.rps).toFixed(2)}`);
      if (kind === 'postgres') {
        const ok = add.rps >= 2000 && add.p99 < 30;
        console.log(`  target (>= 2000 adds/s, p99 < 30 ms): ${ok ? 'reached' : 'NOT reached'}`);
      }
      console.log('');
    } finally {
      await s.stop();
    }
  }
}

if (process.argv[2] === 'serve') await serve(process.argv[3] as 'pglite' | 'postgres');
else await main();
