/**
 * The order desk: the list's filters and pages, fulfil, refund and note bodies, and the orders as the
 * desk lists and shows them.
 */
import { z } from 'zod';
import { FULFILMENT_STATUSES, PAYMENT_STATUSES, type FulfilmentStatus, type PaymentStatus } from '../orders.js';

export const orderIdParams = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'Unknown id.') });
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are YYYY-MM-DD.')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'That date does not exist.');
const noNul = (v: string) => !v.includes('\u0000');

/** The order list's filters (the CSV export takes the same). */
export const orderFilters = z.object({
  q: z.string().max(200, 'Search for at most 200 characters.').refine(noNul, 'Must not contain NUL characters.').optional(),
  payment: z.enum(PAYMENT_STATUSES, { error: 'Payment status must be paid, partially_refunded or refunded.' }).optional(),
  fulfilment: z.enum(FULFILMENT_STATUSES, { error: 'Fulfilment status must be unfulfilled, partial or fulfilled.' }).optional(),
  from: day.optional(),
  to: day.optional(),
  sort: z.enum(['number', 'date', 'total', 'customer'], { error: 'Sort by number, date, total or customer.' }).default('number'),
  dir: z.enum(['asc', 'desc'], { error: 'Direction must be asc or desc.' }).default('desc'),
});
/** GET /api/checkout/admin/orders. */
export const orderListQuery = orderFilters.extend({
  page: z.coerce.number().int('Pages are whole numbers.').min(1, 'Pages start at 1.').max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100, 'At most 100 orders a page.').default(25),
});

const count = z
  .number({ error: 'Quantities are whole numbers.' })
  .int('Quantities are whole numbers.')
  .min(0, 'Quantities cannot be negative.')
  .max(1_000_000);
const lines = z
  .array(z.object({ line: z.number({ error: 'A line is its number in the order.' }).int().min(0).max(10_000), quantity: count }))
  .max(500)
  .optional();

/** POST .../orders/:id/fulfil. */
export const fulfilIn = z.object({
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

/** POST .../orders/:id/refund. */
export const refundIn = z.object({
  lines,
  amountCents: z
    .number({ error: 'Must be an amount in cents.' })
    .int('Must be a whole number of cents.')
    .min(0, 'The refund amount cannot be negative.')
    .max(1e13, 'Too large.')
    .optional(),
  restock: z.boolean().default(true),
  reason: z.string().trim().max(500, 'The reason is at most 500 characters.').refine(noNul, 'Must not contain NUL characters.').default(''),
  notify: z.boolean().default(true),
});

/** POST .../orders/:id/notes. */
export const noteIn = z.object({
  body: z
    .string({ error: 'Write the note.' })
    .trim()
    .min(1, 'Write the note.')
    .max(2000, 'A note is at most 2,000 characters.')
    .refine(noNul, 'Must not contain NUL characters.'),
});

export type OrderQuery = z.output<typeof orderListQuery>;
export type LineRequest = { line: number; quantity: number };
export type FulfilRequest = z.output<typeof fulfilIn>;
export type FulfilInput = z.input<typeof fulfilIn>;
export type RefundRequest = z.output<typeof refundIn>;
export type RefundInput = z.input<typeof refundIn>;

/** An amount as the order JSON carries it. */
export interface Money {
  value: string;
  currency: string;
  decimalValue: string;
}

/** An order as the order desk lists and shows it. */
export interface AdminOrder {
  id: string;
  orderNumber: number;
  status: string;
  testMode: boolean;
  email: string;
  customerName: string;
  created: number;
  currency: string;
  items: Array<{ sku: string; productName: string; quantity: number; unitPrice: Money }>;
  subtotal: Money;
  discountTotal: Money;
  shippingTotal: Money;
  taxTotal: Money;
  giftCardTotal: Money;
  grandTotal: Money;
  shippingAddress: Record<string, string> | null;
  /** The shipping address as its country writes it, the country's name last ([] without one). */
  shippingAddressLines: string[];
  shippingOption: { name: string } | null;
  coupons: string[];
  payment: { provider?: string; brand?: string; last4?: string; paymentId?: string } | null;
  fulfilmentStatus: FulfilmentStatus;
  paymentStatus: PaymentStatus;
  refundedCents: number;
  totals: {
    subtotalCents: number;
    discountCents: number;
    shippingCents: number;
    taxCents: number;
    giftCardCents: number;
    grandTotalCents: number;
  };
}

export interface OrderLineView {
  line: number;
  sku: string;
  productName: string;
  quantity: number;
  unitPriceCents: number;
  attributes: Record<string, string>;
  fulfilled: number;
  refunded: number;
}

/** One shipment of an order: which lines, how many of each, and how to track it. */
export interface OrderFulfilmentView {
  id: string;
  carrier: string;
  trackingNumber: string;
  trackingUrl: string;
  created: string;
  lines: Array<{ line: number; quantity: number }>;
}

/** A staff note on an order. */
export interface OrderNoteView {
  id: string;
  author: string;
  body: string;
  created: string;
}

/** One order's detail as the order desk shows it. */
export interface OrderDetailView {
  order: AdminOrder;
  lines: OrderLineView[];
  fulfilments: OrderFulfilmentView[];
  refunds: Array<{ id: string; state: string; amountCents: number; restock: boolean; reason: string; created: string }>;
  notes: OrderNoteView[];
  timeline: Array<{ at: string; kind: string; text: string; detail?: string }>;
  paymentStatus: string;
  refundableCents: number;
  giftCards: Array<{ code: string }>;
  subscription: { id: string; status: string; provider: string; cancelAt: number | null } | null;
  /** The shop's business address (Site settings) as its country writes it, for the slip and invoice; [] when none. */
  shopAddressLines: string[];
}

/** The answer of GET /api/checkout/admin/orders. */
export interface OrderListAnswer {
  orders: AdminOrder[];
  total: number;
  page: number;
  pageSize: number;
  carriers: Array<{ id: string; name: string }>;
}
