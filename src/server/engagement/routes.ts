/**
 * The engagement calls.
 * Visitors: the popup's newsletter sign-up, the no-JavaScript cookie choice, and the signed newsletter
 * links (unsubscribe, page type 300; double opt-in confirm). The links are not under /api: the signed
 * token is the proof and a mail client has no crumb; GET only shows a page (mail scanners follow links),
 * POST acts (the page's button, or an RFC 8058 one-click request). Their pages are drawn in the site's
 * layout by the theme (pages.ts).
 * Owners (/api/config/engagement): popup, cookie banner, mailing lists with CSV export, the lists' names
 * for the form builder's newsletter setting, email previews (301).
 */
import { isFormPost } from '../visitor/index.js';
import { checkNoScriptPost } from '../site-page/index.js';
import { refererPath, sendNotice } from '../site-page/index.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PageType } from '../../core/enums.js';
import { engagement as m, forms as fm } from '../../core/messages.js';
import { CONSENT_MAX_AGE_SECONDS, CENSUS_COOKIES, formatChoices, type ConsentChoices } from '../../core/engagement.js';
import { CONSENT_CHOICES_COOKIE, CONSENT_COOKIE, NOTICE_COOKIE } from '../../core/cookies.js';
import { badRequest, HttpError } from '../errors.js';
import { siteCaptcha } from '../captcha/index.js';
import { isSecure } from '../visitor/index.js';
import { cookieBannerSchema, popupSchema, type EngagementSettingsService } from './settings.js';
import { CONFIRM_PATH, UNSUBSCRIBE_PATH, emailProblem, type MailingLists } from './lists.js';
import { emailPreview, emailPreviewNames } from '../mail/index.js';
import { sendNewsletterPage, type NewsletterPage } from './pages.js';
import { emailLookFor } from '../mail/index.js';
import { can } from '../../core/roles.js';

export const API = '/api/config/engagement';
export const SIGN_UP_PATH = '/api/engagement/newsletter';
/** The thanks page of the popup's plain sign-up (POST/redirect/GET). */
export const SIGNED_UP_PATH = '/newsletter/signed-up';
export const CONSENT_PATH = '/api/engagement/consent';

/** Visitors: 10 newsletter sign-ups a minute per IP address. */
export const SIGN_UP_LIMIT = { name: 'newsletter-sign-up', max: 10, windowMs: 60_000, message: fm.STATUS_429 };

const body = <T extends z.ZodRawShape>(shape: T) => z.object(shape, { error: m.BAD_BODY });
const signUpBody = body({
  email: z.string().max(2000).optional(),
  captchaKey: z.string().max(8000).optional(),
  version: z.number().int().optional(),
});
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

/** A same-site path to go back to after the no-JavaScript cookie choice (never another host). */
function safeBack(back: string | undefined): string {
  return back && /^\/(?![/\\])[^\s]*$/.test(back) ? back : '/';
}

export async function engagementRoutes(app: FastifyInstance, opts: { settings: EngagementSettingsService; lists: MailingLists }) {
  const { settings, lists } = opts;
  const site = () => app.services.websites.get();

  // ---- Visitors -------------------------------------------------------------------------------------

  /** The popup's newsletter form: {email, captchaKey} -> the popup's list (double opt-in when the list asks). */
  app.post(SIGN_UP_PATH, { preHandler: app.services.rateLimiter.guard(SIGN_UP_LIMIT) }, async (req, reply) => {
    // The popup's form as a plain post (no JavaScript): the no-script path instead of a captcha, then a page that says what happened.
    const plain = isFormPost(req);
    const answer = await popupSignUp(plain ? { email: (req.body as Record<string, unknown>).email } : req.body, plain, req).catch(
      (e: unknown) => {
        if (!plain || !(e instanceof HttpError) || e.status >= 500) throw e;
        return { error: e };
      },
    );
    if (!plain) return answer;
    const back = { href: refererPath(req, '/'), label: 'Back to the page' };
    if ('error' in answer)
      return sendNotice(app, req, reply, {
        status: answer.error.status,
        ok: false,
        title: 'Newsletter sign-up',
        message: answer.error.message,
        back,
      });
    // POST/redirect/GET: the thanks page is a GET of its own, so reloading it signs up nobody again.
    const sent = answer.status === 'pending' ? 'confirm' : 'thanks';
    return reply.redirect(`${SIGNED_UP_PATH}?sent=${sent}&back=${encodeURIComponent(back.href)}`, 303);
  });

  /** Where the popup's plain sign-up lands: the words the post would have answered (a code in the address, never text). */
  app.get(SIGNED_UP_PATH, async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const back = { href: safeBack(typeof q.back === 'string' ? q.back : undefined), label: 'Back to the page' };
    const { popup } = await settings.get((await site()).id);
    const message = q.sent === 'confirm' ? m.CONFIRM_SENT : popup.successText || m.POPUP_THANKS;
    return sendNotice(app, req, reply, { status: 200, ok: true, title: 'Newsletter sign-up', message, back });
  });

  async function popupSignUp(input: unknown, plain: boolean, req: FastifyRequest) {
    const b = signUpBody.parse(input ?? {});
    const w = await site();
    const { popup } = await settings.get(w.id);
    if (!popup.enabled || popup.action !== 'newsletter') throw new HttpError(404, m.POPUP_OFF);
    const problem = emailProblem(b.email);
    if (problem) throw badRequest(problem, { email: problem });
    if (plain) await checkNoScriptPost(app, req, (req.body as Record<string, unknown>).honeypot);
    else if (popup.captcha) {
      const captcha = await siteCaptcha(app, w.id);
      if (!b.captchaKey) throw badRequest(fm.CAPTCHA_INCOMPLETE);
      const verdict = await captcha.verify(b.captchaKey, 'promo-popup', req.ip);
      if (!verdict.ok) throw badRequest(fm.RECAPTCHA_FAILED);
    }
    const r = await app.database.db.transaction((tx) =>
      // A popup whose list was deleted since it was saved signs visitors up to the default list, as a newsletter form does.
      lists.subscribe(tx, {
        websiteId: w.id,
        email: b.email!,
        source: 'popup',
        sourceRef: `popup:v${popup.version}`,
        listId: popup.listId,
        fallbackToDefault: true,
      }),
    );
    if (r.confirmationSent) app.services.mailer.kick();
    return { success: true, status: r.status, message: r.status === 'pending' ? m.CONFIRM_SENT : popup.successText || m.POPUP_THANKS };
  }

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
        b.choice === 'accept'
          ? { analytics: true, marketing: true }
          : b.choice === 'reject'
            ? { analytics: false, marketing: false }
            : { analytics: on(b.analytics), marketing: on(b.marketing) };
      reply.setCookie(CONSENT_CHOICES_COOKIE, formatChoices(choices), cookie);
      reply.setCookie(CONSENT_COOKIE, choices.analytics ? 'granted' : 'denied', cookie);
      if (!choices.analytics)
        for (const name of CENSUS_COOKIES) if (req.cookies[name] !== undefined) reply.clearCookie(name, { path: '/' });
    }
    const accept = String(req.headers.accept ?? '');
    if (accept.includes('application/json')) return { success: true };
    return reply.redirect(safeBack(b.back), 303);
  });

  registerNewsletterLinkPages(app, lists);
  registerEngagementOwnerRoutes(app, opts);
}

/** The newsletter's signed-link pages: unsubscribe (and one-click unsubscribe) and double opt-in confirmation. */
function registerNewsletterLinkPages(app: FastifyInstance, lists: MailingLists) {
  // The signed-link pages, in the site's layout (pages.ts). Confirm pages share page type 300.
  const unsubscribePage = (req: FastifyRequest, reply: FastifyReply, p: Omit<NewsletterPage, 'kind'>) =>
    sendNewsletterPage(app, req, reply, { kind: 'unsubscribe', ...p });
  const confirmPage = (req: FastifyRequest, reply: FastifyReply, p: Omit<NewsletterPage, 'kind'>) =>
    sendNewsletterPage(app, req, reply, { kind: 'confirm', ...p });
  const invalidLink = { status: 400, title: m.LINK_INVALID_TITLE, message: m.LINK_INVALID, invalid: true };
  const postTo = (path: string, token: string, button: string) => ({ action: `${path}/${encodeURIComponent(token)}`, button });

  app.get<{ Params: { token: string } }>(`${UNSUBSCRIBE_PATH}/:token`, async (req, reply) => {
    const t = await lists.target(req.params.token, 'unsubscribe');
    if (!t) return unsubscribePage(req, reply, invalidLink);
    const values = { email: t.member.email, store: t.storeName };
    if (t.member.status === 'unsubscribed')
      return unsubscribePage(req, reply, { status: 200, title: m.UNSUBSCRIBED_TITLE, message: m.UNSUBSCRIBED, values });
    return unsubscribePage(req, reply, {
      status: 200,
      title: m.UNSUBSCRIBE_TITLE,
      message: m.UNSUBSCRIBE_CONFIRM,
      values,
      form: postTo(UNSUBSCRIBE_PATH, req.params.token, m.UNSUBSCRIBE_BUTTON),
    });
  });

  app.post<{ Params: { token: string } }>(`${UNSUBSCRIBE_PATH}/:token`, async (req, reply) => {
    const t = await lists.target(req.params.token, 'unsubscribe');
    const done = t ? await lists.unsubscribe(req.params.token) : null;
    const b = req.body as Record<string, unknown> | undefined;
    const oneClick = !!b && typeof b === 'object' && b['List-Unsubscribe'] === 'One-Click';
    if (!t || !done) {
      if (oneClick) return reply.status(400).type('text/plain; charset=utf-8').send(m.LINK_INVALID);
      return unsubscribePage(req, reply, invalidLink);
    }
    if (oneClick) return reply.status(200).type('text/plain; charset=utf-8').send('Unsubscribed');
    // POST/redirect/GET: the link's own page now says the address is unsubscribed.
    return reply.redirect(`${UNSUBSCRIBE_PATH}/${encodeURIComponent(req.params.token)}`, 303);
  });

  app.get<{ Params: { token: string } }>(`${CONFIRM_PATH}/:token`, async (req, reply) => {
    const t = await lists.target(req.params.token, 'confirm');
    if (!t || t.member.status === 'unsubscribed') return confirmPage(req, reply, invalidLink);
    const values = { email: t.member.email, store: t.storeName };
    if (t.member.status === 'subscribed')
      return confirmPage(req, reply, { status: 200, title: m.CONFIRMED_TITLE, message: m.CONFIRMED, values });
    return confirmPage(req, reply, {
      status: 200,
      title: m.CONFIRM_TITLE,
      message: m.CONFIRM_QUESTION,
      values,
      form: postTo(CONFIRM_PATH, req.params.token, m.CONFIRM_BUTTON),
    });
  });

  app.post<{ Params: { token: string } }>(`${CONFIRM_PATH}/:token`, async (req, reply) => {
    const t = await lists.target(req.params.token, 'confirm');
    const done = t ? await lists.confirm(req.params.token) : null;
    if (!t || !done) return confirmPage(req, reply, invalidLink);
    // POST/redirect/GET: the link's own page now says the address is subscribed.
    return reply.redirect(`${CONFIRM_PATH}/${encodeURIComponent(req.params.token)}`, 303);
  });
}

/** The owner's popup and cookie banner settings, mailing lists and email previews. */
function registerEngagementOwnerRoutes(app: FastifyInstance, opts: { settings: EngagementSettingsService; lists: MailingLists }) {
  const { settings, lists } = opts;
  const site = () => app.services.websites.get();

  // ---- Owners ---------------------------------------------------------------------------------------

  const settingsRead = { preHandler: app.requireOwner(can('marketing', 'read')) };
  const settingsOwner = { preHandler: app.requireOwner(can('marketing', 'write')) };
  const listRead = { preHandler: app.requireOwner(can('mailing-lists', 'read')) };
  const listOwner = { preHandler: app.requireOwner(can('mailing-lists', 'write')) };
  const previewOwner = { preHandler: app.requireOwner(can('email-templates', 'read')) };

  app.get(`${API}/popup`, settingsRead, async (req) => ({ popup: (await settings.get(req.owner!.websiteId)).popup }));

  app.put(`${API}/popup`, settingsOwner, async (req) => {
    const next = popupSchema.parse(req.body ?? {});
    if (next.listId) await lists.requireList(req.owner!.websiteId, next.listId);
    return { popup: await settings.savePopup(req.owner!.websiteId, next) };
  });

  app.get(`${API}/cookies`, settingsRead, async (req) => ({ cookieBanner: (await settings.get(req.owner!.websiteId)).cookieBanner }));

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

  app.get(`${API}/lists`, listRead, async (req) => ({ lists: await lists.lists(req.owner!.websiteId) }));

  /** Names only (no counts, no members): what a newsletter form's "Mailing list" setting offers. */
  app.get(`${API}/list-names`, { preHandler: app.requireOwner(can('list-names', 'read')) }, async (req) => ({
    lists: (await lists.lists(req.owner!.websiteId)).map((l) => ({ id: l.id, name: l.name, isDefault: l.isDefault })),
  }));

  app.post(`${API}/lists`, listOwner, async (req, reply) => {
    const b = listBody.parse(req.body ?? {});
    reply.status(201);
    return { list: await lists.createList(req.owner!.websiteId, b) };
  });

  app.put<{ Params: { id: string } }>(`${API}/lists/:id`, listOwner, async (req) => {
    const b = listPatch.parse(req.body ?? {});
    return { list: await lists.updateList(req.owner!.websiteId, listId.parse(req.params.id), b) };
  });

  app.get<{ Params: { id: string } }>(`${API}/lists/:id/members`, listRead, async (req) => {
    const q = membersQuery.parse(req.query ?? {});
    return lists.members(req.owner!.websiteId, listId.parse(req.params.id), q);
  });

  app.get<{ Params: { id: string } }>(`${API}/lists/:id/export.csv`, listRead, async (req, reply) => {
    const { name, csv } = await lists.csv(req.owner!.websiteId, listId.parse(req.params.id));
    const file = name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'list';
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${file}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });

  app.get(`${API}/emails`, previewOwner, async () => ({ emails: emailPreviewNames() }));

  app.get<{ Params: { name: string } }>(`${API}/emails/:name`, previewOwner, async (req) => {
    const p = emailPreview(req.params.name);
    if (!p) throw new HttpError(404, m.PREVIEW_NOT_FOUND);
    const w = await site();
    const email = await p.render({
      app,
      storeName: w.title,
      origin: await app.emailOrigin(),
      currency: w.currency,
      now: Date.now(),
      look: await emailLookFor(app.database.db, w.id),
    });
    return {
      name: req.params.name,
      label: p.label,
      pageType: PageType.COMMERCE_EMAIL_PREVIEW,
      email: { subject: email.subject, text: email.text, html: email.html ?? null },
    };
  });
}
