import { bigint, bigserial, pgTable } from 'drizzle-orm/pg-core';

/**
 * One row per committed transaction that changed what public pages show (server/plugins/site-cache.ts).
 * Rows are written by statement triggers on the content tables (migration 0013), so every writer, in any
 * area and on any instance, moves the version in its own transaction. Insert-only with one key per
 * transaction: writers never wait on each other for it. The cache folds old rows into one row carrying their
 * summed weight, so the table stays small and the version (the weights' sum) never goes back.
 */
export const siteChanges = pgTable('site_changes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  txid: bigint('txid', { mode: 'number' }).notNull().unique(),
  /** How many committed changes the row stands for: 1 from a trigger; more once older rows are folded into one. */
  weight: bigint('weight', { mode: 'number' }).notNull().default(1),
});
