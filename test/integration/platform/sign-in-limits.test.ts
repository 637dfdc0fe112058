/**
 * Issue 38, item 4 and item 7's first point: sign-in limits count failures only, per (account, address),
 * with a higher per-account ceiling across addresses that slows instead of refusing; a success clears
 * the address's failures; the emailed one-time links work during a lock; an unconfirmed site user's right
 * password answers as a wrong one and sends the confirmation link again. The limits' clock is injected
 * (no real waiting); every store the counters can live in is tested for what the limits need of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { DB_KINDS, testDatabase } from '../../helpers/db.js';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { rows } from '../../../src/server/db-util.js';
import {
  DatabaseRateLimitStore,
  MemoryRateLimitStore,
  RedisRateLimitStore,
  WriteBehindRateLimitStore,
  type RateLimitStore,
} from '../../../src/server/plugins/rate-limit.js';
import { OWNER_SIGN_IN_LIMITS } from '../../../src/server/platform/auth-routes.js';
import { SITE_USER_SIGN_IN_LIMITS } from '../../../src/server/platform/site-user-routes.js';
import { addressKey } from '../../../src/server/platform/sign-in-limits.js';
import { siteUserMessages } from '../../../src/server/platform/site-users.js';
import { security } from '../../../src/core/messages.js';
import { Role } from '../../../src/core/enums.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const DAY = 24 * 3_600_000;
/** A run-unique tag: Redis keeps its counters between runs. */
const run = randomBytes(4).toString('hex');

/** The stores' take-back and reset, as sign-in uses them. */
async function exerciseStore(store: RateLimitStore, now: number) {
  const key = `k-${run}-${now}`;
  const w = 15 * 60_000;
  for (let i = 1; i <= 3; i++) expect(await store.hit(key, w, now)).toBe(i);
  await store.unhit(key, w, now);
  expect(await store.hit(key, w, now)).toBe(3);
  await store.reset(key, w, now);
  expect(await store.hit(key, w, now)).toBe(1);
  // Taking back more hits than were counted stops at zero; a key never hit stays absent.
  await store.unhit(key, w, now);
  await store.unhit(key, w, now);
  expect(await store.hit(key, w, now)).toBe(1);
  await store.unhit(`never-${key}`, w, now);
  await store.reset(`never-${key}`, w, now);
  expect(await store.hit(`never-${key}`, w, now)).toBe(1);
  // Only the window that holds `now` is touched: the next window's count is its own.
  expect(await store.hit(key, w, now + w)).toBe(1);
  await store.unhit(key, w, now);
  await store.reset(key, w, now);
  expect(await store.hit(key, w, now + w)).toBe(2);
}

describe('rate-limit stores: take back a hit, reset a counter (memory, Redis)', () => {
  it('memory', async () => {
    await exerciseStore(new MemoryRateLimitStore(), 5 * DAY);
  });
  it('redis', async () => {
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
    try {
      await exerciseStore(new RedisRateLimitStore(redis), Math.floor(Date.now() / DAY) * DAY);
    } finally {
      redis.disconnect();
    }
  });
});

describe.each(DB_KINDS)('rate-limit stores on %s: take back a hit, reset a counter', (kind) => {
  it('database store, and write-behind store (also after its counts are written and read back)', async () => {
    const database = await testDatabase(kind);
    try {
      const now = Math.floor(Date.now() / DAY) * DAY;
      await exerciseStore(new DatabaseRateLimitStore(database), now);
      const a = new WriteBehindRateLimitStore(database, { flushMs: 60_000 });
      await exerciseStore(a, now + 60_000);
      // A reset written to the table stays a reset for the next process reading the table back.
      for (let i = 0; i < 4; i++) await a.hit('back', 15 * 60_000, now);
      await a.flush();
      await a.reset('back', 15 * 60_000, now);
      await a.close();
      const b = new WriteBehindRateLimitStore(database, { flushMs: 60_000 });
      expect(await b.hit('back', 15 * 60_000, now)).toBe(1);
      await b.unhit('back', 15 * 60_000, now);
      await b.close();
      const c = new WriteBehindRateLimitStore(database, { flushMs: 60_000 });
      expect(await c.hit('back', 15 * 60_000, now)).toBe(1);
      await c.close();
    } finally {
      await database.close();
    }
  });
});

describe('sign-in address key', () => {
  it('keeps IPv4 as it is and counts IPv6 by its /64', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:0db8:0001:0002:ffff:1:2:3'));
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('not an address')).toBe('not an address');
  });
});

/**
 * The app's sign-in clock, injected: a fixed moment just after the start of a day (every window starts
 * there), a day of this run's own (Redis keeps counters between runs), and waits recorded, not waited.
 */
function injectClock(t: TestApp) {
  const clock = { now: (Math.floor(Date.now() / DAY) + 1 + (parseInt(run, 16) % 1000)) * DAY + 1000, waits: [] as number[] };
  t.app.services.signInLimits.clock = {
    now: () => clock.now,
    wait: async (ms) => {
      clock.waits.push(ms);
    },
  };
  return clock;
}

const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

/** Owner sign-in from an address; answers the status. */
async function ownerTry(t: TestApp, ip: string, password: string, email = OWNER.email): Promise<number> {
  return (await new Visitor(t.app).send('POST', '/api/auth/login', { email, password }, from(ip))).statusCode;
}

/** The newest link to `path` mailed to an address, once the mails started after sign-in answers are written. */
async function mailedLink(t: TestApp, to: string, path: string, kind?: string): Promise<string> {
  await t.app.services.signInLimits.idle();
  const r = await rows<{ text_body: string; kind: string }>(
    t.database.db,
    sql`SELECT text_body, kind FROM mail_outbox WHERE to_address = ${to} ORDER BY id DESC`,
  );
  for (const mail of r) {
    if (kind && mail.kind !== kind) continue;
    const m = mail.text_body.match(/https?:\/\/\S+/g)?.find((u) => new URL(u).pathname === path && new URL(u).searchParams.has('token'));
    if (m) return new URL(m).pathname + new URL(m).search;
  }
  throw new Error(`no ${path} link mailed to ${to}`);
}

async function mailCount(t: TestApp, to: string, kind: string): Promise<number> {
  await t.app.services.signInLimits.idle();
  return Number(
    (
      await rows<{ n: string | number }>(
        t.database.db,
        sql`SELECT count(*) AS n FROM mail_outbox WHERE to_address = ${to} AND kind = ${kind}`,
      )
    )[0]!.n,
  );
}

const STORES = [
  ...DB_KINDS.map((kind) => ({ kind, env: {} as Record<string, string> })),
  { kind: 'pglite' as const, env: { RATE_LIMIT_STORE: 'redis', REDIS_URL } },
];

describe.each(STORES)('owner sign-in limits count failures only ($kind, $env.RATE_LIMIT_STORE)', ({ kind, env }) => {
  let t: TestApp;
  let clock: ReturnType<typeof injectClock>;
  // Redis keeps counters between runs: addresses of this run only.
  const net = `10.${parseInt(run.slice(0, 2), 16)}.${parseInt(run.slice(2, 4), 16)}`;
  beforeAll(async () => {
    t = await testApp(kind, { TRUST_PROXY: '1', ...env });
    clock = injectClock(t);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('50 wrong passwords from one address lock that address only: the right password from another signs in at once', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push(await ownerTry(t, `${net}.1`, `wrong ${i}`));
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(40).fill(429));
    // A lock notice when the address was first refused (its short tier), and not for each refusal after.
    expect(await mailCount(t, OWNER.email, 'owner-sign-in-locked')).toBe(1);
    // The guesser stays stopped, right password or not.
    const guesser = await new Visitor(t.app).send('POST', '/api/auth/login', OWNER, from(`${net}.1`));
    expect(guesser.statusCode).toBe(429);
    expect(guesser.json().message).toBe(security.TOO_MANY_SIGN_INS);
    expect(await ownerTry(t, `${net}.2`, OWNER.password)).toBe(200);
    expect(clock.waits).toEqual([]);
    // The one-time sign-in link of the notice works while the address is locked.
    const link = await mailedLink(t, OWNER.email, '/config/login/link', 'owner-sign-in-locked');
    const v = new Visitor(t.app);
    expect((await v.send('POST', '/api/auth/login', OWNER, from(`${net}.1`))).statusCode).toBe(429);
    const res = await v.get(link, { 'x-forwarded-for': `${net}.1` });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/config');
    expect((await v.get('/api/auth/me')).statusCode).toBe(200);
    expect((await v.get(link)).headers.location).toBe('/config/login?error=link');
    // Past the 20 per address, attempts were refused before the account's tiers: its day tier counted 20.
    // Ten more failures in each of three later quarter hours reach the day's 50; the next is refused until the next day.
    for (let round = 0; round < 3; round++) {
      clock.now += OWNER_SIGN_IN_LIMITS.account.windowMs;
      for (let i = 0; i < 10; i++) expect(await ownerTry(t, `${net}.1`, `wrong ${round} ${i}`)).toBe(401);
    }
    clock.now += OWNER_SIGN_IN_LIMITS.account.windowMs;
    expect(await ownerTry(t, `${net}.1`, OWNER.password)).toBe(429);
    expect(await mailCount(t, OWNER.email, 'owner-sign-in-locked')).toBe(2);
    clock.now += DAY;
    expect(await ownerTry(t, `${net}.1`, OWNER.password)).toBe(200);
  });

  it('a success clears its address failures; the address across accounts stays counted', async () => {
    for (let i = 0; i < 9; i++) expect(await ownerTry(t, `${net}.3`, `wrong ${i}`)).toBe(401);
    expect(await ownerTry(t, `${net}.3`, OWNER.password)).toBe(200);
    // Ten fresh failures allowed again.
    for (let i = 0; i < 10; i++) expect(await ownerTry(t, `${net}.3`, `wrong again ${i}`)).toBe(401);
    // Across accounts the address has 19 failures (the success taken back, not cleared): one more, then refused.
    expect(await ownerTry(t, `${net}.3`, 'x', `someone-${run}@example.com`)).toBe(401);
    expect(await ownerTry(t, `${net}.3`, 'x', `other-${run}@example.com`)).toBe(429);
    expect(await ownerTry(t, `${net}.3`, OWNER.password)).toBe(429);
  });

  it('failures from many addresses slow the account past its ceiling, and never refuse the right password', async () => {
    clock.now += DAY;
    clock.waits.length = 0;
    const email = `slow-${run}@example.com`;
    const owner = await t.app.services.owners.create({
      websiteId: t.seed.websiteId,
      email,
      password: 'the right one, long',
      role: Role.ADMIN,
    });
    expect(owner.email).toBe(email);
    for (let i = 0; i < 25; i++) expect(await ownerTry(t, `${net}.${100 + i}`, `wrong ${i}`, email)).toBe(401);
    // Past the ceiling of 20 every check waited first.
    expect(clock.waits).toEqual(Array(25 - OWNER_SIGN_IN_LIMITS.slowAbove.max).fill(OWNER_SIGN_IN_LIMITS.slowMs));
    expect(await ownerTry(t, `${net}.200`, 'the right one, long', email)).toBe(200);
    expect(clock.waits).toHaveLength(6);
    await mailedLink(t, email, '/config/login/link', 'owner-sign-in-locked');
  });
});

describe.each(STORES)('site-user sign-in limits count failures only ($kind, $env.RATE_LIMIT_STORE)', ({ kind, env }) => {
  let t: TestApp;
  let clock: ReturnType<typeof injectClock>;
  const net = `10.${parseInt(run.slice(4, 6), 16)}.${parseInt(run.slice(6, 8), 16)}`;
  const PASSWORD = 'a long enough secret';

  /** Signs up (not confirmed yet): the confirmation link, and the browser that signed up (its sign-up cookie). */
  async function signUp(email: string): Promise<{ link: string; browser: Visitor }> {
    const browser = new Visitor(t.app);
    const res = await browser.send('POST', '/api/site-users/accounts', { email, password: PASSWORD }, from(`${net}.250`));
    expect(res.statusCode).toBe(202);
    return { link: await mailedLink(t, email, '/account/confirm'), browser };
  }
  async function member(email: string) {
    const { link, browser } = await signUp(email);
    expect((await browser.get(link)).statusCode).toBe(303);
  }
  const tryIn = async (ip: string, email: string, password: string) =>
    new Visitor(t.app).send('POST', '/api/site-users/account/session', { email, password }, from(ip));

  beforeAll(async () => {
    t = await testApp(kind, { TRUST_PROXY: '1', ...env });
    clock = injectClock(t);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('50 wrong passwords from one address, then the right password from another address signs in', async () => {
    const email = `target-${run}@example.com`;
    await member(email);
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await tryIn(`${net}.1`, email, `guess ${i}`)).statusCode);
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(40).fill(429)]);
    const guesser = await tryIn(`${net}.1`, email, PASSWORD);
    expect(guesser.statusCode).toBe(429);
    expect(guesser.json().message).toBe(siteUserMessages.TOO_MANY_ATTEMPTS);
    expect((await tryIn(`${net}.2`, email, PASSWORD)).statusCode).toBe(200);
    expect(clock.waits).toEqual([]);
  });

  it('a success clears the address failures; many addresses slow the account, never refusing the right password', async () => {
    const email = `clears-${run}@example.com`;
    await member(email);
    for (let i = 0; i < 9; i++) expect((await tryIn(`${net}.3`, email, `guess ${i}`)).statusCode).toBe(401);
    expect((await tryIn(`${net}.3`, email, PASSWORD)).statusCode).toBe(200);
    const after: number[] = [];
    for (let i = 0; i < 11; i++) after.push((await tryIn(`${net}.3`, email, `guess again ${i}`)).statusCode);
    expect(after).toEqual([...Array(10).fill(401), 429]);
    // Across addresses the account has 19 checked failures (the success taken back, the refused attempt not
    // checked); from other addresses, past the ceiling of 20 each check waits first, the right password too.
    expect(SITE_USER_SIGN_IN_LIMITS.slowAbove.max).toBe(20);
    clock.waits.length = 0;
    for (let i = 0; i < 3; i++) expect((await tryIn(`${net}.${10 + i}`, email, 'nope')).statusCode).toBe(401);
    expect(clock.waits).toEqual([SITE_USER_SIGN_IN_LIMITS.slowMs, SITE_USER_SIGN_IN_LIMITS.slowMs]);
    expect((await tryIn(`${net}.20`, email, PASSWORD)).statusCode).toBe(200);
    expect(clock.waits).toHaveLength(3);
  });

  it('an unconfirmed account: the right password answers as a wrong one, sends the link again (limited), and the link works during a lock', async () => {
    const email = `unconfirmed-${run}@example.com`;
    const first = await signUp(email);
    const wrong = await tryIn(`${net}.30`, email, 'not it');
    const right = await tryIn(`${net}.31`, email, PASSWORD);
    expect(right.statusCode).toBe(wrong.statusCode);
    expect(right.statusCode).toBe(401);
    expect(right.json()).toEqual(wrong.json());
    expect(right.json().message).toBe(siteUserMessages.SIGN_IN_FAILED);
    // The link is mailed again, once; a wrong password mails nothing.
    expect(await mailCount(t, email, 'site-user-confirm-again')).toBe(1);
    const again = await mailedLink(t, email, '/account/confirm', 'site-user-confirm-again');
    expect(again).not.toBe(first.link);
    // Not again within the quarter hour, however often the right password is given.
    for (let i = 0; i < 3; i++) expect((await tryIn(`${net}.32`, email, PASSWORD)).statusCode).toBe(401);
    expect(await mailCount(t, email, 'site-user-confirm-again')).toBe(1);
    // Lock the address, then follow the link from it in the browser that signed up: it confirms and signs in.
    for (let i = 0; i < 12; i++) await tryIn(`${net}.33`, email, `guess ${i}`);
    expect((await tryIn(`${net}.33`, email, PASSWORD)).statusCode).toBe(429);
    const v = first.browser;
    const confirmed = await v.get(again, { 'x-forwarded-for': `${net}.33` });
    expect(confirmed.statusCode).toBe(303);
    expect(confirmed.headers.location).toBe('/account');
    expect((await v.get('/api/site-users/account/session')).json().authenticated).toBe(true);
  });
});

describe.each(DB_KINDS)('the site lock password counts failures only, as sign-in does (%s)', (kind) => {
  let t: TestApp;
  let clock: ReturnType<typeof injectClock>;
  const net = `10.${parseInt(run.slice(0, 2), 16)}.${(parseInt(run.slice(2, 4), 16) + 1) % 256}`;
  beforeAll(async () => {
    t = await testApp(kind, { TRUST_PROXY: '1' });
    clock = injectClock(t);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('guesses from many addresses slow the shared password but never lock it for a visitor with the right one', async () => {
    const owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', OWNER, from(`${net}.250`))).statusCode).toBe(200);
    expect((await owner.send('PUT', '/api/members/site-password', { password: 'open sesame' }, from(`${net}.250`))).statusCode).toBe(200);
    const unlock = async (ip: string, password: string) =>
      (await new Visitor(t.app).send('POST', '/api/members/unlock', { target: 'site', password }, from(ip))).statusCode;
    for (let a = 0; a < 11; a++) {
      for (let i = 0; i < 10; i++) expect(await unlock(`${net}.${a + 1}`, `guess ${a} ${i}`)).toBe(401);
    }
    // The guessing address is stopped, the right password too; past 100 failures across addresses each try waited.
    expect(await unlock(`${net}.1`, 'open sesame')).toBe(429);
    expect(clock.waits).toEqual(Array(10).fill(3_000));
    const visitor = new Visitor(t.app);
    const ok = await visitor.send('POST', '/api/members/unlock', { target: 'site', password: 'open sesame' }, from(`${net}.100`));
    expect(ok.statusCode).toBe(200);
    expect((await visitor.get('/', { 'x-forwarded-for': `${net}.100` })).statusCode).toBe(200);
  });
});
