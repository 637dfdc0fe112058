/**
 * A few-round-trip transaction for the hot cart path. Statements are sent as one simple-protocol batch
 * (several statements in one round trip): on PostgreSQL `BEGIN; <lock>; <read>` and then `<write>; COMMIT`,
 * so an add to an existing cart costs two round trips while still running in one transaction with the
 * cart row locked. In READ COMMITTED every statement of a batch takes a fresh snapshot, so the read that
 * follows the lock sees everything committed before the lock was granted.
 *
 * Values are inlined as escaped literals (E'...' with backslashes and quotes doubled), since the simple
 * protocol takes no parameters. Only strings, finite numbers, booleans, null and Dates are accepted.
 *
 * On PGlite (one connection in this process) the batch runs inside PGlite's own transaction, which also
 * holds its query lock so nothing else interleaves.
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Database } from '../../db/index.js';

export interface RawResult {
  rows: Record<string, unknown>[];
}

export interface RawTx {
  /** The first batch of the transaction (BEGIN is prepended where needed). */
  first(text: string): Promise<RawResult[]>;
  /** The last batch (COMMIT is appended where needed). After it the transaction is over. */
  last(text: string): Promise<RawResult[]>;
}

export type Literal = string | number | boolean | null | Date;

/** A SQL literal of a value. */
export function lit(v: Literal): string {
  if (v === null) return 'NULL';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new TypeError('Not a finite number');
    return String(v);
  }
  if (v instanceof Date) return `'${v.toISOString()}'::timestamptz`;
  if (typeof v !== 'string') throw new TypeError('Unsupported literal');
  if (v.includes('\u0000')) throw new TypeError('NUL in a literal');
  return `E'${v.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** Tagged template: `q\`select ${x}\`` inlines x as a literal. */
export function q(strings: TemplateStringsArray, ...values: Literal[]): string {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += lit(values[i]!) + (strings[i + 1] ?? '');
  return out;
}

function asResults(r: unknown): RawResult[] {
  return (Array.isArray(r) ? r : [r]) as RawResult[];
}

/** Runs fn in one transaction over raw batches; rolls back when fn throws. */
export async function rawTransaction<T>(database: Database, fn: (tx: RawTx) => Promise<T>): Promise<T> {
  const client = (database.db as unknown as { $client: unknown }).$client;
  if (database.kind === 'pglite') {
    return (client as PGlite).transaction(async (tx: Transaction) =>
      fn({
        first: async (text) => asResults(await tx.exec(text)),
        last: async (text) => asResults(await tx.exec(text)),
      }),
    );
  }
  const pool = client as pg.Pool;
  const conn = await pool.connect();
  let open = false;
  let broken = false;
  try {
    const out = await fn({
      first: async (text) => {
        open = true;
        return asResults(await conn.query(`BEGIN;${text}`)).slice(1);
      },
      last: async (text) => {
        const r = asResults(await conn.query(`${text};COMMIT`));
        open = false;
        return r.slice(0, -1);
      },
    });
    return out;
  } catch (e) {
    if (open) {
      try {
        await conn.query('ROLLBACK');
      } catch {
        broken = true;
      }
    }
    throw e;
  } finally {
    conn.release(broken || undefined);
  }
}

/**
 * One statement with parameters. On PostgreSQL it is a named prepared statement: each pooled connection
 * parses and plans it once and then only binds values (planning the cart statements cost several times
 * their execution). `name` must always be used with the same text. On PGlite, a parameterised query.
 */
export async function prepared(database: Database, name: string, text: string, values: unknown[]): Promise<RawResult> {
  const client = (database.db as unknown as { $client: unknown }).$client;
  if (database.kind === 'pglite') return (await (client as PGlite).query(text, values)) as RawResult;
  return (await (client as pg.Pool).query({ name, text, values })) as RawResult;
}
