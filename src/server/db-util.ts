import { asc, inArray, type SQL } from 'drizzle-orm';
import { schema, type Database, type Db, type Tx } from '../db/index.js';

/** Runs raw SQL through drizzle and returns its rows, the same way on PGlite and on node-postgres. */
export async function rows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

/** The variants of the given products, in their display order: none (and no query) for an empty list. */
export async function variantsOfItems(db: Db | Tx, itemIds: string[]): Promise<(typeof schema.productVariants.$inferSelect)[]> {
  if (!itemIds.length) return [];
  const v = schema.productVariants;
  return db.select().from(v).where(inArray(v.itemId, itemIds)).orderBy(asc(v.ordering));
}

/** A bytea column's value as a Buffer, however the driver answered it (Buffer, Uint8Array or '\\x' hex text); null otherwise. */
export function byteaBuffer(b: unknown): Buffer | null {
  if (Buffer.isBuffer(b)) return b;
  if (b instanceof Uint8Array) return Buffer.from(b);
  if (typeof b === 'string' && b.startsWith('\\x')) return Buffer.from(b.slice(2), 'hex');
  return null;
}

interface Waiting<V> {
  promise: Promise<V | null>;
  resolve: (value: V | null) => void;
  reject: (e: unknown) => void;
}

/**
 * Reads by key with one statement per round trip. A caller that finds no read in flight starts one at
 * once; callers that ask while one is in flight share the next, which starts when the current one ends.
 * A read therefore never starts before its callers asked, so each gets data at least as new as anything
 * it saw before asking (a content version it read first, say). At most `max` keys go in one statement;
 * the rest wait for the next.
 *
 * `defer` (PGlite): the first statement waits for the event loop's check phase instead of starting at once.
 * PGlite answers on the event loop without waiting for anything, so a statement is never in flight while
 * another request runs and nothing would ever share it; deferred, it takes every request read off the
 * sockets in the same turn. There a statement's fixed cost (1-3 ms) is most of a one-row read.
 */
export class BatchedRead<V> {
  private reading = false;
  private batch = new Map<string, Waiting<V>>();
  /** Statements sent (tests and the benchmark). */
  statements = 0;

  constructor(
    private readonly readMany: (keys: string[]) => Promise<Map<string, V>>,
    private readonly max = 100,
    private readonly defer = false,
  ) {}

  get(key: string): Promise<V | null> {
    const waiting = this.batch.get(key);
    if (waiting) return waiting.promise;
    let resolve!: (value: V | null) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<V | null>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.batch.set(key, { promise, resolve, reject });
    if (!this.reading) {
      if (this.defer) {
        this.reading = true;
        setImmediate(() => this.next());
      } else this.next();
    }
    return promise;
  }

  private next(): void {
    if (this.batch.size === 0) {
      this.reading = false;
      return;
    }
    this.reading = true;
    const batch = new Map<string, Waiting<V>>();
    for (const [key, w] of this.batch) {
      if (batch.size >= this.max) break;
      batch.set(key, w);
    }
    for (const key of batch.keys()) this.batch.delete(key);
    this.statements++;
    let read: Promise<Map<string, V>>;
    try {
      read = this.readMany([...batch.keys()]);
    } catch (e) {
      read = Promise.reject(e);
    }
    void read
      .then(
        (found) => {
          for (const [key, w] of batch) w.resolve(found.get(key) ?? null);
        },
        (e: unknown) => {
          for (const w of batch.values()) w.reject(e);
        },
      )
      .finally(() => this.next());
  }
}

/**
 * PGlite: values read from the database, kept until a notification on `channel` says the tables they come
 * from were written (statement triggers that notify only when the session set `setting`, which only PGlite's
 * does: migrations 0026 and 0030). PGlite runs in this process, is written only by it, and hands a
 * transaction's notifications over before the statement that committed it returns, so a value read after
 * the last notification is still current. A read is kept before it starts, so a write notified while it runs
 * drops it; a failed read, or a value `keep` refuses, is not kept. Past `max` values the map starts again (a
 * bound on memory, not a policy). Until `watch` has run (PostgreSQL: its notifications arrive after the
 * commit, from any instance) `watched` is false and callers read for every request.
 */
export class KeptUntilNotified<V> {
  private readonly kept = new Map<string, Promise<V>>();
  private watching = false;

  constructor(
    private readonly max: number,
    private readonly keep: (value: V) => boolean = () => true,
  ) {}

  get watched(): boolean {
    return this.watching;
  }

  async watch(database: Database, channel: string, setting: string): Promise<void> {
    if (!database.listen || this.watching) return;
    await database.listen(channel, () => this.kept.clear());
    await database.exec(`set ${setting} = 'on'`);
    this.watching = true;
  }

  /** The value kept for `key`, or `read()`'s, kept from now on (call only while `watched`). */
  get(key: string, read: () => Promise<V>): Promise<V> {
    const hit = this.kept.get(key);
    if (hit) return hit;
    if (this.kept.size >= this.max) this.kept.clear();
    const value = read();
    this.kept.set(key, value);
    const forget = () => {
      if (this.kept.get(key) === value) this.kept.delete(key);
    };
    value.then((v) => {
      if (!this.keep(v)) forget();
    }, forget);
    return value;
  }
}
