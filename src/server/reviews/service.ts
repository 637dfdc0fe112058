/**
 * Product reviews: review requests after delivery, the buyer's reviews, owner moderation, and what the
 * product page shows (approved reviews with their average and count). Related products live in
 * ./related.ts.
 *
 * A request is made in the transaction that marks an order fulfilled (checkout's orderFulfilledHooks),
 * with a job due after the owner's delay; the job emails the order's address a signed link to the
 * reviews request page (209). A review names the request and one product of its order; the unique
 * (request, item) index makes a second review of the same product a 409 even when two arrive at once.
 */
import type { ReviewRow } from '../../core/api/reviews.js';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Tx } from '../../db/index.js';
import { newId } from '../../db/ids.js';
import { schema } from '../../db/index.js';
import { BatchedRead, rows } from '../db-util.js';
import { HttpError, badRequest, conflict, notFound } from '../errors.js';
import type { Mailer } from '../mail/index.js';
import type { EmailOrigin } from '../email-origin.js';
import type { OrderRow } from '../../core/orders.js';
import { ProductType } from '../../core/enums.js';
import { reviews as text } from '../../core/messages.js';
import { ratingSummary, type RatingSummary } from '../../core/reviews.js';
import { linkKey, signLink, verifyLink } from '../signed-links.js';
import { reviewSettingsOf } from './settings.js';
import { reviewRequestEmail } from './emails.js';
import { audit } from '../platform/index.js';
import { emailLookFor } from '../mail/index.js';

export const REVIEW_REQUEST_JOB = 'reviews:request';
export const REVIEW_LINK_PURPOSE = 'review-request';
export const REVIEW_REQUEST_PATH = '/reviews/request';

type Obj = Record<string, unknown>;

export interface RequestProduct {
  itemId: string;
  title: string;
  fullUrl: string | null;
  image: Obj | null;
  /** The buyer's review of it, when there is one. */
  review: { rating: number; status: string } | null;
}

export interface ReviewRequestView {
  requestId: string;
  websiteId: string;
  orderNumber: number;
  email: string;
  buyerName: string;
  products: RequestProduct[];
}

export type { ReviewRow };

export interface ReviewInput {
  token: string;
  itemId: string;
  rating: number;
  title: string;
  body: string;
  authorName: string;
}

/** Products a buyer can review: everything but gift cards. */
const reviewable = (i: Obj) => Number(i.productType) !== ProductType.GIFT_CARD && typeof i.itemId === 'string';

function reviewFrom(r: Obj): ReviewRow {
  return {
    id: String(r.id),
    itemId: String(r.item_id),
    productTitle: String(r.product_title ?? ''),
    rating: Number(r.rating),
    title: String(r.title ?? ''),
    body: String(r.body ?? ''),
    authorName: String(r.author_name ?? ''),
    status: String(r.status) as ReviewRow['status'],
    created: new Date(r.created as string).getTime(),
    orderNumber: r.order_number == null ? null : Number(r.order_number),
    moderatedAt: r.moderated_at ? new Date(r.moderated_at as string).getTime() : null,
  };
}

/**
 * In the fulfil transaction (checkout's orderFulfilledHooks): one request per order that has something to
 * review, and its job, due after the owner's delay. It needs nothing but the transaction, so it serves
 * every app in the process.
 */
export async function onOrderFulfilled(tx: Tx, order: OrderRow): Promise<void> {
  if (!order.email || !order.items.some(reviewable)) return;
  const s = await rows<{ settings: Obj }>(tx, sql`select settings from websites where id = ${order.websiteId}`);
  const settings = reviewSettingsOf(s[0]?.settings ?? {});
  if (!settings.requestsEnabled) return;
  const runAt = new Date(Date.now() + settings.requestDelayHours * 3600_000);
  const id = newId();
  const made = await rows<{ id: string }>(
    tx,
    sql`insert into review_requests (id, website_id, order_id, email, status, run_at) values (${id}, ${order.websiteId}, ${order.id}, ${order.email}, 'scheduled', ${runAt})
        on conflict (order_id) do nothing returning id`,
  );
  if (made[0]) await tx.insert(schema.jobs).values({ kind: REVIEW_REQUEST_JOB, payload: { requestId: id }, runAt, maxAttempts: 5 });
}

export class ReviewService {
  constructor(
    private readonly database: Database,
    private readonly mailer: Mailer,
    /** The origin of emailed links (app.emailOrigin). */
    private readonly origin: EmailOrigin,
    private readonly log?: FastifyBaseLogger,
  ) {}

  private get db() {
    return this.database.db;
  }

  // ---- Requests ---------------------------------------------------------------------------------

  /** The job: emails the request unless the order was refunded in the meantime. Runs once per request. */
  async sendRequest(requestId: string): Promise<'sent' | 'skipped' | 'done'> {
    const key = await linkKey(this.database);
    return this.db.transaction(async (tx) => {
      const r = await rows<Obj>(
        tx,
        sql`select q.id, q.website_id, q.status, q.email, o.status as order_status, o.order_number, o.items, o.shipping_address, w.title as store_name, w.settings as site_settings
            from review_requests q join orders o on o.id = q.order_id join websites w on w.id = q.website_id
            where q.id = ${requestId} for update of q`,
      );
      const q = r[0];
      if (!q || q.status !== 'scheduled') return 'done';
      // Refunded since delivery, or the owner turned requests off while this one waited: no email.
      const settings = typeof q.site_settings === 'string' ? JSON.parse(q.site_settings) : q.site_settings;
      if (q.order_status !== 'fulfilled' || !reviewSettingsOf(settings).requestsEnabled) {
        await tx.execute(sql`update review_requests set status = 'skipped' where id = ${requestId}`);
        return 'skipped';
      }
      const items = (typeof q.items === 'string' ? JSON.parse(q.items) : q.items) as Obj[];
      const titles = [...new Map(items.filter(reviewable).map((i) => [String(i.itemId), String(i.productName ?? '')])).values()];
      const addr = (typeof q.shipping_address === 'string' ? JSON.parse(q.shipping_address) : q.shipping_address) as Obj | null;
      const mail = reviewRequestEmail({
        storeName: String(q.store_name ?? ''),
        buyerName: String(addr?.name ?? '').trim(),
        orderNumber: Number(q.order_number),
        productTitles: titles,
        reviewUrl: `${await this.origin(tx)}${REVIEW_REQUEST_PATH}/${signLink(key, REVIEW_LINK_PURPOSE, requestId)}`,
        look: await emailLookFor(tx, String(q.website_id)),
      });
      await this.mailer.enqueue(tx, {
        kind: 'review-request',
        to: String(q.email),
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        ref: requestId,
      });
      await tx.execute(sql`update review_requests set status = 'sent', sent_at = now() where id = ${requestId}`);
      return 'sent';
    });
  }

  /** The request a token names with its order's products and the buyer's reviews; null for a bad token. */
  async requestByToken(token: unknown): Promise<ReviewRequestView | null> {
    const id = verifyLink(await linkKey(this.database), REVIEW_LINK_PURPOSE, token);
    if (!id) return null;
    const r = await rows<Obj>(
      this.db,
      sql`select q.id, q.website_id, q.email, q.status, o.order_number, o.items, o.shipping_address, o.status as order_status
          from review_requests q join orders o on o.id = q.order_id where q.id = ${id}`,
    );
    const q = r[0];
    // A request whose order was refunded, or that was never sent, is not a working link.
    if (!q || q.status !== 'sent' || q.order_status !== 'fulfilled') return null;
    const items = ((typeof q.items === 'string' ? JSON.parse(q.items) : q.items) as Obj[]).filter(reviewable);
    const ids = [...new Set(items.map((i) => String(i.itemId)))];
    const info = ids.length
      ? await rows<Obj>(
          this.db,
          sql`select i.id, i.title, i.url_id, i.assets -> 0 as image, c.url_id as c_url, i.status from items i join collections c on c.id = i.collection_id
              where i.id in (${sql.join(
                ids.map((x) => sql`${x}`),
                sql`, `,
              )})`,
        )
      : [];
    const byId = new Map(info.map((x) => [String(x.id), x]));
    const done = await rows<Obj>(this.db, sql`select item_id, rating, status from product_reviews where request_id = ${id}`);
    const reviewed = new Map(done.map((d) => [String(d.item_id), { rating: Number(d.rating), status: String(d.status) }]));
    const addr = (typeof q.shipping_address === 'string' ? JSON.parse(q.shipping_address) : q.shipping_address) as Obj | null;
    return {
      requestId: id,
      websiteId: String(q.website_id),
      orderNumber: Number(q.order_number),
      email: String(q.email),
      buyerName: String(addr?.name ?? '').trim(),
      products: ids
        .filter((x) => byId.has(x))
        .map((x) => {
          const i = byId.get(x)!;
          const name = items.find((it) => String(it.itemId) === x)?.productName;
          const image = (typeof i.image === 'string' ? JSON.parse(i.image) : i.image) as Obj | null;
          return {
            itemId: x,
            title: String(i.title ?? name ?? ''),
            fullUrl: i.status === 'published' ? `/${String(i.c_url)}/p/${String(i.url_id)}` : null,
            image,
            review: reviewed.get(x) ?? null,
          };
        }),
    };
  }

  /** A buyer's review through the request's token: one per product of the order, pending moderation. */
  async submit(input: ReviewInput): Promise<ReviewRow> {
    const view = await this.requestByToken(input.token);
    if (!view) throw new HttpError(403, text.TOKEN_INVALID);
    const product = view.products.find((p) => p.itemId === input.itemId);
    if (!product) throw badRequest(text.NOT_IN_ORDER, { itemId: text.NOT_IN_ORDER });
    if (product.review) throw conflict(text.ALREADY_REVIEWED);
    const id = newId();
    const r = await rows<Obj>(
      this.db,
      sql`insert into product_reviews (id, website_id, item_id, request_id, rating, title, body, author_name, status)
          values (${id}, ${view.websiteId}, ${input.itemId}, ${view.requestId}, ${input.rating}, ${input.title}, ${input.body}, ${input.authorName}, 'pending')
          on conflict (request_id, item_id) do nothing returning *`,
    );
    if (!r[0]) throw conflict(text.ALREADY_REVIEWED);
    this.log?.info({ reviewId: id, itemId: input.itemId }, 'review submitted');
    return reviewFrom({ ...r[0], product_title: product.title, order_number: view.orderNumber });
  }

  // ---- Owner ------------------------------------------------------------------------------------

  async list(websiteId: string, opts: { status?: string; itemId?: string; limit: number; before?: number }): Promise<ReviewRow[]> {
    const r = await rows<Obj>(
      this.db,
      sql`select r.*, i.title as product_title, o.order_number from product_reviews r
          join items i on i.id = r.item_id
          left join review_requests q on q.id = r.request_id left join orders o on o.id = q.order_id
          where r.website_id = ${websiteId}
          ${opts.status ? sql`and r.status = ${opts.status}` : sql``}
          ${opts.itemId ? sql`and r.item_id = ${opts.itemId}` : sql``}
          ${opts.before ? sql`and r.created < ${new Date(opts.before)}` : sql``}
          order by r.created desc, r.id desc limit ${opts.limit}`,
    );
    return r.map(reviewFrom);
  }

  async moderate(websiteId: string, reviewId: string, status: 'approved' | 'rejected', by: string): Promise<ReviewRow> {
    if (!/^[0-9a-f]{24}$/.test(reviewId)) throw notFound(text.NOT_FOUND);
    const r = await this.db.transaction(async (tx) => {
      const before = await rows<{ status: string }>(
        tx,
        sql`select status from product_reviews where id = ${reviewId} and website_id = ${websiteId} for update`,
      );
      if (!before[0]) return [];
      const after = await rows<Obj>(
        tx,
        sql`update product_reviews set status = ${status}, moderated_at = now(), moderated_by = ${by} where id = ${reviewId} returning *`,
      );
      await audit(tx, {
        websiteId,
        accountId: by,
        action: status === 'approved' ? 'review.approve' : 'review.reject',
        entity: 'product-review',
        entityId: reviewId,
        before: { status: before[0].status },
        after: { status },
      });
      return after;
    });
    if (!r[0]) throw notFound(text.NOT_FOUND);
    const t = await rows<{ title: string }>(this.db, sql`select title from items where id = ${String(r[0].item_id)}`);
    return reviewFrom({ ...r[0], product_title: t[0]?.title ?? '' });
  }

  async counts(websiteId: string): Promise<Record<string, number>> {
    const r = await rows<{ status: string; n: number }>(
      this.db,
      sql`select status, count(*)::int as n from product_reviews where website_id = ${websiteId} group by status`,
    );
    const out: Record<string, number> = { pending: 0, approved: 0, rejected: 0 };
    for (const x of r) out[x.status] = Number(x.n);
    return out;
  }

  // ---- Product page -----------------------------------------------------------------------------

  /** The products of a site that have at least one approved review (the product page reads reviews only for them). */
  async reviewedItems(websiteId: string): Promise<Set<string>> {
    const r = await rows<{ item_id: string }>(
      this.db,
      sql`select distinct item_id from product_reviews where website_id = ${websiteId} and status = 'approved'`,
    );
    return new Set(r.map((x) => x.item_id));
  }

  /** What forProduct answers for a product without approved reviews. */
  static readonly NONE: { summary: RatingSummary; reviews: ReviewRow[] } = { summary: ratingSummary(0, 0), reviews: [] };

  /**
   * A product's approved reviews (newest first, up to `limit`) and the summary of all of them, in one
   * statement: the window sums run over every approved review before the limit is applied, so the count
   * and the sum are those of all of them (a product's page reads this on its first request per version).
   */
  async forProduct(itemId: string, limit = 50): Promise<{ summary: RatingSummary; reviews: ReviewRow[] }> {
    if (limit < 1) {
      const [agg] = await rows<{ n: number; s: number }>(
        this.db,
        sql`select count(*)::int as n, coalesce(sum(rating), 0)::int as s from product_reviews where item_id = ${itemId} and status = 'approved'`,
      );
      return { summary: ratingSummary(Number(agg?.n ?? 0), Number(agg?.s ?? 0)), reviews: [] };
    }
    const list = await rows<Obj>(
      this.db,
      sql`select *, (count(*) over ())::int as review_count, (sum(rating) over ())::int as rating_sum
            from product_reviews where item_id = ${itemId} and status = 'approved' order by created desc, id desc limit ${limit}`,
    );
    return { summary: ratingSummary(Number(list[0]?.review_count ?? 0), Number(list[0]?.rating_sum ?? 0)), reviews: list.map(reviewFrom) };
  }

  /** forProduct for several products in one statement (the count and sum per product, the newest `limit` of each); a product without approved reviews is left out. */
  async forProducts(itemIds: string[], limit = 50): Promise<Map<string, { summary: RatingSummary; reviews: ReviewRow[] }>> {
    const list = await rows<Obj>(
      this.db,
      sql`select * from (
            select *, (count(*) over w)::int as review_count, (sum(rating) over w)::int as rating_sum,
                   row_number() over (partition by item_id order by created desc, id desc) as n
              from product_reviews where item_id in ${itemIds} and status = 'approved'
            window w as (partition by item_id)) r
          where n <= ${limit} order by item_id, created desc, id desc`,
    );
    const out = new Map<string, { summary: RatingSummary; reviews: ReviewRow[] }>();
    for (const r of list) {
      const id = String(r.item_id);
      let found = out.get(id);
      if (!found) out.set(id, (found = { summary: ratingSummary(Number(r.review_count ?? 0), Number(r.rating_sum ?? 0)), reviews: [] }));
      found.reviews.push(reviewFrom(r));
    }
    return out;
  }

  /**
   * A product page's reviews (forProduct's first 50): pages that ask at about the same time share one
   * statement (db-util.ts BatchedRead; each statement starts after its callers asked).
   */
  forProductPage(itemId: string): Promise<{ summary: RatingSummary; reviews: ReviewRow[] }> {
    this.pageReads ??= new BatchedRead((ids) => this.forProducts(ids), 100, this.database.kind === 'pglite');
    return this.pageReads.get(itemId).then((found) => found ?? ReviewService.NONE);
  }

  private pageReads: BatchedRead<{ summary: RatingSummary; reviews: ReviewRow[] }> | undefined;
}
