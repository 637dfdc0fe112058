/** The team's members (owner accounts) of a website: list, add, change a role, remove; a website keeps at least one admin. */
import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { newId } from '../../db/ids.js';
import { Role } from '../../core/enums.js';
import { platform as platformMessages } from '../../core/messages.js';
import { badRequest, notFound } from '../errors.js';
import { hashPassword } from './passwords.js';
import { audit } from './audit.js';

const { accounts } = schema;

export const memberJson = (a: typeof accounts.$inferSelect) => ({ id: a.id, email: a.email, displayName: a.displayName, role: a.role });

export async function listMembers(db: Db, websiteId: string) {
  const rows = await db.select().from(accounts).where(eq(accounts.websiteId, websiteId)).orderBy(asc(accounts.createdAt));
  return rows.map(memberJson);
}

/** Adds a member with a password; an email already on the team is refused. */
export async function addMember(
  db: Db,
  websiteId: string,
  actorId: string,
  body: { email: string; displayName: string; role: number; password: string },
) {
  const passwordHash = await hashPassword(body.password);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(accounts)
      .values({ id: newId(), websiteId, email: body.email.toLowerCase(), displayName: body.displayName, role: body.role, passwordHash })
      .onConflictDoNothing()
      .returning();
    if (!row) throw badRequest(platformMessages.tagExists('team member'), { email: platformMessages.tagExists('team member') });
    await audit(tx, { websiteId, accountId: actorId, action: 'team.add', entity: 'account', entityId: row.id, after: memberJson(row) });
    return memberJson(row);
  });
}

/** Changes to the admins keep at least one admin. */
const lastAdminGuard = async (tx: Tx, websiteId: string, id: string) => {
  const admins = await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.websiteId, websiteId), eq(accounts.role, Role.ADMIN)))
    .for('update');
  if (admins.length === 1 && admins[0]!.id === id) throw badRequest('A website needs at least one admin.');
};

/** Team member `id` of the website, locked for the change; 404 when there is none. */
async function lockedMember(tx: Tx, websiteId: string, id: string) {
  const [row] = await tx
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, id), eq(accounts.websiteId, websiteId)))
    .for('update');
  if (!row) throw notFound('No such team member.');
  return row;
}

export async function changeRole(db: Db, websiteId: string, actorId: string, id: string, role: number) {
  return db.transaction(async (tx) => {
    const row = await lockedMember(tx, websiteId, id);
    if (row.role === Role.ADMIN && role !== Role.ADMIN) await lastAdminGuard(tx, websiteId, id);
    const [updated] = await tx.update(accounts).set({ role }).where(eq(accounts.id, id)).returning();
    await audit(tx, {
      websiteId,
      accountId: actorId,
      action: 'team.role',
      entity: 'account',
      entityId: id,
      before: { role: row.role },
      after: { role },
    });
    return memberJson(updated!);
  });
}

export async function removeMember(db: Db, websiteId: string, actorId: string, id: string) {
  if (id === actorId) throw badRequest('You cannot remove yourself.');
  await db.transaction(async (tx) => {
    const row = await lockedMember(tx, websiteId, id);
    if (row.role === Role.ADMIN) await lastAdminGuard(tx, websiteId, id);
    await tx.delete(accounts).where(eq(accounts.id, id));
    await audit(tx, { websiteId, accountId: actorId, action: 'team.remove', entity: 'account', entityId: id, before: memberJson(row) });
  });
}
