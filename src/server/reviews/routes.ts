/**
 * Review calls and pages: the reviews request page (209) behind a signed link, the buyer's review (JSON
 * or a plain form post that works without JavaScript), and the owner's moderation, settings and related
 * products under /api/reviews/admin.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { sql } from 'drizzle-orm';
import { PageType } from '../../core/enums.js';
import { commerce, reviews as text } from '../../core/messages.js';
import { relatedIn, reviewIn, reviewListQuery, reviewSettingsIn } from '../../core/api/reviews.js';
import { HttpError, badRequest } from '../errors.js';
import { rows } from '../db-util.js';
import { sendSitePage } from '../site-page/index.js';
import { audit } from '../platform/index.js';
import { CRUMB_COOKIE } from '../../core/cookies.js';
import { REVIEW_REQUEST_PATH, type ReviewRequestView, type ReviewService } from './service.js';
import { type RelatedProducts } from './related.js';
import { reviewSettingsOf } from './settings.js';
import { can } from '../../core/roles.js';

export const REVIEWS_API = '/api/reviews';
/** Ten review posts a minute per visitor (their crumb cookie, else their address), as checkout counts. */
export const REVIEW_LIMIT = {
  name: 'review-submit',
  max: 10,
  windowMs: 60_000,
  message: commerce.RATE_LIMITED,
  key: (req: FastifyRequest) => req.cookies[CRUMB_COOKIE] ?? req.ip,
};

const reviewBody = reviewIn;

type Obj = Record<string, unknown>;

function isFormPost(req: FastifyRequest): boolean {
  return String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
}

/** Field errors from a zod failure, keyed by field. */
function fieldErrors(issues: z.core.$ZodIssue[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of issues) {
    const k = String(i.path[0] ?? '_');
    out[k] ??= i.message;
  }
  return out;
}

export async function reviewRoutes(app: FastifyInstance, opts: { reviews: ReviewService; related: RelatedProducts }) {
  const { reviews } = opts;

  /** The reviews request page (209), with a form per product not yet reviewed. */
  async function requestPage(
    req: FastifyRequest,
    reply: FastifyReply,
    token: string,
    view: ReviewRequestView | null,
    extra: {
      status?: number;
      done?: string;
      errors?: { itemId: string; errors: Record<string, string>; values: Obj; message: string };
    } = {},
  ) {
    if (!view) {
      return sendSitePage(app, req, reply, {
        template: 'system/reviews-request.html',
        pageType: PageType.REVIEWS_REQUEST,
        status: 404,
        title: text.PAGE_TITLE,
        ctx: { reviewRequest: { invalid: true, invalidText: text.TOKEN_INVALID } },
      });
    }
    const products = view.products.map((p) => {
      const failed = extra.errors?.itemId === p.itemId ? extra.errors : null;
      const values = failed?.values ?? {};
      const prefix = `review-${p.itemId}`;
      return {
        itemId: p.itemId,
        title: p.title,
        fullUrl: p.fullUrl,
        reviewed: !!p.review,
        justDone: extra.done === p.itemId,
        prefix,
        legend: `Your rating for ${p.title}`,
        choices: [5, 4, 3, 2, 1].map((n) => ({
          value: n,
          label: text.stars(n),
          id: `${prefix}-r${n}`,
          checked: String(values.rating ?? '') === String(n),
        })),
        values: {
          authorName: String(values.authorName ?? view.buyerName ?? ''),
          title: String(values.title ?? ''),
          body: String(values.body ?? ''),
        },
        errors: failed?.errors ?? {},
        message: failed?.message ?? null,
      };
    });
    return sendSitePage(app, req, reply, {
      template: 'system/reviews-request.html',
      pageType: PageType.REVIEWS_REQUEST,
      status: extra.status ?? 200,
      title: text.PAGE_TITLE,
      ctx: {
        reviewRequest: {
          invalid: false,
          token,
          crumb: req.crumb,
          action: REVIEWS_API,
          orderNumber: view.orderNumber,
          thanksText: text.THANKS,
          allDone: products.every((p) => p.reviewed),
          products,
        },
      },
    });
  }

  app.get<{ Params: { token: string } }>(`${REVIEW_REQUEST_PATH}/:token`, async (req, reply) => {
    reply.header('referrer-policy', 'no-referrer');
    const view = await reviews.requestByToken(req.params.token);
    const done = typeof (req.query as Obj).done === 'string' ? String((req.query as Obj).done) : undefined;
    return requestPage(req, reply, req.params.token, view, { done });
  });

  app.post(REVIEWS_API, { preHandler: app.services.rateLimiter.guard(REVIEW_LIMIT), bodyLimit: 64 * 1024 }, async (req, reply) => {
    const form = isFormPost(req);
    const raw = (req.body ?? {}) as Obj;
    const parsed = reviewBody.safeParse(raw);
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error.issues);
      const message = Object.values(errors)[0] ?? text.BODY_REQUIRED;
      if (form && typeof raw.token === 'string') {
        const view = await reviews.requestByToken(raw.token);
        return requestPage(req, reply, raw.token, view, {
          status: 400,
          errors: { itemId: String(raw.itemId ?? ''), errors, values: raw, message },
        });
      }
      throw badRequest(message, errors);
    }
    const b = parsed.data;
    try {
      const review = await reviews.submit({
        token: b.token,
        itemId: b.itemId,
        rating: b.rating,
        title: b.title,
        body: b.body,
        authorName: b.authorName,
      });
      if (form) return reply.redirect(`${REVIEW_REQUEST_PATH}/${encodeURIComponent(b.token)}?done=${encodeURIComponent(b.itemId)}`, 303);
      return { review: { id: review.id, itemId: review.itemId, rating: review.rating, status: review.status }, message: text.THANKS };
    } catch (e) {
      if (!form || !(e instanceof HttpError)) throw e;
      const view = await reviews.requestByToken(b.token);
      return requestPage(req, reply, b.token, view, {
        status: e.status,
        errors: { itemId: b.itemId, errors: e.errors ?? {}, values: raw, message: e.message },
      });
    }
  });

  registerReviewOwnerRoutes(app, opts);
}

/** The owner's moderation queue, review settings and related-products choices. */
function registerReviewOwnerRoutes(app: FastifyInstance, opts: { reviews: ReviewService; related: RelatedProducts }) {
  const { reviews, related } = opts;

  // ---- Owner ------------------------------------------------------------------------------------

  const moderatorRead = { preHandler: app.requireOwner(can('reviews', 'read')) };
  const moderator = { preHandler: app.requireOwner(can('reviews', 'write')) };
  const storeRead = { preHandler: app.requireOwner(can('review-settings', 'read')) };
  const store = { preHandler: app.requireOwner(can('review-settings', 'write')) };

  app.get(`${REVIEWS_API}/admin/reviews`, moderatorRead, async (req) => {
    const q = reviewListQuery.parse(req.query ?? {});
    const websiteId = req.owner!.websiteId;
    const [list, counts] = await Promise.all([reviews.list(websiteId, q), reviews.counts(websiteId)]);
    return { reviews: list, counts };
  });

  for (const action of ['approve', 'reject'] as const) {
    app.post<{ Params: { id: string } }>(`${REVIEWS_API}/admin/reviews/:id/${action}`, moderator, async (req) => {
      const review = await reviews.moderate(
        req.owner!.websiteId,
        req.params.id,
        action === 'approve' ? 'approved' : 'rejected',
        req.owner!.id,
      );
      return { review };
    });
  }

  app.get(`${REVIEWS_API}/admin/settings`, storeRead, async (req) => {
    const r = await rows<{ settings: Obj }>(app.database.db, sql`select settings from websites where id = ${req.owner!.websiteId}`);
    return { settings: reviewSettingsOf(r[0]?.settings ?? {}) };
  });

  app.put(`${REVIEWS_API}/admin/settings`, store, async (req) => {
    const b = reviewSettingsIn.parse(req.body ?? {});
    const websiteId = req.owner!.websiteId;
    const saved = await app.database.db.transaction(async (tx) => {
      const r = await rows<{ settings: Obj }>(tx, sql`select settings from websites where id = ${websiteId} for update`);
      if (!r[0]) throw new HttpError(404, 'Not found');
      const next = { ...r[0].settings, reviews: { ...reviewSettingsOf(r[0].settings), ...b.settings } };
      await tx.execute(sql`update websites set settings = ${JSON.stringify(next)}::jsonb, version = version + 1 where id = ${websiteId}`);
      await audit(tx, {
        websiteId,
        accountId: req.owner!.id,
        action: 'reviews.settings',
        entity: 'website',
        entityId: websiteId,
        before: reviewSettingsOf(r[0].settings),
        after: next.reviews,
      });
      return next;
    });
    app.services.websites.invalidate();
    return { settings: reviewSettingsOf(saved) };
  });

  /** Store products for the related-products picker. */
  app.get(`${REVIEWS_API}/admin/products`, storeRead, async (req) => {
    const list = await rows<{ id: string; title: string; categories: unknown }>(
      app.database.db,
      sql`select id, title, categories from items where website_id = ${req.owner!.websiteId} and record_type = 11 order by title, id limit 1000`,
    );
    return {
      products: list.map((p) => ({
        id: p.id,
        title: p.title,
        categories: typeof p.categories === 'string' ? JSON.parse(p.categories) : p.categories,
      })),
    };
  });

  app.get<{ Params: { itemId: string } }>(`${REVIEWS_API}/admin/related/:itemId`, storeRead, async (req) => {
    return { related: await related.chosen(req.owner!.websiteId, req.params.itemId) };
  });

  app.put<{ Params: { itemId: string } }>(`${REVIEWS_API}/admin/related/:itemId`, store, async (req) => {
    const b = relatedIn.parse(req.body ?? {});
    return { related: await related.set(req.owner!.websiteId, req.params.itemId, b.relatedItemIds, req.owner!.id) };
  });
}
