import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/index.js';
import { siteCaptcha } from '../captcha/index.js';
import { RestockService } from './service.js';
import { RESTOCK_API, restockRoutes } from './routes.js';
import { inventoryRoutes } from './inventory-routes.js';
import { unsubscribeRoutes } from './unsubscribe-routes.js';
import { onStockChanged } from './service.js';
import { stockChangedHooks, type StockChangedHook } from '../platform/index.js';

export { onStockChanged, type StockLevel } from './service.js';
export { restockSignUpHtml, restockSignUpProps } from './widget.js';

const services = new WeakMap<Database, RestockService>();

/** The platform's product save runs this for every variant whose stock changed (once per process). */
const restockHook: StockChangedHook = async (tx, variantId, before, after) => {
  await onStockChanged(tx, variantId, before, after);
};

/** The restock service of an app (tests and other areas reach it through its database). */
export function restockServiceOf(app: FastifyInstance): RestockService {
  const s = services.get(app.database);
  if (!s) throw new Error('The restock area is not registered on this app');
  return s;
}

/** The restock area: sign-ups, owner lists and sends, the owner's stock call, unsubscribe links. */
export async function restockArea(app: FastifyInstance): Promise<void> {
  const service = new RestockService(app.database, app.services.mailer, app.services.jobs, app.log, app.emailOrigin);
  services.set(app.database, service);
  if (!stockChangedHooks.includes(restockHook)) stockChangedHooks.push(restockHook);
  await restockRoutes(app, { service });
  await inventoryRoutes(app, { service });
  await unsubscribeRoutes(app, { service });

  /** The form's captcha for islands rendered without it. */
  app.get(`${RESTOCK_API}/form`, async (_req, reply) => {
    const captcha = await siteCaptcha(app);
    reply.header('cache-control', 'no-store');
    return { captcha: captcha.publicConfig('product-waitlist') };
  });
}
export { restockEmail } from './emails.js';
export { type RestockJoinHook, restockJoinHooks, sortableId } from './service.js';
export { unsubscribeKey } from './tokens.js';
