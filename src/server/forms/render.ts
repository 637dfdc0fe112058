/**
 * Rendering forms into pages: `formHtml` gives the server-rendered Form island (a real <form> that
 * also posts without JavaScript) for a page to place in its context, and `renderResultPage` the
 * success or error page of a plain form post.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { renderIsland } from '../../web/ssr.js';
import { captchaFor } from '../captcha/index.js';
import { FormsService, captchaActionOf, publicForm } from './service.js';
import type { PageFields } from '../../core/forms.js';
import { websiteJson } from '../site-context/index.js';
import { NOINDEX_META, siteStylesHead } from '../site-page/index.js';
import { escapeHtml } from '../../core/html.js';

export interface FormHtmlOptions {
  page?: PageFields;
  /** Show the form behind a button, in the lightbox. */
  lightbox?: boolean;
}

/** The props of the Form island (everything public: no notification address, no captcha secret). */
export async function formIslandProps(app: FastifyInstance, req: FastifyRequest, formId: string, opts: FormHtmlOptions = {}) {
  const service = new FormsService(app);
  const row = await service.getForm(formId);
  if (!row) return null;
  const form = publicForm(row);
  const site = await service.website();
  const captcha = form.captcha ? captchaFor(app, site.settings).publicConfig(captchaActionOf(row)) : null;
  const query: Record<string, string> = {};
  const q = (req.query ?? {}) as Record<string, unknown>;
  for (const f of form.fields) {
    if (f.type !== 'hidden') continue;
    const name = f.key ?? f.title ?? f.id;
    const v = q[name];
    if (typeof v === 'string') query[name] = v.slice(0, 2000);
  }
  const path = (req.url.split('?')[0] ?? '/').slice(0, 1000);
  return {
    form,
    captcha,
    crumb: req.crumb,
    query,
    page: { pagePath: path, ...opts.page },
    lightbox: opts.lightbox ?? form.lightbox,
    action: `/api/form/submit/${encodeURIComponent(form.id)}`,
  };
}

/** The rendered form for a page template (put it in the page context, e.g. collection.formHtml); '' when the form does not exist. */
export async function formHtml(app: FastifyInstance, req: FastifyRequest, formId: string, opts: FormHtmlOptions = {}): Promise<string> {
  const props = await formIslandProps(app, req, formId, opts);
  return props ? renderIsland('Form', props) : '';
}

/** A page in the site layout (title, theme stylesheet and the client bundle) around `mainContent`. */
async function layout(app: FastifyInstance, reply: FastifyReply, status: number, title: string, mainContent: string) {
  const { websites } = app.services;
  const site = await websites.get();
  const website = websiteJson(site, websites);
  const client = app.services.assets.tags('site', reply.request.cspNonce());
  const html = app.services.theme.render(
    'site.region',
    {
      website,
      navigation: { mainNav: [] },
      pageType: 1,
      mainContent,
      tessera: {
        headers: `${NOINDEX_META}<link rel="stylesheet" href="/theme/site.css">${await siteStylesHead(app, site.id)}${client.head}`,
        footers: client.body,
        cartPill: '',
        title: escapeHtml(`${title} — ${site.title}`),
        year: new Date().getUTCFullYear(),
        accentText: website.accentIsDark ? '#ffffff' : '#1f1d1a',
      },
    },
    {},
  );
  return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

/** The answer to a plain form post: the theme's system/form-result.html inside the site layout. */
export async function renderResultPage(
  app: FastifyInstance,
  reply: FastifyReply,
  r: { status: number; ok: boolean; title: string; message: string; errors?: Array<{ field: string; message: string }>; back: string },
) {
  const ctx = { result: { ok: r.ok, title: r.title, message: r.message, errors: r.errors ?? [], back: r.back } };
  return layout(app, reply, r.status, r.title, app.services.theme.render('system/form-result.html', ctx, {}));
}

/** GET /forms/{formId}: a form on a page of its own (a shareable link; also how the lightbox form is reached). */
export async function renderFormPage(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, formId: string) {
  const props = await formIslandProps(app, req, formId);
  if (!props) return reply.callNotFound();
  const ctx = { form: { name: props.form.name, html: renderIsland('Form', props) } };
  return layout(app, reply, 200, props.form.name, app.services.theme.render('system/form-page.html', ctx, {}));
}
