import { pgTable, pgSequence, text, integer, bigint, timestamp, jsonb, boolean, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { websites } from './platform.js';
import type { FulfilmentStatus, OrderStatus } from '../../core/orders.js';

/** Shipping options the owner offers: flat rate, free above an amount, or by weight. */
export const shippingOptions = pgTable('shipping_options', {
  id: text('id').primaryKey(),
  websiteId: text('website_id')
    .notNull()
    .references(() => websites.id),
  name: text('name').notNull(),
  /** 'flat' | 'free_above' | 'weight' */
  kind: text('kind').notNull(),
  priceCents: bigint('price_cents', { mode: 'number' }).notNull().default(0),
  freeAboveCents: bigint('free_above_cents', { mode: 'number' }).notNull().default(0),
  /** [{upToGrams, priceCents}] for 'weight'. */
  weightRates: jsonb('weight_rates').$type<Array<{ upToGrams: number; priceCents: number }>>().notNull().default([]),
  /** ISO country codes; empty ships everywhere. */
  countries: jsonb('countries').$type<string[]>().notNull().default([]),
  enabled: boolean('enabled').notNull().default(true),
  ordering: integer('ordering').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Tax rules by country and region, in basis points. */
export const taxRules = pgTable('tax_rules', {
  id: text('id').primaryKey(),
  websiteId: text('website_id')
    .notNull()
    .references(() => websites.id),
  name: text('name').notNull(),
  country: text('country').notNull(),
  region: text('region').notNull().default(''),
  rateBasisPoints: integer('rate_basis_points').notNull(),
  appliesToShipping: boolean('applies_to_shipping').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Coupon codes: percentage, fixed amount or free shipping; minimum subtotal, expiry, usage limit. */
export const coupons = pgTable(
  'coupons',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    /** Upper case. */
    code: text('code').notNull(),
    /** 'percent' | 'fixed' | 'free_shipping' */
    kind: text('kind').notNull(),
    percentBasisPoints: integer('percent_basis_points').notNull().default(0),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull().default(0),
    minSubtotalCents: bigint('min_subtotal_cents', { mode: 'number' }).notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    /** 0 means no limit. */
    usageLimit: integer('usage_limit').notNull().default(0),
    timesUsed: integer('times_used').notNull().default(0),
    /** Whether the discount also applies to gift cards in the cart (off: gift cards are never discounted). */
    appliesToGiftCards: boolean('applies_to_gift_cards').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('coupons_code_uq').on(t.websiteId, t.code)],
);

export const orderNumberSeq = pgSequence('order_number_seq', { startWith: 1001 });

/**
 * Orders. The row is inserted first in the place-order transaction, so a retry with the same idempotency
 * key waits on the unique index and then answers the order the first attempt made.
 */
export const orders = pgTable(
  'orders',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    orderNumber: integer('order_number')
      .notNull()
      .default(sql`nextval('order_number_seq')`),
    idempotencyKey: text('idempotency_key').notNull(),
    /** The purchased shopping cart, or the subscription cart. */
    cartId: text('cart_id').notNull(),
    cartKind: text('cart_kind').notNull().default('cart'),
    status: text('status').$type<OrderStatus>().notNull().default('paid'),
    testMode: boolean('test_mode').notNull().default(true),
    email: text('email').notNull(),
    shippingAddress: jsonb('shipping_address').$type<Record<string, string> | null>(),
    /** [{itemId, variantId, sku, productName, quantity, unitPriceCents, productType, attributes}] */
    items: jsonb('items').$type<Array<Record<string, unknown>>>().notNull().default([]),
    currency: text('currency').notNull(),
    subtotalCents: bigint('subtotal_cents', { mode: 'number' }).notNull().default(0),
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull().default(0),
    shippingCents: bigint('shipping_cents', { mode: 'number' }).notNull().default(0),
    taxCents: bigint('tax_cents', { mode: 'number' }).notNull().default(0),
    grandTotalCents: bigint('grand_total_cents', { mode: 'number' }).notNull().default(0),
    giftCardCents: bigint('gift_card_cents', { mode: 'number' }).notNull().default(0),
    /** The gift card that paid part of the order. */
    giftCardId: text('gift_card_id'),
    shippingOption: jsonb('shipping_option').$type<Record<string, unknown> | null>(),
    coupons: jsonb('coupons').$type<string[]>().notNull().default([]),
    taxRules: jsonb('tax_rules').$type<Array<Record<string, unknown>>>().notNull().default([]),
    /** {provider, paymentId, brand, last4}: never card numbers. */
    payment: jsonb('payment').$type<Record<string, unknown> | null>(),
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    fulfilledAt: timestamp('fulfilled_at', { withTimezone: true, mode: 'date' }),
    refundedAt: timestamp('refunded_at', { withTimezone: true, mode: 'date' }),
    /** order_fulfilment_lines hold the per-line quantities. */
    fulfilmentStatus: text('fulfilment_status').$type<FulfilmentStatus>().notNull().default('unfulfilled'),
    /** What order_refunds gave back (pending and done). */
    refundedCents: bigint('refunded_cents', { mode: 'number' }).notNull().default(0),
    /** A subscription's orders (the first and each renewal billed by Stripe) name it. */
    subscriptionId: text('subscription_id'),
  },
  (t) => [
    uniqueIndex('orders_idempotency_uq').on(t.websiteId, t.idempotencyKey),
    uniqueIndex('orders_number_uq').on(t.orderNumber),
    index('orders_created_idx').on(t.websiteId, t.created),
    index('orders_cart_idx').on(t.cartId),
    index('orders_subscription_idx')
      .on(t.subscriptionId)
      .where(sql`${t.subscriptionId} IS NOT NULL`),
  ],
);

/** Gift cards issued by orders; their balance pays at checkout. */
export const giftCards = pgTable(
  'gift_cards',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    code: text('code').notNull(),
    initialCents: bigint('initial_cents', { mode: 'number' }).notNull(),
    balanceCents: bigint('balance_cents', { mode: 'number' }).notNull(),
    orderId: text('order_id').notNull(),
    disabled: boolean('disabled').notNull().default(false),
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('gift_cards_code_uq').on(t.websiteId, t.code), index('gift_cards_order_idx').on(t.orderId)],
);

/** Subscriptions bought at checkout. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    orderId: text('order_id').notNull(),
    itemId: text('item_id').notNull(),
    sku: text('sku').notNull(),
    quantity: integer('quantity').notNull(),
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    /** 'WEEK' | 'MONTH' | 'YEAR' */
    billingPeriod: text('billing_period').notNull(),
    billingPeriodValue: integer('billing_period_value').notNull().default(1),
    /** 0 means indefinite. */
    numBillingCycles: integer('num_billing_cycles').notNull().default(0),
    email: text('email').notNull(),
    /** 'active' | 'past_due' | 'canceled' | 'ended' (a fixed number of cycles billed) */
    status: text('status').notNull().default('active'),
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** 'test' (the built-in provider: the first period only) or 'stripe' (Stripe Billing renews it). */
    provider: text('provider').notNull().default('test'),
    providerSubscriptionId: text('provider_subscription_id'),
    providerCustomerId: text('provider_customer_id'),
    /** When a fixed-cycle plan ends (Stripe's cancel_at). */
    cancelAt: timestamp('cancel_at', { withTimezone: true, mode: 'date' }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true, mode: 'date' }),
    canceledAt: timestamp('canceled_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('subscriptions_order_idx').on(t.orderId),
    uniqueIndex('subscriptions_provider_sub_uq')
      .on(t.providerSubscriptionId)
      .where(sql`${t.providerSubscriptionId} IS NOT NULL`),
  ],
);

/**
 * The test-mode payment provider's own records (a stand-in for the provider's servers): one row per
 * payment, with its status. Only brand and last 4 digits are kept.
 */
export const testPayments = pgTable('test_payments', {
  id: text('id').primaryKey(),
  amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  currency: text('currency').notNull(),
  /** 'requires_action' | 'authenticated' | 'failed' | 'succeeded' | 'refunded' */
  status: text('status').notNull(),
  brand: text('brand').notNull(),
  last4: text('last4').notNull(),
  refundedCents: bigint('refunded_cents', { mode: 'number' }).notNull().default(0),
  created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * A payment attempt, recorded before any call to a payment provider (one per checkout idempotency key),
 * so a charge is never left without an order or a refund: 'created' before the charge, 'charged' once the
 * provider took the money, 'completed' in the transaction that commits the order, 'voided' when the
 * payment was given back (or never taken). The payment reconciler (checkout/reconciler.ts) finishes
 * attempts left in 'created' or 'charged' by a crash. `input` is what the order needs to be made again
 * (cart, what the shopper entered, the confirmed total): never card numbers.
 */
export const paymentAttempts = pgTable(
  'payment_attempts',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    idempotencyKey: text('idempotency_key').notNull(),
    /** 'created' | 'charged' | 'completed' | 'voided' */
    state: text('state').notNull().default('created'),
    provider: text('provider').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    /** The provider's payment id, once known. */
    paymentId: text('payment_id'),
    input: jsonb('input').$type<Record<string, unknown>>().notNull(),
    orderId: text('order_id'),
    /** Why an attempt was voided (for the owner's log). */
    note: text('note'),
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updated: timestamp('updated', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_attempts_key_uq').on(t.websiteId, t.idempotencyKey),
    index('payment_attempts_open_idx').on(t.state, t.updated),
  ],
);

/** Stripe events received (stripe/webhook.ts): each event id is handled once; a replay is acknowledged and ignored. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  /** The id of the event's object (payment intent, charge, dispute, session). */
  objectId: text('object_id'),
  received: timestamp('received', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Stripe Prices made for subscription plans (stripe/billing.ts): one per SKU, amount, currency and period. */
export const stripePrices = pgTable(
  'stripe_prices',
  {
    id: text('id').primaryKey(),
    productId: text('product_id').notNull(),
    sku: text('sku').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    interval: text('interval').notNull(),
    intervalCount: integer('interval_count').notNull(),
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('stripe_prices_plan_uq').on(t.sku, t.amountCents, t.currency, t.interval, t.intervalCount)],
);

/** The Stripe Customer of each shopper's email (reused by later subscriptions). */
export const stripeCustomers = pgTable('stripe_customers', {
  email: text('email').primaryKey(),
  customerId: text('customer_id').notNull(),
  created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** A subscription's first PaymentIntent and its Stripe subscription, until the order that pays it is made. */
export const stripeBillingLinks = pgTable('stripe_billing_links', {
  paymentIntentId: text('payment_intent_id').primaryKey(),
  subscriptionId: text('subscription_id').notNull(),
  customerId: text('customer_id').notNull(),
  cancelAt: timestamp('cancel_at', { withTimezone: true, mode: 'date' }),
  created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
