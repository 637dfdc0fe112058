import { existsSync, mkdirSync, openSync, readFileSync, writeSync, closeSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AsyncLocalStorage } from 'node:async_hooks';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema/index.js';

export { schema };
export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; the same query API as Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL: the connection string (for work that wants its own connection, off the shared pool). */
  url?: string;
  /** PGlite on a data folder: that folder (locked by this process). Unset for PostgreSQL and in-memory PGlite. */
  dataDir?: string;
  /** Runs raw SQL (used by tests, health checks and the few statements drizzle cannot express). */
  exec(sql: string): Promise<void>;
  /**
   * PGlite only: calls `callback` on every NOTIFY on `channel`. PGlite runs in this process and hands a
   * transaction's notifications over before the statement that committed it returns, so a listener knows
   * of every commit before anyone can read it. Resolves to the unsubscribe function.
   */
  listen?(channel: string, callback: () => void): Promise<() => Promise<void>>;
  /**
   * PGlite only: calls on the one connection (queries, statements, transactions) started and not answered yet, a
   * transaction that is running included. Inside its own transaction, long work sees another caller waiting
   * for the connection when this is above 1 (the product import gives way then).
   */
  pending?(): number;
  /**
   * PGlite: runs `fn` so that each statement of the transactions it opens first gives the event loop a turn.
   * PGlite executes statements on the event loop and answers them without one, so a transaction of many
   * statements would otherwise keep every request from being read until it ends. Unset for PostgreSQL.
   */
  yielding?<T>(fn: () => Promise<T>): Promise<T>;
  /** PostgreSQL: the connection pool's state (the metrics endpoint reports it). */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
  /**
   * PostgreSQL: runs one small read (no parameters) on a connection of its own, outside the pool. For the
   * content version that nearly every request reads first (server/plugins/site-cache.ts): under load the
   * pool's connections are all busy with the reads of pages being rendered, and a page that is already
   * kept would wait behind them for a read of a fraction of a millisecond. Falls back to the pool while
   * that connection cannot be had.
   */
  sideRead?(text: string): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The data folder ${dir} is in use by another Tessera process (pid ${pid}). ` +
        `Two processes on one embedded database would lose writes; stop the other one or set DATA_DIR to another folder.`,
    );
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes an exclusive lock file in `dir`; a stale lock of a dead process is taken over. Two processes on one
 * PGlite folder would lose writes (docs/decisions/0001-pglite-and-postgresql.md).
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'tessera.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && pidAlive(pid)) throw new DataDirLockedError(dir, pid);
      unlinkSync(file);
    }
  }
  throw new Error(`Could not lock the data folder ${dir}`);
}

export interface OpenOptions {
  /** PostgreSQL connection string; when unset, PGlite on dataDir. */
  databaseUrl?: string;
  /** PGlite data folder; 'memory://' for an in-memory database. */
  dataDir?: string;
  /** An existing PGlite instance (tests clone a migrated template). */
  pglite?: PGlite;
  poolSize?: number;
  migrate?: boolean;
}

export async function open(opts: OpenOptions): Promise<Database> {
  const runMigrations = opts.migrate ?? true;
  if (opts.databaseUrl) {
    const max = opts.poolSize ?? 20;
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max });
    pool.on('error', () => {
      /* an idle client lost its connection; the pool replaces it */
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    if (runMigrations) {
      // Several instances may start at once: one applies the migrations while the others wait.
      const client = new pg.Client({ connectionString: opts.databaseUrl });
      await client.connect();
      try {
        await client.query('SELECT pg_advisory_lock(7274372)');
        await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await client.query('SELECT pg_advisory_unlock(7274372)').catch(() => {});
        await client.end();
      }
    }
    const side = sideConnection(opts.databaseUrl);
    return {
      db,
      kind: 'postgres',
      url: opts.databaseUrl,
      exec: async (sql) => {
        await pool.query(sql);
      },
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
      sideRead: async (text) => {
        const client = await side.get();
        try {
          return (await (client ?? pool).query(text)).rows as Array<Record<string, unknown>>;
        } catch (e) {
          // The server's answer to the read itself (an SQLSTATE outside the connection classes) is the read's failure.
          const state = String((e as { code?: unknown }).code ?? '');
          if (!client || (/^[0-9A-Z]{5}$/.test(state) && !CONNECTION_STATES.test(state))) throw e;
          // Else the connection broke (a restart, a cut, a terminated backend): the next read connects again; this one uses the pool.
          side.drop(client);
          return (await pool.query(text)).rows as Array<Record<string, unknown>>;
        }
      },
      close: async () => {
        await side.end();
        await pool.end();
      },
    };
  }
  let release = () => {};
  let client = opts.pglite;
  let folder: string | undefined;
  if (!client) {
    const dir = opts.dataDir ?? './data';
    if (dir.startsWith('memory://')) client = new PGlite(dir);
    else {
      const abs = resolve(dir);
      folder = abs;
      release = lockDataDir(abs);
      try {
        client = new PGlite(join(abs, 'pg'));
        await client.waitReady;
      } catch (e) {
        release();
        throw e;
      }
    }
  }
  const pgl = client;
  const { pending, yielding } = politeConnection(pgl);
  const db = drizzlePglite(pgl, { schema }) as unknown as Db;
  try {
    if (runMigrations) await migratePglite(drizzlePglite(pgl), { migrationsFolder: MIGRATIONS_DIR });
  } catch (e) {
    await pgl.close();
    release();
    throw e;
  }
  return {
    db,
    kind: 'pglite',
    ...(folder ? { dataDir: folder } : {}),
    exec: async (sql) => {
      await pgl.exec(sql);
    },
    listen: (channel, callback) => pgl.listen(channel, () => callback()),
    pending,
    yielding,
    close: async () => {
      try {
        if (!pgl.closed) await pgl.close();
      } finally {
        release();
      }
    },
  };
}

/** SQLSTATE classes that end a connection rather than fail a statement: connection exception, operator intervention, insufficient resources. */
const CONNECTION_STATES = /^(08|57|53)/;

/**
 * One PostgreSQL connection of its own (see Database.sideRead), connected on first use and again after it
 * broke; null while it cannot be had (a failed attempt is retried at most once a second).
 */
function sideConnection(url: string) {
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client | null> | null = null;
  let failedAt = 0;
  let ended = false;
  const drop = (c: pg.Client) => {
    if (client === c) client = null;
    c.end().catch(() => {});
  };
  return {
    get(): Promise<pg.Client | null> {
      if (client) return Promise.resolve(client);
      if (ended || Date.now() - failedAt < 1000) return Promise.resolve(null);
      connecting ??= (async () => {
        const c = new pg.Client({ connectionString: url });
        c.on('error', () => drop(c));
        try {
          await c.connect();
          if (ended) {
            await c.end().catch(() => {});
            return null;
          }
          client = c;
          return c;
        } catch {
          failedAt = Date.now();
          drop(c);
          return null;
        } finally {
          connecting = null;
        }
      })();
      return connecting;
    },
    /** Forgets `c` (its connection is gone): the next read connects again. */
    drop,
    async end(): Promise<void> {
      ended = true;
      const c = client ?? (connecting ? await connecting : null);
      client = null;
      if (c) await c.end().catch(() => {});
    },
  };
}

const polite = new WeakMap<PGlite, { pending: () => number; yielding: <T>(fn: () => Promise<T>) => Promise<T> }>();

/**
 * Wraps a PGlite's `query`, `exec` and `transaction` (once per instance): counts the calls waiting for or holding
 * its one connection, and inside `yielding` gives each statement of a transaction a turn of the event loop first.
 */
function politeConnection(pgl: PGlite) {
  const known = polite.get(pgl);
  if (known) return known;
  let pending = 0;
  const counted =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      pending++;
      try {
        return await call(...args);
      } finally {
        pending--;
      }
    };
  const scope = new AsyncLocalStorage<true>();
  const turn = () => new Promise<void>((r) => setImmediate(r));
  const transaction = pgl.transaction.bind(pgl);
  pgl.query = counted(pgl.query.bind(pgl)) as typeof pgl.query;
  pgl.exec = counted(pgl.exec.bind(pgl));
  pgl.transaction = counted(<T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      if (!scope.getStore()) return callback(tx);
      const query: Transaction['query'] = async (...args) => (await turn(), tx.query(...args));
      const exec: Transaction['exec'] = async (...args) => (await turn(), tx.exec(...args));
      return callback(new Proxy(tx, { get: (t, k) => (k === 'query' ? query : k === 'exec' ? exec : Reflect.get(t, k)) }));
    }),
  ) as typeof pgl.transaction;
  const made = { pending: () => pending, yielding: <T>(fn: () => Promise<T>) => scope.run(true, fn) };
  polite.set(pgl, made);
  return made;
}

export function dataDirExists(dir: string): boolean {
  return existsSync(join(resolve(dir), 'pg'));
}
