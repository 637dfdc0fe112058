import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { OwnerService } from './owners.js';
import { OWNER_COOKIE } from '../plugins/owner-auth.js';
import { HttpError } from '../errors.js';

export const LOGIN_FAILED = 'That email and password do not match an account.';

const loginBody = z.object({
  email: z.string().trim().min(1, 'Enter your email.').max(320),
  password: z.string().min(1, 'Enter your password.').max(1024),
  crumb: z.string().optional(),
  next: z.string().optional(),
});

/** Only same-site paths under /config are followed after sign-in. */
function safeNext(next: string | undefined): string {
  return next && /^\/config(\/[\w\-/]*)?$/.test(next) ? next : '/config';
}

export async function authRoutes(app: FastifyInstance, opts: { owners: OwnerService }) {
  const { owners } = opts;

  app.post('/api/auth/login', async (req, reply) => {
    const isForm = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    const parsed = loginBody.safeParse(req.body ?? {});
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? 'Invalid request';
      if (isForm) return reply.redirect(`/config/login?error=${encodeURIComponent(message)}`, 303);
      throw new HttpError(400, message);
    }
    const owner = await owners.authenticate(parsed.data.email, parsed.data.password);
    if (!owner) {
      req.log.info({ event: 'owner-login-failed' }, 'owner sign-in refused');
      if (isForm) return reply.redirect(`/config/login?error=${encodeURIComponent(LOGIN_FAILED)}`, 303);
      throw new HttpError(401, LOGIN_FAILED);
    }
    const { token, expiresAt } = await owners.startSession(owner.id);
    app.setOwnerCookie(req, reply, token, expiresAt);
    if (isForm) return reply.redirect(safeNext(parsed.data.next), 303);
    return { ok: true, owner: { email: owner.email, role: owner.role, displayName: owner.displayName } };
  });

  app.post('/api/auth/logout', async (req, reply) => {
    const token = req.cookies[OWNER_COOKIE];
    if (token) await owners.endSession(token);
    reply.clearCookie(OWNER_COOKIE, { path: '/' });
    return { ok: true };
  });

  app.get('/api/auth/me', { preHandler: app.requireOwner() }, async (req) => {
    const o = req.owner!;
    return { email: o.email, role: o.role, displayName: o.displayName, websiteId: o.websiteId };
  });

  /** The one-time sign-in link printed at first start. */
  app.get('/config/login/link', async (req, reply) => {
    const token = (req.query as Record<string, unknown>).token;
    const owner = typeof token === 'string' ? await owners.redeemSignInLink(token) : null;
    if (!owner) return reply.redirect(`/config/login?error=${encodeURIComponent('This sign-in link has expired or was already used.')}`, 303);
    const session = await owners.startSession(owner.id);
    app.setOwnerCookie(req, reply, session.token, session.expiresAt);
    return reply.redirect('/config', 303);
  });
}
