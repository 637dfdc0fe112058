/**
 * The restock sign-up as a plain form post (no JavaScript). The RestockSignUp island draws a form that
 * posts productId, variantId (hidden, or a select of the sold-out variants), email, isJoinMailingList and
 * the honeypot; without a captcha token it takes the no-script path (no-script-guard.ts), then calls the
 * same RestockService.signUp with the same checks and answers a page with the island's words.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { validateRestockEmail } from '../../core/restock.js';
import { HttpError } from '../errors.js';
import { rows } from '../db-util.js';
import type { RestockService } from './service.js';
import { successTextOf } from './settings.js';
import { checkNoScriptPost } from '../site-page/index.js';
import { productPath, refererPath, sendNotice } from '../site-page/index.js';

const one = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;
const TITLE = 'Back in stock notification';

/** Where a plain restock sign-up that went through lands: the sign-up's thanks, with the way back to the product. */
export const RESTOCK_SENT_PATH = '/restock/signed-up';

export function restockSentRoute(app: FastifyInstance) {
  app.get(RESTOCK_SENT_PATH, async (req, reply) => {
    const product = one((req.query as Record<string, unknown>).product) ?? '';
    const back = { href: (await productPath(app, product.trim())) ?? '/', label: 'Back to the product' };
    const site = (
      await rows<{ settings: Record<string, unknown> }>(app.database.db, sql`SELECT settings FROM websites ORDER BY created_at LIMIT 1`)
    )[0];
    return sendNotice(app, req, reply, { status: 200, ok: true, title: TITLE, message: successTextOf(site?.settings ?? {}), back });
  });
}

export async function restockFromForm(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, service: RestockService) {
  const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
  const back = {
    href: (await productPath(app, (one(body.productId) ?? '').trim())) ?? refererPath(req, '/'),
    label: 'Back to the product',
  };
  try {
    await checkNoScriptPost(app, req, body.honeypot);
    const email = (one(body.email) ?? one(body.siteVisitorEmail) ?? '').slice(0, 2000);
    const emailError = validateRestockEmail(email);
    if (emailError) throw new HttpError(400, emailError);
    const productId = (one(body.productId) ?? '').trim().slice(0, 64);
    const variantId = (one(body.variantId) ?? '').trim().slice(0, 64);
    if (!productId || !variantId) throw new HttpError(400, 'Please choose the item you would like to be notified about.');
    const join = ['on', 'true', '1'].includes(one(body.isJoinMailingList) ?? '');
    await service.signUp({ productId, variantId, email, isJoinMailingList: join, language: null, origin: await app.emailOrigin() });
    // POST/redirect/GET: the thanks page is a GET of its own, so reloading it signs up nobody again.
    return reply.redirect(`${RESTOCK_SENT_PATH}?product=${encodeURIComponent(productId)}`, 303);
  } catch (e) {
    if (!(e instanceof HttpError) || e.status >= 500) throw e;
    return sendNotice(app, req, reply, { status: e.status, ok: false, title: TITLE, message: e.message, back });
  }
}
