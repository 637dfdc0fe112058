import { describe, expect, it, vi } from 'vitest';
import { DB_KINDS, testDatabase } from '../../helpers/db.js';
import { sql } from 'drizzle-orm';
import {
  DatabaseRateLimitStore,
  RATE_LIMIT_KEEP_MS,
  RateLimiter,
  WriteBehindRateLimitStore,
} from '../../../src/server/plugins/rate-limit.js';
import { rows } from '../../../src/server/db-util.js';
import { testApp } from '../../helpers/app.js';
import { HttpError } from '../../../src/server/errors.js';

describe.each(DB_KINDS)('database rate-limit store, coalesced hits, on %s', (kind) => {
  it('gives every one of many concurrent hits its own exact count, across two stores (instances) on one database', async () => {
    const database = await testDatabase(kind);
    try {
      const now = 7_000_000;
      const a = new DatabaseRateLimitStore(database);
      const b = new DatabaseRateLimitStore(database);
      const counts = await Promise.all(Array.from({ length: 120 }, (_, i) => (i % 2 ? a : b).hit('hot', 10_000, now)));
      expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
      // Many keys at once, several hits each, and a key hit in two windows in the same turn.
      const many = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          a.hitMany(
            [
              { key: `v${i % 20}`, windowMs: 10_000 },
              { key: 'ip', windowMs: 10_000 },
            ],
            now,
          ),
        ),
      );
      for (let k = 0; k < 20; k++) {
        expect(
          many
            .filter((_, i) => i % 20 === k)
            .map((c) => c[0])
            .sort(),
        ).toEqual([1, 2, 3]);
      }
      expect(many.map((c) => c[1]).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
      const [old, next] = await Promise.all([a.hit('edge', 10_000, now), a.hit('edge', 10_000, now + 10_000)]);
      expect([old, next]).toEqual([1, 1]);
      expect(await a.hit('edge', 10_000, now + 10_000)).toBe(2);
    } finally {
      await database.close();
    }
  });

  it('refuses exactly the hits over the limit when they arrive together', async () => {
    const database = await testDatabase(kind);
    try {
      const limiter = new RateLimiter(new DatabaseRateLimitStore(database), () => 9_000_000);
      const rule = { name: 'burst', max: 5, windowMs: 10_000 };
      const results = await Promise.all(
        Array.from({ length: 12 }, () =>
          limiter.check(rule, 'x').then(
            () => 'ok',
            (e: unknown) => e,
          ),
        ),
      );
      expect(results.filter((r) => r === 'ok')).toHaveLength(5);
      const refused = results.filter((r) => r !== 'ok');
      expect(refused).toHaveLength(7);
      for (const e of refused) expect((e as HttpError).status).toBe(429);
    } finally {
      await database.close();
    }
  });
});

/** The row a store wrote for `key` (null when none). */
async function rowOf(database: Awaited<ReturnType<typeof testDatabase>>, key: string) {
  const r = await rows<{ window_start: Date | string; count: number }>(
    database.db,
    sql`SELECT window_start, count FROM rate_limits WHERE key = ${key}`,
  );
  return r[0] ? { start: new Date(r[0].window_start).getTime(), count: Number(r[0].count) } : null;
}

describe.each(DB_KINDS)('write-behind rate-limit store (PGlite: counted in memory, written each second) on %s', (kind) => {
  it('counts exactly, from before the table was read back, and rolls windows like the database store', async () => {
    const database = await testDatabase(kind);
    const store = new WriteBehindRateLimitStore(database, { flushMs: 60_000 });
    try {
      const now = Date.now();
      // The first hits arrive while the store still reads the table: each still gets its own count.
      const counts = await Promise.all(Array.from({ length: 120 }, () => store.hit('hot', 10_000, now)));
      expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
      const many = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          store.hitMany(
            [
              { key: `v${i % 20}`, windowMs: 10_000 },
              { key: 'ip', windowMs: 10_000 },
            ],
            now,
          ),
        ),
      );
      for (let k = 0; k < 20; k++)
        expect(
          many
            .filter((_, i) => i % 20 === k)
            .map((c) => c[0])
            .sort(),
        ).toEqual([1, 2, 3]);
      expect(many.map((c) => c[1]).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
      // The next window starts from one; so does a clock set back (as in the database store).
      expect(await store.hit('hot', 10_000, now + 10_000)).toBe(1);
      expect(await store.hit('hot', 10_000, now)).toBe(1);
      expect(await store.hit('hot', 10_000, now + 10_000)).toBe(1);
      expect(await store.hit('hot', 10_000, now + 10_000)).toBe(2);
      // Nothing is written before the flush.
      expect(await rowOf(database, 'hot')).toBeNull();
      await store.flush();
      expect(await rowOf(database, 'hot')).toEqual({ start: Math.floor((now + 10_000) / 10_000) * 10_000, count: 2 });
      expect(await rowOf(database, 'ip')).toMatchObject({ count: 60 });
    } finally {
      await store.close();
      await database.close();
    }
  });

  it('writes on its timer, and a restart reads back the windows still running', async () => {
    const database = await testDatabase(kind);
    try {
      const now = Date.now();
      const a = new WriteBehindRateLimitStore(database, { flushMs: 50 });
      for (let i = 0; i < 5; i++) await a.hit('login:10.0.0.1', 60_000, now);
      await a.hit('ended', 1000, now - 5000);
      // No flush is asked for: the store's own 50 ms timer writes the count.
      await vi.waitFor(async () => expect((await rowOf(database, 'login:10.0.0.1'))?.count).toBe(5), { timeout: 5000, interval: 20 });
      await a.hit('login:10.0.0.1', 60_000, now);
      await a.close();
      expect((await rowOf(database, 'login:10.0.0.1'))?.count).toBe(6);
      // The next process: the running window goes on from its count; an ended one starts again.
      const b = new WriteBehindRateLimitStore(database, { flushMs: 60_000 });
      expect(await b.hit('login:10.0.0.1', 60_000, now)).toBe(7);
      expect(await b.hit('ended', 1000, now)).toBe(1);
      await b.close();
    } finally {
      await database.close();
    }
  });

  it('keeps memory bounded under a flood of keys without losing any count', async () => {
    const database = await testDatabase(kind);
    const store = new WriteBehindRateLimitStore(database, { flushMs: 60_000, sweepFrom: 50, maxKeys: 100 });
    try {
      const now = Date.now();
      // Counters of a window that has ended go first.
      for (let i = 0; i < 40; i++) await store.hit(`old${i}`, 1000, now - 10_000);
      await store.flush();
      expect(await store.hit('victim', 60_000, now)).toBe(1);
      expect(await store.hit('victim', 60_000, now)).toBe(2);
      await store.flush();
      for (let i = 0; i < 300; i++) {
        await store.hit(`flood${i}`, 60_000, now);
        if (i % 20 === 19) await store.flush();
      }
      expect(store.size).toBeLessThanOrEqual(100);
      // The victim's counter was dropped from memory while its window runs: it is read back, not restarted.
      expect(await store.hit('victim', 60_000, now)).toBe(3);
      expect(await store.hit('flood0', 60_000, now)).toBe(2);
      // A key never counted starts from one.
      expect(await store.hit('new', 60_000, now)).toBe(1);
      // Counters not written yet are never dropped: past the bound they wait for the next write.
      await store.flush();
      for (let i = 0; i < 150; i++) expect(await store.hit(`burst${i}`, 60_000, now)).toBe(1);
      expect(store.size).toBe(150);
      await store.flush();
      expect(await store.hit('after', 60_000, now)).toBe(1);
      expect(store.size).toBeLessThanOrEqual(100);
      expect(await store.hit('burst0', 60_000, now)).toBe(2);
      expect(await store.hit('burst149', 60_000, now)).toBe(2);
    } finally {
      await store.close();
      await database.close();
    }
  });

  it('keeps counting when a write fails, and writes the exact count once it can', async () => {
    const database = await testDatabase(kind);
    const store = new WriteBehindRateLimitStore(database, { flushMs: 60_000 });
    try {
      const now = Date.now();
      await store.hit('k', 60_000, now);
      await database.db.execute(sql`ALTER TABLE rate_limits RENAME TO rate_limits_away`);
      await store.hit('k', 60_000, now);
      await expect(store.flush()).rejects.toThrow();
      expect(await store.hit('k', 60_000, now)).toBe(3);
      await database.db.execute(sql`ALTER TABLE rate_limits_away RENAME TO rate_limits`);
      await store.flush();
      expect((await rowOf(database, 'k'))?.count).toBe(3);
    } finally {
      await store.close();
      await database.close();
    }
  });
});

describe.each(DB_KINDS)('old rate-limit counters on %s', (kind) => {
  it('are deleted by either table store once their window began longer ago than RATE_LIMIT_KEEP_MS, and the rest stay', async () => {
    const database = await testDatabase(kind);
    try {
      const now = Date.now();
      const direct = new DatabaseRateLimitStore(database);
      const behind = new WriteBehindRateLimitStore(database, { flushMs: 60_000 });
      await direct.hit('kept-a', 86_400_000, now - 3_600_000);
      await behind.hit('kept-b', 60_000, now);
      await behind.flush();
      for (const store of [direct, behind]) {
        await direct.hit('gone-a', 60_000, now - RATE_LIMIT_KEEP_MS - 3_600_000);
        await behind.hit('gone-b', 60_000, now - RATE_LIMIT_KEEP_MS - 60_000);
        await behind.flush();
        expect(await rowOf(database, 'gone-a')).not.toBeNull();
        expect(await rowOf(database, 'gone-b')).not.toBeNull();
        await store.purge(new Date(now - RATE_LIMIT_KEEP_MS));
        expect(await rowOf(database, 'gone-a')).toBeNull();
        expect(await rowOf(database, 'gone-b')).toBeNull();
        expect((await rowOf(database, 'kept-a'))?.count).toBe(1);
        expect((await rowOf(database, 'kept-b'))?.count).toBe(1);
      }
      // The counts still running go on after the purge.
      expect(await behind.hit('kept-b', 60_000, now)).toBe(2);
      await behind.close();
    } finally {
      await database.close();
    }
  });
});

describe('the app on PGlite', () => {
  it('counts in this process and writes the counts as it closes', async () => {
    const t = await testApp('pglite');
    let closed = false;
    try {
      expect(t.app.services.rateLimiter.store).toBeInstanceOf(WriteBehindRateLimitStore);
      for (let i = 0; i < 3; i++) {
        const res = await t.app.inject({ method: 'GET', url: `/search?q=linen${i}`, remoteAddress: '10.9.8.7' });
        expect(res.statusCode).toBe(200);
      }
      await t.app.close();
      closed = true;
      expect((await rowOf(t.database, 'search-ip:10.9.8.7'))?.count).toBe(3);
    } finally {
      if (closed) await t.database.close();
      else await t.close();
    }
  });
});
