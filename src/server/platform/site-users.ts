/**
 * Site users: visitors with an account on the public site (the site-user session).
 *
 * Sign-up is confirmed by email, so the answer to a sign-up never tells whether an address already has an
 * account; sign-in answers one message for an unknown email, a wrong password and the right password of an
 * account not yet confirmed (which is sent its confirmation link again); a password reset request always
 * answers the same. Sessions and one-time tokens are stored as hashes only.
 */
import { createHash } from 'node:crypto';
import { and, eq, gt, inArray, isNotNull, lt, notExists } from 'drizzle-orm';
import type { Database, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { hashToken, newId, newToken } from '../../db/ids.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { KeptUntilNotified } from '../db-util.js';
import type { Mailer } from '../mail/index.js';

const { siteUsers, siteUserProfiles, siteUserSessions, siteUserTokens } = schema;

/** A remembered session lasts 30 days (persistent cookie); otherwise 12 hours (browser-session cookie). */
export const REMEMBER_DAYS = 30;
export const SESSION_HOURS = 12;
export const CONFIRM_HOURS = 48;
export const RESET_MINUTES = 60;

export const siteUserMessages = {
  SIGN_IN_FAILED: 'That email and password do not match an account.',
  SIGN_UP_SENT: 'Check your email: we sent you a link to finish creating your account.',
  /** A change that needs a confirmed address (e.g. mailing lists, found by email), asked before the link is followed. */
  NOT_CONFIRMED: 'Please confirm your email first: we sent you a link when you signed up.',
  RESET_SENT: 'If an account uses that email, we sent it a link to choose a new password.',
  LINK_EXPIRED: 'This link has expired or was already used.',
  PASSWORD_TOO_SHORT: 'Use at least 8 characters for your password.',
  TOO_MANY_ATTEMPTS: 'Too many sign-in attempts. Please try again in a few minutes.',
  SIGNED_OUT: 'You are signed out.',
  XSRF_FAILED: 'Your session could not be verified. Please sign in again.',
  SIGN_IN_REQUIRED: 'Please sign in to continue.',
} as const;

export interface SiteUser {
  id: string;
  websiteId: string;
  email: string;
  displayName: string;
  language: string;
  /** The address is proved (the confirmation or a reset link was followed): only then do rows found by email belong to the account. */
  confirmed: boolean;
}

/** The channel the site-user tables' trigger notifies (migration 0030). */
export const SITE_USER_CHANGES_CHANNEL = 'tessera_site_user_changes';
/** Sessions kept on PGlite (a bound on memory: past it the map starts again). */
const KEPT_SESSIONS = 10_000;

/** A session as read, with its expiry (checked at each use). */
interface KeptSession {
  session: SiteUserSession;
  expiresAt: number;
}

export interface SiteUserSession {
  user: SiteUser;
  xsrfHash: string;
  tokenHash: string;
}

/**
 * Run inside the transaction that confirms an address through its emailed link (other areas: the members
 * area grants a free membership the visitor asked for when joining).
 */
export type SiteUserConfirmedHook = (tx: Tx, siteUserId: string, now: Date) => Promise<void>;
export const siteUserConfirmedHooks: SiteUserConfirmedHook[] = [];

/** What a sign-up is for, when another area starts it (joining a member area). */
export interface SignUpPurpose {
  /** The first line of the confirmation email. */
  intro: string;
  /** Where the confirmation link (and the "already have an account" sign-in link) lands; a site path. */
  next: string;
  /** Run in the sign-up's transaction when a new account is made. */
  onCreated?: (tx: Tx, siteUserId: string) => Promise<void>;
}

export class SiteUserService {
  constructor(
    private readonly database: Database,
    private readonly mailer: Mailer,
  ) {}

  private get db() {
    return this.database.db;
  }

  /**
   * Sign-up: a new address gets an unconfirmed account and a confirmation link; an address that has an
   * account gets an email saying so. Both answer the same, so nobody learns which addresses have accounts.
   *
   * The password typed here works only in the browser that typed it: the answer carries a browser key (the
   * route sets SIGN_UP_COOKIE); `confirm` signs in only beside it, else `confirmWithPassword` asks for one.
   * A new sign-up replaces a pending account of the address (docs/decisions/0005-sign-up-confirmation-cookie.md).
   */
  async signUp(
    input: { websiteId: string; email: string; password: string; displayName: string; origin: string; purpose?: SignUpPurpose },
    now = new Date(),
  ): Promise<{ browserKey: string }> {
    const next = input.purpose ? `&next=${encodeURIComponent(input.purpose.next)}` : '';
    const email = normEmail(input.email);
    const passwordHash = await hashPassword(input.password);
    const browserKey = newToken();
    await this.db.transaction(async (tx) => {
      await tx
        .delete(siteUsers)
        .where(
          and(
            eq(siteUsers.websiteId, input.websiteId),
            eq(siteUsers.email, email),
            eq(siteUsers.disabled, false),
            notExists(provedProfile(tx)),
          ),
        );
      const id = newId();
      const inserted = await tx
        .insert(siteUsers)
        .values({ id, websiteId: input.websiteId, email, passwordHash })
        .onConflictDoNothing()
        .returning({ id: siteUsers.id });
      if (inserted.length === 0) {
        await this.mailer.enqueue(tx, {
          kind: 'site-user-exists',
          to: email,
          subject: 'You already have an account',
          text: `Someone (hopefully you) tried to create an account with this email, which already has one.\n\nSign in: ${input.origin}/account/login${next.replace('&', '?')}\nForgot your password? ${input.origin}/account/reset\n`,
        });
        return;
      }
      await tx.insert(siteUserProfiles).values({ siteUserId: id, displayName: input.displayName });
      await input.purpose?.onCreated?.(tx, id);
      const expiresAt = new Date(now.getTime() + CONFIRM_HOURS * 3_600_000);
      const token = await this.issueToken(tx, id, 'confirm', expiresAt);
      await tx.insert(siteUserTokens).values({ tokenHash: hashToken(browserKey), siteUserId: id, kind: 'confirm-browser', expiresAt });
      await this.mailer.enqueue(tx, {
        kind: 'site-user-confirm',
        to: email,
        subject: 'Confirm your account',
        text: `${input.purpose?.intro ?? 'Welcome! Follow this link to finish creating your account:'}\n\n${input.origin}/account/confirm?token=${token}${next}\n\nThe link works for ${CONFIRM_HOURS} hours.`,
        ref: id,
      });
    });
    this.mailer.kick();
    return { browserKey };
  }

  /** A new one-time token; it replaces every earlier token of its kind for the account (an old emailed link stops working). */
  private async issueToken(tx: Tx, siteUserId: string, kind: 'confirm' | 'reset', expiresAt: Date): Promise<string> {
    const token = newToken();
    await tx.delete(siteUserTokens).where(and(eq(siteUserTokens.siteUserId, siteUserId), eq(siteUserTokens.kind, kind)));
    await tx.insert(siteUserTokens).values({ tokenHash: hashToken(token), siteUserId, kind, expiresAt });
    return token;
  }

  /** Spends a one-time token; the site user's id, or null when unknown, expired or spent. */
  private async spendToken(
    tx: Tx,
    token: string,
    kind: 'confirm' | 'reset' | 'confirm-browser',
    now: Date,
    siteUserId?: string,
  ): Promise<string | null> {
    if (!token || token.length > 100) return null;
    const deleted = await tx
      .delete(siteUserTokens)
      .where(
        and(
          eq(siteUserTokens.tokenHash, hashToken(token)),
          eq(siteUserTokens.kind, kind),
          gt(siteUserTokens.expiresAt, now),
          siteUserId ? eq(siteUserTokens.siteUserId, siteUserId) : undefined,
        ),
      )
      .returning({ siteUserId: siteUserTokens.siteUserId });
    return deleted[0]?.siteUserId ?? null;
  }

  /**
   * Follows a confirmation link. In the browser that signed up (its key matches the link's account) the
   * account is confirmed with the sign-up password: the id to start a session. Anywhere else the link is
   * left unspent and answers 'choose-password' (the page asks for a password: confirmWithPassword). Null
   * for an unknown, expired or spent link.
   */
  async confirm(
    token: string,
    browserKey: string | undefined,
    now = new Date(),
  ): Promise<{ siteUserId: string } | 'choose-password' | null> {
    if (!token || token.length > 100) return null;
    return this.db.transaction(async (tx) => {
      const [link] = await tx
        .select({ siteUserId: siteUserTokens.siteUserId })
        .from(siteUserTokens)
        .where(and(eq(siteUserTokens.tokenHash, hashToken(token)), eq(siteUserTokens.kind, 'confirm'), gt(siteUserTokens.expiresAt, now)))
        .limit(1);
      if (!link) return null;
      const sameBrowser = browserKey ? await this.spendToken(tx, browserKey, 'confirm-browser', now, link.siteUserId) : null;
      if (!sameBrowser) return 'choose-password';
      const id = await this.spendToken(tx, token, 'confirm', now);
      if (!id) return null;
      await this.markConfirmed(tx, id, now);
      return { siteUserId: id };
    });
  }

  /**
   * A confirmation link opened away from the browser that signed up: the visitor proves the address by the
   * link and chooses the password now; the sign-up's password is replaced and every session of the account
   * ends. The id to start a session, or null when the link is unknown, expired or spent.
   */
  async confirmWithPassword(token: string, password: string, now = new Date()): Promise<string | null> {
    const passwordHash = await hashPassword(password);
    return this.db.transaction(async (tx) => {
      const id = await this.spendToken(tx, token, 'confirm', now);
      if (!id) return null;
      await tx.update(siteUsers).set({ passwordHash }).where(eq(siteUsers.id, id));
      await tx.delete(siteUserSessions).where(eq(siteUserSessions.siteUserId, id));
      await this.markConfirmed(tx, id, now);
      return id;
    });
  }

  /** The address is proved: the sign-up's links and browser key die, the profile is marked, other areas' hooks run. */
  private async markConfirmed(tx: Tx, id: string, now: Date): Promise<void> {
    await tx
      .delete(siteUserTokens)
      .where(and(eq(siteUserTokens.siteUserId, id), inArray(siteUserTokens.kind, ['confirm', 'confirm-browser'])));
    await tx.update(siteUserProfiles).set({ confirmedAt: now }).where(eq(siteUserProfiles.siteUserId, id));
    for (const hook of siteUserConfirmedHooks) await hook(tx, id, now);
  }

  /** Checks email and password: the user, `{ unconfirmed }` (right password, confirmation link not followed), or null. */
  async authenticate(websiteId: string, email: string, password: string): Promise<SiteUser | { unconfirmed: SiteUser } | null> {
    const rows = await this.db
      .select({ u: siteUsers, p: siteUserProfiles })
      .from(siteUsers)
      .leftJoin(siteUserProfiles, eq(siteUserProfiles.siteUserId, siteUsers.id))
      .where(and(eq(siteUsers.websiteId, websiteId), eq(siteUsers.email, normEmail(email))))
      .limit(1);
    const row = rows[0];
    const ok = await verifyPassword(password, row?.u.passwordHash);
    if (!ok || !row || row.u.disabled) return null;
    if (!row.p?.confirmedAt) return { unconfirmed: toUser(row.u, row.p) };
    return toUser(row.u, row.p);
  }

  /**
   * The confirmation link again, for an account not yet confirmed whose right password was given at sign-in
   * (the sign-in answers as for a wrong password). Earlier links keep working (a member join's link still
   * lands on its own page); this one lands on the account page. The caller limits how often.
   */
  async sendConfirmationAgain(user: SiteUser, origin: string, now = new Date()): Promise<void> {
    const token = newToken();
    await this.db.transaction(async (tx) => {
      await tx.insert(siteUserTokens).values({
        tokenHash: hashToken(token),
        siteUserId: user.id,
        kind: 'confirm',
        expiresAt: new Date(now.getTime() + CONFIRM_HOURS * 3_600_000),
      });
      await this.mailer.enqueue(tx, {
        kind: 'site-user-confirm-again',
        to: user.email,
        subject: 'Confirm your account',
        text: `Someone (hopefully you) tried to sign in with this email, whose account is not confirmed yet. Follow this link to confirm it and sign in:\n\n${origin}/account/confirm?token=${token}\n\nThe link works for ${CONFIRM_HOURS} hours.`,
        ref: user.id,
      });
    });
    this.mailer.kick();
  }

  /**
   * A new session, always under a new token (never one the browser brought). `replacing` is the session
   * cookie the request came with, if any: that session ends, so a token planted in or left on the browser
   * before a sign-in never becomes, nor stays beside, the signed-in session (session fixation).
   */
  async startSession(
    siteUserId: string,
    rememberMe: boolean,
    now = new Date(),
    replacing?: string,
  ): Promise<{ token: string; xsrfToken: string; expiresAt: Date }> {
    const token = newToken();
    const xsrfToken = xsrfFor(token);
    const expiresAt = new Date(now.getTime() + (rememberMe ? REMEMBER_DAYS * 86_400_000 : SESSION_HOURS * 3_600_000));
    await this.db.transaction(async (tx) => {
      if (replacing && replacing.length <= 100) await this.endSession(hashToken(replacing), tx);
      await tx
        .insert(siteUserSessions)
        .values({ tokenHash: hashToken(token), siteUserId, xsrfHash: hashToken(xsrfToken), rememberMe, expiresAt });
    });
    return { token, xsrfToken, expiresAt };
  }

  /** PGlite: sessions found for requests, kept until the next write to the site-user tables is notified. */
  // Unknown tokens are not kept (made-up tokens must not fill the map).
  private readonly kept = new KeptUntilNotified<KeptSession | null>(KEPT_SESSIONS, (found) => found !== null);
  /** Statements fromSession sent (tests and the benchmark). */
  sessionReads = 0;

  /**
   * PGlite: follows the site-user tables' notifications (migration 0030), so a signed-in visitor's pages stop
   * reading their session on every request, and a sign-out, a password reset or a disabled account (any
   * write, by any area or plain SQL) is seen by the next request as before. PostgreSQL is not watched:
   * fromSession reads for every request there.
   */
  async watch(): Promise<void> {
    await this.kept.watch(this.database, SITE_USER_CHANGES_CHANNEL, 'tessera.site_user_notify');
  }

  async fromSession(token: string | undefined, now = new Date()): Promise<SiteUserSession | null> {
    if (!token || token.length > 100) return null;
    const read = () => this.readSession(token, now);
    const found = await (this.kept.watched ? this.kept.get(hashToken(token), read) : read());
    // The expiry is checked at each use, as the statement checks it at each read.
    return found && found.expiresAt > now.getTime() ? found.session : null;
  }

  private async readSession(token: string, now: Date): Promise<KeptSession | null> {
    this.sessionReads++;
    const rows = await this.db
      .select({ s: siteUserSessions, u: siteUsers, p: siteUserProfiles })
      .from(siteUserSessions)
      .innerJoin(siteUsers, eq(siteUsers.id, siteUserSessions.siteUserId))
      .leftJoin(siteUserProfiles, eq(siteUserProfiles.siteUserId, siteUsers.id))
      .where(and(eq(siteUserSessions.tokenHash, hashToken(token)), gt(siteUserSessions.expiresAt, now), eq(siteUsers.disabled, false)))
      .limit(1);
    const r = rows[0];
    return r
      ? { session: { user: toUser(r.u, r.p), xsrfHash: r.s.xsrfHash, tokenHash: r.s.tokenHash }, expiresAt: r.s.expiresAt.getTime() }
      : null;
  }

  async endSession(tokenHash: string, db: Tx | Database['db'] = this.db): Promise<void> {
    await db.delete(siteUserSessions).where(eq(siteUserSessions.tokenHash, tokenHash));
  }

  async purgeExpired(now = new Date()): Promise<void> {
    await this.db.delete(siteUserSessions).where(lt(siteUserSessions.expiresAt, now));
    await this.db.delete(siteUserTokens).where(lt(siteUserTokens.expiresAt, now));
  }

  /** Password reset request: a link when the address has an account; the same answer either way. */
  async requestReset(websiteId: string, email: string, origin: string, now = new Date()): Promise<void> {
    const addr = normEmail(email);
    await this.db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: siteUsers.id })
        .from(siteUsers)
        .where(and(eq(siteUsers.websiteId, websiteId), eq(siteUsers.email, addr), eq(siteUsers.disabled, false)))
        .limit(1);
      if (!rows[0]) return;
      const token = await this.issueToken(tx, rows[0].id, 'reset', new Date(now.getTime() + RESET_MINUTES * 60_000));
      await this.mailer.enqueue(tx, {
        kind: 'site-user-reset',
        to: addr,
        subject: 'Choose a new password',
        text: `Follow this link to choose a new password:\n\n${origin}/account/reset?token=${token}\n\nThe link works for ${RESET_MINUTES} minutes. If you did not ask for it, ignore this email.`,
        ref: rows[0].id,
      });
    });
    this.mailer.kick();
  }

  /** Sets a new password from a reset link; every session of the account ends. True when the link was good. */
  async resetPassword(token: string, password: string, now = new Date()): Promise<boolean> {
    const passwordHash = await hashPassword(password);
    return this.db.transaction(async (tx) => {
      const id = await this.spendToken(tx, token, 'reset', now);
      if (!id) return false;
      // Any other reset link of the account dies with this one.
      await tx.delete(siteUserTokens).where(and(eq(siteUserTokens.siteUserId, id), eq(siteUserTokens.kind, 'reset')));
      await tx.update(siteUsers).set({ passwordHash }).where(eq(siteUsers.id, id));
      await tx.delete(siteUserSessions).where(eq(siteUserSessions.siteUserId, id));
      // Following a link from the mailbox also proves the address (and ends the sign-up's links and key).
      await this.markConfirmed(tx, id, now);
      return true;
    });
  }

  async setLanguage(siteUserId: string, language: string): Promise<void> {
    await this.db.update(siteUserProfiles).set({ language }).where(eq(siteUserProfiles.siteUserId, siteUserId));
  }
}

/**
 * The xsrf token of a session, derived from its (httpOnly) session token: scripts of the site cannot
 * compute it, and the server can hand it again to a new tab of the same session without storing it.
 */
export function xsrfFor(sessionToken: string): string {
  return createHash('sha256').update(`site-user-xsrf:${sessionToken}`).digest('base64url');
}

export function normEmail(email: string): string {
  return email.trim().toLowerCase();
}

function toUser(u: typeof siteUsers.$inferSelect, p: typeof siteUserProfiles.$inferSelect | null): SiteUser {
  return {
    id: u.id,
    websiteId: u.websiteId,
    email: u.email,
    displayName: p?.displayName ?? '',
    language: p?.language ?? '',
    confirmed: !!p?.confirmedAt,
  };
}

/** The proved profile of the account a statement is about (for `notExists`: an account never confirmed). */
function provedProfile(tx: Tx) {
  return tx
    .select({ one: siteUserProfiles.siteUserId })
    .from(siteUserProfiles)
    .where(and(eq(siteUserProfiles.siteUserId, siteUsers.id), isNotNull(siteUserProfiles.confirmedAt)));
}
