/** The store's settings (currency, instalments, minimum order, quantity for services): their JSON and their version-checked save. */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { SUPPORTED_CURRENCIES } from '../../core/money.js';
import { staleEdit, type Site } from './config-common.js';
import { changeSettings } from './settings.js';
import type { WebsiteService } from './websites.js';

export interface StoreSettingsIn {
  version: number;
  currency: string;
  multipleQuantityAllowedForServices: boolean;
  minimumOrderSubtotalCents: number;
  instalmentsEnabled: boolean;
}

export function storeSettingsJson(websites: WebsiteService, site: Site) {
  const s = websites.storeSettings(site);
  return {
    version: site.version,
    currency: site.currency,
    currencies: SUPPORTED_CURRENCIES,
    multipleQuantityAllowedForServices: s.multipleQuantityAllowedForServices,
    minimumOrderSubtotalCents: Number(s.minimumOrderSubtotalCents ?? 0) || 0,
    instalmentsEnabled: s.instalmentsEnabled === true,
  };
}

/** Saves the store settings (the website's version must match) and answers the updated website row. */
export async function saveStoreSettings(db: Db, websiteId: string, accountId: string, body: StoreSettingsIn) {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(schema.websites).where(eq(schema.websites.id, websiteId)).for('update');
    if (row!.version !== body.version) throw staleEdit(row!.version);
    if (row!.currency !== body.currency) {
      await tx.update(schema.websites).set({ currency: body.currency }).where(eq(schema.websites.id, websiteId));
    }
    return changeSettings(tx, websiteId, accountId, 'store-settings.update', (s) => ({
      ...s,
      storeSettings: {
        ...((s.storeSettings ?? {}) as Record<string, unknown>),
        multipleQuantityAllowedForServices: body.multipleQuantityAllowedForServices,
        minimumOrderSubtotalCents: body.minimumOrderSubtotalCents,
        instalmentsEnabled: body.instalmentsEnabled,
      },
    }));
  });
}
