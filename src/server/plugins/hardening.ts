import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { security as m } from '../../core/messages.js';

/**
 * Request and response hardening that holds for every route at once (issue 21, items 12 and 17):
 *
 * - A lone UTF-16 surrogate (`"\ud800"` in JSON) in a body or query answers 400 before any route
 *   handler or preHandler runs (so before any rate limit, payment or database write): such text cannot be
 *   stored or encoded as UTF-8 and used to surface as a 500 deep inside a route.
 * - Headers that carry visitor text (Location of a redirect, Content-Disposition) are made safe just
 *   before they are written: a character Node refuses in a header (anything outside printable ASCII)
 *   is percent-encoded in a Location and replaced in a file name, so no redirect can answer a raw 500.
 * - Every answer to a signed-in owner (the owner API, /config) carries `Cache-Control: no-store`.
 */

const nativeWellFormed = (String.prototype as { isWellFormed?: () => boolean }).isWellFormed;

/** True when `s` holds an unpaired surrogate; linear, no pattern (native String#isWellFormed where Node has it). */
export function hasLoneSurrogate(s: string): boolean {
  if (nativeWellFormed) return !nativeWellFormed.call(s);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    return true;
  }
  return false;
}

/** Whether any string (value or key) in a parsed body holds a lone surrogate; iterative, so depth costs no stack. */
export function containsLoneSurrogate(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (hasLoneSurrogate(v)) return true;
    } else if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
    } else if (v && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (hasLoneSurrogate(k)) return true;
        stack.push(x);
      }
    }
  }
  return false;
}

/** A Location value Node accepts: characters outside printable ASCII percent-encoded as UTF-8 (a lone surrogate as U+FFFD). */
export function safeLocation(url: string): string {
  let out = '';
  for (const ch of url) {
    const c = ch.codePointAt(0)!;
    if (c > 0x20 && c < 0x7f) out += ch;
    else if (c >= 0xd800 && c <= 0xdfff) out += '%EF%BF%BD';
    else out += encodeURIComponent(ch);
  }
  return out;
}

/** A Content-Disposition value Node accepts: characters outside printable ASCII (and space) become `_`. */
export function safeDisposition(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '_');
}

export const hardeningPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (req, reply) => {
    if (containsLoneSurrogate(req.body) || containsLoneSurrogate(req.query)) {
      return reply.status(400).header('cache-control', 'no-store').send({ error: m.INVALID_UNICODE, message: m.INVALID_UNICODE });
    }
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const location = reply.getHeader('location');
    if (typeof location === 'string') reply.header('location', safeLocation(location));
    const disposition = reply.getHeader('content-disposition');
    if (typeof disposition === 'string') reply.header('content-disposition', safeDisposition(disposition));
    if (req.owner) reply.header('cache-control', 'no-store');
    return payload;
  });
});
