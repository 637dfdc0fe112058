import { pgTable, text, integer, timestamp, boolean, index, uniqueIndex, primaryKey } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { websites } from './platform.js';
import { items } from './content.js';
import { productVariants } from './commerce.js';

/**
 * Back-in-stock sign-ups: one row per visitor email and sold-out variant. While a row is pending it is
 * the only pending row of that email on that variant; a send claims it atomically and marks it sent.
 * `created` keeps milliseconds only, so the opaque keyset cursor (created, id) round-trips exactly.
 */
export const restockSignUps = pgTable(
  'restock_sign_ups',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    productId: text('product_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    variantId: text('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    /** The address as the visitor typed it (trimmed). */
    email: text('email').notNull(),
    /** Lower-cased address: what duplicates and unsubscribes match on. */
    emailKey: text('email_key').notNull(),
    isJoinMailingList: boolean('is_join_mailing_list').notNull().default(false),
    /** The language of the email, only when multilingual transactional emails are on. */
    language: text('language'),
    /** pending | sent | unsubscribed */
    status: text('status').notNull().default('pending'),
    created: timestamp('created', { withTimezone: true, mode: 'date', precision: 3 }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    /** The send that emailed it. */
    sendId: text('send_id'),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('restock_sign_ups_pending_uq')
      .on(t.variantId, t.emailKey)
      .where(sql`status = 'pending'`),
    index('restock_sign_ups_variant_idx').on(t.variantId, t.status, t.created, t.id),
    index('restock_sign_ups_product_idx').on(t.productId, t.created, t.id),
    index('restock_sign_ups_email_idx').on(t.websiteId, t.emailKey),
  ],
);

/**
 * A send of one variant's waiting list (by an owner, or automatic when stock returns). It runs in paced
 * batches through the job queue; at most one send per variant is active (queued or running) at a time.
 */
export const restockSends = pgTable(
  'restock_sends',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    productId: text('product_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    variantId: text('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    /** manual | auto */
    trigger: text('trigger').notNull(),
    requestedBy: text('requested_by'),
    /** queued | running | done | stopped | failed */
    status: text('status').notNull().default('queued'),
    /** Why it ended early: out-of-stock, limit, error. */
    reason: text('reason'),
    /** At most this many emails (the units in stock, when the owner limits sends to stock). */
    maxEmails: integer('max_emails'),
    pendingAtStart: integer('pending_at_start').notNull().default(0),
    sentCount: integer('sent_count').notNull().default(0),
    /** The site origin links in the emails point to. */
    origin: text('origin'),
    created: timestamp('created', { withTimezone: true, mode: 'date', precision: 3 }).notNull().defaultNow(),
    updated: timestamp('updated', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    finished: timestamp('finished', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('restock_sends_active_uq')
      .on(t.variantId)
      .where(sql`status IN ('queued', 'running')`),
    index('restock_sends_created_idx').on(t.websiteId, t.created, t.id),
  ],
);

/** Addresses that unsubscribed from restock emails; a later explicit sign-up lifts it. */
export const restockSuppressions = pgTable(
  'restock_suppressions',
  {
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    emailKey: text('email_key').notNull(),
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.emailKey] })],
);
