import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { websites } from './platform.js';

/**
 * URL redirects (server/seo/redirects.ts, migration 0017): the owner's rules ('manual', replaced together
 * when the URL-mappings text is saved) and the 301s the database writes when a collection's or item's url
 * id changes ('auto', from triggers on collections and items). Writes move the content version.
 */
export const urlRedirects = pgTable(
  'url_redirects',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    /** 'manual' | 'auto'. */
    kind: text('kind').notNull(),
    fromPath: text('from_path').notNull(),
    toPath: text('to_path').notNull(),
    /** 301 or 302. */
    status: integer('status').notNull().default(301),
    ordering: integer('ordering').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('url_redirects_site_idx').on(t.websiteId, t.kind, t.ordering),
    uniqueIndex('url_redirects_auto_uq')
      .on(t.websiteId, t.fromPath)
      .where(sql`${t.kind} = 'auto'`),
  ],
);
