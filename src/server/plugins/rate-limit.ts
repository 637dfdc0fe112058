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

interface PendingHit {
  /** The window this key's hits in the batch count in (ms since the epoch). */
  start: number;
  waiters: Array<{ resolve: (count: number) => void; reject: (err: unknown) => void }>;
}

/**
 * Counters in PostgreSQL (or PGlite): shared by every instance on the database.
 *
 * Hits are coalesced: while one upsert is in flight, the hits that arrive meanwhile wait and go out
 * together in the next one (one row per key, `count + n`), and each hit still gets its own exact count
 * (the new total minus the hits queued after it). So a burst costs one statement per round trip instead
 * of one per request, and a hot key (one IP address behind many visitors) is no longer a row every
 * request queues on. The counters are not worth a disk flush: the statement commits asynchronously
 * (synchronous_commit off for its own transaction only), so a database crash may forget the last
 * moment of counts, and nothing else.
 */
export class DatabaseRateLimitStore implements RateLimitStore {
  /** Batches waiting to be sent, in order; a key is in a batch at most once (one window per key per batch). */
  private queue: Array<Map<string, PendingHit>> = [];
  private flushing = false;
  private scheduled = false;

  constructor(private readonly database: Database) {}

  hit(key: string, windowMs: number, now: number): Promise<number> {
    return this.enqueue(key, Math.floor(now / windowMs) * windowMs);
  }

  hitMany(hits: ReadonlyArray<{ key: string; windowMs: number }>, now: number): Promise<number[]> {
    return Promise.all(hits.map((h) => this.enqueue(h.key, Math.floor(now / h.windowMs) * h.windowMs)));
  }

  private enqueue(key: string, start: number): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      let batch = this.queue.find((b) => {
        const p = b.get(key);
        return !p || p.start === start;
      });
      if (!batch) {
        batch = new Map();
        this.queue.push(batch);
      }
      let p = batch.get(key);
      if (!p) {
        p = { start, waiters: [] };
        batch.set(key, p);
      }
      p.waiters.push({ resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.flushing || this.scheduled) return;
    this.scheduled = true;
    // setImmediate: the hits of every request read in this turn of the event loop go out together.
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue.shift();
    if (!batch) return;
    this.flushing = true;
    try {
      const entries = [...batch];
      const values = entries.map(([key, p]) => sql`(${key}::text, ${new Date(p.start)}::timestamptz, ${p.waiters.length}::int)`);
      const r = await rows<{ key: string; count: number | string }>(
        this.database.db,
        sql`WITH async_commit AS (SELECT set_config('synchronous_commit', 'off', true) AS v)
            INSERT INTO rate_limits (key, window_start, count)
            SELECT h.key, h.window_start, h.n FROM (VALUES ${sql.join(values, sql`, `)}) AS h(key, window_start, n), async_commit
            ON CONFLICT (key) DO UPDATE SET
              count = CASE WHEN rate_limits.window_start = EXCLUDED.window_start THEN rate_limits.count + EXCLUDED.count ELSE EXCLUDED.count END,
              window_start = EXCLUDED.window_start
            RETURNING key, count`,
      );
      const totals = new Map(r.map((x) => [x.key, Number(x.count)]));
      for (const [key, p] of entries) {
        const total = totals.get(key) ?? p.waiters.length;
        const first = total - p.waiters.length;
        p.waiters.forEach((w, i) => w.resolve(first + i + 1));
      }
    } catch (err) {
      for (const p of batch.values()) for (const w of p.waiters) w.reject(err);
    } finally {
      this.flushing = false;
      if (this.queue.length > 0) this.schedule();
    }
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
  /**
   * With a `key` other than the address (a visitor's crumb or cart cookie, which the client chooses):
   * the ceiling per IP address over the same window, so a fresh cookie gets no fresh allowance.
   * Default: 20 times `max` (many visitors may share one address: an office, a school, a mobile carrier's NAT), as the cart writes count.
   */
  ipMax?: number;
}

/** The per-IP ceiling a visitor-keyed rule gets by default, as a multiple of its max. */
export const IP_CEILING_FACTOR = 20;

function tooMany(rule: RateLimitRule): HttpError {
  return new HttpError(429, rule.message ?? 'Please try again in a few seconds.', undefined, { retryAfterSeconds: Math.ceil(rule.windowMs / 1000) });
}

export class RateLimiter {
  constructor(
    readonly store: RateLimitStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one hit on the rule for `key` and returns the count so far in the current window (no throw). */
  async hit(rule: RateLimitRule, key: string): Promise<number> {
    return this.store.hit(`${rule.name}:${key}`, rule.windowMs, this.now());
  }

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

  /**
   * A preHandler for a route. A rule keyed on something other than the address also counts against a
   * per-IP ceiling (`ipMax`), so every limit holds per IP whatever cookie the client sends.
   */
  guard(rule: RateLimitRule) {
    return async (req: FastifyRequest) => {
      if (!rule.key) return this.check(rule, req.ip);
      const ipRule: RateLimitRule = { name: `${rule.name}-ip`, max: rule.ipMax ?? rule.max * IP_CEILING_FACTOR, windowMs: rule.windowMs, message: rule.message };
      await this.checkAll([
        { rule, key: rule.key(req) },
        { rule: ipRule, key: req.ip },
      ]);
    };
  }
}
