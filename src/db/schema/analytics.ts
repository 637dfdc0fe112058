import {
  pgTable,
  text,
  integer,
  timestamp,
  jsonb,
  boolean,
  index,
  bigserial,
  bigint,
  doublePrecision,
  date,
  primaryKey,
} from 'drizzle-orm/pg-core';
import { websites } from './platform.js';

/**
 * Analytics storage. Raw events are append-only and kept for the website's retention period (a purge
 * removes older rows in small chunks); everything the dashboard shows is read from the per-day
 * roll-ups, which the ingest batches update additively, so several instances can write at once.
 */

/** Raw events, append-only; purged after `analytics_settings.retention_days`. */
export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    websiteId: text('website_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** census, event, legacy, error or vital. */
    source: text('source').notNull(),
    name: text('name').notNull(),
    visitorId: text('visitor_id'),
    sessionId: text('session_id'),
    path: text('path'),
    itemId: text('item_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    index('analytics_events_received_idx').on(t.receivedAt),
    index('analytics_events_site_received_idx').on(t.websiteId, t.receivedAt),
  ],
);

/** Per-day roll-ups: a count and a sum per (metric, dimension), e.g. ('page', '/shop') or ('vital:LCP', bucket). */
export const analyticsDaily = pgTable(
  'analytics_daily',
  {
    websiteId: text('website_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    metric: text('metric').notNull(),
    dim: text('dim').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
    total: doublePrecision('total').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.websiteId, t.day, t.metric, t.dim] }),
    index('analytics_daily_metric_idx').on(t.websiteId, t.metric, t.day),
  ],
);

/** Distinct visitors per day and metric ('visitor', 'funnel:add_to_cart', ...). */
export const analyticsDailyUniques = pgTable(
  'analytics_daily_uniques',
  {
    websiteId: text('website_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    metric: text('metric').notNull(),
    visitor: text('visitor').notNull(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.metric, t.day, t.visitor] })],
);

/** JavaScript errors grouped by message: the latest occurrence and the running count. */
export const analyticsErrorGroups = pgTable(
  'analytics_error_groups',
  {
    websiteId: text('website_id').notNull(),
    fingerprint: text('fingerprint').notNull(),
    message: text('message').notNull(),
    lastStack: text('last_stack').notNull().default(''),
    lastUrl: text('last_url').notNull().default(''),
    lastBrowser: text('last_browser').notNull().default(''),
    count: bigint('count', { mode: 'number' }).notNull(),
    firstSeen: timestamp('first_seen', { withTimezone: true, mode: 'date' }).notNull(),
    lastSeen: timestamp('last_seen', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.fingerprint] })],
);

/** Per-website analytics settings: global tracking switch, raw-event retention, cookie policy. */
export const analyticsSettings = pgTable('analytics_settings', {
  websiteId: text('website_id')
    .primaryKey()
    .references(() => websites.id, { onDelete: 'cascade' }),
  trackingEnabled: boolean('tracking_enabled').notNull().default(true),
  retentionDays: integer('retention_days').notNull().default(90),
  /** implied: collect at once; ask: wait for the visitor's decision; restrictive: never collect what needs consent. */
  cookiePolicy: text('cookie_policy').notNull().default('implied'),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
