/** The audit log's call: the newest entries, of one entity when asked. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { can } from '../../core/roles.js';
import { ownerSiteOf } from './config-common.js';
import { auditEntries } from './audit.js';

export async function auditRoutes(app: FastifyInstance) {
  const teamRead = { preHandler: app.requireOwner(can('team', 'read')) };
  const siteOf = ownerSiteOf(app);
  app.get('/api/config/audit', teamRead, async (req) => {
    const site = await siteOf(req);
    const q = z
      .object({
        entity: z.string().max(50).optional(),
        entityId: z.string().max(64).optional(),
        limit: z.coerce.number().int().min(1).max(200).optional().default(50),
      })
      .parse(req.query ?? {});
    return { entries: await auditEntries(app.database.db, site.id, q) };
  });
}
