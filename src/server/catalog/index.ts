/** The catalogue area (issue 24): the product editor's calls, product list, bulk actions, the bulk editor, duplicating, inventory and stock history, product CSV import and export, digital products' private files. */
import type { FastifyInstance } from 'fastify';
import { catalogRoutes } from './routes.js';
import { productRoutes } from './product-routes.js';
import { importRoutes } from './import.js';
import { digitalFileRoutes } from './digital-files.js';
import { bulkEditRoutes } from './bulk-edit.js';

export async function catalogArea(app: FastifyInstance): Promise<void> {
  await app.register(productRoutes);
  await app.register(catalogRoutes);
  await app.register(importRoutes);
  await app.register(digitalFileRoutes);
  await app.register(bulkEditRoutes);
}
export { privateFileOf, sendDigitalFile } from './digital-files.js';
export { itemUrlId } from './product-service.js';
