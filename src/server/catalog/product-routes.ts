/**
 * The product editor's calls: the store pages, the product list, one product, and its create, update,
 * duplicate and delete. Each write is one transaction of product-service.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../platform/index.js';
import { badRequest, notFound } from '../errors.js';
import { can } from '../../core/roles.js';
import { idParam, ownerSiteOf, versionQuery } from '../platform/index.js';
import {
  checkedProduct,
  createProductTx,
  deleteProductTx,
  listProducts,
  listStores,
  productIn,
  productOf,
  updateProductTx,
} from './product-service.js';
import { duplicateProductTx } from './product-copy.js';
import { productDuplicateIn } from '../../core/api/catalog.js';

export async function productRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const storeRoles = { preHandler: app.requireOwner(can('products', 'write')) };
  const readRoles = { preHandler: app.requireOwner(can('products', 'read')) };
  const navigationRead = { preHandler: app.requireOwner(can('navigation', 'read')) };
  const siteOf = ownerSiteOf(app);

  app.get('/api/config/stores', navigationRead, async (req) => {
    const site = await siteOf(req);
    return { stores: await listStores(db, site.id) };
  });

  app.get('/api/config/products', readRoles, async (req) => {
    const site = await siteOf(req);
    const q = z.object({ collectionId: z.string().max(64).optional() }).parse(req.query ?? {});
    return { products: await listProducts(db, site.id, q.collectionId) };
  });

  app.get('/api/config/products/:id', readRoles, async (req, reply) => {
    const { id } = parseInput(idParam, req.params);
    const site = await siteOf(req);
    const p = await productOf(db, site.id, id);
    if (!p) throw notFound('No such product.');
    reply.header('cache-control', 'no-store');
    return p;
  });

  app.post('/api/config/products', storeRoles, async (req, reply) => {
    const p = checkedProduct(parseInput(productIn, req.body));
    const site = await siteOf(req);
    const out = await db.transaction((tx) => createProductTx(tx, site.id, req.owner!.id, p));
    return reply.status(201).send(out);
  });

  app.put('/api/config/products/:id', storeRoles, async (req) => {
    const { id } = parseInput(idParam, req.params);
    const p = checkedProduct(parseInput(productIn, req.body));
    if (p.version === undefined) throw badRequest('version is required.', { version: 'version is required.' });
    const site = await siteOf(req);
    return db.transaction((tx) => updateProductTx(tx, site.id, req.owner!.id, id, p));
  });

  app.post('/api/config/products/:id/duplicate', storeRoles, async (req, reply) => {
    const { id } = parseInput(idParam, req.params);
    const { title } = parseInput(productDuplicateIn, req.body ?? {});
    const site = await siteOf(req);
    const out = await db.transaction((tx) => duplicateProductTx(tx, site.id, req.owner!.id, id, title));
    return reply.status(201).send(out);
  });

  app.delete('/api/config/products/:id', storeRoles, async (req) => {
    const { id } = parseInput(idParam, req.params);
    const { version } = parseInput(versionQuery, req.query);
    const site = await siteOf(req);
    await db.transaction((tx) => deleteProductTx(tx, site.id, req.owner!.id, id, version));
    return { ok: true };
  });
}
