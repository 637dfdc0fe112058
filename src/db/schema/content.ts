import { sql } from 'drizzle-orm';
import { pgTable, text, integer, timestamp, jsonb, boolean, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { websites } from './platform.js';

/** Collections: pages (type 10), products (13), journals (1 with blog template), galleries, events, folders. */
export const collections = pgTable(
  'collections',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    urlId: text('url_id').notNull(),
    title: text('title').notNull(),
    navigationTitle: text('navigation_title').notNull().default(''),
    description: text('description').notNull().default(''),
    /** Collection type enumeration (generic 1, page 10, products 13, ...). */
    type: integer('type').notNull(),
    /** Which theme template renders it: page, products, blog, gallery, events, folder. */
    typeName: text('type_name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    ordering: integer('ordering').notNull().default(0),
    /** Page body for pages; options for galleries; folder behaviour; page size; ... */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('collections_url_uq').on(t.websiteId, t.urlId)],
);

/** Items of a collection: products, journal posts, events, gallery images. */
export const items = pgTable(
  'items',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    collectionId: text('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    urlId: text('url_id').notNull(),
    title: text('title').notNull(),
    /** Record type enumeration (text 1, image 2, store-item 11, event 12, ...). */
    recordType: integer('record_type').notNull(),
    body: text('body').notNull().default(''),
    excerpt: text('excerpt').notNull().default(''),
    author: text('author').notNull().default(''),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    categories: jsonb('categories').$type<string[]>().notNull().default([]),
    /** 'published' | 'draft' | 'scheduled' | 'needs-review' | 'private'; products also 'archived' (off the storefront, kept for orders). */
    status: text('status').notNull().default('published'),
    publishOn: timestamp('publish_on', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Images: [{assetUrl, originalSize, mediaFocalPoint, altText}] */
    assets: jsonb('assets').$type<Record<string, unknown>[]>().notNull().default([]),
    /** Product structuredContent (without variants, which live in product_variants), event dates and location, ... */
    structuredContent: jsonb('structured_content').$type<Record<string, unknown>>().notNull().default({}),
    commentState: integer('comment_state').notNull().default(0),
    /** A journal post's body as an editor layout (migration 0028): the autosaved draft, the published copy (null: the HTML body shows), and its words for search. */
    layoutDraft: text('layout_draft'),
    layout: text('layout'),
    layoutText: text('layout_text').notNull().default(''),
    ordering: integer('ordering').notNull().default(0),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('items_url_uq').on(t.collectionId, t.urlId),
    index('items_collection_idx').on(t.collectionId, t.ordering),
    // The scheduled-publishing sweeps look for due items every 30 s (migration 0031).
    index('items_scheduled_idx')
      .on(t.publishOn)
      .where(sql`status = 'scheduled'`),
  ],
);

export const comments = pgTable(
  'comments',
  {
    id: text('id').primaryKey(),
    itemId: text('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    authorName: text('author_name').notNull(),
    body: text('body').notNull(),
    approved: boolean('approved').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('comments_item_idx').on(t.itemId)],
);
