import { and, eq, sql, type SQL } from 'drizzle-orm';
import { schema, type Db } from '../../db/index.js';

const { items } = schema;

/**
 * Publishes the scheduled items of one record type that `due` says have come due (the products and posts
 * sweeps); answers how many. It looks before it writes: a statement on items moves the content version even
 * when it changes no row (the site_changes trigger runs per statement), and a new version renders every
 * shared page again, so a sweep with nothing due must send no update.
 */
export async function publishScheduled(db: Db, recordType: number, due: SQL, updatedAt: Date): Promise<number> {
  const where = and(eq(items.recordType, recordType), eq(items.status, 'scheduled'), due);
  const [any] = await db.select({ id: items.id }).from(items).where(where).limit(1);
  if (!any) return 0;
  const done = await db
    .update(items)
    .set({ status: 'published', version: sql`${items.version} + 1`, updatedAt })
    .where(where)
    .returning({ id: items.id });
  return done.length;
}
