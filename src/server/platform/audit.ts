import { and, desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';

export interface AuditEntry {
  websiteId: string;
  accountId: string | null;
  action: string;
  entity: string;
  entityId?: string | null;
  before?: unknown;
  after?: unknown;
}

/** Writes one audit row inside the transaction of the change it records. */
export async function audit(tx: Tx, e: AuditEntry): Promise<void> {
  await tx.insert(schema.auditLog).values({
    websiteId: e.websiteId,
    accountId: e.accountId,
    action: e.action,
    entity: e.entity,
    entityId: e.entityId ?? null,
    before: e.before ?? null,
    after: e.after ?? null,
  });
}

/** The newest audit rows of a website, of one entity kind (and one entity) when given. */
export async function auditEntries(db: Db, websiteId: string, q: { entity?: string; entityId?: string; limit: number }) {
  const { auditLog } = schema;
  const conds = [eq(auditLog.websiteId, websiteId)];
  if (q.entity) conds.push(eq(auditLog.entity, q.entity));
  if (q.entityId) conds.push(eq(auditLog.entityId, q.entityId));
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...conds))
    .orderBy(desc(auditLog.id))
    .limit(q.limit);
  return rows.map((r) => ({ ...r, at: r.at.toISOString() }));
}
