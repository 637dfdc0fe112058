/**
 * What the /config data calls share: the stale-edit refusal (every write checks the row's `version`, a second
 * owner saving over a first one is refused and nothing is overwritten), the id and version shapes, and the
 * signed-in owner's website.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError, notFound } from '../errors.js';

export const STALE_EDIT = 'Someone else saved this since you opened it. Reload to see their changes: nothing was overwritten.';

/** The 409 of a stale save, with the row's current version so the admin can reload it. */
export const staleEdit = (currentVersion: number) => new HttpError(409, STALE_EDIT, undefined, { currentVersion });

export const idParam = z.object({ id: z.string().min(1).max(64) });
export const versionQuery = z.object({ version: z.coerce.number().int() });

export type Site = Awaited<ReturnType<FastifyInstance['services']['websites']['get']>>;

/** The website the signed-in owner edits; another website's owner gets a 404. */
export function ownerSiteOf(app: FastifyInstance) {
  return async (req: FastifyRequest): Promise<Site> => {
    const site = await app.services.websites.get();
    if (req.owner!.websiteId !== site.id) throw notFound('No such website.');
    return site;
  };
}
