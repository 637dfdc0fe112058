/** The visitor's cart: the cart cookie and the signed-in site user who keeps one cart across devices. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CART_COOKIE } from '../../core/cookies.js';
import { isSecure } from './crumb.js';
import { siteUserQuietly } from './site-user.js';

const CART_DAYS = 30;

/** How a request names its cart: the cart cookie, and (seam for the site-user session) a signed-in site user. */
export interface CartIdent {
  token?: string;
  /** A signed-in site user keeps one cart across devices; set by the site-user session when present. */
  siteUserId?: string | null;
}

export function setCartCookie(req: FastifyRequest, reply: FastifyReply, token: string) {
  reply.setCookie(CART_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(req), maxAge: CART_DAYS * 86400 });
}

/**
 * The signed-in site user of a request, if any. Seam for the site-user session (another area): when its
 * plugin decorates the request with `siteUser`, carts follow the user across devices.
 */
export function siteUserIdOf(req: FastifyRequest): string | null {
  // Quietly: a page's cart pill is put in place for each visitor, so reading it does not make a page personal.
  return siteUserQuietly(req)?.id || null;
}

export function cartIdent(req: FastifyRequest): CartIdent {
  return { token: req.cookies[CART_COOKIE], siteUserId: siteUserIdOf(req) };
}
