/**
 * The newsletter link pages (confirm and unsubscribe, page type 300) in the site's layout: the theme's
 * system/newsletter-confirm.html or system/newsletter-unsubscribe.html inside `site.region`, with the
 * theme stylesheet and the owner's saved site styles.
 *
 * They are reached from emails with a signed token in the address, so they stay plain: no script runs on
 * them (no client bundle, no owner header/footer code, which could read the address), and their analytics
 * data island says `track: false`, so they never count as page views. The button posts without JavaScript.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PageType } from '../../core/enums.js';
import { allCollections, navigationJson, websiteJson, websiteSettingsJson } from '../site-context/index.js';
import { siteStylesHead } from '../site-page/index.js';
import { pageDataScript } from '../analytics/index.js';
import { escapeHtml } from '../../core/html.js';
import { sendPrivatePage } from '../private-page.js';

export type NewsletterPageKind = 'confirm' | 'unsubscribe';

export const NEWSLETTER_TEMPLATES: Record<NewsletterPageKind, string> = {
  confirm: 'system/newsletter-confirm.html',
  unsubscribe: 'system/newsletter-unsubscribe.html',
};

export interface NewsletterPage {
  kind: NewsletterPageKind;
  status: number;
  title: string;
  /** The message; `{name}` placeholders are filled from `values` and shown in bold. */
  message: string;
  values?: Record<string, string>;
  /** The link is not valid (the message is then an error). */
  invalid?: boolean;
  /** The page's button: a plain form post to `action`. */
  form?: { action: string; button: string };
}

export interface MessagePart {
  text: string;
  strong: boolean;
}

/** Splits a message into text and bold values, for the template to escape part by part. */
export function messageParts(message: string, values: Record<string, string> = {}): MessagePart[] {
  const parts: MessagePart[] = [];
  let at = 0;
  for (const m of message.matchAll(/\{(\w+)\}/g)) {
    const name = m[1]!;
    if (!(name in values)) continue;
    if (m.index > at) parts.push({ text: message.slice(at, m.index), strong: false });
    parts.push({ text: values[name]!, strong: true });
    at = m.index + m[0].length;
  }
  if (at < message.length) parts.push({ text: message.slice(at), strong: false });
  return parts;
}

export async function sendNewsletterPage(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, page: NewsletterPage) {
  const { websites, theme } = app.services;
  const site = await websites.get();
  const collections = await allCollections(app.database.db, site.id);
  const path = req.url.split('?')[0] ?? '/';
  const website = websiteJson(site, websites);
  const pageType = PageType.NEWSLETTER_UNSUBSCRIBE;
  const context: Record<string, unknown> = {
    website,
    websiteSettings: websiteSettingsJson(site, websites),
    navigation: navigationJson(site, new Map(collections.map((c) => [c.id, c])), path),
    pageType,
    pageTitle: page.title,
    newsletter: {
      kind: page.kind,
      title: page.title,
      invalid: page.invalid === true,
      message: messageParts(page.message, page.values),
      form: page.form ?? null,
      homeUrl: '/',
    },
  };
  const renderOpts = { locale: site.locale, timeZone: site.timeZone };
  const mainContent = theme.render(NEWSLETTER_TEMPLATES[page.kind], context, renderOpts);
  const cookiePolicy = app.analytics ? (await app.analytics.settings.get(site.id)).cookiePolicy : 'implied';
  const noTracking = pageDataScript({
    websiteId: site.id,
    templateId: String(site.settings.templateId ?? 'default'),
    pageType,
    locale: site.locale,
    track: false,
    cookiePolicy,
    itemId: null,
    collectionId: null,
  });
  const tessera = {
    headers: `<link rel="stylesheet" href="/theme/site.css">${await siteStylesHead(app, site.id)}`,
    footers: noTracking,
    cartPill: '',
    title: escapeHtml(`${page.title} — ${site.title}`),
    year: new Date().getUTCFullYear(),
    accentText: website.accentIsDark ? '#ffffff' : '#1f1d1a',
  };
  const html = theme.render('site.region', { ...context, mainContent, tessera }, renderOpts);
  return sendPrivatePage(reply, page.status, html);
}
