/** The site-user calls (session, account, locale, sign-out), plus sign-up and password reset. */
import { isEmailAddress } from '../../core/email.js';
import { parseInput } from './validate.js';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { isFormPost } from '../visitor/index.js';
import { accountFormBody, answerAccountForm } from './account-form.js';
import { z } from 'zod';
import type { SiteUser, SiteUserService } from './site-users.js';
import type { SignInPolicy } from './sign-in-limits.js';
import { normEmail, siteUserMessages, xsrfFor } from './site-users.js';
import { adoptVisitorCart, cloneUserCart, detachUserCart } from './site-user-carts.js';
import { setCartCookie } from '../visitor/index.js';
import { CART_COOKIE } from '../../core/cookies.js';
import { SIGN_UP_CONFIRM_PATH } from './site-user-plugin.js';
import { SIGN_UP_COOKIE, SITE_USER_COOKIE } from '../../core/cookies.js';
import { badRequest, HttpError } from '../errors.js';
import { platform as platformMessages } from '../../core/messages.js';
import { EMAIL_MAX_LENGTH } from '../../core/constants.js';
import { siteLanguages } from './settings.js';
import { accountPage, safeNext } from './account-pages.js';

const email = z
  .string({ error: platformMessages.ENTER_VALID_EMAIL })
  .trim()
  .max(EMAIL_MAX_LENGTH, platformMessages.ENTER_VALID_EMAIL)
  .refine((s) => isEmailAddress(s), platformMessages.ENTER_VALID_EMAIL);
const password = z.string({ error: siteUserMessages.PASSWORD_TOO_SHORT }).min(8, siteUserMessages.PASSWORD_TOO_SHORT).max(1024);

const signInBody = z.object({
  email: z.string({ error: siteUserMessages.SIGN_IN_FAILED }).trim().min(1).max(EMAIL_MAX_LENGTH),
  password: z.string({ error: siteUserMessages.SIGN_IN_FAILED }).min(1).max(1024),
  rememberMe: z.boolean().optional().default(false),
});
const signUpBody = z.object({ email, password, displayName: z.string().trim().max(100).optional().default('') });
const resetRequestBody = z.object({ email });
const resetBody = z.object({ token: z.string().min(1).max(100), password });
const confirmBody = z.object({
  token: z.string({ error: siteUserMessages.LINK_EXPIRED }).min(1, siteUserMessages.LINK_EXPIRED).max(100, siteUserMessages.LINK_EXPIRED),
  password,
});
const localeBody = z.object({ language: z.string().trim().min(2).max(35) });
const signOutQuery = z.object({ cloneCart: z.enum(['true', 'false', '1', '0']).optional() });

/**
 * Site-user sign-in limits (issue 38, item 4): failed sign-ins only, per address, per (email, address) and,
 * past a higher ceiling per email across addresses, slowed instead of refused (platform/sign-in-limits.ts).
 */
export const SITE_USER_SIGN_IN_LIMITS: SignInPolicy = {
  name: 'site-user-sign-in',
  address: { max: 30, windowMs: 10 * 60_000 },
  account: { max: 10, windowMs: 15 * 60_000 },
  accountDay: { max: 50, windowMs: 24 * 3_600_000 },
  slowAbove: { max: 20, windowMs: 15 * 60_000 },
  slowMs: 3_000,
};
/** Confirmation links sent again from sign-in, per account: one per 15 minutes, five a day. */
export const CONFIRM_AGAIN_LIMITS = [
  { name: 'site-user-confirm-again', max: 1, windowMs: 15 * 60_000 },
  { name: 'site-user-confirm-again-day', max: 5, windowMs: 24 * 3_600_000 },
] as const;

export async function siteUserRoutes(app: FastifyInstance, opts: { siteUsers: SiteUserService }) {
  const { siteUsers } = opts;
  const limiter = app.services.rateLimiter;
  const byIp = (name: string, max: number, windowMs: number) =>
    limiter.guard({ name, max, windowMs, message: siteUserMessages.TOO_MANY_ATTEMPTS });

  /**
   * Sends an unconfirmed account its confirmation link again, within CONFIRM_AGAIN_LIMITS, after the answer
   * (its writes must not make this answer slower than a wrong password's).
   */
  const confirmAgain = (req: FastifyRequest, user: SiteUser) => {
    const send = async () => {
      const counts = await Promise.all(CONFIRM_AGAIN_LIMITS.map((rule) => limiter.hit(rule, user.id)));
      if (counts.some((n, i) => n > CONFIRM_AGAIN_LIMITS[i]!.max)) return;
      await siteUsers.sendConfirmationAgain(user, await app.emailOrigin());
    };
    app.services.signInLimits.later(send, (err) => req.log.warn({ err: err.message }, 'confirmation link not sent again'));
  };

  // No preHandler limit: sign-in counts its failures only (SITE_USER_SIGN_IN_LIMITS, below).
  app.post('/api/site-users/account/session', async (req, reply) => {
    if (isFormPost(req)) {
      const next = safeNext((req.body as Record<string, unknown>).next);
      return answerAccountForm(app, req, reply, {
        mode: 'login',
        next,
        redirect: next ?? '/account',
        run: () => signIn(req, reply, accountFormBody(req.body)),
      });
    }
    return signIn(req, reply, req.body);
  });

  async function signIn(req: FastifyRequest, reply: FastifyReply, input: unknown) {
    const parsed = signInBody.safeParse(input ?? {});
    if (!parsed.success) throw badRequest(siteUserMessages.SIGN_IN_FAILED);
    const body = parsed.data;
    const verdict = await app.services.signInLimits.begin(SITE_USER_SIGN_IN_LIMITS, normEmail(body.email), req.ip);
    if (verdict.refused) {
      req.log.warn({ event: 'site-user-sign-in-limited', by: verdict.refused }, 'site-user sign-in rate limited');
      throw new HttpError(429, siteUserMessages.TOO_MANY_ATTEMPTS, undefined, {
        retryAfterSeconds: Math.ceil(SITE_USER_SIGN_IN_LIMITS[verdict.refused].windowMs / 1000),
      });
    }
    const site = await app.services.websites.get();
    const user = await siteUsers.authenticate(site.id, body.email, body.password);
    if (!user || 'unconfirmed' in user) {
      // The right password of an account not yet confirmed answers as a wrong one (no oracle) and counts as a
      // failure; its owner gets the confirmation link again.
      if (user) confirmAgain(req, user.unconfirmed);
      req.log.info({ event: 'site-user-sign-in-failed' }, 'site-user sign-in refused');
      throw new HttpError(401, siteUserMessages.SIGN_IN_FAILED);
    }
    await verdict.attempt.succeeded();
    return beginSession(app, siteUsers, req, reply, user.id, body.rememberMe);
  }

  /** Who is signed in, with the xsrf token for a new tab of the same session. */
  app.get('/api/site-users/account/session', async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const u = req.siteUser;
    if (!u) return { authenticated: false, siteUserId: null };
    return {
      authenticated: true,
      siteUserId: u.id,
      email: u.email,
      displayName: u.displayName,
      language: u.language,
      xsrfToken: xsrfFor(req.cookies[SITE_USER_COOKIE]!),
    };
  });

  app.delete('/api/site-users/account/session', async (req, reply) => {
    const q = parseInput(signOutQuery, req.query);
    const clone = q.cloneCart === 'true' || q.cloneCart === '1';
    reply.header('cache-control', 'no-store');
    if (!req.siteUserSession) {
      app.clearSiteUserCookies(reply);
      return { ok: true, message: siteUserMessages.SIGNED_OUT };
    }
    await app.requireSiteUser.call(app, req, reply);
    return signOut(req, reply, clone);
  });

  /** Sign-out as a plain form post (no JavaScript; a form cannot send DELETE): the crumb stands for the xsrf header. */
  app.post('/api/site-users/account/sign-out', async (req, reply) => {
    if (!isFormPost(req)) throw badRequest('Sign out with DELETE /api/site-users/account/session.');
    const b = (req.body ?? {}) as Record<string, unknown>;
    reply.header('cache-control', 'no-store');
    if (req.siteUserSession) await signOut(req, reply, b.cloneCart === 'true' || b.cloneCart === 'on');
    else app.clearSiteUserCookies(reply);
    return reply.redirect('/account/login', 303);
  });

  async function signOut(req: FastifyRequest, reply: FastifyReply, clone: boolean) {
    const session = req.siteUserSession!;
    const token = await app.database.db.transaction(async (tx) => {
      const t = clone ? await cloneUserCart(tx, session.user.id) : null;
      await detachUserCart(tx, session.user.id);
      await siteUsers.endSession(session.tokenHash, tx);
      return t;
    });
    app.clearSiteUserCookies(reply);
    // The signed-out visitor keeps a copy of the cart, or starts empty.
    if (token) setCartCookie(req, reply, token);
    else reply.clearCookie(CART_COOKIE, { path: '/' });
    return { ok: true, message: siteUserMessages.SIGNED_OUT, cartKept: token !== null };
  }

  app.post('/api/site-users/account/locale', { preHandler: app.requireSiteUser }, async (req) => {
    const { language } = parseInput(localeBody, req.body);
    const site = await app.services.websites.get();
    const languages = siteLanguages(site);
    const known = languages.find((l) => l.code.toLowerCase() === language.toLowerCase());
    if (!known) throw badRequest(platformMessages.notExpectedOption(language), { language: platformMessages.notExpectedOption(language) });
    await siteUsers.setLanguage(req.siteUser!.id, known.code);
    return { language: known.code };
  });

  app.get('/api/site-users/account', { preHandler: app.requireSiteUser }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const u = req.siteUser!;
    return { siteUserId: u.id, email: u.email, displayName: u.displayName, language: u.language };
  });

  registerSignUpAndReset(app, siteUsers, byIp);

  await confirmationRoutes(app, siteUsers, byIp);
}

/** Signing up, and the forgotten password: the reset link's request and the new password it sets. */
function registerSignUpAndReset(
  app: FastifyInstance,
  siteUsers: SiteUserService,
  byIp: (name: string, max: number, windowMs: number) => preHandlerAsyncHookHandler,
) {
  /** Every sign-up answer carries the browser key cookie (the confirmation link signs in with this password only beside it). */
  const signUp = async (req: FastifyRequest, reply: FastifyReply, input: unknown) => {
    const body = parseInput(signUpBody, input);
    const site = await app.services.websites.get();
    const { browserKey } = await siteUsers.signUp({
      websiteId: site.id,
      email: body.email,
      password: body.password,
      displayName: body.displayName,
      origin: await app.emailOrigin(),
    });
    app.setSignUpCookie(req, reply, browserKey);
  };
  app.post('/api/site-users/accounts', { preHandler: byIp('site-user-sign-up', 10, 10 * 60_000) }, async (req, reply) => {
    if (isFormPost(req))
      return answerAccountForm(app, req, reply, {
        mode: 'signup',
        notice: siteUserMessages.SIGN_UP_SENT,
        run: () => signUp(req, reply, accountFormBody(req.body)),
      });
    await signUp(req, reply, req.body);
    return reply.status(202).send({ message: siteUserMessages.SIGN_UP_SENT });
  });

  const requestReset = async (input: unknown) => {
    const body = parseInput(resetRequestBody, input);
    const site = await app.services.websites.get();
    await siteUsers.requestReset(site.id, body.email, await app.emailOrigin());
  };
  app.post('/api/site-users/account/password-reset', { preHandler: byIp('site-user-reset', 10, 10 * 60_000) }, async (req, reply) => {
    if (isFormPost(req))
      return answerAccountForm(app, req, reply, {
        mode: 'reset-request',
        notice: siteUserMessages.RESET_SENT,
        run: () => requestReset(accountFormBody(req.body)),
      });
    await requestReset(req.body);
    return reply.status(202).send({ message: siteUserMessages.RESET_SENT });
  });

  const resetPassword = async (input: unknown) => {
    const body = parseInput(resetBody, input);
    const ok = await siteUsers.resetPassword(body.token, body.password);
    if (!ok) throw badRequest(siteUserMessages.LINK_EXPIRED);
  };
  app.post('/api/site-users/account/password', { preHandler: byIp('site-user-reset-confirm', 20, 10 * 60_000) }, async (req, reply) => {
    if (isFormPost(req)) {
      const token =
        typeof (req.body as Record<string, unknown>).token === 'string'
          ? String((req.body as Record<string, unknown>).token).slice(0, 100)
          : '';
      return answerAccountForm(app, req, reply, {
        mode: 'reset',
        token,
        notice: 'Your password is changed. You can sign in now.',
        run: () => resetPassword(accountFormBody(req.body)),
      });
    }
    await resetPassword(req.body);
    return { ok: true };
  });
}

/**
 * Signs a proved visitor in (sign-in, a confirmation link): the visitor's cart becomes the user's unless
 * the user has one (one cart across devices) under a new cart cookie, and the session is new: whatever
 * session cookie the browser brought is ended, never kept or promoted (session and cart fixation).
 */
async function beginSession(
  app: FastifyInstance,
  siteUsers: SiteUserService,
  req: FastifyRequest,
  reply: FastifyReply,
  siteUserId: string,
  rememberMe: boolean,
) {
  const cartToken = await app.database.db.transaction((tx) => adoptVisitorCart(tx, req.cookies[CART_COOKIE], siteUserId));
  if (cartToken) setCartCookie(req, reply, cartToken);
  const s = await siteUsers.startSession(siteUserId, rememberMe, new Date(), req.cookies[SITE_USER_COOKIE]);
  app.setSiteUserCookies(req, reply, s.token, siteUserId, rememberMe ? s.expiresAt : null);
  reply.header('cache-control', 'no-store');
  return { xsrfToken: s.xsrfToken };
}

/** The confirmation link of the sign-up email and its password form (issue 38). */
async function confirmationRoutes(
  app: FastifyInstance,
  siteUsers: SiteUserService,
  byIp: (name: string, max: number, windowMs: number) => preHandlerAsyncHookHandler,
) {
  /**
   * The confirmation link of the sign-up email. In the browser that signed up (its sign-up cookie) it
   * confirms, signs in and lands on the account page (or the link's `next`, a site path). Anywhere else it
   * spends nothing and shows the "choose your password" form (mode 'confirm'), which posts below: the
   * sign-up's password only ever works for whoever typed it, so a stranger who signed up with someone
   * else's address never gets an account that address confirmed (issue 38).
   */
  app.get('/account/confirm', async (req, reply) => {
    const { token, next } = req.query as Record<string, unknown>;
    const result = typeof token === 'string' ? await siteUsers.confirm(token, req.cookies[SIGN_UP_COOKIE]) : null;
    if (!result) return reply.redirect('/account/login?error=link', 303);
    if (result === 'choose-password') return accountPage(app, req, reply, 'confirm', { token: String(token) });
    reply.clearCookie(SIGN_UP_COOKIE, { path: SIGN_UP_CONFIRM_PATH });
    await beginSession(app, siteUsers, req, reply, result.siteUserId, false);
    return reply.redirect(safeNext(next) ?? '/account', 303);
  });

  const confirmWithPassword = async (req: FastifyRequest, reply: FastifyReply, input: unknown) => {
    const body = parseInput(confirmBody, input);
    const id = await siteUsers.confirmWithPassword(body.token, body.password);
    if (!id) throw badRequest(siteUserMessages.LINK_EXPIRED);
    reply.clearCookie(SIGN_UP_COOKIE, { path: SIGN_UP_CONFIRM_PATH });
    return beginSession(app, siteUsers, req, reply, id, false);
  };
  /** The confirmation link's password form (JSON or a plain post): proves the address, sets the password, signs in. */
  app.post('/api/site-users/account/confirm', { preHandler: byIp('site-user-confirm', 20, 10 * 60_000) }, async (req, reply) => {
    const b = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
    const next = safeNext(b.next);
    if (isFormPost(req)) {
      const token = typeof b.token === 'string' ? b.token.slice(0, 100) : '';
      return answerAccountForm(app, req, reply, {
        mode: 'confirm',
        token,
        next,
        redirect: next ?? '/account',
        run: () => confirmWithPassword(req, reply, accountFormBody(req.body)),
      });
    }
    return { ...(await confirmWithPassword(req, reply, req.body)), next: next ?? '/account' };
  });
}
