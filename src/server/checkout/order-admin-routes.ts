/**
 * The order desk's owner calls (admin and store manager) under /api/checkout/admin/orders (issue 24): the list with
 * search, filters, sort and pages; the CSV export of the filtered list; one order's detail and timeline; fulfil
 * (lines, carrier, tracking number, shipping email); refund (lines and/or an amount, restock or not, refund email);
 * notes. The work is in order-admin.ts.
 */
import type { FastifyInstance } from 'fastify';
import { csvText } from '../../core/csv.js';
import { moneyDecimalString } from '../../core/money.js';
import { OrderAdmin, CARRIERS, type MailContext } from './order-admin.js';
import { paymentStatusOf, type OrderRow } from '../../core/orders.js';
import { purchaseConfirmation, type CheckoutService } from './service.js';
import { conflict, notFound } from '../errors.js';
import { can } from '../../core/roles.js';
import { formatAddress } from '../site-page/index.js';
import { fulfilIn, noteIn, orderFilters, orderIdParams, orderListQuery, refundIn } from '../../core/api/orders.js';

export function adminOrder(o: OrderRow, locale = 'en') {
  return {
    ...purchaseConfirmation(o),
    email: o.email,
    created: o.created.getTime(),
    fulfilledAt: o.fulfilledAt?.getTime() ?? null,
    refundedAt: o.refundedAt?.getTime() ?? null,
    currency: o.currency,
    shippingAddress: o.shippingAddress,
    /** The address as its country writes it (core/address-format.ts): the screen, slip and invoice print these. */
    shippingAddressLines: formatAddress(o.shippingAddress, locale),
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

const orderId = orderIdParams;
const filters = orderFilters;
const listQuery = orderListQuery;
const fulfilBody = fulfilIn;
const refundBody = refundIn;
const noteBody = noteIn;

export const CSV_COLUMNS = [
  'Order',
  'Date',
  'Email',
  'Customer',
  'Payment status',
  'Fulfilment status',
  'Items',
  'Currency',
  'Subtotal',
  'Discount',
  'Shipping',
  'Tax',
  'Total',
  'Refunded',
  'Ship to country',
];

export async function registerOrderDesk(app: FastifyInstance, checkout: CheckoutService, siteId: () => Promise<string>) {
  const ownerRead = { preHandler: app.requireOwner(can('orders', 'read')) };
  const owner = { preHandler: app.requireOwner(can('orders', 'write')) };
  const { websites } = app.services;
  const desk = new OrderAdmin(app.database, checkout, app.checkout.payments, app.services.mailer);
  const mail = async (): Promise<MailContext> => {
    const w = await websites.get();
    return { origin: await app.emailOrigin(), siteTitle: w.title, locale: w.locale };
  };
  const site = async () => {
    const w = await websites.get();
    return { id: w.id, timeZone: w.timeZone || 'UTC', locale: w.locale };
  };
  /** The business address of Site settings (its parts, platform's owner-home.ts), printed in its country's format. */
  const shopAddressLines = (w: Awaited<ReturnType<typeof websites.get>>) => {
    const loc = (w.settings.location ?? {}) as Record<string, unknown>;
    const part = (k: string) => (typeof loc[k] === 'string' ? (loc[k] as string) : '');
    if (!part('country')) return [];
    const a = {
      name: part('addressTitle') || w.title,
      line1: part('line1'),
      line2: part('line2'),
      city: part('city'),
      region: part('region'),
      postalCode: part('postalCode'),
      country: part('country'),
    };
    return formatAddress(a, w.locale);
  };
  const detailJson = async (d: Awaited<ReturnType<OrderAdmin['detail']>>) => ({
    shopAddressLines: shopAddressLines(await websites.get()),
    order: adminOrder(d.order, (await websites.get()).locale),
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
    return {
      orders: orders.map((o) => adminOrder(o, s.locale)),
      total,
      page: q.page,
      pageSize: q.pageSize,
      carriers: CARRIERS.map(({ id, name }) => ({ id, name })),
    };
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
