/**
 * Byte comparison of every demo page, rendered with the page cache off: run it on one commit, then on
 * another, and compare the two folders. Used to show that a render-path change serves the same bytes.
 *
 *   tsx bench/page-bytes.ts write <out-dir> [<db-file>]   renders every page into <out-dir>
 *   tsx bench/page-bytes.ts compare <dir-a> <dir-b>       lists every page that differs (exit 1 if any)
 *
 * The database is the demo store seeded once and kept as a PGlite dump in <db-file> (default
 * /tmp/tessera-page-bytes.tar.gz; made on the first run, with a cart, a signed-in site user and a cart of
 * theirs), so both runs read the same rows and ids. The visitor's crumb and the response's CSP nonce
 * differ per request and are replaced by fixed markers; nothing else is touched. Each page is fetched as
 * four visitors: anonymous, with a cart, signed in (site user with a cart), and anonymous again with
 * `?format=json` for the pages that have a JSON view. PAGE_BYTES_ENCODING=br (or gzip) asks for every page
 * compressed, as a browser does, and writes it decoded. Prints the number of pages and differences;
 * asserts nothing about time.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { createSiteUser } from './site-user.js';

process.env.NODE_ENV ??= 'production';

/**
 * The clock stands still at a fixed instant (a day after the dump was made), so wording such as 'about a
 * minute ago' and the copyright year are the same in both runs: Date.now() and `new Date()` answer it.
 */
function freezeClock(at: number) {
  const Real = Date;
  class Frozen extends Real {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(at);
      else super(...(args as [number]));
    }
    static override now() {
      return at;
    }
  }
  globalThis.Date = Frozen as DateConstructor;
}

interface Fixture {
  /** The instant the clock stands at while pages are rendered. */
  at: number;
  cartCookie: string;
  userCookie: string;
}

async function openDb(file: string): Promise<{ database: import('../src/db/index.js').Database; fixture: Fixture }> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { open } = await import('../src/db/index.js');
  const fixtureFile = `${file}.json`;
  if (existsSync(file) && existsSync(fixtureFile)) {
    const pglite = new PGlite({ loadDataDir: new Blob([readFileSync(file)]) });
    // Migrated to this checkout (a dump made by an older commit gets the newer migrations).
    return { database: await open({ pglite }), fixture: JSON.parse(readFileSync(fixtureFile, 'utf8')) as Fixture };
  }
  const pglite = new PGlite();
  const database = await open({ pglite });
  const { seedDemo } = await import('../src/server/seed.js');
  const seed = await seedDemo(database);
  const { buildApp } = await import('../src/server/app.js');
  const { loadConfig } = await import('../src/server/config.js');
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent', WORKERS: 'false', PAGE_CACHE_SECONDS: '0' }),
    database,
    logger: false,
  });
  const first = await app.inject({ method: 'GET', url: '/health' });
  const crumb = first.cookies.find((c) => c.name === 'crumb')?.value ?? '';
  const add = async (cookie: string) => {
    const r = await app.inject({
      method: 'POST',
      url: '/api/commerce/shopping-cart/entries',
      headers: { cookie, 'x-csrf-token': crumb, 'content-type': 'application/json' },
      payload: JSON.stringify({ itemId: seed.productIds['linen-camp-shirt'], sku: 'SHIRT-S-NAVY', quantity: 2 }),
    });
    if (r.statusCode !== 200) throw new Error(`could not fill a cart: ${r.statusCode} ${r.body}`);
    return r.cookies.find((c) => c.name === 'tessera_cart')?.value;
  };
  const cart = await add(`crumb=${crumb}`);
  const user = await createSiteUser(database, seed.websiteId, 'bytes@example.com');
  await add(`crumb=${crumb}; tessera_site_user=${user}`);
  await app.close();
  const fixture: Fixture = { at: Date.now() + 86_400_000, cartCookie: `tessera_cart=${cart}`, userCookie: `tessera_site_user=${user}` };
  const dump = await pglite.dumpDataDir('gzip');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  writeFileSync(fixtureFile, JSON.stringify(fixture));
  return { database, fixture };
}

async function write(out: string, dbFile: string) {
  const { database, fixture } = await openDb(dbFile);
  freezeClock(fixture.at);
  const { buildApp } = await import('../src/server/app.js');
  const { loadConfig } = await import('../src/server/config.js');
  const { sql } = await import('drizzle-orm');
  const { rows } = await import('../src/server/db-util.js');
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent', WORKERS: 'false', PAGE_CACHE_SECONDS: '0' }),
    database,
    logger: false,
  });
  const first = await app.inject({ method: 'GET', url: '/health' });
  const crumb = first.cookies.find((c) => c.name === 'crumb')?.value ?? '';
  const cols = await rows<{ id: string; url_id: string; type_name: string; type: number }>(
    database.db,
    sql`select id, url_id, type_name, type from collections where enabled order by ordering, url_id`,
  );
  const urls = new Set<string>([
    '/',
    '/search',
    '/search?q=linen',
    '/search?q=nothing-matches-this',
    '/cart',
    '/no-such-page',
    '/shop/p/no-such-product',
  ]);
  for (const c of cols) {
    urls.add(`/${c.url_id}`);
    urls.add(`/${c.url_id}?page=2`);
    const items = await rows<{ url_id: string; tags: string[] | null; categories: string[] | null }>(
      database.db,
      sql`select url_id, tags, categories from items where collection_id = ${c.id} order by url_id`,
    );
    for (const i of items) {
      urls.add(c.type_name === 'products' ? `/${c.url_id}/p/${i.url_id}` : `/${c.url_id}/${i.url_id}`);
      for (const t of i.tags ?? []) urls.add(`/${c.url_id}?tag=${encodeURIComponent(t)}`);
      for (const t of i.categories ?? []) urls.add(`/${c.url_id}?category=${encodeURIComponent(t)}`);
    }
    if (c.type_name === 'blog') urls.add(`/${c.url_id}?format=rss`);
    if (c.type_name === 'events') urls.add(`/${c.url_id}?view=past`);
  }
  // PAGE_BYTES_ENCODING=br|gzip: ask for pages compressed as a browser does (each is decoded before it is written).
  const encoding = process.env.PAGE_BYTES_ENCODING;
  const visitors: Array<[string, string]> = [
    ['anon', `crumb=${crumb}`],
    ['cart', `crumb=${crumb}; ${fixture.cartCookie}`],
    ['user', `crumb=${crumb}; ${fixture.userCookie}`],
  ];
  mkdirSync(out, { recursive: true });
  let n = 0;
  const list = [...urls].sort();
  for (const url of [
    ...list,
    ...list.filter((u) => !u.includes('format=')).map((u) => u + (u.includes('?') ? '&' : '?') + 'format=json'),
  ]) {
    for (const [who, cookie] of url.includes('format=json') ? visitors.slice(0, 1) : visitors) {
      const r = await app.inject({
        method: 'GET',
        url,
        headers: { cookie, accept: 'text/html', ...(encoding ? { 'accept-encoding': encoding } : {}) },
      });
      const nonce = /'nonce-([^']+)'/.exec(String(r.headers['content-security-policy'] ?? ''))?.[1];
      const coded = String(r.headers['content-encoding'] ?? '');
      const text =
        coded === 'br'
          ? brotliDecompressSync(r.rawPayload).toString()
          : coded === 'gzip'
            ? gunzipSync(r.rawPayload).toString()
            : coded === 'deflate'
              ? inflateSync(r.rawPayload).toString()
              : r.body;
      let body = text.split(crumb).join('[crumb]');
      if (nonce) body = body.split(nonce).join('[nonce]');
      const headers = Object.entries(r.headers)
        .filter(([k]) => !['date', 'set-cookie', 'x-request-id', 'content-length', 'content-security-policy'].includes(k))
        .map(([k, v]) => `${k}: ${String(v)}`)
        .sort()
        .join('\n');
      const name = `${who} ${url}`.replace(/[^a-zA-Z0-9._=-]+/g, '_');
      writeFileSync(join(out, name), `${r.statusCode}\n${headers}\n\n${body}`);
      n++;
    }
  }
  await app.close();
  await database.close();
  console.log(`${n} responses written to ${out}`);
}

function compare(a: string, b: string) {
  const names = new Set([...readdirSync(a), ...readdirSync(b)]);
  let differ = 0;
  for (const name of [...names].sort()) {
    const x = existsSync(join(a, name)) ? readFileSync(join(a, name)) : null;
    const y = existsSync(join(b, name)) ? readFileSync(join(b, name)) : null;
    if (!x || !y || !x.equals(y)) {
      differ++;
      console.log(`differs: ${name}${!x ? ' (only in the second)' : !y ? ' (only in the first)' : ''}`);
    }
  }
  console.log(`${names.size} responses compared, ${differ} differ`);
  if (differ) process.exitCode = 1;
}

const [cmd, x, y] = process.argv.slice(2);
if (cmd === 'write' && x) await write(x, y ?? '/tmp/tessera-page-bytes.tar.gz');
else if (cmd === 'compare' && x && y) compare(x, y);
else {
  console.error('usage: tsx bench/page-bytes.ts write <out-dir> [<db-file>] | compare <dir-a> <dir-b>');
  process.exitCode = 2;
}
