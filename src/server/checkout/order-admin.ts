/**
 * The owner's order desk (issue 24): the searchable, filterable orders list and its CSV export; one order's
 * detail with per-line fulfilled and refunded quantities and a timeline; fulfilments of some or all lines with
 * a carrier and tracking number (a shipping email to the customer); refunds of chosen lines or an amount, with
 * or without restocking, through the payment provider; order notes.
 *
 * Statuses. `orders.status` keeps its meaning for the rest of the app ('paid' | 'fulfilled' | 'partially_refunded'
 * | 'refunded'); `fulfilment_status` is 'unfulfilled' | 'partial' | 'fulfilled'; the payment status shown to the
 * owner is paid / partially_refunded / refunded from `refunded_cents`.
 *
 * A refund is two short transactions around the provider call (the provider may write to the same database, so
 * it is never called inside one): the first locks the order, checks the request against what is left and
 * reserves the amount as a 'pending' refund row; the second, after the provider said yes, restocks, moves the
 * status and queues the email. If the provider refuses, the reservation is taken back.
 */
import { formatAddress } from '../site-page/index.js';
import type {
  FulfilRequest,
  LineRequest,
  OrderFulfilmentView,
  OrderLineView,
  OrderNoteView,
  OrderQuery,
  RefundRequest,
} from '../../core/api/orders.js';
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Db, Tx } from '../../db/index.js';
import { newId } from '../../db/ids.js';
import { rows } from '../db-util.js';
import { HttpError, badRequest, conflict, notFound } from '../errors.js';
import type { Mailer } from '../mail/index.js';
import type { PaymentProviders } from '../payments/index.js';
import { ProductType } from '../../core/enums.js';
import { formatMoney } from '../../core/money.js';
import { orderFulfilledHooks } from './order-hooks.js';
import { orderFrom, type CheckoutService } from './service.js';
import { OrderStatus, PaymentStatus, paymentStatusOf, type OrderRow } from '../../core/orders.js';

type Obj = Record<string, unknown>;
const n = (v: unknown) => Number(v ?? 0);
const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);

export const orderAdminMessages = {
  NOT_FOUND: 'That order does not exist.',
  ALREADY_FULFILLED: 'This order is already fulfilled.',
  REFUNDED_NOT_FULFILLABLE: 'A refunded order cannot be fulfilled.',
  ALREADY_REFUNDED: 'This order is already refunded.',
  UNKNOWN_LINE: 'That line is not part of this order.',
  FULFIL_TOO_MANY: 'You cannot fulfil more than the quantity left to fulfil on a line.',
  REFUND_TOO_MANY: 'You cannot refund more than the quantity left to refund on a line.',
  REFUND_TOO_MUCH: 'The refund is more than the amount left to refund on this order.',
  REFUND_NOTHING: 'Choose the lines to refund or enter an amount.',
  DUPLICATE_LINE: 'Each line can appear only once.',
  PROVIDER_REFUSED: 'The payment provider did not make the refund. Nothing was changed; try again.',
};

// ---- Carriers ----------------------------------------------------------------------------------------

/** Tracking pages of common carriers; {n} is the URL-encoded tracking number. Others get the number alone. */
export const CARRIERS: ReadonlyArray<{ id: string; name: string; url: string }> = [
  { id: 'ups', name: 'UPS', url: 'https://www.ups.com/track?tracknum={n}' },
  { id: 'usps', name: 'USPS', url: 'https://tools.usps.com/go/TrackConfirmAction?tLabels={n}' },
  { id: 'fedex', name: 'FedEx', url: 'https://www.fedex.com/fedextrack/?trknbr={n}' },
  { id: 'dhl', name: 'DHL Express', url: 'https://www.dhl.com/global-en/home/tracking/tracking-express.html?tracking-id={n}' },
  { id: 'royal-mail', name: 'Royal Mail', url: 'https://www.royalmail.com/track-your-item#/tracking-results/{n}' },
  { id: 'canada-post', name: 'Canada Post', url: 'https://www.canadapost-postescanada.ca/track-reperage/en#/search?searchFor={n}' },
  { id: 'australia-post', name: 'Australia Post', url: 'https://auspost.com.au/mypost/track/details/{n}' },
  { id: 'dpd', name: 'DPD', url: 'https://track.dpd.co.uk/parcels/{n}' },
];

/** The carrier's tracking page for a number, or '' for another carrier or no number. */
export function trackingUrl(carrier: string, trackingNumber: string): string {
  const c = CARRIERS.find((x) => x.id === carrier || x.name.toLowerCase() === carrier.trim().toLowerCase());
  return c && trackingNumber ? c.url.replace('{n}', encodeURIComponent(trackingNumber)) : '';
}

export function carrierName(carrier: string): string {
  return CARRIERS.find((x) => x.id === carrier)?.name ?? carrier;
}

// ---- List and export ------------------------------------------------------------------------------

export type { OrderQuery };

/** A search term as a LIKE pattern matched literally (no wildcards from the owner's text). */
const likeOf = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function whereOf(websiteId: string, timeZone: string, q: Omit<OrderQuery, 'sort' | 'dir' | 'page' | 'pageSize'>): SQL {
  const parts: SQL[] = [sql`website_id = ${websiteId}`, sql`status <> 'pending'`];
  const term = q.q?.trim();
  if (term) {
    const num = /^#?\d{1,9}$/.test(term) ? Number(term.replace('#', '')) : null;
    const like = likeOf(term.toLowerCase());
    parts.push(
      sql`(${num !== null ? sql`order_number = ${num} or ` : sql``}lower(email) like ${like} or lower(coalesce(shipping_address ->> 'name', '')) like ${like})`,
    );
  }
  if (q.payment === 'refunded') parts.push(sql`status = 'refunded'`);
  else if (q.payment === PaymentStatus.PARTIALLY_REFUNDED) parts.push(sql`status <> 'refunded' and refunded_cents > 0`);
  else if (q.payment === 'paid') parts.push(sql`status <> 'refunded' and refunded_cents = 0`);
  if (q.fulfilment) parts.push(sql`fulfilment_status = ${q.fulfilment}`);
  if (q.from) parts.push(sql`(created at time zone ${timeZone})::date >= ${q.from}::date`);
  if (q.to) parts.push(sql`(created at time zone ${timeZone})::date <= ${q.to}::date`);
  return sql.join(parts, sql` and `);
}

function orderByOf(q: Pick<OrderQuery, 'sort' | 'dir'>): SQL {
  const dir = q.dir === 'asc' ? sql`asc` : sql`desc`;
  switch (q.sort) {
    case 'total':
      return sql`grand_total_cents ${dir}, order_number ${dir}`;
    case 'customer':
      return sql`lower(email) ${dir}, order_number desc`;
    case 'date':
      return sql`created ${dir}, order_number ${dir}`;
    default:
      return sql`order_number ${dir}`;
  }
}

/** The most rows one CSV export holds. */
export const EXPORT_MAX_ROWS = 50_000;

// ---- Detail ---------------------------------------------------------------------------------------

/** A line of an order with what has been fulfilled and refunded of it. */
export type LineState = OrderLineView & { productType: number };

export interface TimelineEvent {
  at: string;
  kind: 'placed' | 'paid' | 'fulfilled' | 'refund' | 'email' | 'note';
  text: string;
  detail?: string;
}

export interface OrderDetail {
  order: OrderRow;
  lines: LineState[];
  fulfilments: OrderFulfilmentView[];
  refunds: Array<{
    id: string;
    state: string;
    amountCents: number;
    restock: boolean;
    reason: string;
    lines: Array<{ line: number; quantity: number }>;
    created: string;
  }>;
  notes: OrderNoteView[];
  emails: Array<{ id: number; kind: string; to: string; subject: string; status: string; created: string }>;
  timeline: TimelineEvent[];
  paymentStatus: string;
  refundableCents: number;
}

export type { FulfilRequest, LineRequest, RefundRequest };

export interface MailContext {
  origin: string;
  siteTitle: string;
  /** The site's locale: the shipping address is printed as its country writes it, named in this language. */
  locale?: string;
}

export class OrderAdmin {
  constructor(
    private readonly database: Database,
    private readonly checkout: CheckoutService,
    private readonly providers: PaymentProviders,
    private readonly mailer: Mailer,
  ) {}

  private get db(): Db {
    return this.database.db;
  }

  async list(websiteId: string, timeZone: string, q: OrderQuery): Promise<{ orders: OrderRow[]; total: number }> {
    const where = whereOf(websiteId, timeZone, q);
    const [count] = await rows<{ c: number | string }>(this.db, sql`select count(*) as c from orders where ${where}`);
    const r = await rows<Obj>(
      this.db,
      sql`select * from orders where ${where} order by ${orderByOf(q)} limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`,
    );
    return { orders: r.map(orderFrom), total: n(count?.c) };
  }

  /** Every order the filters match, in the list's order, for the CSV export (at most EXPORT_MAX_ROWS). */
  async exportRows(websiteId: string, timeZone: string, q: Omit<OrderQuery, 'page' | 'pageSize'>): Promise<OrderRow[]> {
    const r = await rows<Obj>(
      this.db,
      sql`select * from orders where ${whereOf(websiteId, timeZone, q)} order by ${orderByOf(q)} limit ${EXPORT_MAX_ROWS}`,
    );
    return r.map(orderFrom);
  }

  private async orderOf(db: Db | Tx, websiteId: string, orderId: string, lock = false): Promise<OrderRow> {
    const r = await rows<Obj>(
      db,
      sql`select * from orders where id = ${orderId} and website_id = ${websiteId} and status <> 'pending' ${lock ? sql`for update` : sql``}`,
    );
    if (!r[0]) throw notFound(orderAdminMessages.NOT_FOUND);
    return orderFrom(r[0]);
  }

  private async lineStates(db: Db | Tx, o: OrderRow): Promise<LineState[]> {
    const ful = await rows<{ line: number; q: number | string }>(
      db,
      sql`select line, sum(quantity) as q from order_fulfilment_lines where order_id = ${o.id} group by line`,
    );
    const refs = await rows<{ lines: unknown }>(db, sql`select lines from order_refunds where order_id = ${o.id}`);
    const refunded = new Map<number, number>();
    for (const r of refs) {
      const list = (typeof r.lines === 'string' ? JSON.parse(r.lines) : r.lines) as LineRequest[];
      for (const l of list ?? []) refunded.set(l.line, (refunded.get(l.line) ?? 0) + n(l.quantity));
    }
    // A whole-order refund made before per-line refunds existed refunded every line.
    const legacyFull = o.status === 'refunded' && refs.length === 0;
    return o.items.map((i, line) => ({
      line,
      sku: String(i.sku ?? ''),
      productName: String(i.productName ?? ''),
      quantity: n(i.quantity),
      unitPriceCents: n(i.unitPriceCents),
      attributes: (i.attributes as Record<string, string> | undefined) ?? {},
      productType: n(i.productType),
      fulfilled: n(ful.find((f) => n(f.line) === line)?.q),
      refunded: legacyFull ? n(i.quantity) : (refunded.get(line) ?? 0),
    }));
  }

  async detail(websiteId: string, orderId: string): Promise<OrderDetail> {
    const o = await this.orderOf(this.db, websiteId, orderId);
    const lines = await this.lineStates(this.db, o);
    const fRows = await rows<Obj>(this.db, sql`select * from order_fulfilments where order_id = ${o.id} order by created, id`);
    const flRows = await rows<Obj>(
      this.db,
      sql`select fulfilment_id, line, quantity from order_fulfilment_lines where order_id = ${o.id} order by line`,
    );
    const rRows = await rows<Obj>(this.db, sql`select * from order_refunds where order_id = ${o.id} order by created, id`);
    const nRows = await rows<Obj>(this.db, sql`select * from order_notes where order_id = ${o.id} order by created, id`);
    const eRows = await rows<Obj>(
      this.db,
      sql`select id, kind, to_address, subject, status, created_at from mail_outbox where ref = ${o.id} order by created_at, id`,
    );
    const fulfilments = fRows.map((f) => ({
      id: String(f.id),
      carrier: carrierName(String(f.carrier)),
      trackingNumber: String(f.tracking_number),
      trackingUrl: String(f.tracking_url),
      created: iso(f.created)!,
      lines: flRows.filter((l) => l.fulfilment_id === f.id).map((l) => ({ line: n(l.line), quantity: n(l.quantity) })),
    }));
    const refunds = rRows.map((r) => ({
      id: String(r.id),
      state: String(r.state),
      amountCents: n(r.amount_cents),
      restock: r.restock === true,
      reason: String(r.reason),
      lines: ((typeof r.lines === 'string' ? JSON.parse(r.lines) : r.lines) as LineRequest[]) ?? [],
      created: iso(r.created)!,
    }));
    const notes = nRows.map((x) => ({ id: String(x.id), author: String(x.author), body: String(x.body), created: iso(x.created)! }));
    const emails = eRows.map((e) => ({
      id: n(e.id),
      kind: String(e.kind),
      to: String(e.to_address),
      subject: String(e.subject),
      status: String(e.status),
      created: iso(e.created_at)!,
    }));

    const money = (c: number) => formatMoney(c, o.currency);
    const created = o.created.toISOString();
    const pay = o.payment ?? {};
    const timeline: TimelineEvent[] = [
      { at: created, kind: 'placed', text: `Order placed by ${o.email || 'a customer'}` },
      {
        at: created,
        kind: 'paid',
        text: `Payment of ${money(o.grandTotalCents)} received`,
        detail:
          typeof pay.last4 === 'string'
            ? `${String(pay.brand ?? 'Card')} ending in ${pay.last4}${o.testMode ? ' (test mode)' : ''}`
            : o.giftCardCents > 0
              ? 'Paid by gift card'
              : undefined,
      },
    ];
    const nameOf = (l: { line: number; quantity: number }) => `${l.quantity} × ${lines[l.line]?.productName ?? 'item'}`;
    for (const f of fulfilments) {
      timeline.push({
        at: f.created,
        kind: 'fulfilled',
        text: `Fulfilled ${f.lines.map(nameOf).join(', ')}`,
        detail: f.trackingNumber ? `${f.carrier ? `${f.carrier} ` : ''}tracking ${f.trackingNumber}` : f.carrier || undefined,
      });
    }
    if (fulfilments.length === 0 && o.fulfilledAt)
      timeline.push({ at: o.fulfilledAt.toISOString(), kind: 'fulfilled', text: 'Marked fulfilled' });
    for (const r of refunds) {
      const what = r.lines.length ? ` for ${r.lines.map(nameOf).join(', ')}` : '';
      timeline.push({
        at: r.created,
        kind: 'refund',
        text: `${r.state === 'pending' ? 'Refund pending' : 'Refunded'} ${money(r.amountCents)}${what}`,
        detail:
          [r.restock && r.lines.length ? 'Items restocked' : '', r.reason ? `Reason: ${r.reason}` : ''].filter(Boolean).join('. ') ||
          undefined,
      });
    }
    if (refunds.length === 0 && o.refundedAt)
      timeline.push({ at: o.refundedAt.toISOString(), kind: 'refund', text: `Refunded ${money(o.grandTotalCents)}` });
    for (const e of emails)
      timeline.push({
        at: e.created,
        kind: 'email',
        text: `Email sent to ${e.to}: “${e.subject}”`,
        detail: e.status === 'local' ? 'Kept in the outbox (no SMTP relay)' : e.status === 'failed' ? 'Delivery failed' : undefined,
      });
    for (const x of notes) timeline.push({ at: x.created, kind: 'note', text: x.body, detail: x.author ? `Note by ${x.author}` : 'Note' });
    const rank: Record<TimelineEvent['kind'], number> = { placed: 0, paid: 1, fulfilled: 2, refund: 3, email: 4, note: 5 };
    timeline.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : rank[b.kind] - rank[a.kind]));

    return {
      order: o,
      lines,
      fulfilments,
      refunds,
      notes,
      emails,
      timeline,
      paymentStatus: paymentStatusOf(o),
      refundableCents: o.status === 'refunded' ? 0 : Math.max(0, o.grandTotalCents - o.refundedCents),
    };
  }

  /** Checks a list of {line, quantity} against the order: known lines, once each, whole quantities within `left`. */
  private checkLines(lines: LineRequest[], states: LineState[], left: (s: LineState) => number, tooMany: string): void {
    const seen = new Set<number>();
    lines.forEach((l, i) => {
      const s = states[l.line];
      if (!s) throw badRequest(orderAdminMessages.UNKNOWN_LINE, { [`lines.${i}.line`]: orderAdminMessages.UNKNOWN_LINE });
      if (seen.has(l.line)) throw badRequest(orderAdminMessages.DUPLICATE_LINE, { [`lines.${i}.line`]: orderAdminMessages.DUPLICATE_LINE });
      seen.add(l.line);
      if (l.quantity > left(s)) throw badRequest(tooMany, { [`lines.${i}.quantity`]: tooMany });
    });
  }

  async fulfil(websiteId: string, orderId: string, req: FulfilRequest, mail: MailContext): Promise<OrderDetail> {
    await this.db.transaction(async (tx) => {
      const o = await this.orderOf(tx, websiteId, orderId, true);
      if (o.status === 'refunded') throw conflict(orderAdminMessages.REFUNDED_NOT_FULFILLABLE);
      const states = await this.lineStates(tx, o);
      const left = (s: LineState) => Math.max(0, s.quantity - s.fulfilled - s.refunded);
      if (states.every((s) => left(s) === 0)) throw conflict(orderAdminMessages.ALREADY_FULFILLED);
      const wanted = (req.lines ?? states.map((s) => ({ line: s.line, quantity: left(s) }))).filter((l) => l.quantity > 0);
      this.checkLines(wanted, states, left, orderAdminMessages.FULFIL_TOO_MANY);
      if (wanted.length === 0) throw badRequest('Choose at least one item to fulfil.', { lines: 'Choose at least one item to fulfil.' });
      const id = newId();
      const carrier = req.carrier.trim();
      const number = req.trackingNumber.trim();
      const url = trackingUrl(carrier, number);
      await tx.execute(sql`insert into order_fulfilments (id, order_id, website_id, carrier, tracking_number, tracking_url, notify)
        values (${id}, ${o.id}, ${websiteId}, ${carrier}, ${number}, ${url}, ${req.notify})`);
      for (const l of wanted)
        await tx.execute(
          sql`insert into order_fulfilment_lines (fulfilment_id, order_id, line, quantity) values (${id}, ${o.id}, ${l.line}, ${l.quantity})`,
        );
      const done = states.every((s) => left(s) - (wanted.find((w) => w.line === s.line)?.quantity ?? 0) === 0);
      const r = await rows<Obj>(
        tx,
        sql`update orders set fulfilment_status = ${done ? 'fulfilled' : 'partial'},
          status = case when ${done} and status = 'paid' then 'fulfilled' else status end,
          fulfilled_at = case when ${done} then now() else fulfilled_at end
          where id = ${o.id} returning *`,
      );
      const updated = orderFrom(r[0]!);
      if (done) for (const hook of orderFulfilledHooks) await hook(tx, updated);
      if (req.notify && o.email) await this.mailer.enqueue(tx, this.shippingEmail(updated, states, wanted, carrier, number, url, mail));
    });
    this.mailer.kick();
    return this.detail(websiteId, orderId);
  }

  shippingEmail(o: OrderRow, states: LineState[], lines: LineRequest[], carrier: string, number: string, url: string, mail: MailContext) {
    const all = lines.reduce((s, l) => s + l.quantity, 0) === states.reduce((s, x) => s + x.quantity, 0);
    const text = [
      `Good news: ${all ? 'your order' : 'part of your order'} #${o.orderNumber} from ${mail.siteTitle} is on its way.`,
      '',
      ...lines.map((l) => `${l.quantity} x ${states[l.line]!.productName} (${states[l.line]!.sku})`),
      '',
    ];
    if (number) {
      text.push(`Carrier: ${carrierName(carrier) || 'not given'}`, `Tracking number: ${number}`);
      if (url) text.push(`Track your parcel: ${url}`);
    } else if (carrier) text.push(`Carrier: ${carrierName(carrier)}`);
    const shipTo = formatAddress(o.shippingAddress, mail.locale ?? 'en');
    if (shipTo.length) text.push('', 'Shipping to:', ...shipTo);
    text.push('', `Order status: ${mail.origin}${this.checkout.statusPath(o.id)}`);
    return {
      kind: 'order-shipped',
      to: o.email,
      subject: `Your order #${o.orderNumber} from ${mail.siteTitle} has shipped`,
      text: text.join('\n'),
      ref: o.id,
    };
  }

  refundEmail(o: OrderRow, states: LineState[], lines: LineRequest[], amountCents: number, mail: MailContext) {
    const money = (c: number) => formatMoney(c, o.currency);
    const text = [`We have refunded ${money(amountCents)} on your order #${o.orderNumber} from ${mail.siteTitle}.`, ''];
    if (lines.length) text.push(...lines.map((l) => `${l.quantity} x ${states[l.line]!.productName} (${states[l.line]!.sku})`), '');
    text.push('The money goes back to the way you paid; your bank may take a few days to show it.');
    if (o.testMode) text.push('', 'This was a test-mode order: no money was moved.');
    text.push('', `Order status: ${mail.origin}${this.checkout.statusPath(o.id)}`);
    return {
      kind: 'order-refund',
      to: o.email,
      subject: `Refund for your order #${o.orderNumber} from ${mail.siteTitle}`,
      text: text.join('\n'),
      ref: o.id,
    };
  }

  /**
   * Refunds chosen lines (amount from their prices unless given) or an amount; with no lines and no amount, everything
   * left (the whole order, restocked). Money goes back through the order's payment provider first, then to the gift
   * card that paid part of it.
   */
  async refund(websiteId: string, orderId: string, req: RefundRequest, mail: MailContext): Promise<OrderDetail> {
    // 1. Reserve: lock the order, check the request against what is left, record a pending refund.
    const plan = await this.db.transaction(async (tx) => {
      const o = await this.orderOf(tx, websiteId, orderId, true);
      if (o.status === 'refunded') throw conflict(orderAdminMessages.ALREADY_REFUNDED);
      const states = await this.lineStates(tx, o);
      const lineLeft = (s: LineState) => Math.max(0, s.quantity - s.refunded);
      const refundable = Math.max(0, o.grandTotalCents - o.refundedCents);
      const whole = !req.lines?.length && req.amountCents === undefined;
      const lines = (whole ? states.map((s) => ({ line: s.line, quantity: lineLeft(s) })) : (req.lines ?? [])).filter(
        (l) => l.quantity > 0,
      );
      this.checkLines(lines, states, lineLeft, orderAdminMessages.REFUND_TOO_MANY);
      const fromLines = lines.reduce((s, l) => s + states[l.line]!.unitPriceCents * l.quantity, 0);
      const amount = whole ? refundable : (req.amountCents ?? Math.min(fromLines, refundable));
      if (amount > refundable) {
        const m = `${orderAdminMessages.REFUND_TOO_MUCH} At most ${formatMoney(refundable, o.currency)} can be refunded.`;
        throw badRequest(m, { amountCents: m });
      }
      if (amount <= 0 && lines.length === 0)
        throw badRequest(orderAdminMessages.REFUND_NOTHING, { amountCents: orderAdminMessages.REFUND_NOTHING });
      // What the provider holds for this order, less what earlier refunds took from it; the rest was a gift card.
      const pay = o.payment ?? {};
      const charged = typeof pay.amountCents === 'number' ? pay.amountCents : Math.max(0, o.grandTotalCents - o.giftCardCents);
      const [prev] = await rows<{ p: number | string }>(
        tx,
        sql`select coalesce(sum(provider_cents), 0) as p from order_refunds where order_id = ${o.id}`,
      );
      const providerLeft = typeof pay.paymentId === 'string' ? Math.max(0, charged - n(prev?.p)) : 0;
      const providerCents = Math.min(amount, providerLeft);
      const giftCardCents = o.giftCardId ? Math.min(amount - providerCents, o.giftCardCents) : 0;
      const id = newId();
      await tx.execute(sql`insert into order_refunds (id, order_id, website_id, state, amount_cents, provider_cents, gift_card_cents, restock, reason, lines, currency)
        values (${id}, ${o.id}, ${websiteId}, 'pending', ${amount}, ${providerCents}, ${giftCardCents}, ${req.restock}, ${req.reason.trim()}, ${JSON.stringify(lines)}::jsonb, ${o.currency})`);
      await tx.execute(sql`update orders set refunded_cents = refunded_cents + ${amount} where id = ${o.id}`);
      return { id, order: o, lines, amount, providerCents, giftCardCents };
    });

    // 2. The provider gives the money back (outside any transaction: it may use the same database).
    const pay = plan.order.payment ?? {};
    const provider = typeof pay.provider === 'string' ? this.providers.get(pay.provider) : undefined;
    if (plan.providerCents > 0 && provider && typeof pay.paymentId === 'string') {
      try {
        await provider.refund(pay.paymentId, plan.providerCents);
      } catch (err) {
        await this.db.transaction(async (tx) => {
          const gone = await rows(tx, sql`delete from order_refunds where id = ${plan.id} and state = 'pending' returning id`);
          if (gone.length)
            await tx.execute(
              sql`update orders set refunded_cents = greatest(0, refunded_cents - ${plan.amount}) where id = ${plan.order.id}`,
            );
        });
        throw new HttpError(502, orderAdminMessages.PROVIDER_REFUSED, undefined, {
          provider: provider.name,
          reason: err instanceof Error ? err.message.slice(0, 200) : '',
        });
      }
    }

    // 3. Settle: stock, gift card, status, email.
    const stopped: Array<{ provider: string; id: string }> = [];
    await this.db.transaction(async (tx) => {
      const o = await this.orderOf(tx, websiteId, orderId, true);
      const [ref] = await rows<Obj>(
        tx,
        sql`update order_refunds set state = 'done' where id = ${plan.id} and state = 'pending' returning restock`,
      );
      if (!ref) return;
      const states = await this.lineStates(tx, o);
      if (ref.restock === true) {
        const back = new Map<string, number>();
        for (const l of plan.lines) {
          const item = o.items[l.line]!;
          const type = n(item.productType);
          if ((type === ProductType.PHYSICAL || type === ProductType.SERVICE) && item.variantId)
            back.set(String(item.variantId), (back.get(String(item.variantId)) ?? 0) + l.quantity);
        }
        for (const [variantId, qty] of [...back].sort(([a], [b]) => (a < b ? -1 : 1))) {
          await tx.execute(sql`update product_variants set qty_in_stock = qty_in_stock + ${qty} where id = ${variantId} and not unlimited`);
        }
      }
      if (plan.giftCardCents > 0 && o.giftCardId)
        await tx.execute(sql`update gift_cards set balance_cents = balance_cents + ${plan.giftCardCents} where id = ${o.giftCardId}`);
      // Refunded in full once all the money is back (an order that cost nothing: once every line is refunded).
      const full = o.refundedCents >= o.grandTotalCents && (o.grandTotalCents > 0 || states.every((s) => s.refunded >= s.quantity));
      if (full) {
        for (const code of [...o.coupons].sort())
          await tx.execute(
            sql`update coupons set times_used = greatest(0, times_used - 1) where website_id = ${websiteId} and code = ${code}`,
          );
        await tx.execute(sql`update gift_cards set disabled = true, balance_cents = 0 where order_id = ${o.id}`);
        // A subscription its provider bills (Stripe Billing) is cancelled there too, after the commit.
        const billed = await rows<{ provider: string; provider_subscription_id: string | null }>(
          tx,
          sql`select provider, provider_subscription_id from subscriptions where order_id = ${o.id} and status in ('active', 'past_due')`,
        );
        for (const b of billed) if (b.provider_subscription_id) stopped.push({ provider: b.provider, id: b.provider_subscription_id });
        await tx.execute(
          sql`update subscriptions set status = 'canceled', canceled_at = coalesce(canceled_at, now()) where order_id = ${o.id}`,
        );
      }
      await tx.execute(
        sql`update orders set status = ${full ? OrderStatus.REFUNDED : OrderStatus.PARTIALLY_REFUNDED}, refunded_at = now() where id = ${o.id}`,
      );
      if (req.notify && o.email) await this.mailer.enqueue(tx, this.refundEmail(o, states, plan.lines, plan.amount, mail));
    });
    this.mailer.kick();
    for (const b of stopped) {
      // Recorded as cancelled already; a provider that cannot be reached now still bills it, and its next
      // renewal is recorded as an order the owner can refund (the cancel can be repeated from Stripe's dashboard).
      await this.checkout.subscriptionCancelers
        .get(b.provider)?.(b.id)
        .catch(() => undefined);
    }
    return this.detail(websiteId, orderId);
  }

  async addNote(websiteId: string, orderId: string, author: string, body: string): Promise<OrderDetail> {
    const o = await this.orderOf(this.db, websiteId, orderId);
    await this.db.execute(
      sql`insert into order_notes (id, order_id, website_id, author, body) values (${newId()}, ${o.id}, ${websiteId}, ${author}, ${body})`,
    );
    return this.detail(websiteId, orderId);
  }
}
