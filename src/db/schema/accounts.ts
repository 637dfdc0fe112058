import { pgTable, text, timestamp, boolean, index } from 'drizzle-orm/pg-core';
import { siteUsers } from './platform.js';

/** A site user's saved shipping addresses (the account page); the default one prefills checkout. */
export const siteUserAddresses = pgTable(
  'site_user_addresses',
  {
    id: text('id').primaryKey(),
    siteUserId: text('site_user_id')
      .notNull()
      .references(() => siteUsers.id, { onDelete: 'cascade' }),
    websiteId: text('website_id').notNull(),
    name: text('name').notNull(),
    line1: text('line1').notNull(),
    line2: text('line2').notNull().default(''),
    city: text('city').notNull(),
    region: text('region').notNull().default(''),
    postalCode: text('postal_code').notNull(),
    country: text('country').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    created: timestamp('created', { withTimezone: true, mode: 'date', precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('site_user_addresses_user_idx').on(t.siteUserId, t.created)],
);
