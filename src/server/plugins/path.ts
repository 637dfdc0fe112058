import { security } from '../../core/messages.js';

/**
 * One normalised request path for the router and every guard (issue 21, item 2).
 *
 * The router (find-my-way) percent-decodes a path before matching it, while the guards (the crumb
 * check, the site lock, the file access check, rate limits) read `request.url`. So `/%61pi/...` used to
 * reach an API handler while the crumb check saw no `/api/` prefix. The fix is done once, before
 * routing (Fastify's `rewriteUrl`): percent-encoded unreserved characters (letters, digits, `-`, `_`,
 * `~`, `.`) are decoded in the path, so `request.url` and the router see the same text; encoded `/`,
 * `\` and `%` (double encoding), a raw `\`, `.` and `..` segments and broken escapes are refused with
 * 400. Other escapes (spaces, non-ASCII letters, reserved characters) stay encoded as they came; no
 * guard compares against them, and the router decodes them as before.
 */

/** Where a refused path is sent: a path no route serves; the request is answered 400 before any handler. */
export const BAD_PATH = '/__tessera-bad-path';
export const BAD_PATH_MESSAGE = security.BAD_PATH;
const FLAG = Symbol('badPath');

function hex(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

function unreserved(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 46 || c === 95 || c === 126;
}

/**
 * The normalised form of a request target (path and query), or null when it must be refused.
 * Linear in the length of the path; the query is kept as it came.
 */
export function normaliseTarget(url: string): string | null {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q);
  if (path.indexOf('%') === -1 && path.indexOf('\\') === -1) {
    return path.includes('/.') && hasDotSegment(path) ? null : url;
  }
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c === 92) return null; // a raw backslash: some clients and proxies read it as a slash
    if (c !== 37) {
      out += path[i];
      continue;
    }
    const hi = hex(path.charCodeAt(i + 1));
    const lo = hex(path.charCodeAt(i + 2));
    if (hi < 0 || lo < 0) return null;
    const code = hi * 16 + lo;
    // Encoded slash, backslash and percent (double encoding) are refused: no page needs them.
    if (code === 47 || code === 92 || code === 37) return null;
    if (unreserved(code)) out += String.fromCharCode(code);
    else out += path.slice(i, i + 3).toUpperCase();
    i += 2;
  }
  if (hasDotSegment(out)) return null;
  return out + query;
}

function hasDotSegment(path: string): boolean {
  for (const s of path.split('/')) if (s === '.' || s === '..') return true;
  return false;
}

/** Fastify's rewriteUrl: normalises the path once, before routing; a refused one is marked and parked. */
export function rewriteUrl(req: { url?: string }): string {
  const url = req.url ?? '/';
  const n = normaliseTarget(url);
  if (n !== null) return n;
  (req as Record<symbol, unknown>)[FLAG] = true;
  return BAD_PATH;
}

/** Whether rewriteUrl refused this request's path (checked by the first onRequest hook, which answers 400). */
export function isBadPath(raw: object): boolean {
  return (raw as Record<symbol, unknown>)[FLAG] === true;
}
