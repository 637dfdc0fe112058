/**
 * The owner's engagement settings (one `engagement_settings` row per website): the promo popup and the
 * cookie banner. Validated with zod at the edge; on read, defaults fill what is missing or bad.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/index.js';
import { rows } from '../db-util.js';
import type { SiteCache } from '../plugins/index.js';
import type { PopupPublic } from '../../core/engagement.js';
import { engagement as m } from '../../core/messages.js';

import { cookieBannerSchema, popupSchema, type CookieBannerSettings, type PopupSettings } from '../../core/api/engagement.js';
export { cookieBannerSchema, popupSchema, type CookieBannerSettings, type PopupSettings };

export const POPUP_DEFAULTS: PopupSettings = {
  enabled: false,
  version: 1,
  title: 'Join our newsletter',
  text: 'News, new arrivals and offers, about once a month.',
  imageUrl: '',
  imageAlt: '',
  action: 'newsletter',
  buttonText: 'Sign Up',
  buttonUrl: '',
  placeholder: 'Email Address',
  successText: m.POPUP_THANKS,
  listId: null,
  anchor: 'center-center',
  trigger: 'delay',
  delaySeconds: 5,
  scrollPercent: 50,
  pages: 'all',
  showAgainDays: 0,
  captcha: true,
};

export const COOKIE_BANNER_DEFAULTS: CookieBannerSettings = { mode: 'off', text: '', policyUrl: '' };

type Obj = Record<string, unknown>;

/** Fills defaults field by field, dropping what does not validate (never throws). */
function lenient<T extends Obj>(schema: z.ZodObject, defaults: T, raw: unknown): T {
  const src = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Obj) : {};
  const out: Obj = { ...defaults };
  for (const [k, s] of Object.entries(schema.shape)) {
    const p = (s as z.ZodType).safeParse(src[k]);
    if (p.success) out[k] = p.data;
  }
  return out as T;
}

export function popupOf(raw: unknown): PopupSettings {
  const p = lenient(popupSchema, POPUP_DEFAULTS, raw);
  const v = raw && typeof raw === 'object' ? Number((raw as Obj).version) : NaN;
  p.version = Number.isSafeInteger(v) && v > 0 ? v : 1;
  return p;
}

export function cookieBannerOf(raw: unknown): CookieBannerSettings {
  return lenient(cookieBannerSchema, COOKIE_BANNER_DEFAULTS, raw);
}

/** What the browser gets: no list id, no page list, no captcha switch. */
export function popupPublic(p: PopupSettings): PopupPublic {
  return {
    version: p.version,
    title: p.title,
    text: p.text,
    imageUrl: p.imageUrl,
    imageAlt: p.imageAlt,
    action: p.action,
    buttonText: p.buttonText,
    buttonUrl: p.buttonUrl,
    placeholder: p.placeholder,
    successText: p.successText,
    anchor: p.anchor,
    trigger: p.trigger,
    delaySeconds: p.delaySeconds,
    scrollPercent: p.scrollPercent,
    showAgainDays: p.showAgainDays,
  };
}

export interface EngagementSettings {
  popup: PopupSettings;
  cookieBanner: CookieBannerSettings;
}

/**
 * Reads and writes the settings row. Every page reads it: in a page request it is kept per content
 * version (plugins/site-cache.ts; engagement_settings writes move it), elsewhere for a moment.
 */
export class EngagementSettingsService {
  private cache = new Map<string, { value: EngagementSettings; at: number }>();

  constructor(
    private readonly database: Database,
    private readonly siteCache: SiteCache | null = null,
    private readonly ttlMs = 2000,
  ) {}

  get(websiteId: string): Promise<EngagementSettings> {
    if (this.siteCache?.inScope()) return this.siteCache.get('engagement-settings', websiteId, () => this.load(websiteId));
    const c = this.cache.get(websiteId);
    if (c && Date.now() - c.at < this.ttlMs) return Promise.resolve(c.value);
    return this.load(websiteId).then((value) => {
      this.cache.set(websiteId, { value, at: Date.now() });
      return value;
    });
  }

  private async load(websiteId: string): Promise<EngagementSettings> {
    const r = await rows<{ popup: unknown; cookie_banner: unknown }>(
      this.database.db,
      sql`SELECT popup, cookie_banner FROM engagement_settings WHERE website_id = ${websiteId}`,
    );
    return { popup: popupOf(r[0]?.popup), cookieBanner: cookieBannerOf(r[0]?.cookie_banner) };
  }

  /**
   * Saves the popup. The version goes up by one with every change of what visitors see, so a visitor
   * who closed the old popup sees the new one (its local storage holds the old version).
   */
  async savePopup(websiteId: string, next: z.infer<typeof popupSchema>): Promise<PopupSettings> {
    return this.database.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO engagement_settings (website_id) VALUES (${websiteId}) ON CONFLICT (website_id) DO NOTHING`);
      const r = await rows<{ popup: unknown }>(tx, sql`SELECT popup FROM engagement_settings WHERE website_id = ${websiteId} FOR UPDATE`);
      const before = popupOf(r[0]?.popup);
      const { version: _v, ...rest } = before;
      const changed = JSON.stringify(rest) !== JSON.stringify({ ...rest, ...next });
      const saved: PopupSettings = { ...before, ...next, version: changed ? before.version + 1 : before.version };
      await tx.execute(
        sql`UPDATE engagement_settings SET popup = ${JSON.stringify(saved)}::jsonb, updated_at = now() WHERE website_id = ${websiteId}`,
      );
      this.cache.delete(websiteId);
      return saved;
    });
  }

  async saveCookieBanner(websiteId: string, next: CookieBannerSettings): Promise<CookieBannerSettings> {
    await this.database.db.execute(
      sql`INSERT INTO engagement_settings (website_id, cookie_banner) VALUES (${websiteId}, ${JSON.stringify(next)}::jsonb)
          ON CONFLICT (website_id) DO UPDATE SET cookie_banner = EXCLUDED.cookie_banner, updated_at = now()`,
    );
    this.cache.delete(websiteId);
    return next;
  }
}
