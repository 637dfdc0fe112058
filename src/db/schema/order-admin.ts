import { pgTable, text, integer, bigint, timestamp, jsonb, boolean, index, primaryKey } from 'drizzle-orm/pg-core';
import { orders } from './checkout.js';

/** A shipment of some or all of an order's lines (issue 24), with its carrier and tracking number. */
export const orderFulfilments = pgTable(
  'order_fulfilments',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    websiteId: text('website_id').notNull(),
    carrier: text('carrier').notNull().default(''),
    trackingNumber: text('tracking_number').notNull().default(''),
    trackingUrl: text('tracking_url').notNull().default(''),
    notify: boolean('notify').notNull().default(true),
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('order_fulfilments_order_idx').on(t.orderId)],
);

/** How many of one order line (its index in orders.items) a fulfilment shipped. */
export const orderFulfilmentLines = pgTable(
  'order_fulfilment_lines',
  {
    fulfilmentId: text('fulfilment_id')
      .notNull()
      .references(() => orderFulfilments.id, { onDelete: 'cascade' }),
    orderId: text('order_id').notNull(),
    line: integer('line').notNull(),
    quantity: integer('quantity').notNull(),
  },
  (t) => [
    primaryKey({ name: 'order_fulfilment_lines_pk', columns: [t.fulfilmentId, t.line] }),
    index('order_fulfilment_lines_order_idx').on(t.orderId),
  ],
);

/**
 * Money given back on an order: 'pending' while the provider is asked, then 'done' (a failed provider call
 * deletes the row). `lines` are [{line, quantity}] refunded; `restock` put them back in stock.
 */
export const orderRefunds = pgTable(
  'order_refunds',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    websiteId: text('website_id').notNull(),
    state: text('state').notNull().default('pending'),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    providerCents: bigint('provider_cents', { mode: 'number' }).notNull().default(0),
    giftCardCents: bigint('gift_card_cents', { mode: 'number' }).notNull().default(0),
    restock: boolean('restock').notNull().default(false),
    reason: text('reason').notNull().default(''),
    lines: jsonb('lines').$type<Array<{ line: number; quantity: number }>>().notNull().default([]),
    currency: text('currency').notNull(),
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('order_refunds_order_idx').on(t.orderId), index('order_refunds_site_created_idx').on(t.websiteId, t.created)],
);

/** The owner's notes on an order (shown in its timeline). */
export const orderNotes = pgTable(
  'order_notes',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    websiteId: text('website_id').notNull(),
    author: text('author').notNull().default(''),
    body: text('body').notNull(),
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('order_notes_order_idx').on(t.orderId)],
);
