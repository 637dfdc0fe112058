/**
 * Likes of content items: the like button the demo theme draws on journal posts. `POST /api/content-items/:itemId/like` (JSON from the island, or a plain form post that
 * works without JavaScript) records one like per visitor and item: the visitor is the random id of an
 * HttpOnly like cookie, set on their first like, so a repeated like changes nothing. CSRF as every call
 * (a crumb-less plain post only from a page of this site, crumb.ts), and a per-visitor and per-address
 * rate limit. Only published items of content collections (not products) take likes.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { CollectionType } from '../../core/enums.js';
import { commerce } from '../../core/messages.js';
import { HttpError } from '../errors.js';
import { isFormPost, isSecure } from '../visitor/index.js';
import { itemUrl } from '../../core/content.js';
import { LIKE_COOKIE } from '../../core/cookies.js';

export const LIKE_PATH = '/api/content-items/:itemId/like';
export const likeUrl = (itemId: string) => `/api/content-items/${encodeURIComponent(itemId)}/like`;
const LIKE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;
const LIKER = /^[a-f0-9]{32}$/;
const ITEM_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Thirty likes a minute per address. Not per crumb or like cookie: a client chooses those, and each fresh
 * like cookie is a new liker, so only the address bounds how fast one client can add likes.
 */
export const LIKE_LIMIT = {
  name: 'content-like',
  max: 30,
  windowMs: 60_000,
  message: commerce.RATE_LIMITED,
};

/** How many likes an item has (read from the table). */
export async function likeCount(db: Db, itemId: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(schema.itemLikes)
    .where(eq(schema.itemLikes.itemId, itemId));
  return Number(r?.n ?? 0);
}

/** How long a post page may show a count read earlier: likes made on another instance show within it. */
export const LIKE_COUNT_SECONDS = 10;
const COUNTS_KEPT = 10_000;

/**
 * Like counts for post pages, kept per item for LIKE_COUNT_SECONDS (a post page used to count its likes
 * on every render, the one query a warm journal post still sent). A like taken by this instance puts its
 * new count in at once, so the liker and this instance's visitors see it on the next page; likes taken by
 * another instance show here within LIKE_COUNT_SECONDS, as that instance's cached pages of the post do.
 */
export class LikeCounts {
  private readonly kept = new Map<string, { at: number; count: Promise<number> }>();
  constructor(private readonly db: Db) {}

  get(itemId: string): Promise<number> {
    const hit = this.kept.get(itemId);
    if (hit && Date.now() - hit.at < LIKE_COUNT_SECONDS * 1000) return hit.count;
    if (this.kept.size >= COUNTS_KEPT) this.kept.clear();
    const count = likeCount(this.db, itemId);
    const entry = { at: Date.now(), count };
    this.kept.set(itemId, entry);
    count.catch(() => {
      if (this.kept.get(itemId) === entry) this.kept.delete(itemId);
    });
    return count;
  }

  /** The count this instance just read after a like. */
  set(itemId: string, count: number): void {
    this.kept.set(itemId, { at: Date.now(), count: Promise.resolve(count) });
  }
}

const countsOf = new WeakMap<Db, LikeCounts>();
/** The like counts of an app's database (one per process and database). */
export function likeCounts(db: Db): LikeCounts {
  let made = countsOf.get(db);
  if (!made) countsOf.set(db, (made = new LikeCounts(db)));
  return made;
}

export async function likeRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  app.post(LIKE_PATH, { preHandler: app.services.rateLimiter.guard(LIKE_LIMIT), bodyLimit: 4 * 1024 }, async (req, reply) => {
    const itemId = (req.params as { itemId: string }).itemId;
    if (!ITEM_ID.test(itemId)) throw new HttpError(404, 'Not found');
    const site = await app.services.websites.get();
    const [found] = await db
      .select({ item: schema.items, collection: schema.collections })
      .from(schema.items)
      .innerJoin(schema.collections, eq(schema.collections.id, schema.items.collectionId))
      .where(and(eq(schema.items.id, itemId), eq(schema.items.websiteId, site.id), eq(schema.items.status, 'published')))
      .limit(1);
    if (!found || found.collection.type === CollectionType.PRODUCTS || found.item.publishOn.getTime() > Date.now())
      throw new HttpError(404, 'Not found');

    let liker = req.cookies[LIKE_COOKIE];
    if (!liker || !LIKER.test(liker)) {
      liker = randomBytes(16).toString('hex');
      reply.setCookie(LIKE_COOKIE, liker, {
        path: '/',
        sameSite: 'lax',
        secure: isSecure(req),
        httpOnly: true,
        maxAge: LIKE_COOKIE_MAX_AGE_SECONDS,
      });
    }
    const added = await db
      .insert(schema.itemLikes)
      .values({ itemId, liker })
      .onConflictDoNothing()
      .returning({ liker: schema.itemLikes.liker });
    const count = await likeCount(db, itemId);
    likeCounts(db).set(itemId, count);
    // The count shows on the post alone: its cached copies go, the rest of the site's cache stays (a like
    // does not move the content version, so likes cannot empty every cached page).
    const url = itemUrl(found.collection, found.item);
    if (added.length > 0 && app.hasDecorator('pageCache')) app.pageCache.forgetPath(url);
    reply.header('cache-control', 'no-store');
    if (isFormPost(req)) return reply.redirect(url, 303);
    return { liked: true, likeCount: count };
  });
}
