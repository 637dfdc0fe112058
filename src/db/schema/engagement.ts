import { pgTable, text, timestamp, boolean, jsonb, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { websites } from './platform.js';

/**
 * The engagement area's owner settings of a website: the promo popup and the cookie banner (JSON
 * validated by zod in `server/engagement/settings.ts`, defaults filled on read).
 */
export const engagementSettings = pgTable('engagement_settings', {
  websiteId: text('website_id')
    .primaryKey()
    .references(() => websites.id, { onDelete: 'cascade' }),
  popup: jsonb('popup').$type<Record<string, unknown>>().notNull().default({}),
  cookieBanner: jsonb('cookie_banner').$type<Record<string, unknown>>().notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Mailing lists: newsletter blocks, the popup and the restock opt-in add members to one of them. */
export const mailingLists = pgTable(
  'mailing_lists',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** New members confirm by an emailed link before they count as subscribed. */
    doubleOptIn: boolean('double_opt_in').notNull().default(false),
    /** The list sign-ups go to when nothing names another one (one per website). */
    isDefault: boolean('is_default').notNull().default(false),
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('mailing_lists_website_idx').on(t.websiteId, t.created)],
);

/**
 * One row per address and list. status: pending (waiting for the double opt-in confirmation),
 * subscribed, unsubscribed. Unsubscribe and confirm links are HMAC-signed member ids: no token is stored.
 */
export const mailingListMembers = pgTable(
  'mailing_list_members',
  {
    id: text('id').primaryKey(),
    listId: text('list_id')
      .notNull()
      .references(() => mailingLists.id, { onDelete: 'cascade' }),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    /** As typed (trimmed). */
    email: text('email').notNull(),
    /** Lower-cased: what duplicates match on. */
    emailKey: text('email_key').notNull(),
    status: text('status').notNull().default('subscribed'),
    /** form | popup | restock | owner | account (the customer's account page) */
    source: text('source').notNull(),
    /** The form or popup version that signed the address up (for the owner's list). */
    sourceRef: text('source_ref'),
    created: timestamp('created', { withTimezone: true, mode: 'date', precision: 3 }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('mailing_list_members_uq').on(t.listId, t.emailKey),
    index('mailing_list_members_list_idx').on(t.listId, t.status, t.created, t.id),
  ],
);
