/** The restock calls: the visitor's sign-up, and the owner's lists, sends, history and settings. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { sql } from 'drizzle-orm';
import { validateRestockEmail } from '../../core/restock.js';
import { forms, restock } from '../../core/messages.js';
import { badRequest, HttpError } from '../errors.js';
import { siteCaptcha } from '../captcha/index.js';
import { rows } from '../db-util.js';
import { RESTOCK_TEXT, type RestockService } from './service.js';
import { restockSettingsOf, successTextOf } from './settings.js';
import { isFormPost } from '../visitor/index.js';
import { restockFromForm, restockSentRoute } from './restock-form.js';
import { can } from '../../core/roles.js';
import {
  LANGUAGE_TAG,
  pageCursor,
  pageSizeQuery,
  restockSendAllIn,
  restockSendIn,
  restockSettingsIn,
  restockSignUpIn,
} from '../../core/api/restock.js';

export const RESTOCK_API = '/api/site-users/account/notifications/restock';

/** Visitors: 20 sign-ups a minute per IP address. */
export const SIGN_UP_LIMIT = { name: 'restock-sign-up', max: 20, windowMs: 60_000, message: forms.STATUS_429 };

const id = z.string().trim().min(1).max(64);
const LANGUAGE = LANGUAGE_TAG;
const signUpBody = restockSignUpIn;
const cursor = pageCursor;
const pageSize = pageSizeQuery;

export async function restockRoutes(app: FastifyInstance, opts: { service: RestockService }) {
  const { service } = opts;
  const owner = { preHandler: app.requireOwner(can('restock', 'write')) };
  const ownerRead = { preHandler: app.requireOwner(can('restock', 'read')) };

  restockSentRoute(app);
  app.post(RESTOCK_API, { preHandler: app.services.rateLimiter.guard(SIGN_UP_LIMIT) }, async (req, reply) => {
    // A plain form post (no JavaScript, so no captcha token): the no-script path, then the same service.
    if (isFormPost(req)) return restockFromForm(app, req, reply, service);
    const body = signUpBody.parse(req.body ?? {});
    const emailError = validateRestockEmail(body.siteVisitorEmail);
    if (emailError) throw badRequest(emailError, { siteVisitorEmail: emailError });
    if (body.language !== undefined && !LANGUAGE.test(body.language))
      throw badRequest(RESTOCK_TEXT.BAD_LANGUAGE, { language: RESTOCK_TEXT.BAD_LANGUAGE });

    const site = (
      await rows<{ id: string; settings: Record<string, unknown> }>(
        app.database.db,
        sql`SELECT id, settings FROM websites ORDER BY created_at LIMIT 1`,
      )
    )[0];
    const captcha = await siteCaptcha(app, site?.id);
    const enterprise = captcha.kind === 'recaptcha-enterprise';
    const token = enterprise
      ? (body.recaptchaEnterpriseV3Token ?? body.captchaToken)
      : (body.captchaToken ?? body.recaptchaEnterpriseV3Token);
    if (!token) throw badRequest(enterprise ? restock.ENTERPRISE_FALLBACK : forms.CAPTCHA_INCOMPLETE);
    const verdict = await captcha.verify(token, 'product-waitlist', req.ip);
    if (!verdict.ok) throw badRequest(enterprise ? restock.ENTERPRISE_FALLBACK : forms.RECAPTCHA_FAILED);

    const r = await service.signUp({
      productId: body.productId,
      variantId: body.variantId,
      email: body.siteVisitorEmail!,
      isJoinMailingList: body.isJoinMailingList,
      language: body.language ?? null,
      origin: await app.emailOrigin(),
    });
    return { success: true, created: r.created, message: successTextOf(site?.settings ?? {}) };
  });

  app.get(`${RESTOCK_API}/groups`, ownerRead, async (req) => {
    const q = z.object({ cursor, pageSize }).parse(req.query);
    const page = await service.groups(req.owner!.websiteId, q.cursor, q.pageSize);
    return { signUpGroups: page.items, hasNextPage: page.hasNextPage, nextPageCursor: page.nextPageCursor };
  });

  app.get(RESTOCK_API, ownerRead, async (req) => {
    const q = z
      .object({ productId: id, variantId: id, cursor, pageSize, status: z.enum(['pending', 'sent', 'unsubscribed', 'all']).optional() })
      .parse(req.query);
    const page = await service.signUps(req.owner!.websiteId, q);
    return { signUps: page.items, hasNextPage: page.hasNextPage, nextPageCursor: page.nextPageCursor };
  });

  app.post(`${RESTOCK_API}/send`, owner, async (req) => {
    const b = restockSendIn.parse(req.body ?? {});
    const [r] = await service.requestSends(req.owner!.websiteId, [b], {
      requestedBy: req.owner!.id,
      origin: await app.emailOrigin(),
      strict: true,
    });
    return { send: r!.send, joined: r!.result === 'joined' };
  });

  app.post(`${RESTOCK_API}/send/all`, owner, async (req) => {
    const b = restockSendAllIn.parse(req.body ?? {});
    const results = await service.requestSends(req.owner!.websiteId, b.sendRequests, {
      requestedBy: req.owner!.id,
      origin: await app.emailOrigin(),
      strict: false,
    });
    return { results };
  });

  app.get(`${RESTOCK_API}/sends`, ownerRead, async (req) => {
    const q = z.object({ cursor, pageSize }).parse(req.query);
    const page = await service.sends(req.owner!.websiteId, q.cursor, q.pageSize);
    return { sends: page.items, hasNextPage: page.hasNextPage, nextPageCursor: page.nextPageCursor };
  });

  app.get(`${RESTOCK_API}/settings`, ownerRead, async (req) => {
    const r = await rows<{ settings: Record<string, unknown> }>(
      app.database.db,
      sql`SELECT settings FROM websites WHERE id = ${req.owner!.websiteId}`,
    );
    const s = r[0]?.settings ?? {};
    return { settings: restockSettingsOf(s), successText: successTextOf(s) };
  });

  app.put(`${RESTOCK_API}/settings`, owner, async (req) => {
    const b = restockSettingsIn.parse(req.body ?? {});
    const websiteId = req.owner!.websiteId;
    const saved = await app.database.db.transaction(async (tx) => {
      const r = await rows<{ settings: Record<string, unknown> }>(
        tx,
        sql`SELECT settings FROM websites WHERE id = ${websiteId} FOR UPDATE`,
      );
      if (!r[0]) throw new HttpError(404, 'Not found');
      const all = r[0].settings;
      const store = { ...((all.storeSettings as Record<string, unknown>) ?? {}) };
      store.restockNotifications = { ...restockSettingsOf(all), ...(b.settings ?? {}) };
      if (b.successText !== undefined) store.restockNotificationsSuccessText = b.successText;
      const next = { ...all, storeSettings: store };
      await tx.execute(sql`UPDATE websites SET settings = ${JSON.stringify(next)}::jsonb, version = version + 1 WHERE id = ${websiteId}`);
      return next;
    });
    app.services.websites.invalidate();
    return { settings: restockSettingsOf(saved), successText: successTextOf(saved) };
  });
}
