/**
 * Renders a checkout-area page into the site layout, the same way the page pipeline does
 * (src/server/pages/routes.ts `send`): page context -> theme template -> 'site.region' layout.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { allCollections, navigationJson, websiteJson, websiteSettingsJson } from '../pages/context.js';
import { renderIsland } from '../../web/ssr.js';
import { CART_COOKIE } from '../commerce/routes.js';
import { nonceScripts } from '../plugins/csp.js';
import { siteStylesHead } from '../editor/index.js';
import { escapeHtml } from '../../core/html.js';

export interface SitePage {
  template: string;
  pageType: number;
  status?: number;
  title: string;
  ctx: Record<string, unknown>;
}

export async function sendSitePage(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, page: SitePage) {
  const { websites, theme, assets, carts } = app.services;
  const site = await websites.get();
  const collections = await allCollections(app.database.db, site.id);
  const byId = new Map(collections.map((c) => [c.id, c]));
  const path = req.url.split('?')[0] ?? '/';
  const context: Record<string, unknown> = {
    website: websiteJson(site, websites),
    websiteSettings: websiteSettingsJson(site, websites),
    navigation: navigationJson(site, byId, path),
    pageType: page.pageType,
    pageTitle: page.title,
    ...page.ctx,
  };
  reply.status(page.status ?? 200).header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
  const query = req.query as Record<string, unknown>;
  if (query.format === 'json' || query.format === 'json-pretty') {
    return reply.type('application/json; charset=utf-8').send(query.format === 'json-pretty' ? JSON.stringify(context, null, 2) : JSON.stringify(context));
  }
  const cart = await carts.findByToken(req.cookies[CART_COOKIE]);
  const renderOpts = { locale: site.locale, timeZone: site.timeZone };
  const mainContent = theme.render(page.template, context, renderOpts);
  const nonce = req.cspNonce();
  const client = assets.tags('site', nonce);
  const injection = ((site.settings as Record<string, unknown>).codeInjection ?? {}) as { header?: string; footer?: string };
  const tessera = {
    headers: `<link rel="stylesheet" href="/theme/site.css">${await siteStylesHead(app, site.id)}${client.head}${nonceScripts(injection.header ?? '', nonce)}`,
    footers: `${client.body}${nonceScripts(injection.footer ?? '', nonce)}`,
    cartPill: renderIsland('CartPill', cart ? { totalQuantity: cart.totalQuantity, hasCart: true } : { totalQuantity: 0 }),
    title: escapeHtml(`${page.title} — ${site.title}`),
    // Text on the accent colour (buttons), as the page pipeline sets it: white on a dark accent.
    accentText: (context.website as { accentIsDark: boolean }).accentIsDark ? '#ffffff' : '#1f1d1a',
  };
  const html = theme.render('site.region', { ...context, mainContent, tessera }, renderOpts);
  return reply.type('text/html; charset=utf-8').send(html);
}
