/**
 * Cold-miss CPU per page type on the bench:catalog catalogue: in process, sequential, the page cache off,
 * every address asked for once after the app starts (so per-version reads, widget HTML and itemJson are
 * cold as on a long-tail miss), then once more (warm: what a repeat miss after PAGE_CACHE_SECONDS costs).
 * BENCH_CPU_PROFILE=<dir> writes a profile of each pass (<db>-cold-<type>, <db>-warm-<type>); BENCH_USER=1 asks as a
 * signed-in site user.
 *
 * Run: npx tsx bench/cold-cpu.ts   (BENCH_DB=pglite,postgres, BENCH_N=300 addresses per page type)
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { cpuMs } from './bench-util.js';

process.env.NODE_ENV ??= 'production';
const KINDS = (process.env.BENCH_DB ?? 'pglite,postgres').split(',').map((s) => s.trim()) as Array<'pglite' | 'postgres'>;
const N = Number(process.env.BENCH_N ?? 300);
const PROFILE = process.env.BENCH_CPU_PROFILE;

async function run(kind: 'pglite' | 'postgres') {
  const { testDatabase } = await import('../test/helpers/db.js');
  const { seedDemo } = await import('../src/server/seed.js');
  const { buildApp } = await import('../src/server/app.js');
  const { loadConfig } = await import('../src/server/config.js');
  const { addCatalog } = await import('./catalog.js');
  const { createSiteUser } = await import('./site-user.js');
  const database = await testDatabase(kind);
  const seed = await seedDemo(database);
  await addCatalog(database, seed.websiteId, seed.collectionIds.journal!);
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent', WORKERS: 'false', PAGE_CACHE_SECONDS: '0', TRUST_PROXY: '1' }),
    database,
    logger: false as never,
  });
  app.get('/__bench/hello', async () => ({ hello: 'world' }));
  await app.ready();
  const first = await app.inject({ method: 'GET', url: '/health' });
  const crumb = first.cookies.find((c) => c.name === 'crumb')?.value ?? '';
  let cookie = `crumb=${crumb}`;
  if (process.env.BENCH_USER) cookie += `; tessera_site_user=${await createSiteUser(database, seed.websiteId, 'cold@example.com')}`;
  let ip = 0;
  const ask = async (url: string) => {
    ip++;
    const r = await app.inject({
      method: 'GET',
      url,
      headers: { cookie, accept: 'text/html', 'x-forwarded-for': `10.9.${(ip >> 8) & 255}.${ip & 255}` },
    });
    if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode}`);
  };
  for (let i = 0; i < 200; i++) await ask('/__bench/hello');
  const words = [
    'linen',
    'walnut',
    'ceramic',
    'wool',
    'cotton',
    'oak',
    'brass',
    'glass',
    'leather',
    'paper',
    'shirt',
    'bowl',
    'lamp',
    'notes',
    'workshop',
  ];
  const types: Array<[string, string[]]> = [
    ['hello world', Array.from({ length: N }, () => '/__bench/hello')],
    ['product', Array.from({ length: N }, (_, i) => `/catalog/p/catalog-product-${i + 1}`)],
    ['post', Array.from({ length: Math.min(N, 100) }, (_, i) => `/journal/bench-post-${i + 1}`)],
    ['products list', Array.from({ length: 34 }, (_, i) => (i === 0 ? '/catalog' : `/catalog?page=${i + 1}`))],
    ['journal list', Array.from({ length: 6 }, (_, i) => (i === 0 ? '/journal' : `/journal?page=${i + 1}`))],
    [
      'search',
      Array.from(
        { length: Math.min(N, 150) },
        (_, i) => `/search?q=${encodeURIComponent(i < words.length ? words[i]! : `${words[i % words.length]} ${(i * 37) % 2000}`)}`,
      ),
    ],
  ];
  const session = PROFILE ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    mkdirSync(PROFILE!, { recursive: true });
  }
  console.log(`${kind}: CPU ms per request, page cache off, each address once cold, then once warm`);
  for (const [name, urls] of types) {
    const out: string[] = [];
    for (const pass of ['cold', 'warm']) {
      if (session) await session.post('Profiler.start');
      const t = cpuMs();
      for (const u of urls) await ask(u);
      out.push(((cpuMs() - t) / urls.length).toFixed(3).padStart(7));
      if (session) {
        const { profile } = await session.post('Profiler.stop');
        writeFileSync(`${PROFILE}/${kind}-${pass}-${name.replace(/\W+/g, '-')}.cpuprofile`, JSON.stringify(profile));
      }
    }
    console.log(`  ${name.padEnd(14)} (${String(urls.length).padStart(4)} addresses)  cold ${out[0]}  warm ${out[1]}`);
  }
  await app.close();
  await database.close();
}

for (const kind of KINDS) await run(kind);
