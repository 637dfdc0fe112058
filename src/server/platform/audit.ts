import type { Tx } from '../../db/index.js';
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
