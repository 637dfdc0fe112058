/**
 * Team invitations (issue 23). An admin invites someone by email with a role; the invitee gets a one-time link
 * (from the configured public origin, through the outbox) to /config/invite, where they choose their own
 * password and are signed in with the role they were given.
 *
 * - The account is made at once without a password (it cannot sign in); the link's token is kept only as its
 *   SHA-256 (owner_sessions, kind 'invite') and expires after INVITE_DAYS. Inviting the same address again
 *   replaces the link; spending it spends every link of the account.
 * - Invites are rate-limited per admin; the page's form post per IP address.
 * - GET /api/admin/team: members with their state (active, invited), and the roles with what each may do.
 * Changing a role and removing a member stay with /api/config/team/:id (the last admin is kept there).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { and, asc, eq, gt } from 'drizzle-orm';
import { z } from 'zod';
import { schema } from '../../db/index.js';
import { hashToken, newId, newToken } from '../../db/ids.js';
import { Role, isEnumValue } from '../../core/enums.js';
import { isEmailAddress } from '../../core/email.js';
import { platform as platformMessages } from '../../core/messages.js';
import { HttpError, badRequest } from '../errors.js';
import { parseInput } from './validate.js';
import { hashPassword } from './passwords.js';
import { audit } from './audit.js';
import { can, roleDescriptions } from '../../core/roles.js';
import { OWNER_COOKIE } from '../../core/cookies.js';
import { escapeHtml } from '../../core/html.js';
import { adminCardPage, sendPrivatePage } from '../private-page.js';

const { accounts, ownerSessions } = schema;

export const INVITE_DAYS = 7;
export const INVITE_LIMIT = {
  name: 'team-invite',
  max: 10,
  windowMs: 3_600_000,
  message: 'Too many invitations in an hour. Wait a while and try again.',
};
export const ACCEPT_LIMIT = {
  name: 'team-invite-accept',
  max: 10,
  windowMs: 10 * 60_000,
  message: 'Too many tries. Wait a few minutes and try again.',
};
export const INVITE_EXPIRED = 'This invitation has expired or was already used. Ask for a new one.';
export const ALREADY_MEMBER = 'That person is already on the team.';
const PASSWORD_SHORT = 'Use at least 8 characters for the password.';
const PASSWORD_MISMATCH = 'The two passwords do not match.';

/** The roles an owner can give, in the Role enumeration, with what each may do: written from core/roles.ts. */
export const ROLE_DESCRIPTIONS: Array<{ role: number; name: string; description: string }> = roleDescriptions();

/** A role an owner can give: any Role but NONE. */
export const roleCode = z.number().refine((n) => isEnumValue(Role, n) && n !== Role.NONE, { message: 'Choose a role.' });
/** Who joins the team: their email, name and role (an invitation; adding a member directly adds a password). */
export const inviteBody = z.object({
  email: z
    .string()
    .trim()
    .max(320)
    .refine((s) => isEmailAddress(s), platformMessages.ENTER_VALID_EMAIL),
  displayName: z.string().trim().max(100).optional().default(''),
  role: roleCode,
});
const acceptBody = z.object({
  token: z.string().min(10).max(100),
  displayName: z.string().trim().max(100).optional().default(''),
  password: z.string().min(8, PASSWORD_SHORT).max(1024),
  confirm: z.string().max(1024).optional(),
  crumb: z.string().optional(),
});

const invitePage = (reply: FastifyReply, status: number, body: string) =>
  sendPrivatePage(reply, status, adminCardPage('Join the team', body));

export async function teamInviteRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const adminRead = app.requireOwner(can('team', 'read'));
  const admin = app.requireOwner(can('team', 'write'));

  app.get('/api/admin/team', { preHandler: adminRead }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const site = req.owner!.websiteId;
    const list = await db.select().from(accounts).where(eq(accounts.websiteId, site)).orderBy(asc(accounts.createdAt));
    const invites = await db
      .select({ accountId: ownerSessions.accountId, expiresAt: ownerSessions.expiresAt })
      .from(ownerSessions)
      .where(eq(ownerSessions.kind, 'invite'));
    const inviteOfAccount = new Map(invites.map((i) => [i.accountId, i.expiresAt]));
    return {
      me: req.owner!.id,
      roles: ROLE_DESCRIPTIONS,
      members: list.map((a) => {
        const expires = inviteOfAccount.get(a.id);
        const state = a.passwordHash ? 'active' : expires && expires > new Date() ? 'invited' : 'expired';
        return {
          id: a.id,
          email: a.email,
          displayName: a.displayName,
          role: a.role,
          state,
          inviteExpires: !a.passwordHash && expires ? expires.toISOString() : null,
        };
      }),
    };
  });

  app.post(
    '/api/admin/team/invites',
    { preHandler: [admin, app.services.rateLimiter.guard({ ...INVITE_LIMIT, key: (r) => `acct:${r.owner?.id ?? r.ip}` })] },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const body = parseInput(inviteBody, req.body);
      const owner = req.owner!;
      const email = body.email.toLowerCase();
      const token = newToken();
      const expiresAt = new Date(Date.now() + INVITE_DAYS * 86_400_000);
      const site = await app.services.websites.get();
      const out = await db.transaction(async (tx) => {
        const [existing] = await tx.select().from(accounts).where(eq(accounts.email, email)).for('update');
        if (existing && (existing.passwordHash || existing.websiteId !== owner.websiteId))
          throw badRequest(ALREADY_MEMBER, { email: ALREADY_MEMBER });
        let account = existing;
        if (account) {
          [account] = await tx
            .update(accounts)
            .set({ role: body.role, displayName: body.displayName || account.displayName })
            .where(eq(accounts.id, account.id))
            .returning();
          await tx.delete(ownerSessions).where(and(eq(ownerSessions.accountId, account!.id), eq(ownerSessions.kind, 'invite')));
        } else {
          [account] = await tx
            .insert(accounts)
            .values({ id: newId(), websiteId: owner.websiteId, email, displayName: body.displayName, role: body.role, passwordHash: null })
            .returning();
        }
        await tx.insert(ownerSessions).values({ tokenHash: hashToken(token), accountId: account!.id, kind: 'invite', expiresAt });
        const origin = await app.emailOrigin(tx);
        const link = `${origin}/config/invite?token=${encodeURIComponent(token)}`;
        const roleName = ROLE_DESCRIPTIONS.find((r) => r.role === body.role)?.name ?? 'Team member';
        const inviter = owner.displayName || owner.email;
        await app.services.mailer.enqueue(tx, {
          kind: 'team-invite',
          to: email,
          subject: `You are invited to help run ${site.title}`,
          text: `${inviter} invited you to ${site.title} on Tessera as ${roleName}.\n\nChoose your password and sign in here (the link works once, for ${INVITE_DAYS} days):\n${link}\n\nIf you did not expect this, ignore this email.\n`,
          html: `<p>${escapeHtml(inviter)} invited you to <strong>${escapeHtml(site.title)}</strong> on Tessera as ${escapeHtml(roleName)}.</p><p><a href="${escapeHtml(link)}">Choose your password and sign in</a></p><p>The link works once, for ${INVITE_DAYS} days. If you did not expect this, ignore this email.</p>`,
          ref: `team-invite:${account!.id}`,
        });
        await audit(tx, {
          websiteId: owner.websiteId,
          accountId: owner.id,
          action: 'team.invite',
          entity: 'account',
          entityId: account!.id,
          after: { email, role: body.role },
        });
        return {
          id: account!.id,
          email,
          displayName: account!.displayName,
          role: body.role,
          state: 'invited',
          inviteExpires: expiresAt.toISOString(),
        };
      });
      app.services.mailer.kick();
      return reply.status(201).send({ member: out });
    },
  );

  registerInviteAcceptance(app);
}

/** The invited person's side: the emailed link's page and the form that sets their password and signs them in. */
function registerInviteAcceptance(app: FastifyInstance) {
  const db = app.database.db;

  /** The invite behind a token: its account, when the token is known, unspent and not expired. */
  async function inviteOf(token: string) {
    if (token.length < 10 || token.length > 100) return null;
    const [r] = await db
      .select({ account: accounts })
      .from(ownerSessions)
      .innerJoin(accounts, eq(accounts.id, ownerSessions.accountId))
      .where(and(eq(ownerSessions.tokenHash, hashToken(token)), eq(ownerSessions.kind, 'invite'), gt(ownerSessions.expiresAt, new Date())))
      .limit(1);
    return r?.account ?? null;
  }

  const form = (token: string, email: string, crumb: string, error?: string) =>
    `<h1>Join the team</h1><p>You were invited as <strong>${escapeHtml(email)}</strong>. Choose a password to sign in.</p>` +
    `<form method="post" action="/api/auth/invite">` +
    (error ? `<p role="alert" class="admin-login__error">${escapeHtml(error)}</p>` : '') +
    `<input type="hidden" name="crumb" value="${escapeHtml(crumb)}"><input type="hidden" name="token" value="${escapeHtml(token)}">` +
    `<input type="email" name="username" value="${escapeHtml(email)}" autocomplete="username" hidden readonly>` +
    `<label>Your name<input name="displayName" autocomplete="name" maxlength="100"></label>` +
    `<label>Choose a password<input type="password" name="password" autocomplete="new-password" minlength="8" required></label>` +
    `<label>Repeat the password<input type="password" name="confirm" autocomplete="new-password" minlength="8" required></label>` +
    `<button type="submit">Join and sign in</button></form>`;

  app.get('/config/invite', async (req, reply) => {
    const token = (req.query as Record<string, unknown>).token;
    const account = typeof token === 'string' ? await inviteOf(token) : null;
    if (!account || typeof token !== 'string')
      return invitePage(reply, 410, `<h1>Join the team</h1><p role="alert" class="admin-login__error">${escapeHtml(INVITE_EXPIRED)}</p>`);
    return invitePage(reply, 200, form(token, account.email, req.crumb));
  });

  app.post('/api/auth/invite', { preHandler: app.services.rateLimiter.guard(ACCEPT_LIMIT) }, async (req, reply) => {
    const isForm = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    const raw = (req.body ?? {}) as Record<string, unknown>;
    const token = typeof raw.token === 'string' ? raw.token : '';
    const account = await inviteOf(token);
    const refuse = (status: number, message: string, errors?: Record<string, string>) => {
      if (isForm)
        return invitePage(
          reply,
          status,
          account
            ? form(token, account.email, req.crumb, message)
            : `<h1>Join the team</h1><p role="alert" class="admin-login__error">${escapeHtml(message)}</p>`,
        );
      throw new HttpError(status, message, errors);
    };
    if (!account) return refuse(410, INVITE_EXPIRED);
    const parsed = acceptBody.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = String(issue?.path[0] ?? 'password');
      return refuse(400, issue?.message ?? PASSWORD_SHORT, { [field]: issue?.message ?? PASSWORD_SHORT });
    }
    if (parsed.data.confirm !== undefined && parsed.data.confirm !== parsed.data.password)
      return refuse(400, PASSWORD_MISMATCH, { confirm: PASSWORD_MISMATCH });
    const passwordHash = await hashPassword(parsed.data.password);
    const spent = await db.transaction(async (tx) => {
      // Spending the link deletes it: a second use (or a race) finds nothing.
      const gone = await tx
        .delete(ownerSessions)
        .where(
          and(eq(ownerSessions.tokenHash, hashToken(token)), eq(ownerSessions.kind, 'invite'), gt(ownerSessions.expiresAt, new Date())),
        )
        .returning({ accountId: ownerSessions.accountId });
      if (!gone[0]) return false;
      await tx.delete(ownerSessions).where(and(eq(ownerSessions.accountId, account.id), eq(ownerSessions.kind, 'invite')));
      await tx
        .update(accounts)
        .set({ passwordHash, ...(parsed.data.displayName ? { displayName: parsed.data.displayName } : {}) })
        .where(eq(accounts.id, account.id));
      await audit(tx, {
        websiteId: account.websiteId,
        accountId: account.id,
        action: 'team.invite.accept',
        entity: 'account',
        entityId: account.id,
      });
      return true;
    });
    if (!spent) return refuse(410, INVITE_EXPIRED);
    const session = await app.services.owners.startSession(account.id, new Date(), req.cookies[OWNER_COOKIE]);
    app.setOwnerCookie(req, reply, session.token, session.expiresAt);
    if (isForm) return reply.redirect('/config', 303);
    return { ok: true, owner: { email: account.email, role: account.role } };
  });
}
