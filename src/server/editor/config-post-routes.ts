/** The /config calls of journal posts' fields; the reads and writes are config-posts.ts's. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../platform/index.js';
import { badRequest } from '../errors.js';
import { platform as platformMessages } from '../../core/messages.js';
import { categoryListErrors, tagListErrors } from '../../core/content.js';
import { can } from '../../core/roles.js';
import { idParam, ownerSiteOf } from '../platform/index.js';
import { contentStatus as status } from '../../core/api/common.js';
import { createPost, listPosts, rawBodyGuard, updatePost } from './config-posts.js';

export async function configPostRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const contentRoles = { preHandler: app.requireOwner(can('pages', 'write')) };
  const pagesRead = { preHandler: app.requireOwner(can('pages', 'read')) };
  const siteOf = ownerSiteOf(app);

  // ---- Journal posts ------------------------------------------------------------------------------
  const postIn = z.object({
    version: z.number().int().optional(),
    collectionId: z.string().max(64).optional(),
    title: z.string({ error: 'Enter a title.' }).trim().min(1, 'Enter a title.').max(300),
    urlId: z.string().trim().max(200).optional(),
    /** The classic HTML body (raw HTML: an admin's, see rawBodyGuard). Left out, an edit keeps the stored body (the editor writes it as blocks). */
    body: z.string().max(500_000).optional(),
    excerpt: z.string().max(2000).optional().default(''),
    /** Left out, a new post is by the signed-in staff member (their display name) and an edit keeps the stored author. */
    author: z.string().max(200).optional(),
    /** The cover image (an uploaded image), null to remove it; left out, an edit keeps it. */
    cover: z
      .object({
        assetUrl: z
          .string()
          .max(300)
          .regex(/^\/uploads\/[A-Za-z0-9._-]+$/, 'Choose an uploaded image.'),
        altText: z.string().max(250).optional().default(''),
        originalSize: z
          .string()
          .max(20)
          .regex(/^\d{1,6}x\d{1,6}$/)
          .nullable()
          .optional(),
      })
      .nullable()
      .optional(),
    // Lengths checked by postLimits (tag 50, category 25 characters). Left out, an edit keeps the stored ones.
    tags: z.array(z.string().trim().min(1).max(1000)).max(100).optional(),
    categories: z.array(z.string().trim().min(1).max(1000)).max(100).optional(),
    status,
    publishOn: z.iso.datetime({ offset: true, error: 'Choose a valid date and time.' }).optional(),
    /** 1 opens the post's comments, 0 closes them. Left out, a new post follows the site's comments setting and an edit keeps the stored state. */
    commentState: z.union([z.literal(0), z.literal(1)], { error: (i) => platformMessages.notExpectedOption(String(i.input)) }).optional(),
  });
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
