import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { randomBytes, timingSafeEqual } from 'node:crypto';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set false on a route that takes beacons (which cannot carry headers) and changes no visitor state. */
    crumb?: boolean;
  }
  interface FastifyRequest {
    crumb: string;
  }
}

export const CRUMB_COOKIE = 'crumb';
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

/**
 * The crumb: a double-submit CSRF token. Every visitor gets a `crumb` cookie (readable by scripts);
 * every POST, PUT, PATCH and DELETE under /api must send the same value in X-CSRF-Token (or a `crumb`
 * field of a form-encoded body), else 403 {"crumbFail": true} and the handler never runs.
 * Stateless, so it holds across several instances.
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
    if (!UNSAFE.has(req.method) || !req.url.startsWith('/api/')) return;
    if (req.routeOptions.config?.crumb === false) return;
    const cookie = req.cookies[CRUMB_COOKIE];
    let sent = req.headers[CRUMB_HEADER];
    if (Array.isArray(sent)) sent = sent[0];
    if (!sent && req.body && typeof req.body === 'object' && typeof (req.body as Record<string, unknown>).crumb === 'string') {
      sent = (req.body as Record<string, string>).crumb;
    }
    if (!cookie || !sent || !same(cookie, sent)) {
      return reply.status(403).send({ crumbFail: true });
    }
  });
});
