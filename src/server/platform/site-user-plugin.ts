import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { timingSafeEqual } from 'node:crypto';
import type { SiteUser, SiteUserService, SiteUserSession } from './site-users.js';
import { CONFIRM_HOURS, siteUserMessages } from './site-users.js';
import { hashToken } from '../../db/ids.js';
import { HttpError } from '../errors.js';
import { isSecure } from '../visitor/index.js';
import { SITE_USER_INFO_COOKIE_NAME, formatSiteUserInfo, parseSiteUserInfo } from '../../core/cookies.js';
import { SITE_USER_COOKIE, SIGN_UP_COOKIE } from '../../core/cookies.js';

export const SITE_USER_XSRF_HEADER = 'x-siteuser-xsrf-token';
/**
 * The browser key of a sign-up (platform/site-users.ts signUp): httpOnly, sent only to the confirmation
 * link's path, for as long as the link works. The link signs in with the sign-up password only beside it.
 */
export const SIGN_UP_CONFIRM_PATH = '/account/confirm';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in site user, or null. The commerce cart follows it (CartIdent.siteUserId). */
    siteUser: SiteUser | null;
    siteUserSession: SiteUserSession | null;
  }
  interface FastifyInstance {
    /** preHandler of account calls: 401 without a session, 403 when X-SiteUser-XSRF-Token is missing or wrong. */
    requireSiteUser: preHandlerAsyncHookHandler;
    setSiteUserCookies(req: FastifyRequest, reply: FastifyReply, token: string, siteUserId: string, expiresAt: Date | null): void;
    clearSiteUserCookies(reply: FastifyReply): void;
    /** Every sign-up answer (site sign-up, member join) sets it, whether or not the address was new. */
    setSignUpCookie(req: FastifyRequest, reply: FastifyReply, browserKey: string): void;
  }
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whether the info cookie is readable JSON (possibly URI-encoded); the core parser treats anything else as no user. */
function parsable(value: string): boolean {
  for (const v of [
    value,
    (() => {
      try {
        return decodeURIComponent(value);
      } catch {
        return '';
      }
    })(),
  ]) {
    try {
      const o = JSON.parse(v);
      if (o && typeof o === 'object' && !Array.isArray(o)) return true;
    } catch {
      /* try the next form */
    }
  }
  return false;
}

export const siteUserPlugin = fp(async (app: FastifyInstance, opts: { siteUsers: SiteUserService }) => {
  // PGlite: sessions are kept in memory until a write to the site-user tables (platform/site-users.ts).
  await opts.siteUsers.watch();
  app.decorateRequest('siteUser', null);
  app.decorateRequest('siteUserSession', null);

  app.addHook('onRequest', async (req, reply) => {
    const info = req.cookies[SITE_USER_INFO_COOKIE_NAME];
    if (info !== undefined && info !== '' && !parsable(info)) {
      // An unparsable visitor-info cookie counts as no user; it is logged and replaced below.
      req.log.warn({ event: 'site-user-cookie-unparsable' }, 'unparsable site-user info cookie: treated as no user');
    }
    const token = req.cookies[SITE_USER_COOKIE];
    if (!token) {
      if (info && parseSiteUserInfo(info).authenticated !== false) reply.clearCookie(SITE_USER_INFO_COOKIE_NAME, { path: '/' });
      else if (info && !parsable(info)) reply.clearCookie(SITE_USER_INFO_COOKIE_NAME, { path: '/' });
      return;
    }
    const session = await opts.siteUsers.fromSession(token);
    if (!session) {
      reply.clearCookie(SITE_USER_COOKIE, { path: '/' });
      if (info) reply.clearCookie(SITE_USER_INFO_COOKIE_NAME, { path: '/' });
      return;
    }
    req.siteUser = session.user;
    req.siteUserSession = session;
  });

  app.decorate('requireSiteUser', async (req: FastifyRequest) => {
    const s = req.siteUserSession;
    if (!s) throw new HttpError(401, siteUserMessages.SIGN_IN_REQUIRED);
    let sent = req.headers[SITE_USER_XSRF_HEADER];
    if (Array.isArray(sent)) sent = sent[0];
    if (!sent || sent.length > 100 || !sameHash(hashToken(sent), s.xsrfHash)) {
      throw new HttpError(403, siteUserMessages.XSRF_FAILED, undefined, { xsrfFail: true });
    }
  });

  app.decorate(
    'setSiteUserCookies',
    (req: FastifyRequest, reply: FastifyReply, token: string, siteUserId: string, expiresAt: Date | null) => {
      const base = { path: '/', sameSite: 'lax' as const, secure: isSecure(req), ...(expiresAt ? { expires: expiresAt } : {}) };
      reply.setCookie(SITE_USER_COOKIE, token, { ...base, httpOnly: true });
      reply.setCookie(SITE_USER_INFO_COOKIE_NAME, formatSiteUserInfo({ authenticated: true, siteUserId }), { ...base, httpOnly: false });
    },
  );

  app.decorate('setSignUpCookie', (req: FastifyRequest, reply: FastifyReply, browserKey: string) => {
    reply.setCookie(SIGN_UP_COOKIE, browserKey, {
      path: SIGN_UP_CONFIRM_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: isSecure(req),
      maxAge: CONFIRM_HOURS * 3600,
    });
  });

  app.decorate('clearSiteUserCookies', (reply: FastifyReply) => {
    reply.clearCookie(SITE_USER_COOKIE, { path: '/' });
    reply.clearCookie(SITE_USER_INFO_COOKIE_NAME, { path: '/' });
  });
});
