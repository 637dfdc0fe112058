/**
 * The documented JSON-T context of developer templates, as an adapter over the context Tessera's pages
 * build: `website`, `websiteSettings`, `collection` (with `categories` and `tags` as strings), `items`,
 * `item` (with `mainImageId` for `main-image?`), `pagination` (with `prevItem`/`nextItem` on item pages),
 * `authenticatedAccount`, `shoppingCart`, `showCart`, `template`, `localizedStrings`, `categoryFilter`,
 * `tagFilter`, and the platform keys `squarespace-headers`, `squarespace-footers` and `squarespace.*`.
 * `platformData` reads what needs the database (queries, neighbouring items, block fields, cart) before the
 * page renders; the rest is computed here, synchronously, from the page's own context.
 */
import { cleanOwnerHtml } from '../content/index.js';
import {
  collectionJson,
  itemJson,
  itemUrl,
  productsFor,
  publishedItems,
  allCollections,
  type CollectionRow,
} from '../site-context/index.js';
import type { PlatformInput } from '../site-page/index.js';
import { cartIdent } from '../visitor/index.js';
import { noteVisitorStateRead } from '../visitor/index.js';
import type { DevTemplate } from './dev-template.js';
import { FALLBACK_MARK } from './dev-template.js';
import { escapeHtml } from '../../core/html.js';

type Obj = Record<string, unknown>;

/** The cart of a visitor without one. */
const EMPTY_CART: Readonly<Obj> = Object.freeze({ totalQuantity: 0, entries: Object.freeze([]) });

export interface PlatformParts {
  layout: string;
}

/** The most queries one page runs (the platform's limit); further query tags render nothing. */
export const QUERIES_PER_PAGE = 8;

/** The site setting holding block-field content: { [fieldId]: { [pageKey]: html } } (pageKey '*' for every page). */
export const BLOCK_FIELDS_SETTING = 'templateBlockFields';
/** The site setting holding the owner's tweak values per template folder: { [folder]: { [tweak]: value } }. */
export const TWEAKS_SETTING = 'templateTweaks';
/** The site setting naming the theme the site renders with: a developer template's folder name, or 'tessera'. */
export const THEME_SETTING = 'theme';

/** A page's key for block fields: its item, else its collection, else its page type. */
export function pageKeyOf(ctx: Obj): string {
  const item = ctx.item as Obj | undefined;
  const c = ctx.collection as Obj | undefined;
  if (item?.id) return `item-${String(item.id)}`;
  if (c?.id) return `collection-${String(c.id)}`;
  return `page-${String(ctx.pageType ?? 0)}`;
}

/** A block field with the platform's layout markup, so a template's CSS for `sqs-layout` applies. */
export function blockFieldHtml(id: string, columns: number, html: string): string {
  const inner = html.trim()
    ? `<div class="row sqs-row"><div class="col sqs-col-${columns} span-${columns}"><div class="sqs-block html-block sqs-block-html" data-block-type="2"><div class="sqs-block-content">${html}</div></div></div></div>`
    : '';
  return `<div class="sqs-layout sqs-grid-${columns} columns-${columns}${inner ? '' : ' empty'}" data-type="block-field" id="${escapeHtml(id)}">${inner}</div>`;
}

/** Tessera's navigation links in the platform's navigation context. */
function navItems(links: unknown): Obj[] {
  return (Array.isArray(links) ? (links as Obj[]) : []).map((l) => {
    const children = navItems(l.children);
    const title = String(l.title ?? '');
    const url = String(l.fullUrl ?? '#');
    const out: Obj = { title, active: !!l.active, folderActive: !!l.folder && children.some((c) => c.active), items: children };
    if (l.external) out.externalLink = { url, newWindow: false };
    else
      out.collection = {
        fullUrl: url,
        navigationTitle: title,
        title,
        folder: !!l.folder,
        collections: children.map((c) => c.collection).filter(Boolean),
        id: l.collectionId ?? null,
      };
    return out;
  });
}

function itemAdapter(i: Obj): Obj {
  const out: Obj = { ...i };
  if (i.assetUrl) out.mainImageId = String(i.id);
  return out;
}

function facetNames(v: unknown): string[] {
  return (Array.isArray(v) ? (v as Obj[]) : []).map((f) => String(f?.name ?? '')).filter(Boolean);
}

function nonceOf(ctx: Obj): string {
  const t = (ctx.tessera ?? {}) as Obj;
  if (typeof t.nonce === 'string') return t.nonce;
  const m = /nonce="([A-Za-z0-9+/=_-]+)"/.exec(`${String(t.headers ?? '')}${String(t.footers ?? '')}`);
  return m ? m[1]! : '';
}

export function adaptContext(theme: DevTemplate, ctx: Obj, layout: PlatformParts | null): Obj {
  const prepared = (ctx.tesseraPlatform ?? {}) as Obj;
  const website = (ctx.website ?? {}) as Obj;
  const collection = ctx.collection ? ({ ...(ctx.collection as Obj) } as Obj) : undefined;
  if (collection) {
    collection.categories = facetNames(ctx.categories);
    collection.tags = facetNames(ctx.tags);
  }
  const filter = (ctx.filter ?? {}) as Obj;
  const navigation = (ctx.navigation ?? {}) as Record<string, unknown>;
  const navigations: Record<string, Obj> = {};
  const names = new Set([...theme.conf.navigations.map((n) => n.name), ...theme.tables.navigations]);
  let first = true;
  for (const name of names) {
    // A navigation the site has no links for shows the main navigation when it is the template's first one.
    const links = navigation[name] ?? (first ? navigation.mainNav : undefined);
    navigations[name] = { items: navItems(links) };
    first = false;
  }
  // The folder the current page sits in, from any navigation: its pages, with active states.
  let folderNavigation: Obj | null = null;
  for (const links of Object.values(navigation)) {
    for (const l of navItems(links)) {
      const folder = l.collection as Obj | undefined;
      if (folder?.folder && (l.items as Obj[]).some((c) => c.active)) folderNavigation = { items: l.items, folder };
    }
  }
  const values = (prepared.tweaks ?? {}) as Record<string, string>;
  const pageKey = pageKeyOf(ctx);
  const stored = (prepared.blockFields ?? {}) as Record<string, Record<string, string>>;
  const blockFields: Record<string, string> = {};
  for (const [key, f] of theme.tables.blockFields)
    blockFields[key] = blockFieldHtml(f.id, f.columns, stored[f.id]?.[pageKey] ?? stored[f.id]?.['*'] ?? '');
  const localeStrings =
    theme.localizedStrings[String(website.language ?? '')] ??
    theme.localizedStrings['en-US'] ??
    Object.values(theme.localizedStrings)[0] ??
    {};
  const item = ctx.item ? itemAdapter(ctx.item as Obj) : undefined;
  const pagination = { ...((ctx.pagination ?? {}) as Obj), ...((prepared.pagination ?? {}) as Obj) };
  // The visitor's own cart and account, read lazily: reading them marks the render as the visitor's own
  // (plugins/visitor-state.ts), so the page cache shares only the renders of templates that never print them.
  const cartOf = typeof prepared.visitorCart === 'function' ? (prepared.visitorCart as () => Obj) : () => EMPTY_CART;
  const accountOf = typeof prepared.visitorAccount === 'function' ? (prepared.visitorAccount as () => Obj | null) : () => null;
  const out: Obj = {
    ...ctx,
    collection,
    items: Array.isArray(ctx.items) ? (ctx.items as Obj[]).map(itemAdapter) : ctx.items,
    item,
    pagination,
    showCart: !!prepared.showCart,
    template: {
      name: theme.conf.name,
      author: theme.conf.author,
      layout: layout?.layout ?? theme.layoutOf(ctx),
      mobileStylesEnabled: false,
    },
    localizedStrings: localeStrings,
    categoryFilter: filter.category ?? null,
    tagFilter: filter.tag ?? null,
    tesseraPlatform: {
      navigations,
      folderNavigation,
      blockFields,
      queries: prepared.queries ?? {},
      category: collection
        ? { categories: ((ctx.categories ?? []) as Obj[]).map((c) => ({ name: c.name, url: c.url, count: c.count })), collection }
        : null,
      nonce: nonceOf(ctx),
    },
  };
  Object.defineProperty(out, 'shoppingCart', { enumerable: true, configurable: true, get: cartOf });
  Object.defineProperty(out, 'authenticatedAccount', { enumerable: true, configurable: true, get: accountOf });
  if (layout) {
    const t = (ctx.tessera ?? {}) as Obj;
    const main = String(ctx.mainContent ?? '');
    const fellBack = main.startsWith(FALLBACK_MARK);
    // Tessera's stylesheet is for Tessera's own templates: linked only when the main content is one of them.
    let headers = String(t.headers ?? '');
    if (!fellBack) headers = headers.replace('<link rel="stylesheet" href="/theme/site.css">', '');
    const version = theme.cssVersion(values);
    const nonce = nonceOf(ctx);
    const pageType = Number(ctx.pageType ?? 0);
    const classes = [
      collection ? `collection-type-${String(collection.typeName ?? '')}` : `page-type-${pageType}`,
      collection ? `collection-${String(collection.id)}` : '',
      item ? 'view-item' : 'view-list',
      `collection-layout-${layout.layout}`,
      ctx.pageTitle === website.siteTitle && collection ? 'homepage' : '',
      fellBack ? 'tessera-fallback-page' : '',
      ...theme.bodyClasses(values),
    ].filter(Boolean);
    out['squarespace-headers'] = `<title>${String(t.title ?? '')}</title>\n${headers}<link rel="stylesheet" href="/site.css?v=${version}">`;
    out['squarespace-footers'] =
      `${String(t.cartPill ?? '')}${String(t.footers ?? '')}<script src="/tessera/image-loader.js" nonce="${escapeHtml(nonce)}" defer></script>`;
    out.squarespace = {
      'main-content': main,
      'page-id': item ? `item-${String(item.id)}` : collection ? `collection-${String(collection.id)}` : `page-${pageType}`,
      'page-classes': classes.join(' '),
      get 'cart-classes'() {
        return Number(cartOf().totalQuantity ?? 0) > 0 ? 'cart-has-items' : 'cart-empty';
      },
    };
  }
  return out;
}

/** The data a developer template reads before the page renders: queries, neighbours, block fields, cart, account. */
export async function platformData(theme: DevTemplate, input: PlatformInput): Promise<Obj> {
  const { app, req, site, context } = input;
  const db = app.database.db;
  const settings = site.settings as Obj;
  const tweaks = ((settings[TWEAKS_SETTING] as Obj | undefined)?.[theme.folderName] ?? {}) as Record<string, string>;
  const out: Obj = { tweaks, blockFields: settings[BLOCK_FIELDS_SETTING] ?? {} };
  const collections = await app.siteCache.get('template-collections', site.id, () => allCollections(db, site.id));
  out.showCart = collections.some((c) => c.typeName === 'products' && c.enabled);
  const [owner, cart] = await Promise.all([
    app.loadOwner(req).catch(() => null),
    app.services.carts.find(cartIdent(req)).catch(() => null),
  ]);
  // Functions, which the template engine never reads: adaptContext hands them out lazily and notes the read.
  const account = owner
    ? { id: owner.id, displayName: String((owner as unknown as Obj).name ?? (owner as unknown as Obj).email ?? '') }
    : null;
  const shoppingCart = cart ? { totalQuantity: cart.totalQuantity, entries: [] } : EMPTY_CART;
  out.visitorCart = () => {
    noteVisitorStateRead(req);
    return shoppingCart;
  };
  out.visitorAccount = () => {
    noteVisitorStateRead(req);
    return account;
  };
  // Queries of the files this page can render: its own template, the regions and the blocks.
  const own = theme.fileFor(input.template) ?? '';
  const wanted = [...theme.tables.queries.values()].filter((q) => {
    const file = q.key.slice(1).replace(/\d+$/, '');
    return file === own.replace(/[^A-Za-z0-9]/g, '') || file.startsWith('blocks') || /region$/.test(file);
  });
  const queries: Obj = {};
  const byUrl = new Map(collections.filter((c) => c.enabled).map((c) => [c.urlId, c]));
  for (const q of wanted.slice(0, QUERIES_PER_PAGE)) {
    const c = byUrl.get(q.collection);
    if (!c) {
      queries[q.key] = { items: [], collection: null };
      continue;
    }
    let rows = await publishedItems(db, c, q.limit + q.skip + (q.featured || q.category.length > 1 || q.tag.length > 1 ? 200 : 0), 0, {
      tag: q.tag.length === 1 ? q.tag[0] : undefined,
      category: q.category.length === 1 ? q.category[0] : undefined,
      now: Date.now(),
    });
    if (q.tag.length > 1) rows = rows.filter((r) => r.tags.some((t) => q.tag.includes(t)));
    if (q.category.length > 1) rows = rows.filter((r) => r.categories.some((t) => q.category.includes(t)));
    if (q.featured) rows = rows.filter((r) => r.structuredContent.featured === true || r.structuredContent.starred === true);
    rows = rows.slice(q.skip, q.skip + q.limit);
    const products = await productsFor(db, rows);
    queries[q.key] = {
      collection: collectionJson(c),
      items: rows.map((r) => itemAdapter(itemJson(c, r, products.get(r.id), { currency: site.currency, commentsEnabled: true }))),
    };
  }
  out.queries = queries;
  // Item pages: the items before and after this one in the collection's order.
  const item = context.item as Obj | undefined;
  const col = context.collection as Obj | undefined;
  if (item?.id && col?.id) {
    const c = collections.find((x) => x.id === col.id) as CollectionRow | undefined;
    if (c) {
      const ordered = await publishedItems(db, c, 500, 0, {});
      const at = ordered.findIndex((r) => r.id === String(item.id));
      const link = (r: (typeof ordered)[number] | undefined) => (r ? { id: r.id, title: r.title, fullUrl: itemUrl(c, r) } : null);
      if (at >= 0) out.pagination = { prevItem: link(ordered[at - 1]), nextItem: link(ordered[at + 1]) };
    }
  }
  return { tesseraPlatform: out };
}

/** Cleans an owner's block-field HTML with the site's one allow-list. */
export function cleanBlockField(html: string): string {
  return cleanOwnerHtml(html);
}
