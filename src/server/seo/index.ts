/**
 * The crawler area (issue #26): /robots.txt, /sitemap.xml, the Merchant Center feed at /products.xml, the
 * owner's robots.txt and URL-mappings screens' calls, and the redirect lookup the page routes run before
 * their 404 page. Everything public here is built once per content version (plugins/site-cache.ts), so a
 * request adds no query beyond the version read; every address is absolute from the configured public
 * origin (PUBLIC_URL), never from the request's Host header.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { schema } from '../../db/index.js';
import { linkBase, listeningOrigin } from '../email-origin.js';
import type { WebsiteRow } from '../platform/index.js';
import { seo as text } from '../../core/messages.js';
import { HttpError, notFound } from '../errors.js';
import { parseInput } from '../platform/index.js';
import { changeSettings } from '../platform/index.js';
import { audit } from '../platform/index.js';
import { publicContent } from './content.js';
import { SITEMAP_MAX_URLS, sitemapEntries, sitemapIndexXml, sitemapXml } from './sitemap.js';
import { merchantFeed } from './feeds.js';
import { formatRedirects, parseRedirects, RedirectTable, type RedirectRule } from './redirects.js';
import { can } from '../../core/roles.js';

export const ROBOTS_MAX = 20_000;

/** What /robots.txt says when the owner has written nothing: owner, cart, checkout, account and API paths stay out. */
export function defaultRobots(): string {
  return [
    'User-agent: *',
    'Disallow: /config',
    'Disallow: /cart',
    'Disallow: /checkout',
    'Disallow: /account',
    'Disallow: /api/',
    'Disallow: /search',
    'Allow: /',
  ].join('\n');
}

export interface SeoArea {
  /** Addresses per sitemap before /sitemap.xml becomes an index (the sitemaps.org limit; tests lower it). */
  maxUrlsPerSitemap: number;
  /**
   * The public origin every absolute address starts with, by the emailed links' rule (server/email-origin.ts):
   * PUBLIC_URL, else the site address saved in /config, else this process's own address. Never the Host header.
   */
  origin(site: Pick<WebsiteRow, 'settings'>): string;
  /** The redirect for a path (with its query) the site has no page for, or null. */
  redirectFor(url: string): Promise<{ location: string; status: 301 | 302 } | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    seo: SeoArea;
  }
}

const XML = 'application/xml; charset=utf-8';

/** The owner's robots.txt and URL redirect calls (CSRF by the crumb plugin; admins and website managers). */
function registerSeoOwnerRoutes(app: FastifyInstance, origin: (site: Pick<WebsiteRow, 'settings'>) => string) {
  const db = app.database.db;
  const websites = app.services.websites;
  const settingsOnly = { preHandler: app.requireOwner(can('settings', 'write')) };
  const settingsRead = { preHandler: app.requireOwner(can('settings', 'read')) };
  const ownerSite = async (req: { owner?: { websiteId: string } | null }) => {
    const site = await websites.get();
    if (req.owner && req.owner.websiteId !== site.id) throw notFound('No such website.');
    return site;
  };

  app.get('/api/seo/robots-txt', settingsRead, async (req) => {
    const site = await ownerSite(req);
    const own = (site.settings.seo as { robotsTxt?: string } | undefined)?.robotsTxt ?? '';
    return { robotsTxt: own, defaultRobotsTxt: defaultRobots(), sitemapUrl: `${origin(site)}/sitemap.xml` };
  });
  const robotsBody = z.object({
    robotsTxt: z.string({ error: 'robotsTxt must be text.' }).max(ROBOTS_MAX, text.robotsTooLong(ROBOTS_MAX)),
  });
  app.put('/api/seo/robots-txt', settingsOnly, async (req) => {
    const body = parseInput(robotsBody, req.body);
    const site = await ownerSite(req);
    const robotsTxt = body.robotsTxt.replace(/\r\n?/g, '\n');
    await db.transaction((tx) =>
      changeSettings(tx, site.id, req.owner!.id, 'seo.robots-txt', (s) => ({
        ...s,
        seo: { ...((s.seo as object | undefined) ?? {}), robotsTxt },
      })),
    );
    websites.invalidate();
    return { robotsTxt };
  });

  const ruleRows = async (websiteId: string, kind: 'manual' | 'auto') =>
    db
      .select()
      .from(schema.urlRedirects)
      .where(and(eq(schema.urlRedirects.websiteId, websiteId), eq(schema.urlRedirects.kind, kind)))
      .orderBy(asc(schema.urlRedirects.ordering), asc(schema.urlRedirects.id));
  const asRules = (rows: Array<{ fromPath: string; toPath: string; status: number }>): RedirectRule[] =>
    rows.map((r) => ({ from: r.fromPath, to: r.toPath, status: r.status === 302 ? 302 : 301 }));

  app.get('/api/seo/url-redirects', settingsRead, async (req) => {
    const site = await ownerSite(req);
    const [manual, auto] = await Promise.all([ruleRows(site.id, 'manual'), ruleRows(site.id, 'auto')]);
    return { text: formatRedirects(asRules(manual)), automatic: asRules(auto) };
  });
  const redirectsBody = z.object({
    text: z.string({ error: 'text must be text.' }).max(1_000_000, 'The URL mappings are too long (1,000,000 characters at most).'),
  });
  app.put('/api/seo/url-redirects', settingsOnly, async (req) => {
    const body = parseInput(redirectsBody, req.body);
    const site = await ownerSite(req);
    const { rules, errors } = parseRedirects(body.text);
    if (errors.length) {
      throw new HttpError(
        400,
        text.rulesInvalid(errors.length),
        {
          text: errors.map((e) => `Line ${e.line}: ${e.message}`).join('\n'),
        },
        { lineErrors: errors },
      );
    }
    await db.transaction(async (tx) => {
      await tx.delete(schema.urlRedirects).where(and(eq(schema.urlRedirects.websiteId, site.id), eq(schema.urlRedirects.kind, 'manual')));
      for (let i = 0; i < rules.length; i += 500) {
        const chunk = rules.slice(i, i + 500);
        await tx.insert(schema.urlRedirects).values(
          chunk.map((r, n) => ({
            websiteId: site.id,
            kind: 'manual',
            fromPath: r.from,
            toPath: r.to,
            status: r.status,
            ordering: i + n,
          })),
        );
      }
      await audit(tx, {
        websiteId: site.id,
        accountId: req.owner!.id,
        action: 'seo.url-redirects',
        entity: 'url_redirects',
        after: { rules: rules.length },
      });
    });
    return { text: formatRedirects(rules), count: rules.length };
  });
}

export const seoArea = fp(
  async (app: FastifyInstance) => {
    const db = app.database.db;
    const websites = app.services.websites;
    // Asked on every page: the configured origin is read once, a saved address once per settings object
    // (a row's settings are never changed in place), the listening address once the server listens.
    const configured = linkBase(app.config.PUBLIC_URL);
    const saved = new WeakMap<object, string | null>();
    let listening: string | null = null;
    const origin = (site: Pick<WebsiteRow, 'settings'>) => {
      if (configured) return configured;
      let address = saved.get(site.settings);
      if (address === undefined) saved.set(site.settings, (address = linkBase(site.settings.siteAddress)));
      if (address) return address;
      if (listening) return listening;
      const now = listeningOrigin(app);
      if (app.server?.listening) listening = now;
      return now;
    };

    const loadRedirects = async (): Promise<RedirectTable> => {
      const site = await websites.get();
      const found = await db
        .select()
        .from(schema.urlRedirects)
        .where(eq(schema.urlRedirects.websiteId, site.id))
        .orderBy(asc(schema.urlRedirects.kind), asc(schema.urlRedirects.ordering), asc(schema.urlRedirects.id));
      // 'manual' sorts after 'auto': the owner's rules go first.
      const rules: RedirectRule[] = [...found.filter((r) => r.kind === 'manual'), ...found.filter((r) => r.kind !== 'manual')].map((r) => ({
        from: r.fromPath,
        to: r.toPath,
        status: r.status === 302 ? 302 : 301,
      }));
      return new RedirectTable(rules);
    };

    const area: SeoArea = {
      maxUrlsPerSitemap: SITEMAP_MAX_URLS,
      origin,
      async redirectFor(url) {
        const table = await app.siteCache.get('url-redirects', 'table', loadRedirects);
        return table.match(url);
      },
    };
    app.decorate('seo', area);

    // ---- Public routes ------------------------------------------------------------------------------
    app.get('/robots.txt', async (_req, reply) => {
      const site = await websites.get();
      const own = (site.settings.seo as { robotsTxt?: string } | undefined)?.robotsTxt;
      const body = own && own.trim() !== '' ? own.trim() : defaultRobots();
      const sitemapLine = `Sitemap: ${origin(site)}/sitemap.xml`;
      const out = /^\s*sitemap:/im.test(body) ? `${body}\n` : `${body}\n\n${sitemapLine}\n`;
      return reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=300').send(out);
    });

    app.get('/sitemap.xml', async (req, reply) => {
      const max = Math.max(1, area.maxUrlsPerSitemap);
      const rawPage = (req.query as Record<string, unknown>).page;
      const page = rawPage === undefined ? 0 : typeof rawPage === 'string' && /^[1-9][0-9]{0,5}$/.test(rawPage) ? Number(rawPage) : -1;
      if (page < 0) throw new HttpError(400, 'page must be a whole number from 1.');
      const xml = await app.siteCache.get('seo-sitemap', `${max}:${page}`, async () => {
        const content = await publicContent(app);
        const entries = sitemapEntries(content, origin(content.site));
        if (entries.length <= max) return page <= 1 ? sitemapXml(entries, content) : null;
        const pages: Array<typeof entries> = [];
        for (let i = 0; i < entries.length; i += max) pages.push(entries.slice(i, i + max));
        if (page === 0)
          return sitemapIndexXml(
            origin(content.site),
            pages.map((p) => ({ lastmod: new Date(Math.max(...p.map((e) => e.lastmod.getTime()))) })),
          );
        const chunk = pages[page - 1];
        return chunk ? sitemapXml(chunk, content) : null;
      });
      if (xml === null) throw notFound('No such sitemap page.');
      return reply.type(XML).header('cache-control', 'public, max-age=300').send(xml);
    });

    app.get('/products.xml', async (_req, reply) => {
      const xml = await app.siteCache.get('seo-merchant', 'feed', async () =>
        merchantFeed(await publicContent(app), origin((await publicContent(app)).site)),
      );
      return reply.type(XML).header('cache-control', 'public, max-age=300').send(xml);
    });

    registerSeoOwnerRoutes(app, origin);
  },
  { name: 'seo-area' },
);
export { alternateLanguages, collectionNoindex, markedNoindex } from './content.js';
export { blogRss, RSS_ITEMS } from './feeds.js';
export { CANONICAL_PARAMS, canonicalUrl, type HeadInput, headTags } from './head.js';
