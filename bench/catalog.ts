/**
 * Long-tail benchmark: a shop of 2,000 products (3 variants each, a picture each, approved reviews on every
 * fourth) and 100 more journal posts, requested by 50 connections that pick addresses with a Zipf-like
 * popularity (weight 1/rank over all product, list, post and search addresses, shuffled with a fixed seed so
 * each kind has popular and rare ones). 10% of the connections hold a cart and 5% are signed in as a site
 * user (their pages are never shared). Crawler-like spread of addresses: every request comes from its own
 * made-up client address (X-Forwarded-For, TRUST_PROXY=1), as the search limit is per address.
 *
 * Per database (PGlite, PostgreSQL) one server process serves, in this order and in the same run:
 *   hello   a Fastify hello-world route of the same server (every global hook runs): the framework's ceiling;
 *   mix     the mix above, for BENCH_SECONDS (30);
 *   shopper a shopper with a cart beside an anonymous visitor: the same addresses with every connection
 *           anonymous, then with a cart, with a cart, anonymous (BENCH_SECONDS / 6 each), so both start from
 *           the same page cache state; prints each run, the two kinds put together, and their ratio
 *   (anon, cart and user, BENCH_SECONDS / 3 each, run one kind alone (user: every connection signed in); run one after the other, whichever comes
 *   first after the mix comes out ahead, as the page cache the mix left ages through it)
 * Printed for each: req/s, p50/p99 latency, errors and timeouts (10 s), non-2xx answers, the page cache's hit
 * rate and the server's CPU time (user + system, all threads) per request, and the ratio to the ceiling. On a
 * machine shared with other work, compare the ratios of one run, not absolute figures. Asserts nothing.
 *
 * Run: npm run bench:catalog   (BENCH_SECONDS=30, BENCH_CONNECTIONS=50, BENCH_DB=pglite,postgres,
 *                               BENCH_PHASES=hello,mix,shopper (or anon, cart, user), TEST_DATABASE_URL for PostgreSQL,
 *                               BENCH_ONLY=product|list|post|search|home for one page type,
 *                               BENCH_WINDOWS=<seconds> for p50/p99 per window of the run,
 *                               BENCH_CPU_PROFILE=<dir> for a CPU profile of each load phase (mix, each shopper run, anon, cart): summarise it with
 *                               `tsx bench/profile-summary.ts <file>`)
 */
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { startChildServer } from './child-server.js';
import { profileRoute } from './bench-util.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const KINDS = (process.env.BENCH_DB ?? 'pglite,postgres').split(',').map((s) => s.trim()) as Array<'pglite' | 'postgres'>;
const PHASES = (process.env.BENCH_PHASES ?? 'hello,mix,shopper').split(',').map((s) => s.trim());
const PRODUCTS = 2000;
const VARIANTS = ['S', 'M', 'L'];
const POSTS = 100;
const PRODUCTS_PAGE_SIZE = 60;
const POSTS_PAGE_SIZE = 20;
const SEARCHES = 150;
const CART_SHARE = 0.1;
const USER_SHARE = 0.05;
const TIMEOUT_MS = 10_000;

interface Ready {
  url: string;
  crumb: string;
  /** One cart cookie per connection that holds a cart. */
  carts: string[];
  /** One site-user session cookie per signed-in connection. */
  users: string[];
  paths: string[];
}

// ------------------------------------------------------------------------------------------------
// Server side (child process)
// ------------------------------------------------------------------------------------------------

export async function addCatalog(database: import('../src/db/index.js').Database, websiteId: string, journalId: string) {
  const { schema } = await import('../src/db/index.js');
  const { newId } = await import('../src/db/ids.js');
  const { CollectionType, RecordType } = await import('../src/core/enums.js');
  const pictures = [
    'linen-shirt',
    'pour-over',
    'wool-throw',
    'cutting-board',
    'gift-card',
    'bike-tune-up',
    'coffee-subscription',
    'houseplants-ebook',
  ];
  const words = ['linen', 'walnut', 'ceramic', 'wool', 'cotton', 'oak', 'brass', 'glass', 'leather', 'paper'];
  const kinds = ['shirt', 'bowl', 'throw', 'board', 'mug', 'lamp', 'wallet', 'notebook', 'vase', 'apron'];
  const now = Date.now();
  const productIds: string[] = [];
  await database.db.transaction(async (tx) => {
    const collectionId = newId();
    await tx.insert(schema.collections).values({
      id: collectionId,
      websiteId,
      urlId: 'catalog',
      title: 'Catalog',
      type: CollectionType.PRODUCTS,
      typeName: 'products',
      ordering: 20,
    });
    // Three review requests (one per order) carry the reviews: at most one review per request and product.
    const requests = [newId(), newId(), newId()];
    for (const id of requests) {
      const orderId = newId();
      await tx.insert(schema.orders).values({
        id: orderId,
        websiteId,
        idempotencyKey: `bench-${orderId}`,
        cartId: newId(),
        email: 'reviews@example.com',
        currency: 'USD',
      });
      await tx
        .insert(schema.reviewRequests)
        .values({ id, websiteId, orderId, email: 'reviews@example.com', status: 'sent', runAt: new Date(now) });
    }
    const BATCH = 250;
    for (let start = 0; start < PRODUCTS; start += BATCH) {
      const items: Array<typeof schema.items.$inferInsert> = [];
      const variants: Array<typeof schema.productVariants.$inferInsert> = [];
      const reviews: Array<typeof schema.productReviews.$inferInsert> = [];
      for (let i = start; i < Math.min(PRODUCTS, start + BATCH); i++) {
        const id = newId();
        productIds.push(id);
        const pic = pictures[i % pictures.length]!;
        const title = `${words[i % words.length]} ${kinds[Math.floor(i / words.length) % kinds.length]} ${i + 1}`;
        items.push({
          id,
          websiteId,
          collectionId,
          urlId: `catalog-product-${i + 1}`,
          title: title[0]!.toUpperCase() + title.slice(1),
          recordType: RecordType.STORE_ITEM,
          body: `<p>${title}, number ${i + 1} of the benchmark catalogue: made by hand in small batches.</p>`,
          excerpt: `${title}, number ${i + 1} of the benchmark catalogue.`,
          assets: [{ assetUrl: `/demo-media/${pic}.jpg`, originalSize: '1200x1200', mediaFocalPoint: { x: 0.5, y: 0.5 }, altText: title }],
          structuredContent: {
            productType: 1,
            isSubscribable: false,
            variantOptionOrdering: ['Size'],
            useCustomAddButtonText: false,
            customAddButtonText: '',
          },
          tags: [words[i % words.length]!],
          categories: [kinds[Math.floor(i / words.length) % kinds.length]!],
          ordering: i,
          publishOn: new Date(now - 86_400_000),
        });
        VARIANTS.forEach((size, n) =>
          variants.push({
            id: newId(),
            itemId: id,
            sku: `CAT-${i + 1}-${size}`,
            attributes: { Size: size },
            priceCents: 1000 + i * 7 + n * 200,
            qtyInStock: 5 + n,
            ordering: n,
          }),
        );
        if (i % 4 === 0) {
          requests.forEach((requestId, n) =>
            reviews.push({
              id: newId(),
              websiteId,
              itemId: id,
              requestId,
              rating: 3 + n,
              title: `Review ${n + 1}`,
              body: `Good ${title}; review ${n + 1}.`,
              authorName: `Buyer ${n + 1}`,
              status: 'approved',
              moderatedAt: new Date(now),
            }),
          );
        }
      }
      await tx.insert(schema.items).values(items);
      await tx.insert(schema.productVariants).values(variants);
      if (reviews.length) await tx.insert(schema.productReviews).values(reviews);
    }
    const posts: Array<typeof schema.items.$inferInsert> = [];
    for (let i = 0; i < POSTS; i++) {
      posts.push({
        id: newId(),
        websiteId,
        collectionId: journalId,
        urlId: `bench-post-${i + 1}`,
        title: `Notes from the workshop, part ${i + 1}`,
        recordType: RecordType.TEXT,
        body: `<p>Part ${i + 1} of our workshop notes: ${words[i % words.length]} and ${kinds[i % kinds.length]}s.</p><p>Second paragraph.</p>`,
        excerpt: `Part ${i + 1} of our workshop notes.`,
        author: 'Bench Author',
        tags: [words[i % words.length]!],
        categories: ['Notes'],
        assets: [{ assetUrl: `/demo-media/${pictures[i % pictures.length]}.jpg`, originalSize: '1200x1200', altText: `Post ${i + 1}` }],
        commentState: 1,
        publishOn: new Date(now - (i + 2) * 3_600_000),
        ordering: 100 + i,
      });
    }
    await tx.insert(schema.items).values(posts);
  });
  return productIds;
}

/** Every address the connections pick from, most popular first (a fixed shuffle of all of them). */
function addresses(): string[] {
  const list: string[] = [];
  for (let i = 1; i <= PRODUCTS; i++) list.push(`/catalog/p/catalog-product-${i}`);
  for (let p = 1; p <= Math.ceil(PRODUCTS / PRODUCTS_PAGE_SIZE); p++) list.push(p === 1 ? '/catalog' : `/catalog?page=${p}`);
  list.push('/shop', '/');
  for (let p = 1; p <= Math.ceil((POSTS + 9) / POSTS_PAGE_SIZE); p++) list.push(p === 1 ? '/journal' : `/journal?page=${p}`);
  for (let i = 1; i <= POSTS; i++) list.push(`/journal/bench-post-${i}`);
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
  for (let i = 0; i < SEARCHES; i++)
    list.push(`/search?q=${encodeURIComponent(i < words.length ? words[i]! : `${words[i % words.length]} ${(i * 37) % PRODUCTS}`)}`);
  // A fixed shuffle (mulberry32), so popular and rare addresses of every kind are mixed.
  let seed = 0x2f6b1d;
  const rand = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

async function serve(kind: 'pglite' | 'postgres') {
  process.env.NODE_ENV ??= 'production';
  const { testDatabase } = await import('../test/helpers/db.js');
  const { seedDemo } = await import('../src/server/seed.js');
  const { buildApp } = await import('../src/server/app.js');
  const { loadConfig } = await import('../src/server/config.js');
  const { createSiteUser } = await import('./site-user.js');
  const database = await testDatabase(kind);
  const seed = await seedDemo(database);
  const productIds = await addCatalog(database, seed.websiteId, seed.collectionIds.journal!);
  const app = await buildApp({
    config: loadConfig({
      LOG_LEVEL: 'silent',
      WORKERS: 'false',
      TRUST_PROXY: '1',
      ...(process.env.BENCH_PAGE_CACHE_MB ? { PAGE_CACHE_MB: process.env.BENCH_PAGE_CACHE_MB } : {}),
    }),
    database,
    logger: false,
  });
  // BENCH_QUERIES=1: time every statement the pages send (by its text), printed by the parent after the mix.
  const queries = new Map<string, { n: number; ms: number }>();
  if (process.env.BENCH_QUERIES) {
    const client = (database.db as unknown as { $client: Record<string, (...a: unknown[]) => Promise<unknown>> }).$client;
    for (const m of ['query', 'exec'] as const) {
      // node-postgres's pool has no exec (PGlite has both).
      if (typeof client[m] !== 'function') continue;
      const orig = client[m]!.bind(client);
      client[m] = async (...a: unknown[]) => {
        const t0 = performance.now();
        try {
          return await orig(...a);
        } finally {
          const text = typeof a[0] === 'string' ? a[0] : String((a[0] as { text?: string })?.text ?? a[0]);
          const q = queries.get(text) ?? { n: 0, ms: 0 };
          q.n++;
          q.ms += performance.now() - t0;
          queries.set(text, q);
        }
      };
    }
  }
  app.get('/__bench/loads', async () => Object.fromEntries(app.siteCache.loads));
  app.get('/__bench/queries', async () =>
    [...queries]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, 25)
      .map(([text, q]) => ({ ...q, text: text.replace(/\s+/g, ' ').slice(0, 300) })),
  );
  let served = 0;
  app.addHook('onResponse', async () => {
    served++;
  });
  app.get('/__bench/cpu', async () => {
    const c = process.cpuUsage();
    return { cpuMs: (c.user + c.system) / 1000, served, pageCache: app.pageCache.stats, size: app.pageCache.size };
  });
  app.get('/__bench/hello', async () => ({ hello: 'world' }));
  profileRoute(app, (name) => `${kind}-${name}`);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const first = await app.inject({ method: 'GET', url: '/health' });
  const crumb = first.cookies.find((c) => c.name === 'crumb')?.value ?? '';
  const carts: string[] = [];
  for (let i = 0; i < Math.max(1, Math.round(CONNECTIONS * CART_SHARE)); i++) {
    const added = await app.inject({
      method: 'POST',
      url: '/api/commerce/shopping-cart/entries',
      headers: { cookie: `crumb=${crumb}`, 'x-csrf-token': crumb, 'content-type': 'application/json' },
      payload: JSON.stringify({ itemId: productIds[i], sku: `CAT-${i + 1}-M`, quantity: 1 + (i % 3) }),
    });
    const cart = added.cookies.find((c) => c.name === 'tessera_cart')?.value;
    if (added.statusCode !== 200 || !cart) throw new Error(`could not fill a cart: ${added.statusCode} ${added.body}`);
    carts.push(`tessera_cart=${cart}`);
  }
  const users: string[] = [];
  for (let i = 0; i < Math.max(1, Math.round(CONNECTIONS * USER_SHARE)); i++)
    users.push(`tessera_site_user=${await createSiteUser(database, seed.websiteId, `bench-${i}@example.com`)}`);
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${port}`, crumb, carts, users, paths: addresses() } satisfies Ready) + '\n');
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
  errors: number;
  timeouts: number;
  non2xx: number;
  cpuMs: number;
  hitRate: number | null;
  /** What the figures were made from (so runs can be put together: see combine). */
  raw: { latencies: number[]; seconds: number; cpuMs: number; served: number; hits: number; misses: number };
}

/** Several runs' figures as one run: requests over the summed time, quantiles of all their latencies. */
function combine(runs: Figures[]): Figures {
  const latencies = runs.flatMap((r) => r.raw.latencies).sort((a, b) => a - b);
  const sum = (f: (r: Figures['raw']) => number) => runs.reduce((n, r) => n + f(r.raw), 0);
  const at = (q: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! : 0);
  const hits = sum((r) => r.hits);
  const misses = sum((r) => r.misses);
  return {
    rps: latencies.length / sum((r) => r.seconds),
    p50: at(0.5),
    p99: at(0.99),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    timeouts: runs.reduce((n, r) => n + r.timeouts, 0),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    cpuMs:
      sum((r) => r.cpuMs) /
      Math.max(
        1,
        sum((r) => r.served),
      ),
    hitRate: hits + misses > 0 ? hits / (hits + misses) : null,
    raw: { latencies, seconds: sum((r) => r.seconds), cpuMs: sum((r) => r.cpuMs), served: sum((r) => r.served), hits, misses },
  };
}

interface ServerStats {
  cpuMs: number;
  served: number;
  pageCache: { hits: number; misses: number };
  size: { entries: number; bytes: number };
}

const serverStats = (ready: Ready) => fetch(ready.url + '/__bench/cpu').then((r) => r.json() as Promise<ServerStats>);

/** Zipf-like pick over `n` ranks (weight 1/rank): a cumulative table and a binary search. */
function zipf(n: number): () => number {
  const cum = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) cum[i] = total += 1 / (i + 1);
  return () => {
    const x = Math.random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

type Role = 'anon' | 'cart' | 'user';

/** The page type of an address (BENCH_ONLY=product|list|post|search|home keeps one). */
function kindOf(path: string): string {
  if (path.includes('/p/')) return 'product';
  if (path.startsWith('/search')) return 'search';
  if (path === '/') return 'home';
  if (/^\/journal\/./.test(path)) return 'post';
  return 'list';
}

const profile = async (ready: Ready, name: string) => {
  if (process.env.BENCH_CPU_PROFILE) await fetch(`${ready.url}/__bench/profile/${name}`, { method: 'POST' });
};

/** `connections` loops of keep-alive requests for `seconds`; `next` gives each request's path. */
async function load(ready: Ready, seconds: number, roles: Role[], next: () => string): Promise<Figures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: roles.length });
  const target = new URL(ready.url);
  const latencies: number[] = [];
  /** BENCH_WINDOWS=<seconds>: latencies by the window their request started in (printed per window). */
  const windowed = new Map<number, number[]>();
  const windowMs = Number(process.env.BENCH_WINDOWS ?? 0) * 1000;
  let errors = 0;
  let timeouts = 0;
  let non2xx = 0;
  const before = await serverStats(ready);
  const started = performance.now();
  const until = started + seconds * 1000;
  let ip = 0;
  const one = (path: string, cookie: string) =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      ip = (ip + 1) % 16_000_000;
      const req = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path,
          headers: {
            cookie,
            accept: 'text/html',
            'accept-encoding': 'gzip, br',
            'x-forwarded-for': `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`,
          },
          timeout: TIMEOUT_MS,
        },
        (res) => {
          res.on('data', () => undefined);
          res.on('end', () => {
            latencies.push(performance.now() - t0);
            if (windowMs > 0) {
              const w = Math.floor((t0 - started) / windowMs);
              const list = windowed.get(w) ?? [];
              list.push(performance.now() - t0);
              windowed.set(w, list);
            }
            if ((res.statusCode ?? 0) >= 300) non2xx++;
            resolve();
          });
          res.on('error', () => {
            errors++;
            resolve();
          });
        },
      );
      req.on('timeout', () => {
        timeouts++;
        req.destroy(new Error('timeout'));
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end();
    });
  let carts = 0;
  let users = 0;
  await Promise.all(
    roles.map(async (role) => {
      const own =
        role === 'cart' ? ready.carts[carts++ % ready.carts.length] : role === 'user' ? ready.users[users++ % ready.users.length] : null;
      const cookie = `crumb=${ready.crumb}${own ? `; ${own}` : ''}`;
      while (performance.now() < until) await one(next(), cookie);
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  const after = await serverStats(ready);
  latencies.sort((a, b) => a - b);
  for (const [w, list] of [...windowed].sort((a, b) => a[0] - b[0])) {
    list.sort((a, b) => a - b);
    const q = (f: number) => list[Math.min(list.length - 1, Math.floor(f * list.length))]!.toFixed(1);
    console.log(
      `    ${String((w * windowMs) / 1000).padStart(4)} s  ${String(list.length).padStart(6)} requests   p50 ${q(0.5).padStart(6)} ms   p99 ${q(0.99).padStart(7)} ms   max ${q(1).padStart(7)} ms`,
    );
  }
  const at = (q: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! : 0);
  const hits = after.pageCache.hits - before.pageCache.hits;
  const misses = after.pageCache.misses - before.pageCache.misses;
  return {
    rps: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    errors,
    timeouts,
    non2xx,
    cpuMs: (after.cpuMs - before.cpuMs) / Math.max(1, after.served - before.served - 1),
    hitRate: hits + misses > 0 ? hits / (hits + misses) : null,
    raw: {
      latencies,
      seconds: elapsed,
      cpuMs: after.cpuMs - before.cpuMs,
      served: Math.max(1, after.served - before.served - 1),
      hits,
      misses,
    },
  };
}

/** Waits until the server has worked off what an earlier run left queued (no response but ours for 300 ms). */
async function settle(ready: Ready): Promise<void> {
  let last = await serverStats(ready);
  for (let i = 0; i < 200; i++) {
    await new Promise((r) => setTimeout(r, 300));
    const now = await serverStats(ready);
    if (now.served - last.served <= 1) return;
    last = now;
  }
}

/** The page cache's size now (entries and megabytes kept). */
const sizeNow = async (ready: Ready) => {
  const { size } = await serverStats(ready);
  return `    page cache now: ${size.entries} entries, ${(size.bytes / 1048576).toFixed(1)} MB`;
};

const fmt = (name: string, f: Figures, ceiling: Figures | null) =>
  `  ${name.padEnd(34)} ${f.rps.toFixed(0).padStart(6)} req/s   p50 ${f.p50.toFixed(1).padStart(6)} ms   p99 ${f.p99.toFixed(1).padStart(7)} ms   cpu ${f.cpuMs.toFixed(2).padStart(5)} ms/req` +
  (f.hitRate === null ? '' : `   page cache hits ${(f.hitRate * 100).toFixed(0).padStart(3)}%`) +
  (ceiling ? `   ${((f.rps / Math.max(1, ceiling.rps)) * 100).toFixed(0).padStart(3)}% of ceiling` : '') +
  `   errors ${f.errors}, timeouts ${f.timeouts}, non-2xx ${f.non2xx}`;

function rolesOf(mix: boolean, only: Role = 'anon'): Role[] {
  if (!mix) return Array.from({ length: CONNECTIONS }, () => only);
  const carts = Math.round(CONNECTIONS * CART_SHARE);
  const users = Math.round(CONNECTIONS * USER_SHARE);
  return Array.from({ length: CONNECTIONS }, (_, i) => (i < carts ? 'cart' : i < carts + users ? 'user' : 'anon'));
}

async function main() {
  console.log(
    `Catalogue: ${PRODUCTS} products x ${VARIANTS.length} variants, ${POSTS} more journal posts; ${CONNECTIONS} connections, Zipf-like popularity, mix for ${SECONDS} s`,
  );
  for (const kind of KINDS) {
    const s = await startChildServer<Ready>(import.meta.url, kind);
    try {
      const { ready } = s;
      const only = process.env.BENCH_ONLY;
      const paths = only ? ready.paths.filter((p) => kindOf(p) === only) : ready.paths;
      const pick = zipf(paths.length);
      const next = () => paths[pick()]!;
      const short = Math.max(3, Math.round(SECONDS / 3));
      const mixRoles = rolesOf(true);
      console.log(
        `\n${kind}: ${paths.length} addresses${only ? ` (only ${only} pages)` : ''}; the mix has ${mixRoles.filter((r) => r === 'cart').length} connections with a cart and ${mixRoles.filter((r) => r === 'user').length} signed in`,
      );
      // Warm up: compile paths and let the server settle after seeding (the page cache starts cold for the mix).
      await load(ready, 2, rolesOf(false), () => '/__bench/hello');
      let ceiling: Figures | null = null;
      for (const phase of PHASES) {
        await settle(ready);
        if (phase === 'hello') {
          ceiling = await load(ready, short, rolesOf(false), () => '/__bench/hello');
          console.log(fmt('hello world (ceiling)', ceiling, null));
        } else if (phase === 'mix') {
          await profile(ready, 'start');
          const f = await load(ready, SECONDS, mixRoles, next);
          await profile(ready, `mix${only ? `-${only}` : ''}`);
          console.log(fmt('catalogue mix', f, ceiling));
          console.log(await sizeNow(ready));
          if (process.env.BENCH_QUERIES) {
            const qs = (await fetch(`${ready.url}/__bench/queries`).then((r) => r.json())) as Array<{
              n: number;
              ms: number;
              text: string;
            }>;
            for (const q of qs) console.log(`    ${String(q.n).padStart(6)} x ${(q.ms / q.n).toFixed(2).padStart(6)} ms  ${q.text}`);
            console.log(
              `    site-cache loads per area (from the start): ${JSON.stringify(await fetch(`${ready.url}/__bench/loads`).then((r) => r.json()))}`,
            );
          }
          const ok = f.errors + f.timeouts === 0 && f.p99 < (kind === 'postgres' ? 50 : 100) && (!ceiling || f.rps >= 0.25 * ceiling.rps);
          console.log(
            `  target (p99 < ${kind === 'postgres' ? 50 : 100} ms, no errors or timeouts, >= 25% of ceiling): ${ok ? 'reached' : 'NOT reached'}`,
          );
        } else if (phase === 'shopper') {
          // A shopper beside an anonymous visitor from the same cache state: runs in the order anonymous, cart,
          // cart, anonymous (each BENCH_SECONDS / 6), so what the phase before leaves in the page cache, and
          // how it ages, weighs the same on both (run one after the other, the first after the mix came out
          // ahead whichever it was).
          const runs: Record<'anon' | 'cart', Figures[]> = { anon: [], cart: [] };
          for (const [i, role] of (['anon', 'cart', 'cart', 'anon'] as const).entries()) {
            await settle(ready);
            await profile(ready, 'start');
            const f = await load(ready, Math.max(2, short / 2), rolesOf(false, role), next);
            await profile(ready, `shopper-${i + 1}-${role}${only ? `-${only}` : ''}`);
            console.log(fmt(`  ${i + 1}. ${role === 'anon' ? 'anonymous' : 'with a cart'}`, f, ceiling));
            console.log(await sizeNow(ready));
            runs[role].push(f);
          }
          const anon = combine(runs.anon);
          const cart = combine(runs.cart);
          console.log(fmt('every connection anonymous', anon, ceiling));
          console.log(fmt('every connection with a cart', cart, ceiling));
          console.log(
            `  a shopper with a cart: ${((cart.rps / anon.rps) * 100).toFixed(0)}% of an anonymous visitor's req/s (target: at least 80%)`,
          );
        } else if (phase === 'anon' || phase === 'cart' || phase === 'user') {
          await profile(ready, 'start');
          const f = await load(ready, short, rolesOf(false, phase), next);
          await profile(ready, `${phase}${only ? `-${only}` : ''}`);
          console.log(
            fmt(
              phase === 'anon'
                ? 'every connection anonymous'
                : phase === 'cart'
                  ? 'every connection with a cart'
                  : 'every connection signed in',
              f,
              ceiling,
            ),
          );
          if (process.env.BENCH_QUERIES) {
            const qs = (await fetch(`${ready.url}/__bench/queries`).then((r) => r.json())) as Array<{
              n: number;
              ms: number;
              text: string;
            }>;
            console.log('    statements from the start:');
            for (const q of qs.slice(0, 8))
              console.log(`    ${String(q.n).padStart(6)} x ${(q.ms / q.n).toFixed(2).padStart(6)} ms  ${q.text}`);
          }
        }
      }
    } finally {
      await s.stop();
    }
  }
}

if (process.argv[2] === 'serve') await serve(process.argv[3] as 'pglite' | 'postgres');
else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
