import { and, eq, gt, inArray, lt } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { hashToken, newId, newToken } from '../../db/ids.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { Role } from '../../core/enums.js';

const { accounts, ownerSessions } = schema;
export const SESSION_DAYS = 14;
/** How long a one-time sign-in link works. */
export const SIGN_IN_LINK_MINUTES = 60;
/** How long an emailed password-reset link works. */
export const RESET_MINUTES = 60;
/** The email a first start gives the admin when OWNER_EMAIL is not set; the first sign-in replaces it. */
export const PLACEHOLDER_EMAIL = 'owner@localhost';

export interface Owner {
  id: string;
  websiteId: string;
  email: string;
  role: number;
  displayName: string;
}

export class OwnerService {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  async count(): Promise<number> {
    const rows = await this.db.select({ id: accounts.id }).from(accounts).limit(1);
    return rows.length;
  }

  async create(input: { websiteId: string; email: string; password?: string; role: number; displayName?: string }): Promise<Owner> {
    const owner = await this.createIfAbsent(input);
    if (!owner) throw new Error(`An account with the email ${input.email} exists already`);
    return owner;
  }

  /** Creates the account unless one with that email exists (then null); safe against a concurrent twin. */
  async createIfAbsent(input: {
    websiteId: string;
    email: string;
    password?: string;
    role: number;
    displayName?: string;
  }): Promise<Owner | null> {
    const id = newId();
    const row = {
      id,
      websiteId: input.websiteId,
      email: input.email.trim().toLowerCase(),
      displayName: input.displayName ?? '',
      role: input.role,
      passwordHash: input.password ? await hashPassword(input.password) : null,
    };
    const inserted = await this.db.insert(accounts).values(row).onConflictDoNothing().returning({ id: accounts.id });
    if (inserted.length === 0) return null;
    return { id, websiteId: row.websiteId, email: row.email, role: row.role, displayName: row.displayName };
  }

  /** The admin account of a fresh install. */
  async ensureAdmin(websiteId: string, email?: string, password?: string): Promise<{ owner: Owner; created: boolean }> {
    const existing = await this.db.select().from(accounts).limit(1);
    if (existing[0]) return { owner: toOwner(existing[0]), created: false };
    const owner = await this.createIfAbsent({
      websiteId,
      email: email ?? PLACEHOLDER_EMAIL,
      password,
      role: Role.ADMIN,
      displayName: 'Owner',
    });
    if (owner) return { owner, created: true };
    // Another instance created it a moment ago.
    const again = await this.db.select().from(accounts).limit(1);
    return { owner: toOwner(again[0]!), created: false };
  }

  /** Checks email and password; null when either is wrong (one answer for both, no user enumeration). */
  async authenticate(email: string, password: string): Promise<Owner | null> {
    const rows = await this.db.select().from(accounts).where(eq(accounts.email, email.trim().toLowerCase())).limit(1);
    const row = rows[0];
    const ok = await verifyPassword(password, row?.passwordHash);
    return ok && row ? toOwner(row) : null;
  }

  /**
   * A new session, always under a new token. `replacing` is the session cookie the request came with, if
   * any: that session ends, so a token planted in or left on the browser before a sign-in never becomes,
   * nor stays beside, the signed-in session (session fixation).
   */
  async startSession(accountId: string, now = new Date(), replacing?: string): Promise<{ token: string; expiresAt: Date }> {
    const token = newToken();
    const expiresAt = new Date(now.getTime() + SESSION_DAYS * 86_400_000);
    await this.db.transaction(async (tx) => {
      if (replacing && replacing.length <= 100)
        await tx.delete(ownerSessions).where(and(eq(ownerSessions.tokenHash, hashToken(replacing)), eq(ownerSessions.kind, 'session')));
      await tx.insert(ownerSessions).values({ tokenHash: hashToken(token), accountId, kind: 'session', expiresAt });
    });
    return { token, expiresAt };
  }

  /** A one-time sign-in link token (printed at first start for the first admin; in a lock notice); earlier links of the account stop working. */
  async createSignInLink(accountId: string, now = new Date()): Promise<string> {
    const token = newToken();
    const expiresAt = new Date(now.getTime() + SIGN_IN_LINK_MINUTES * 60_000);
    await this.db.transaction(async (tx) => {
      await tx.delete(ownerSessions).where(and(eq(ownerSessions.accountId, accountId), eq(ownerSessions.kind, 'link')));
      await tx.insert(ownerSessions).values({ tokenHash: hashToken(token), accountId, kind: 'link', expiresAt });
    });
    return token;
  }

  /** Spends a one-time link: deletes it and returns its account, or null when unknown or expired. */
  async redeemSignInLink(token: string, now = new Date()): Promise<Owner | null> {
    const deleted = await this.db
      .delete(ownerSessions)
      .where(and(eq(ownerSessions.tokenHash, hashToken(token)), eq(ownerSessions.kind, 'link'), gt(ownerSessions.expiresAt, now)))
      .returning({ accountId: ownerSessions.accountId });
    if (!deleted[0]) return null;
    // Spending one link spends every other link of the account.
    await this.db.delete(ownerSessions).where(and(eq(ownerSessions.accountId, deleted[0].accountId), eq(ownerSessions.kind, 'link')));
    return this.byId(deleted[0].accountId);
  }

  async byEmail(email: string): Promise<Owner | null> {
    const rows = await this.db.select().from(accounts).where(eq(accounts.email, email.trim().toLowerCase())).limit(1);
    return rows[0] ? toOwner(rows[0]) : null;
  }

  async byId(id: string): Promise<Owner | null> {
    const rows = await this.db.select().from(accounts).where(eq(accounts.id, id)).limit(1);
    return rows[0] ? toOwner(rows[0]) : null;
  }

  async fromSession(token: string | undefined, now = new Date()): Promise<Owner | null> {
    if (!token || token.length > 100) return null;
    const rows = await this.db
      .select({ account: accounts })
      .from(ownerSessions)
      .innerJoin(accounts, eq(accounts.id, ownerSessions.accountId))
      .where(and(eq(ownerSessions.tokenHash, hashToken(token)), eq(ownerSessions.kind, 'session'), gt(ownerSessions.expiresAt, now)))
      .limit(1);
    return rows[0] ? toOwner(rows[0].account) : null;
  }

  async endSession(token: string): Promise<void> {
    await this.db.delete(ownerSessions).where(eq(ownerSessions.tokenHash, hashToken(token)));
  }

  async purgeExpired(now = new Date()): Promise<void> {
    await this.db.delete(ownerSessions).where(lt(ownerSessions.expiresAt, now));
  }

  /** Whether the account still has to choose its email and password (no password, or the first start's placeholder email). */
  async needsSetup(accountId: string): Promise<boolean> {
    const rows = await this.db
      .select({ email: accounts.email, passwordHash: accounts.passwordHash })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .limit(1);
    const row = rows[0];
    return !!row && (!row.passwordHash || row.email === PLACEHOLDER_EMAIL);
  }

  /**
   * Saves the email and password the owner chose at their first sign-in. 'taken' when another account has the
   * email. The account's other sessions and sign-in links end; the session making the change is kept.
   */
  async completeSetup(accountId: string, email: string, password: string, keepSession?: string): Promise<'ok' | 'taken'> {
    const normal = email.trim().toLowerCase();
    const passwordHash = await hashPassword(password);
    return this.db.transaction(async (tx) => {
      const [other] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, normal)).limit(1);
      if (other && other.id !== accountId) return 'taken' as const;
      await tx.update(accounts).set({ email: normal, passwordHash }).where(eq(accounts.id, accountId));
      const ended = await tx
        .select({ tokenHash: ownerSessions.tokenHash })
        .from(ownerSessions)
        .where(eq(ownerSessions.accountId, accountId));
      const keep = keepSession ? hashToken(keepSession) : '';
      const drop = ended.map((r) => r.tokenHash).filter((h) => h !== keep);
      if (drop.length) await tx.delete(ownerSessions).where(inArray(ownerSessions.tokenHash, drop));
      return 'ok' as const;
    });
  }

  /** A password-reset token (emailed, RESET_MINUTES); it replaces every earlier reset token of the account. */
  async createResetToken(accountId: string, now = new Date()): Promise<string> {
    const token = newToken();
    const expiresAt = new Date(now.getTime() + RESET_MINUTES * 60_000);
    await this.db.transaction(async (tx) => {
      await tx.delete(ownerSessions).where(and(eq(ownerSessions.accountId, accountId), eq(ownerSessions.kind, 'reset')));
      await tx.insert(ownerSessions).values({ tokenHash: hashToken(token), accountId, kind: 'reset', expiresAt });
    });
    return token;
  }

  /** The account a reset token belongs to, when the token is known, unspent and not expired (it is not spent). */
  async resetAccount(token: string, now = new Date()): Promise<Owner | null> {
    if (token.length < 10 || token.length > 100) return null;
    const rows = await this.db
      .select({ account: accounts })
      .from(ownerSessions)
      .innerJoin(accounts, eq(accounts.id, ownerSessions.accountId))
      .where(and(eq(ownerSessions.tokenHash, hashToken(token)), eq(ownerSessions.kind, 'reset'), gt(ownerSessions.expiresAt, now)))
      .limit(1);
    return rows[0] ? toOwner(rows[0].account) : null;
  }

  /**
   * Spends a reset token and sets the new password: every session, sign-in link and reset token of the account
   * ends with it. The account, or null when the token is unknown, expired or spent (a second use, or a race).
   */
  async completeReset(token: string, password: string, now = new Date()): Promise<Owner | null> {
    if (token.length < 10 || token.length > 100) return null;
    const passwordHash = await hashPassword(password);
    const accountId = await this.db.transaction(async (tx) => {
      const gone = await tx
        .delete(ownerSessions)
        .where(and(eq(ownerSessions.tokenHash, hashToken(token)), eq(ownerSessions.kind, 'reset'), gt(ownerSessions.expiresAt, now)))
        .returning({ accountId: ownerSessions.accountId });
      if (!gone[0]) return null;
      const id = gone[0].accountId;
      await tx
        .delete(ownerSessions)
        .where(and(eq(ownerSessions.accountId, id), inArray(ownerSessions.kind, ['session', 'link', 'reset', 'invite'])));
      await tx.update(accounts).set({ passwordHash }).where(eq(accounts.id, id));
      return id;
    });
    return accountId ? this.byId(accountId) : null;
  }

  async setPassword(accountId: string, password: string): Promise<void> {
    await this.db
      .update(accounts)
      .set({ passwordHash: await hashPassword(password) })
      .where(eq(accounts.id, accountId));
  }
}

function toOwner(row: typeof accounts.$inferSelect): Owner {
  return { id: row.id, websiteId: row.websiteId, email: row.email, role: row.role, displayName: row.displayName };
}
