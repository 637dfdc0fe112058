/**
 * The members area (issue #14): the site lock screen, page passwords, member areas (free, paid once or by
 * subscription through checkout with the paywall product type 5), video courses, and the access check
 * every door of the site goes through.
 *
 * The page pipeline calls `contentGate` (page HTML, `?format=json`, `?format=ics`), `visibleHits` (search)
 * and `courseContext` (video list and lesson pages). The request hook here covers the rest: the site lock
 * in front of every page, and files (media and member files) used only by locked content.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Access } from './access.js';
import { memberRoutes } from './routes.js';
import { courseContext as buildCourseContext, deniedPage, lockPage, type DeniedPage } from './pages.js';
import { sendSitePage } from '../site-page/index.js';
import { SiteUserService, siteUserConfirmedHooks, type SiteUserConfirmedHook } from '../platform/index.js';
import { sql } from 'drizzle-orm';
import type { WebsiteRow } from '../platform/index.js';
import type { CollectionRow, ItemRow } from '../site-context/index.js';
import { z } from 'zod';
import { isEnabled } from '../flags/index.js';
import { PageType } from '../../core/enums.js';
import { Feature } from '../../core/features.js';
import { members as messages } from '../../core/messages.js';

export { seedMembers } from './service.js';
export type { DeniedPage } from './pages.js';
export { deniedWords } from './pages.js';

declare module 'fastify' {
  interface FastifyInstance {
    members: Access;
  }
}

/** Paths the site lock never stands in front of: the owner's /config, assets and health (the APIs: below). */
const OPEN_PREFIXES = ['/config', '/assets/', '/theme/', '/site-fonts/', '/health', '/favicon', '/robots.txt'];
/**
 * The APIs a visitor of a locked site may still call without the unlock: the unlock itself and the
 * member calls (which run the access check themselves), the owner's sign-in, the visitor's own cart,
 * checkout and site-user account, and the analytics beacons. Every other API (stock, layouts, search,
 * languages, maps, form submissions, anything added later) answers 401 until the visitor unlocks: a
 * list of what stays open, so a new content API is locked by default.
 */
const LOCKED_SITE_OPEN_APIS = [
  '/api/members/',
  '/api/auth/',
  '/api/commerce/shopping-cart',
  '/api/checkout',
  '/api/site-users/',
  '/api/census/',
  '/api/events/',
  '/api/v1/events',
  '/api/v1/schemas/',
  '/api/1/performance/',
];
const startsWithAny = (path: string, prefixes: string[]) => prefixes.some((p) => path === p || path.startsWith(p));
/** File paths whose access follows the content that uses them (demo media, the page editor's uploads, member files). */
const FILE_PREFIXES = ['/demo-media/', '/uploads/', '/members/files/'];

function accessOf(app: FastifyInstance): Access | null {
  return app.hasDecorator('members') ? app.members : null;
}

/**
 * THE access check of a collection's pages (the collection page, its items, their JSON and ICS views):
 * null when the request may see it, else the page to show instead (lock screen 103, protected content 105,
 * or member-area access denied 106 with its join button).
 */
export async function contentGate(
  app: FastifyInstance,
  req: FastifyRequest,
  site: WebsiteRow,
  c: CollectionRow,
  itemId: string | null = null,
): Promise<DeniedPage | null> {
  const access = accessOf(app);
  if (!access) return null;
  const d = await access.check(req, site, c.id);
  if (!d) return null;
  // With the member-areas feature switched off (server/flags), member-area pages are not found.
  if (d.kind === 'members' && !isEnabled(site, Feature.MEMBER_AREAS)) {
    return {
      template: 'system/404.html',
      pageType: PageType.NOT_FOUND,
      status: 404,
      title: 'Page not found',
      ctx: { path: req.url.split('?')[0] },
    };
  }
  return deniedPage(app, req, site, d, c, itemId);
}

/** Search hits without those of collections the request may not see (titles and excerpts never leak). */
export async function visibleHits<T extends { collectionId: string }>(
  app: FastifyInstance,
  req: FastifyRequest,
  site: WebsiteRow,
  hits: T[],
): Promise<T[]> {
  const access = accessOf(app);
  if (!access || hits.length === 0) return hits;
  const hidden = await access.hidden(
    req,
    site,
    hits.map((h) => h.collectionId),
  );
  return hidden.size ? hits.filter((h) => !hidden.has(h.collectionId)) : hits;
}

/** The video course context of a 'videos' collection page or lesson; {} for other collections. */
export async function courseContext(
  app: FastifyInstance,
  req: FastifyRequest,
  site: WebsiteRow,
  c: CollectionRow,
  collections: CollectionRow[],
  item: ItemRow | null = null,
): Promise<Record<string, unknown>> {
  const access = accessOf(app);
  if (!access || c.typeName !== 'videos') return {};
  return buildCourseContext(app, access, req, site, c, new Map(collections.map((x) => [x.id, x])), item);
}

/**
 * A visitor who joined a free area without an account gets it once the address is confirmed: the
 * 'awaiting' row made at the join turns active in the confirming transaction (only while the area is free).
 */
const grantAwaiting: SiteUserConfirmedHook = async (tx, siteUserId, now) => {
  await tx.execute(sql`update member_area_members m set status = 'active', joined_at = ${now}
     from member_areas a where a.id = m.area_id and m.site_user_id = ${siteUserId} and m.status = 'awaiting'
       and (a.access = 'free' or a.product_item_id is null)`);
};

export const membersArea = fp(
  async (app: FastifyInstance) => {
    if (!siteUserConfirmedHooks.includes(grantAwaiting)) siteUserConfirmedHooks.push(grantAwaiting);
    const access = new Access(app, app.database);
    app.decorate('members', access);

    app.addHook('onRequest', async (req, reply) => {
      const path = req.url.split('?')[0] ?? '/';
      if (path.startsWith('/api/')) {
        // Any method: a content API read may be a POST too. The owner (any team role) passes.
        if (startsWithAny(path, LOCKED_SITE_OPEN_APIS)) return;
        if (await access.siteLock(req, await app.services.websites.get())) {
          return reply.status(401).header('cache-control', 'no-store').send({ error: 'Unauthorized', message: messages.LOCK_TEXT });
        }
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') return;
      if (startsWithAny(path, OPEN_PREFIXES)) return;
      const site = await app.services.websites.get();
      if (FILE_PREFIXES.some((p) => path.startsWith(p))) {
        const d = await access.fileDenied(req, site, path, path.startsWith('/members/files/'));
        if (d)
          return reply
            .status(403)
            .header('cache-control', 'no-store')
            .send({ error: 'Forbidden', message: 'This file is only for those who may see the page it belongs to.' });
        return;
      }
      if (await access.siteLock(req, site)) return sendSitePage(app, req, reply, lockPage(req));
      // The order confirmation of a membership bought through checkout is the membership confirmed page.
      const m = /^\/(order|subscription)-confirmed\/([0-9a-f]{24})$/.exec(path);
      if (m && app.hasDecorator('checkout')) {
        const t = z
          .string()
          .max(64)
          .safeParse((req.query as Record<string, unknown>).t);
        await app.checkout.service.loadSecret();
        if (!t.success || !app.checkout.service.verify(`order:${m[2]}`, t.data)) return;
        const o = await app.checkout.service.order(m[2]!);
        const area = o
          ? await access.service.areaOfOrderItems(
              site.id,
              o.items.map((i) => String(i.itemId)),
            )
          : null;
        if (area)
          return reply.redirect(`/members/confirmed/${encodeURIComponent(area.id)}?order=${m[2]}&t=${encodeURIComponent(t.data)}`, 303);
      }
    });

    await app.register(memberRoutes, { access, siteUsers: new SiteUserService(app.database, app.services.mailer) });
  },
  { name: 'members-area' },
);
export { SITE_TARGET } from './access.js';
export { memberFileKey } from './service.js';
