/**
 * Issue 21, the edge of the server: guards on the router's normalised path (item 2), no backtracking
 * pattern on visitor input (3), owner sign-in limits (5), TRUST_PROXY (6), per-IP ceilings and coupon
 * limits (11), lone surrogates and header-safe redirects (12), and the smaller points of item 17.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { APP_KINDS } from '../../helpers/db.js';
import { OWNER, pinRateLimitClock, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig, ConfigError } from '../../../src/server/config.js';
import { rows } from '../../../src/server/db-util.js';
import { normaliseTarget } from '../../../src/server/plugins/path.js';
import { cacheTarget } from '../../../src/server/pages/page-cache.js';
import { parseQuantity } from '../../../src/core/product.js';
import { security } from '../../../src/core/messages.js';
import { RESTOCK_API } from '../../../src/server/restock/routes.js';
import { CONTACT_FORM_ID } from '../../../src/server/forms/seed.js';
import { DEFAULT_FORMS_OPTIONS } from '../../../src/server/forms/service.js';

const FILE_BYTES = Buffer.from('\u0000\u0000\u0000\u0018ftypmp42 members-only-secret-bytes');

async function signIn(app: FastifyInstance): Promise<Visitor> {
  const v = new Visitor(app);
  const res = await v.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password });
  expect(res.statusCode, res.body).toBe(200);
  return v;
}

/** Encoded, double-encoded and case-varied forms of a path whose first segment is guarded. */
function variants(path: string): string[] {
  const [, first, ...rest] = path.split('/');
  const tail = rest.length ? `/${rest.join('/')}` : '';
  const enc = (c: string) => `%${c.charCodeAt(0).toString(16)}`;
  const encU = (c: string) => enc(c).toUpperCase();
  const f = first!;
  const out = [
    `/${enc(f[0]!)}${f.slice(1)}${tail}`, // /%61pi/...
    `/${encU(f[0]!)}${f.slice(1)}${tail}`, // /%61 in upper-case hex
    `/${[...f].map(enc).join('')}${tail}`, // every letter encoded
    `/${f.slice(0, -1)}${encU(f.at(-1)!)}${tail}`, // the last letter
    `/%25${enc(f[0]!).slice(1)}${f.slice(1)}${tail}`, // double encoded: %2561
    `/%252${enc(f[0]!).slice(2)}${f.slice(1)}${tail}`.replace('%2520', '%25'), // a second double-encoding form
    `/${f.toUpperCase()}${tail}`, // case varied
    `/${f[0]!.toUpperCase()}${f.slice(1)}${tail}`,
    `/${encU(f[0]!.toUpperCase())}${f.slice(1)}${tail}`, // %41pi
    `/${f}%2F${rest.join('/')}`, // an encoded slash after the prefix
    `/${f}%2f${rest.join('/')}`,
    `/${f}%5C${rest.join('/')}`, // an encoded backslash
    `/x/..%2F${f}${tail}`,
    `/x/%2e%2e/${f}${tail}`, // encoded dot segment
    `/x/%2E%2E/${f}${tail}`,
  ];
  if (rest.length) {
    const [second, ...more] = rest;
    out.push(`/${f}/${enc(second![0]!)}${second!.slice(1)}${more.length ? `/${more.join('/')}` : ''}`); // /members/%66iles/...
    out.push(`/${f}/${encU(second![0]!)}${second!.slice(1)}${more.length ? `/${more.join('/')}` : ''}`);
  }
  return out;
}

describe('the path normaliser', () => {
  it('decodes unreserved characters and refuses encoded separators, double encoding and dot segments', () => {
    expect(normaliseTarget('/%61pi/x?y=%61')).toBe('/api/x?y=%61');
    expect(normaliseTarget('/%41PI/x')).toBe('/API/x');
    expect(normaliseTarget('/shop/caf%c3%a9')).toBe('/shop/caf%C3%A9');
    expect(normaliseTarget('/a%20b')).toBe('/a%20b');
    for (const bad of [
      '/api%2Fx',
      '/api%2fx',
      '/api%5Cx',
      '/a\\b',
      '/%2561pi/x',
      '/x/%2e%2e/api',
      '/x/../api',
      '/x/./y',
      '/a%zz',
      '/a%4',
    ]) {
      expect(normaliseTarget(bad), bad).toBeNull();
    }
  });
});

describe.each(APP_KINDS)('guards run on the path the router matches (%s)', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  let fileUrl: string;
  let uploadUrl: string;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tessera-sec-edge-'));
    t = await testApp(kind, { DATA_DIR: dataDir, RATE_LIMIT_STORE: 'memory' });
    owner = await signIn(t.app);
    const up = await owner.send('POST', '/api/members/files', FILE_BYTES.toString('latin1'), {
      headers: { 'content-type': 'video/mp4', 'x-file-name': 'lesson.mp4' },
    });
    expect(up.statusCode, up.body).toBe(201);
    fileUrl = up.json().url;
    const crumb = await owner.crumb();
    const ed = await t.app.inject({
      method: 'POST',
      url: '/api/editor/uploads?name=notes.txt',
      headers: {
        cookie: [...owner.cookies].map(([k, x]) => `${k}=${x}`).join('; '),
        'x-csrf-token': crumb,
        'content-type': 'application/octet-stream',
      },
      payload: Buffer.from('members-only-upload-text'),
    });
    expect(ed.statusCode, ed.body).toBe(201);
    uploadUrl = ed.json().upload.url;
    const c = await owner.send('POST', '/api/members/courses', { title: 'Glazes', description: 'Glazing.' });
    expect(c.statusCode, c.body).toBe(201);
    const l = await owner.send('POST', `/api/members/courses/${c.json().id}/lessons`, {
      title: 'Ash glaze',
      chapter: 'One',
      videoUrl: fileUrl,
      durationSeconds: 60,
      body: `<p>Notes: <a href="${uploadUrl}">notes</a> <img src="/demo-media/gallery-2.svg" alt=""></p>`,
    });
    expect(l.statusCode, l.body).toBe(201);
    const area = await owner.send('POST', '/api/members/areas', {
      name: 'Glaze School',
      description: 'All.',
      access: 'once',
      priceCents: 1000,
      collectionIds: [c.json().id],
    });
    expect(area.statusCode, area.body).toBe(201);
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a crumb-less write to every encoded, double-encoded and case-varied form of /api', async () => {
    const v = new Visitor(t.app);
    await v.crumb();
    const path = '/api/commerce/shopping-cart/entries';
    const body = { itemId: t.seed.productIds['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 };
    const plain = await v.send('POST', path, body, { crumb: false });
    expect(plain.statusCode).toBe(403);
    for (const url of variants(path)) {
      const res = await v.send('POST', url, body, { crumb: false });
      expect([400, 403, 404], `${url} -> ${res.statusCode} ${res.body.slice(0, 120)}`).toContain(res.statusCode);
    }
    // Nothing reached the cart.
    const cart = await v.get('/api/commerce/shopping-cart');
    expect(cart.body).not.toContain('POUR-OVER');
    // With the crumb, the decoded form is the same call as the plain one.
    const ok = await v.send('POST', '/%61pi/commerce/shopping-cart/entries', body);
    expect(ok.statusCode, ok.body).toBeLessThan(300);
  });

  it('never serves a paywalled member file, upload or media file through an encoded path', async () => {
    const v = new Visitor(t.app);
    for (const path of [fileUrl, uploadUrl, '/demo-media/gallery-2.svg']) {
      const plain = await v.get(path);
      expect(plain.statusCode, path).toBe(403);
      for (const url of [...variants(path), `${path}?format=300w`]) {
        const res = await v.get(url);
        expect(res.statusCode, `${url} -> ${res.statusCode}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, url).toBeLessThan(500);
        expect(res.body, url).not.toContain('members-only');
      }
    }
    // The owner still gets the plain and the decoded form.
    expect((await owner.get(fileUrl)).statusCode).toBe(200);
    expect((await owner.get(fileUrl.replace('/members/files/', '/members/%66iles/'))).statusCode).toBe(200);
  });

  it('keeps API writes behind the site lock whatever the encoding, and /config behind sign-in', async () => {
    expect((await owner.send('PUT', '/api/members/site-password', { password: 'open sesame' })).statusCode).toBe(200);
    try {
      const v = new Visitor(t.app);
      const path = `/api/rest/forms/validate/${CONTACT_FORM_ID}`;
      const plain = await v.send('POST', path, {});
      expect(plain.statusCode).toBe(401);
      for (const url of variants(path)) {
        const res = await v.send('POST', url, {});
        // Every spelling the router would take to the API meets the lock; the rest are refused or unknown.
        // (The client resolves an encoded dot segment itself, as a browser does.)
        const routed = normaliseTarget(new URL(url, 'http://x').pathname)?.startsWith('/api/') ?? false;
        if (routed) expect(res.statusCode, `${url} -> ${res.statusCode} ${res.body.slice(0, 80)}`).toBe(401);
        else expect([400, 404], `${url} -> ${res.statusCode}`).toContain(res.statusCode);
      }
      for (const url of variants('/api/multilingual/languages')) {
        const res = await v.get(url);
        expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, url).toBeLessThan(500);
      }
    } finally {
      expect((await owner.send('PUT', '/api/members/site-password', { password: null })).statusCode).toBeLessThan(300);
    }
    const v = new Visitor(t.app);
    for (const url of variants('/config/settings')) {
      const res = await v.get(url);
      expect(res.body, url).not.toContain('data-page="shell"');
      expect(res.statusCode, url).toBeLessThan(500);
    }
    for (const url of variants('/api/config/team')) {
      const res = await v.send('POST', url, { email: 'evil@example.com', role: 1, password: 'password123' });
      expect([400, 401, 403, 404], `${url} -> ${res.statusCode}`).toContain(res.statusCode);
    }
  });
});

describe.each(APP_KINDS)('visitor input limits and refusals (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory', TRUST_PROXY: '1' });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers a 1 MB hostile email at every email field without backtracking, and /health still answers', async () => {
    // The team call needs an admin; the rest are open to visitors.
    const admin = await signIn(t.app);
    // a@....@ makes the old pattern backtrack quadratically; 20 KB first (the old code takes seconds on it),
    // then 1 MB forms.
    const quadratic = (n: number, end: string) => `a@${'.'.repeat(n)}${end}`;
    const hostile = `${'a'.repeat(500_000)}@${'b@'.repeat(10)}${'c'.repeat(499_000)}`.slice(0, 1_000_000 - 200);
    for (const email of [
      quadratic(20_000, '@'),
      quadratic(999_000, '@'),
      quadratic(999_000, ' '),
      `a@${'.'.repeat(999_000)}`,
      hostile,
      '@'.repeat(999_000),
      `${'a@a'.repeat(333_000)}`,
    ]) {
      for (const [i, [url, body]] of [
        ['/api/site-users/account/password-reset', { email }],
        ['/api/site-users/accounts', { email, password: 'long enough pass' }],
        ['/api/members/areas/fernhill-members/join', { email, password: 'long enough pass' }],
        [RESTOCK_API, { siteVisitorEmail: email, itemId: t.seed.productIds['ceramic-pour-over-set'], sku: 'POUR-OVER' }],
        [`/api/rest/forms/validate/${CONTACT_FORM_ID}`, { email, name: 'x', message: 'y' }],
        ['/api/config/team', { email, role: 2, password: 'long enough pass' }],
      ].entries() as IterableIterator<[number, [string, Record<string, unknown>]]>) {
        // Backtracking is what this catches: the old pattern took seconds at 20 KB and 30 s at 200 KB (it
        // grows with the square of the length), so a second is a bound a regression cannot meet. The issue's
        // 100 ms per request is measured without load (the fastest of five tries counts; the machine that
        // runs the suite is shared by parallel test files, which can stall any one request for 100 ms).
        let fastest = Infinity;
        for (let k = 0; k < 5; k++) {
          const v = url === '/api/config/team' ? admin : new Visitor(t.app);
          const started = performance.now();
          const res = await v.send('POST', url, body, { headers: { 'x-forwarded-for': `10.3.${i * 5 + k}.${email.length % 250}` } });
          fastest = Math.min(fastest, performance.now() - started);
          expect(res.statusCode, `${url} ${res.body.slice(0, 100)}`).toBeGreaterThanOrEqual(400);
          expect(res.statusCode, url).toBeLessThan(500);
        }
        expect(fastest, url).toBeLessThan(1000);
      }
    }
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('rate limits POST /api/rest/forms/validate/{formId} per IP', async () => {
    const v = new Visitor(t.app);
    const windowMs = DEFAULT_FORMS_OPTIONS.validatePerIp!.windowMs;
    // The counter is a fixed window: a run that straddles a window's end starts counting again, so it is
    // repeated (from a fresh address) until one run fits in one window.
    let statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const started = Date.now();
      statuses = [];
      for (let i = 0; i < 65; i++)
        statuses.push(
          (await v.send('POST', '/api/rest/forms/validate/nope', { a: 1 }, { headers: { 'x-forwarded-for': `10.4.4.${10 + attempt}` } }))
            .statusCode,
        );
      if (Math.floor(started / windowMs) === Math.floor(Date.now() / windowMs)) break;
    }
    expect(statuses.slice(0, 60).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(60)).toEqual([429, 429, 429, 429, 429]);
    // Another address is not affected.
    expect(
      (await v.send('POST', '/api/rest/forms/validate/nope', { a: 1 }, { headers: { 'x-forwarded-for': '10.4.4.5' } })).statusCode,
    ).toBe(404);
  });

  it('answers 400 for a lone surrogate in any JSON body or query, before checkout or a form runs', async () => {
    const v = new Visitor(t.app);
    const lone = '{"email":"\\ud800x@example.com","name":"\\udfff"}';
    for (const url of [
      '/api/checkout/quote',
      '/api/checkout/place-order',
      '/api/form/SaveFormSubmission',
      '/api/commerce/shopping-cart/entries',
      '/api/auth/login',
      '/api/site-users/account/session',
    ]) {
      const res = await v.send('POST', url, lone, { headers: { 'idempotency-key': 'surrogate-key-0001' } });
      expect(res.statusCode, `${url} ${res.body}`).toBe(400);
      expect(res.json().message).toBe(security.INVALID_UNICODE);
    }
    // A key, a nested value and a query.
    expect((await v.send('POST', '/api/checkout/quote', '{"a":[{"\\ud800":1}]}')).statusCode).toBe(400);
    expect((await v.get('/api/commerce/shopping-cart?x=%ED%A0%80')).statusCode).toBeLessThan(500);
    // A well-formed pair (an emoji) is fine.
    expect((await v.send('POST', '/api/checkout/quote', '{"note":"\\ud83d\\ude00"}')).statusCode).not.toBe(500);
    // No order was placed and no payment attempted.
    const orders = await rows<{ n: number | string }>(t.database.db, sql`SELECT count(*) AS n FROM orders`);
    expect(Number(orders[0]!.n)).toBe(0);
  });

  it('redirects safely when back= holds text a header cannot carry', async () => {
    const v = new Visitor(t.app);
    const crumb = await v.crumb();
    for (const back of ['/caf\u00e9', '/\u4e2d\u6587', '/a\u2028b', '/x\r\nSet-Cookie:%20a=b']) {
      const res = await v.send('POST', '/api/engagement/consent', `crumb=${crumb}&choice=accept&back=${encodeURIComponent(back)}`, {
        crumb: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.statusCode, `${back} ${res.body}`).toBeLessThan(500);
      if (res.statusCode === 303) expect(res.headers.location).toMatch(/^\/[\x21-\x7e]*$/);
    }
    const json = await v.send(
      'POST',
      '/api/engagement/consent',
      { choice: 'accept', back: '/\u4e2d' },
      { headers: { accept: 'text/html' } },
    );
    expect(json.statusCode).toBe(303);
    expect(json.headers.location).toBe('/%E4%B8%AD');
    // A lone surrogate cannot even reach the route.
    const lone = await v.send('POST', '/api/engagement/consent', '{"choice":"accept","back":"/x\\ud800"}', {
      headers: { accept: 'text/html' },
    });
    expect(lone.statusCode).toBe(400);
  });

  it('takes only plain decimal whole numbers as a quantity', async () => {
    for (const s of ['0x10', '1e3', '0b11', '0o7', 'Infinity', '1_000', ' 2e1 ', '١٢'])
      expect(parseQuantity(s), s).toEqual({ ok: false, message: 'Quantity must be a number.' });
    expect(parseQuantity('12')).toEqual({ ok: true, quantity: 12 });
    expect(parseQuantity(3)).toEqual({ ok: true, quantity: 3 });
    const v = new Visitor(t.app);
    const itemId = t.seed.productIds['ceramic-pour-over-set'];
    for (const quantity of ['0x10', '1e3', '1E1']) {
      const res = await v.send('POST', '/api/commerce/shopping-cart/entries', { itemId, sku: 'POUR-OVER', quantity });
      expect(res.statusCode, `${quantity} ${res.body}`).toBe(400);
    }
    expect((await v.get('/api/commerce/shopping-cart')).body).not.toContain('POUR-OVER');
  });

  it('keys the page cache on the parameters pages use, not on tracking or made-up ones', () => {
    expect(cacheTarget('/shop?utm_source=x&fbclid=1&gclid=2')).toBe('/shop');
    expect(cacheTarget('/shop?zzz=1&random=2')).toBe('/shop');
    expect(cacheTarget('/shop?tag=b&page=2&utm_medium=m')).toBe('/shop?page=2&tag=b');
    expect(cacheTarget('/shop?page=2&tag=b')).toBe(cacheTarget('/shop?tag=b&page=2'));
    expect(cacheTarget('/shop?experiment.hero=b')).toBeNull();
  });

  it('shares one cached page across tracking parameters', async () => {
    const c = await testApp(kind, { RATE_LIMIT_STORE: 'memory', PAGE_CACHE_SECONDS: '60' });
    try {
      const first = await c.app.inject({ method: 'GET', url: '/shop?utm_source=a' });
      expect(first.statusCode).toBe(200);
      const stats = (c.app as unknown as { pageCache: { stats: { hits: number; misses: number } } }).pageCache.stats;
      const misses = stats.misses;
      const hits = stats.hits;
      for (const q of ['utm_source=b', 'fbclid=zz', 'gclid=1&utm_campaign=c', 'nonsense=1', '']) {
        const r = await c.app.inject({ method: 'GET', url: `/shop?${q}` });
        expect(r.statusCode).toBe(200);
      }
      // One entry served them all: no new render, five hits.
      expect(stats.misses).toBe(misses);
      expect(stats.hits).toBe(hits + 5);
      // A parameter the page reads is its own entry.
      await c.app.inject({ method: 'GET', url: '/shop?page=2&utm_source=x' });
      expect(stats.misses).toBe(misses + 1);
    } finally {
      await c.close();
    }
  });

  it('sign-in pages show errors by code only', async () => {
    const v = new Visitor(t.app);
    const spoof = await v.get('/config/login?error=Your%20account%20is%20suspended.%20Call%20555-0100');
    expect(spoof.statusCode).toBe(200);
    expect(spoof.body).not.toContain('suspended');
    const real = await v.get('/config/login?error=failed');
    expect(real.body).toContain('That email and password do not match an account.');
    const acct = await v.get('/account/login?error=Call%20555-0100%20now');
    expect(acct.body).not.toContain('555-0100');
    expect((await v.get('/account/login?error=link')).body).toContain('This link has expired or was already used.');
    const form = await v.send(
      'POST',
      '/api/auth/login',
      `crumb=${await v.crumb()}&email=${encodeURIComponent(OWNER.email)}&password=wrong`,
      { crumb: false, headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '10.8.8.8' } },
    );
    expect(form.statusCode).toBe(303);
    expect(form.headers.location).toBe('/config/login?error=failed');
  });

  it('owner API answers carry Cache-Control: no-store', async () => {
    const owner = await signIn(t.app);
    for (const url of ['/api/auth/me', '/api/config/team', '/config']) {
      const res = await owner.get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });
});

describe.each(APP_KINDS)('owner sign-in limits (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, { TRUST_PROXY: '1' });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('limits attempts per account from one address, lets the right password in from another, and mails a lock notice (issue 38 item 4)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const v = new Visitor(t.app);
      statuses.push(
        (
          await v.send(
            'POST',
            '/api/auth/login',
            { email: OWNER.email, password: `wrong ${i}` },
            { headers: { 'x-forwarded-for': '10.20.0.1' } },
          )
        ).statusCode,
      );
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const locked = await new Visitor(t.app).send('POST', '/api/auth/login', OWNER, { headers: { 'x-forwarded-for': '10.20.0.1' } });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toBe(security.TOO_MANY_SIGN_INS);
    const right = await new Visitor(t.app).send('POST', '/api/auth/login', OWNER, { headers: { 'x-forwarded-for': '10.20.1.1' } });
    expect(right.statusCode).toBe(200);
    await t.app.services.signInLimits.idle();
    const mail = await rows<{ to_address: string; subject: string }>(
      t.database.db,
      sql`SELECT to_address, subject FROM mail_outbox WHERE kind = 'owner-sign-in-locked'`,
    );
    expect(mail).toEqual([{ to_address: OWNER.email, subject: security.LOCK_NOTICE_SUBJECT }]);
    // Another account is not locked by this one's failures.
    const other = await new Visitor(t.app).send(
      'POST',
      '/api/auth/login',
      { email: 'nobody@example.com', password: 'x' },
      { headers: { 'x-forwarded-for': '10.20.1.2' } },
    );
    expect(other.statusCode).toBe(401);
    // No lock notice for an address with no account.
    for (let i = 0; i < 12; i++)
      await new Visitor(t.app).send(
        'POST',
        '/api/auth/login',
        { email: 'ghost@example.com', password: 'x' },
        { headers: { 'x-forwarded-for': '10.21.0.1' } },
      );
    await t.app.services.signInLimits.idle();
    const ghost = await rows<{ n: number | string }>(
      t.database.db,
      sql`SELECT count(*) AS n FROM mail_outbox WHERE to_address = 'ghost@example.com'`,
    );
    expect(Number(ghost[0]!.n)).toBe(0);
  });

  it('limits attempts per address across accounts, keyed on the real client behind a spoofed X-Forwarded-For', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      // The client writes its own leftmost X-Forwarded-For; the proxy appends the real address.
      const res = await new Visitor(t.app).send(
        'POST',
        '/api/auth/login',
        { email: `guess${i}@example.com`, password: 'x' },
        { headers: { 'x-forwarded-for': `203.0.113.${i + 1}, 10.30.0.1` } },
      );
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual([429, 429]);
  });
});

describe.each(APP_KINDS)('per-IP ceilings and coupon attempts (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // The database store (the default): counters shared by every instance.
    t = await testApp(kind, { TRUST_PROXY: '1' });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('a fresh crumb cookie per request gets no fresh allowance: place-order has a per-IP ceiling', async () => {
    pinRateLimitClock(t); // all 305 in one one-minute window
    const ip = { 'x-forwarded-for': '10.50.1.1' };
    const statuses: number[] = [];
    for (let i = 0; i < 305; i++) {
      // A new visitor (new crumb, no cart) every time, from one address.
      const res = await new Visitor(t.app).send('POST', '/api/checkout/place-order', {}, { headers: ip });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 300).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(300)).toEqual([429, 429, 429, 429, 429]);
    // Another address is not affected.
    expect(
      (await new Visitor(t.app).send('POST', '/api/checkout/place-order', {}, { headers: { 'x-forwarded-for': '10.50.9.2' } })).statusCode,
    ).toBe(400);
  }, 120_000);

  it('limits coupon codes tried per cart and per IP', async () => {
    const v = new Visitor(t.app);
    const add = await v.send(
      'POST',
      '/api/commerce/shopping-cart/entries',
      { itemId: t.seed.productIds['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 },
      { headers: { 'x-forwarded-for': '10.51.0.1' } },
    );
    expect(add.statusCode, add.body).toBeLessThan(300);
    const statuses: number[] = [];
    // Four codes a request: ten requests are 40 codes, the cart's allowance for ten minutes.
    for (let i = 0; i < 11; i++) {
      // Each guess from a new address: the cart's own count still stops it.
      const res = await v.send(
        'POST',
        '/api/checkout/quote',
        { coupons: [`G${i}A`, `G${i}B`, `G${i}C`, `G${i}D`] },
        { headers: { 'x-forwarded-for': `10.51.1.${i + 1}` } },
      );
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10), JSON.stringify(statuses)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
    // Without coupons the same cart still quotes.
    expect((await v.send('POST', '/api/checkout/quote', {}, { headers: { 'x-forwarded-for': '10.51.2.1' } })).statusCode).toBe(200);
    // Per IP: 100 codes in ten minutes, whatever the cart (a new visitor and cart each time).
    const perIp: number[] = [];
    for (let i = 0; i < 11; i++) {
      const w = new Visitor(t.app);
      perIp.push(
        (
          await w.send(
            'POST',
            '/api/checkout/quote',
            { coupons: Array.from({ length: 10 }, (_, k) => `H${i}X${k}`) },
            { headers: { 'x-forwarded-for': '10.52.0.1' } },
          )
        ).statusCode,
      );
    }
    expect(perIp.slice(0, 10).every((s) => s !== 429)).toBe(true);
    expect(perIp[10]).toBe(429);
  });
});

describe('TRUST_PROXY', () => {
  it('takes false, a hop count or a list of addresses and CIDRs; true means one hop', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8, ::1, loopback' }).TRUST_PROXY).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(ConfigError);
  });

  it('keys rate limits on the real client, not on a spoofed leftmost address', async () => {
    for (const trust of ['true', '1', '127.0.0.1']) {
      const t = await testApp('pglite', { TRUST_PROXY: trust, RATE_LIMIT_STORE: 'memory' });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const v = new Visitor(t.app);
        statuses.push(
          (
            await v.send(
              'POST',
              '/api/site-users/account/password-reset',
              { email: `a${i}@example.com` },
              { headers: { 'x-forwarded-for': `198.51.100.${i + 1}, 10.40.0.7` } },
            )
          ).statusCode,
        );
      }
      // 10 per 10 minutes per address: the spoofed leftmost addresses did not give fresh allowances.
      expect(statuses.filter((s) => s === 429).length, trust).toBe(2);
      await t.close();
    }
  });
});

describe('logs', () => {
  it('carry no SQL parameter values when a query fails', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const t = await testApp('pglite', { RATE_LIMIT_STORE: 'memory' });
    const app = await buildApp({
      config: loadConfig({ RATE_LIMIT_STORE: 'memory', WORKERS: 'false' }),
      database: t.database,
      logger: { level: 'error', stream },
    });
    app.get('/__fail', async () => {
      await t.database.db.execute(
        sql`SELECT * FROM no_such_table WHERE email = ${'secret.person@example.com'} AND street = ${'12 Hidden Lane'}`,
      );
      return 'never';
    });
    await app.ready();
    try {
      const res = await app.inject({ method: 'GET', url: '/__fail' });
      expect(res.statusCode).toBeGreaterThanOrEqual(500);
      const log = lines.join('\n');
      expect(log).toContain('request failed');
      expect(log).toContain('no_such_table');
      expect(log).not.toContain('secret.person@example.com');
      expect(log).not.toContain('Hidden Lane');
    } finally {
      await app.close();
      await t.close();
    }
  });
});
