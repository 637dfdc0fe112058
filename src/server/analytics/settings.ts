import { and, eq, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/index.js';
import { schema } from '../../db/index.js';
import type { SiteCache } from '../plugins/index.js';

import { COOKIE_POLICIES, settingsPatch, type AnalyticsSettings, type CookiePolicy } from '../../core/api/analytics.js';
export { COOKIE_POLICIES, settingsPatch, type AnalyticsSettings, type CookiePolicy };

export const DEFAULT_SETTINGS: AnalyticsSettings = Object.freeze({ trackingEnabled: true, retentionDays: 90, cookiePolicy: 'implied' });

/**
 * The analytics settings of a website. Every page reads them: in a page request they are kept per content
 * version (plugins/site-cache.ts; analytics_settings writes move it), elsewhere for a few seconds.
 */
export class AnalyticsSettingsService {
  private cache = new Map<string, { value: AnalyticsSettings; at: number }>();

  constructor(
    private readonly database: Database,
    /** Default retention when a website has no settings row (ANALYTICS_RETENTION_DAYS). */
    private readonly defaults: AnalyticsSettings = DEFAULT_SETTINGS,
    private readonly siteCache: SiteCache | null = null,
    private readonly ttlMs = 3000,
  ) {}

  get(websiteId: string): Promise<AnalyticsSettings> {
    if (this.siteCache?.inScope()) return this.siteCache.get('analytics-settings', websiteId, () => this.load(websiteId));
    const c = this.cache.get(websiteId);
    if (c && Date.now() - c.at < this.ttlMs) return Promise.resolve(c.value);
    return this.load(websiteId);
  }

  private async load(websiteId: string): Promise<AnalyticsSettings> {
    const s = schema.analyticsSettings;
    const rows = await this.database.db.select().from(s).where(eq(s.websiteId, websiteId)).limit(1);
    const row = rows[0];
    const value: AnalyticsSettings = row
      ? {
          trackingEnabled: row.trackingEnabled,
          retentionDays: row.retentionDays,
          cookiePolicy: (COOKIE_POLICIES as readonly string[]).includes(row.cookiePolicy) ? (row.cookiePolicy as CookiePolicy) : 'implied',
        }
      : { ...this.defaults };
    this.cache.set(websiteId, { value, at: Date.now() });
    return value;
  }

  async update(websiteId: string, patch: z.infer<typeof settingsPatch>): Promise<AnalyticsSettings> {
    const next = { ...(await this.get(websiteId)), ...patch };
    const s = schema.analyticsSettings;
    await this.database.db
      .insert(s)
      .values({ websiteId, ...next, updatedAt: new Date() })
      .onConflictDoUpdate({ target: s.websiteId, set: { ...next, updatedAt: new Date() } });
    this.cache.delete(websiteId);
    return this.get(websiteId);
  }
}

/**
 * Deletes raw events (and the distinct-visitor rows) older than the retention period, in small
 * chunks so no long lock is held. Returns the number of raw events removed.
 */
export async function purgeExpired(database: Database, websiteId: string, retentionDays: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const e = schema.analyticsEvents;
  let removed = 0;
  for (let i = 0; i < 1000; i++) {
    const rows = await database.db
      .delete(e)
      .where(
        sql`${e.id} in (select id from analytics_events where website_id = ${websiteId} and received_at < ${cutoff.toISOString()} limit 5000)`,
      )
      .returning({ id: e.id });
    removed += rows.length;
    if (rows.length < 5000) break;
  }
  const u = schema.analyticsDailyUniques;
  await database.db.delete(u).where(and(eq(u.websiteId, websiteId), lt(u.day, cutoff.toISOString().slice(0, 10))));
  return removed;
}
