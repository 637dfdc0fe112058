import { bigint, bigserial, pgTable } from 'drizzle-orm/pg-core';

/**
 * One row per committed transaction that changed what public pages show (server/plugins/site-cache.ts).
 * Rows are written by statement triggers on the content tables (migration 0013), so every writer, in any
 * area and on any instance, moves the version in its own transaction. Insert-only with one key per
 * transaction: writers never wait on each other for it.
 */
export const siteChanges = pgTable('site_changes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  txid: bigint('txid', { mode: 'number' }).notNull().unique(),
});
