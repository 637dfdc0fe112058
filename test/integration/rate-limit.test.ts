import { describe, expect, it } from 'vitest';
import { DB_KINDS, testDatabase } from '../helpers/db.js';
import { DatabaseRateLimitStore, RateLimiter } from '../../src/server/plugins/rate-limit.js';
import { HttpError } from '../../src/server/errors.js';

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
        Array.from({ length: 60 }, (_, i) => a.hitMany([{ key: `v${i % 20}`, windowMs: 10_000 }, { key: 'ip', windowMs: 10_000 }], now)),
      );
      for (let k = 0; k < 20; k++) {
        expect(many.filter((_, i) => i % 20 === k).map((c) => c[0]).sort()).toEqual([1, 2, 3]);
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
      const results = await Promise.all(Array.from({ length: 12 }, () => limiter.check(rule, 'x').then(() => 'ok', (e: unknown) => e)));
      expect(results.filter((r) => r === 'ok')).toHaveLength(5);
      const refused = results.filter((r) => r !== 'ok');
      expect(refused).toHaveLength(7);
      for (const e of refused) expect((e as HttpError).status).toBe(429);
    } finally {
      await database.close();
    }
  });
});
