import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { rows } from '../db-util.js';
import { HttpError } from '../errors.js';

export interface RateLimitStore {
  /** Counts one hit on `key` in the fixed window that holds `now`; returns the count so far in that window. */
  hit(key: string, windowMs: number, now: number): Promise<number>;
  /** Counts one hit on each key, in one round trip where the store allows it; counts in the same order. */
  hitMany?(hits: ReadonlyArray<{ key: string; windowMs: number }>, now: number): Promise<number[]>;
}

/** Counters in PostgreSQL (or PGlite): shared by every instance on the database. One statement per hit. */
export class DatabaseRateLimitStore implements RateLimitStore {
  constructor(private readonly database: Database) {}

  async hit(key: string, windowMs: number, now: number): Promise<number> {
    const start = new Date(Math.floor(now / windowMs) * windowMs);
    const r = await rows<{ count: number }>(
      this.database.db,
      sql`INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, ${start}, 1)
          ON CONFLICT (key) DO UPDATE SET
            count = CASE WHEN rate_limits.window_start = EXCLUDED.window_start THEN rate_limits.count + 1 ELSE 1 END,
            window_start = EXCLUDED.window_start
          RETURNING count`,
    );
    return Number(r[0]?.count ?? 1);
  }

  async hitMany(hits: ReadonlyArray<{ key: string; windowMs: number }>, now: number): Promise<number[]> {
    const values = hits.map((h) => sql`(${h.key}, ${new Date(Math.floor(now / h.windowMs) * h.windowMs)}, 1)`);
    const r = await rows<{ key: string; count: number }>(
      this.database.db,
      sql`INSERT INTO rate_limits (key, window_start, count) VALUES ${sql.join(values, sql`, `)}
          ON CONFLICT (key) DO UPDATE SET
            count = CASE WHEN rate_limits.window_start = EXCLUDED.window_start THEN rate_limits.count + 1 ELSE 1 END,
            window_start = EXCLUDED.window_start
          RETURNING key, count`,
    );
    const byKey = new Map(r.map((x) => [x.key, Number(x.count)]));
    return hits.map((h) => byKey.get(h.key) ?? 1);
  }

  async purge(olderThan: Date): Promise<void> {
    await this.database.db.execute(sql`DELETE FROM rate_limits WHERE window_start < ${olderThan}`);
  }
}

/** Counters in Redis (REDIS_URL): one INCR per hit, the key expiring with its window. */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(private readonly redis: Redis) {}

  async hit(key: string, windowMs: number, now: number): Promise<number> {
    const start = Math.floor(now / windowMs) * windowMs;
    const k = `tessera:rl:${key}:${start}`;
    const res = await this.redis.multi().incr(k).pexpire(k, windowMs + 1000).exec();
    const [err, count] = res?.[0] ?? [null, 1];
    if (err) throw err;
    return Number(count);
  }
}

/** Counters in this process only (tests, or a single instance that wants no database round trip). */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { start: number; count: number }>();

  async hit(key: string, windowMs: number, now: number): Promise<number> {
    const start = Math.floor(now / windowMs) * windowMs;
    const w = this.windows.get(key);
    if (!w || w.start !== start) {
      if (this.windows.size > 100_000) this.windows.clear();
      this.windows.set(key, { start, count: 1 });
      return 1;
    }
    return ++w.count;
  }
}

export interface RateLimitRule {
  /** A name that keeps the counters of different rules apart. */
  name: string;
  max: number;
  windowMs: number;
  /** What is counted: by default the client's IP address. */
  key?: (req: FastifyRequest) => string;
  /** The 429 message. */
  message?: string;
}

function tooMany(rule: RateLimitRule): HttpError {
  return new HttpError(429, rule.message ?? 'Please try again in a few seconds.', undefined, { retryAfterSeconds: Math.ceil(rule.windowMs / 1000) });
}

export class RateLimiter {
  constructor(
    readonly store: RateLimitStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws 429 when the caller went over the rule's limit in the current window. */
  async check(rule: RateLimitRule, key: string): Promise<void> {
    const count = await this.store.hit(`${rule.name}:${key}`, rule.windowMs, this.now());
    if (count > rule.max) throw tooMany(rule);
  }

  /** Checks several rules at once (e.g. per visitor and per IP), in one round trip where the store allows. */
  async checkAll(checks: ReadonlyArray<{ rule: RateLimitRule; key: string }>): Promise<void> {
    if (checks.length === 1) return this.check(checks[0]!.rule, checks[0]!.key);
    const hits = checks.map((c) => ({ key: `${c.rule.name}:${c.key}`, windowMs: c.rule.windowMs }));
    const now = this.now();
    const counts = this.store.hitMany ? await this.store.hitMany(hits, now) : await Promise.all(hits.map((h) => this.store.hit(h.key, h.windowMs, now)));
    checks.forEach((c, i) => {
      if (counts[i]! > c.rule.max) throw tooMany(c.rule);
    });
  }

  /** A preHandler for a route. */
  guard(rule: RateLimitRule) {
    return async (req: FastifyRequest) => {
      await this.check(rule, rule.key ? rule.key(req) : req.ip);
    };
  }
}
