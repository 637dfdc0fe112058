import { pgTable, text, integer, timestamp, jsonb, boolean, index, primaryKey, bigint, customType } from 'drizzle-orm/pg-core';
import { websites, siteUsers } from './platform.js';
import { items } from './content.js';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * Member areas (issue #14): an area holds collections (pages, collections, video courses) that only its
 * members see. Free areas are joined at once; paid ones (once or by subscription) through checkout with the
 * area's paywall product (productType 5).
 */
export const memberAreas = pgTable(
  'member_areas',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The join page's text. */
    description: text('description').notNull().default(''),
    /** 'free' | 'once' | 'subscription'. */
    access: text('access').notNull().default('free'),
    priceCents: bigint('price_cents', { mode: 'number' }).notNull().default(0),
    /** Subscription billing period: WEEK, MONTH or YEAR, every `billingValue` of them. */
    billingUnit: text('billing_unit').notNull().default('MONTH'),
    billingValue: integer('billing_value').notNull().default(1),
    /** The paywall product (store item of productType 5) sold for paid areas. */
    productItemId: text('product_item_id'),
    /** Collections in the area, in order. */
    collectionIds: jsonb('collection_ids').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('member_areas_site_idx').on(t.websiteId)],
);

/** Who belongs to an area: 'active' members, or 'pending' joins waiting for their checkout (by its cart). */
export const memberAreaMembers = pgTable(
  'member_area_members',
  {
    areaId: text('area_id')
      .notNull()
      .references(() => memberAreas.id, { onDelete: 'cascade' }),
    siteUserId: text('site_user_id')
      .notNull()
      .references(() => siteUsers.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    cartId: text('cart_id'),
    orderId: text('order_id'),
    joinedAt: timestamp('joined_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.areaId, t.siteUserId] }),
    index('member_area_members_cart_idx').on(t.cartId),
    index('member_area_members_user_idx').on(t.siteUserId),
  ],
);

/** Passwords of the site lock screen (target 'site') and of single pages and collections (target = collection id). */
export const contentPasswords = pgTable(
  'content_passwords',
  {
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id, { onDelete: 'cascade' }),
    target: text('target').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Changes with every new password, so unlocks made with an old one stop working. */
    nonce: text('nonce').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.target] })],
);

/** A member's progress through a video course, per lesson. */
export const videoProgress = pgTable(
  'video_progress',
  {
    siteUserId: text('site_user_id')
      .notNull()
      .references(() => siteUsers.id, { onDelete: 'cascade' }),
    itemId: text('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    collectionId: text('collection_id').notNull(),
    positionSeconds: integer('position_seconds').notNull().default(0),
    completed: boolean('completed').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.siteUserId, t.itemId] }), index('video_progress_course_idx').on(t.siteUserId, t.collectionId)],
);

/** Files the owner uploads for locked content (lesson videos, downloads), served only to those who may see them. */
export const memberFiles = pgTable('member_files', {
  id: text('id').primaryKey(),
  websiteId: text('website_id')
    .notNull()
    .references(() => websites.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
