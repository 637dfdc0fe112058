/** The store settings' calls (currency, instalments, minimum order, quantity for services); the save is store-settings.ts's. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SUPPORTED_CURRENCIES } from '../../core/money.js';
import { platform as platformMessages } from '../../core/messages.js';
import { can } from '../../core/roles.js';
import { parseInput } from './validate.js';
import { ownerSiteOf } from './config-common.js';
import { cents } from '../../core/api/common.js';
import { saveStoreSettings, storeSettingsJson } from './store-settings.js';

export async function storeSettingsRoutes(app: FastifyInstance) {
  const websites = app.services.websites;
  const storeSettingsRead = { preHandler: app.requireOwner(can('store-settings', 'read')) };
  const storeSettings = { preHandler: app.requireOwner(can('store-settings', 'write')) };
  const siteOf = ownerSiteOf(app);
  const storeSettingsIn = z.object({
    version: z.number().int(),
    currency: z.enum(SUPPORTED_CURRENCIES as unknown as [string, ...string[]], {
      error: (i) => platformMessages.notExpectedOption(String(i.input)),
    }),
    multipleQuantityAllowedForServices: z.boolean(),
    minimumOrderSubtotalCents: cents('Minimum order'),
    instalmentsEnabled: z.boolean(),
  });
  app.get('/api/config/store-settings', storeSettingsRead, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return storeSettingsJson(websites, await siteOf(req));
  });
  app.put('/api/config/store-settings', storeSettings, async (req) => {
    const body = parseInput(storeSettingsIn, req.body);
    const site = await siteOf(req);
    const updated = await saveStoreSettings(app.database.db, site.id, req.owner!.id, body);
    websites.invalidate();
    return storeSettingsJson(websites, updated);
  });
}
