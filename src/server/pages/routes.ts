import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { search as searchMessages } from '../../core/messages.js';
import type { Database } from '../../db/index.js';
import type { WebsiteRow, WebsiteService } from '../platform/index.js';
import type { CartService, CartSummary } from '../commerce/index.js';
import { cartIdent } from '../visitor/index.js';
import { cartPageHtml, commerceWidgets, pageMerchandising } from '../commerce/index.js';
import type { ClientAssets, Theme } from '../site-page/index.js';
import { renderIsland } from '../../web/ssr.js';
import { FolderBehavior, PageName, PageType, RecordType } from '../../core/enums.js';
import { Feature } from '../../core/features.js';
import { eventIcs } from './ics.js';
import {
  collectionFacets,
  collectionJson,
  commentCounts,
  commentsFor,
  folderChildren,
  itemsWithProduct,
  itemJson,
  listedItemWithProduct,
  memberAreaCollections,
  navigationJson,
  PRODUCTS_TYPE,
  productsFor,
  publishedItems,
  websiteJson,
  websiteSettingsJson,
  type CollectionRow,
  type ItemFilter,
  type ItemRow,
} from '../site-context/index.js';
import { CollectionCache } from './cache.js';
import { BatchedRead } from '../db-util.js';
import type { ProductRecord } from '../commerce/index.js';
import { pageCache, type PageCache } from './page-cache.js';
import { likeCounts, ownerPlainText } from '../content/index.js';
import { excerptText } from '../../core/content.js';
import { nonceScripts } from '../site-page/index.js';
import { contentWidgets, galleryIsland } from '../site-context/index.js';
import { imageRoutes } from '../images/index.js';
import { ImageVariants } from '../images/index.js';
import { cachedSearch, normaliseQuery, SEARCH_RATE } from '../search/index.js';
import { formHtml } from '../forms/index.js';
import { pageLayoutHtml, postLayoutHtml } from '../editor/index.js';
import { siteStylesHead } from '../site-page/index.js';
import { contentGate, courseContext, deniedWords, visibleHits } from '../members/index.js';
import { engagementParts } from '../engagement/index.js';
import { productPageExtras } from '../reviews/index.js';
import { CANONICAL_PARAMS, canonicalUrl, headTags, type HeadInput } from '../seo/index.js';
import { alternateLanguages, collectionNoindex, markedNoindex } from '../seo/index.js';
import { blogRss, RSS_ITEMS } from '../seo/index.js';
import { escapeHtml } from '../../core/html.js';
import { faviconRoute, isFilePath, isSameSitePath, looseSegments, sendFileMissing } from './not-found.js';
import { pageCacheControl } from './revalidate.js';

/** The template file of the readme page: a developer template's pages/readme.page. */
const README_TEMPLATE = `pages/${PageName.README}.page`;

/** Whether a request path is under /api (case and repeated slashes as the router reads them). */
function isApiPath(url: string): boolean {
  const path = (url.split('?')[0] ?? '').replace(/\/{2,}/g, '/').toLowerCase();
  return path === '/api' || path.startsWith('/api/');
}
export interface PagesDeps {
  database: Database;
  websites: WebsiteService;
  carts: CartService;
  theme: Theme;
  assets: ClientAssets;
}

export const PAGE_SIZE = 20;
/** Products lists show up to the platform's maximum products per collection on one page. */
export const PRODUCTS_PAGE_SIZE = 60;

function queryString(q: unknown): string | undefined {
  const v = Array.isArray(q) ? q[0] : q;
  if (typeof v !== 'string') return undefined;
  const s = v.trim().slice(0, 100);
  return s === '' ? undefined : s;
}

interface PageSpec {
  template: string;
  pageType: number;
  status?: number;
  title?: string;
  description?: string;
  ctx: Record<string, unknown>;
  collections?: CollectionRow[];
  /** An image to preload (the page's largest paint). */
  preload?: { srcset?: string; sizes?: string; src: string } | null;
  /** Crawler tags (server/seo/head.ts); every page gets a canonical address and Open Graph tags. */
  seo?: PageSeo;
}

interface PageSeo {
  noindex?: boolean;
  /** The page's own path when it differs from the request's (the home collection is '/'). */
  canonicalPath?: string;
  image?: string | null;
  ogType?: HeadInput['ogType'];
  feeds?: HeadInput['feeds'];
  /** After Home: the collection, then the item. */
  trail?: HeadInput['breadcrumbs'];
}

/** Pages no search engine should keep: search results, lock screens, member sign-up walls, the cart, errors. */
const NOINDEX_PAGE_TYPES: ReadonlySet<number> = new Set([
  PageType.SEARCH,
  PageType.LOCK_SCREEN,
  PageType.PROTECTED_CONTENT,
  PageType.MEMBER_AREA_ACCESS_DENIED,
  PageType.SHOW_CART,
  PageType.NOT_FOUND,
  PageType.ERROR,
]);

// eslint-disable-next-line max-lines-per-function -- not split yet (the split stream ran out of time)
export async function pageRoutes(app: FastifyInstance, deps: PagesDeps) {
  const { database, websites, carts, theme, assets } = deps;
  const db = database.db;
  const collectionCache = new CollectionCache(app, db);
  // Whole pages shared by visitors with nothing of their own on them (page-cache.ts).
  // The pill's server render depends on its quantity alone: rendered once per quantity.
  const pills = new Map<number, string>();
  const emptyPill = renderIsland('CartPill', { totalQuantity: 0 });
  const pillOf = (cart: { totalQuantity: number } | null) => {
    if (!cart) return emptyPill;
    let pill = pills.get(cart.totalQuantity);
    if (pill === undefined) {
      pill = renderIsland('CartPill', { totalQuantity: cart.totalQuantity, hasCart: true });
      if (pills.size < 1000) pills.set(cart.totalQuantity, pill);
    }
    return pill;
  };
  /** The visitor's cart, or a signed-in site user's cart from any device (on PGlite read once per cart write). */
  await carts.watch();
  // Read once per request: the page cache starts it beside the version read, and a render that follows uses it.
  const cartReads = new WeakMap<FastifyRequest, Promise<CartSummary | null>>();
  const cartOf = (req: FastifyRequest) => {
    let read = cartReads.get(req);
    if (!read) {
      const ident = cartIdent(req);
      read = ident.token || ident.siteUserId ? carts.findShared(ident) : Promise.resolve(null);
      cartReads.set(req, read);
    }
    return read;
  };
  const shared = pageCache(app, {
    maxAgeMs: app.config.PAGE_CACHE_SECONDS * 1000,
    maxBytes: app.config.PAGE_CACHE_MB * 1024 * 1024,
    localVersion: () => theme.generation,
    cartPill: { empty: pillOf(null), of: async (req) => pillOf(await cartOf(req)) },
  });
  app.decorate('pageCache', shared);

  imageRoutes(app, new ImageVariants({ '/demo-media/': join(process.cwd(), 'seed', 'media'), '/theme/': theme.assetsDir }));

  // What a page's context takes from the website row alone, made once per row (the row is read per content
  // version and never changed in place); shared between requests, read-only.
  const websiteJsonOf = new WeakMap<WebsiteRow, ReturnType<typeof websiteJson>>();
  const siteJson = (site: WebsiteRow) => {
    let made = websiteJsonOf.get(site);
    if (!made) websiteJsonOf.set(site, (made = websiteJson(site, websites)));
    return made;
  };
  const websiteSettingsJsonOf = new WeakMap<WebsiteRow, ReturnType<typeof websiteSettingsJson>>();
  const siteSettingsJson = (site: WebsiteRow) => {
    let made = websiteSettingsJsonOf.get(site);
    if (!made) websiteSettingsJsonOf.set(site, (made = websiteSettingsJson(site, websites)));
    return made;
  };

  const siteUserOf = (req: FastifyRequest) => (req as unknown as { siteUser?: { id: string } | null }).siteUser ?? null;

  /** Builds the parts every page shares, renders the page template into the layout, and replies. */
  async function send(req: FastifyRequest, reply: FastifyReply, page: PageSpec) {
    const site = await websites.get();
    // Feature states, experiments, the owner's preview and safe mode (server/flags).
    const fx = await app.flags.page(req, site);
    const collections = page.collections ?? (await collectionCache.get(site.id));
    const byId = new Map(collections.map((c) => [c.id, c]));
    const path = req.url.split('?')[0] ?? '/';
    const website = siteJson(site);
    const context: Record<string, unknown> = {
      website,
      websiteSettings: siteSettingsJson(site),
      navigation: navigationJson(site, byId, path),
      pageType: page.pageType,
      pageTitle: page.title ?? site.title,
      productMerchandisingContext: pageMerchandising(page.ctx, websites.storeSettings(site)),
      features: fx.features,
      experiments: fx.experiments,
      // Prices print as CLDR currency text (product-price, subscription-price), as the product page's price island does.
      featureFlags: { useCLDRMoneyFormat: true },
      ...page.ctx,
    };
    const query = req.query as Record<string, unknown>;
    if (query.format === 'json' || query.format === 'json-pretty') {
      reply.status(page.status ?? 200).header('cache-control', 'no-store');
      return reply
        .type('application/json; charset=utf-8')
        .send(query.format === 'json-pretty' ? JSON.stringify(context, null, 2) : JSON.stringify(context));
    }
    const cart = await cartOf(req);
    const cartPill = pillOf(cart);
    shared.notePill(req, cartPill);
    const origin = `${req.protocol}://${req.host}`;
    const renderer = contentWidgets(commerceWidgets({ currency: site.currency, settings: websites.storeSettings(site) }), {
      origin,
      shareButtonOptions: website.shareButtonOptions,
    });
    const renderOpts = { locale: site.locale, timeZone: site.timeZone, renderer };
    // A developer template reads its queries, neighbouring items and block fields first (server/themes).
    Object.assign(context, await (fx.theme ?? theme).platformData({ app, req, site, context, template: page.template }));
    const mainContent = fx.filterHtml((fx.theme ?? theme).render(page.template, context, renderOpts));
    const nonce = req.cspNonce();
    const client = assets.tags('site', nonce);
    const settings = site.settings as Record<string, unknown>;
    const injection = (fx.safeMode ? {} : (settings.codeInjection ?? {})) as { header?: string; footer?: string };
    const preload = page.preload
      ? // An image off the site's image hosts has no srcset (core/image.ts onImageHost): preloaded by its address alone.
        `<link rel="preload" as="image" href="${escapeHtml(page.preload.src)}"${page.preload.srcset ? ` imagesrcset="${escapeHtml(page.preload.srcset)}" imagesizes="${escapeHtml(page.preload.sizes ?? '')}"` : ''} fetchpriority="high">`
      : '';
    const description = page.description ?? website.siteDescription;
    // Crawler tags: addresses from the configured public origin, never the request's Host (server/seo).
    const seo = page.seo ?? {};
    const seoOrigin = app.seo.origin(site);
    const noindex = !!seo.noindex || NOINDEX_PAGE_TYPES.has(page.pageType) || (page.status ?? 200) >= 400;
    const languages = alternateLanguages(site);
    const alternateBase = canonicalUrl(seoOrigin, seo.canonicalPath ?? path, query);
    // A page asked for in one of the site's other languages (`?lang=`, as its hreflang alternate names it) is its own canonical.
    const lang =
      typeof query.lang === 'string' ? languages.slice(1).find((l) => l.toLowerCase() === String(query.lang).toLowerCase()) : undefined;
    const canonical = lang
      ? canonicalUrl(seoOrigin, seo.canonicalPath ?? path, { ...query, lang }, [...CANONICAL_PARAMS, 'lang'])
      : alternateBase;
    const pageTitle = page.title ? `${page.title} — ${site.title}` : site.title;
    const seoHead = headTags({
      origin: seoOrigin,
      canonical,
      alternateBase,
      title: pageTitle,
      description,
      siteTitle: site.title,
      image: seo.image ?? null,
      ogType: seo.ogType ?? 'website',
      noindex,
      languages,
      primaryLanguage: site.locale,
      feeds: seo.feeds ?? [],
      breadcrumbs: [{ name: site.title, path: '/' }, ...(seo.trail ?? [])],
    });
    if (noindex) reply.header('x-robots-tag', 'noindex');
    // Popup, cookie banner and consent-gated owner scripts (server/engagement).
    const engage = await engagementParts(app, req, {
      pageType: page.pageType,
      path,
      header: nonceScripts(injection.header ?? '', nonce),
      footer: nonceScripts(injection.footer ?? '', nonce),
    });
    const tessera = {
      headers: `${seoHead}\n${preload}<link rel="stylesheet" href="/theme/site.css">${await siteStylesHead(app, site.id)}${client.head}${engage.header}`,
      footers: `${client.body}${engage.footer}${fx.island}${fx.notice}`,
      cartPill,
      nonce,
      title: escapeHtml(pageTitle),
      description,
      canonicalUrl: canonical,
      year: new Date().getUTCFullYear(),
      accentText: website.accentIsDark ? '#ffffff' : '#1f1d1a',
    };
    const html = (fx.theme ?? theme).render('site.region', { ...context, mainContent, tessera }, renderOpts);
    // Revalidatable with an ETag for an anonymous visitor, never kept otherwise (revalidate.ts).
    pageCacheControl(req, reply, reply.status(page.status ?? 200).statusCode);
    return reply.type('text/html; charset=utf-8').send(html);
  }

  /** The not-found answer: the 404 page, or JSON under /api (the page routes' '/:collection/:item' also match API paths). */
  async function notFound(req: FastifyRequest, reply: FastifyReply) {
    if (isApiPath(req.url)) return reply.status(404).header('cache-control', 'no-store').send({ error: 'Not found', message: 'Not found' });
    // The owner's URL redirects and the automatic ones after a url id change (server/seo), before the 404 page.
    if (req.method === 'GET' || req.method === 'HEAD') {
      const moved = await app.seo.redirectFor(req.url);
      if (moved) return reply.header('cache-control', 'no-store').redirect(moved.location, moved.status);
      // A page's address with a trailing slash or other letter case: to the page's own address (not-found.ts).
      const own = await canonicalAddress(req.url);
      if (own) return reply.header('cache-control', 'no-store').redirect(own, 301);
    }
    // A missing file (an asset folder, a file extension): a short plain 404, not the page.
    if (isFilePath(req.url.split('?')[0] ?? '/')) return sendFileMissing(reply);
    return send(req, reply, {
      template: 'system/404.html',
      pageType: PageType.NOT_FOUND,
      status: 404,
      title: 'Page not found',
      ctx: { path: req.url.split('?')[0] },
    });
  }

  /**
   * The address of the page `url` names but for trailing slashes and letter case (its query kept), or null.
   * Built from the page's own url ids, never from the request's text, and always a path on this site.
   */
  async function canonicalAddress(url: string): Promise<string | null> {
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const segments = looseSegments(path);
    if (!segments) return null;
    const lower = segments.map((s) => s.toLowerCase());
    const site = await websites.get();
    const c = (await collectionCache.get(site.id)).find((x) => x.enabled && x.urlId.toLowerCase() === lower[0]);
    let target: string | null = null;
    const isProducts = c?.typeName === 'products';
    if (c && segments.length === 1) target = `/${c.urlId}`;
    else if (c && (isProducts ? segments.length === 3 && lower[1] === 'p' : segments.length === 2)) {
      const asked = segments[segments.length - 1]!;
      const reader = itemReader(c.id);
      const found = (await reader.get(asked)) ?? (await reader.get(asked.toLowerCase()));
      if (found && !app.flags.productHidden(site, found.row.structuredContent))
        target = `/${c.urlId}${isProducts ? '/p/' : '/'}${found.row.urlId}`;
    }
    // A fixed page (/cart, /search, /checkout, /account ...).
    if (!target && app.hasRoute({ method: 'GET', url: `/${lower.join('/')}` })) target = `/${lower.join('/')}`;
    if (!target || target === path || !isSameSitePath(target)) return null;
    return q === -1 ? target : target + url.slice(q);
  }

  /** A page's own words for its description, when the owner wrote none: the start of its text. */
  function pageExcerpt(c: CollectionRow): string {
    const text =
      typeof c.settings.layoutText === 'string' && c.settings.layoutText
        ? c.settings.layoutText
        : ownerPlainText(String(c.settings.body ?? ''));
    return excerptText(text, 160);
  }

  /** Member-area pages need a signed-in site user; others see the access-denied page (106) with a join button. */
  async function memberGate(req: FastifyRequest, reply: FastifyReply, site: WebsiteRow, c: CollectionRow): Promise<boolean> {
    // Member areas switched off (server/flags): their pages are not found, for everyone.
    if (!app.flags.isEnabled(site, Feature.MEMBER_AREAS) && memberAreaCollections(site).has(c.id))
      return (await notFound(req, reply), true);
    // The members area's access check (site lock, page password, member areas; owners pass): server/members.
    const locked = await contentGate(app, req, site, c);
    if (locked) return (await send(req, reply, locked), true);
    if (await app.members.isOwner(req)) return false;
    if (!memberAreaCollections(site).has(c.id)) return false;
    if (siteUserOf(req)) return false;
    await send(req, reply, {
      template: 'system/access-denied.html',
      pageType: PageType.MEMBER_AREA_ACCESS_DENIED,
      status: 403,
      title: c.title,
      ctx: {
        ...deniedWords(),
        collection: collectionJson(c),
        joinUrl: `/account/join?next=${encodeURIComponent(`/${c.urlId}`)}`,
        signInUrl: `/account/login?next=${encodeURIComponent(`/${c.urlId}`)}`,
      },
    });
    return true;
  }

  async function home(req: FastifyRequest, reply: FastifyReply) {
    const site = await websites.get();
    if (await shared.serve(req, reply, site)) return reply;
    const collections = await collectionCache.get(site.id);
    const homeId = site.settings.homeCollectionId as string | undefined;
    const c = collections.find((x) => x.id === homeId) ?? collections.find((x) => x.enabled);
    if (!c) return notFound(req, reply);
    return collectionPage(req, reply, c, collections, true);
  }

  /**
   * The rows the lists of a products collection read at the current content version (published items,
   * with their variants), by url id: the rows itemsWithProduct would read for those products at that
   * version. Kept in the site cache, so a new version starts an empty map. Read-only rows.
   */
  const listedItems = (c: CollectionRow) => app.siteCache.get('page-item-listed', c.id, async () => new Map<string, ItemRow>());

  async function collectionPage(req: FastifyRequest, reply: FastifyReply, c: CollectionRow, collections: CollectionRow[], isHome = false) {
    const site = await websites.get();
    if (await memberGate(req, reply, site, c)) return reply;
    const query = req.query as Record<string, unknown>;
    const homeId = (site.settings.homeCollectionId as string | undefined) ?? collections.find((x) => x.enabled)?.id;
    const ownPath = c.id === homeId ? '/' : `/${c.urlId}`;
    const feeds = c.typeName === 'blog' ? [{ title: `${c.title} — ${site.title}`, href: `/${c.urlId}?format=rss` }] : [];
    if (query.format === 'rss' && c.typeName === 'blog') {
      // RSS 2.0 of the newest published posts (server/seo/feeds.ts), kept per content version.
      const origin = app.seo.origin(site);
      const xml = await app.siteCache.get('seo-rss', `${c.id}:${ownPath}`, async () =>
        blogRss(site, c, await publishedItems(db, c, RSS_ITEMS, 0, {}), origin, ownPath),
      );
      return reply.type('application/rss+xml; charset=utf-8').header('cache-control', 'public, max-age=300').send(xml);
    }
    const seoBase: PageSeo = {
      noindex: await collectionNoindex(app, site, c),
      canonicalPath: ownPath,
      feeds,
      trail: c.id === homeId ? [] : [{ name: c.title, path: `/${c.urlId}` }],
    };
    const byId = new Map(collections.map((x) => [x.id, x]));
    const website = siteJson(site);
    if (c.typeName === 'folder') {
      const behavior = Number(c.settings.folderBehavior ?? FolderBehavior.INDEX);
      const children = folderChildren(site, c, byId);
      if (behavior === FolderBehavior.REDIRECT && children[0]) return reply.redirect(String(children[0].fullUrl), 302);
      if (behavior !== FolderBehavior.INDEX) return notFound(req, reply);
      return send(req, reply, {
        template: 'collections/folder.list',
        pageType: PageType.MAIN_CONTENT,
        title: c.title,
        collections,
        ctx: { collection: collectionJson(c), children },
        seo: seoBase,
      });
    }
    const pageSize = c.typeName === 'products' ? PRODUCTS_PAGE_SIZE : PAGE_SIZE;
    const pageNo = Math.max(1, Math.min(10_000, Number.parseInt(String(queryString(query.page) ?? '1'), 10) || 1));
    const filter: ItemFilter = { tag: queryString(query.tag), category: queryString(query.category), now: Date.now() };
    if (c.typeName === 'events') filter.view = queryString(query.view) === 'past' ? 'past' : 'upcoming';
    // The owner's preview lists drafts and scheduled items too (server/flags; never for visitors).
    filter.statuses = await app.flags.previewStatuses(req, site);
    // A list's rows, variants, comment counts and facets depend on content alone (events also on the clock,
    // an owner's preview on the owner): kept per content version (plugins/site-cache.ts), read-only.
    const offset = (pageNo - 1) * pageSize;
    const perVersion = c.typeName !== 'events' && !filter.statuses;
    const readRows = () => (c.typeName === 'page' ? Promise.resolve([]) : publishedItems(db, c, pageSize + 1, offset, filter));
    const rows = perVersion
      ? await app.siteCache.get('page-list', `${c.id}:${pageSize}:${offset}:${filter.tag ?? ''}:${filter.category ?? ''}`, async () => {
          const read = await readRows();
          // A products list's rows are its products' page rows too (listedItems): none of them is read again.
          if (c.type === PRODUCTS_TYPE) {
            const listed = await listedItems(c);
            for (const r of read) listed.set(r.urlId, r);
          }
          return read;
        })
      : await readRows();
    const hasNext = rows.length > pageSize;
    // An empty list for a tag or category, or a page past the last, is no page (to a crawler, a soft 404).
    if (rows.length === 0 && (filter.tag || filter.category || pageNo > 1)) return notFound(req, reply);
    const shown = rows.slice(0, pageSize).filter((r) => !app.flags.productHidden(site, r.structuredContent));
    const readCounts = () =>
      c.typeName === 'blog'
        ? commentCounts(
            db,
            shown.map((r) => r.id),
          )
        : Promise.resolve(new Map<string, number>());
    const readFacets = () =>
      c.typeName === 'blog' || c.typeName === 'events' ? collectionFacets(db, c) : Promise.resolve({ tags: [], categories: [] });
    const [products, counts, facets] = await Promise.all([
      productsFor(db, shown),
      perVersion ? app.siteCache.get('page-list-comments', shown.map((r) => r.id).join(','), readCounts) : readCounts(),
      app.siteCache.get('page-facets', c.id, readFacets),
    ]);
    const lcpCount = c.typeName === 'products' ? 3 : 1;
    const items = shown.map((i, n) =>
      itemJson(c, i, products.get(i.id), {
        currency: site.currency,
        commentsEnabled: website.commentsEnabled,
        publicCommentCount: counts.get(i.id) ?? 0,
        priority: n < lcpCount ? 'high' : null,
        sizes:
          c.typeName === 'blog'
            ? '(max-width: 432px) 100vw, 240px'
            : c.typeName === 'events'
              ? '200px'
              : c.typeName === 'gallery'
                ? '(max-width: 432px) 100vw, 50vw'
                : '(max-width: 432px) 50vw, 25vw',
      }),
    );
    const fullUrl = `/${c.urlId}`;
    const keep = new URLSearchParams();
    if (filter.tag) keep.set('tag', filter.tag);
    if (filter.category) keep.set('category', filter.category);
    if (c.typeName === 'events' && filter.view === 'past') keep.set('view', 'past');
    const pageUrl = (n: number) => {
      const p = new URLSearchParams(keep);
      if (n > 1) p.set('page', String(n));
      const s = p.toString();
      return s ? `${fullUrl}?${s}` : fullUrl;
    };
    const view = ['list', 'grid'].includes(queryString(query.view) ?? '') ? queryString(query.view) : String(c.settings.view ?? 'grid');
    const collection = collectionJson(c);
    const ctx: Record<string, unknown> = {
      collection,
      items,
      empty: items.length === 0,
      collectionView: view,
      filter: { tag: filter.tag ?? null, category: filter.category ?? null, active: !!(filter.tag || filter.category), clearUrl: fullUrl },
      tags: facets.tags,
      categories: facets.categories,
      eventsView: c.typeName === 'events' ? { past: filter.view === 'past', upcomingUrl: fullUrl, pastUrl: `${fullUrl}?view=past` } : null,
      pagination: {
        pageSize,
        currentPage: pageNo,
        nextPage: hasNext,
        nextPageUrl: hasNext ? pageUrl(pageNo + 1) : null,
        prevPage: pageNo > 1,
        prevPageUrl: pageNo > 1 ? pageUrl(pageNo - 1) : null,
      },
    };
    if (c.typeName === 'gallery') ctx.galleryHtml = galleryIsland(collection, items);
    if (c.typeName === 'page') {
      // A page built in the editor: its published layout (server/editor); a private page is not found.
      const layoutHtml = await pageLayoutHtml(app, req, c);
      if (layoutHtml === false) return notFound(req, reply);
      if (layoutHtml) ctx.layoutHtml = layoutHtml;
    }
    Object.assign(ctx, await courseContext(app, req, site, c, collections));
    if (typeof c.settings.formId === 'string') {
      const pagePermissionTypeValue = await app.members.permissionType(site, c.id);
      ctx.formHtml = await formHtml(app, req, c.settings.formId, {
        page: { pageTitle: c.title, pageId: c.id, contentSource: 'c', pagePermissionTypeValue },
      });
    }
    const first = items[0]?.image as { src: string; srcset: string; sizes: string } | null | undefined;
    return send(req, reply, {
      template: `collections/${c.typeName}.list`,
      pageType: c.typeName === 'page' ? PageType.PAGE : PageType.MAIN_CONTENT,
      title: isHome ? undefined : filter.tag ? `${c.title}: ${filter.tag}` : filter.category ? `${c.title}: ${filter.category}` : c.title,
      description: c.description || (c.typeName === 'page' && !isHome ? pageExcerpt(c) : '') || undefined,
      collections,
      preload: first && c.typeName !== 'page' ? { src: first.src, srcset: first.srcset, sizes: first.sizes } : null,
      ctx,
      seo: { ...seoBase, image: items[0]?.assetUrl ? String(items[0].assetUrl) : null },
    });
  }

  /**
   * Item pages missed at about the same time read their items in one statement per collection (db-util.ts
   * BatchedRead: each read starts after its callers asked, so after the version they read): a crawler or a
   * cold cache asks for many items of one catalogue at once.
   */
  const itemReaders = new Map<string, BatchedRead<{ row: ItemRow; product: ProductRecord | undefined }>>();
  const itemReader = (collectionId: string) => {
    let reader = itemReaders.get(collectionId);
    if (!reader) {
      if (itemReaders.size >= 1000) itemReaders.clear();
      itemReaders.set(
        collectionId,
        (reader = new BatchedRead((urlIds) => itemsWithProduct(db, collectionId, urlIds), 100, database.kind === 'pglite')),
      );
    }
    return reader;
  };

  async function itemPage(req: FastifyRequest, reply: FastifyReply, c: CollectionRow, urlId: string, collections: CollectionRow[]) {
    const site = await websites.get();
    if (await memberGate(req, reply, site, c)) return reply;
    // Kept per content version (plugins/site-cache.ts; items and variants writes move it): read-only. A
    // product a list of this version already read is not read again.
    const published = await app.siteCache.get('page-item', `${c.id}:${urlId}`, async () => {
      const listed = c.type === PRODUCTS_TYPE ? (await listedItems(c)).get(urlId) : undefined;
      return (listed && listedItemWithProduct(listed)) || itemReader(c.id).get(urlId);
    });
    const found = published ?? (await app.flags.previewItem(await app.flags.page(req, site), c.id, urlId));
    if (!found || app.flags.productHidden(site, found.row.structuredContent)) return notFound(req, reply);
    const { row, product } = found;
    const website = siteJson(site);
    const isProduct = c.typeName === 'products';
    // Approved comments change only with a content write (the comments table moves the version).
    const comments = isProduct ? [] : await app.siteCache.get('page-comments', row.id, () => commentsFor(db, [row.id]));
    const item = itemJson(c, row, product, {
      currency: site.currency,
      commentsEnabled: website.commentsEnabled,
      publicCommentCount: comments.length,
      priority: 'high',
      sizes: isProduct ? '(max-width: 432px) 100vw, 55vw' : '(max-width: 432px) 100vw, 760px',
    });
    const commentList = comments.map((x) => ({ id: x.id, authorName: x.authorName, body: x.body, addedOn: x.createdAt.getTime() }));
    if (!isProduct) item.comments = commentList;
    // The like button's count (server/content/likes.ts): this instance's likes show at once (and drop the
    // page from the page cache), other instances' within LIKE_COUNT_SECONDS.
    if (!isProduct) item.likeCount = await likeCounts(db).get(row.id);
    // A journal post written in the editor: its published blocks are its body (the classic HTML body otherwise).
    if (c.typeName === 'blog') {
      const blocks = await postLayoutHtml(app, req, row);
      if (blocks) item.body = blocks;
    }
    Object.assign(item, await courseContext(app, req, site, c, collections, row));
    if ((req.query as Record<string, unknown>).format === 'ics' && row.recordType === RecordType.EVENT) {
      const ics = eventIcs({
        id: row.id,
        title: row.title,
        excerpt: String(item.excerpt ?? ''),
        startDate: Number(item.startDate),
        endDate: Number(item.endDate),
        url: `${req.protocol}://${req.host}${String(item.fullUrl)}`,
        location: item.location as Record<string, unknown> | null,
      });
      return reply.type('text/calendar; charset=utf-8').header('content-disposition', `attachment; filename="${row.urlId}.ics"`).send(ics);
    }
    const image = item.image as { src: string; srcset: string; sizes: string } | null;
    // Reviews, related products and structured data (server/reviews).
    const productExtras = isProduct ? await productPageExtras(app, { site, collections, row, item, origin: app.seo.origin(site) }) : {};
    return send(req, reply, {
      template: `collections/${c.typeName}.item`,
      pageType: PageType.CONTENT_ITEM,
      // A product's own search-result title and description (set in its editor) win over its title and excerpt.
      title: String(row.structuredContent.seoTitle || '') || row.title,
      description: String(row.structuredContent.seoDescription || '') || String(item.excerpt ?? ''),
      collections,
      preload: image ? { src: image.src, srcset: image.srcset, sizes: image.sizes } : null,
      ctx: {
        collection: collectionJson(c),
        item,
        comments: commentList,
        ...productExtras,
      },
      seo: {
        noindex: (await collectionNoindex(app, site, c)) || markedNoindex(row.structuredContent) || row.status !== 'published',
        canonicalPath: String(item.fullUrl),
        image: item.assetUrl ? String(item.assetUrl) : null,
        ogType: isProduct ? 'product' : c.typeName === 'blog' ? 'article' : 'website',
        feeds: c.typeName === 'blog' ? [{ title: `${c.title} — ${site.title}`, href: `/${c.urlId}?format=rss` }] : [],
        trail: [
          { name: c.title, path: `/${c.urlId}` },
          { name: row.title, path: String(item.fullUrl) },
        ],
      },
    });
  }

  app.get('/', home);
  faviconRoute(app, theme.assetsDir);

  // A search (a query given) counts against the visitor's address; the empty search page does not.
  const searchLimit = app.services.rateLimiter.guard({ name: 'search-ip', ...SEARCH_RATE, message: searchMessages.TOO_MANY_SEARCHES });
  const searchGuard = async (req: FastifyRequest) => {
    if (normaliseQuery((req.query as Record<string, unknown>).q) !== '') await searchLimit(req);
  };
  app.get('/search', { preHandler: searchGuard }, async (req, reply) => {
    const site = await websites.get();
    // Results are the same for every visitor without a page of their own (the guard above still counts each
    // search against its address), so a search page is shared like a list page, keyed by its query.
    if (await shared.serve(req, reply, site)) return reply;
    const q = normaliseQuery((req.query as Record<string, unknown>).q);
    const results = q ? await visibleHits(app, req, site, await cachedSearch(app, site.id, q)) : [];
    return send(req, reply, {
      template: 'system/search.html',
      pageType: PageType.SEARCH,
      title: q ? `Search: ${q}` : 'Search',
      ctx: { search: { query: q, results, count: results.length, empty: q !== '' && results.length === 0, asked: q !== '' } },
    });
  });

  app.get('/:collection', async (req, reply) => {
    const { collection } = req.params as { collection: string };
    const site = await websites.get();
    if (await shared.serve(req, reply, site)) return reply;
    const collections = await collectionCache.get(site.id);
    const c = collections.find((x) => x.urlId === collection && x.enabled);
    // The readme page (PageName.README): a developer template's pages/readme.page, unless a page of the site has that url.
    if (!c && collection === PageName.README && theme.has(README_TEMPLATE))
      return send(req, reply, { template: README_TEMPLATE, pageType: PageType.PAGE, title: 'Readme', collections, ctx: {} });
    if (!c || !theme.has(`collections/${c.typeName}.list`)) return notFound(req, reply);
    return collectionPage(req, reply, c, collections);
  });

  const item = async (req: FastifyRequest, reply: FastifyReply) => {
    const { collection, item } = req.params as { collection: string; item: string };
    const site = await websites.get();
    if (await shared.serve(req, reply, site)) return reply;
    const collections = await collectionCache.get(site.id);
    const c = collections.find((x) => x.urlId === collection && x.enabled);
    const productPath = req.url.includes('/p/');
    if (!c || (c.typeName === 'products') !== productPath || !theme.has(`collections/${c.typeName}.item`)) return notFound(req, reply);
    return itemPage(req, reply, c, item, collections);
  };
  app.get('/:collection/p/:item', item);
  app.get('/:collection/:item', item);

  app.get('/cart', async (req, reply) => {
    const site = await websites.get();
    const cart = await carts.read(await carts.find(cartIdent(req)), site.currency);
    const cartPage = await cartPageHtml(carts, cart, { currency: site.currency, crumb: req.crumb, settings: websites.storeSettings(site) });
    return send(req, reply, { template: 'system/cart.html', pageType: PageType.SHOW_CART, title: 'Cart', ctx: { cart, cartPage } });
  });

  app.setNotFoundHandler(async (req, reply) => {
    if (isApiPath(req.url)) return reply.status(404).send({ error: 'Not found', message: 'Not found' });
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply.status(404).send({ error: 'Not found', message: 'Not found' });
    return notFound(req, reply);
  });

  /** The error page (101) for unexpected failures on page routes; never a stack trace. */
  app.decorate('renderErrorPage', async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      return await send(req, reply, {
        template: 'system/error.html',
        pageType: PageType.ERROR,
        status: 500,
        title: 'Something went wrong',
        ctx: {},
      });
    } catch {
      return reply
        .status(500)
        .type('text/html; charset=utf-8')
        .send('<!doctype html><title>Something went wrong</title><h1>Something went wrong</h1><p>Please try again in a moment.</p>');
    }
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    renderErrorPage(req: FastifyRequest, reply: FastifyReply): Promise<unknown>;
    /** Rendered pages shared by visitors (page-cache.ts). */
    pageCache: PageCache;
  }
}
