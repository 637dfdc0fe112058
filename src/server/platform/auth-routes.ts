import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { OwnerService } from './owners.js';
import { OWNER_COOKIE } from '../../core/cookies.js';
import { HttpError } from '../errors.js';
import { RateLimiter } from '../plugins/index.js';
import { security } from '../../core/messages.js';
import { can } from '../../core/roles.js';
import { SIGN_IN_LINK_MINUTES } from './owners.js';
import type { SignInPolicy } from './sign-in-limits.js';

export const LOGIN_FAILED = 'That email and password do not match an account.';
export const LINK_FAILED = 'This sign-in link has expired or was already used.';

/**
 * The sign-in page shows an error by code (`/config/login?error=failed`), never text from the address,
 * so nobody can send an owner a link to the real sign-in page carrying words of their choosing.
 */
export const SIGN_IN_ERRORS: Readonly<Record<string, string>> = {
  failed: LOGIN_FAILED,
  email: 'Enter your email.',
  password: 'Enter your password.',
  invalid: 'Invalid request',
  link: LINK_FAILED,
  'too-many': security.TOO_MANY_SIGN_INS,
};

/** The message of an error code from a query, or undefined for anything unknown. */
export function signInError(code: unknown): string | undefined {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(SIGN_IN_ERRORS, code) ? SIGN_IN_ERRORS[code] : undefined;
}

/**
 * Owner sign-in limits (issue 21, item 5; issue 38, item 4): failed sign-ins only, per address across
 * accounts, per (account, address) in a short and a day-long tier, and per account across addresses past
 * which every check is slowed instead of refused (platform/sign-in-limits.ts). When an address is first
 * refused for an account, or the account first passes its across-addresses ceiling, the account's own
 * address gets a lock notice with a one-time sign-in link, which works whatever the counters say.
 */
export const OWNER_SIGN_IN_LIMITS: SignInPolicy = {
  name: 'owner-sign-in',
  address: { max: 20, windowMs: 10 * 60_000 },
  account: { max: 10, windowMs: 15 * 60_000 },
  accountDay: { max: 50, windowMs: 24 * 3_600_000 },
  slowAbove: { max: 20, windowMs: 15 * 60_000 },
  slowMs: 3_000,
};
/** Lock notices per account a day: many refused addresses do not fill the owner's mailbox. */
export const LOCK_NOTICE_LIMIT = { name: 'owner-lock-notice', max: 3, windowMs: 24 * 3_600_000 };

const loginBody = z.object({
  email: z.string().trim().min(1, 'Enter your email.').max(320),
  password: z.string().min(1, 'Enter your password.').max(1024),
  crumb: z.string().optional(),
  next: z.string().optional(),
});

/** Only same-site paths under /config are followed after sign-in. */
function safeNext(next: string | undefined): string {
  return next && /^\/config(\/[\w\-/]*)?$/.test(next) ? next : '/config';
}

export async function authRoutes(app: FastifyInstance, opts: { owners: OwnerService }) {
  const { owners } = opts;
  const limiter: RateLimiter = app.services.rateLimiter;

  /**
   * The lock notice, to the account's own address with a one-time sign-in link (nothing when no account has
   * the address), at most LOCK_NOTICE_LIMIT a day. Sent after the answer, so its writes do not make the
   * answer for an existing account slower than for an unknown one.
   */
  const lockNotice = (req: FastifyRequest, email: string) => {
    const send = async () => {
      const owner = await owners.byEmail(email);
      if (!owner || (await limiter.hit(LOCK_NOTICE_LIMIT, owner.id)) > LOCK_NOTICE_LIMIT.max) return;
      const link = `${await app.emailOrigin()}/config/login/link?token=${await owners.createSignInLink(owner.id)}`;
      await app.services.mailer.enqueue(app.database.db, {
        kind: 'owner-sign-in-locked',
        to: owner.email,
        subject: security.LOCK_NOTICE_SUBJECT,
        text: security.lockNoticeText(link, SIGN_IN_LINK_MINUTES),
        ref: owner.id,
      });
      app.services.mailer.kick();
    };
    app.services.signInLimits.later(send, (err) => req.log.warn({ err: err.message }, 'lock notice not sent'));
  };

  app.post('/api/auth/login', async (req, reply) => {
    const isForm = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    const parsed = loginBody.safeParse(req.body ?? {});
    const refuse = (code: string, status: number) => {
      if (isForm) return reply.redirect(`/config/login?error=${code}`, 303);
      throw new HttpError(status, SIGN_IN_ERRORS[code]!, undefined, status === 429 ? { retryAfterSeconds: 900 } : undefined);
    };
    if (!parsed.success) {
      const path = String(parsed.error.issues[0]?.path[0] ?? '');
      return refuse(path === 'email' || path === 'password' ? path : 'invalid', 400);
    }
    const account = parsed.data.email.trim().toLowerCase().slice(0, 320);
    const verdict = await app.services.signInLimits.begin(OWNER_SIGN_IN_LIMITS, account, req.ip);
    if (verdict.refused) {
      if (verdict.first) lockNotice(req, account);
      req.log.warn({ event: 'owner-sign-in-limited', by: verdict.refused }, 'owner sign-in rate limited');
      return refuse('too-many', 429);
    }
    const { attempt } = verdict;
    if (attempt.accountFailures === OWNER_SIGN_IN_LIMITS.slowAbove.max + 1) lockNotice(req, account);
    const owner = await owners.authenticate(parsed.data.email, parsed.data.password);
    if (!owner) {
      req.log.info({ event: 'owner-login-failed', slowed: attempt.slowed }, 'owner sign-in refused');
      return refuse('failed', 401);
    }
    await attempt.succeeded();
    const { token, expiresAt } = await owners.startSession(owner.id, new Date(), req.cookies[OWNER_COOKIE]);
    app.setOwnerCookie(req, reply, token, expiresAt);
    if (isForm) return reply.redirect(safeNext(parsed.data.next), 303);
    return { ok: true, owner: { email: owner.email, role: owner.role, displayName: owner.displayName } };
  });

  app.post('/api/auth/logout', async (req, reply) => {
    const token = req.cookies[OWNER_COOKIE];
    if (token) await owners.endSession(token);
    reply.clearCookie(OWNER_COOKIE, { path: '/' });
    return { ok: true };
  });

  app.get('/api/auth/me', { preHandler: app.requireOwner(can('account', 'read')) }, async (req) => {
    const o = req.owner!;
    return { email: o.email, role: o.role, displayName: o.displayName, websiteId: o.websiteId };
  });

  /** The one-time sign-in link: printed at first start and by `npm run owner-link`, and sent in a lock notice (no sign-in limit applies to it). */
  app.get('/config/login/link', async (req, reply) => {
    const token = (req.query as Record<string, unknown>).token;
    const owner = typeof token === 'string' ? await owners.redeemSignInLink(token) : null;
    if (!owner) return reply.redirect('/config/login?error=link', 303);
    const session = await owners.startSession(owner.id, new Date(), req.cookies[OWNER_COOKIE]);
    app.setOwnerCookie(req, reply, session.token, session.expiresAt);
    // A first sign-in (no password yet, or the placeholder email) chooses them before anything else.
    return reply.redirect((await owners.needsSetup(owner.id)) ? '/config/welcome' : '/config', 303);
  });
}
