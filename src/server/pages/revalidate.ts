/**
 * Validators for public pages (docs/decisions/0014-page-validators.md).
 *
 * A page for a visitor who carries nothing of their own (no cart cookie, no site-user session, no owner
 * session, no preview, safe-mode, unlock or sign-up cookie) goes out `private, no-cache` with a strong
 * ETag: the browser keeps it (the back/forward cache too) and asks again each time, and an unchanged page
 * is answered 304. A page for anyone else stays `private, no-store` with no ETag.
 *
 * The script nonce differs on every render, so the tag is a hash of the page with the nonce left out:
 * two renders of the same content carry the same tag. A 304 carries no Content-Security-Policy, so the
 * browser keeps the policy it stored with the body, whose nonce is the one in that body.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CART_COOKIE, OWNER_COOKIE, PREVIEW_COOKIE, SAFE_MODE_COOKIE, SIGN_UP_COOKIE } from '../../core/cookies.js';
import { SITE_USER_COOKIE, SITE_USER_INFO_COOKIE_NAME, UNLOCK_COOKIE } from '../../core/cookies.js';
import { siteUserQuietly } from '../visitor/index.js';

/** What an anonymous page's response says: keep it, but ask again before each use. */
export const REVALIDATE = 'private, no-cache';
/** What a page with the visitor's own data on it says: never keep it. */
export const NO_STORE = 'private, no-store';

/** Cookies that make a page the visitor's own (their cart, their session, the owner's views). */
const OWN_DATA_COOKIES: readonly string[] = [
  CART_COOKIE,
  OWNER_COOKIE,
  SITE_USER_COOKIE,
  SITE_USER_INFO_COOKIE_NAME,
  PREVIEW_COOKIE,
  SAFE_MODE_COOKIE,
  UNLOCK_COOKIE,
  SIGN_UP_COOKIE,
];

const MARK = Symbol('tessera.revalidate');
type Marked = FastifyReply & { [MARK]?: boolean };

/** Whether the request carries a visitor's own data (a cart, a session): such pages are never kept. */
export function carriesOwnData(req: FastifyRequest): boolean {
  const cookies = req.cookies;
  for (const name of OWN_DATA_COOKIES) if (cookies[name]) return true;
  return siteUserQuietly(req) !== null;
}

/**
 * Sets a rendered page's Cache-Control: revalidatable (and marked for an ETag, made when the page becomes
 * bytes) for a 200 to an anonymous GET or HEAD; `private, no-store` otherwise.
 */
export function pageCacheControl(req: FastifyRequest, reply: FastifyReply, status: number): void {
  const open = status === 200 && (req.method === 'GET' || req.method === 'HEAD') && !carriesOwnData(req);
  (reply as Marked)[MARK] = open;
  reply.header('cache-control', open ? REVALIDATE : NO_STORE);
}

/** Whether the reply was marked for an ETag (and still answers 200). */
export function wantsTag(reply: FastifyReply): boolean {
  return (reply as Marked)[MARK] === true && reply.statusCode === 200;
}

const PLACEHOLDER = 'tessera-nonce';

function cut(part: string | Buffer, from: number, to: number): string | Buffer {
  return typeof part === 'string' ? part.slice(from, to) : part.subarray(from, to);
}

/**
 * A strong tag over a page's bytes with every occurrence of `nonce` replaced by a fixed text, and the
 * content coding it goes out in (each coding is its own representation). `body` may be in parts.
 */
export function pageTag(body: string | readonly string[] | Buffer, nonce: string | null, encoding: string | null): string {
  const hash = createHash('sha256');
  const parts = typeof body === 'string' || Buffer.isBuffer(body) ? [body] : body;
  const needle = nonce ? Buffer.from(nonce) : null;
  for (const part of parts) {
    if (!needle || needle.length === 0) {
      hash.update(part);
      continue;
    }
    // Parts are split at ASCII characters (late-insert.ts) and a nonce is plain base64: it never spans two.
    let from = 0;
    for (let at = part.indexOf(nonce!); at !== -1; at = part.indexOf(nonce!, from)) {
      hash.update(cut(part, from, at));
      hash.update(PLACEHOLDER);
      from = at + needle.length;
    }
    hash.update(from === 0 ? part : cut(part, from, part.length));
  }
  return `"${hash.digest('base64url').slice(0, 27)}${encoding ? `-${encoding}` : ''}"`;
}

/** The nonce of a public page's Content-Security-Policy (`'nonce-…'`), or null. */
export function nonceOfPolicy(policy: string | null | undefined): string | null {
  if (!policy) return null;
  const at = policy.indexOf("'nonce-");
  if (at === -1) return null;
  const end = policy.indexOf("'", at + 7);
  return end === -1 ? null : policy.slice(at + 7, end);
}

/** Whether the request's If-None-Match names `tag` (the weak comparison RFC 9110 asks for here). */
export function matches(req: FastifyRequest, tag: string): boolean {
  const header = req.headers['if-none-match'];
  if (typeof header !== 'string' || header.length > 4096) return false;
  const bare = tag.startsWith('W/') ? tag.slice(2) : tag;
  for (const raw of header.split(',')) {
    const one = raw.trim();
    if (one === '*' || (one.startsWith('W/') ? one.slice(2) : one) === bare) return true;
  }
  return false;
}

/**
 * Turns the reply into a 304 Not Modified: no body and none of the body's headers. The policy goes too,
 * so the browser keeps the one it stored with the body (its nonce is the one in that body).
 */
export function notModified(reply: FastifyReply): null {
  reply.code(304);
  for (const h of ['content-security-policy', 'content-type', 'content-length', 'content-encoding', 'x-robots-tag']) reply.removeHeader(h);
  return null;
}
