/**
 * The engagement calls.
 * Visitors: the popup's newsletter sign-up, the no-JavaScript cookie choice, and the signed newsletter
 * links (unsubscribe, page type 300; double opt-in confirm). The links are not under /api: the signed
 * token is the proof and a mail client has no crumb; GET only shows a page (mail scanners follow links),
 * POST acts (the page's button, or an RFC 8058 one-click request).
 * Owners (/api/config/engagement): popup, cookie banner, mailing lists with CSV export, email previews (301).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Role, PageType } from '../../core/enums.js';
import { engagement as m, forms as fm } from '../../core/messages.js';
import {
  CONSENT_CHOICES_COOKIE,
  CONSENT_COOKIE,
  CONSENT_MAX_AGE_SECONDS,
  CENSUS_COOKIES,
  NOTICE_COOKIE,
  formatChoices,
  type ConsentChoices,
} from '../../core/engagement.js';
import { badRequest, HttpError } from '../errors.js';
import { siteCaptcha } from '../captcha/index.js';
import { isSecure } from '../plugins/crumb.js';
import { cookieBannerSchema, popupSchema, type EngagementSettingsService } from './settings.js';
import { CONFIRM_PATH, UNSUBSCRIBE_PATH, emailProblem, type MailingLists } from './lists.js';
import { emailPreview, emailPreviewNames } from './email-previews.js';

export const API = '/api/config/engagement';
export const SIGN_UP_PATH = '/api/engagement/newsletter';
export const CONSENT_PATH = '/api/engagement/consent';

/** Popup, cookie banner and lists: the site's admins and website managers; lists also campaigns editors. */
export const SETTINGS_ROLES = [Role.ADMIN, Role.WEBSITE_MANAGER] as const;
export const LIST_ROLES = [Role.ADMIN, Role.WEBSITE_MANAGER, Role.CAMPAIGNS_EDITOR] as const;
export const PREVIEW_ROLES = [Role.ADMIN, Role.WEBSITE_MANAGER, Role.STORE_MANAGER, Role.CAMPAIGNS_EDITOR] as const;

/** Visitors: 10 newsletter sign-ups a minute per IP address. */
export const SIGN_UP_LIMIT = { name: 'newsletter-sign-up', max: 10, windowMs: 60_000, message: fm.STATUS_429 };

const body = <T extends z.ZodRawShape>(shape: T) => z.object(shape, { error: m.BAD_BODY });
const signUpBody = body({ email: z.string().max(2000).optional(), captchaKey: z.string().max(8000).optional(), version: z.number().int().optional() });
const listBody = body({ name: z.string().trim().min(1, m.LIST_NAME_REQUIRED).max(200), doubleOptIn: z.boolean().default(false) });
const listPatch = body({ name: z.string().trim().min(1, m.LIST_NAME_REQUIRED).max(200).optional(), doubleOptIn: z.boolean().optional() });
const listId = z.string().trim().min(1).max(64);
const membersQuery = z.object({
  status: z.enum(['subscribed', 'pending', 'unsubscribed']).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
const consentBody = z.object({
  choice: z.enum(['accept', 'reject', 'save', 'dismiss']),
  analytics: z.string().max(10).optional(),
  marketing: z.string().max(10).optional(),
  back: z.string().max(2000).optional(),
  crumb: z.string().max(200).optional(),
});

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function fill(t: string, v: Record<string, string>): string {
  return esc(t).replace(/\{(\w+)\}/g, (x, k: string) => (k in v ? `<strong>${esc(v[k]!)}</strong>` : x));
}

/** A small standalone page (the newsletter pages work without the theme, JavaScript or a session). */
function page(reply: FastifyReply, status: number, pageType: number, title: string, bodyHtml: string) {
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title>` +
        `<style>body{font:16px/1.5 system-ui,sans-serif;color:#1d1d1f;max-width:520px;margin:12vh auto;padding:0 20px}button{font:inherit;padding:10px 16px;border:0;border-radius:6px;background:#1d1d1f;color:#fff;cursor:pointer}</style>` +
        `</head><body class="page-type-${pageType}"><main><h1>${esc(title)}</h1>${bodyHtml}</main></body></html>`,
    );
}

const origin = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

/** A same-site path to go back to after the no-JavaScript cookie choice (never another host). */
function safeBack(back: string | undefined): string {
  return back && /^\/(?![/\\])[^\s]*$/.test(back) ? back : '/';
}

export async function engagementRoutes(app: FastifyInstance, opts: { settings: EngagementSettingsService; lists: MailingLists }) {
  const { settings, lists } = opts;
  const site = () => app.services.websites.get();

  // ---- Visitors -------------------------------------------------------------------------------------

  /** The popup's newsletter form: {email, captchaKey} -> the popup's list (double opt-in when the list asks). */
  app.post(SIGN_UP_PATH, { preHandler: app.services.rateLimiter.guard(SIGN_UP_LIMIT) }, async (req) => {
    const b = signUpBody.parse(req.body ?? {});
    const w = await site();
    const { popup } = await settings.get(w.id);
    if (!popup.enabled || popup.action !== 'newsletter') throw new HttpError(404, m.POPUP_OFF);
    const problem = emailProblem(b.email);
    if (problem) throw badRequest(problem, { email: problem });
    if (popup.captcha) {
      const captcha = await siteCaptcha(app, w.id);
      if (!b.captchaKey) throw badRequest(fm.CAPTCHA_INCOMPLETE);
      const verdict = await captcha.verify(b.captchaKey, 'promo-popup', req.ip);
      if (!verdict.ok) throw badRequest(fm.RECAPTCHA_FAILED);
    }
    const r = await app.database.db.transaction((tx) =>
      lists.subscribe(tx, { websiteId: w.id, email: b.email!, source: 'popup', sourceRef: `popup:v${popup.version}`, listId: popup.listId }, origin(req)),
    );
    if (r.confirmationSent) app.services.mailer.kick();
    return { success: true, status: r.status, message: r.status === 'pending' ? m.CONFIRM_SENT : popup.successText || m.POPUP_THANKS };
  });

  /** The cookie banner without JavaScript: a form post that sets the choice cookies and goes back. */
  app.post(CONSENT_PATH, async (req, reply) => {
    const b = consentBody.parse(req.body ?? {});
    const w = await site();
    const { cookieBanner } = await settings.get(w.id);
    const cookie = { path: '/', sameSite: 'lax' as const, secure: isSecure(req), httpOnly: false, maxAge: CONSENT_MAX_AGE_SECONDS };
    if (b.choice === 'dismiss' || cookieBanner.mode === 'notice') reply.setCookie(NOTICE_COOKIE, '1', cookie);
    else {
      const on = (v: string | undefined) => v === 'on' || v === '1' || v === 'true';
      const choices: ConsentChoices =
        b.choice === 'accept' ? { analytics: true, marketing: true } : b.choice === 'reject' ? { analytics: false, marketing: false } : { analytics: on(b.analytics), marketing: on(b.marketing) };
      reply.setCookie(CONSENT_CHOICES_COOKIE, formatChoices(choices), cookie);
      reply.setCookie(CONSENT_COOKIE, choices.analytics ? 'granted' : 'denied', cookie);
      if (!choices.analytics) for (const name of CENSUS_COOKIES) if (req.cookies[name] !== undefined) reply.clearCookie(name, { path: '/' });
    }
    const accept = String(req.headers.accept ?? '');
    if (accept.includes('application/json')) return { success: true };
    return reply.redirect(safeBack(b.back), 303);
  });

  const invalid = (reply: FastifyReply, pageType: number) => page(reply, 400, pageType, m.LINK_INVALID_TITLE, `<p>${esc(m.LINK_INVALID)}</p>`);

  app.get<{ Params: { token: string } }>(`${UNSUBSCRIBE_PATH}/:token`, async (req, reply) => {
    const t = await lists.target(req.params.token, 'unsubscribe');
    if (!t) return invalid(reply, PageType.NEWSLETTER_UNSUBSCRIBE);
    const v = { email: t.member.email, store: t.storeName };
    if (t.member.status === 'unsubscribed') return page(reply, 200, PageType.NEWSLETTER_UNSUBSCRIBE, m.UNSUBSCRIBED_TITLE, `<p>${fill(m.UNSUBSCRIBED, v)}</p>`);
    return page(
      reply,
      200,
      PageType.NEWSLETTER_UNSUBSCRIBE,
      m.UNSUBSCRIBE_TITLE,
      `<p>${fill(m.UNSUBSCRIBE_CONFIRM, v)}</p><form method="post" action="${UNSUBSCRIBE_PATH}/${esc(encodeURIComponent(req.params.token))}"><button type="submit">${esc(m.UNSUBSCRIBE_BUTTON)}</button></form>`,
    );
  });

  app.post<{ Params: { token: string } }>(`${UNSUBSCRIBE_PATH}/:token`, async (req, reply) => {
    const t = await lists.target(req.params.token, 'unsubscribe');
    const done = t ? await lists.unsubscribe(req.params.token) : null;
    const b = req.body as Record<string, unknown> | undefined;
    const oneClick = !!b && typeof b === 'object' && b['List-Unsubscribe'] === 'One-Click';
    if (!t || !done) {
      if (oneClick) return reply.status(400).type('text/plain; charset=utf-8').send(m.LINK_INVALID);
      return invalid(reply, PageType.NEWSLETTER_UNSUBSCRIBE);
    }
    if (oneClick) return reply.status(200).type('text/plain; charset=utf-8').send('Unsubscribed');
    return page(reply, 200, PageType.NEWSLETTER_UNSUBSCRIBE, m.UNSUBSCRIBED_TITLE, `<p>${fill(m.UNSUBSCRIBED, { email: done.email, store: t.storeName })}</p>`);
  });

  app.get<{ Params: { token: string } }>(`${CONFIRM_PATH}/:token`, async (req, reply) => {
    const t = await lists.target(req.params.token, 'confirm');
    if (!t || t.member.status === 'unsubscribed') return invalid(reply, PageType.NEWSLETTER_UNSUBSCRIBE);
    const v = { email: t.member.email, store: t.storeName };
    if (t.member.status === 'subscribed') return page(reply, 200, PageType.NEWSLETTER_UNSUBSCRIBE, m.CONFIRMED_TITLE, `<p>${fill(m.CONFIRMED, v)}</p>`);
    return page(
      reply,
      200,
      PageType.NEWSLETTER_UNSUBSCRIBE,
      m.CONFIRM_TITLE,
      `<p>${fill(m.CONFIRM_QUESTION, v)}</p><form method="post" action="${CONFIRM_PATH}/${esc(encodeURIComponent(req.params.token))}"><button type="submit">${esc(m.CONFIRM_BUTTON)}</button></form>`,
    );
  });

  app.post<{ Params: { token: string } }>(`${CONFIRM_PATH}/:token`, async (req, reply) => {
    const t = await lists.target(req.params.token, 'confirm');
    const done = t ? await lists.confirm(req.params.token) : null;
    if (!t || !done) return invalid(reply, PageType.NEWSLETTER_UNSUBSCRIBE);
    return page(reply, 200, PageType.NEWSLETTER_UNSUBSCRIBE, m.CONFIRMED_TITLE, `<p>${fill(m.CONFIRMED, { email: done.email, store: t.storeName })}</p>`);
  });

  // ---- Owners ---------------------------------------------------------------------------------------

  const settingsOwner = { preHandler: app.requireOwner(SETTINGS_ROLES) };
  const listOwner = { preHandler: app.requireOwner(LIST_ROLES) };
  const previewOwner = { preHandler: app.requireOwner(PREVIEW_ROLES) };

  app.get(`${API}/popup`, settingsOwner, async (req) => ({ popup: (await settings.get(req.owner!.websiteId)).popup }));

  app.put(`${API}/popup`, settingsOwner, async (req) => {
    const next = popupSchema.parse(req.body ?? {});
    if (next.listId) await lists.requireList(req.owner!.websiteId, next.listId);
    return { popup: await settings.savePopup(req.owner!.websiteId, next) };
  });

  app.get(`${API}/cookies`, settingsOwner, async (req) => ({ cookieBanner: (await settings.get(req.owner!.websiteId)).cookieBanner }));

  app.put(`${API}/cookies`, settingsOwner, async (req) => {
    const next = cookieBannerSchema.parse(req.body ?? {});
    const websiteId = req.owner!.websiteId;
    const saved = await settings.saveCookieBanner(websiteId, next);
    // The analytics area's cookie policy follows: opt-in asks first; notice and off keep cookies implied
    // (a restrictive policy the owner chose in analytics stays restrictive).
    const current = (await app.analytics.settings.get(websiteId)).cookiePolicy;
    const policy = next.mode === 'opt-in' ? 'ask' : current === 'restrictive' ? 'restrictive' : 'implied';
    if (policy !== current) await app.analytics.settings.update(websiteId, { cookiePolicy: policy });
    return { cookieBanner: saved, cookiePolicy: policy };
  });

  app.get(`${API}/lists`, listOwner, async (req) => ({ lists: await lists.lists(req.owner!.websiteId) }));

  app.post(`${API}/lists`, listOwner, async (req, reply) => {
    const b = listBody.parse(req.body ?? {});
    reply.status(201);
    return { list: await lists.createList(req.owner!.websiteId, b) };
  });

  app.put<{ Params: { id: string } }>(`${API}/lists/:id`, listOwner, async (req) => {
    const b = listPatch.parse(req.body ?? {});
    return { list: await lists.updateList(req.owner!.websiteId, listId.parse(req.params.id), b) };
  });

  app.get<{ Params: { id: string } }>(`${API}/lists/:id/members`, listOwner, async (req) => {
    const q = membersQuery.parse(req.query ?? {});
    return lists.members(req.owner!.websiteId, listId.parse(req.params.id), q);
  });

  app.get<{ Params: { id: string } }>(`${API}/lists/:id/export.csv`, listOwner, async (req, reply) => {
    const { name, csv } = await lists.csv(req.owner!.websiteId, listId.parse(req.params.id), origin(req));
    const file = name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'list';
    return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${file}.csv"`).header('cache-control', 'no-store').send(csv);
  });

  app.get(`${API}/emails`, previewOwner, async () => ({ emails: emailPreviewNames() }));

  app.get<{ Params: { name: string } }>(`${API}/emails/:name`, previewOwner, async (req) => {
    const p = emailPreview(req.params.name);
    if (!p) throw new HttpError(404, m.PREVIEW_NOT_FOUND);
    const w = await site();
    const email = await p.render({ app, storeName: w.title, origin: origin(req), currency: w.currency, now: Date.now() });
    return { name: req.params.name, label: p.label, pageType: PageType.COMMERCE_EMAIL_PREVIEW, email: { subject: email.subject, text: email.text, html: email.html ?? null } };
  });
}
