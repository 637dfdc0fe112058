import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { commerce } from '../../core/messages.js';
import { CRUMB_COOKIE } from '../../core/cookies.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set false on a route that takes beacons (which cannot carry headers) and changes no visitor state. */
    crumb?: boolean;
  }
  interface FastifyRequest {
    crumb: string;
  }
}

export const CRUMB_HEADER = 'x-csrf-token';
const UNSAFE = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function isSecure(req: FastifyRequest): boolean {
  return req.protocol === 'https';
}

/** A form-encoded body: what a browser sends for a plain <form method="post"> (no JavaScript). */
export function isFormPost(req: FastifyRequest): boolean {
  return String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
}

/**
 * Whether the browser itself says a form post comes from a page of this site: Fetch Metadata
 * (`Sec-Fetch-Site: same-origin`), or, from a browser that does not send it, an `Origin` equal to the
 * request's own origin. Neither header can be set by another site's page or script.
 */
export function sameOriginPost(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && site) return site === 'same-origin';
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || !origin || origin === 'null') return false;
  const host = req.headers.host;
  return typeof host === 'string' && origin === `${req.protocol}://${host}`;
}

/**
 * The storefront calls whose plain forms sit on pages the page cache shares between visitors (so they cannot
 * carry a visitor's crumb): add to cart, the restock sign-up, the newsletter (popup and block), site forms and likes.
 * Only these accept a crumb-less same-origin form post; every other call (the owner's above all) needs the crumb.
 * Matched against the route's own pattern, after path normalisation.
 */
export const SHARED_PAGE_FORM_ROUTES: ReadonlySet<string> = new Set([
  '/api/commerce/shopping-cart/entries',
  '/api/site-users/account/notifications/restock',
  '/api/engagement/newsletter',
  '/api/form/SaveFormSubmission',
  // The like button of journal posts (server/content/likes.ts).
  '/api/content-items/:itemId/like',
]);

/**
 * The crumb: a double-submit CSRF token. Every visitor gets a `crumb` cookie (readable by scripts);
 * every POST, PUT, PATCH and DELETE under /api must send the same value in X-CSRF-Token (or a `crumb`
 * field of a form-encoded body), else 403 {"crumbFail": true} and the handler never runs.
 * Stateless, so it holds across several instances.
 *
 * Plain form posts (no JavaScript) carry the crumb in a hidden `crumb` field. Forms on pages that the
 * page cache shares between visitors (add to cart on product pages and product blocks, the restock
 * sign-up, the promo popup) cannot carry a visitor's crumb, so a form-encoded post WITHOUT a crumb
 * field to one of those calls (SHARED_PAGE_FORM_ROUTES) is accepted when the browser's own headers prove it
 * was sent from this site (sameOriginPost);
 * a crumb field that is present must still match. A refused form post gets a short HTML page with the
 * crumb-failure message instead of JSON.
 */
export const crumbPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('crumb', '');
  app.addHook('onRequest', async (req, reply) => {
    const existing = req.cookies[CRUMB_COOKIE];
    if (existing && /^[A-Za-z0-9_-]{16,64}$/.test(existing)) {
      req.crumb = existing;
      return;
    }
    req.crumb = randomBytes(18).toString('base64url');
    reply.setCookie(CRUMB_COOKIE, req.crumb, { path: '/', sameSite: 'lax', secure: isSecure(req), httpOnly: false });
  });
  app.addHook('preHandler', async (req, reply) => {
    // The path is normalised before routing (plugins/path.ts); the route's own pattern is checked too.
    if (!UNSAFE.has(req.method) || !(req.url.startsWith('/api/') || (req.routeOptions.url ?? '').startsWith('/api/'))) return;
    if (req.routeOptions.config?.crumb === false) return;
    const cookie = req.cookies[CRUMB_COOKIE];
    let sent = req.headers[CRUMB_HEADER];
    if (Array.isArray(sent)) sent = sent[0];
    if (!sent && req.body && typeof req.body === 'object' && typeof (req.body as Record<string, unknown>).crumb === 'string') {
      sent = (req.body as Record<string, string>).crumb;
    }
    if (!sent && isFormPost(req) && SHARED_PAGE_FORM_ROUTES.has(req.routeOptions.url ?? '') && sameOriginPost(req)) return;
    if (!cookie || !sent || !same(cookie, sent)) {
      if (isFormPost(req) && !String(req.headers.accept ?? '').includes('application/json')) {
        const text = commerce.crumbFailure(!!req.headers.cookie);
        return reply
          .status(403)
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(
            `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Please try again</title><meta name="viewport" content="width=device-width, initial-scale=1"></head><body><main><h1>Please try again</h1><p role="alert">${text}</p><p><a href="/">Back to the site</a></p></main></body></html>`,
          );
      }
      return reply.status(403).send({ crumbFail: true });
    }
  });
});
