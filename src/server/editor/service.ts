/**
 * The page editor's storage rules: a page collection's draft and published layout with a version
 * for optimistic concurrency, statuses and scheduled publishing, and the site styles.
 *
 * Every change is one transaction that first locks the page's collection row, so two saves of one
 * page run one after the other; a save naming an older version than the stored one is refused (409)
 * and changes nothing. Layouts are stored as the canonical text of core/layout.ts.
 */
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import {
  canonicalJson,
  emptyLayout,
  type Block,
  PAGE_STATUS_LABELS,
  parseLayout,
  validateLayout,
  type PageLayout,
  type PageStatus,
  type PageSummary,
} from '../../core/layout.js';
import { applyStyleChanges, defaultSiteStyles, normaliseStyles, type SiteStyles } from '../../core/site-styles.js';
import { pageEditor as em } from '../../core/messages.js';
import { badRequest, forbidden, HttpError, notFound } from '../errors.js';
import { cleanOwnerHtml } from '../content/index.js';
import { audit } from '../platform/index.js';
import { RESERVED_URL_IDS } from '../platform/index.js';
import { newId } from '../../db/ids.js';
import { slugify } from '../../core/slug.js';
import { BlockType, CollectionType, Role } from '../../core/enums.js';
import { platform as pm } from '../../core/messages.js';
import { layoutSearchText } from './search-text.js';
import { changeSettings } from '../platform/index.js';
import type { DraftStatus } from '../../core/api/editor.js';

const { collections, pageLayouts, siteStyles } = schema;
type LayoutRow = typeof pageLayouts.$inferSelect;
type CollectionRow = typeof collections.$inferSelect;

/** Who saves: the signed-in owner's id and role (raw code is an admin's). */
export interface Actor {
  id: string;
  role: number;
}

/** A layout with its owner HTML (text blocks, accordion bodies) cleaned with the rich-text allow-list. */
function cleanLayoutHtml(layout: PageLayout): PageLayout {
  const block = (b: Block): Block => {
    if (b.type === BlockType.HTML && typeof b.data.html === 'string')
      return { ...b, data: { ...b.data, html: cleanOwnerHtml(b.data.html) } };
    if (b.type === BlockType.ACCORDION && Array.isArray(b.data.items)) {
      const items = (b.data.items as Record<string, unknown>[]).map((x) =>
        typeof x.body === 'string' ? { ...x, body: cleanOwnerHtml(x.body) } : x,
      );
      return { ...b, data: { ...b.data, items } };
    }
    return b;
  };
  return { ...layout, sections: layout.sections.map((s) => ({ ...s, blocks: s.blocks.map(block) })) };
}

/** The code of each raw code block (a code block used as HTML on the site) of a layout, by block id. */
function rawCodeBlocks(layout: PageLayout | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of layout?.sections ?? [])
    for (const b of s.blocks) if (b.type === BlockType.CODE && b.data.raw === true) out.set(b.id, String(b.data.code ?? ''));
  return out;
}

/**
 * Raw code runs on the site's origin, so only an admin (role 1) adds or changes it. Anyone who edits the
 * page (or post) may keep an admin's raw block as it is stored (same block, same code), move it, or remove it.
 */
export function guardRawCode(actor: Actor, row: { draft: string | null; published: string | null } | undefined, layout: PageLayout): void {
  if (actor.role === Role.ADMIN) return;
  const asked = rawCodeBlocks(layout);
  if (asked.size === 0) return;
  const draft = rawCodeBlocks(row?.draft ? parseLayout(row.draft) : null);
  const published = rawCodeBlocks(row?.published ? parseLayout(row.published) : null);
  for (const [id, code] of asked) if (draft.get(id) !== code && published.get(id) !== code) throw forbidden(em.RAW_CODE_ADMIN_ONLY);
}

/** URL ids a page cannot take without a route table to hand: the platform's named ones and the uploads folder. */
// Read when called: the platform area's constant is not yet initialised while the areas load.
const reservedIds = (): string[] => [...RESERVED_URL_IDS, 'uploads'];

export const stale = (currentVersion: number, message: string = em.STALE_VERSION) =>
  new HttpError(409, message, undefined, { currentVersion });

/** Whether a page was made in the editor (it stays off the public site until a layout is published). */
export function isEditorDraft(c: { settings?: Record<string, unknown> | null }): boolean {
  return c.settings?.createdInEditor === true;
}

function summary(c: CollectionRow, row: LayoutRow | undefined): PageSummary {
  // A page without a layout is the classic page, live when its collection is enabled; a page made in
  // the editor is a draft until its first layout is published.
  const status = (row ? row.status : c.enabled && !isEditorDraft(c) ? 'published' : 'draft') as PageStatus;
  return {
    id: c.id,
    title: c.title,
    urlId: c.urlId,
    fullUrl: `/${c.urlId}`,
    status,
    statusLabel: PAGE_STATUS_LABELS[status] ?? status,
    version: row?.version ?? 0,
    publishAt: row?.publishAt?.toISOString() ?? null,
    publishedAt: row?.publishedAt?.toISOString() ?? null,
    updatedAt: (row?.updatedAt ?? c.updatedAt).toISOString(),
    hasUnpublishedChanges: !!row && row.draft !== null && row.draft !== row.published,
  };
}

/**
 * Keeps the page's search text (`settings.layoutText`, read by the collections' search trigger) equal to the
 * words of its published layout. Runs in the transaction that writes `published`.
 */
async function syncSearchText(tx: Tx, collectionId: string, published: string | null): Promise<void> {
  const text = layoutSearchText(published ? parseLayout(published) : null);
  await tx
    .update(collections)
    .set({ settings: sql`${collections.settings} || ${JSON.stringify({ layoutText: text })}::jsonb` })
    .where(eq(collections.id, collectionId));
}

/** Where a new page goes in the main navigation: first, last, or last under one of its folders. */
export type NavPlacement = { position: 'first' | 'last' } | { position: 'folder'; folder: number };

interface StoredNavLink {
  title?: string;
  collectionId?: string;
  externalLink?: string;
  children?: StoredNavLink[];
}

/**
 * The main navigation's folders: its top-level entries that hold children or point at a folder collection,
 * by their index in the main navigation.
 */
export function navFolders(
  settings: Record<string, unknown>,
  byId: Map<string, { title: string; typeName: string }>,
): Array<{ index: number; title: string }> {
  const main = ((settings.navigation ?? {}) as Record<string, StoredNavLink[]>).mainNav ?? [];
  const out: Array<{ index: number; title: string }> = [];
  main.forEach((l, index) => {
    const c = l.collectionId ? byId.get(l.collectionId) : undefined;
    if ((l.children && l.children.length > 0) || c?.typeName === 'folder')
      out.push({ index, title: l.title || c?.title || `Folder ${index + 1}` });
  });
  return out;
}

export interface SaveInput {
  version: number;
  layout: unknown;
  status?: DraftStatus;
}

export class EditorService {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
    /** The url ids a new page may not take (the app's routes' first segments, see appReservedUrlIds). */
    private readonly reservedUrlIds: () => Iterable<string> = reservedIds,
  ) {}

  /** Checks a layout from a request: 400 with per-path errors, or the canonical text and warnings. */
  static check(layout: unknown): { text: string; layout: PageLayout; warnings: Record<string, string> } {
    const r = validateLayout(layout);
    if (!r.ok || !r.layout) throw badRequest(r.message ?? em.NOT_A_LAYOUT, r.errors);
    const clean = cleanLayoutHtml(r.layout);
    return { text: canonicalJson(clean), layout: clean, warnings: r.warnings };
  }

  /** Publishes the scheduled layouts that are due (of one page, or of every page). */
  async publishDue(collectionId?: string): Promise<number> {
    const now = this.now();
    const due = await this.db
      .select({ id: pageLayouts.collectionId })
      .from(pageLayouts)
      .where(
        and(
          eq(pageLayouts.status, 'scheduled'),
          lte(pageLayouts.publishAt, now),
          ...(collectionId ? [eq(pageLayouts.collectionId, collectionId)] : []),
        ),
      );
    let n = 0;
    for (const { id } of due) {
      await this.db.transaction(async (tx) => {
        const [row] = await tx.select().from(pageLayouts).where(eq(pageLayouts.collectionId, id)).for('update');
        if (!row || row.status !== 'scheduled' || !row.publishAt || row.publishAt > now) return;
        await tx
          .update(pageLayouts)
          .set({ published: row.draft, status: 'published', publishAt: null, publishedAt: now, version: row.version + 1, updatedAt: now })
          .where(eq(pageLayouts.collectionId, id));
        await syncSearchText(tx, id, row.draft);
        n++;
      });
    }
    return n;
  }

  /** Pages published before search read layouts (migration 0025) get their search text once. */
  async backfillSearchText(): Promise<number> {
    const missing = await this.db
      .select({ id: pageLayouts.collectionId, published: pageLayouts.published })
      .from(pageLayouts)
      .innerJoin(collections, eq(collections.id, pageLayouts.collectionId))
      .where(sql`${pageLayouts.published} is not null and not (${collections.settings} ? 'layoutText')`);
    for (const m of missing) await this.db.transaction((tx) => syncSearchText(tx, m.id, m.published));
    return missing.length;
  }

  async listPages(websiteId: string): Promise<PageSummary[]> {
    await this.publishDue();
    const pages = await this.db
      .select()
      .from(collections)
      .where(and(eq(collections.websiteId, websiteId), eq(collections.typeName, 'page')))
      .orderBy(asc(collections.ordering), asc(collections.title));
    const ids = pages.map((p) => p.id);
    const layouts = ids.length ? await this.db.select().from(pageLayouts).where(inArray(pageLayouts.collectionId, ids)) : [];
    const byId = new Map(layouts.map((l) => [l.collectionId, l]));
    return pages.map((p) => summary(p, byId.get(p.id)));
  }

  /**
   * A new page collection. A given url id must already be a clean slug ('{val} is not a valid page URL'
   * otherwise) and free ('This page already exists', 409); without one it is made from the title.
   */
  async createPage(
    websiteId: string,
    input: { title: string; urlId?: string; navigation?: NavPlacement },
    ownerId: string,
  ): Promise<PageSummary> {
    return this.db.transaction(async (tx) => {
      const taken = new Set(
        (await tx.select({ urlId: collections.urlId }).from(collections).where(eq(collections.websiteId, websiteId))).map((r) => r.urlId),
      );
      const reserved = new Set([...reservedIds(), ...this.reservedUrlIds()]);
      let urlId: string;
      if (input.urlId !== undefined && input.urlId !== '') {
        urlId = input.urlId.replace(/^\/+/, '');
        if (slugify(urlId) !== urlId || urlId === '')
          throw badRequest(pm.notValidPageUrl(input.urlId), { urlId: pm.notValidPageUrl(input.urlId) });
        if (taken.has(urlId) || reserved.has(urlId)) throw new HttpError(409, pm.tagExists('page'), { urlId: pm.tagExists('page') });
      } else {
        const base = slugify(input.title) || 'page';
        urlId = base;
        for (let i = 1; taken.has(urlId) || reserved.has(urlId); i++) urlId = `${base}-${i}`;
      }
      const [c] = await tx
        .insert(collections)
        .values({
          id: newId(),
          websiteId,
          urlId,
          title: input.title,
          navigationTitle: input.title,
          type: CollectionType.PAGE,
          typeName: 'page',
          ordering: taken.size,
          settings: { body: '', createdInEditor: true },
        })
        .returning();
      await audit(tx, {
        websiteId,
        accountId: ownerId,
        action: 'page.create',
        entity: 'page',
        entityId: c!.id,
        after: { urlId, title: input.title },
      });
      if (input.navigation) await this.addToNavigation(tx, websiteId, ownerId, c!.id, input.navigation);
      return summary(c!, undefined);
    });
  }

  /** Adds a page's link to the main navigation (made when the site has none yet). */
  private async addToNavigation(tx: Tx, websiteId: string, ownerId: string, collectionId: string, where: NavPlacement): Promise<void> {
    const all = await tx
      .select({ id: collections.id, title: collections.title, typeName: collections.typeName })
      .from(collections)
      .where(eq(collections.websiteId, websiteId));
    const byId = new Map(all.map((c) => [c.id, c]));
    const folderIndex = where.position === 'folder' ? where.folder : -1;
    await changeSettings(tx, websiteId, ownerId, 'navigation.update', (s) => {
      const nav = { ...((s.navigation ?? {}) as Record<string, StoredNavLink[]>) };
      const main = [...(nav.mainNav ?? [])];
      const link: StoredNavLink = { title: '', collectionId };
      if (where.position === 'first') main.unshift(link);
      else if (where.position === 'last') main.push(link);
      else {
        if (!navFolders(s, byId).some((f) => f.index === folderIndex))
          throw badRequest(em.NO_SUCH_NAV_FOLDER, { navigation: em.NO_SUCH_NAV_FOLDER });
        const folder = main[folderIndex]!;
        main[folderIndex] = { ...folder, children: [...(folder.children ?? []), link] };
      }
      nav.mainNav = main;
      return { ...s, navigation: nav };
    });
  }

  private async pageOf(db: Db | Tx, websiteId: string, id: string, lock = false): Promise<CollectionRow> {
    const q = db
      .select()
      .from(collections)
      .where(and(eq(collections.id, id), eq(collections.websiteId, websiteId), eq(collections.typeName, 'page')));
    const [c] = lock ? await q.for('update') : await q;
    if (!c) throw notFound(em.PAGE_NOT_FOUND);
    return c;
  }

  async getPage(websiteId: string, id: string) {
    await this.publishDue(id);
    const c = await this.pageOf(this.db, websiteId, id);
    const [row] = await this.db.select().from(pageLayouts).where(eq(pageLayouts.collectionId, id));
    const text = row?.draft ?? row?.published ?? null;
    const layout = text ? parseLayout(text) : emptyLayout();
    return {
      page: summary(c, row),
      layout,
      published: row?.published ? parseLayout(row.published) : null,
      warnings: validateLayout(layout).warnings,
    };
  }

  /**
   * Runs `change` on the locked page after the version check. `change` gets the stored row (or
   * undefined) and returns the new column values, or null when nothing changes (the version stays).
   */
  private async change(
    websiteId: string,
    id: string,
    version: number,
    ownerId: string,
    action: string,
    change: (row: LayoutRow | undefined, now: Date) => Partial<LayoutRow> | null,
  ): Promise<PageSummary> {
    return this.db.transaction(async (tx) => {
      const c = await this.pageOf(tx, websiteId, id, true);
      const [row] = await tx.select().from(pageLayouts).where(eq(pageLayouts.collectionId, id));
      const current = row?.version ?? 0;
      if (version !== current) throw stale(current);
      const now = this.now();
      const values = change(row, now);
      if (!values) return summary(c, row);
      let saved: LayoutRow;
      if (row) {
        [saved] = await tx
          .update(pageLayouts)
          .set({ ...values, version: current + 1, updatedAt: now, updatedBy: ownerId })
          .where(and(eq(pageLayouts.collectionId, id), eq(pageLayouts.version, current)))
          .returning();
      } else {
        [saved] = await tx
          .insert(pageLayouts)
          .values({
            collectionId: id,
            websiteId,
            status: 'draft',
            ...values,
            version: 1,
            createdAt: now,
            updatedAt: now,
            updatedBy: ownerId,
          })
          .returning();
      }
      if (!saved) throw stale(current);
      if (values.published !== undefined) await syncSearchText(tx, id, saved.published);
      await audit(tx, {
        websiteId,
        accountId: ownerId,
        action,
        entity: 'page',
        entityId: id,
        after: { version: saved.version, status: saved.status },
      });
      return summary(c, saved);
    });
  }

  /** Saves the draft (autosave). An unchanged layout and status answer the same version. */
  async saveDraft(websiteId: string, id: string, input: SaveInput, actor: Actor) {
    const { text, layout, warnings } = EditorService.check(input.layout);
    const page = await this.change(websiteId, id, input.version, actor.id, 'page.draft', (row) => {
      guardRawCode(actor, row, layout);
      const keep = row && row.status !== 'published' ? (row.status as PageStatus) : undefined;
      let status: PageStatus = input.status ?? keep ?? 'draft';
      // A draft identical to the published copy, with no status asked for, is simply published.
      if (!input.status && row?.status === 'published' && text === row.published) status = 'published';
      if (row && row.draft === text && row.status === status) return null;
      return { draft: text, status, ...(status !== 'scheduled' ? { publishAt: null } : {}) };
    });
    return { page, layout, warnings };
  }

  /** Publishes the draft (after saving `layout` when one is given). */
  async publish(websiteId: string, id: string, input: { version: number; layout?: unknown }, actor: Actor) {
    const checked = input.layout !== undefined ? EditorService.check(input.layout) : null;
    const page = await this.change(websiteId, id, input.version, actor.id, 'page.publish', (row, now) => {
      if (checked) guardRawCode(actor, row, checked.layout);
      const text = checked?.text ?? row?.draft ?? null;
      if (text === null) throw badRequest(em.NOTHING_TO_PUBLISH);
      return { draft: text, published: text, status: 'published', publishAt: null, publishedAt: now };
    });
    const layout = checked?.layout ?? (await this.getPage(websiteId, id)).layout;
    return { page, layout };
  }

  /** Schedules the draft to be published at `publishAt` (a time in the future). */
  async schedule(websiteId: string, id: string, input: { version: number; publishAt: Date; layout?: unknown }, actor: Actor) {
    if (!(input.publishAt.getTime() > this.now().getTime())) throw badRequest(em.SCHEDULE_IN_PAST, { publishAt: em.SCHEDULE_IN_PAST });
    const checked = input.layout !== undefined ? EditorService.check(input.layout) : null;
    const page = await this.change(websiteId, id, input.version, actor.id, 'page.schedule', (row) => {
      if (checked) guardRawCode(actor, row, checked.layout);
      const text = checked?.text ?? row?.draft ?? null;
      if (text === null) throw badRequest(em.NOTHING_TO_PUBLISH);
      return { draft: text, status: 'scheduled', publishAt: input.publishAt };
    });
    return { page };
  }

  /** Cancels a schedule: the page goes back to Draft. */
  async unschedule(websiteId: string, id: string, version: number, ownerId: string) {
    const page = await this.change(websiteId, id, version, ownerId, 'page.unschedule', (row) =>
      row && row.status === 'scheduled' ? { status: 'draft', publishAt: null } : null,
    );
    return { page };
  }

  /**
   * What the public site shows of a page: the published layout (publishing a due schedule first),
   * 'private' when the owner made it private, or null when it has no layout (the classic page body).
   */
  async publicLayout(collectionId: string): Promise<PageLayout | 'private' | null> {
    let [row] = await this.db.select().from(pageLayouts).where(eq(pageLayouts.collectionId, collectionId));
    if (!row) return null;
    if (row.status === 'scheduled' && row.publishAt && row.publishAt <= this.now()) {
      await this.publishDue(collectionId);
      [row] = await this.db.select().from(pageLayouts).where(eq(pageLayouts.collectionId, collectionId));
    }
    if (row.status === 'private') return 'private';
    return row.published ? parseLayout(row.published) : null;
  }

  /** The draft of a page for an owner's preview (falls back to the published copy). */
  async draftLayout(collectionId: string): Promise<PageLayout | null> {
    const [row] = await this.db.select().from(pageLayouts).where(eq(pageLayouts.collectionId, collectionId));
    const text = row?.draft ?? row?.published ?? null;
    return text ? parseLayout(text) : null;
  }

  // ---- Site styles ------------------------------------------------------------------------------

  async getStyles(websiteId: string): Promise<{ styles: SiteStyles; version: number }> {
    const [row] = await this.db.select().from(siteStyles).where(eq(siteStyles.websiteId, websiteId));
    return row
      ? { styles: normaliseStyles(JSON.parse(row.styles) as Partial<SiteStyles>), version: row.version }
      : { styles: defaultSiteStyles(), version: 0 };
  }

  /** Applies the changed (dirty) paths only; refused as a whole when any is invalid or the version is stale. */
  async patchStyles(websiteId: string, version: number, changes: Record<string, unknown>, ownerId: string) {
    return this.db.transaction(async (tx) => {
      // Lock the website row so two style saves run one after the other (the styles row may not exist yet).
      await tx.select({ id: schema.websites.id }).from(schema.websites).where(eq(schema.websites.id, websiteId)).for('update');
      const [row] = await tx.select().from(siteStyles).where(eq(siteStyles.websiteId, websiteId));
      const current = row?.version ?? 0;
      if (version !== current) throw stale(current, em.STYLES_STALE_VERSION);
      const styles = row ? normaliseStyles(JSON.parse(row.styles) as Partial<SiteStyles>) : defaultSiteStyles();
      const r = applyStyleChanges(styles, changes);
      if (!r.ok || !r.styles) throw badRequest(r.message!, r.errors);
      const text = canonicalJson(r.styles);
      if (row && row.styles === text) return { styles: r.styles, version: current };
      const now = this.now();
      if (row)
        await tx
          .update(siteStyles)
          .set({ styles: text, version: current + 1, updatedAt: now })
          .where(eq(siteStyles.websiteId, websiteId));
      else await tx.insert(siteStyles).values({ websiteId, styles: text, version: 1, updatedAt: now });
      await audit(tx, {
        websiteId,
        accountId: ownerId,
        action: 'styles.update',
        entity: 'site-styles',
        entityId: websiteId,
        after: { paths: Object.keys(changes) },
      });
      return { styles: r.styles, version: current + 1 };
    });
  }
}
