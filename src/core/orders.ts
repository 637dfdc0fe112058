/** Order statuses, the rule for what an order adds to sales and to a customer's spend, and an order's row. */
import type { Address } from './api/checkout.js';

/** `orders.status`: an order is 'pending' until its payment is confirmed. */
export const OrderStatus = Object.freeze({
  PENDING: 'pending',
  PAID: 'paid',
  FULFILLED: 'fulfilled',
  PARTIALLY_REFUNDED: 'partially_refunded',
  REFUNDED: 'refunded',
} as const);
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus];

/** The payment status the owner sees, from the status and the refunded amount. */
export const PaymentStatus = Object.freeze({ PAID: 'paid', PARTIALLY_REFUNDED: 'partially_refunded', REFUNDED: 'refunded' } as const);
export type PaymentStatus = (typeof PaymentStatus)[keyof typeof PaymentStatus];
export const PAYMENT_STATUSES = Object.values(PaymentStatus) as [PaymentStatus, ...PaymentStatus[]];

/** `orders.fulfilment_status` (order_fulfilment_lines hold the per-line quantities). */
export const FulfilmentStatus = Object.freeze({ UNFULFILLED: 'unfulfilled', PARTIAL: 'partial', FULFILLED: 'fulfilled' } as const);
export type FulfilmentStatus = (typeof FulfilmentStatus)[keyof typeof FulfilmentStatus];
export const FULFILMENT_STATUSES = Object.values(FulfilmentStatus) as [FulfilmentStatus, ...FulfilmentStatus[]];

/** The statuses of a paid order that still has money in it (a fully refunded order adds nothing). */
export const SALE_STATUSES: readonly OrderStatus[] = Object.freeze([
  OrderStatus.PAID,
  OrderStatus.FULFILLED,
  OrderStatus.PARTIALLY_REFUNDED,
]);

export function paymentStatusOf(o: { status: string; refundedCents: number }): PaymentStatus {
  if (o.status === OrderStatus.REFUNDED) return PaymentStatus.REFUNDED;
  return o.refundedCents > 0 ? PaymentStatus.PARTIALLY_REFUNDED : PaymentStatus.PAID;
}

/**
 * What one order adds to the sales figures and to its customer's spend: a paid order's total net of
 * its refunds, whether or not it has been fulfilled; nothing for a pending or fully refunded order.
 */
export function netSalesCents(o: { status: string; grandTotalCents: number; refundedCents: number }): number {
  return (SALE_STATUSES as readonly string[]).includes(o.status) ? o.grandTotalCents - o.refundedCents : 0;
}

/** The customer's words for an order's state, on the order status page and in their account. */
export function orderStatusLabel(status: string, fulfilmentStatus: string): string {
  if (status === OrderStatus.PAID) return fulfilmentStatus === FulfilmentStatus.PARTIAL ? 'Paid — partly shipped' : 'Paid — being prepared';
  if (status === OrderStatus.FULFILLED) return 'Fulfilled';
  if (status === OrderStatus.PARTIALLY_REFUNDED) return 'Partially refunded';
  return 'Refunded';
}

/** An order as the server reads it from `orders` (checkout's orderFrom). */
export interface OrderRow {
  id: string;
  websiteId: string;
  orderNumber: number;
  idempotencyKey: string;
  cartId: string;
  cartKind: string;
  status: string;
  testMode: boolean;
  email: string;
  shippingAddress: Partial<Address> | null;
  items: Array<Record<string, unknown>>;
  currency: string;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  grandTotalCents: number;
  giftCardCents: number;
  giftCardId: string | null;
  shippingOption: Record<string, unknown> | null;
  coupons: string[];
  taxRules: Record<string, unknown>[];
  payment: Record<string, unknown> | null;
  created: Date;
  fulfilledAt: Date | null;
  refundedAt: Date | null;
  /** 'unfulfilled' | 'partial' | 'fulfilled' (order-admin.ts). */
  fulfilmentStatus: string;
  /** Money given back so far (order-admin.ts). */
  refundedCents: number;
}
