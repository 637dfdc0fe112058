/**
 * Back in stock: sign-ups, the owner's lists, and the paced sending of one email per sign-up.
 *
 * Exactly-once: a batch claims pending rows with one `UPDATE ... WHERE id IN (SELECT ... FOR UPDATE SKIP
 * LOCKED) AND status = 'pending' RETURNING`, and writes their emails to the outbox in the same transaction,
 * so a sign-up is emailed once however many sends run at the same time. At most one send per variant is
 * active (a partial unique index); a second request joins it. Batches run through the job queue with a
 * pause between them, so thousands of sign-ups do not flood the relay.
 */
import type { SendJson, SignUpGroupJson, SignUpJson, VariantGroupJson } from '../../core/api/restock.js';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { newId } from '../../db/ids.js';
import { rows } from '../db-util.js';
import { badRequest, HttpError } from '../errors.js';
import type { Mailer, OutgoingMail } from '../mail/index.js';
import type { EmailOrigin } from '../email-origin.js';
import type { JobQueue } from '../jobs/index.js';
import { itemUrl } from '../../core/content.js';
import { ProductType } from '../../core/enums.js';
import { restockEmail } from './emails.js';
import { restockSettingsOf, type RestockSettings } from './settings.js';
import { decodeCursor, encodeCursor, signUnsubscribeToken, unsubscribeKey, verifyUnsubscribeToken, type Keyset } from './tokens.js';
import { emailLookFor } from '../mail/index.js';

export type { SendJson, SignUpGroupJson, SignUpJson, VariantGroupJson };

export const SEND_JOB = 'restock.send';
const SEND_JOB_ATTEMPTS = 8;
export const MAIL_KIND = 'restock';

/** Messages of this area whose wording is Tessera's own. */
export const RESTOCK_TEXT = {
  NOT_FOUND: 'That product variant does not exist.',
  IN_STOCK: 'This item is in stock. Please reload the page to buy it.',
  NOT_TRACKED: 'This product is never out of stock.',
  OUT_OF_STOCK: 'This variant is out of stock. Restock it before emailing the waiting list.',
  NOTHING_PENDING: 'No one is waiting for this variant.',
  BAD_LANGUAGE: 'The language is not valid.',
  NO_REQUESTS: 'Choose at least one variant to email.',
} as const;

export interface StockLevel {
  qtyInStock: number;
  unlimited: boolean;
}

export const inStock = (s: StockLevel): boolean => s.unlimited === true || Number(s.qtyInStock) > 0;

/** Runs in the sign-up's transaction when a visitor ticks the mailing-list opt-in (the engagement area joins them to its list). */
export type RestockJoinHook = (tx: Tx, s: { database: Database; websiteId: string; email: string; origin?: string }) => Promise<void>;
export const restockJoinHooks: RestockJoinHook[] = [];

export interface SignUpInput {
  productId: string;
  variantId: string;
  email: string;
  isJoinMailingList: boolean;
  language?: string | null;
  /** The request's origin (links in emails that hooks queue). */
  origin?: string | null;
}

export interface Page<K extends string, T> {
  items: T[];
  key: K;
  hasNextPage: boolean;
  nextPageCursor: string | null;
}

export function variantText(attributes: Record<string, string> | null | undefined): string {
  return Object.entries(attributes ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
}

let lastMs = 0;
let counter = 0;

/**
 * A sign-up id that sorts by creation within this process: 12 hex digits of milliseconds, a 4-digit
 * counter, 8 random digits (24 hex, the platform's id shape). With `created` taken from the same clock,
 * the keyset (created, id) of a later sign-up is always after an earlier one's.
 */
export function sortableId(now = Date.now()): { id: string; created: Date } {
  const ms = Math.max(now, lastMs);
  counter = ms === lastMs ? (counter + 1) & 0xffff : 0;
  lastMs = ms;
  return { id: ms.toString(16).padStart(12, '0') + counter.toString(16).padStart(4, '0') + newId().slice(0, 8), created: new Date(ms) };
}

const iso = (d: Date | string | null | undefined): string | null => (d == null ? null : new Date(d).toISOString());

interface VariantInfo {
  variant_id: string;
  product_id: string;
  website_id: string;
  title: string;
  structured_content: Record<string, unknown>;
  qty_in_stock: number;
  unlimited: boolean;
  attributes: Record<string, string>;
  sku: string;
}

async function variantInfo(db: Db | Tx, productId: string, variantId: string, lock = false): Promise<VariantInfo | null> {
  const r = await rows<VariantInfo>(
    db,
    sql`SELECT v.id AS variant_id, i.id AS product_id, i.website_id, i.title, i.structured_content, v.qty_in_stock, v.unlimited, v.attributes, v.sku
        FROM product_variants v JOIN items i ON i.id = v.item_id
        WHERE v.id = ${variantId} AND i.id = ${productId} ${lock ? sql`FOR UPDATE OF v` : sql``}`,
  );
  return r[0] ?? null;
}

function tracksStock(info: VariantInfo): boolean {
  const t = Number(info.structured_content?.productType) || ProductType.PHYSICAL;
  return t === ProductType.PHYSICAL || t === ProductType.SERVICE;
}

interface SendRow {
  id: string;
  website_id: string;
  product_id: string;
  variant_id: string;
  trigger: string;
  status: string;
  reason: string | null;
  max_emails: number | null;
  pending_at_start: number;
  sent_count: number;
  origin: string | null;
  created: Date;
  finished: Date | null;
  title?: string;
  attributes?: Record<string, string>;
}

function sendJson(r: SendRow): SendJson {
  return {
    id: r.id,
    productId: r.product_id,
    productTitle: r.title ?? '',
    variantId: r.variant_id,
    variantText: variantText(r.attributes),
    trigger: r.trigger,
    status: r.status,
    reason: r.reason,
    pendingAtStart: Number(r.pending_at_start),
    sentCount: Number(r.sent_count),
    maxEmails: r.max_emails == null ? null : Number(r.max_emails),
    created: iso(r.created)!,
    finished: iso(r.finished),
  };
}

/**
 * Whether the site has a translation tool (platform multilingual settings: connected, or languages configured),
 * the second condition of the restock payload's language.
 */
export function hasTranslationTool(settings: Record<string, unknown>): boolean {
  const m = (settings.multilingual ?? {}) as { connected?: unknown; languages?: unknown };
  return typeof m.connected === 'boolean' ? m.connected : Array.isArray(m.languages) && m.languages.length > 0;
}

/** Site settings of the website that owns a variant. */
async function siteOf(db: Db | Tx, websiteId: string): Promise<{ title: string; locale: string; settings: Record<string, unknown> }> {
  const r = await rows<{ title: string; locale: string; settings: Record<string, unknown> }>(
    db,
    sql`SELECT title, locale, settings FROM websites WHERE id = ${websiteId}`,
  );
  return r[0] ?? { title: '', locale: 'en-US', settings: {} };
}

/** A job row, written in the caller's transaction (what JobQueue.enqueue does, usable without the queue). */
async function enqueueSendJob(tx: Db | Tx, sendId: string, runAt = new Date()): Promise<void> {
  await tx.insert(schema.jobs).values({ kind: SEND_JOB, payload: { sendId }, runAt, maxAttempts: SEND_JOB_ATTEMPTS });
}

/**
 * Starts a send of a variant's waiting list, or joins the one already running. Runs in the caller's
 * transaction. Null when nothing is waiting.
 */
export async function startSend(
  tx: Db | Tx,
  info: VariantInfo,
  opts: { trigger: 'manual' | 'auto'; requestedBy?: string | null; origin?: string | null; settings: RestockSettings },
): Promise<{ send: SendRow; joined: boolean } | null> {
  const active = await rows<SendRow>(
    tx,
    sql`SELECT * FROM restock_sends WHERE variant_id = ${info.variant_id} AND status IN ('queued', 'running')`,
  );
  if (active[0]) return { send: active[0], joined: true };
  const pending = await rows<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM restock_sign_ups WHERE variant_id = ${info.variant_id} AND status = 'pending'`,
  );
  const n = Number(pending[0]?.n ?? 0);
  if (n === 0) return null;
  const maxEmails = opts.settings.limitToStock && !info.unlimited ? Math.max(0, Number(info.qty_in_stock)) : null;
  const id = newId();
  const inserted = await rows<SendRow>(
    tx,
    sql`INSERT INTO restock_sends (id, website_id, product_id, variant_id, trigger, requested_by, status, max_emails, pending_at_start, origin)
        VALUES (${id}, ${info.website_id}, ${info.product_id}, ${info.variant_id}, ${opts.trigger}, ${opts.requestedBy ?? null}, 'queued', ${maxEmails}, ${n}, ${opts.origin ?? null})
        ON CONFLICT DO NOTHING RETURNING *`,
  );
  if (!inserted[0]) {
    // Another transaction started one a moment ago.
    const again = await rows<SendRow>(
      tx,
      sql`SELECT * FROM restock_sends WHERE variant_id = ${info.variant_id} AND status IN ('queued', 'running')`,
    );
    return again[0] ? { send: again[0], joined: true } : null;
  }
  await enqueueSendJob(tx, id);
  return { send: inserted[0], joined: false };
}

/**
 * Call when a variant's stock changed, inside the transaction that changed it. When the variant went
 * from none to in stock and the owner lets sends start on their own, the waiting list is queued.
 * Returns the send (new or already running), or null.
 */
export async function onStockChanged(
  tx: Db | Tx,
  variantId: string,
  before: StockLevel,
  after: StockLevel,
  opts: { origin?: string | null; requestedBy?: string | null } = {},
): Promise<SendJson | null> {
  if (inStock(before) || !inStock(after)) return null;
  const r = await rows<{ item_id: string }>(tx, sql`SELECT item_id FROM product_variants WHERE id = ${variantId}`);
  if (!r[0]) return null;
  const info = await variantInfo(tx, r[0].item_id, variantId);
  if (!info || !tracksStock(info)) return null;
  const site = await siteOf(tx, info.website_id);
  const settings = restockSettingsOf(site.settings);
  if (!settings.autoSend) return null;
  const started = await startSend(
    tx,
    { ...info, qty_in_stock: after.qtyInStock, unlimited: after.unlimited },
    { trigger: 'auto', settings, ...opts },
  );
  return started ? sendJson({ ...started.send, title: info.title, attributes: info.attributes }) : null;
}

export class RestockService {
  constructor(
    private readonly database: Database,
    private readonly mailer: Mailer,
    private readonly jobs: JobQueue,
    private readonly log: FastifyBaseLogger | undefined,
    /** The origin of emailed links (app.emailOrigin); never a request's. */
    private readonly emailOrigin: EmailOrigin,
  ) {
    jobs.register(SEND_JOB, async (payload, job) => {
      try {
        await this.runBatch(String(payload.sendId));
      } catch (e) {
        if (job.attempts >= SEND_JOB_ATTEMPTS) {
          await this.database.db.execute(
            sql`UPDATE restock_sends SET status = 'failed', reason = 'error', finished = now(), updated = now() WHERE id = ${String(payload.sendId)} AND status IN ('queued', 'running')`,
          );
        }
        throw e;
      }
    });
  }

  private get db(): Db {
    return this.database.db;
  }

  /** Ask the workers to run now (after a commit that queued work). */
  kick(): void {
    this.jobs.kick();
  }

  // ---- Sign-ups -------------------------------------------------------------------------------------

  /** Signs a visitor up for a sold-out variant. Signing up twice for one variant keeps one sign-up. */
  async signUp(input: SignUpInput): Promise<{ id: string; created: boolean }> {
    return this.db.transaction(async (tx) => {
      const info = await variantInfo(tx, input.productId, input.variantId);
      if (!info) throw new HttpError(404, RESTOCK_TEXT.NOT_FOUND);
      if (!tracksStock(info)) throw badRequest(RESTOCK_TEXT.NOT_TRACKED);
      if (inStock({ qtyInStock: info.qty_in_stock, unlimited: info.unlimited })) throw badRequest(RESTOCK_TEXT.IN_STOCK);
      const site = await siteOf(tx, info.website_id);
      const settings = restockSettingsOf(site.settings);
      const email = input.email.trim();
      const key = email.toLowerCase();
      const join = settings.mailingListSignUpEnabled && input.isJoinMailingList === true;
      // The language is kept only when multilingual transactional emails are on and the site has a translation tool.
      const language = settings.multilingualEmails && hasTranslationTool(site.settings) ? (input.language ?? null) : null;
      const fresh = sortableId();
      const r = await rows<{ id: string; inserted: boolean }>(
        tx,
        sql`INSERT INTO restock_sign_ups (id, created, website_id, product_id, variant_id, email, email_key, is_join_mailing_list, language, status)
            VALUES (${fresh.id}, ${fresh.created}, ${info.website_id}, ${info.product_id}, ${info.variant_id}, ${email}, ${key}, ${join}, ${language}, 'pending')
            ON CONFLICT (variant_id, email_key) WHERE status = 'pending' DO UPDATE SET
              is_join_mailing_list = restock_sign_ups.is_join_mailing_list OR EXCLUDED.is_join_mailing_list,
              language = COALESCE(EXCLUDED.language, restock_sign_ups.language)
            RETURNING id, (xmax = 0) AS inserted`,
      );
      await tx.execute(sql`DELETE FROM restock_suppressions WHERE website_id = ${info.website_id} AND email_key = ${key}`);
      if (join) for (const hook of restockJoinHooks) await hook(tx, { database: this.database, websiteId: info.website_id, email });
      return { id: r[0]!.id, created: r[0]!.inserted === true };
    });
  }

  /** Products with sign-ups, oldest first, with their variants' counts and running sends. */
  async groups(websiteId: string, cursor: string | undefined, pageSize = 20): Promise<Page<'signUpGroups', SignUpGroupJson>> {
    const after = decodeCursor(cursor);
    const page = await rows<{ product_id: string; first_created: Date; title: string; url_id: string; c_url_id: string; c_type: number }>(
      this.db,
      sql`WITH g AS (SELECT product_id, min(created) AS first_created FROM restock_sign_ups WHERE website_id = ${websiteId} GROUP BY product_id)
          SELECT g.product_id, g.first_created, i.title, i.url_id, c.url_id AS c_url_id, c.type AS c_type
          FROM g JOIN items i ON i.id = g.product_id JOIN collections c ON c.id = i.collection_id
          ${after ? sql`WHERE (g.first_created, g.product_id) > (${after.created}, ${after.id})` : sql``}
          ORDER BY g.first_created, g.product_id LIMIT ${pageSize + 1}`,
    );
    const hasNextPage = page.length > pageSize;
    const shown = page.slice(0, pageSize);
    const ids = shown.map((p) => p.product_id);
    const variants = ids.length
      ? await rows<{
          id: string;
          item_id: string;
          sku: string;
          attributes: Record<string, string>;
          qty_in_stock: number;
          unlimited: boolean;
          pending: number;
          sent: number;
          unsub: number;
        }>(
          this.db,
          sql`SELECT v.id, v.item_id, v.sku, v.attributes, v.qty_in_stock, v.unlimited,
                count(*) FILTER (WHERE s.status = 'pending')::int AS pending,
                count(*) FILTER (WHERE s.status = 'sent')::int AS sent,
                count(*) FILTER (WHERE s.status = 'unsubscribed')::int AS unsub
              FROM product_variants v JOIN restock_sign_ups s ON s.variant_id = v.id
              WHERE v.item_id IN (${sql.join(
                ids.map((i) => sql`${i}`),
                sql`, `,
              )})
              GROUP BY v.id ORDER BY v.ordering, v.id`,
        )
      : [];
    const active = ids.length
      ? await rows<SendRow>(
          this.db,
          sql`SELECT * FROM restock_sends WHERE status IN ('queued', 'running') AND product_id IN (${sql.join(
            ids.map((i) => sql`${i}`),
            sql`, `,
          )})`,
        )
      : [];
    const items: SignUpGroupJson[] = shown.map((p) => {
      const vs = variants
        .filter((v) => v.item_id === p.product_id)
        .map((v): VariantGroupJson => {
          const a = active.find((s) => s.variant_id === v.id);
          return {
            variantId: v.id,
            sku: v.sku,
            attributes: v.attributes,
            variantText: variantText(v.attributes),
            qtyInStock: Number(v.qty_in_stock),
            unlimited: v.unlimited,
            inStock: inStock({ qtyInStock: v.qty_in_stock, unlimited: v.unlimited }),
            pendingCount: Number(v.pending),
            sentCount: Number(v.sent),
            unsubscribedCount: Number(v.unsub),
            activeSend: a ? sendJson({ ...a, title: p.title, attributes: v.attributes }) : null,
          };
        });
      return {
        productId: p.product_id,
        productTitle: p.title,
        productUrl: itemUrl({ urlId: p.c_url_id, type: p.c_type }, { urlId: p.url_id }),
        firstSignUp: iso(p.first_created)!,
        pendingCount: vs.reduce((s, v) => s + v.pendingCount, 0),
        variants: vs,
      };
    });
    const last = shown[shown.length - 1];
    return {
      key: 'signUpGroups',
      items,
      hasNextPage,
      nextPageCursor: hasNextPage && last ? encodeCursor({ created: new Date(last.first_created), id: last.product_id }) : null,
    };
  }

  /** The sign-ups of one variant in the order they came (pending ones unless `status` says otherwise). */
  async signUps(
    websiteId: string,
    q: { productId: string; variantId: string; cursor?: string; pageSize?: number; status?: 'pending' | 'sent' | 'unsubscribed' | 'all' },
  ): Promise<Page<'signUps', SignUpJson>> {
    const after: Keyset | undefined = decodeCursor(q.cursor);
    const pageSize = q.pageSize ?? 50;
    const status = q.status ?? 'pending';
    const r = await rows<{
      id: string;
      product_id: string;
      variant_id: string;
      email: string;
      is_join_mailing_list: boolean;
      language: string | null;
      status: string;
      created: Date;
      sent_at: Date | null;
    }>(
      this.db,
      sql`SELECT id, product_id, variant_id, email, is_join_mailing_list, language, status, created, sent_at FROM restock_sign_ups
          WHERE website_id = ${websiteId} AND product_id = ${q.productId} AND variant_id = ${q.variantId}
          ${status === 'all' ? sql`` : sql`AND status = ${status}`}
          ${after ? sql`AND (created, id) > (${after.created}, ${after.id})` : sql``}
          ORDER BY created, id LIMIT ${pageSize + 1}`,
    );
    const hasNextPage = r.length > pageSize;
    const shown = r.slice(0, pageSize);
    const last = shown[shown.length - 1];
    return {
      key: 'signUps',
      items: shown.map((s) => ({
        id: s.id,
        productId: s.product_id,
        variantId: s.variant_id,
        email: s.email,
        isJoinMailingList: s.is_join_mailing_list,
        language: s.language,
        status: s.status,
        created: iso(s.created)!,
        sentAt: iso(s.sent_at),
      })),
      hasNextPage,
      nextPageCursor: hasNextPage && last ? encodeCursor({ created: new Date(last.created), id: last.id }) : null,
    };
  }

  // ---- Sending --------------------------------------------------------------------------------------

  /**
   * Starts (or joins) sends for the given variants, in one transaction. An unknown product or variant is a
   * 404 and nothing starts. With `strict` (the single send call), an out-of-stock variant or an empty
   * waiting list is a 400; otherwise such requests are answered with their reason.
   */
  async requestSends(
    websiteId: string,
    requests: { productId: string; variantId: string }[],
    opts: { requestedBy: string; origin: string; strict: boolean },
  ): Promise<
    Array<{
      productId: string;
      variantId: string;
      result: 'started' | 'joined' | 'out-of-stock' | 'nothing-pending';
      send: SendJson | null;
    }>
  > {
    if (requests.length === 0) throw badRequest(RESTOCK_TEXT.NO_REQUESTS);
    const out = await this.db.transaction(async (tx) => {
      const site = await siteOf(tx, websiteId);
      const settings = restockSettingsOf(site.settings);
      const results: Array<{
        productId: string;
        variantId: string;
        result: 'started' | 'joined' | 'out-of-stock' | 'nothing-pending';
        send: SendJson | null;
      }> = [];
      const seen = new Set<string>();
      for (const req of requests) {
        if (seen.has(req.variantId)) continue;
        seen.add(req.variantId);
        const info = await variantInfo(tx, req.productId, req.variantId);
        if (!info || info.website_id !== websiteId) throw new HttpError(404, RESTOCK_TEXT.NOT_FOUND);
        if (!inStock({ qtyInStock: info.qty_in_stock, unlimited: info.unlimited })) {
          if (opts.strict) throw badRequest(RESTOCK_TEXT.OUT_OF_STOCK);
          results.push({ productId: req.productId, variantId: req.variantId, result: 'out-of-stock', send: null });
          continue;
        }
        const started = await startSend(tx, info, { trigger: 'manual', requestedBy: opts.requestedBy, origin: opts.origin, settings });
        if (!started) {
          if (opts.strict) throw badRequest(RESTOCK_TEXT.NOTHING_PENDING);
          results.push({ productId: req.productId, variantId: req.variantId, result: 'nothing-pending', send: null });
          continue;
        }
        results.push({
          productId: req.productId,
          variantId: req.variantId,
          result: started.joined ? 'joined' : 'started',
          send: sendJson({ ...started.send, title: info.title, attributes: info.attributes }),
        });
      }
      return results;
    });
    this.kick();
    return out;
  }

  /**
   * One batch of a send: checks the variant is still in stock, claims up to a batch of pending sign-ups,
   * writes their emails to the outbox, and queues the next batch after the owner's pause.
   */
  async runBatch(sendId: string): Promise<void> {
    // Read before the transaction: on PGlite a query outside an open transaction waits for it.
    const key = await unsubscribeKey(this.database);
    const outcome = await this.db.transaction(async (tx) => {
      const s = (await rows<SendRow>(tx, sql`SELECT * FROM restock_sends WHERE id = ${sendId} FOR UPDATE`))[0];
      if (!s || (s.status !== 'queued' && s.status !== 'running')) return { mailed: 0, next: false };
      const info = await variantInfo(tx, s.product_id, s.variant_id);
      const finish = async (status: string, reason: string | null) => {
        await tx.execute(
          sql`UPDATE restock_sends SET status = ${status}, reason = ${reason}, finished = now(), updated = now() WHERE id = ${sendId}`,
        );
      };
      if (!info || !inStock({ qtyInStock: info.qty_in_stock, unlimited: info.unlimited })) {
        await finish('stopped', 'out-of-stock');
        return { mailed: 0, next: false };
      }
      const site = await siteOf(tx, s.website_id);
      const settings = restockSettingsOf(site.settings);
      let n = settings.batchSize;
      if (s.max_emails != null) n = Math.min(n, Number(s.max_emails) - Number(s.sent_count));
      if (n <= 0) {
        await finish('done', 'limit');
        return { mailed: 0, next: false };
      }
      const claimed = await rows<{ id: string; email: string; language: string | null }>(
        tx,
        // The pick is materialized once (a subquery in IN may be planned to run again per row).
        sql`WITH picked AS MATERIALIZED (
              SELECT id FROM restock_sign_ups WHERE variant_id = ${s.variant_id} AND status = 'pending'
              ORDER BY created, id LIMIT ${n} FOR UPDATE SKIP LOCKED)
            UPDATE restock_sign_ups su SET status = 'sent', sent_at = now(), send_id = ${sendId}
            FROM picked WHERE su.id = picked.id AND su.status = 'pending'
            RETURNING su.id, su.email, su.language`,
      );
      if (claimed.length > 0) {
        const origin = await this.originFor(tx);
        const c = (
          await rows<{ url_id: string; type: number; item_url_id: string }>(
            tx,
            sql`SELECT c.url_id, c.type, i.url_id AS item_url_id FROM items i JOIN collections c ON c.id = i.collection_id WHERE i.id = ${s.product_id}`,
          )
        )[0];
        const productUrl = origin + (c ? itemUrl({ urlId: c.url_id, type: c.type }, { urlId: c.item_url_id }) : '/');
        const look = await emailLookFor(tx, s.website_id);
        await this.mailer.enqueue(
          tx,
          claimed.map((row): OutgoingMail & { headers: Record<string, string> } => {
            const unsubscribeUrl = `${origin}/restock/unsubscribe/${signUnsubscribeToken(key, row.id)}`;
            const mail = restockEmail({
              storeName: site.title,
              productTitle: info.title,
              variantText: variantText(info.attributes),
              productUrl,
              unsubscribeUrl,
              language: row.language ?? site.locale,
              look,
            });
            return {
              kind: MAIL_KIND,
              to: row.email,
              subject: mail.subject,
              text: mail.text,
              html: mail.html,
              ref: `restock:${row.id}`,
              // RFC 8058 one-click unsubscribe; carried by the mailer once its outbox keeps headers.
              headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
            };
          }),
        );
      }
      const sent = Number(s.sent_count) + claimed.length;
      await tx.execute(sql`UPDATE restock_sends SET status = 'running', sent_count = ${sent}, updated = now() WHERE id = ${sendId}`);
      const more =
        (
          await rows<{ more: boolean }>(
            tx,
            sql`SELECT EXISTS (SELECT 1 FROM restock_sign_ups WHERE variant_id = ${s.variant_id} AND status = 'pending') AS more`,
          )
        )[0]?.more === true;
      const capped = s.max_emails != null && sent >= Number(s.max_emails);
      if (!more || claimed.length === 0) {
        await finish('done', null);
        return { mailed: claimed.length, next: false };
      }
      if (capped) {
        await finish('done', 'limit');
        return { mailed: claimed.length, next: false };
      }
      await enqueueSendJob(tx, sendId, new Date(Date.now() + settings.batchDelaySeconds * 1000));
      return { mailed: claimed.length, next: settings.batchDelaySeconds === 0 };
    });
    if (outcome.mailed > 0) {
      this.log?.info({ sendId, mailed: outcome.mailed }, 'restock emails queued');
      this.mailer.kick();
    }
    if (outcome.next) this.jobs.kick();
  }

  /** Where the links of a send's emails point: the configured origin of emailed links (email-origin.ts). */
  private originFor(tx: Tx): Promise<string> {
    return this.emailOrigin(tx);
  }

  /** The history of sends, newest first. */
  async sends(websiteId: string, cursor: string | undefined, pageSize = 20): Promise<Page<'sends', SendJson>> {
    const before = decodeCursor(cursor);
    const r = await rows<SendRow>(
      this.db,
      sql`SELECT s.*, i.title, v.attributes FROM restock_sends s JOIN items i ON i.id = s.product_id JOIN product_variants v ON v.id = s.variant_id
          WHERE s.website_id = ${websiteId} ${before ? sql`AND (s.created, s.id) < (${before.created}, ${before.id})` : sql``}
          ORDER BY s.created DESC, s.id DESC LIMIT ${pageSize + 1}`,
    );
    const hasNextPage = r.length > pageSize;
    const shown = r.slice(0, pageSize);
    const last = shown[shown.length - 1];
    return {
      key: 'sends',
      items: shown.map(sendJson),
      hasNextPage,
      nextPageCursor: hasNextPage && last ? encodeCursor({ created: new Date(last.created), id: last.id }) : null,
    };
  }

  // ---- Stock ----------------------------------------------------------------------------------------

  /** Sets a variant's stock (the owner's restock) and starts the automatic send when it came back. */
  async setStock(
    websiteId: string,
    variantId: string,
    patch: { qtyInStock?: number; unlimited?: boolean },
    opts: { requestedBy: string; origin: string },
  ): Promise<{
    variant: { id: string; productId: string; sku: string; qtyInStock: number; unlimited: boolean };
    restockSend: SendJson | null;
  }> {
    const out = await this.db.transaction(async (tx) => {
      const r = await rows<{ id: string; item_id: string; sku: string; qty_in_stock: number; unlimited: boolean; website_id: string }>(
        tx,
        sql`SELECT v.id, v.item_id, v.sku, v.qty_in_stock, v.unlimited, i.website_id FROM product_variants v JOIN items i ON i.id = v.item_id
            WHERE v.id = ${variantId} FOR UPDATE OF v`,
      );
      const v = r[0];
      if (!v || v.website_id !== websiteId) throw new HttpError(404, RESTOCK_TEXT.NOT_FOUND);
      const before = { qtyInStock: Number(v.qty_in_stock), unlimited: v.unlimited };
      const after = { qtyInStock: patch.qtyInStock ?? before.qtyInStock, unlimited: patch.unlimited ?? before.unlimited };
      await tx.execute(sql`select set_config('tessera.stock_reason', 'manual', true)`);
      await tx.execute(
        sql`UPDATE product_variants SET qty_in_stock = ${after.qtyInStock}, unlimited = ${after.unlimited} WHERE id = ${variantId}`,
      );
      const restockSend = await onStockChanged(tx, variantId, before, after, opts);
      return { variant: { id: v.id, productId: v.item_id, sku: v.sku, ...after }, restockSend };
    });
    if (out.restockSend) this.kick();
    return out;
  }

  // ---- Unsubscribe ----------------------------------------------------------------------------------

  /** The sign-up a token names (for the confirm page), or null when the token is not valid. */
  async unsubscribeTarget(
    token: string,
  ): Promise<{ id: string; email: string; productTitle: string; storeName: string; status: string } | null> {
    const id = verifyUnsubscribeToken(await unsubscribeKey(this.database), token);
    if (!id) return null;
    const r = await rows<{ id: string; email: string; title: string; store: string; status: string }>(
      this.db,
      sql`SELECT s.id, s.email, i.title, w.title AS store, s.status FROM restock_sign_ups s JOIN items i ON i.id = s.product_id JOIN websites w ON w.id = s.website_id WHERE s.id = ${id}`,
    );
    const s = r[0];
    return s ? { id: s.id, email: s.email, productTitle: s.title, storeName: s.store, status: s.status } : null;
  }

  /**
   * Unsubscribes the address of the sign-up a token names: every sign-up of that address still waiting
   * is withdrawn, the mailing-list opt-in is cleared, and the address is recorded as unsubscribed.
   * Idempotent. Null when the token is not valid.
   */
  async unsubscribe(token: string): Promise<{ email: string; withdrawn: number } | null> {
    const id = verifyUnsubscribeToken(await unsubscribeKey(this.database), token);
    if (!id) return null;
    return this.db.transaction(async (tx) => {
      const r = await rows<{ website_id: string; email: string; email_key: string }>(
        tx,
        sql`SELECT website_id, email, email_key FROM restock_sign_ups WHERE id = ${id}`,
      );
      const s = r[0];
      if (!s) return null;
      const w = await rows<{ id: string }>(
        tx,
        sql`UPDATE restock_sign_ups SET status = 'unsubscribed', unsubscribed_at = now(), is_join_mailing_list = false
            WHERE website_id = ${s.website_id} AND email_key = ${s.email_key} AND status = 'pending' RETURNING id`,
      );
      await tx.execute(
        sql`UPDATE restock_sign_ups SET is_join_mailing_list = false, unsubscribed_at = COALESCE(unsubscribed_at, now()) WHERE website_id = ${s.website_id} AND email_key = ${s.email_key}`,
      );
      await tx.execute(
        sql`INSERT INTO restock_suppressions (website_id, email_key) VALUES (${s.website_id}, ${s.email_key}) ON CONFLICT DO NOTHING`,
      );
      return { email: s.email, withdrawn: w.length };
    });
  }
}
