/**
 * What crawlers may see: the public collections and items of the site, read once per content version
 * (plugins/site-cache.ts). Drafts, scheduled and private items, disabled collections, private or
 * unpublished editor pages, password-locked and member-only collections (and everything when the whole
 * site is locked), hidden products and anything the owner marked `noindex` are left out.
 */
import type { FastifyInstance } from 'fastify';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { schema } from '../../db/index.js';
import type { WebsiteRow } from '../platform/index.js';
import { allCollections, collectionUrl, itemUrl, memberAreaCollections, type CollectionRow, type ItemRow } from '../site-context/index.js';
import type { VariantRow } from '../commerce/index.js';
import { FolderBehavior, RecordType } from '../../core/enums.js';
import { Feature } from '../../core/features.js';
import { SITE_TARGET } from '../members/index.js';
import { isEditorDraft } from '../editor/index.js';
import { multilingualOf } from '../platform/index.js';

export interface PublicItem {
  row: ItemRow;
  collection: CollectionRow;
  url: string;
  variants: VariantRow[];
}

export interface PublicContent {
  site: WebsiteRow;
  /** Public collections in site order; the home collection first. */
  collections: CollectionRow[];
  homeId: string | null;
  items: PublicItem[];
  /** When each editor page's layout was last published (the page's lastmod when later than its row). */
  pagePublishedAt: Map<string, Date>;
}

/** Whether the owner asked crawlers to keep away from a collection or item (`noindex` in its settings). */
export function markedNoindex(settings: Record<string, unknown> | null | undefined): boolean {
  return settings?.noindex === true || settings?.seoHidden === true;
}

/**
 * Collections no crawler may see: locked by a password or held in a member area (or every collection,
 * when the whole site is locked). Read through the member locks, which are kept per content version.
 */
export async function crawlerHiddenCollections(app: FastifyInstance, site: WebsiteRow, collections: CollectionRow[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const id of memberAreaCollections(site)) out.add(id);
  if (!app.hasDecorator('members')) return out;
  const locks = await app.members.locks(site);
  if (locks.passwords.has(SITE_TARGET)) return new Set(collections.map((c) => c.id));
  for (const id of locks.passwords.keys()) out.add(id);
  for (const id of locks.areasByCollection.keys()) out.add(id);
  for (const id of locks.legacyMemberCollections) out.add(id);
  return out;
}

/** Whether a page of this collection is kept out of search engines (noindex): locked, member-only or marked so. */
export async function collectionNoindex(app: FastifyInstance, site: WebsiteRow, c: CollectionRow): Promise<boolean> {
  if (markedNoindex(c.settings)) return true;
  return (await crawlerHiddenCollections(app, site, [c])).has(c.id);
}

export function publicContent(app: FastifyInstance): Promise<PublicContent> {
  return app.siteCache.get('seo-content', 'all', () => loadPublicContent(app));
}

async function loadPublicContent(app: FastifyInstance): Promise<PublicContent> {
  const db = app.database.db;
  const site = await app.services.websites.get();
  const theme = app.services.theme;
  const all = await allCollections(db, site.id);
  const hidden = await crawlerHiddenCollections(app, site, all);
  const memberAreasOff = !app.flags.isEnabled(site, Feature.MEMBER_AREAS);
  const memberAreas = memberAreaCollections(site);
  const pageIds = all.filter((c) => c.typeName === 'page').map((c) => c.id);
  const layouts = pageIds.length
    ? await db
        .select({
          id: schema.pageLayouts.collectionId,
          status: schema.pageLayouts.status,
          published: schema.pageLayouts.published,
          publishedAt: schema.pageLayouts.publishedAt,
        })
        .from(schema.pageLayouts)
        .where(inArray(schema.pageLayouts.collectionId, pageIds))
    : [];
  const layoutOf = new Map(layouts.map((l) => [l.id, l]));
  const visible = all.filter((c) => {
    if (!c.enabled || hidden.has(c.id) || markedNoindex(c.settings)) return false;
    if (memberAreasOff && memberAreas.has(c.id)) return false;
    if (c.typeName === 'folder')
      return Number(c.settings.folderBehavior ?? FolderBehavior.INDEX) === FolderBehavior.INDEX && theme.has('collections/folder.list');
    if (!theme.has(`collections/${c.typeName}.list`)) return false;
    if (c.typeName === 'page') {
      const l = layoutOf.get(c.id);
      if (l?.status === 'private') return false;
      if (!l?.published && isEditorDraft(c)) return false;
    }
    return true;
  });
  const homeId = (site.settings.homeCollectionId as string | undefined) ?? all.find((c) => c.enabled)?.id ?? null;
  visible.sort((a, b) => (a.id === homeId ? -1 : b.id === homeId ? 1 : 0));
  const withItems = visible.filter((c) => c.typeName !== 'page' && c.typeName !== 'folder' && theme.has(`collections/${c.typeName}.item`));
  const byId = new Map(withItems.map((c) => [c.id, c]));
  const rows = withItems.length
    ? await db
        .select()
        .from(schema.items)
        .where(and(inArray(schema.items.collectionId, [...byId.keys()]), eq(schema.items.status, 'published')))
        .orderBy(asc(schema.items.collectionId), asc(schema.items.ordering), asc(schema.items.createdAt))
    : [];
  const now = Date.now();
  const shown = rows.filter(
    (r) => r.publishOn.getTime() <= now && !markedNoindex(r.structuredContent) && !app.flags.productHidden(site, r.structuredContent),
  );
  const storeIds = shown.filter((r) => r.recordType === RecordType.STORE_ITEM).map((r) => r.id);
  const variants = new Map<string, VariantRow[]>();
  if (storeIds.length) {
    const vs = await db
      .select()
      .from(schema.productVariants)
      .where(inArray(schema.productVariants.itemId, storeIds))
      .orderBy(asc(schema.productVariants.ordering));
    for (const v of vs) {
      const list = variants.get(v.itemId) ?? [];
      list.push(v);
      variants.set(v.itemId, list);
    }
  }
  const items = shown.map((row) => {
    const collection = byId.get(row.collectionId)!;
    return { row, collection, url: itemUrl(collection, row), variants: variants.get(row.id) ?? [] };
  });
  const pagePublishedAt = new Map<string, Date>();
  for (const l of layouts) if (l.publishedAt) pagePublishedAt.set(l.id, l.publishedAt);
  return { site, collections: visible, homeId, items, pagePublishedAt };
}

/** The public address of a collection: '/' for the home collection. */
export function publicCollectionUrl(c: CollectionRow, homeId: string | null): string {
  return c.id === homeId ? '/' : collectionUrl(c);
}

/** The site's languages for alternates: the primary one first; empty when the site is not multilingual. */
export function alternateLanguages(site: WebsiteRow): string[] {
  const m = multilingualOf(site);
  if (!m.connected || m.languages.length === 0) return [];
  const out = [site.locale];
  for (const l of m.languages) if (!out.some((x) => x.toLowerCase() === l.code.toLowerCase())) out.push(l.code);
  return out;
}

/** A page's address in one of the site's languages: the primary language keeps it, the others add `lang`. */
export function languageUrl(absolute: string, code: string, primary: string): string {
  if (code.toLowerCase() === primary.toLowerCase()) return absolute;
  return `${absolute}${absolute.includes('?') ? '&' : '?'}lang=${encodeURIComponent(code)}`;
}
