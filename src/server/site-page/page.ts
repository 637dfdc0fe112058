/**
 * Renders a page of an area (checkout, account, notices, ...) into the site layout, the same way the
 * page pipeline does: page context -> theme template -> 'site.region' layout. The site's own parts
 * (website, navigation, site styles) come from the areas that own them, handed in by app.ts as
 * `app.sitePageParts`, so this shell imports no area.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { renderIsland } from '../../web/ssr.js';
import { CART_COOKIE } from '../../core/cookies.js';
import { nonceScripts } from './csp.js';
import { escapeHtml } from '../../core/html.js';
import type { WidgetRenderer } from '../../template/index.js';

type Site = Awaited<ReturnType<FastifyInstance['services']['websites']['get']>>;

/**
 * What the areas hand the shell: the site's context (website, websiteSettings, navigation), its styles,
 * and the widgets (the store's) a layout may render.
 */
export interface SitePageParts {
  siteContext(site: Site, path: string): Promise<Record<string, unknown>>;
  stylesHead(websiteId: string): Promise<string>;
  widgets(site: Site): WidgetRenderer;
}

declare module 'fastify' {
  interface FastifyInstance {
    sitePageParts: SitePageParts;
  }
}

/** The <head> rules of the site's saved styles ('' until an owner saves some). */
export function siteStylesHead(app: FastifyInstance, websiteId: string): Promise<string> {
  return app.sitePageParts.stylesHead(websiteId);
}

/** The robots tag of a page no search engine should keep (checkout, an order, an account, a form's answer). */
export const NOINDEX_META = '<meta name="robots" content="noindex">';

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
  const path = req.url.split('?')[0] ?? '/';
  const context: Record<string, unknown> = {
    ...(await app.sitePageParts.siteContext(site, path)),
    pageType: page.pageType,
    pageTitle: page.title,
    ...page.ctx,
  };
  reply
    .status(page.status ?? 200)
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex');
  const query = req.query as Record<string, unknown>;
  if (query.format === 'json' || query.format === 'json-pretty') {
    return reply
      .type('application/json; charset=utf-8')
      .send(query.format === 'json-pretty' ? JSON.stringify(context, null, 2) : JSON.stringify(context));
  }
  const cart = await carts.findByToken(req.cookies[CART_COOKIE]);
  const renderOpts = { locale: site.locale, timeZone: site.timeZone };
  const mainContent = theme.render(page.template, context, renderOpts);
  const nonce = req.cspNonce();
  const client = assets.tags('site', nonce);
  const injection = ((site.settings as Record<string, unknown>).codeInjection ?? {}) as { header?: string; footer?: string };
  const tessera = {
    // A private page: not indexed, and no canonical address (the layout writes none without one).
    headers: `${NOINDEX_META}<link rel="stylesheet" href="/theme/site.css">${await siteStylesHead(app, site.id)}${client.head}${nonceScripts(injection.header ?? '', nonce)}`,
    footers: `${client.body}${nonceScripts(injection.footer ?? '', nonce)}`,
    cartPill: renderIsland('CartPill', cart ? { totalQuantity: cart.totalQuantity, hasCart: true } : { totalQuantity: 0 }),
    title: escapeHtml(`${page.title} — ${site.title}`),
    // Text on the accent colour (buttons), as the page pipeline sets it: white on a dark accent.
    accentText: (context.website as { accentIsDark: boolean }).accentIsDark ? '#ffffff' : '#1f1d1a',
  };
  const html = theme.render('site.region', { ...context, mainContent, tessera }, renderOpts);
  return reply.type('text/html; charset=utf-8').send(html);
}
