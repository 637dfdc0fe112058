import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { testDatabase } from '../../helpers/db.js';
import { tree } from '../../helpers/tar.js';
import { rows } from '../../../src/server/db-util.js';
import { SHOPIFY_COLUMNS, SQUARESPACE_COLUMNS } from '../../../src/server/catalog/csv.js';
import { BackupError, restoreBackup, writeBackupFile } from '../../../src/server/backup/archive.js';

/** A small deterministic random source, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEGMENTS = [
  'x',
  '0',
  '-1',
  '1e309',
  'null',
  '%00',
  '..%2f..%2fetc%2fpasswd',
  '../../etc/passwd',
  '%2e%2e%2f',
  '🙂',
  'a'.repeat(300),
  "1' OR '1'='1",
  '<script>alert(1)</script>',
  '%ff%fe',
  '9'.repeat(40),
];

function nested(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)]!;
}

function bodyFor(r: () => number): { payload: string | Buffer; type: string } {
  const weird: unknown[] = [null, 1, -1, 1.5, 'abc', true, [], {}, [1, 2], { a: { b: { c: 1 } } }, 'x'.repeat(5000), 1e308, -0];
  const fields = [
    'itemId',
    'sku',
    'quantity',
    'additionalFields',
    'email',
    'password',
    'form',
    'key',
    'productId',
    'variantId',
    'siteVisitorEmail',
    'header',
    'footer',
    'languages',
    'title',
    'data',
    'event',
    'cursor',
    'sendRequests',
    'rememberMe',
  ];
  const kind = Math.floor(r() * 10);
  switch (kind) {
    case 0:
      return { payload: '{"unterminated": ', type: 'application/json' };
    case 1:
      return { payload: nested(5000 + Math.floor(r() * 5000)), type: 'application/json' };
    case 2:
      return { payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]), type: 'application/json' };
    case 3:
      return { payload: 'a=1&b=%ZZ&crumb=', type: 'application/x-www-form-urlencoded' };
    case 4:
      return {
        payload: '<xml>no</xml>',
        type: pick(r, ['text/xml', 'application/octet-stream', 'multipart/form-data; boundary=x', 'text/plain']),
      };
    case 5:
      return { payload: JSON.stringify({ [pick(r, fields)]: 'y'.repeat(200_000) }), type: 'application/json' };
    default: {
      const o: Record<string, unknown> = {};
      const n = 1 + Math.floor(r() * 5);
      for (let i = 0; i < n; i++) o[pick(r, fields)] = pick(r, weird);
      return { payload: JSON.stringify(r() < 0.1 ? [o] : o), type: 'application/json' };
    }
  }
}

const LEAKS = [
  /\bat [\w.<>]+ \(/,
  /\.ts:\d+/,
  /node_modules/,
  /syntax error at or near/i,
  /relation "\w+" does not exist/i,
  /\bSELECT\b.*\bFROM\b/,
  /duplicate key value/i,
  /violates/i,
];

describe('fuzz: malformed requests across every route', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp('pglite', { RATE_LIMIT_STORE: 'memory' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 4,000 generated bad requests (about ten for each route) with no 5xx and no leaked internals, and keeps serving', async () => {
    const routes = t.app.routeTable.filter((r) => r.url !== '*');
    expect(routes.length).toBeGreaterThan(5);
    const r = rng(20261121);
    const visitor = new Visitor(t.app);
    const crumb = await visitor.crumb();
    const rssBefore = process.memoryUsage().rss;
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const N = 4_000;
    for (let i = 0; i < N; i++) {
      const route = routes[i % routes.length]!;
      const url =
        route.url.replace(/:[A-Za-z_]+/g, () => pick(r, SEGMENTS)).replace(/\*$/, pick(r, SEGMENTS)) +
        (r() < 0.3
          ? `?${pick(r, ['format=json', 'cursor=%ff', 'itemId[]=1&itemId[]=2', 'page=-5', 'a'.repeat(2000) + '=1', 'format=999999w'])}`
          : '');
      const headers: Record<string, string> = {};
      const withCrumb = r() < 0.7;
      if (withCrumb) {
        headers.cookie = `crumb=${crumb}; tessera_cart=${pick(r, ['', 'bogus', 'x'.repeat(200)])}; tessera_owner=${pick(r, ['', 'nope'])}`;
        headers['x-csrf-token'] = crumb;
      } else if (r() < 0.5) headers['x-csrf-token'] = 'wrong-crumb-value-xx';
      let payload: string | Buffer | undefined;
      if (route.method !== 'GET' && route.method !== 'DELETE') {
        const b = bodyFor(r);
        payload = b.payload;
        headers['content-type'] = b.type;
      }
      const res = await t.app.inject({ method: route.method as 'GET', url, headers, payload });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode >= 500) failures.push(`${res.statusCode} ${route.method} ${url.slice(0, 120)} -> ${res.body.slice(0, 200)}`);
      else if (res.statusCode >= 400 && LEAKS.some((re) => re.test(res.body)))
        failures.push(`leak ${route.method} ${url.slice(0, 120)} -> ${res.body.slice(0, 200)}`);
      if (failures.length > 20) break;
    }
    expect(failures).toEqual([]);
    // The run reached the handlers: answers are a mix of refusals (403 crumb, 400, 404, 413, 415) and successes.
    const count = (lo: number, hi: number) => [...statuses].filter(([c]) => c >= lo && c < hi).reduce((a, [, n]) => a + n, 0);
    expect(count(200, 400)).toBeGreaterThan(100);
    expect(statuses.get(403) ?? 0).toBeGreaterThan(100);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(100);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(N);
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    const home = await t.app.inject({ method: 'GET', url: '/' });
    expect(home.statusCode).toBe(200);
    // Memory stays bounded: no more than 400 MB of growth over the run.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(400 * 1024 * 1024);
  }, 300_000);

  it('answers encoded paths, lone surrogates, odd header bytes and 1 MB hostile strings on every route: no 5xx, none slower than 1 s', async () => {
    const routes = t.app.routeTable.filter((r) => r.url !== '*');
    const visitor = new Visitor(t.app);
    const crumb = await visitor.crumb();
    const r = rng(20261124);
    const failures: string[] = [];
    const hostile = [
      `${'a'.repeat(500_000)}@${'b@'.repeat(50)}${'c'.repeat(499_000)}`,
      `a@${'.'.repeat(1_000_000)}`,
      ' '.repeat(1_000_000),
      '\u0000'.repeat(1_000_000),
      '1'.repeat(1_000_000),
      '<'.repeat(1_000_000),
      `${'%'.repeat(1_000_000)}`,
    ];
    const fields = [
      'email',
      'siteVisitorEmail',
      'password',
      'name',
      'title',
      'quantity',
      'coupons',
      'back',
      'next',
      'q',
      'form',
      'itemId',
      'sku',
      'urlId',
      'body',
    ];
    /** Encoded, double-encoded and case-varied forms of a concrete path. */
    const encodings = (path: string): string[] => {
      const m = /^\/([a-z])/.exec(path);
      if (!m) return [];
      const c = m[1]!;
      const hex = c.charCodeAt(0).toString(16);
      const rest = path.slice(2);
      return [
        `/%${hex}${rest}`,
        `/%${hex.toUpperCase()}${rest}`,
        `/%25${hex}${rest}`,
        `/${c.toUpperCase()}${rest}`,
        path.replace(/\//g, '%2F').replace(/^%2F/, '/'),
        `${path}%5C..`,
        `${path}/%2e%2e/%2e%2e/package.json`,
        `/x/..${path}`,
        `${path}%`,
        `${path}%zz`,
      ];
    };
    const oddHeaders = (): Record<string, string> => ({
      cookie: pick(r, [
        `crumb=${crumb}; tessera_cart=\u00ff\u00fe`,
        `crumb=${crumb}; siteUserInfo=%ff%fe%00`,
        `crumb=\u00e9\u00e9; tessera_owner=\u00ff`,
        `crumb=${crumb}`,
      ]),
      'x-csrf-token': pick(r, [crumb, '\u00ff'.repeat(64), 'x'.repeat(8000)]),
      'accept-language': pick(r, ['\u00ff\u00fe;q=2', '*;q=NaN', 'x'.repeat(4000)]),
      'user-agent': '\u00e9\u00ff',
      referer: pick(r, ['http://\u00ff/', 'javascript:alert(1)', '%ff']),
      'idempotency-key': pick(r, ['\u00ff\u00fe', 'k'.repeat(500)]),
      'x-forwarded-for': pick(r, ['\u00ff', '1.2.3.4, evil', '::1']),
    });
    // One plain request per route first, untimed: some routes start a service on first use (the analytics
    // ingest worker thread); that one-time start is not what this test measures.
    for (const route of routes) {
      const path = route.url.replace(/:[A-Za-z_]+/g, 'x').replace(/\*$/, 'x');
      await t.app.inject({
        method: route.method as 'GET',
        url: path,
        headers: { cookie: `crumb=${crumb}`, 'x-csrf-token': crumb, 'content-type': 'application/json' },
        payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}',
      });
    }
    let count = 0;
    const send = async (method: string, url: string, headers: Record<string, string>, payload?: string) => {
      const started = performance.now();
      const res = await t.app.inject({ method: method as 'GET', url, headers, payload });
      const ms = performance.now() - started;
      count++;
      if (res.statusCode >= 500) failures.push(`${res.statusCode} ${method} ${url.slice(0, 100)} -> ${res.body.slice(0, 200)}`);
      if (ms > 1000) failures.push(`${Math.round(ms)} ms ${method} ${url.slice(0, 100)}`);
    };
    for (const route of routes) {
      const path = route.url.replace(/:[A-Za-z_]+/g, 'x').replace(/\*$/, 'x');
      const writes = route.method !== 'GET' && route.method !== 'DELETE';
      const jsonHeaders = { ...oddHeaders(), 'content-type': 'application/json' };
      for (const url of encodings(path)) await send(route.method, url, jsonHeaders, writes ? '{}' : undefined);
      // Surrogates: lone high, lone low, reversed pair, in a value, a key and the query.
      await send(
        route.method,
        `${path}?q=%ED%A0%80&next=%ED%B0%80`,
        jsonHeaders,
        writes ? `{"${pick(r, fields)}":"\\ud800","\\udc00":"x","${pick(r, fields)}":["\\udc00\\ud800"]}` : undefined,
      );
      // 1 MB hostile strings in a field, and an 8 KB one in the query.
      const h = pick(r, hostile);
      if (writes)
        await send(route.method, path, jsonHeaders, JSON.stringify({ [pick(r, fields)]: h, [pick(r, fields)]: h.slice(0, 1000) }));
      await send(route.method, `${path}?${pick(r, fields)}=${encodeURIComponent(h.slice(0, 8000))}`, oddHeaders());
      if (failures.length > 20) break;
    }
    expect(failures).toEqual([]);
    expect(count).toBeGreaterThan(routes.length * 10);
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  }, 600_000);

  it('never serves files outside the static folders', async () => {
    for (const prefix of ['/assets/', '/theme/', '/demo-media/']) {
      for (const path of [
        '..%2f..%2fpackage.json',
        '../../package.json',
        '%2e%2e/%2e%2e/package.json',
        '..%5c..%5cpackage.json',
        '....//....//package.json',
      ]) {
        const res = await t.app.inject({ method: 'GET', url: prefix + path });
        expect(res.statusCode, prefix + path).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, prefix + path).toBeLessThan(500);
        expect(res.body).not.toContain('"name": "tessera"');
      }
    }
  });
});

describe('text the database cannot store', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp('postgres');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 400 for a NUL byte in a path, a query or a JSON body, on PostgreSQL', async () => {
    const v = new Visitor(t.app);
    expect((await v.get('/shop/p/a%00b')).statusCode).toBe(400);
    expect((await v.get('/search?q=%00')).statusCode).toBe(400);
    const res = await v.send('POST', '/api/auth/login', { email: 'a\u0000@example.com', password: 'x\u0000y' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});

/** A CSV made of hostile pieces: quotes left open, odd line ends, other encodings, formulas, internal image hosts. */
function hostileCsv(r: () => number): string {
  const header = pick(r, [SQUARESPACE_COLUMNS, SHOPIFY_COLUMNS, ['Title', 'Hosted Image URLs'], ['x']] as const).join(',');
  // Image addresses are all refused before any fetch (internal or not http): the fuzz never reaches a network.
  const cells = [
    '',
    'Mug',
    '12.00',
    '-1',
    '1e309',
    'Yes',
    'Unlimited',
    '"',
    '""',
    '"a,b"',
    '"open',
    'a"b',
    '=1+1',
    '@SUM(A1)',
    '+cmd',
    "'); DROP TABLE items; --",
    '\u0000',
    '\uFFFD',
    '\uFEFF',
    '\r',
    '\n',
    '\r\n',
    ',,,,',
    'x'.repeat(70_000),
    'http://127.0.0.1/a.png',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:10.0.0.1]/x.png',
    'http://[fe80::1]/x.png',
    'file:///etc/passwd',
    'gopher://x/',
    'http://0/x.png',
    'http://localhost./a.png',
    '🙂',
    '\ud800',
  ];
  const lines = [pick(r, ['', '\uFEFF']) + header];
  const rowsN = Math.floor(r() * 30);
  for (let i = 0; i < rowsN; i++) {
    const width = Math.floor(r() * 40);
    lines.push(Array.from({ length: width }, () => pick(r, cells)).join(pick(r, [',', ',', ';', '\t'])));
  }
  return lines.join(pick(r, ['\n', '\r\n', '\r']));
}

describe('fuzz: the product CSV import and backup restore', () => {
  let t: TestApp;
  let sandbox: string;
  beforeAll(async () => {
    sandbox = mkdtempSync(join(tmpdir(), 'tessera-fuzz-'));
    t = await testApp('pglite', { RATE_LIMIT_STORE: 'memory', DATA_DIR: join(sandbox, 'app') });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(sandbox, { recursive: true, force: true });
  });

  it('answers 400 generated hostile CSV files (dry runs and real runs) with no 5xx and no leaked internals, and writes nothing outside the data folder', async () => {
    const owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    const r = rng(20261201);
    const failures: string[] = [];
    const before = tree(sandbox).filter((p) => !p.startsWith('app/'));
    let accepted = 0;
    for (let i = 0; i < 400 && failures.length <= 20; i++) {
      const csv = hostileCsv(r);
      const payload =
        r() < 0.1
          ? { csv: [csv], dryRun: 'yes' }
          : { csv, dryRun: r() < 0.7, format: pick(r, [undefined, 'shopify', 'squarespace', 'other']) };
      const res = await owner.send('POST', '/api/config/catalog/import', payload);
      if (res.statusCode === 202) accepted++;
      if (res.statusCode >= 500) failures.push(`${res.statusCode} ${JSON.stringify(payload).slice(0, 120)} -> ${res.body.slice(0, 200)}`);
      else if (res.statusCode >= 400 && LEAKS.some((re) => re.test(res.body))) failures.push(`leak -> ${res.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    expect(accepted).toBeGreaterThanOrEqual(0);
    expect(tree(sandbox).filter((p) => !p.startsWith('app/'))).toEqual(before);
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  }, 300_000);

  it('refuses 150 mutated backup archives in words (a BackupError), leaving the database empty and nothing outside the data folder', async () => {
    const good = join(sandbox, 'good.tar.gz');
    await writeBackupFile(t.database, join(sandbox, 'app'), good);
    const tar = gunzipSync(readFileSync(good));
    let target = await testDatabase('pglite');
    let restored = 0;
    const restoresBefore = readdirSync(tmpdir()).filter((n) => n.startsWith('tessera-restore-'));
    const r = rng(20261202);
    const hostileNames = [
      '../../escape',
      '/tmp/escape',
      'db/../../escape.jsonl',
      'media/../../../escape',
      'media/a/../../../escape',
      'db/websites.jsonl',
      'tessera-backup.json',
      'media/x\\..\\..\\escape',
      'media/\u0000',
    ];
    const failures: string[] = [];
    try {
      for (let i = 0; i < 150 && failures.length <= 20; i++) {
        const bytes = Buffer.from(tar);
        const kind = Math.floor(r() * 5);
        // Header blocks sit at multiples of 512: mutate one of the first ones (names, types, sizes), or any byte.
        const block = 512 * Math.floor(r() * Math.min(40, bytes.length / 512));
        if (kind === 0) bytes.write(pick(r, hostileNames).padEnd(100, '\0'), block, 100, 'utf8');
        else if (kind === 1) bytes.write(pick(r, ['1', '2', '3', '4', '5', '6', '7', 'x', 'g', 'L', 'K']), block + 156, 1, 'ascii');
        else if (kind === 2) bytes.write(pick(r, ['77777777777', '00000000000', '-1', 'zzzz', '7777777']), block + 124, 11, 'ascii');
        else if (kind === 3) for (let k = 0; k < 20; k++) bytes[Math.floor(r() * bytes.length)] = Math.floor(r() * 256);
        // Headers changed on purpose get a right checksum, so the restore's own checks are what refuse them.
        if (kind <= 2) {
          bytes.write('        ', block + 148, 8, 'ascii');
          let sum = 0;
          for (let k = 0; k < 512; k++) sum += bytes[block + k]!;
          bytes.write(sum.toString(8).padStart(6, '0') + '\0 ', block + 148, 8, 'ascii');
        }
        const archive = kind === 4 ? gzipSync(bytes).subarray(0, Math.floor(r() * gzipSync(bytes).length)) : gzipSync(bytes);
        const dataDir = mkdtempSync(join(sandbox, 'restore-'));
        const outside = tree(sandbox).filter((p) => !p.startsWith(dataDir.slice(sandbox.length + 1)));
        try {
          // A mutation can leave a valid archive (a changed letter in a row): it restores, inside the data folder.
          await restoreBackup(Readable.from([archive]), target, dataDir);
          restored++;
          expect(tree(sandbox).filter((p) => !p.startsWith(dataDir.slice(sandbox.length + 1)))).toEqual(outside);
          await target.close();
          target = await testDatabase('pglite');
          continue;
        } catch (e) {
          if (!(e instanceof BackupError)) failures.push(`mutation ${i} (kind ${kind}): ${(e as Error).message?.slice(0, 200)}`);
        }
        expect(tree(sandbox).filter((p) => !p.startsWith(dataDir.slice(sandbox.length + 1)))).toEqual(outside);
        expect(tree(dataDir)).toEqual([]);
        const [n] = await rows<{ n: string }>(target.db, sql`SELECT count(*) AS n FROM websites`);
        expect(Number(n!.n)).toBe(0);
      }
    } finally {
      await target.close();
    }
    expect(failures).toEqual([]);
    expect(restored).toBeLessThan(150);
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith('tessera-restore-'))).toEqual(restoresBefore);
  }, 300_000);
});
