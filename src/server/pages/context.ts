import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/index.js';
import { schema } from '../../db/index.js';
import type { NavLink, WebsiteRow, WebsiteService } from '../platform/websites.js';
import { loadProducts, variantJson, type ProductRecord } from '../commerce/products.js';

export type CollectionRow = typeof schema.collections.$inferSelect;
export type ItemRow = typeof schema.items.$inferSelect;

/** The collection types of the enumeration that Tessera's themes render. */
export const PRODUCTS_TYPE = 13;
export const STORE_ITEM_RECORD = 11;

export function collectionUrl(c: Pick<CollectionRow, 'urlId'>): string {
  return `/${c.urlId}`;
}

export function itemUrl(c: Pick<CollectionRow, 'urlId' | 'type'>, i: Pick<ItemRow, 'urlId'>): string {
  return c.type === PRODUCTS_TYPE ? `/${c.urlId}/p/${i.urlId}` : `/${c.urlId}/${i.urlId}`;
}

export function websiteJson(site: WebsiteRow, websites: WebsiteService) {
  const settings = site.settings;
  return {
    id: site.id,
    identifier: site.id,
    siteTitle: site.title,
    siteDescription: String(settings.siteDescription ?? ''),
    baseUrl: '',
    language: site.locale,
    timeZone: site.timeZone,
    commentsEnabled: settings.commentsEnabled !== false,
    storeSettings: websites.storeSettings(site),
    socialAccounts: (settings.socialAccounts as unknown[]) ?? [],
  };
}

export function collectionJson(c: CollectionRow) {
  return {
    id: c.id,
    title: c.title,
    navigationTitle: c.navigationTitle || c.title,
    urlId: c.urlId,
    fullUrl: collectionUrl(c),
    type: c.type,
    typeName: c.typeName,
    description: c.description,
    ...c.settings,
  };
}

export function itemJson(c: CollectionRow, i: ItemRow, product: ProductRecord | undefined, currency: string) {
  const main = i.assets[0] as Record<string, unknown> | undefined;
  const json: Record<string, unknown> = {
    id: i.id,
    collectionId: i.collectionId,
    recordType: i.recordType,
    title: i.title,
    urlId: i.urlId,
    fullUrl: itemUrl(c, i),
    body: i.body,
    excerpt: i.excerpt,
    author: { displayName: i.author },
    tags: i.tags,
    categories: i.categories,
    publishOn: i.publishOn.getTime(),
    addedOn: i.createdAt.getTime(),
    updatedOn: i.updatedAt.getTime(),
    assetUrl: main?.assetUrl ?? '',
    originalSize: main?.originalSize ?? '',
    mediaFocalPoint: main?.mediaFocalPoint ?? { x: 0.5, y: 0.5 },
    altText: main?.altText ?? '',
    items: i.assets,
    commentState: i.commentState,
    publicCommentCount: 0,
    ...(i.recordType === STORE_ITEM_RECORD ? {} : { structuredContent: i.structuredContent }),
  };
  if (i.recordType === STORE_ITEM_RECORD) {
    const variants = (product?.variants ?? []).map((v) => variantJson(v, currency));
    const first = variants[0];
    json.structuredContent = {
      ...i.structuredContent,
      productType: Number(i.structuredContent.productType ?? 1),
      variants,
      priceMoney: first?.priceMoney ?? { currency, value: '0' },
      salePriceMoney: first?.salePriceMoney ?? { currency, value: '0' },
      onSale: variants.some((v) => v.onSale),
    };
  }
  return json;
}

/** Main navigation with active flags, from the website's navigation settings. */
export function navigationJson(site: WebsiteRow, byId: Map<string, CollectionRow>, path: string) {
  const nav = (site.settings.navigation ?? {}) as Record<string, NavLink[]>;
  const toLink = (l: NavLink): Record<string, unknown> => {
    const c = l.collectionId ? byId.get(l.collectionId) : undefined;
    const url = c ? collectionUrl(c) : (l.externalLink ?? '#');
    return {
      title: l.title || c?.navigationTitle || c?.title || '',
      fullUrl: url,
      external: !c,
      active: !!c && (path === url || path.startsWith(url + '/')),
      collectionId: l.collectionId ?? null,
      children: (l.children ?? []).map(toLink),
    };
  };
  const out: Record<string, unknown[]> = {};
  for (const [name, links] of Object.entries(nav)) out[name] = links.map(toLink);
  return out;
}

export async function allCollections(db: Db, websiteId: string): Promise<CollectionRow[]> {
  return db.select().from(schema.collections).where(eq(schema.collections.websiteId, websiteId)).orderBy(asc(schema.collections.ordering));
}

export async function publishedItems(db: Db, c: CollectionRow, limit: number, offset: number): Promise<ItemRow[]> {
  const order = c.typeName === 'blog' ? [desc(schema.items.publishOn)] : c.typeName === 'events' ? [asc(schema.items.publishOn)] : [asc(schema.items.ordering), asc(schema.items.createdAt)];
  return db
    .select()
    .from(schema.items)
    .where(and(eq(schema.items.collectionId, c.id), eq(schema.items.status, 'published')))
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
}

export async function itemByUrl(db: Db, c: CollectionRow, urlId: string): Promise<ItemRow | null> {
  const rows = await db
    .select()
    .from(schema.items)
    .where(and(eq(schema.items.collectionId, c.id), eq(schema.items.urlId, urlId), eq(schema.items.status, 'published')))
    .limit(1);
  return rows[0] ?? null;
}

export async function productsFor(db: Db, rows: ItemRow[]): Promise<Map<string, ProductRecord>> {
  return loadProducts(db, rows.filter((r) => r.recordType === STORE_ITEM_RECORD).map((r) => r.id));
}

export async function commentsFor(db: Db, itemIds: string[]) {
  if (itemIds.length === 0) return [];
  return db.select().from(schema.comments).where(and(inArray(schema.comments.itemId, itemIds), eq(schema.comments.approved, true))).orderBy(asc(schema.comments.createdAt));
}
