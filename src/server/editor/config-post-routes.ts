/** The /config calls of journal posts' fields; the reads and writes are config-posts.ts's. */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { postIn } from '../../core/api/editor.js';
import { parseInput } from '../platform/index.js';
import { badRequest } from '../errors.js';
import { categoryListErrors, tagListErrors } from '../../core/content.js';
import { can } from '../../core/roles.js';
import { idParam, ownerSiteOf } from '../platform/index.js';
import { createPost, listPosts, rawBodyGuard, updatePost } from './config-posts.js';

export async function configPostRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const contentRoles = { preHandler: app.requireOwner(can('pages', 'write')) };
  const pagesRead = { preHandler: app.requireOwner(can('pages', 'read')) };
  const siteOf = ownerSiteOf(app);

  // ---- Journal posts ------------------------------------------------------------------------------
  /** A post's tags and categories within their lengths (tag 50, category 25), or a 400 naming the first that is not. */
  const postLimits = (body: z.infer<typeof postIn>) => {
    const errors = { ...tagListErrors(body.tags ?? []), ...categoryListErrors(body.categories ?? []) };
    const first = Object.values(errors)[0];
    if (first) throw badRequest(first, errors);
    return body;
  };

  app.get('/api/config/posts', pagesRead, async (req) => listPosts(db, await siteOf(req)));
  app.post('/api/config/posts', contentRoles, async (req, reply) => {
    const body = postLimits(parseInput(postIn, req.body));
    rawBodyGuard(req.owner!, body.body);
    const site = await siteOf(req);
    const out = await createPost(db, site, req.owner!, body);
    return reply.status(201).send(out);
  });
  app.put('/api/config/posts/:id', contentRoles, async (req) => {
    const { id } = parseInput(idParam, req.params);
    const body = postLimits(parseInput(postIn, req.body));
    if (body.version === undefined) throw badRequest('version is required.');
    const site = await siteOf(req);
    return updatePost(db, site.id, req.owner!, id, { ...body, version: body.version });
  });
}
