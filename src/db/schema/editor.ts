import { pgTable, text, integer, timestamp, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { websites } from './platform.js';
import { collections } from './content.js';

/**
 * The editor's layout of a page collection (issue #13). `draft` and `published` hold the canonical
 * text of core/layout.ts serializeLayout (text, not jsonb, so a save -> load -> save round trip is
 * byte-for-byte). `version` is bumped on every change: a save naming an older version is refused.
 */
export const pageLayouts = pgTable(
  'page_layouts',
  {
    collectionId: text('collection_id')
      .primaryKey()
      .references(() => collections.id, { onDelete: 'cascade' }),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    draft: text('draft'),
    published: text('published'),
    version: integer('version').notNull().default(1),
    /** published | draft | scheduled | needs-review | private */
    status: text('status').notNull().default('draft'),
    publishAt: timestamp('publish_at', { withTimezone: true, mode: 'date' }),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
    updatedBy: text('updated_by'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('page_layouts_website_idx').on(t.websiteId), index('page_layouts_due_idx').on(t.status, t.publishAt)],
);

/** Site styles (colour palette and themes, fonts by usage category) as canonical JSON text, versioned. */
export const siteStyles = pgTable('site_styles', {
  websiteId: text('website_id')
    .primaryKey()
    .references(() => websites.id),
  styles: text('styles').notNull(),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Files owners upload (images and other files), kept on disk under DATA_DIR/uploads as `storedName`. */
export const uploads = pgTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    /** image | file */
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    storedName: text('stored_name').notNull(),
    contentType: text('content_type').notNull(),
    bytes: integer('bytes').notNull(),
    /** processing | ready | failed | cancelled */
    status: text('status').notNull().default('processing'),
    error: text('error'),
    /** 'WxH' of images. */
    originalSize: text('original_size'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('uploads_stored_name_uq').on(t.storedName), index('uploads_website_idx').on(t.websiteId, t.createdAt)],
);
