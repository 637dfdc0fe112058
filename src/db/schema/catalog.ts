/** Catalogue (issue 24): stock movements of variants and product import jobs. */
import { pgTable, text, integer, bigserial, timestamp, boolean, index } from 'drizzle-orm/pg-core';
import { websites } from './platform.js';
import { productVariants } from './commerce.js';

/**
 * One change of a variant's stock, written by a trigger on product_variants (migration 0019): reason 'sale',
 * 'refund', 'manual' or 'import' (the writer names it with set_config('tessera.stock_reason', ..., true)).
 */
export const stockMovements = pgTable(
  'stock_movements',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    variantId: text('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    itemId: text('item_id').notNull(),
    delta: integer('delta').notNull(),
    qtyAfter: integer('qty_after').notNull(),
    unlimitedAfter: boolean('unlimited_after').notNull().default(false),
    reason: text('reason').notNull(),
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('stock_movements_variant_idx').on(t.variantId, t.id)],
);

/** A product CSV import running in the background; the admin polls its progress. */
export const catalogImportJobs = pgTable('catalog_import_jobs', {
  id: text('id').primaryKey(),
  websiteId: text('website_id')
    .notNull()
    .references(() => websites.id),
  format: text('format').notNull(),
  /** 'queued' | 'running' | 'done' | 'failed' */
  state: text('state').notNull().default('queued'),
  total: integer('total').notNull().default(0),
  done: integer('done').notNull().default(0),
  createdCount: integer('created_count').notNull().default(0),
  updatedCount: integer('updated_count').notNull().default(0),
  error: text('error'),
  created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updated: timestamp('updated', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
