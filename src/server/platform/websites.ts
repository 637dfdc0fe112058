import { eq } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { schema } from '../../db/index.js';
import type { SiteCache } from '../plugins/index.js';

export type WebsiteRow = typeof schema.websites.$inferSelect;

export interface StoreSettings {
  selectedCurrency: string;
  multipleQuantityAllowedForServices: boolean;
  restockNotificationsSuccessText: string;
  [key: string]: unknown;
}

export interface NavLink {
  title: string;
  /** A collection's id, or an external URL. */
  collectionId?: string;
  externalLink?: string;
  children?: NavLink[];
}

/**
 * Reads the single website row of this install. Every page needs it: in a page request it is kept per
 * content version (plugins/site-cache.ts; website writes move it), elsewhere (writes, jobs) for a second.
 */
export class WebsiteService {
  private cache: { row: WebsiteRow; at: number } | null = null;
  constructor(
    private readonly database: Database,
    private readonly siteCache: SiteCache | null = null,
    private readonly ttlMs = 1000,
  ) {}

  get(): Promise<WebsiteRow> {
    if (this.siteCache?.inScope()) return this.siteCache.get('website', 'row', () => this.load());
    const now = Date.now();
    if (this.cache && now - this.cache.at < this.ttlMs) return Promise.resolve(this.cache.row);
    return this.load().then((row) => {
      this.cache = { row, at: now };
      return row;
    });
  }

  private async load(): Promise<WebsiteRow> {
    const rows = await this.database.db.select().from(schema.websites).limit(1);
    const row = rows[0];
    if (!row) throw new Error('No website: the database has not been seeded');
    return row;
  }

  invalidate(): void {
    this.cache = null;
  }

  async updateSettings(id: string, patch: Record<string, unknown>): Promise<void> {
    const rows = await this.database.db.select().from(schema.websites).where(eq(schema.websites.id, id)).limit(1);
    if (!rows[0]) return;
    await this.database.db
      .update(schema.websites)
      .set({ settings: { ...rows[0].settings, ...patch }, version: rows[0].version + 1 })
      .where(eq(schema.websites.id, id));
    this.invalidate();
  }

  /** Kept per row (a row is read per content version and never changed in place): shared, read-only. */
  private readonly storeSettingsOf = new WeakMap<WebsiteRow, StoreSettings>();

  storeSettings(row: WebsiteRow): StoreSettings {
    let made = this.storeSettingsOf.get(row);
    if (!made) {
      made = this.makeStoreSettings(row);
      this.storeSettingsOf.set(row, made);
    }
    return made;
  }

  private makeStoreSettings(row: WebsiteRow): StoreSettings {
    const s = (row.settings.storeSettings ?? {}) as Partial<StoreSettings>;
    return {
      ...s,
      selectedCurrency: row.currency,
      multipleQuantityAllowedForServices: s.multipleQuantityAllowedForServices ?? true,
      restockNotificationsSuccessText: s.restockNotificationsSuccessText || 'Signed up!',
    };
  }
}
