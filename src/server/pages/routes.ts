import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/index.js';
import type { WebsiteService } from '../platform/websites.js';
import type { CartService } from '../commerce/cart-service.js';
import { CART_COOKIE } from '../commerce/routes.js';
import { cartPageHtml, commerceWidgets, pageMerchandising } from '../commerce/widgets.js';
import type { Theme } from './theme.js';
import type { ClientAssets } from './assets.js';
import { renderIsland } from '../../web/ssr.js';
import { PageType } from '../../core/enums.js';
import {
  allCollections,
  collectionJson,
  commentsFor,
  itemByUrl,
  itemJson,
  navigationJson,
  productsFor,
  publishedItems,
  websiteJson,
  type CollectionRow,
} from './context.js';

export interface PagesDeps {
  database: Database;
  websites: WebsiteService;
  carts: CartService;
  theme: Theme;
  assets: ClientAssets;
}

const PAGE_SIZE = 20;

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export async function pageRoutes(app: FastifyInstance, deps: PagesDeps) {
  const { database, websites, carts, theme, assets } = deps;
  const db = database.db;

  /** Builds the parts every page shares, renders the page template into the layout, and replies. */
  async function send(
    req: FastifyRequest,
    reply: FastifyReply,
    page: { template: string; pageType: number; status?: number; title?: string; ctx: Record<string, unknown>; collections?: CollectionRow[] },
  ) {
    const site = await websites.get();
    const collections = page.collections ?? (await allCollections(db, site.id));
    const byId = new Map(collections.map((c) => [c.id, c]));
    const path = req.url.split('?')[0] ?? '/';
    const context: Record<string, unknown> = {
      website: websiteJson(site, websites),
      websiteSettings: { storeSettings: websites.storeSettings(site) },
      navigation: navigationJson(site, byId, path),
      pageType: page.pageType,
      pageTitle: page.title ?? site.title,
      productMerchandisingContext: pageMerchandising(page.ctx, websites.storeSettings(site)),
      ...page.ctx,
    };
    const query = req.query as Record<string, unknown>;
    if (query.format === 'json' || query.format === 'json-pretty') {
      reply.status(page.status ?? 200).header('cache-control', 'no-store');
      return reply.type('application/json; charset=utf-8').send(query.format === 'json-pretty' ? JSON.stringify(context, null, 2) : JSON.stringify(context));
    }
    const cart = await carts.findByToken(req.cookies[CART_COOKIE]);
    const renderOpts = { locale: site.locale, timeZone: site.timeZone, renderer: commerceWidgets({ currency: site.currency, settings: websites.storeSettings(site) }) };
    const mainContent = theme.render(page.template, context, renderOpts);
    const client = assets.tags('site');
    const settings = site.settings as Record<string, unknown>;
    const injection = (settings.codeInjection ?? {}) as { header?: string; footer?: string };
    const tessera = {
      headers: `<link rel="stylesheet" href="/theme/site.css">${client.head}${injection.header ?? ''}`,
      footers: `${client.body}${injection.footer ?? ''}`,
      cartPill: renderIsland('CartPill', { totalQuantity: cart?.totalQuantity ?? 0 }),
      title: escapeHtml(page.title ? `${page.title} — ${site.title}` : site.title),
    };
    const html = theme.render('site.region', { ...context, mainContent, tessera }, renderOpts);
    reply.status(page.status ?? 200).header('cache-control', 'no-store');
    return reply.type('text/html; charset=utf-8').send(html);
  }

  async function notFound(req: FastifyRequest, reply: FastifyReply) {
    return send(req, reply, { template: 'system/404.html', pageType: PageType.NOT_FOUND, status: 404, title: 'Page not found', ctx: { path: req.url.split('?')[0] } });
  }

  async function home(req: FastifyRequest, reply: FastifyReply) {
    const site = await websites.get();
    const collections = await allCollections(db, site.id);
    const homeId = site.settings.homeCollectionId as string | undefined;
    const c = collections.find((x) => x.id === homeId) ?? collections.find((x) => x.enabled);
    if (!c) return notFound(req, reply);
    return collectionPage(req, reply, c, collections, true);
  }

  async function collectionPage(req: FastifyRequest, reply: FastifyReply, c: CollectionRow, collections: CollectionRow[], isHome = false) {
    const site = await websites.get();
    const query = req.query as Record<string, unknown>;
    const pageNo = Math.max(1, Math.min(10_000, Number.parseInt(String(query.page ?? '1'), 10) || 1));
    const rows = c.typeName === 'page' ? [] : await publishedItems(db, c, PAGE_SIZE + 1, (pageNo - 1) * PAGE_SIZE);
    const hasNext = rows.length > PAGE_SIZE;
    const shown = rows.slice(0, PAGE_SIZE);
    const products = await productsFor(db, shown);
    const items = shown.map((i) => itemJson(c, i, products.get(i.id), site.currency));
    const fullUrl = `/${c.urlId}`;
    return send(req, reply, {
      template: `collections/${c.typeName}.list`,
      pageType: c.typeName === 'page' ? PageType.PAGE : PageType.MAIN_CONTENT,
      title: isHome ? undefined : c.title,
      collections,
      ctx: {
        collection: collectionJson(c),
        items,
        empty: items.length === 0,
        pagination: {
          pageSize: PAGE_SIZE,
          currentPage: pageNo,
          nextPage: hasNext,
          nextPageUrl: hasNext ? `${fullUrl}?page=${pageNo + 1}` : null,
          prevPage: pageNo > 1,
          prevPageUrl: pageNo > 1 ? `${fullUrl}?page=${pageNo - 1}` : null,
        },
      },
    });
  }

  async function itemPage(req: FastifyRequest, reply: FastifyReply, c: CollectionRow, urlId: string, collections: CollectionRow[]) {
    const site = await websites.get();
    const row = await itemByUrl(db, c, urlId);
    if (!row) return notFound(req, reply);
    const products = await productsFor(db, [row]);
    const item = itemJson(c, row, products.get(row.id), site.currency);
    const comments = await commentsFor(db, [row.id]);
    item.publicCommentCount = comments.length;
    return send(req, reply, {
      template: `collections/${c.typeName}.item`,
      pageType: PageType.CONTENT_ITEM,
      title: row.title,
      collections,
      ctx: {
        collection: collectionJson(c),
        item,
        comments: comments.map((x) => ({ id: x.id, authorName: x.authorName, body: x.body, addedOn: x.createdAt.getTime() })),
      },
    });
  }

  app.get('/', home);

  app.get('/:collection', async (req, reply) => {
    const { collection } = req.params as { collection: string };
    const site = await websites.get();
    const collections = await allCollections(db, site.id);
    const c = collections.find((x) => x.urlId === collection && x.enabled);
    if (!c || !theme.has(`collections/${c.typeName}.list`)) return notFound(req, reply);
    return collectionPage(req, reply, c, collections);
  });

  const item = async (req: FastifyRequest, reply: FastifyReply) => {
    const { collection, item } = req.params as { collection: string; item: string };
    const site = await websites.get();
    const collections = await allCollections(db, site.id);
    const c = collections.find((x) => x.urlId === collection && x.enabled);
    const productPath = req.url.includes('/p/');
    if (!c || (c.typeName === 'products') !== productPath || !theme.has(`collections/${c.typeName}.item`)) return notFound(req, reply);
    return itemPage(req, reply, c, item, collections);
  };
  app.get('/:collection/p/:item', item);
  app.get('/:collection/:item', item);

  app.get('/cart', async (req, reply) => {
    const site = await websites.get();
    const cart = await carts.read(await carts.findByToken(req.cookies[CART_COOKIE]), site.currency);
    const cartPage = await cartPageHtml(carts, cart, { currency: site.currency, crumb: req.crumb, settings: websites.storeSettings(site) });
    return send(req, reply, { template: 'system/cart.html', pageType: PageType.SHOW_CART, title: 'Cart', ctx: { cart, cartPage } });
  });

  app.setNotFoundHandler(async (req, reply) => {
    if (req.url.startsWith('/api/')) return reply.status(404).send({ error: 'Not found', message: 'Not found' });
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply.status(404).send({ error: 'Not found', message: 'Not found' });
    return notFound(req, reply);
  });

  /** The error page (101) for unexpected failures on page routes; never a stack trace. */
  app.decorate('renderErrorPage', async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      return await send(req, reply, { template: 'system/error.html', pageType: PageType.ERROR, status: 500, title: 'Something went wrong', ctx: {} });
    } catch {
      return reply.status(500).type('text/html; charset=utf-8').send('<!doctype html><title>Something went wrong</title><h1>Something went wrong</h1><p>Please try again in a moment.</p>');
    }
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    renderErrorPage(req: FastifyRequest, reply: FastifyReply): Promise<unknown>;
  }
}
