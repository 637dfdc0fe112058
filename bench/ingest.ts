/**
 * Analytics ingest benchmark, on PGlite and on PostgreSQL.
 *
 * 1. Burst: autocannon with 50 connections posts batched beacons of 20 events each to POST /api/v1/events
 *    while 5 other connections load a product page; prints events/s accepted (202) and events/s stored
 *    (until the buffer is drained), and the page p50/p99 during the burst beside a quiet baseline.
 * 2. Dashboard: 1,000,000 events (90 days, 200 pages, 40 referrers, funnel, orders, vitals, errors,
 *    50,000 visitors) go through the same ingest buffer; then every dashboard query is timed over 7, 30
 *    and 90 days (the dashboard reads only the per-day roll-ups).
 *
 * The server runs in a child process (so the load generator does not share its event loop).
 * Prints figures and ratios; asserts nothing.
 *
 * Run: npm run bench:ingest   (BENCH_SECONDS=10, BENCH_CONNECTIONS=50, BENCH_DB=pglite,postgres,
 *                              BENCH_DASHBOARD_EVENTS=1000000 (0 skips), TEST_DATABASE_URL for PostgreSQL,
 *                              BENCH_PROFILE=<dir> writes a CPU profile of the server)
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface, type Interface } from 'node:readline';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PAGE_CONNECTIONS = 5;
const BATCH = 20;
const DASH_EVENTS = Number(process.env.BENCH_DASHBOARD_EVENTS ?? 1_000_000);
const KINDS = (process.env.BENCH_DB ?? 'pglite,postgres').split(',').map((s) => s.trim()) as Array<'pglite' | 'postgres'>;
const PAGE = '/shop/p/linen-camp-shirt';

// ------------------------------------------------------------------------------------------------
// Server side (child process)
// ------------------------------------------------------------------------------------------------

function rand(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

async function serve(kind: 'pglite' | 'postgres') {
  process.env.ANALYTICS_MAX_BUFFERED ??= '2000000';
  const { testApp } = await import('../test/helpers/app.js');
  const { dashboard } = await import('../src/server/analytics/queries.js');
  const { rows } = await import('../src/server/db-util.js');
  const { sql } = await import('drizzle-orm');
  const t = await testApp(kind, { LOG_LEVEL: 'silent', WORKERS: 'false', RATE_LIMIT_STORE: 'memory' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as { port: number }).port;
  const ingest = t.app.analytics.ingest;
  const siteId = t.seed.websiteId;
  const out = (o: unknown) => process.stdout.write(JSON.stringify(o) + '\n');
  out({ url: `http://127.0.0.1:${port}`, siteId });

  const count = async () => Number((await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from analytics_events`))[0].n);

  const commands = createInterface({ input: process.stdin });
  for await (const line of commands) {
    const [cmd, arg] = line.split(' ');
    if (cmd === 'stats') out({ ...ingest.stats, pending: ingest.pending });
    else if (cmd === 'drain') {
      const t0 = performance.now();
      while (ingest.pending > 0) await ingest.drain();
      out({ ms: performance.now() - t0, stored: await count() });
    } else if (cmd === 'seed') {
      const n = Number(arg);
      const r = rand(42);
      const now = Date.now();
      const pages = Array.from({ length: 200 }, (_, i) => `/shop/p/product-${i}`);
      const refs = Array.from({ length: 40 }, (_, i) => `https://ref${i}.example.org/x`);
      const uas = [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile',
        'Mozilla/5.0 (X11; Linux x86_64) Chrome/130',
        'Mozilla/5.0 (iPad; CPU OS 17_0)',
        'Mozilla/5.0 (Windows NT 10.0) Firefox/131',
      ];
      const locales = ['en-US', 'en-GB', 'fr-FR', 'de-DE', 'fr-CA', 'ja-JP', 'es-ES'];
      const steps = ['product_page_visit', 'add_to_cart', 'view_cart', 'checkout_start', 'order_placed'];
      const vitals = ['FCP', 'LCP', 'CLS', 'INP', 'TTFB', 'FID'] as const;
      const t0 = performance.now();
      const chunk = 20_000;
      for (let done = 0; done < n; done += chunk) {
        const events = [];
        for (let i = 0; i < Math.min(chunk, n - done); i++) {
          const at = new Date(now - Math.floor(r() * 90 * 86_400_000));
          const visitorId = `v${Math.floor(r() * 50_000)}`;
          const k = r();
          if (k < 0.6) {
            events.push({
              source: 'census' as const,
              name: 'view',
              at,
              visitorId,
              sessionId: null,
              path: pages[Math.floor(r() * r() * 200)],
              itemId: null,
              data: { url: 'x' },
              facts: {
                userAgent: uas[Math.floor(r() * 4)],
                locale: locales[Math.floor(r() * 7)],
                referrer: r() < 0.5 ? refs[Math.floor(r() * r() * 40)] : '',
              },
            });
          } else if (k < 0.85) {
            const s = Math.min(4, Math.floor(-Math.log(r() + 1e-9) * 0.8));
            events.push({
              source: 'event' as const,
              name: steps[s],
              at,
              visitorId,
              sessionId: null,
              path: '/shop',
              itemId: null,
              data: {},
              facts: s === 4 ? { value: 2000 + Math.floor(r() * 20_000), currency: 'USD' } : {},
            });
          } else if (k < 0.97) {
            const v = vitals[Math.floor(r() * 6)];
            const value = v === 'CLS' ? r() * r() * 0.5 : 200 + r() * r() * 5000;
            events.push({
              source: 'vital' as const,
              name: v,
              at,
              visitorId: null,
              sessionId: null,
              path: '/shop',
              itemId: null,
              data: { value },
              facts: { vital: v, vitalValue: value },
            });
          } else if (k < 0.99) {
            events.push({
              source: 'event' as const,
              name: r() < 0.5 ? 'form_submit' : 'restock_signup',
              at,
              visitorId,
              sessionId: null,
              path: '/contact',
              itemId: `item${Math.floor(r() * 20)}`,
              data: {},
              facts: { formId: `form${Math.floor(r() * 5)}` },
            });
          } else {
            const message = `TypeError: cannot read property '${Math.floor(r() * 30)}' of undefined at line ${Math.floor(r() * 1000)}`;
            events.push({
              source: 'error' as const,
              name: 'error',
              at,
              visitorId: null,
              sessionId: null,
              path: '/shop',
              itemId: null,
              data: { message },
              facts: {
                message: `Error kind ${Math.floor(r() * 25)} at ${Math.floor(r() * 99)}`,
                stack: 'at x (a.js:1:1)',
                url: 'http://x/shop',
                browser: 'Chrome',
              },
            });
          }
        }
        while (!ingest.accept(siteId, events)) await ingest.drain();
      }
      while (ingest.pending > 0) await ingest.drain();
      const ms = performance.now() - t0;
      out({
        ms,
        stored: await count(),
        daily: Number((await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from analytics_daily`))[0].n),
      });
    } else if (cmd === 'dash') {
      const iso = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);
      const res: Record<string, number[]> = {};
      for (const days of [7, 30, 90]) {
        res[days] = [];
        for (let i = 0; i < 5; i++) {
          const t0 = performance.now();
          const d = await dashboard(t.database.db, siteId, iso(days - 1), iso(0));
          res[days].push(performance.now() - t0);
          if (i === 0 && days === 90) res.check = [d.totals.pageviews, d.funnel[0].visitors, d.errors.length];
        }
      }
      out(res);
    } else if (cmd === 'quit') break;
  }
  await t.close();
  process.exit(0);
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
  ok: number;
}

function beaconBody(siteId: string, n: number): string {
  const steps = ['product_page_visit', 'add_to_cart', 'view_cart', 'related_product_display', 'reviews_tab_click'];
  return JSON.stringify(
    Array.from({ length: BATCH }, (_, i) => ({
      eventSchemaName: steps[i % steps.length],
      eventContent: JSON.stringify({
        analytics_id: `bench-${n}-${i % 7}`,
        session_id: `sess-${n}`,
        page_host: 'shop.test',
        page_path: '/shop/p/linen-camp-shirt',
        context_website_id: siteId,
        browser_language: 'en-US',
        enduser_user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130',
        resolved_locale: 'en-US',
        cart_id: null,
        num_items_in_cart: 1,
        cart_value: 7200,
        currency_code: 'USD',
        product_types_list: [1],
        purchase_type_list: ['ONE_TIME'],
        item_id: 'item1',
        event_occurrence_timestamp: Date.now(),
      }),
    })),
  );
}

async function load(url: string, opts: { connections: number; method: 'GET' | 'POST'; bodies?: string[] }): Promise<Figures> {
  const autocannon = (await import('autocannon')).default;
  let n = 0;
  const result = await autocannon({
    url,
    connections: opts.connections,
    duration: SECONDS,
    method: opts.method,
    setupClient: (client: { setHeaders(h: Record<string, string>): void; setBody(b: string): void }) => {
      if (opts.method === 'POST') {
        client.setHeaders({ 'content-type': 'text/plain;charset=UTF-8' });
        client.setBody(opts.bodies![n++ % opts.bodies!.length]!);
      }
    },
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    ok: result['2xx'],
  };
}

class Child {
  private lines: Interface;
  private waiting: Array<(l: string) => void> = [];
  constructor(private readonly proc: ReturnType<typeof spawn>) {
    this.lines = createInterface({ input: proc.stdout! });
    this.lines.on('line', (l) => this.waiting.shift()?.(l));
  }
  next<T>(): Promise<T> {
    return new Promise((resolve, reject) => {
      this.waiting.push((l) => resolve(JSON.parse(l) as T));
      this.proc.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
  }
  ask<T>(cmd: string): Promise<T> {
    const p = this.next<T>();
    this.proc.stdin!.write(cmd + '\n');
    return p;
  }
  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.proc.once('exit', () => resolve());
      this.proc.stdin!.write('quit\n');
    });
  }
}

const fmt = (f: Figures) =>
  `${f.rps.toFixed(0).padStart(7)} req/s   p50 ${String(f.p50).padStart(4)} ms   p99 ${String(f.p99).padStart(4)} ms` +
  (f.non2xx || f.errors ? `   (non-2xx ${f.non2xx}, errors ${f.errors})` : '');

async function main() {
  console.log(
    `Analytics ingest: ${CONNECTIONS} connections posting beacons of ${BATCH} events and ${PAGE_CONNECTIONS} loading ${PAGE}, ${SECONDS} s per run\n`,
  );
  for (const kind of KINDS) {
    const prof = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : [];
    const proc = spawn(process.execPath, [...prof, '--import', 'tsx', fileURLToPath(import.meta.url), 'serve', kind], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env },
    });
    const child = new Child(proc);
    try {
      const { url, siteId } = await child.next<{ url: string; siteId: string }>();
      const bodies = Array.from({ length: 200 }, (_, i) => beaconBody(siteId, i));
      console.log(kind);
      const quiet = await load(url + PAGE, { connections: PAGE_CONNECTIONS, method: 'GET' });
      console.log(`  page alone                  ${fmt(quiet)}`);
      const t0 = performance.now();
      const [burst, page] = await Promise.all([
        load(url + '/api/v1/events', { connections: CONNECTIONS, method: 'POST', bodies }),
        load(url + PAGE, { connections: PAGE_CONNECTIONS, method: 'GET' }),
      ]);
      const burstMs = performance.now() - t0;
      const drained = await child.ask<{ ms: number; stored: number }>('drain');
      const stats = await child.ask<{ accepted: number; refused: number; failedBatches: number }>('stats');
      const accepted = (burst.ok * BATCH) / (burstMs / 1000);
      const stored = drained.stored / ((burstMs + drained.ms) / 1000);
      console.log(`  beacons (20 events each)    ${fmt(burst)}`);
      console.log(`  page during the burst       ${fmt(page)}`);
      console.log(
        `  events accepted ${accepted.toFixed(0).padStart(8)} /s   stored ${stored.toFixed(0).padStart(8)} /s   (${drained.stored} stored, drained ${drained.ms.toFixed(0)} ms after the burst, refused ${stats.refused}, failed batches ${stats.failedBatches})`,
      );
      console.log(`  page p99 during / alone ${(page.p99 / Math.max(1, quiet.p99)).toFixed(2)}`);
      if (kind === 'postgres')
        console.log(
          `  target (>= 10,000 events/s stored, page p99 < 50 ms): ${stored >= 10_000 && page.p99 < 50 ? 'reached' : 'NOT reached'}`,
        );

      if (DASH_EVENTS > 0) {
        const seeded = await child.ask<{ ms: number; stored: number; daily: number }>(`seed ${DASH_EVENTS}`);
        console.log(
          `  seeded ${DASH_EVENTS.toLocaleString('en-US')} events over 90 days through the buffer in ${(seeded.ms / 1000).toFixed(1)} s (${(DASH_EVENTS / (seeded.ms / 1000)).toFixed(0)} events/s stored); ${seeded.stored.toLocaleString('en-US')} raw rows, ${seeded.daily.toLocaleString('en-US')} roll-up rows`,
        );
        const dash = await child.ask<Record<string, number[]>>('dash');
        for (const days of ['7', '30', '90']) {
          const times = [...dash[days]!].sort((a, b) => a - b);
          console.log(
            `  dashboard, ${days.padStart(2)} days: median ${times[2]!.toFixed(0).padStart(5)} ms   max ${times[4]!.toFixed(0).padStart(5)} ms   (all charts in one call; target < 1000 ms: ${times[4]! < 1000 ? 'reached' : 'NOT reached'})`,
          );
        }
      }
      console.log('');
    } finally {
      await child.stop();
    }
  }
}

if (process.argv[2] === 'serve') await serve(process.argv[3] as 'pglite' | 'postgres');
else await main();
