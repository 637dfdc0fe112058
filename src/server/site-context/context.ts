import { isEnabled } from '../flags/index.js';
import { Feature } from '../../core/features.js';
import { withReferencedForm } from '../commerce/index.js';
import { productPriceView, shownPrice } from '../../core/product-price.js';
import { and, asc, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { variantsOfItems } from '../db-util.js';
import type { NavLink, WebsiteRow, WebsiteService } from '../platform/index.js';
import { variantJson, type ProductRecord, type VariantRow } from '../commerce/index.js';
import { imageAttributes, onImageHost, parseOriginalSize, type ImagePriority } from '../../core/image.js';
import { collectionUrl, excerptText, itemUrl, showComments } from '../../core/content.js';
import { ConnectedLinkService, connectedLinkView } from '../../core/connected-accounts.js';
import { isDarkColour, parseHex } from '../../core/colour.js';
import { timeSince } from '../../core/time.js';
import { cleanOwnerHtml, ownerPlainText } from '../content/index.js';
import { commerce as commerceMessages } from '../../core/messages.js';
import { CollectionType, FolderBehavior, RecordType } from '../../core/enums.js';
import {
  DEFAULT_SLIDER_ASPECT_RATIO,
  GALLERY_ASPECT_RATIOS,
  GALLERY_DEFAULTS,
  GALLERY_RANGES,
  SLIDER_ASPECT_RATIO_RANGE,
} from '../../core/constants.js';
import { escapeHtml } from '../../core/html.js';

export type CollectionRow = typeof schema.collections.$inferSelect;
export type ItemRow = typeof schema.items.$inferSelect;
type Obj = Record<string, unknown>;

/** The collection types of the enumeration that Tessera's themes render. */
export const PRODUCTS_TYPE = CollectionType.PRODUCTS;
export const STORE_ITEM_RECORD = RecordType.STORE_ITEM;

/** Record type names as themes test them (post-type-{name}). */
const RECORD_TYPE_LABELS: Record<number, string> = {
  [RecordType.TEXT]: 'text',
  [RecordType.IMAGE]: 'image',
  [RecordType.AUDIO]: 'audio',
  [RecordType.VIDEO]: 'video',
  [RecordType.STORE_ITEM]: 'store-item',
  [RecordType.EVENT]: 'event',
  [RecordType.GALLERY]: 'gallery',
};

/** The site's addresses are core's rule (core/content.ts), shared with content and restock. */
export { collectionUrl, itemUrl };

function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, ' ');
}

/**
 * The site's image hosts (config `imageHosts`: PUBLIC_URL's origin and MEDIA_CDN_URLS), set once when the
 * app is built. Paths on the site's own origin are always on an image host.
 */
let siteImageHosts: readonly string[] = [];
export function setImageHosts(hosts: readonly string[]): void {
  siteImageHosts = Object.freeze([...hosts]);
  imageCache.clear();
}

/**
 * The image template, through the core rule: an asset becomes the attributes of an
 * <img> (sqs loader: the seven platform widths as a srcset, served by the image variant route). Only
 * images on the site's image hosts get that srcset; an image elsewhere is drawn as it is (raw loader).
 * `tag` is the finished element; the other fields let a theme write its own.
 */
export function imageJson(asset: Obj | undefined, alt: string, opts: { sizes: string; priority?: ImagePriority; className?: string }) {
  if (!asset || typeof asset.assetUrl !== 'string' || asset.assetUrl === '') return null;
  // A pure function of its inputs, called for every card of every list: recent results are kept.
  const key = JSON.stringify([
    asset.assetUrl,
    asset.originalSize ?? null,
    asset.mediaFocalPoint ?? null,
    alt,
    opts.sizes,
    opts.priority ?? null,
    opts.className ?? null,
  ]);
  const hit = imageCache.get(key);
  if (hit) return { ...hit, focalPoint: { ...hit.focalPoint } };
  const made = makeImageJson(asset as Obj & { assetUrl: string }, alt, opts);
  if (imageCache.size >= IMAGE_CACHE_ENTRIES) imageCache.delete(imageCache.keys().next().value!);
  imageCache.set(key, made);
  return { ...made, focalPoint: { ...made.focalPoint } };
}

const IMAGE_CACHE_ENTRIES = 5000;
const imageCache = new Map<string, ReturnType<typeof makeImageJson>>();

function makeImageJson(
  asset: Obj & { assetUrl: string },
  alt: string,
  opts: { sizes: string; priority?: ImagePriority; className?: string },
) {
  let size = { width: 1200, height: 1200 };
  try {
    size = parseOriginalSize(asset.originalSize);
  } catch {
    /* keep a square default for assets without an originalSize */
  }
  const fp = (asset.mediaFocalPoint ?? null) as { x: number; y: number } | null;
  const attrs = imageAttributes({
    src: asset.assetUrl,
    width: size.width,
    height: size.height,
    alt,
    ...(onImageHost(asset.assetUrl, siteImageHosts) ? { loader: 'sqs' as const, sizes: opts.sizes } : { loader: 'raw' as const }),
    priority: opts.priority ?? null,
    focalPoint: fp,
    class: opts.className,
  });
  const [fx, fy] = attrs['data-image-focal-point'].split(',').map(Number);
  const tag = `<img ${Object.entries(attrs)
    .map(([k, v]) => `${k}="${escapeHtml(v)}"`)
    .join(' ')} style="object-position:${fx * 100}% ${fy * 100}%">`;
  return { ...attrs, width: size.width, height: size.height, focalPoint: { x: fx, y: fy }, tag };
}

export function websiteJson(site: WebsiteRow, websites: WebsiteService) {
  const settings = site.settings;
  const accent = typeof settings.accentColor === 'string' && parseHex(settings.accentColor) ? settings.accentColor : '#2f5d50';
  return {
    id: site.id,
    identifier: site.id,
    siteTitle: site.title,
    siteDescription: String(settings.siteDescription ?? ''),
    /** The site settings of /config (issue 23), under the documented platform's names. */
    siteTagLine: typeof settings.siteTagLine === 'string' ? settings.siteTagLine : '',
    logoImageUrl: typeof settings.logoImageUrl === 'string' ? settings.logoImageUrl : '',
    faviconUrl: typeof settings.faviconUrl === 'string' ? settings.faviconUrl : '',
    location: (settings.location as Obj) ?? {},
    baseUrl: '',
    language: site.locale,
    timeZone: site.timeZone,
    // The owner's site setting, and the Comments feature switch (server/flags): either off means no comments.
    commentsEnabled: settings.commentsEnabled !== false && isEnabled(site, Feature.COMMENTS),
    storeSettings: websites.storeSettings(site),
    socialAccounts: (settings.socialAccounts as unknown[]) ?? [],
    shareButtonOptions: (settings.shareButtonOptions as Obj) ?? {},
    accentColor: accent,
    /** The dark-colour test: text on the accent colour is white when the accent is dark. */
    accentIsDark: isDarkColour(accent),
    accentHsl: settings.accentHsl ?? null,
    /** The connected online food ordering account's link ({url, title}; title 'Order Now' by default), or null. */
    orderingLink: connectedLinkView(settings.connectedAccounts, ConnectedLinkService.ONLINE_ORDERING),
  };
}

/** The `websiteSettings` of a page's context: store settings, comments, and the contact details of /config's site settings. */
export function websiteSettingsJson(site: WebsiteRow, websites: WebsiteService) {
  const s = site.settings;
  return {
    storeSettings: websites.storeSettings(site),
    commentsEnabled: s.commentsEnabled !== false && isEnabled(site, Feature.COMMENTS),
    contactEmail: typeof s.contactEmail === 'string' ? s.contactEmail : '',
    contactPhoneNumber: typeof s.contactPhoneNumber === 'string' ? s.contactPhoneNumber : '',
    businessHours: (s.businessHours as Obj) ?? {},
  };
}

/** Gallery options with their defaults, clamped to their ranges. */
export function galleryOptions(settings: Obj) {
  const d = GALLERY_DEFAULTS;
  const bool = (k: string, def: boolean) => (typeof settings[k] === 'boolean' ? (settings[k] as boolean) : def);
  const num = (k: string, def: number, range: readonly [number, number]) => {
    const n = Number(settings[k]);
    return Number.isFinite(n) ? Math.min(range[1], Math.max(range[0], Math.round(n))) : def;
  };
  const oneOf = <T extends string>(k: string, values: readonly T[], def: T): T =>
    values.includes(settings[k] as T) ? (settings[k] as T) : def;
  const aspectRatio = oneOf('aspect-ratio', Object.keys(GALLERY_ASPECT_RATIOS), d.aspectRatio);
  const opts = {
    design: oneOf('design', ['grid', 'slideshow', 'slider', 'stacked'] as const, d.design),
    autoplay: bool('autoplay', d.autoplay),
    autoplayDuration: num('autoplay-duration', d.autoplayDuration, GALLERY_RANGES.autoplayDuration),
    controls: bool('controls', d.controls),
    autoCrop: bool('auto-crop', d.autoCrop),
    aspectRatio,
    aspectRatioValue: GALLERY_ASPECT_RATIOS[aspectRatio],
    /** Slideshow and slider height as a percentage of their width (default 50). */
    sliderAspectRatio: num('slider-aspect-ratio', DEFAULT_SLIDER_ASPECT_RATIO, SLIDER_ASPECT_RATIO_RANGE),
    squareThumbs: bool('square-thumbs', d.squareThumbs),
    thumbnails: bool('thumbnails', d.thumbnails),
    thumbnailStripHeight: num('thumbnail-strip-height', d.thumbnailStripHeight, GALLERY_RANGES.thumbnailStripHeight),
    thumbnailStripMargin: num('thumbnail-strip-margin', d.thumbnailStripMargin, GALLERY_RANGES.thumbnailStripMargin),
    showMetaBasic: bool('show-meta-basic', d.showMetaBasic),
    showMeta: bool('show-meta', d.showMeta),
    showMetaOnlyTitle: bool('show-meta-only-title', d.showMetaOnlyTitle),
    metaPosition: oneOf(
      'meta-position',
      ['top', 'top-left', 'top-right', 'center', 'bottom', 'bottom-left', 'bottom-right'] as const,
      d.metaPosition,
    ),
    showMetaOnHover: bool('show-meta-on-hover', d.showMetaOnHover),
    activeAlignment: oneOf('active-alignment', ['left', 'center', 'right'] as const, d.activeAlignment),
    thumbnailsPerRow: num('thumbnails-per-row', d.thumbnailsPerRow, GALLERY_RANGES.thumbnailsPerRow),
    padding: num('padding', d.padding, GALLERY_RANGES.padding),
    lightbox: bool('lightbox', d.lightbox),
    lightboxTheme: oneOf('lightboxTheme', ['dark', 'light'] as const, d.lightboxTheme),
    maxWidth: num('max-width', d.maxWidth, GALLERY_RANGES.maxWidth),
    newWindow: bool('newWindow', d.newWindow),
    transparentBackground: bool('transparentBackground', d.transparentBackground),
  };
  return opts;
}
export type GalleryOptions = ReturnType<typeof galleryOptions>;

export function collectionJson(c: CollectionRow) {
  const settings = c.settings ?? {};
  const json: Obj = {
    id: c.id,
    title: c.title,
    navigationTitle: c.navigationTitle || c.title,
    urlId: c.urlId,
    fullUrl: collectionUrl(c),
    type: c.type,
    typeName: c.typeName,
    description: c.description,
    ...settings,
  };
  // A page's body is owner HTML: cleaned like every other (server/content/owner-html.ts).
  if (typeof settings.body === 'string') json.body = cleanOwnerHtml(settings.body);
  if (c.typeName === 'gallery') json.gallery = galleryOptions(settings);
  if (c.typeName === 'folder') json.folderBehavior = Number(settings.folderBehavior ?? FolderBehavior.INDEX);
  return json;
}

export interface ItemOptions {
  currency: string;
  commentsEnabled: boolean;
  /** Whether the first image is the page's largest paint (high fetch priority). */
  priority?: ImagePriority;
  sizes?: string;
  publicCommentCount?: number;
  now?: number;
}

/**
 * Item JSON made once per item row, collection row, variants and options: rows are read per content version
 * (plugins/site-cache.ts) and never changed in place, so the same row gives the same JSON until the version
 * moves and new rows are read. Each call gets its own shallow copy (callers add keys: reviews, related
 * products, comments) with the clock-dependent `timeSince` worked out again; nested values are shared and
 * read-only. Keeping the item's nested objects stable also lets the commerce widgets keep their HTML per item.
 */
const itemJsonMade = new WeakMap<ItemRow, { c: CollectionRow; variants: VariantRow[] | undefined; byOpts: Map<string, Obj> }>();

export function itemJson(c: CollectionRow, i: ItemRow, product: ProductRecord | undefined, opts: ItemOptions | string) {
  const o: ItemOptions = typeof opts === 'string' ? { currency: opts, commentsEnabled: true } : opts;
  let made = itemJsonMade.get(i);
  if (!made || made.c !== c || made.variants !== product?.variants) {
    made = { c, variants: product?.variants, byOpts: new Map() };
    itemJsonMade.set(i, made);
  }
  const key = `${o.currency}|${o.commentsEnabled ? 1 : 0}|${o.priority ?? ''}|${o.sizes ?? ''}|${o.publicCommentCount ?? 0}`;
  let base = made.byOpts.get(key);
  if (!base) {
    base = makeItemJson(c, i, product, o);
    if (made.byOpts.size < 16) made.byOpts.set(key, base);
  }
  return { ...base, timeSince: timeSince(i.publishOn, o.now ?? Date.now()) } as Obj;
}

function makeItemJson(c: CollectionRow, i: ItemRow, product: ProductRecord | undefined, o: ItemOptions): Obj {
  const main = i.assets[0] as Obj | undefined;
  // Owner HTML reaches themes cleaned (server/content/owner-html.ts); an excerpt is text (themes escape it).
  const excerpt = i.excerpt ? ownerPlainText(i.excerpt) : excerptText(stripTags(i.body));
  const alt = excerptText(String(main?.altText || i.title || excerpt));
  const publicCommentCount = o.publicCommentCount ?? 0;
  const json: Obj = {
    id: i.id,
    collectionId: i.collectionId,
    recordType: i.recordType,
    recordTypeLabel: RECORD_TYPE_LABELS[i.recordType] ?? 'text',
    title: i.title,
    urlId: i.urlId,
    fullUrl: itemUrl(c, i),
    body: cleanOwnerHtml(i.body),
    excerpt,
    author: { displayName: i.author },
    tags: i.tags,
    categories: i.categories,
    publishOn: i.publishOn.getTime(),
    timeSince: timeSince(i.publishOn, o.now ?? Date.now()),
    addedOn: i.createdAt.getTime(),
    updatedOn: i.updatedAt.getTime(),
    assetUrl: main?.assetUrl ?? '',
    originalSize: main?.originalSize ?? '',
    mediaFocalPoint: main?.mediaFocalPoint ?? { x: 0.5, y: 0.5 },
    altText: alt,
    items: i.assets,
    image: imageJson(main, alt, { sizes: o.sizes ?? '(max-width: 432px) 100vw, 33vw', priority: o.priority ?? null }),
    commentState: i.commentState,
    publicCommentCount,
    showComments: showComments({ commentState: i.commentState, publicCommentCount }, o.commentsEnabled),
    commentLinkText: commerceMessages.commentLink(publicCommentCount),
    ...(i.recordType === STORE_ITEM_RECORD ? {} : { structuredContent: i.structuredContent }),
  };
  if (i.recordType === RecordType.EVENT) {
    const sc = i.structuredContent;
    json.startDate = Number(sc.startDate ?? i.publishOn.getTime());
    json.endDate = Number(sc.endDate ?? json.startDate);
    json.location = sc.location ?? null;
    json.icsUrl = `${json.fullUrl}?format=ics`;
  }
  if (i.recordType === STORE_ITEM_RECORD) {
    const variants = (product?.variants ?? []).map((v) => variantJson(v, o.currency));
    const first = variants[0];
    json.structuredContent = {
      ...i.structuredContent,
      productType: Number(i.structuredContent.productType ?? 1),
      variants,
      priceMoney: first?.priceMoney ?? { currency: o.currency, value: '0' },
      salePriceMoney: first?.salePriceMoney ?? { currency: o.currency, value: '0' },
      onSale: variants.some((v) => v.onSale),
    };
    // What the price shows, from core's one rule (the same the product-price formatter, the price island
    // and the instalment pill use): the sale price beside the original, or 'from' the lowest price paid.
    const view = productPriceView({ structuredContent: json.structuredContent });
    (json.structuredContent as Record<string, unknown>).priceView = {
      kind: view.kind,
      sale: view.kind === 'sale',
      from: view.kind === 'from',
      price: shownPrice(view),
      original: view.kind === 'sale' ? view.normal : null,
    };
  }
  return json;
}

/** External links keep only http(s), mailto and site-relative addresses; anything else becomes '#'. */
export function safeLink(u: unknown): string {
  const s = String(u ?? '').trim();
  return /^(https?:\/\/|mailto:|\/(?!\/))/i.test(s) ? s : '#';
}

/** Main navigation with active flags, from the website's navigation settings (including _hidden and _memberareas). */
export function navigationJson(site: WebsiteRow, byId: Map<string, CollectionRow>, path: string) {
  const nav = (site.settings.navigation ?? {}) as Record<string, NavLink[]>;
  const toLink = (l: NavLink & { memberAreaId?: string }): Obj => {
    const c = l.collectionId ? byId.get(l.collectionId) : undefined;
    const url = c ? collectionUrl(c) : safeLink(l.externalLink);
    const children = (l.children ?? []).map(toLink);
    const childActive = children.some((x) => x.active);
    return {
      title: l.title || c?.navigationTitle || c?.title || '',
      fullUrl: url,
      external: !c,
      folder: c?.typeName === 'folder',
      active: (!!c && (path === url || path.startsWith(url + '/'))) || childActive,
      collectionId: l.collectionId ?? null,
      memberAreaId: l.memberAreaId ?? null,
      children,
    };
  };
  const out: Record<string, unknown[]> = {};
  for (const [name, links] of Object.entries(nav)) out[name] = (links ?? []).map(toLink);
  out.mainNav ??= [];
  out._hidden ??= [];
  out._memberareas ??= [];
  // Template variable names cannot start with '_', so themes reach these two through plain names.
  out.memberAreas = out._memberareas;
  out.hiddenNav = out._hidden;
  return out;
}

/** Collection ids that sit in the member-area navigation. */
export function memberAreaCollections(site: WebsiteRow): Set<string> {
  const nav = (site.settings.navigation ?? {}) as Record<string, NavLink[]>;
  const out = new Set<string>();
  const walk = (links: NavLink[] = []) => {
    for (const l of links) {
      if (l.collectionId) out.add(l.collectionId);
      walk(l.children);
    }
  };
  walk(nav._memberareas);
  return out;
}

/** The children of a folder collection, from the navigation entry that points at it. */
export function folderChildren(site: WebsiteRow, folder: CollectionRow, byId: Map<string, CollectionRow>): Obj[] {
  const nav = (site.settings.navigation ?? {}) as Record<string, NavLink[]>;
  let entry: NavLink | undefined;
  const find = (links: NavLink[] = []) => {
    for (const l of links) {
      if (l.collectionId === folder.id) entry = l;
      else find(l.children);
    }
  };
  for (const links of Object.values(nav)) find(links);
  return (entry?.children ?? []).map((l) => {
    const c = l.collectionId ? byId.get(l.collectionId) : undefined;
    return {
      title: l.title || c?.title || '',
      fullUrl: c ? collectionUrl(c) : safeLink(l.externalLink),
      external: !c,
      description: c?.description ?? '',
    };
  });
}

export async function allCollections(db: Db, websiteId: string): Promise<CollectionRow[]> {
  return db.select().from(schema.collections).where(eq(schema.collections.websiteId, websiteId)).orderBy(asc(schema.collections.ordering));
}

export interface ItemFilter {
  tag?: string;
  category?: string;
  /** Events: 'upcoming' (default) or 'past'. */
  view?: string;
  now?: number;
  /** Item statuses to list (default: published only). The owner's preview widens it (server/flags). */
  statuses?: readonly string[];
}

function filterSql(c: CollectionRow, f: ItemFilter): SQL[] {
  const out: SQL[] = [];
  if (f.tag) out.push(sql`${schema.items.tags} @> ${JSON.stringify([f.tag])}::jsonb`);
  if (f.category) out.push(sql`${schema.items.categories} @> ${JSON.stringify([f.category])}::jsonb`);
  if (c.typeName === 'events' && f.now !== undefined) {
    const end = sql`coalesce((${schema.items.structuredContent}->>'endDate')::bigint, 0)`;
    out.push(f.view === 'past' ? sql`${end} < ${f.now}` : sql`${end} >= ${f.now}`);
  }
  return out;
}

export async function publishedItems(db: Db, c: CollectionRow, limit: number, offset: number, filter: ItemFilter = {}): Promise<ItemRow[]> {
  const startDate = sql`coalesce((${schema.items.structuredContent}->>'startDate')::bigint, 0)`;
  const order =
    c.typeName === 'blog'
      ? [desc(schema.items.publishOn)]
      : c.typeName === 'events'
        ? [filter.view === 'past' ? desc(startDate) : asc(startDate)]
        : [asc(schema.items.ordering), asc(schema.items.createdAt)];
  const status = filter.statuses?.length ? inArray(schema.items.status, [...filter.statuses]) : eq(schema.items.status, 'published');
  const where = and(eq(schema.items.collectionId, c.id), status, ...filterSql(c, filter));
  if (c.type !== PRODUCTS_TYPE)
    return db
      .select()
      .from(schema.items)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset);
  // A products list reads each item's variants in the same query (productsFor then needs none). The page's
  // rows are picked first, so the form and variants subqueries run for those rows only, not for every row
  // the sort and the offset pass (a deep page of a large catalogue ran them for thousands).
  const page = db
    .select({ id: schema.items.id })
    .from(schema.items)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  const found = await db
    .select({ ...getTableColumns(schema.items), structuredContent: structuredContentColumn(), variants: variantsColumn() })
    .from(schema.items)
    .where(inArray(schema.items.id, page))
    .orderBy(...order);
  return found.map(({ variants, ...row }) => {
    if (row.recordType === STORE_ITEM_RECORD) attachedVariants.set(row, variantList(variants));
    else listedRows.add(row);
    return row;
  });
}

/** Variants read together with their item rows (publishedItems of a products collection), for productsFor. */
const attachedVariants = new WeakMap<ItemRow, VariantRow[]>();

/**
 * A row a products list read (publishedItems of a products collection, published items only) as
 * itemsWithProduct gives it: the list's statement reads the same columns (the form by reference and the
 * variants), so for the same content version the two are the same item. Null for a row read otherwise.
 */
export function listedItemWithProduct(row: ItemRow): { row: ItemRow; product: ProductRecord | undefined } | null {
  if (row.recordType !== STORE_ITEM_RECORD) return listedRows.has(row) ? { row, product: undefined } : null;
  const variants = attachedVariants.get(row);
  return variants ? { row, product: { item: row, variants } } : null;
}
/** Rows of a products list that are not store items (they have no variants to attach). */
const listedRows = new WeakSet<ItemRow>();

/** structured_content with a store item's additional-fields form read by reference (commerce/form-ref.ts). */
function structuredContentColumn() {
  return sql<Record<string, unknown>>`${sql.raw(withReferencedForm('"items"."structured_content"', '"items"."website_id"'))}`.mapWith(
    (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as Record<string, unknown>) : (v as Record<string, unknown>)),
  );
}

/** An item's variants as one JSON column, in their order (a correlated subquery on the item_id index). */
function variantsColumn() {
  return sql<VariantRow[] | string | null>`(select json_agg(json_build_object(
      'id', v.id, 'itemId', v.item_id, 'sku', v.sku, 'attributes', v.attributes, 'priceCents', v.price_cents,
      'salePriceCents', v.sale_price_cents, 'onSale', v.on_sale, 'qtyInStock', v.qty_in_stock, 'unlimited', v.unlimited,
      'weightGrams', v.weight_grams, 'ordering', v.ordering, 'imageUrl', v.image_url, 'lowStockThreshold', v.low_stock_threshold) order by v.ordering)
    from product_variants v where v.item_id = "items"."id" and "items"."record_type" = ${STORE_ITEM_RECORD})`;
}

function variantList(v: VariantRow[] | string | null): VariantRow[] {
  const list = (typeof v === 'string' ? (JSON.parse(v) as VariantRow[]) : v) ?? [];
  for (const x of list) {
    x.priceCents = Number(x.priceCents);
    x.salePriceCents = Number(x.salePriceCents);
  }
  return list;
}

export async function itemByUrl(db: Db, c: CollectionRow, urlId: string): Promise<ItemRow | null> {
  const rows = await db
    .select()
    .from(schema.items)
    .where(and(eq(schema.items.collectionId, c.id), eq(schema.items.urlId, urlId), eq(schema.items.status, 'published')))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * The statement of itemsWithProduct, built once per database (drizzle builds a select's SQL on every call,
 * which for this one, with its form and variants subqueries, cost more CPU than the read itself).
 */
const itemsWithProductStatements = new WeakMap<Db, ReturnType<typeof prepareItemsWithProduct>>();

function prepareItemsWithProduct(db: Db) {
  return db
    .select({ ...getTableColumns(schema.items), structuredContent: structuredContentColumn(), variants: variantsColumn() })
    .from(schema.items)
    .where(
      and(
        eq(schema.items.collectionId, sql.placeholder('collectionId')),
        sql`${schema.items.urlId} = any(${sql.placeholder('urlIds')}::text[])`,
        eq(schema.items.status, 'published'),
      ),
    )
    .prepare('pages_items_with_product');
}

/** Published items of one collection by url id with their variants, in a single query (the product page's only read, batched). */
export async function itemsWithProduct(
  db: Db,
  collectionId: string,
  urlIds: string[],
): Promise<Map<string, { row: ItemRow; product: ProductRecord | undefined }>> {
  let statement = itemsWithProductStatements.get(db);
  if (!statement) itemsWithProductStatements.set(db, (statement = prepareItemsWithProduct(db)));
  const out = new Map<string, { row: ItemRow; product: ProductRecord | undefined }>();
  for (const r of await statement.execute({ collectionId, urlIds })) {
    const { variants: v, ...row } = r;
    out.set(row.urlId, { row, product: row.recordType === STORE_ITEM_RECORD ? { item: row, variants: variantList(v) } : undefined });
  }
  return out;
}

/** Variants of the store items among rows, in one query (the rows themselves are already loaded). */
export async function productsFor(db: Db, rows: ItemRow[]): Promise<Map<string, ProductRecord>> {
  const out = new Map<string, ProductRecord>();
  const store = rows.filter((r) => r.recordType === STORE_ITEM_RECORD);
  if (store.length === 0) return out;
  if (store.every((r) => attachedVariants.has(r))) {
    for (const item of store) out.set(item.id, { item, variants: attachedVariants.get(item)! });
    return out;
  }
  for (const item of store) out.set(item.id, { item, variants: [] });
  const variants = await variantsOfItems(
    db,
    store.map((r) => r.id),
  );
  for (const v of variants) out.get(v.itemId)?.variants.push(v);
  return out;
}

export async function commentsFor(db: Db, itemIds: string[]) {
  if (itemIds.length === 0) return [];
  return db
    .select()
    .from(schema.comments)
    .where(and(inArray(schema.comments.itemId, itemIds), eq(schema.comments.approved, true)))
    .orderBy(asc(schema.comments.createdAt));
}

/** Approved comment counts per item, in one query. */
export async function commentCounts(db: Db, itemIds: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (itemIds.length === 0) return out;
  const rows = await db
    .select({ itemId: schema.comments.itemId, n: sql<number>`count(*)::int` })
    .from(schema.comments)
    .where(and(inArray(schema.comments.itemId, itemIds), eq(schema.comments.approved, true)))
    .groupBy(schema.comments.itemId);
  for (const r of rows) out.set(r.itemId, Number(r.n));
  return out;
}

/** Tags and categories used in a collection, with counts (for the filter links). */
export async function collectionFacets(db: Db, c: CollectionRow): Promise<{ tags: Obj[]; categories: Obj[] }> {
  const rows = await db
    .select({ tags: schema.items.tags, categories: schema.items.categories })
    .from(schema.items)
    .where(and(eq(schema.items.collectionId, c.id), eq(schema.items.status, 'published')));
  const count = (key: 'tags' | 'categories', param: string) => {
    const m = new Map<string, number>();
    for (const r of rows) for (const t of r[key] ?? []) m.set(t, (m.get(t) ?? 0) + 1);
    return [...m]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([name, n]) => ({ name, count: n, url: `${collectionUrl(c)}?${param}=${encodeURIComponent(name)}` }));
  };
  return { tags: count('tags', 'tag'), categories: count('categories', 'category') };
}

/** The site's part of a page shell's context (site-page's sendSitePage): website, its settings and navigation. */
export async function siteShellContext(db: Db, websites: WebsiteService, site: WebsiteRow, path: string): Promise<Record<string, unknown>> {
  const collections = await allCollections(db, site.id);
  const byId = new Map(collections.map((c) => [c.id, c]));
  return {
    website: websiteJson(site, websites),
    websiteSettings: websiteSettingsJson(site, websites),
    navigation: navigationJson(site, byId, path),
  };
}
