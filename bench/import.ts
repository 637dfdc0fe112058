/**
 * Import benchmark (issue 24): 2,000 products imported through the product CSV import job while visitors request
 * pages, in one process. First the pages are requested for BENCH_SECONDS without an import (the baseline), then
 * the same pages with the same number of concurrent visitors while the owner imports ten Shopify-format files of
 * 200 products each (a store holds at most 200 products, so each file goes to its own store), one job after the
 * other. Prints the job's progress as it goes, and page p50/p99 (ms) without and during the import.
 *
 * Pages go over loopback HTTP to the listening server; the owner's calls (sign-in, import, progress) go in-process.
 * Prints figures; asserts nothing.
 *
 * Runs on PGlite, then on PostgreSQL, each on a fresh database.
 *
 * Run: npm run bench:import   (BENCH_DB=pglite,postgres (the default) or one of them, BENCH_SECONDS=5, BENCH_CONNECTIONS=4, BENCH_PRODUCTS=2000;
 *                              TEST_DATABASE_URL for PostgreSQL)
 */
import { performance } from 'node:perf_hooks';
import { stringify } from 'csv-stringify/sync';
import { sql } from 'drizzle-orm';
import { rows } from '../src/server/db-util.js';
import { testApp, Visitor, OWNER } from '../test/helpers/app.js';
import { SHOPIFY_COLUMNS } from '../src/server/catalog/csv.js';
import { schema } from '../src/db/index.js';
import { newId } from '../src/db/ids.js';
import { CollectionType } from '../src/core/enums.js';

const KINDS = (process.env.BENCH_DB ?? 'pglite,postgres').split(',').map((k) => k.trim()) as Array<'pglite' | 'postgres'>;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 2000);
const PER_STORE = 200;
const PAGES = ['/', '/shop', '/shop/p/ceramic-pour-over-set', '/shop/p/linen-camp-shirt'];

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Sample {
  ms: number[];
  statuses: Map<number, number>;
}

/** CONNECTIONS visitors requesting the pages in turn until `stop()` says so. */
async function load(base: string, stop: () => boolean): Promise<Sample> {
  const s: Sample = { ms: [], statuses: new Map() };
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, c) => {
      for (let i = c; !stop(); i++) {
        const t0 = performance.now();
        const res = await fetch(base + PAGES[i % PAGES.length]!);
        await res.arrayBuffer();
        s.ms.push(performance.now() - t0);
        s.statuses.set(res.status, (s.statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  s.ms.sort((a, b) => a - b);
  return s;
}

const line = (label: string, s: Sample, seconds: number) =>
  `${label.padEnd(16)} ${String(s.ms.length).padStart(6)} pages  ${(s.ms.length / seconds).toFixed(1).padStart(7)} /s  p50 ${percentile(s.ms, 50).toFixed(1).padStart(7)} ms  p99 ${percentile(s.ms, 99).toFixed(1).padStart(7)} ms  max ${(s.ms.at(-1) ?? NaN).toFixed(1).padStart(7)} ms  statuses ${[...s.statuses].map(([k, v]) => `${k}:${v}`).join(' ')}`;

function csvFor(store: number, count: number): string {
  const rows = Array.from({ length: count }, (_, i) => {
    const n = store * PER_STORE + i + 1;
    const r: Record<string, string> = {
      Handle: `bench-product-${n}`,
      Title: `Bench product ${n}`,
      'Body (HTML)': `<p>Product ${n} of the import benchmark.</p>`,
      Published: 'TRUE',
      'Option1 Name': 'Title',
      'Option1 Value': 'Default Title',
      'Variant SKU': `BENCH-${n}`,
      'Variant Grams': '250',
      'Variant Inventory Tracker': 'shopify',
      'Variant Inventory Qty': String(n % 50),
      'Variant Inventory Policy': 'deny',
      'Variant Price': (10 + (n % 90)).toFixed(2),
      'Variant Requires Shipping': 'TRUE',
      'Gift Card': 'FALSE',
      Status: 'active',
    };
    return SHOPIFY_COLUMNS.map((c) => r[c] ?? '');
  });
  return stringify([[...SHOPIFY_COLUMNS], ...rows]);
}

async function bench(KIND: 'pglite' | 'postgres') {
  const t = await testApp(KIND, { RATE_LIMIT_STORE: 'memory' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  const owner = new Visitor(t.app);
  if ((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode !== 200)
    throw new Error('sign-in failed');
  const stores = Math.ceil(PRODUCTS / PER_STORE);
  const storeIds: string[] = [];
  for (let s = 0; s < stores; s++) {
    const id = newId();
    storeIds.push(id);
    await t.database.db.insert(schema.collections).values({
      id,
      websiteId: t.seed.websiteId,
      urlId: `bench-store-${s + 1}`,
      title: `Bench store ${s + 1}`,
      type: CollectionType.PRODUCTS,
      typeName: 'products',
      ordering: 50 + s,
      description: '',
    });
  }
  const files = storeIds.map((_, s) => csvFor(s, Math.min(PER_STORE, PRODUCTS - s * PER_STORE)));
  process.stdout.write(
    `import bench on ${KIND}: ${PRODUCTS} products in ${stores} files, ${CONNECTIONS} visitors requesting ${PAGES.join(', ')}\n`,
  );

  // Warm up, then the baseline.
  await load(
    base,
    (() => {
      const end = performance.now() + 1000;
      return () => performance.now() > end;
    })(),
  );
  const b0 = performance.now();
  const baseline = await load(base, () => performance.now() - b0 > SECONDS * 1000);
  const baselineSeconds = (performance.now() - b0) / 1000;

  // The import, with the same visitors.
  const cacheAt = () => ({ ...t.app.pageCache.stats });
  const c0 = cacheAt();
  let importing = true;
  const i0 = performance.now();
  const during = load(base, () => !importing);
  let imported = 0;
  try {
    for (let s = 0; s < stores; s++) {
      const r = await owner.send('POST', '/api/config/catalog/import', {
        csv: files[s],
        format: 'shopify',
        collectionId: storeIds[s],
        dryRun: false,
      });
      if (r.statusCode !== 202) throw new Error(`import ${s + 1} answered ${r.statusCode}: ${r.body.slice(0, 300)}`);
      const { jobId } = r.json() as { jobId: string };
      for (;;) {
        await new Promise((res) => setTimeout(res, 1000));
        const p = (await owner.get(`/api/config/catalog/import/${jobId}`)).json() as {
          state: string;
          done: number;
          total: number;
          created: number;
          warnings: string[];
        };
        process.stdout.write(
          `  progress ${String(imported + p.done).padStart(5)} / ${PRODUCTS}  (file ${s + 1}: ${p.done}/${p.total}, ${p.state})  ${((performance.now() - i0) / 1000).toFixed(1)} s\n`,
        );
        if (p.state === 'done' || p.state === 'failed') {
          if (p.state !== 'done') throw new Error(`import ${s + 1} ended ${p.state}: ${p.warnings.join('; ')}`);
          imported += p.done;
          break;
        }
      }
    }
  } finally {
    importing = false;
  }
  const duringSample = await during;
  const c1 = cacheAt();
  const importSeconds = (performance.now() - i0) / 1000;
  const [{ n }] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from items where url_id like 'bench-product-%'`);

  process.stdout.write(
    `\nimported ${imported} products (${n} in the database) in ${importSeconds.toFixed(1)} s, ${(imported / importSeconds).toFixed(0)} products/s\n`,
  );
  process.stdout.write(`${line('without import', baseline, baselineSeconds)}\n${line('during import', duringSample, importSeconds)}\n`);
  // Every commit that touches the catalogue moves the content version, so the shared pages render again.
  process.stdout.write(`page cache during import: ${c1.hits - c0.hits} hits, ${c1.misses - c0.misses} misses (renders)\n`);
  const ratio = (p: number) => (percentile(duringSample.ms, p) / percentile(baseline.ms, p)).toFixed(2);
  process.stdout.write(`during / without: p50 x${ratio(50)}, p99 x${ratio(99)}\n\n`);
  await t.close();
}

async function main() {
  process.env.NODE_ENV ??= 'production';
  for (const kind of KINDS) await bench(kind);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
