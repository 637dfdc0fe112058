import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Owner, OwnerService } from './owners.js';
import { HttpError, unauthorized } from '../errors.js';
import { isSecure } from '../visitor/index.js';
import { ROLE_REFUSED, roleName, type Access, type Area, type Grant } from '../../core/roles.js';
import { OWNER_COOKIE } from '../../core/cookies.js';

/** Marks a requireOwner preHandler with the roles it allows, so routes can be audited. */
export const OWNER_ROLES = Symbol('ownerRoles');
/** Marks a requireOwner preHandler with the area and access of the roles table (core/roles.ts) it stands for. */
export const OWNER_ACCESS = Symbol('ownerAccess');
/** The answer to a role the table does not admit, unless the route says it in its own words. */
export { ROLE_REFUSED };

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in owner, or null; resolved once per request by `loadOwner`. */
    owner: Owner | null | undefined;
  }
  interface FastifyInstance {
    /**
     * preHandler that answers 401 without an owner session and 403 when the roles table (core/roles.ts) does not
     * give the owner's role this access to the area: `app.requireOwner(can('orders', 'read'))`.
     */
    requireOwner(grant: Grant, forbiddenMessage?: string): preHandlerAsyncHookHandler;
    loadOwner(req: FastifyRequest): Promise<Owner | null>;
    setOwnerCookie(req: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date): void;
  }
}

export const ownerAuthPlugin = fp(async (app: FastifyInstance, opts: { owners: OwnerService }) => {
  app.decorateRequest('owner', undefined);
  app.decorate('loadOwner', async (req: FastifyRequest) => {
    if (req.owner === undefined) req.owner = await opts.owners.fromSession(req.cookies[OWNER_COOKIE]);
    return req.owner;
  });
  app.decorate('requireOwner', (grant: Grant, forbiddenMessage?: string) => {
    const roles = grant.roles as readonly number[];
    const allowedNames = roles.map(roleName);
    const refusal = forbiddenMessage ?? `${ROLE_REFUSED} It needs one of these roles: ${allowedNames.join(', ')}.`;
    const guard = async (req: FastifyRequest) => {
      const owner = await app.loadOwner(req);
      if (!owner) throw unauthorized('Please sign in to continue.');
      if (!roles.includes(owner.role)) throw new HttpError(403, refusal, undefined, { roles: allowedNames });
    };
    const access: { area: Area; access: Access } = { area: grant.area, access: grant.access };
    return Object.assign(guard, { [OWNER_ROLES]: roles, [OWNER_ACCESS]: access });
  });
  app.decorate('setOwnerCookie', (req: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date) => {
    reply.setCookie(OWNER_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(req), expires: expiresAt });
  });
});
