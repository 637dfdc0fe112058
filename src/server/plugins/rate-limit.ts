import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { rows } from '../db-util.js';
import { HttpError } from '../errors.js';

export interface RateLimitStore {
  /** Counts one hit on `key` in the fixed window that holds `now`; returns the count so far in that window. */
  hit(key: string, windowMs: number, now: number): Promise<number>;
  /** Counts one hit on each key, in one round trip where the store allows it; counts in the same order. */
  hitMany?(hits: ReadonlyArray<{ key: string; windowMs: number }>, now: number): Promise<number[]>;
  /**
   * Takes back one hit counted on `key` in the window that holds `now` (nothing when that window holds none):
   * a hit counted before the outcome was known, which turned out not to be one the rule counts (a sign-in that
   * succeeded).
   */
  unhit(key: string, windowMs: number, now: number): Promise<void>;
  /** Sets `key`'s count in the window that holds `now` back to zero (a successful sign-in clears its address's failures). */
  reset(key: string, windowMs: number, now: number): Promise<void>;
  /** Writes what the store holds back, when it holds anything back (called as the app closes). */
  close?(): Promise<void>;
  /** Deletes the counters of windows that began before `olderThan` (the table stores; see RATE_LIMIT_KEEP_MS). */
  purge?(olderThan: Date): Promise<void>;
}

/**
 * How long a counter stays in `rate_limits` after its window began: far longer than any rule's window (a
 * day at most), so only counters nobody can still be counting against are deleted. One row per key (an
 * address, a visitor) would otherwise pile up for every address that ever called.
 */
export const RATE_LIMIT_KEEP_MS = 7 * 24 * 3_600_000;
/** How often an instance running the workers deletes older counters. */
export const RATE_LIMIT_PURGE_EVERY_MS = 3_600_000;

/**
 * The one upsert both table stores send: rows of (key, window start, count), committed asynchronously (the
 * counters are not worth a disk flush: a database crash may forget the last moment of counts, nothing else),
 * `onConflict` saying how a key's row takes the new count.
 */
function upsertCounters(rowsSql: SQL[], onConflict: SQL): SQL {
  return sql`WITH async_commit AS (SELECT set_config('synchronous_commit', 'off', true) AS v)
    INSERT INTO rate_limits (key, window_start, count)
    SELECT h.key, h.window_start, h.n FROM (VALUES ${sql.join(rowsSql, sql`, `)}) AS h(key, window_start, n), async_commit
    ON CONFLICT (key) DO UPDATE SET ${onConflict}`;
}

const counterRow = (key: string, start: number, count: number) => sql`(${key}::text, ${new Date(start)}::timestamptz, ${count}::int)`;

/** Deletes the table's counters whose window began before `olderThan` (either table store's purge). */
async function purgeCounters(database: Database, olderThan: Date): Promise<void> {
  await database.db.execute(sql`DELETE FROM rate_limits WHERE window_start < ${olderThan}`);
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
      const values = entries.map(([key, p]) => counterRow(key, p.start, p.waiters.length));
      const r = await rows<{ key: string; count: number | string }>(
        this.database.db,
        sql`${upsertCounters(
          values,
          sql`count = CASE WHEN rate_limits.window_start = EXCLUDED.window_start THEN rate_limits.count + EXCLUDED.count ELSE EXCLUDED.count END,
              window_start = EXCLUDED.window_start`,
        )} RETURNING key, count`,
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

  /** One statement, after the hit it takes back has been written (the caller awaited it). */
  async unhit(key: string, windowMs: number, now: number): Promise<void> {
    const start = new Date(Math.floor(now / windowMs) * windowMs);
    await this.database.db.execute(
      sql`UPDATE rate_limits SET count = count - 1 WHERE key = ${key} AND window_start = ${start}::timestamptz AND count > 0`,
    );
  }

  async reset(key: string, windowMs: number, now: number): Promise<void> {
    const start = new Date(Math.floor(now / windowMs) * windowMs);
    await this.database.db.execute(sql`UPDATE rate_limits SET count = 0 WHERE key = ${key} AND window_start = ${start}::timestamptz`);
  }

  purge(olderThan: Date): Promise<void> {
    return purgeCounters(this.database, olderThan);
  }
}

interface KeptWindow {
  /** The window's start (ms since the epoch). */
  start: number;
  /** The rule's window length; for a counter read back at start, unknown until hit again (RATE_LIMIT_KEEP_MS). */
  windowMs: number;
  count: number;
}

/** A counter read back from the table (its rule's window length unknown until it is hit again). */
const readBack = (x: { window_start: Date | string; count: number | string }): KeptWindow => ({
  start: new Date(x.window_start).getTime(),
  windowMs: RATE_LIMIT_KEEP_MS,
  count: Number(x.count),
});

export interface WriteBehindOptions {
  /** How often counts changed since the last write go to the database (ms). */
  flushMs?: number;
  /** Counters past which windows that have ended are dropped (at most once a second). */
  sweepFrom?: number;
  /** Counters past which written ones are dropped even in their window (read back from the database when hit again). */
  maxKeys?: number;
}

/**
 * (docs/decisions/0011-rate-limit-store.md) Counters for a database that only this process opens: PGlite, whose data folder the process locks, so no
 * other instance shares the counts. Each hit is counted in memory, exactly and with no statement (on PGlite
 * a statement runs on the event loop: the search limit alone cost a tenth of it under a crawl of many
 * addresses). The counts changed since the last write go to `rate_limits` in one statement a second (and
 * when the app closes), and the windows still running are read back when the store is first used, so a
 * restart forgets at most the last second of counts.
 *
 * Memory stays bounded: past `sweepFrom` counters the windows that have ended are dropped; past `maxKeys`
 * written counters are dropped too, and from then on a key not in memory is read from the table before it
 * is counted, so no count is ever lost to the bound (a flood of made-up keys cannot reset anyone's count).
 */
export class WriteBehindRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, KeptWindow>();
  /** Keys whose count changed since it was last written. */
  private readonly dirty = new Set<string>();
  /** Keys being read from the table (after the bound dropped counters in their window). */
  private readonly reading = new Map<string, Promise<void>>();
  private loaded: Promise<void> | null = null;
  private ready = false;
  /** Counters still in their window have been dropped: a key not in memory may have a count in the table. */
  private partial = false;
  private lastSweep = 0;
  /** Every counter left was unwritten at the last pass: no pass again before the next write (a flood stays O(1) a hit). */
  private full = false;
  private writing: Promise<void> | null = null;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly sweepFrom: number;
  private readonly maxKeys: number;

  constructor(
    private readonly database: Database,
    opts: WriteBehindOptions = {},
  ) {
    this.sweepFrom = opts.sweepFrom ?? 50_000;
    this.maxKeys = opts.maxKeys ?? 200_000;
    this.timer = setInterval(() => void this.flush().catch(() => undefined), opts.flushMs ?? 1000);
    this.timer.unref();
  }

  /** Counters held in memory. */
  get size(): number {
    return this.windows.size;
  }

  hit(key: string, windowMs: number, now: number): Promise<number> {
    if (this.ready && (!this.partial || this.windows.has(key))) return Promise.resolve(this.count(key, windowMs, now));
    return this.slowHit(key, windowMs, now);
  }

  hitMany(hits: ReadonlyArray<{ key: string; windowMs: number }>, now: number): Promise<number[]> {
    return Promise.all(hits.map((h) => this.hit(h.key, h.windowMs, now)));
  }

  /** Writes the counts changed since the last write (one statement per 2,000 keys). */
  flush(): Promise<void> {
    this.writing ??= this.write().finally(() => {
      this.writing = null;
    });
    return this.writing;
  }

  /** Stops the timer and writes what is left. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    if (this.writing) await this.writing.catch(() => undefined);
    await this.flush();
  }

  private async slowHit(key: string, windowMs: number, now: number): Promise<number> {
    await this.known(key);
    return this.count(key, windowMs, now);
  }

  /** Makes sure `key`'s counter is in memory when it has one (the table read back, or the key read after the bound). */
  private async known(key: string): Promise<void> {
    if (!this.ready) await this.load();
    if (this.partial && !this.windows.has(key)) await this.readKey(key);
  }

  async unhit(key: string, windowMs: number, now: number): Promise<void> {
    await this.known(key);
    const w = this.windows.get(key);
    if (!w || w.start !== Math.floor(now / windowMs) * windowMs || w.count === 0) return;
    w.count--;
    this.dirty.add(key);
  }

  async reset(key: string, windowMs: number, now: number): Promise<void> {
    await this.known(key);
    const w = this.windows.get(key);
    if (!w || w.start !== Math.floor(now / windowMs) * windowMs) return;
    // Kept at zero (not dropped): a dropped key would be read back from the table's older count.
    w.count = 0;
    this.dirty.add(key);
  }

  private count(key: string, windowMs: number, now: number): number {
    const start = Math.floor(now / windowMs) * windowMs;
    const w = this.windows.get(key);
    if (w && w.start === start) {
      w.windowMs = windowMs;
      this.dirty.add(key);
      return ++w.count;
    }
    // Another window (the clock moved on, or back): it starts again from one, as in the database store.
    if (!w && this.windows.size >= this.sweepFrom) this.bound();
    this.windows.set(key, { start, windowMs, count: 1 });
    this.dirty.add(key);
    return 1;
  }

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      const r = await rows<{ key: string; window_start: Date | string; count: number | string }>(
        this.database.db,
        sql`SELECT key, window_start, count FROM rate_limits WHERE window_start >= ${new Date(Date.now() - RATE_LIMIT_KEEP_MS)}`,
      );
      for (const x of r) {
        // A hit counted while the table was read is newer than the table.
        if (!this.windows.has(x.key)) this.windows.set(x.key, readBack(x));
      }
      this.ready = true;
    })().catch((err) => {
      this.loaded = null;
      throw err;
    });
    return this.loaded;
  }

  private readKey(key: string): Promise<void> {
    let read = this.reading.get(key);
    if (!read) {
      read = (async () => {
        const r = await rows<{ window_start: Date | string; count: number | string }>(
          this.database.db,
          sql`SELECT window_start, count FROM rate_limits WHERE key = ${key}`,
        );
        const x = r[0];
        if (x && !this.windows.has(key)) this.windows.set(key, readBack(x));
      })().finally(() => this.reading.delete(key));
      this.reading.set(key, read);
    }
    return read;
  }

  /** Keeps the number of counters bounded (see the class comment). */
  private bound(): void {
    const now = Date.now();
    if (now - this.lastSweep >= 1000) {
      this.lastSweep = now;
      for (const [key, w] of this.windows) {
        if (w.start + w.windowMs <= now && !this.dirty.has(key)) this.windows.delete(key);
      }
    }
    if (this.windows.size < this.maxKeys || this.full) return;
    // Oldest first (a Map keeps the order keys were first counted in); only counters already written.
    const target = Math.floor(this.maxKeys * 0.9);
    for (const [key, w] of this.windows) {
      if (this.windows.size <= target) break;
      if (this.dirty.has(key)) continue;
      this.windows.delete(key);
      if (w.start + w.windowMs > now) this.partial = true;
    }
    this.full = this.windows.size > target;
  }

  purge(olderThan: Date): Promise<void> {
    return purgeCounters(this.database, olderThan);
  }

  private async write(): Promise<void> {
    this.full = false;
    while (this.dirty.size > 0) {
      const keys: string[] = [];
      for (const key of this.dirty) {
        keys.push(key);
        if (keys.length === 2000) break;
      }
      const values = [];
      for (const key of keys) {
        this.dirty.delete(key);
        const w = this.windows.get(key);
        if (w) values.push(counterRow(key, w.start, w.count));
      }
      if (values.length === 0) continue;
      try {
        await this.database.db.execute(upsertCounters(values, sql`count = EXCLUDED.count, window_start = EXCLUDED.window_start`));
      } catch (err) {
        // Written next time (the counts in memory stay exact meanwhile).
        for (const key of keys) if (this.windows.has(key)) this.dirty.add(key);
        throw err;
      }
    }
  }
}

/** Counters in Redis (REDIS_URL): one INCR per hit, the key expiring with its window. */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(private readonly redis: Redis) {}

  async hit(key: string, windowMs: number, now: number): Promise<number> {
    const start = Math.floor(now / windowMs) * windowMs;
    const k = `tessera:rl:${key}:${start}`;
    const res = await this.redis
      .multi()
      .incr(k)
      .pexpire(k, windowMs + 1000)
      .exec();
    const [err, count] = res?.[0] ?? [null, 1];
    if (err) throw err;
    return Number(count);
  }

  async unhit(key: string, windowMs: number, now: number): Promise<void> {
    const k = `tessera:rl:${key}:${Math.floor(now / windowMs) * windowMs}`;
    // Only a counter that exists and is above zero: a plain DECR would make a counter of -1 that never expires.
    await this.redis.eval(`if (tonumber(redis.call('get', KEYS[1]) or '0') > 0) then redis.call('decr', KEYS[1]) end return 0`, 1, k);
  }

  async reset(key: string, windowMs: number, now: number): Promise<void> {
    await this.redis.del(`tessera:rl:${key}:${Math.floor(now / windowMs) * windowMs}`);
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

  async unhit(key: string, windowMs: number, now: number): Promise<void> {
    const w = this.windows.get(key);
    if (w && w.start === Math.floor(now / windowMs) * windowMs && w.count > 0) w.count--;
  }

  async reset(key: string, windowMs: number, now: number): Promise<void> {
    const w = this.windows.get(key);
    if (w && w.start === Math.floor(now / windowMs) * windowMs) w.count = 0;
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
  return new HttpError(429, rule.message ?? 'Please try again in a few seconds.', undefined, {
    retryAfterSeconds: Math.ceil(rule.windowMs / 1000),
  });
}

export class RateLimiter {
  constructor(
    readonly store: RateLimitStore,
    /** The clock the windows are counted by; tests pin it so a run never straddles two windows. */
    public now: () => number = Date.now,
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
    const counts = this.store.hitMany
      ? await this.store.hitMany(hits, now)
      : await Promise.all(hits.map((h) => this.store.hit(h.key, h.windowMs, now)));
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
      const ipRule: RateLimitRule = {
        name: `${rule.name}-ip`,
        max: rule.ipMax ?? rule.max * IP_CEILING_FACTOR,
        windowMs: rule.windowMs,
        message: rule.message,
      };
      await this.checkAll([
        { rule, key: rule.key(req) },
        { rule: ipRule, key: req.ip },
      ]);
    };
  }
}
