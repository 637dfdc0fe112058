/**
 * The owner's notifications (issue 23): an email to the site's contact address (else its first admin) when an
 * order is placed, when a form is submitted, and when an order takes a variant down to the low-stock level. Each
 * is switched in /config (website settings.ownerNotifications; all on by default) and goes through the outbox,
 * queued in the transaction that caused it. Form submissions keep their own mail (server/forms: per-form address
 * and switch); the site-wide switch here can silence them all.
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/index.js';
import { rows } from '../db-util.js';
import { formatMoney } from '../../core/money.js';
import { Role } from '../../core/enums.js';
import type { OrderRow } from '../../core/orders.js';
import type { OutgoingMail } from '../mail/index.js';
import { LOW_STOCK_AT } from './owner-home.js';
import { escapeHtml } from '../../core/html.js';
import { formatAddress } from '../site-page/index.js';

import { OWNER_NOTIFICATIONS, ownerNotificationsSchema, type OwnerNotificationKey, type OwnerNotifications } from '../../core/api/email.js';
export { OWNER_NOTIFICATIONS, ownerNotificationsSchema, type OwnerNotificationKey, type OwnerNotifications };

/** The switches as stored; a switch never set is on. */
export function ownerNotificationsOf(settings: Record<string, unknown>): OwnerNotifications {
  const s = settings.ownerNotifications;
  const o = s && typeof s === 'object' && !Array.isArray(s) ? (s as Record<string, unknown>) : {};
  return { newOrder: o.newOrder !== false, formSubmission: o.formSubmission !== false, lowStock: o.lowStock !== false };
}

/** Where the owner's notifications go: the site's contact email, else the first admin's address. */
export async function ownerAddress(db: Db | Tx, websiteId: string): Promise<string | null> {
  const r = await rows<{ contact: string | null; admin: string | null }>(
    db,
    sql`select w.settings->>'contactEmail' as contact,
          (select email from accounts a where a.website_id = w.id and a.role = ${Role.ADMIN} order by a.created_at limit 1) as admin
        from websites w where w.id = ${websiteId}`,
  );
  const contact = (r[0]?.contact ?? '').trim();
  return contact || r[0]?.admin || null;
}

interface SiteBits {
  title: string;
  settings: Record<string, unknown>;
  locale: string;
}

async function siteOf(db: Db | Tx, websiteId: string): Promise<SiteBits | null> {
  const r = await rows<{ title: string; settings: unknown; locale: string }>(
    db,
    sql`select title, settings, locale from websites where id = ${websiteId}`,
  );
  if (!r[0]) return null;
  const s =
    typeof r[0].settings === 'string'
      ? (JSON.parse(r[0].settings) as Record<string, unknown>)
      : ((r[0].settings ?? {}) as Record<string, unknown>);
  return { title: r[0].title, settings: s, locale: r[0].locale };
}

const num = (v: unknown) => Number(v ?? 0);

/** The new-order email to the owner. */
export function newOrderMail(order: OrderRow, to: string, siteTitle: string, origin: string, locale = 'en'): OutgoingMail {
  const f = (c: number) => formatMoney(c, order.currency);
  // The shipping address as its country writes it (core/address-format.ts).
  const shipTo = formatAddress(order.shippingAddress, locale);
  const link = `${origin}/config/orders/${encodeURIComponent(order.id)}`;
  const lines = order.items.map((i) => `${num(i.quantity)} x ${String(i.productName)} (${String(i.sku)})`);
  const text = [
    `A new order #${order.orderNumber} was placed on ${siteTitle} by ${order.email}.`,
    '',
    ...lines,
    '',
    `Total: ${f(order.grandTotalCents)}`,
    ...(shipTo.length ? ['', 'Ship to:', ...shipTo] : []),
    '',
    `Open it: ${link}`,
    '',
  ].join('\n');
  const html =
    `<p>A new order <strong>#${order.orderNumber}</strong> was placed on ${escapeHtml(siteTitle)} by ${escapeHtml(order.email)}.</p>` +
    `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` +
    `<p>Total: <strong>${escapeHtml(f(order.grandTotalCents))}</strong></p>` +
    (shipTo.length ? `<p>Ship to:</p><address>${shipTo.map(escapeHtml).join('<br>')}</address>` : '') +
    `<p><a href="${escapeHtml(link)}">Open the order</a></p>`;
  return {
    kind: 'owner-new-order',
    to,
    subject: `New order #${order.orderNumber}: ${f(order.grandTotalCents)}`,
    text,
    html,
    ref: `owner-new-order:${order.id}`,
  };
}

export interface LowVariant {
  variantId: string;
  productId: string;
  title: string;
  variant: string;
  qtyInStock: number;
}

/** The low-stock email to the owner: the variants the order took to LOW_STOCK_AT or below. */
export function lowStockMail(list: LowVariant[], to: string, siteTitle: string, origin: string, ref: string): OutgoingMail {
  const name = (v: LowVariant) => (v.variant ? `${v.title} (${v.variant})` : v.title);
  const left = (v: LowVariant) => (v.qtyInStock <= 0 ? 'sold out' : `${v.qtyInStock} left`);
  const subject = list.length === 1 ? `Low stock: ${name(list[0]!)}, ${left(list[0]!)}` : `Low stock: ${list.length} variants`;
  const text = [
    `Stock is running low on ${siteTitle}:`,
    '',
    ...list.map((v) => `${name(v)}: ${left(v)} — ${origin}/config/products/${encodeURIComponent(v.productId)}`),
    '',
  ].join('\n');
  const html = `<p>Stock is running low on ${escapeHtml(siteTitle)}:</p><ul>${list
    .map(
      (v) =>
        `<li><a href="${escapeHtml(`${origin}/config/products/${encodeURIComponent(v.productId)}`)}">${escapeHtml(name(v))}</a>: ${escapeHtml(left(v))}</li>`,
    )
    .join('')}</ul>`;
  return { kind: 'owner-low-stock', to, subject, text, html, ref };
}

/**
 * The order-placed hook (checkout's onOrderPlaced): queues the new-order email and, for variants this order
 * took from above LOW_STOCK_AT to it or below, the low-stock email; each when switched on.
 */
export function ownerOrderHook(enqueue: (tx: Tx, mail: OutgoingMail) => Promise<void>, origin: (tx: Tx) => Promise<string>) {
  return async (tx: Tx, order: OrderRow): Promise<void> => {
    const site = await siteOf(tx, order.websiteId);
    if (!site) return;
    const on = ownerNotificationsOf(site.settings);
    if (!on.newOrder && !on.lowStock) return;
    const to = await ownerAddress(tx, order.websiteId);
    if (!to) return;
    const base = await origin(tx);
    if (on.newOrder) await enqueue(tx, newOrderMail(order, to, site.title, base, site.locale));
    if (!on.lowStock) return;
    const taken = new Map<string, number>();
    for (const i of order.items) {
      const id = typeof i.variantId === 'string' ? i.variantId : null;
      if (id) taken.set(id, (taken.get(id) ?? 0) + num(i.quantity));
    }
    if (taken.size === 0) return;
    const ids = [...taken.keys()];
    const found = await rows<{ id: string; item_id: string; title: string; attributes: unknown; qty_in_stock: number; unlimited: boolean }>(
      tx,
      sql`select v.id, v.item_id, i.title, v.attributes, v.qty_in_stock, v.unlimited from product_variants v join items i on i.id = v.item_id
          where v.id in (${sql.join(
            ids.map((x) => sql`${x}`),
            sql`, `,
          )})`,
    );
    const low = found
      .filter((v) => !v.unlimited && num(v.qty_in_stock) <= LOW_STOCK_AT && num(v.qty_in_stock) + (taken.get(v.id) ?? 0) > LOW_STOCK_AT)
      .map((v) => ({
        variantId: v.id,
        productId: v.item_id,
        title: v.title,
        variant: Object.values(typeof v.attributes === 'object' && v.attributes ? (v.attributes as Record<string, unknown>) : {})
          .map(String)
          .join(' / '),
        qtyInStock: num(v.qty_in_stock),
      }));
    if (low.length > 0) await enqueue(tx, lowStockMail(low, to, site.title, base, `owner-low-stock:${order.id}`));
  };
}
