/** The /config calls of collections (and their navigation titles) and classic pages; the writes are config-pages.ts's. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectionIn, classicPageIn as pageIn, newClassicPageIn as newPageIn } from '../../core/api/editor.js';
import { parseInput } from '../platform/index.js';
import { appReservedUrlIds } from '../platform/index.js';
import { idParam, ownerSiteOf } from '../platform/index.js';
import { cleanOwnerHtml } from '../content/index.js';
import { can } from '../../core/roles.js';
import { createPage, listCollections, saveCollection, type CollectionWriter } from './config-pages.js';

export async function configPageRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const contentRoles = { preHandler: app.requireOwner(can('pages', 'write')) };
  const settingsRoles = { preHandler: app.requireOwner(can('navigation', 'write')) };
  const navigationRead = { preHandler: app.requireOwner(can('navigation', 'read')) };
  const pagesRead = { preHandler: app.requireOwner(can('pages', 'read')) };
  const siteOf = ownerSiteOf(app);
  const writer = async (req: FastifyRequest): Promise<CollectionWriter> => ({
    websiteId: (await siteOf(req)).id,
    accountId: req.owner!.id,
    reserved: () => appReservedUrlIds(app),
  });

  // ---- Collections (and navigation titles) --------------------------------------------------------
  app.get('/api/config/collections', navigationRead, async (req) => {
    const site = await siteOf(req);
    return { collections: await listCollections(db, site.id) };
  });
  app.put('/api/config/collections/:id', settingsRoles, async (req) => {
    const { id } = parseInput(idParam, req.params);
    const body = parseInput(collectionIn, req.body);
    return saveCollection(db, await writer(req), id, body);
  });

  // ---- Pages --------------------------------------------------------------------------------------
  app.get('/api/config/pages', pagesRead, async (req) => {
    const site = await siteOf(req);
    return { pages: await listCollections(db, site.id, true) };
  });
  app.post('/api/config/pages', contentRoles, async (req, reply) => {
    const body = parseInput(newPageIn, req.body);
    const out = await createPage(db, await writer(req), body);
    return reply.status(201).send(out);
  });
  app.put('/api/config/pages/:id', contentRoles, async (req) => {
    const { id } = parseInput(idParam, req.params);
    const body = parseInput(pageIn, req.body);
    return saveCollection(db, await writer(req), id, body, { body: cleanOwnerHtml(body.body) }, true);
  });
}
