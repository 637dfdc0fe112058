/**
 * Content-Security-Policy and the security headers that go with it (helmet sets the others).
 *
 * - /config (the admin): scripts only from this origin (the hashed admin bundle), no inline script, no
 *   eval, no plugins, never framed. Owner HTML is never shown there as HTML.
 * - Public pages: Tessera's own scripts carry a nonce made for the response (`req.cspNonce()`), and
 *   'strict-dynamic' lets them load what they load (islands, reCAPTCHA). Nothing else runs: owner HTML
 *   is cleaned, and a script that slipped through would have no nonce. The admin's own code (header and
 *   footer injection, raw code blocks) is trusted: its <script> elements get the response's nonce
 *   (`nonceScripts`), so it keeps working; inline event attributes and javascript: links in it do not run.
 *   Shared pages (pages/page-cache.ts) keep the policy they were rendered with, so a cached page and its
 *   nonce travel together for the entry's life (seconds); the nonce is never derived from a request.
 * - The editor's draft preview (`?preview=draft`) is also sandboxed by its policy: its scripts run in an
 *   opaque origin, without the admin's cookies or crumb, even when the preview URL is opened directly.
 */
import { randomFillSync } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

const NONCE = Symbol('cspNonce');
const SANDBOX = Symbol('cspSandbox');
type WithNonce = FastifyRequest & { [NONCE]?: string; [SANDBOX]?: boolean };

declare module 'fastify' {
  interface FastifyRequest {
    /** This response's CSP nonce (made on first use). */
    cspNonce(): string;
    /** Marks the response as an owner's draft preview: sandboxed by its CSP (opaque origin). */
    sandboxPreview(): void;
  }
}

/** The policy of the admin (/config). */
export const ADMIN_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "media-src 'self' blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The policy of a public page, for the response's nonce. */
export function publicCsp(nonce: string): string {
  return [`script-src 'nonce-${nonce}' 'strict-dynamic'`, "object-src 'none'", "base-uri 'self'", "frame-ancestors 'self'"].join('; ');
}

/** What the draft preview adds: a sandbox without allow-same-origin (scripts run in an opaque origin). */
export const PREVIEW_SANDBOX = 'sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox';

/** The admin's own code with the response's nonce on each of its <script> elements (it is trusted code). */
export function nonceScripts(html: string, nonce: string): string {
  if (html === '' || !/<script/i.test(html)) return html;
  // The attribute goes right after the tag name; a nonce the code carries comes later and is ignored
  // (the first of two attributes of one name wins).
  return html.replace(/<script\b/gi, `<script nonce="${nonce}"`);
}

/** Whether a route (as the router matched it) is the admin. */
function isAdminRoute(req: FastifyRequest): boolean {
  const url = req.routeOptions.url ?? '';
  return url === '/config' || url.startsWith('/config/');
}

/** Random bytes for nonces, drawn 4 KB at a time (one call into the system's generator per 256 pages, not per page). */
const pool = Buffer.alloc(4096);
let used = pool.length;

/** A fresh 128-bit nonce, base64: every 16 bytes of the pool are used once. */
export function freshNonce(): string {
  if (used + 16 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const nonce = pool.toString('base64', used, used + 16);
  used += 16;
  return nonce;
}

export const cspPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('cspNonce', function (this: WithNonce) {
    if (!this[NONCE]) this[NONCE] = freshNonce();
    return this[NONCE];
  });
  app.decorateRequest('sandboxPreview', function (this: WithNonce) {
    this[SANDBOX] = true;
  });
  app.addHook('onSend', async (req: WithNonce, reply: FastifyReply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (!type.startsWith('text/html')) {
      // Public files (bundles, styles, images, fonts) may be read by the sandboxed draft preview,
      // whose origin is opaque; module scripts are fetched with CORS.
      if (/^(image\/|font\/|text\/css|text\/javascript|application\/javascript)/.test(type) && !reply.hasHeader('set-cookie')) {
        reply.header('cross-origin-resource-policy', 'cross-origin');
        if (req.url.startsWith('/assets/')) reply.header('access-control-allow-origin', '*');
      }
      return payload;
    }
    // A shared page served from the cache brings the policy it was rendered with.
    if (reply.hasHeader('content-security-policy')) return payload;
    if (isAdminRoute(req)) {
      reply.header('content-security-policy', ADMIN_CSP).header('x-frame-options', 'DENY');
      return payload;
    }
    const policy = publicCsp(req.cspNonce());
    if (req[SANDBOX]) {
      // An opaque origin cannot be origin-keyed: asking for it only makes the browser warn.
      reply.removeHeader('origin-agent-cluster');
      reply.header('content-security-policy', `${policy}; ${PREVIEW_SANDBOX}`);
    } else reply.header('content-security-policy', policy);
    return payload;
  });
});
