import type { SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/index.js';

/** Runs raw SQL through drizzle and returns its rows, the same way on PGlite and on node-postgres. */
export async function rows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}
