import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Owner, OwnerService } from '../platform/owners.js';
import { forbidden, unauthorized } from '../errors.js';
import { isSecure } from './crumb.js';

export const OWNER_COOKIE = 'tessera_owner';
/** Marks a requireOwner preHandler with the roles it allows (undefined: any owner), so routes can be audited. */
export const OWNER_ROLES = Symbol('ownerRoles');

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in owner, or null; resolved once per request by `loadOwner`. */
    owner: Owner | null | undefined;
  }
  interface FastifyInstance {
    /** preHandler that answers 401 without an owner session and 403 when the role is not in `roles`. */
    requireOwner(roles?: readonly number[], forbiddenMessage?: string): preHandlerAsyncHookHandler;
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
  app.decorate('requireOwner', (roles?: readonly number[], forbiddenMessage = 'Your role does not allow this.') => {
    const guard = async (req: FastifyRequest) => {
      const owner = await app.loadOwner(req);
      if (!owner) throw unauthorized('Please sign in to continue.');
      if (roles && !roles.includes(owner.role)) throw forbidden(forbiddenMessage);
    };
    return Object.assign(guard, { [OWNER_ROLES]: roles ?? null });
  });
  app.decorate('setOwnerCookie', (req: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date) => {
    reply.setCookie(OWNER_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(req), expires: expiresAt });
  });
});
