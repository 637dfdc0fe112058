/** The catalogue area (issue 24): product list, bulk actions, inventory and stock history, product CSV import and export, digital products' private files. */
import type { FastifyInstance } from 'fastify';
import { catalogRoutes } from './routes.js';
import { importRoutes } from './import.js';
import { digitalFileRoutes } from './digital-files.js';

export async function catalogArea(app: FastifyInstance): Promise<void> {
  await app.register(catalogRoutes);
  await app.register(importRoutes);
  await app.register(digitalFileRoutes);
}
export { privateFileOf, sendDigitalFile } from './digital-files.js';
