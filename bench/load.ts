/**
 * npm run bench:load — a visitor mix against one, then two Tessera instances on one PostgreSQL.
 * Each autocannon connection is a visitor: home page, shop list, product page, add to cart (with its
 * own crumb and cart cookie), /cart, and a contact-form submission when the forms area offers one.
 * Prints req/s and p99 per run and the scaling ratio. Loopback only; bounded in time.
 */
import autocannon from 'autocannon';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { freePort, startServer, tempDir, waitFor, type Started } from '../test/helpers/process.js';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

interface Ctx {
  crumb: string;
  cart?: string;
  /** Each connection is a visitor from its own address (the servers trust X-Forwarded-For here). */
  ip?: string;
}

function visitorHeaders(c: Ctx): Record<string, string> {
  c.crumb ??= randomBytes(18).toString('base64url');
  c.ip ??= `10.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  return { cookie: `crumb=${c.crumb}${c.cart ? `; tessera_cart=${c.cart}` : ''}`, 'x-csrf-token': c.crumb, 'x-forwarded-for': c.ip };
}

function mix(itemId: string, formSteps: autocannon.Request[]): autocannon.Request[] {
  const withCookies = (path: string, extra: Partial<autocannon.Request> = {}): autocannon.Request => ({
    method: 'GET',
    path,
    ...extra,
    setupRequest: (req, context) => ({ ...req, headers: { ...(req.headers ?? {}), ...visitorHeaders(context as Ctx) } }),
  });
  return [
    withCookies('/'),
    withCookies('/shop'),
    withCookies('/shop/p/ceramic-pour-over-set'),
    withCookies('/api/commerce/shopping-cart/entries', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ itemId, sku: 'EBOOK-PLANTS', quantity: 1 }),
      onResponse: (_status, _body, context, headers) => {
        const set = (headers as Record<string, string | string[]>)['set-cookie'];
        for (const s of Array.isArray(set) ? set : set ? [set] : []) {
          const m = /^tessera_cart=([^;]+)/.exec(s);
          if (m) (context as Ctx).cart = m[1];
        }
      },
    }),
    withCookies('/cart'),
    ...formSteps,
  ];
}

async function run(urls: string[], requests: autocannon.Request[]) {
  const per = Math.max(1, Math.floor(CONNECTIONS / urls.length));
  const results = await Promise.all(urls.map((url) => autocannon({ url, connections: per, duration: SECONDS, requests })));
  const total = results.reduce((a, r) => a + r.requests.total, 0);
  const non2xx = results.reduce((a, r) => a + r.non2xx + r.errors, 0);
  const p99 = Math.max(...results.map((r) => r.latency.p99));
  const codes: Record<string, number> = {};
  for (const r of results)
    for (const [code, v] of Object.entries((r as unknown as { statusCodeStats: Record<string, { count: number }> }).statusCodeStats ?? {}))
      codes[code] = (codes[code] ?? 0) + v.count;
  return { rps: total / SECONDS, p99, non2xx, codes: JSON.stringify(codes) };
}

async function main() {
  const dbName = `tessera_load_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(PG_URL);
  url.pathname = `/${dbName}`;
  const servers: Started[] = [];
  const bases: string[] = [];
  const start = async () => {
    const port = await freePort();
    const s = startServer({
      DATABASE_URL: url.toString(),
      PORT: String(port),
      DATA_DIR: tempDir(),
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
    });
    servers.push(s);
    await waitFor(() => s.output().includes('Tessera is serving'), 90_000, 'an instance');
    bases.push(`http://127.0.0.1:${port}`);
  };
  try {
    await start();
    const ctx = (await (await fetch(`${bases[0]}/shop/p/houseplant-field-guide?format=json`)).json()) as { item: { id: string } };
    const formSteps: autocannon.Request[] = [
      {
        method: 'POST',
        path: '/api/form/FormSubmissionKey',
        setupRequest: (req, context) => ({ ...req, headers: visitorHeaders(context as Ctx) }),
        onResponse: (_s, body, context) => {
          try {
            (context as { key?: string }).key = (JSON.parse(body) as { key: string }).key;
          } catch {
            /* a refusal: the next step sends no key */
          }
        },
      },
      {
        method: 'POST',
        path: '/api/form/SaveFormSubmission',
        setupRequest: (req, context) => {
          const c = context as Ctx & { key?: string };
          const body = JSON.stringify({
            formId: 'contact-form',
            key: c.key,
            form: JSON.stringify({
              name: ['Load', 'Test'],
              email: 'load@example.com',
              message: 'Hello from the load test',
              topic: 'Order',
            }),
            pagePath: '/contact',
            contentSource: 'c',
          });
          return { ...req, body, headers: { 'content-type': 'application/json', ...visitorHeaders(c) } };
        },
      },
    ];
    const requests = mix(ctx.item.id, formSteps);
    console.log(`visitor mix: ${requests.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    console.log(`${CONNECTIONS} connections, ${SECONDS} s per run, PostgreSQL, loopback\n`);
    await run([bases[0]!], requests); // warm-up
    const one = await run([bases[0]!], requests);
    console.log(`one instance:  ${one.rps.toFixed(0)} req/s, p99 ${one.p99} ms, status codes ${one.codes}`);
    await start();
    const two = await run(bases, requests);
    console.log(`two instances: ${two.rps.toFixed(0)} req/s, p99 ${two.p99} ms, status codes ${two.codes}`);
    console.log(
      '(each connection is one visitor with its own address; form submissions carry no captcha solution: they are kept in the spam folder and answered 400)',
    );
    console.log(
      `scaling ratio (two / one): ${(two.rps / one.rps).toFixed(2)}x on a ${(await import('node:os')).cpus().length}-core machine shared by the load generator`,
    );
  } finally {
    for (const s of servers) s.child.kill('SIGTERM');
    await Promise.all(servers.map((s) => s.exited));
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
