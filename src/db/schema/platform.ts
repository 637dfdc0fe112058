import { pgTable, text, integer, timestamp, jsonb, boolean, index, uniqueIndex, bigserial } from 'drizzle-orm/pg-core';

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
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
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
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
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
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    disabled: boolean('disabled').notNull().default(false),
  },
  (t) => [uniqueIndex('site_users_email_uq').on(t.websiteId, t.email)],
);

/** Site-user profile fields beyond the sign-in ones. */
export const siteUserProfiles = pgTable('site_user_profiles', {
  siteUserId: text('site_user_id')
    .primaryKey()
    .references(() => siteUsers.id, { onDelete: 'cascade' }),
  displayName: text('display_name').notNull().default(''),
  /** The visitor's chosen translation language ('' = the site's). */
  language: text('language').notNull().default(''),
  /** Set when the visitor followed the confirmation link of the sign-up email. */
  confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
  failedSignIns: integer('failed_sign_ins').notNull().default(0),
});

/**
 * Site-user sessions. Only hashes are stored: the session token (an httpOnly cookie) and the xsrf token
 * the client sends as X-SiteUser-XSRF-Token on account calls.
 */
export const siteUserSessions = pgTable(
  'site_user_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    siteUserId: text('site_user_id')
      .notNull()
      .references(() => siteUsers.id, { onDelete: 'cascade' }),
    xsrfHash: text('xsrf_hash').notNull(),
    rememberMe: boolean('remember_me').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('site_user_sessions_user_idx').on(t.siteUserId)],
);

/** One-time site-user tokens: sign-up confirmation ('confirm') and password reset ('reset'). */
export const siteUserTokens = pgTable(
  'site_user_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    siteUserId: text('site_user_id')
      .notNull()
      .references(() => siteUsers.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('site_user_tokens_user_idx').on(t.siteUserId, t.kind)],
);

/** Commerce preferences: one free-form object per namespace. */
export const commercePreferences = pgTable(
  'commerce_preferences',
  {
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    namespace: text('namespace').notNull(),
    value: jsonb('value').$type<Record<string, unknown>>().notNull().default({}),
    version: integer('version').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('commerce_preferences_uq').on(t.websiteId, t.namespace)],
);

/** Every owner change: who, what, before and after. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    websiteId: text('website_id').notNull(),
    accountId: text('account_id'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before').$type<unknown>(),
    after: jsonb('after').$type<unknown>(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_entity_idx').on(t.entity, t.entityId), index('audit_log_at_idx').on(t.websiteId, t.at)],
);
