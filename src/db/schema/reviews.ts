import { pgTable, text, integer, timestamp, boolean, index, uniqueIndex, primaryKey } from 'drizzle-orm/pg-core';
import { websites } from './platform.js';
import { items } from './content.js';
import { orders } from './checkout.js';

/**
 * A review request: made when an order is marked fulfilled (delivered); a job emails the buyer after the
 * owner's delay. Its id, signed with the install's key, is the token of the reviews request page (209),
 * so only the address the order was placed with gets a working link. One per order.
 */
export const reviewRequests = pgTable(
  'review_requests',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    /** scheduled | sent | skipped (the order was refunded, or had nothing to review) */
    status: text('status').notNull().default('scheduled'),
    runAt: timestamp('run_at', { withTimezone: true, mode: 'date' }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('review_requests_order_uq').on(t.orderId)],
);

/**
 * A buyer's review of one product of an order: a star rating 1-5 and text. Owners approve or reject;
 * only approved reviews are shown. One review per product per request.
 */
export const productReviews = pgTable(
  'product_reviews',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    itemId: text('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    requestId: text('request_id')
      .notNull()
      .references(() => reviewRequests.id, { onDelete: 'cascade' }),
    rating: integer('rating').notNull(),
    title: text('title').notNull().default(''),
    body: text('body').notNull(),
    authorName: text('author_name').notNull(),
    /** pending | approved | rejected */
    status: text('status').notNull().default('pending'),
    created: timestamp('created', { withTimezone: true, mode: 'date', precision: 3 }).notNull().defaultNow(),
    moderatedAt: timestamp('moderated_at', { withTimezone: true, mode: 'date' }),
    moderatedBy: text('moderated_by'),
  },
  (t) => [
    uniqueIndex('product_reviews_request_item_uq').on(t.requestId, t.itemId),
    index('product_reviews_item_idx').on(t.itemId, t.status, t.created),
    index('product_reviews_status_idx').on(t.websiteId, t.status, t.created),
  ],
);

/** Owner-chosen related products of a product, in order. Without any, the page shows same-category products. */
export const relatedProducts = pgTable(
  'related_products',
  {
    itemId: text('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    relatedItemId: text('related_item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.relatedItemId] }), index('related_products_item_idx').on(t.itemId, t.position)],
);

/**
 * A donation paid through the checkout's payment provider (test mode by default). Amount in minor units
 * of the site's currency. One per idempotency key, so a double submit never charges twice.
 */
export const donations = pgTable(
  'donations',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    donorName: text('donor_name').notNull(),
    email: text('email').notNull(),
    message: text('message').notNull().default(''),
    testMode: boolean('test_mode').notNull(),
    provider: text('provider').notNull(),
    paymentId: text('payment_id').notNull(),
    cardBrand: text('card_brand').notNull().default(''),
    cardLast4: text('card_last4').notNull().default(''),
    created: timestamp('created', { withTimezone: true, mode: 'date', precision: 3 }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('donations_key_uq').on(t.websiteId, t.idempotencyKey), index('donations_created_idx').on(t.websiteId, t.created)],
);
