/**
 * Cached per-site reads for public pages, with invalidation that holds across instances.
 *
 * The version: statement triggers on the content tables that public pages read besides the page's own
 * item (websites, items, product_variants, product_reviews, related_products, commerce_preferences; see
 * migration 0013) insert one `site_changes` row per writing transaction, in that transaction. The
 * version is the sum of the rows' weights and `max(id)`: it moves when, and only when, such a transaction
 * commits, whichever area or instance wrote it, and writers never wait on each other for it (one key per
 * transaction, insert only). A GET request reads it at most once (one index-only query, on first use), so
 * a page sees every change committed before that read, exactly as if it had read the tables themselves.
 *
 * The caches: `get(area, key, load)` keeps what `load` returned for the current version; a new version
 * empties the area, and an area holds at most MAX_ENTRIES values (the least recently used goes first).
 * A value is shared by every request of that version, so callers treat it as read-only.
 * Stored before or after the version was read, a value is never older than the version it is kept under
 * (the version is read first, the data after), so a page never sees data older than a committed change.
 *
 * Reached through `app.siteCache`; the request scope is an AsyncLocalStorage opened by an onRequest hook.
 * Why a database-kept version: docs/decisions/0004-page-cache.md.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { rows } from '../db-util.js';

const noop = () => undefined;

/** The channel the site_changes trigger notifies (migration 0015). */
export const SITE_CHANGES_CHANNEL = 'tessera_site_changes';

/**
 * Entries kept per area (a bound on memory, not a policy): past it, the least recently used entry goes.
 * Above a catalogue's size (a product page's reads are one entry per product in a few areas), so a shop
 * of a few thousand products keeps each of them once per version instead of reading them again.
 */
export const MAX_ENTRIES = 5000;
/** Entries of an area from which a hit moves its entry to the most recently used end. */
const TOUCH_FROM = (MAX_ENTRIES * 3) / 4;

/** The content version's read: the rows' summed weight, the newest row and how many there are. */
const VERSION_SQL = 'select sum(weight) as n, max(id) as m, count(*) as c from site_changes';

/** Rows of `site_changes` above which a version read folds them into one (keeps the read cheap for years). */
export const COMPACT_AT = 200;

interface Scope {
  version?: Promise<string>;
  /** The version once `version` has resolved (or at once, when it was known): lets `get` answer without a turn. */
  known?: string;
}

interface Area {
  version: string;
  entries: Map<string, Promise<unknown>>;
}

export class SiteCache {
  private readonly scope = new AsyncLocalStorage<Scope>();
  private readonly areas = new Map<string, Area>();
  /** Reads of the version table (for tests and the benchmark). */
  versionReads = 0;
  /** Loads (cache misses) per area (for tests and the benchmark). */
  readonly loads = new Map<string, number>();

  constructor(private readonly database: Database) {}

  /** Runs `fn` as one request: the version is read once inside it. */
  inRequest<T>(fn: () => T): T {
    return this.scope.run({}, fn);
  }

  /**
   * Whether the caller runs inside a request scope (a GET or HEAD request). There, services that keep a
   * timed copy of a row (the website, engagement and analytics settings, member locks) read it through
   * `get` instead, so everything a page shows is at least as new as the version it was read under (which
   * is what lets server/pages/page-cache.ts keep whole pages per version).
   */
  inScope(): boolean {
    return this.scope.getStore() !== undefined;
  }

  /** The committed content version; once per request scope, else on every call. */
  version(): Promise<string> {
    const scope = this.scope.getStore();
    if (scope?.version) return scope.version;
    // A request on PGlite gets the known version at the loop's next check phase, with every request that
    // asked in this turn (see `batched`); any other caller gets it at once.
    const known = this.known;
    const read = known === null ? this.sharedRead() : scope ? this.batched(known) : Promise.resolve(known);
    if (scope) {
      scope.version = read;
      read.then(
        (v) => {
          if (scope.version === read) scope.known = v;
        },
        // A failed read is not kept: the next caller of this request tries again.
        () => {
          if (scope.version === read) scope.version = undefined;
        },
      );
    }
    return read;
  }

  /** PGlite: the version, while no commit has been notified since it was read (null: read it). */
  private known: string | null = null;
  /** PGlite: the turn's shared hand-out of the known version (see `batched`). */
  private turn: Promise<void> | null = null;

  /**
   * PGlite: the known version, handed to a request at the loop's next check phase together with every other
   * request that asked for it in this turn. The poll phase reads all the sockets that are ready and starts
   * their requests; the renders then run one after another instead of each between the parsing and writing of
   * the others. On PostgreSQL the shared version read already groups them this way. Keeping the code and data
   * of one stage hot halved a rendered page's CPU on PGlite under load (`bench:pages`, rendered, 50
   * connections: product page 0.72 -> 0.32 ms, 50-product list 1.23 -> 0.80 ms). The version is the one known
   * when the request asked; a commit in between is like one that lands just after a read on PostgreSQL.
   */
  private batched(version: string): Promise<string> {
    const turn = (this.turn ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.turn = null;
        resolve();
      }),
    ));
    return turn.then(() => version);
  }
  private epoch = 0;
  private unwatch: (() => Promise<void>) | null = null;

  /**
   * PGlite: follows the triggers' notifications (migration 0015). PGlite delivers them before the
   * committing statement returns, and only this process can write to it, so a version read is needed
   * only after a commit. PostgreSQL (several instances, asynchronous notifications) reads every time.
   */
  async watch(): Promise<void> {
    if (!this.database.listen || this.unwatch) return;
    this.unwatch = await this.database.listen(SITE_CHANGES_CHANNEL, () => {
      this.epoch++;
      this.known = null;
    });
    this.epoch++;
  }

  private current: Promise<string> | null = null;
  private queued: Promise<string> | null = null;

  /**
   * One version read shared by the callers that need one at about the same time. A read already under
   * way may have started before a caller arrived, and so miss a change committed just before that
   * caller: such callers share the next read, which starts when the current one ends (so after they
   * arrived). Under load this turns one query per request into one per round trip.
   */
  private sharedRead(): Promise<string> {
    if (!this.current) return this.startRead();
    // PGlite: no commit notified since the current read started, so its answer is current for this caller too.
    if (this.unwatch && this.currentEpoch === this.epoch) return this.current;
    if (!this.queued) {
      const queued = this.current.then(noop, noop).then(() => {
        if (this.queued === queued) this.queued = null;
        return this.startRead();
      });
      this.queued = queued;
    }
    return this.queued;
  }

  private currentEpoch = -1;

  private startRead(): Promise<string> {
    this.currentEpoch = this.epoch;
    const read = this.readVersion();
    this.current = read;
    const clear = () => {
      if (this.current === read) this.current = null;
    };
    read.then(clear, clear);
    return read;
  }

  private async readVersion(): Promise<string> {
    const epoch = this.epoch;
    const version = await this.queryVersion();
    // Kept only when no commit was notified while it was read (so it is still the current one).
    if (this.unwatch && this.epoch === epoch) this.known = version;
    return version;
  }

  private async queryVersion(): Promise<string> {
    this.versionReads++;
    type Row = { n: string | number | null; m: string | number | null; c: string | number };
    // PostgreSQL: on a connection of its own, so a request whose page is kept never queues behind the pool.
    const [row] = this.database.sideRead
      ? ((await this.database.sideRead(VERSION_SQL)) as Row[])
      : await rows<Row>(this.database.db, sql.raw(VERSION_SQL));
    if (Number(row?.c ?? 0) > COMPACT_AT && row?.m != null) void this.compact(Number(row.m));
    return `${String(row?.n ?? 0)}.${String(row?.m ?? 0)}`;
  }

  private compacting = false;
  /** Times the table was folded (tests). */
  compactions = 0;

  /**
   * Folds the rows up to `upTo` into one row carrying their summed weight, in one statement: the sum (the
   * version) is the same before and after, so no cache is emptied for nothing but the one key change of
   * `max(id)`, and a writer's row that is not committed yet is not visible here, so it is never folded
   * away. Two instances folding at once: the second finds the rows gone (or waits for them) and adds no
   * row for rows it did not delete; a single row is left as it is.
   */
  async compact(upTo: number): Promise<void> {
    if (this.compacting) return;
    this.compacting = true;
    try {
      await this.database.db.execute(sql`
        with gone as (delete from site_changes where id <= ${upTo} and (select count(*) from site_changes where id <= ${upTo}) > 1 returning weight)
        insert into site_changes (txid, weight)
        select txid_current(), sum(weight) from gone having count(*) > 0`);
      this.compactions++;
    } catch {
      // Folding is housekeeping: a failure leaves the rows as they were, and the next read tries again.
    } finally {
      this.compacting = false;
    }
  }

  /**
   * `load()`'s value for `key` in `area` at the current version, loaded once per version. Once the request
   * knows its version (every call after its first), a kept value is answered as the very promise that was
   * kept: no async step and no new promise (a page makes about twenty of these calls).
   */
  get<T>(area: string, key: string, load: () => Promise<T>): Promise<T> {
    const known = this.scope.getStore()?.known;
    if (known !== undefined) return this.at(known, area, key, load);
    return this.version().then((version) => this.at(version, area, key, load));
  }

  private at<T>(version: string, area: string, key: string, load: () => Promise<T>): Promise<T> {
    let a = this.areas.get(area);
    if (!a || a.version !== version) {
      a = { version, entries: new Map() };
      this.areas.set(area, a);
    }
    const hit = a.entries.get(key);
    if (hit) {
      // Most recently used last (a Map keeps insertion order), so the least recently used is the first to go.
      // Only once the area is three quarters full: below that nothing goes soon, and moving an entry of a
      // map of thousands on every hit (a delete and an insert) was a few per cent of a busy catalogue's time.
      if (a.entries.size >= TOUCH_FROM) {
        a.entries.delete(key);
        a.entries.set(key, hit);
      }
      return hit as Promise<T>;
    }
    if (a.entries.size >= MAX_ENTRIES) a.entries.delete(a.entries.keys().next().value!);
    const entries = a.entries;
    this.loads.set(area, (this.loads.get(area) ?? 0) + 1);
    let value: Promise<T>;
    try {
      value = load();
    } catch (e) {
      // As from an async function: a loader that throws at once answers a rejected promise, not a throw.
      value = Promise.reject(e as Error);
    }
    entries.set(key, value);
    // A failed load is not kept.
    value.catch(() => {
      if (entries.get(key) === value) entries.delete(key);
    });
    return value;
  }

  /** Forgets every cached value (tests; a restore that bypassed the triggers). */
  clear(): void {
    this.areas.clear();
    this.known = null;
    this.epoch++;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    siteCache: SiteCache;
  }
}

/** Decorates `app.siteCache` and opens a request scope for every GET and HEAD request. */
export const siteCachePlugin = fp(async (app: FastifyInstance, opts: { cache: SiteCache }) => {
  const cache = opts.cache;
  app.decorate('siteCache', cache);
  await cache.watch();
  app.addHook('onRequest', (req, _reply, done) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return done();
    cache.inRequest(done);
  });
});
