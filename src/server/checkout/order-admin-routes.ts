/**
 * The order desk's owner calls (admin and store manager) under /api/checkout/admin/orders (issue 24): the list with
 * search, filters, sort and pages; the CSV export of the filtered list; one order's detail and timeline; fulfil
 * (lines, carrier, tracking number, shipping email); refund (lines and/or an amount, restock or not, refund email);
 * notes. The work is in order-admin.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { csvText } from '../../core/csv.js';
import { moneyDecimalString } from '../../core/money.js';
import { OrderAdmin, CARRIERS, type MailContext } from './order-admin.js';
import { FULFILMENT_STATUSES, PAYMENT_STATUSES, paymentStatusOf } from '../../core/orders.js';
import { purchaseConfirmation, type CheckoutService, type OrderRow } from './service.js';
import { conflict, notFound } from '../errors.js';
import { can } from '../../core/roles.js';

export function adminOrder(o: OrderRow) {
  return {
    ...purchaseConfirmation(o),
    email: o.email,
    created: o.created.getTime(),
    fulfilledAt: o.fulfilledAt?.getTime() ?? null,
    refundedAt: o.refundedAt?.getTime() ?? null,
    currency: o.currency,
    shippingAddress: o.shippingAddress,
    shippingOption: o.shippingOption,
    coupons: o.coupons,
    taxRules: o.taxRules,
    payment: o.payment,
    customerName: String(o.shippingAddress?.name ?? ''),
    fulfilmentStatus: o.fulfilmentStatus,
    paymentStatus: paymentStatusOf(o),
    refundedCents: o.refundedCents,
    totals: {
      subtotalCents: o.subtotalCents,
      discountCents: o.discountCents,
      shippingCents: o.shippingCents,
      taxCents: o.taxCents,
      giftCardCents: o.giftCardCents,
      grandTotalCents: o.grandTotalCents,
    },
  };
}

const orderId = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'Unknown id.') });
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are YYYY-MM-DD.').refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'That date does not exist.');
const noNul = (v: string) => !v.includes('\u0000');

const filters = z.object({
  q: z.string().max(200, 'Search for at most 200 characters.').refine(noNul, 'Must not contain NUL characters.').optional(),
  payment: z.enum(PAYMENT_STATUSES, { error: 'Payment status must be paid, partially_refunded or refunded.' }).optional(),
  fulfilment: z.enum(FULFILMENT_STATUSES, { error: 'Fulfilment status must be unfulfilled, partial or fulfilled.' }).optional(),
  from: day.optional(),
  to: day.optional(),
  sort: z.enum(['number', 'date', 'total', 'customer'], { error: 'Sort by number, date, total or customer.' }).default('number'),
  dir: z.enum(['asc', 'desc'], { error: 'Direction must be asc or desc.' }).default('desc'),
});
const listQuery = filters.extend({
  page: z.coerce.number().int('Pages are whole numbers.').min(1, 'Pages start at 1.').max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100, 'At most 100 orders a page.').default(25),
});

const count = z.number({ error: 'Quantities are whole numbers.' }).int('Quantities are whole numbers.').min(0, 'Quantities cannot be negative.').max(1_000_000);
const lines = z
  .array(z.object({ line: z.number({ error: 'A line is its number in the order.' }).int().min(0).max(10_000), quantity: count }))
  .max(500)
  .optional();

const fulfilBody = z.object({
  lines,
  carrier: z.string().trim().max(60, 'The carrier is at most 60 characters.').refine(noNul, 'Must not contain NUL characters.').default(''),
  trackingNumber: z
    .string()
    .trim()
    .max(100, 'The tracking number is at most 100 characters.')
    .regex(/^[A-Za-z0-9 ./_-]*$/, 'Tracking numbers use letters, digits, spaces and . / _ -.')
    .default(''),
  notify: z.boolean().default(true),
});

const refundBody = z.object({
  lines,
  amountCents: z.number({ error: 'Must be an amount in cents.' }).int('Must be a whole number of cents.').min(0, 'The refund amount cannot be negative.').max(1e13, 'Too large.').optional(),
  restock: z.boolean().default(true),
  reason: z.string().trim().max(500, 'The reason is at most 500 characters.').refine(noNul, 'Must not contain NUL characters.').default(''),
  notify: z.boolean().default(true),
});

const noteBody = z.object({
  body: z.string({ error: 'Write the note.' }).trim().min(1, 'Write the note.').max(2000, 'A note is at most 2,000 characters.').refine(noNul, 'Must not contain NUL characters.'),
});

export const CSV_COLUMNS = ['Order', 'Date', 'Email', 'Customer', 'Payment status', 'Fulfilment status', 'Items', 'Currency', 'Subtotal', 'Discount', 'Shipping', 'Tax', 'Total', 'Refunded', 'Ship to country'];

export async function registerOrderDesk(app: FastifyInstance, checkout: CheckoutService, siteId: () => Promise<string>) {
  const ownerRead = { preHandler: app.requireOwner(can('orders', 'read')) };
  const owner = { preHandler: app.requireOwner(can('orders', 'write')) };
  const { websites } = app.services;
  const desk = new OrderAdmin(app.database, checkout, app.checkout.payments, app.services.mailer);
  const mail = async (): Promise<MailContext> => ({ origin: await app.emailOrigin(), siteTitle: (await websites.get()).title });
  const site = async () => {
    const w = await websites.get();
    return { id: w.id, timeZone: w.timeZone || 'UTC' };
  };
  const detailJson = async (d: Awaited<ReturnType<OrderAdmin['detail']>>) => ({
    order: adminOrder(d.order),
    lines: d.lines,
    fulfilments: d.fulfilments,
    refunds: d.refunds,
    notes: d.notes,
    emails: d.emails,
    timeline: d.timeline,
    paymentStatus: d.paymentStatus,
    refundableCents: d.refundableCents,
    giftCards: await checkout.giftCardsOf(d.order.id),
    subscription: await checkout.subscriptionOf(d.order.id),
  });

  app.get('/api/checkout/admin/orders', ownerRead, async (req, reply) => {
    const q = listQuery.parse(req.query ?? {});
    const s = await site();
    const { orders, total } = await desk.list(s.id, s.timeZone, q);
    reply.header('cache-control', 'no-store');
    return { orders: orders.map(adminOrder), total, page: q.page, pageSize: q.pageSize, carriers: CARRIERS.map(({ id, name }) => ({ id, name })) };
  });

  app.get('/api/checkout/admin/orders.csv', ownerRead, async (req, reply) => {
    const q = filters.parse(req.query ?? {});
    const s = await site();
    const list = await desk.exportRows(s.id, s.timeZone, q);
    const m = (c: number, cur: string) => moneyDecimalString(c, cur);
    const body = csvText([
      CSV_COLUMNS,
      ...list.map((o) => [
        String(o.orderNumber),
        o.created.toISOString(),
        o.email,
        String(o.shippingAddress?.name ?? ''),
        paymentStatusOf(o),
        o.fulfilmentStatus,
        o.items.map((i) => `${Number(i.quantity)} x ${String(i.productName)} (${String(i.sku)})`).join('; '),
        o.currency,
        m(o.subtotalCents, o.currency),
        m(o.discountCents, o.currency),
        m(o.shippingCents, o.currency),
        m(o.taxCents, o.currency),
        m(o.grandTotalCents, o.currency),
        m(o.refundedCents, o.currency),
        String(o.shippingAddress?.country ?? ''),
      ]),
    ]);
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`)
      .header('cache-control', 'no-store');
    return `\uFEFF${body}`;
  });

  app.get('/api/checkout/admin/orders/:id', ownerRead, async (req, reply) => {
    const { id } = orderId.parse(req.params);
    reply.header('cache-control', 'no-store');
    return detailJson(await desk.detail(await siteId(), id));
  });

  app.post('/api/checkout/admin/orders/:id/fulfil', owner, async (req) => {
    const { id } = orderId.parse(req.params);
    const body = fulfilBody.parse(req.body ?? {});
    return detailJson(await desk.fulfil(await siteId(), id, body, await mail()));
  });

  app.post('/api/checkout/admin/orders/:id/refund', owner, async (req) => {
    const { id } = orderId.parse(req.params);
    const body = refundBody.parse(req.body ?? {});
    return detailJson(await desk.refund(await siteId(), id, body, await mail()));
  });

  /** Cancels the order's subscription: at Stripe first when Stripe Billing bills it (DELETE /v1/subscriptions/:id), then here. */
  app.post('/api/checkout/admin/orders/:id/subscription/cancel', owner, async (req) => {
    const { id } = orderId.parse(req.params);
    const websiteId = await siteId();
    const d = await desk.detail(websiteId, id);
    const s = await checkout.subscriptionOf(d.order.id);
    if (!s) throw notFound('This order has no subscription.');
    if (!(await checkout.cancelSubscription(websiteId, String(s.id)))) throw conflict('This subscription is already canceled.');
    return detailJson(await desk.detail(websiteId, id));
  });

  app.post('/api/checkout/admin/orders/:id/notes', owner, async (req) => {
    const { id } = orderId.parse(req.params);
    const { body } = noteBody.parse(req.body ?? {});
    return detailJson(await desk.addNote(await siteId(), id, req.owner?.email ?? '', body));
  });
}
