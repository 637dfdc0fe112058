import { pgTable, text, integer, timestamp, jsonb, boolean, index, uniqueIndex } from 'drizzle-orm/pg-core';

/** One row per site. Tessera serves a single website per install, but every row carries websiteId. */
export const websites = pgTable('websites', {
  id: text('id').primaryKey(),
  title: text('title').notNull(),
  currency: text('currency').notNull().default('USD'),
  locale: text('locale').notNull().default('en-US'),
  timeZone: text('time_zone').notNull().default('America/New_York'),
  /** Free-form site settings (header/footer injection, store settings, navigation, ...). */
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  version: integer('version').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Platform accounts: owners and team members, with a role of the role enumeration. */
export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id').notNull().references(() => websites.id),
    email: text('email').notNull(),
    displayName: text('display_name').notNull().default(''),
    passwordHash: text('password_hash'),
    role: integer('role').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('accounts_email_uq').on(t.email)],
);

/** Owner sessions and one-time sign-in links. Only hashes of tokens are stored. */
export const ownerSessions = pgTable(
  'owner_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull().default('session'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('owner_sessions_account_idx').on(t.accountId)],
);

/** Key/value store for install-wide values (the signing secret, schema facts). */
export const systemValues = pgTable('system_values', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const siteUsers = pgTable(
  'site_users',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id').notNull().references(() => websites.id),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    disabled: boolean('disabled').notNull().default(false),
  },
  (t) => [uniqueIndex('site_users_email_uq').on(t.websiteId, t.email)],
);
