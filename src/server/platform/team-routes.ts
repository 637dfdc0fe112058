/** The Team screen's calls: the members, adding one, changing a role, removing one (an admin's); the writes are team.ts's. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { can } from '../../core/roles.js';
import { parseInput } from './validate.js';
import { idParam, ownerSiteOf } from './config-common.js';
import { addMember, changeRole, listMembers, removeMember } from './team.js';
import { inviteBody, roleCode } from './team-invites.js';

export async function teamRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const teamRead = { preHandler: app.requireOwner(can('team', 'read')) };
  const adminOnly = { preHandler: app.requireOwner(can('team', 'write')) };
  const siteOf = ownerSiteOf(app);
  const memberIn = inviteBody.extend({
    password: z.string().min(8, 'Use at least 8 characters for the password.').max(1024),
  });
  app.get('/api/config/team', teamRead, async (req) => {
    const site = await siteOf(req);
    return { members: await listMembers(db, site.id) };
  });
  app.post('/api/config/team', adminOnly, async (req, reply) => {
    const body = parseInput(memberIn, req.body);
    const site = await siteOf(req);
    return reply.status(201).send(await addMember(db, site.id, req.owner!.id, body));
  });
  app.put('/api/config/team/:id', adminOnly, async (req) => {
    const { id } = parseInput(idParam, req.params);
    const { role } = parseInput(z.object({ role: roleCode }), req.body);
    const site = await siteOf(req);
    return changeRole(db, site.id, req.owner!.id, id, role);
  });
  app.delete('/api/config/team/:id', adminOnly, async (req) => {
    const { id } = parseInput(idParam, req.params);
    const site = await siteOf(req);
    await removeMember(db, site.id, req.owner!.id, id);
    return { ok: true };
  });
}
