/**
 * The site-user forms (sign in, sign up, password reset request, new password) as plain form posts. The
 * AccountPage island draws each as `<form method="post">` to the same call it makes with JavaScript, with
 * the crumb in a hidden field, so a password never travels in an address. The route runs the same code
 * either way; for a form post the answer is a 303 (signed in: the account page or `next`) or the account
 * page again with the route's own message as the island would show it, and the email and name kept
 * (never the password).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.js';
import { accountPage } from './account-pages.js';
import type { AccountMode } from '../../core/api/accounts.js';

const one = (v: unknown, max: number): string | undefined => (typeof v === 'string' ? v.slice(0, max) : undefined);

/** A form body in the JSON calls' shape: `rememberMe` from its checkbox. */
export function accountFormBody(body: unknown): Record<string, unknown> {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of ['email', 'password', 'displayName', 'token']) if (typeof b[k] === 'string') out[k] = b[k];
  out.rememberMe = b.rememberMe === 'true' || b.rememberMe === 'on';
  return out;
}

export async function answerAccountForm(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  o: { mode: AccountMode; run: () => Promise<unknown>; redirect?: string; notice?: string; token?: string; next?: string },
) {
  const b = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
  const values = { email: one(b.email, 320), displayName: one(b.displayName, 100) };
  reply.header('cache-control', 'no-store');
  try {
    await o.run();
  } catch (e) {
    if (!(e instanceof HttpError) || e.status >= 500) throw e;
    return accountPage(
      app,
      req,
      reply,
      o.mode,
      { error: e.message, values, ...(o.token ? { token: o.token } : {}), ...(o.next ? { next: o.next } : {}) },
      e.status,
    );
  }
  if (o.redirect) return reply.redirect(o.redirect, 303);
  return accountPage(app, req, reply, o.mode, {
    notice: o.notice,
    values: o.mode === 'reset' ? undefined : values,
    ...(o.token ? { token: o.token } : {}),
  });
}
