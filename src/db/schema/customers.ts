import { pgTable, text, timestamp, jsonb, primaryKey } from 'drizzle-orm/pg-core';
import { websites } from './platform.js';

/** What the owner keeps about a customer, by lower-cased email: name and phone, a note and tags. */
export const customerProfiles = pgTable(
  'customer_profiles',
  {
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    emailKey: text('email_key').notNull(),
    name: text('name').notNull().default(''),
    phone: text('phone').notNull().default(''),
    note: text('note').notNull().default(''),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    updated: timestamp('updated', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'customer_profiles_pk', columns: [t.websiteId, t.emailKey] })],
);
