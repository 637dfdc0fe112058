/**
 * Whole rendered pages, shared by the visitors who carry nothing that makes a page their own
 * (docs/decisions/0004-page-cache.md).
 *
 * An entry is kept under the content version it was rendered at (plugins/site-cache.ts) and for at most
 * PAGE_CACHE_SECONDS, so it is never older than a committed change and clock-dependent wording follows
 * within that time. Shared only for a GET or HEAD of a page route without `format=`, from a visitor with no
 * private cookie (owner, preview, safe mode, unlock; the visitor cookie while experiments run), when the
 * answer is a 200 HTML page that sets no cookie but the crumb and does not contain the visitor's crumb.
 * The host and the consent cookies are part of the key.
 * A shopper gets the shared page with their own cart pill spliced in (pill-splice.ts); a render that read
 * who is signed in, or printed the cart or account itself (visitor-state.ts), is kept only when
 * made for, and served only to, a visitor with none. An entry keeps its CSP header (the nonce is in the
 * HTML) and X-Robots-Tag, and the encoding its render went out in (encode.ts); requests that arrive while a
 * page renders wait for that render.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CRUMB_COOKIE } from '../../core/cookies.js';
import { OWNER_COOKIE } from '../../core/cookies.js';
import { siteUserQuietly, siteUserWasRead, watchSiteUserReads } from '../visitor/index.js';
import { SIGN_UP_COOKIE, SITE_USER_COOKIE } from '../../core/cookies.js';
import { CART_COOKIE } from '../../core/cookies.js';
import { visitorStateWasRead } from '../visitor/index.js';
import { UNLOCK_COOKIE } from '../../core/cookies.js';
import { SESSION_COOKIE } from '../../core/cookies.js';
import { PREVIEW_COOKIE, SAFE_MODE_COOKIE } from '../../core/cookies.js';
import { SITE_USER_INFO_COOKIE_NAME, VISITOR_COOKIE_NAME, VISIT_TIME_COOKIE_NAME } from '../../core/cookies.js';
import { CONSENT_CHOICES_COOKIE, CONSENT_COOKIE, NOTICE_COOKIE } from '../../core/cookies.js';
import type { WebsiteRow } from '../platform/index.js';
import { ANALYTICS_ID_COOKIE, LIKE_COOKIE } from '../../core/cookies.js';
import { experimentsOf } from '../flags/index.js';
import { injectPageData } from '../analytics/index.js';
import { insertParts, takeInsert, withInsert, type LateInsert } from '../site-page/index.js';
import {
  compressPage,
  encodeAsync,
  encodeSync,
  KEPT,
  markEncoded,
  pageEncoding,
  QUICK,
  responseEncoding,
  utf8Bytes,
  type PageEncoding,
} from '../site-page/index.js';

export { pickEncoding } from '../site-page/index.js';
import {
  brotliParts,
  brotliPartsSync,
  brotliWithPill,
  gzipParts,
  gzipPartsSync,
  gzipWithPill,
  splitAtPill,
  type BrotliParts,
  type GzipParts,
  type PillSplit,
} from '../site-page/index.js';

import { carriesOwnData, matches, nonceOfPolicy, notModified, NO_STORE, pageTag, REVALIDATE, wantsTag } from './revalidate.js';

const noop = () => undefined;

/** Whether the visitor may have a cart: a cart cookie, or a signed-in site user (their cart follows them from any device). */
function mayHaveCart(req: FastifyRequest): boolean {
  return CART_COOKIES.some((name) => req.cookies[name]) || siteUserQuietly(req) !== null;
}

/**
 * Cookies that make a page the visitor's own: with any of them the page is rendered for the request alone. The
 * sign-up cookie is only ever sent to the confirmation link's path, which is never shared; it is listed so no
 * page made for the browser that signed up can be.
 */
export const PRIVATE_COOKIES: readonly string[] = [
  OWNER_COOKIE,
  PREVIEW_COOKIE,
  SAFE_MODE_COOKIE,
  SITE_USER_COOKIE,
  SITE_USER_INFO_COOKIE_NAME,
  UNLOCK_COOKIE,
  SIGN_UP_COOKIE,
];
/**
 * The signed-in site user's cookies: a shared page is served to them (with their own cart pill) when its
 * render never asked who is signed in, and their render is shared when it never asked either.
 */
export const SITE_USER_COOKIES: readonly string[] = [SITE_USER_COOKIE, SITE_USER_INFO_COOKIE_NAME];
/** The private cookies but the site user's: what still makes a signed-in visitor's page their own. */
const PRIVATE_WHEN_SIGNED_IN: readonly string[] = PRIVATE_COOKIES.filter((name) => !SITE_USER_COOKIES.includes(name));
/** Cookies that change only the cart pill: the shared page is served with the visitor's own pill. */
export const CART_COOKIES: readonly string[] = [CART_COOKIE];
/** Cookies with a handful of values that change a page (the cookie banner, consent-gated scripts): part of the key. */
export const KEYED_COOKIES: readonly string[] = [CONSENT_COOKIE, CONSENT_CHOICES_COOKIE, NOTICE_COOKIE];
/** Private only while the site runs experiments (their assignment follows it). */
export const EXPERIMENT_COOKIES: readonly string[] = [VISITOR_COOKIE_NAME];
/** Cookies that change nothing on a page. */
// The like cookie (content/likes.ts) only says who liked: the page is the same with or without it.
export const NEUTRAL_COOKIES: readonly string[] = [CRUMB_COOKIE, SESSION_COOKIE, ANALYTICS_ID_COOKIE, VISIT_TIME_COOKIE_NAME, LIKE_COOKIE];

const MAX_URL = 2000;

/**
 * The query parameters the shared pages (home, collection lists, items) read: they stay in the key,
 * sorted. Anything else (utm_*, fbclid, gclid and made-up parameters) changes nothing on these pages
 * and is left out of the key, so random query strings cannot split one page into many entries
 * (issue 21, item 17). An experiment override (`experiment.*`) makes the page the visitor's own.
 */
export const PAGE_QUERY_PARAMS: ReadonlySet<string> = new Set(['page', 'tag', 'category', 'view', 'q', 'lang']);
const EXPERIMENT_PARAM = 'experiment.';

/** The path and the kept query of a request, or null when the query makes the page the visitor's own. */
export function cacheTarget(url: string): string | null {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const kept: Array<[string, string]> = [];
  for (const [k, v] of new URLSearchParams(url.slice(q + 1))) {
    if (k.startsWith(EXPERIMENT_PARAM)) return null;
    if (PAGE_QUERY_PARAMS.has(k)) kept.push([k, v]);
  }
  if (kept.length === 0) return url.slice(0, q);
  kept.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return `${url.slice(0, q)}?${new URLSearchParams(kept).toString()}`;
}
const MAX_KEYED_VALUE = 256;
/** How long a request waits for another request's render of the same page before rendering it itself. */
const WAIT_MS = 5000;

export interface PageCacheOptions {
  /** Longest life of an entry, in milliseconds; 0 switches the cache off. */
  maxAgeMs: number;
  /** Bytes kept (HTML and its two encodings), least recently used first out. */
  maxBytes: number;
  /** What else pages depend on in this process, besides the content version (the theme's generation: development reloads it). */
  localVersion?: () => number;
  /** The cart pill: its markup on a shared page (no cart), and a visitor's own (read from their cart). */
  cartPill?: { empty: string; of(req: FastifyRequest): Promise<string> };
}

/** What a render says about its page besides the page itself: its headers and who it may be served to. */
interface RenderFacts {
  type: string;
  /** The Content-Security-Policy the page was rendered with: its script nonce is in the page (plugins/csp.ts). */
  csp: string | null;
  /** The X-Robots-Tag the page was rendered with (noindex pages keep saying so from the cache). */
  robots: string | null;
  /** The page holds the empty cart pill exactly once (so a visitor's own pill can take its place). */
  takesPill: boolean;
  /** Its render asked who is signed in (a member area, a course's progress): never served to a signed-in visitor. */
  readsUser: boolean;
  /**
   * Its render printed the visitor's cart or account (a developer template's `shoppingCart`,
   * `squarespace.cart-classes`, `authenticatedAccount`: plugins/visitor-state.ts): made for a visitor with no
   * cart and nobody signed in, and served only to such visitors.
   */
  readsVisitor: boolean;
}

interface Entry extends RenderFacts {
  key: string;
  version: string;
  at: number;
  /** The page (UTF-8); the entry keeps no copy of it as text. */
  body: Buffer;
  /** The page's encodings made so far: the one its render went out in, others when first asked for. */
  gzip?: Buffer;
  br?: Buffer;
  /** The page's ETag per content coding ('' for none), made when first asked for (revalidate.ts). */
  tags?: Map<string, string>;
  /** Copies served per encoding (the second one re-encodes it at the kept level, off the event loop). */
  served: Record<PageEncoding, number>;
  bytes: number;
  /**
   * For visitors with a cart (made on the first one's request): the page split at its empty pill, and the
   * split's encodings, made once per encoding asked for, from which every pill's copy is put together
   * without compressing the page again (pill-splice.ts).
   */
  pill?: PillCopies;
}

/** What a claimed request rendered, to keep: the page with the empty pill and the headers that go with it. */
interface Kept extends RenderFacts {
  claim: Claim;
  page: string;
  /** The analytics island still to go into `page` (late-insert.ts), if any. */
  late?: LateInsert | null;
}

interface PillCopies {
  split: PillSplit;
  gzip?: Promise<GzipParts | null>;
  br?: Promise<BrotliParts | null>;
}

/** Copies of a kept page served in one encoding before it is re-encoded at the kept level. */
const UPGRADE_AFTER = 2;

interface Claim {
  key: string;
  version: string;
  /** forgetPath's sequence when the render began. */
  seq: number;
  done: (stored: boolean) => void;
}

const CLAIM = Symbol('page-cache-claim');
const OWN_PILL = Symbol('page-cache-own-pill');
type Claimed = FastifyRequest & { [CLAIM]?: Claim; [OWN_PILL]?: string };

function occursOnce(text: string, part: string): boolean {
  const at = text.indexOf(part);
  return at >= 0 && text.indexOf(part, at + part.length) < 0;
}

/** `text` with its only occurrence of `part` replaced, or null when `part` occurs other than once. */
function replaceOnce(text: string, part: string, by: string): string | null {
  if (!occursOnce(text, part)) return null;
  const at = text.indexOf(part);
  return text.slice(0, at) + by + text.slice(at + part.length);
}

/** The path of a cache key (`proto://host/path?query` with consent cookies after a newline). */
function pathOfKey(key: string): string | null {
  const start = key.indexOf('/', key.indexOf('://') + 3);
  if (start < 0) return null;
  let end = key.length;
  for (const stop of ['?', '\n']) {
    const at = key.indexOf(stop, start);
    if (at >= 0 && at < end) end = at;
  }
  return key.slice(start, end);
}

export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private readonly waiting = new Map<string, { version: string; promise: Promise<boolean> }>();
  private bytes = 0;
  /** Pages being encoded before they are kept. */
  private readonly encoding = new Set<Promise<unknown>>();
  /** forgetPath's sequence: the last number each path was forgotten at, and the floor below which every claim is stale. */
  private forgetSeq = 0;
  private forgetFloor = 0;
  private readonly forgotten = new Map<string, number>();
  /** Counters (tests and the benchmark); pillParts: encodings of a page split at its pill, made for shoppers. */
  readonly stats = { hits: 0, misses: 0, stored: 0, shared: 0, pillParts: 0 };
  /** The empty pill's bytes. */
  private emptyPill: Buffer | null = null;
  /** The clock an entry's age is read on (milliseconds); tests move it instead of waiting. */
  now: () => number = Date.now;

  constructor(
    private readonly app: FastifyInstance,
    private readonly opts: PageCacheOptions,
  ) {}

  /** Entries kept and their bytes (the benchmark). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  get enabled(): boolean {
    return this.opts.maxAgeMs > 0;
  }

  /**
   * The key this request's page would be shared under, or null when it is the visitor's own. With
   * `signedIn`, the site user's cookies are left out (serve: a signed-in visitor may read a shared page).
   */
  keyOf(req: FastifyRequest, site: WebsiteRow, signedIn = false): string | null {
    if (!this.enabled || (req.method !== 'GET' && req.method !== 'HEAD') || req.url.length > MAX_URL) return null;
    const query = req.query as Record<string, unknown> | undefined;
    if (query && query.format !== undefined) return null;
    const cookies = req.cookies;
    for (const name of signedIn ? PRIVATE_WHEN_SIGNED_IN : PRIVATE_COOKIES) if (cookies[name]) return null;
    if (experimentsOf(site).length > 0) for (const name of EXPERIMENT_COOKIES) if (cookies[name]) return null;
    const target = cacheTarget(req.url);
    if (target === null) return null;
    let key = `${req.protocol}://${req.host}${target}`;
    for (const name of KEYED_COOKIES) {
      const v = cookies[name];
      if (v === undefined) continue;
      if (v.length > MAX_KEYED_VALUE) return null;
      key += `\n${name}=${v}`;
    }
    return key;
  }

  /**
   * Answers the request from the cache when it can (true: replied). Otherwise, when the page may be
   * shared, the request is marked as the one rendering it, and `capture` keeps its response.
   */
  async serve(req: FastifyRequest, reply: FastifyReply, site: WebsiteRow): Promise<boolean> {
    const signedIn = SITE_USER_COOKIES.some((name) => req.cookies[name]);
    // A signed-in visitor reads a shared page only with a session that holds (the cookies' holder is the
    // user) and no language of their own (it goes in the page's analytics island).
    if (signedIn) {
      const user = siteUserQuietly(req);
      if (!user || user.language || !req.cookies[SITE_USER_COOKIE]) return false;
    }
    const key = this.keyOf(req, site, signedIn);
    if (key === null) return false;
    // A shopper's cart is read beside the version, not after it (the render of a miss uses the same read).
    const ownPill = this.ownPill(req);
    ownPill.catch(noop);
    const version = `${await this.app.siteCache.version()}#${this.opts.localVersion?.() ?? 0}`;
    let entry = this.fresh(key, version);
    if (!entry) {
      const pending = this.waiting.get(key);
      if (pending && pending.version === version) {
        const stored = await Promise.race([pending.promise, new Promise<boolean>((r) => setTimeout(r, WAIT_MS, false).unref())]);
        if (stored) entry = this.fresh(key, version);
        if (entry) this.stats.shared++;
      }
    }
    // A page whose render asked who is signed in was made for a visitor who is not: not for this one.
    if (entry && signedIn && entry.readsUser) entry = null;
    // A page that printed a cart (an empty one: see capture) is not for a visitor who may have one.
    if (entry && entry.readsVisitor && mayHaveCart(req)) entry = null;
    if (entry) {
      const own = await ownPill;
      if (own === null) {
        this.stats.hits++;
        this.send(req, reply, entry);
        return true;
      }
      const copies = this.pillCopies(entry);
      if (copies) {
        this.stats.hits++;
        const encoding = responseEncoding(req);
        const pill = Buffer.from(own);
        const parts =
          encoding === 'br' ? await this.brotliOf(entry, copies) : encoding === 'gzip' ? await this.gzipOf(entry, copies) : null;
        const body =
          encoding === 'br' && parts
            ? brotliWithPill(copies.split, parts as BrotliParts, pill)
            : encoding === 'gzip' && parts
              ? gzipWithPill(copies.split, parts as GzipParts, pill)
              : Buffer.concat([copies.split.prefix, pill, copies.split.suffix]);
        // Without the encoding (not asked for, or it failed to be made) the page goes as it is: the compression
        // hook encodes it when the visitor accepts an encoding, like any rendered page.
        this.send(req, reply, entry, body, parts ? encoding : null);
        return true;
      }
    }
    this.stats.misses++;
    // A signed-in visitor's render is kept only if it never asked who is signed in (capture).
    if (req.method === 'GET' && !this.waiting.has(key)) this.claim(req as Claimed, key, version);
    return false;
  }

  /** The visitor's own cart pill when it differs from the shared (empty) one, else null. */
  private async ownPill(req: FastifyRequest): Promise<string | null> {
    const pill = this.opts.cartPill;
    if (!pill || !mayHaveCart(req)) return null;
    const own = await pill.of(req);
    return own === pill.empty ? null : own;
  }

  /** The page pipeline tells the cache which cart pill it drew for this request (a shared copy gets the empty one). */
  notePill(req: FastifyRequest, pill: string): void {
    (req as Claimed)[OWN_PILL] = pill;
  }

  private fresh(key: string, version: string): Entry | null {
    const e = this.entries.get(key);
    if (!e) return null;
    if (e.version !== version || this.now() - e.at >= this.opts.maxAgeMs) {
      this.drop(key, e);
      return null;
    }
    // Most recently used last: the first entry of the map is the next to go.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e;
  }

  /** The entry's page split at its empty pill, for a visitor with their own pill (null: the page cannot take one). */
  private pillCopies(entry: Entry): PillCopies | null {
    if (entry.pill) return entry.pill;
    const pill = this.opts.cartPill;
    if (!entry.takesPill || !pill) return null;
    // The HTML holds the empty pill exactly once, so its bytes do too (UTF-8 matches by bytes as by characters).
    const split = splitAtPill(entry.body, Buffer.from(pill.empty));
    if (!split) return null;
    return (entry.pill = { split });
  }

  private brotliOf(entry: Entry, copies: PillCopies): Promise<BrotliParts | null> {
    return (copies.br ??= this.made(
      entry,
      brotliParts(copies.split, QUICK.br),
      (p) => p.head.length,
      () => (copies.br = undefined),
    ));
  }

  private gzipOf(entry: Entry, copies: PillCopies): Promise<GzipParts | null> {
    return (copies.gzip ??= this.made(
      entry,
      gzipParts(copies.split),
      (p) => p.head.length + p.tail.length,
      () => (copies.gzip = undefined),
    ));
  }

  /** Parts of an entry made off the event loop, counted in its bytes once made (null, and forgotten, when making them failed). */
  private made<T>(entry: Entry, work: Promise<T>, size: (parts: T) => number, forget: () => void): Promise<T | null> {
    this.stats.pillParts++;
    const done = work.then(
      (parts) => {
        if (this.entries.get(entry.key) === entry) {
          const bytes = size(parts);
          entry.bytes += bytes;
          this.bytes += bytes;
          this.evict();
        }
        return parts;
      },
      () => {
        forget();
        return null;
      },
    );
    this.track(done);
    return done;
  }

  /**
   * Sends the entry's page in the encoding asked for, or `own` (the entry's page with the visitor's cart
   * pill) in the encoding `ownEncoding` (null: as it is).
   */
  private send(req: FastifyRequest, reply: FastifyReply, entry: Entry, own?: Buffer, ownEncoding?: 'br' | 'gzip' | null): void {
    // Answered from memory: background work need not wait for this request (plugins/foreground.ts).
    this.app.foreground?.light(req);
    const encoding = own ? (ownEncoding ?? null) : responseEncoding(req);
    reply.status(200).header('content-type', entry.type).header('vary', 'accept-encoding');
    // An anonymous visitor's copy is revalidatable (revalidate.ts); one with their own pill or session is not kept.
    if (!own && !carriesOwnData(req)) {
      const tags = (entry.tags ??= new Map());
      const coding = encoding ?? '';
      let tag = tags.get(coding);
      if (tag === undefined) tags.set(coding, (tag = pageTag(entry.body, nonceOfPolicy(entry.csp), encoding)));
      reply.header('cache-control', REVALIDATE).header('etag', tag);
      if (matches(req, tag)) {
        notModified(reply);
        void reply.send();
        return;
      }
    } else reply.header('cache-control', NO_STORE);
    if (entry.csp) reply.header('content-security-policy', entry.csp);
    if (entry.robots) reply.header('x-robots-tag', entry.robots);
    if (encoding) reply.header('content-encoding', encoding);
    void reply.send(own ?? (encoding ? this.encoded(entry, encoding) : entry.body));
  }

  /**
   * The entry's page in `encoding`: made now at the quick level when no copy in it was made yet, and
   * re-encoded at the kept level in zlib's thread pool when it is served again.
   */
  private encoded(entry: Entry, encoding: PageEncoding): Buffer {
    let made = entry[encoding];
    if (!made) {
      made = entry[encoding] = encodeSync(entry.body, encoding, QUICK[encoding]);
      this.grow(entry, made.length);
    }
    if (++entry.served[encoding] === UPGRADE_AFTER) {
      const work = encodeAsync(entry.body, encoding, KEPT[encoding]).then((better) => {
        const old = entry[encoding];
        if (this.entries.get(entry.key) !== entry || !old || better.length >= old.length) return;
        entry[encoding] = better;
        this.grow(entry, better.length - old.length);
      }, noop);
      this.track(work);
    }
    return made;
  }

  private grow(entry: Entry, bytes: number): void {
    entry.bytes += bytes;
    if (this.entries.get(entry.key) !== entry) return;
    this.bytes += bytes;
    this.evict();
  }

  private claim(req: Claimed, key: string, version: string): void {
    let done!: (stored: boolean) => void;
    const promise = new Promise<boolean>((resolve) => (done = resolve));
    const slot = { version, promise };
    this.waiting.set(key, slot);
    // Whether the render asks who is signed in: a page that did is never shared with a signed-in visitor, and
    // one a signed-in visitor rendered that way is theirs alone (capture).
    watchSiteUserReads(req);
    req[CLAIM] = {
      key,
      version,
      seq: this.forgetSeq,
      done: (stored) => {
        if (this.waiting.get(key) === slot) this.waiting.delete(key);
        done(stored);
      },
    };
  }

  /**
   * The global onSend hook, last of them: compresses a rendered page once (encode.ts), and keeps the page
   * a claimed request rendered when it may be shared, with that encoding as its first copy.
   */
  finish(req: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
    // The analytics island, when it was left for this hook to put in (late-insert.ts). It goes into the bytes
    // below; where the page is still needed as a string (a shopper's own pill to swap out, a payload some
    // hook replaced), it is put into the string first.
    let late = takeInsert(reply);
    if (late && (late.page !== payload || this.swapsPill(req))) {
      payload = late.page === payload ? withInsert(late) : injectPageData(String(payload), late.text);
      late = null;
    }
    // An anonymous visitor's page gets its ETag; one they hold already is answered 304 (revalidate.ts).
    if (wantsTag(reply) && typeof payload === 'string') {
      const tag = pageTag(late ? insertParts(late) : payload, req.cspNonce(), pageEncoding(req, reply, payload));
      reply.header('etag', tag);
      if (matches(req, tag)) {
        const kept = this.capture(req, reply, payload);
        if (kept) this.keep(kept.claim, this.entryOf(kept, utf8Bytes(late && late.page === kept.page ? insertParts(late) : kept.page)));
        return notModified(reply);
      }
    }
    const keep = this.capture(req, reply, payload);
    if (keep) keep.late = late;
    if (keep?.takesPill) {
      const split = this.splitOnce(req, reply, keep, payload);
      if (split) return split;
    }
    const out = compressPage(req, reply, late ? insertParts(late) : payload, keep !== null && keep.page === payload);
    if (!out && late) payload = withInsert(late);
    if (keep) {
      const { page } = keep;
      const body = out?.body && page === payload ? out.body : utf8Bytes(keep.late ? insertParts(keep.late) : page);
      const entry = this.entryOf(keep, body);
      if (out && page === payload) {
        entry[out.encoding] = out.encoded;
        entry.bytes += out.encoded.length;
      }
      this.keep(keep.claim, entry);
    }
    return out ? out.encoded : payload;
  }

  private entryOf(keep: Kept, body: Buffer): Entry {
    const { claim } = keep;
    return {
      key: claim.key,
      version: claim.version,
      at: this.now(),
      type: keep.type,
      csp: keep.csp,
      robots: keep.robots,
      takesPill: keep.takesPill,
      readsUser: keep.readsUser,
      readsVisitor: keep.readsVisitor,
      body,
      served: { br: 0, gzip: 0 },
      bytes: body.length,
    };
  }

  private keep(claim: Claim, entry: Entry): void {
    if (this.forgottenSince(claim.key, claim.seq)) claim.done(false);
    else {
      this.store(entry);
      claim.done(true);
    }
  }

  /**
   * A page that may be kept and can take a shopper's pill, going out in brotli or gzip: compressed once,
   * split at its empty pill (pill-splice.ts), so the parts every shopper's copy is put together from are
   * made with the render's own copy instead of on the first shopper's request. The first copy in that
   * encoding is the page with the empty pill put together the same way (the text after the pill is
   * stored, not compressed, until the page is re-encoded at the kept level). Null: not such a response.
   */
  private splitOnce(req: FastifyRequest, reply: FastifyReply, keep: Kept, payload: unknown): Buffer | null {
    const pill = this.opts.cartPill;
    if (!pill) return null;
    const encoding = pageEncoding(req, reply, payload);
    if (!encoding) return null;
    const body = utf8Bytes(keep.late ? insertParts(keep.late) : keep.page);
    const empty = (this.emptyPill ??= Buffer.from(pill.empty));
    const split = splitAtPill(body, empty);
    if (!split) return null;
    const own = (req as Claimed)[OWN_PILL];
    const mine = own !== undefined && own !== pill.empty ? Buffer.from(own) : null;
    const entry = this.entryOf(keep, body);
    const copies: PillCopies = (entry.pill = { split });
    let shared: Buffer;
    let out: Buffer;
    if (encoding === 'br') {
      const parts = brotliPartsSync(split, QUICK.br);
      copies.br = Promise.resolve(parts);
      shared = brotliWithPill(split, parts, empty);
      out = mine ? brotliWithPill(split, parts, mine) : shared;
      entry.bytes += parts.head.length;
    } else {
      const parts = gzipPartsSync(split);
      copies.gzip = Promise.resolve(parts);
      shared = gzipWithPill(split, parts, empty);
      out = mine ? gzipWithPill(split, parts, mine) : shared;
      entry.bytes += parts.head.length + parts.tail.length;
    }
    this.stats.pillParts++;
    entry[encoding] = shared;
    entry.bytes += shared.length;
    this.keep(keep.claim, entry);
    markEncoded(reply, encoding, out.length);
    return out;
  }

  /** Whether the page this request rendered holds the visitor's own cart pill, which a kept copy swaps for the empty one. */
  private swapsPill(req: FastifyRequest): boolean {
    const pill = this.opts.cartPill;
    const own = (req as Claimed)[OWN_PILL];
    return !!pill && own !== undefined && own !== pill.empty;
  }

  /** The page a claimed request rendered, when it may be shared (the empty cart pill in it); else null. */
  private capture(req: FastifyRequest, reply: FastifyReply, payload: unknown): Kept | null {
    const claim = (req as Claimed)[CLAIM];
    if (!claim) return null;
    (req as Claimed)[CLAIM] = undefined;
    const type = reply.getHeader('content-type');
    const csp = reply.getHeader('content-security-policy');
    const robots = reply.getHeader('x-robots-tag');
    const cookies = reply.getHeader('set-cookie');
    const setsOnlyCrumb = cookies === undefined || [cookies].flat().every((c) => String(c).startsWith(`${CRUMB_COOKIE}=`));
    const readsUser = siteUserWasRead(req);
    const readsVisitor = visitorStateWasRead(req);
    if (
      reply.statusCode !== 200 ||
      typeof payload !== 'string' ||
      typeof type !== 'string' ||
      !type.startsWith('text/html') ||
      !setsOnlyCrumb ||
      (req.crumb && payload.includes(req.crumb)) ||
      (readsUser && siteUserQuietly(req) !== null) ||
      (readsVisitor && mayHaveCart(req))
    ) {
      claim.done(false);
      return null;
    }
    // A visitor with a cart rendered it: the shared copy gets the empty pill in place of theirs.
    const pill = this.opts.cartPill;
    let page: string | null = payload;
    if (pill && this.swapsPill(req)) page = replaceOnce(payload, (req as Claimed)[OWN_PILL]!, pill.empty);
    if (page === null) {
      claim.done(false);
      return null;
    }
    const takesPill = !!pill && occursOnce(page, pill.empty);
    return {
      claim,
      page,
      type,
      csp: typeof csp === 'string' ? csp : null,
      robots: typeof robots === 'string' ? robots : null,
      takesPill,
      readsUser,
      readsVisitor,
    };
  }

  private track(work: Promise<unknown>): void {
    const done = work.then(noop, noop);
    this.encoding.add(done);
    void done.finally(() => this.encoding.delete(done));
  }

  /** Resolves once the pages rendered so far are kept (tests). */
  async idle(): Promise<void> {
    while (this.encoding.size > 0) await Promise.all(this.encoding);
  }

  /** The request ended without a page to keep (an error, a redirect, a closed connection). */
  release(req: FastifyRequest): void {
    const claim = (req as Claimed)[CLAIM];
    if (!claim) return;
    (req as Claimed)[CLAIM] = undefined;
    claim.done(false);
  }

  private store(e: Entry): void {
    if (e.bytes > this.opts.maxBytes / 4) return;
    const old = this.entries.get(e.key);
    if (old) this.drop(e.key, old);
    this.entries.set(e.key, e);
    this.bytes += e.bytes;
    this.stats.stored++;
    this.evict();
  }

  /** Drops the least recently used pages until the rest fit. */
  private evict(): void {
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.opts.maxBytes) break;
      this.drop(k, v);
    }
  }

  private drop(key: string, e: Entry): void {
    if (this.entries.get(key) !== e) return;
    this.entries.delete(key);
    this.bytes -= e.bytes;
  }

  /**
   * Forgets this instance's copies of one page (every host, query and consent key), for a change that
   * shows on that page alone and is not worth a new content version for the whole site (a like). Other
   * instances keep theirs for at most PAGE_CACHE_SECONDS.
   */
  forgetPath(path: string): void {
    const seq = ++this.forgetSeq;
    if (this.forgotten.size >= 10_000) {
      // Too many to remember one by one: every page being rendered now is dropped instead.
      this.forgotten.clear();
      this.forgetFloor = seq;
    }
    this.forgotten.set(path, seq);
    for (const [key, e] of this.entries) if (pathOfKey(key) === path) this.drop(key, e);
  }

  /** Whether a page claimed at `seq` was forgotten while it rendered (so it is not kept). */
  private forgottenSince(key: string, seq: number): boolean {
    return seq < this.forgetFloor || (this.forgotten.get(pathOfKey(key) ?? '') ?? 0) > seq;
  }

  /** Forgets every page (tests). */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}

/** Makes the page cache of an app: its hooks keep what claimed requests rendered. */
export function pageCache(app: FastifyInstance, opts: PageCacheOptions): PageCache {
  const cache = new PageCache(app, opts);
  // Registered after every area's onSend hook (the page routes come last), so the analytics data island is
  // already in the page; compression (a route-level hook) comes after it.
  app.addHook('onSend', async (req, reply, payload) => cache.finish(req, reply, payload));
  app.addHook('onResponse', async (req) => cache.release(req));
  app.addHook('onRequestAbort', async (req) => cache.release(req));
  return cache;
}
