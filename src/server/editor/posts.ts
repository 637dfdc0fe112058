/**
 * Journal posts in the page editor (issue 27). A post's body is a layout like a page's, stored on its item row
 * (migration 0028): `layout_draft` is autosaved, `layout` is what visitors see once the post is published, and
 * `layout_text` its words for site search. The rules are the page editor's: the same layout check and
 * allow-list cleaning (`EditorService.check`), the same raw-code guard, the same version check (the item's
 * `version`, which the post's fields share, so a field save and a body save never overwrite each other).
 *
 * A post written before the editor keeps its HTML body on the site until the editor publishes a layout; opened
 * in the editor, that body becomes one text block. Writing the whole body as HTML (raw HTML mode) is an admin's.
 */
import { and, eq, lte } from 'drizzle-orm';
import type { Db, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import {
  canonicalJson,
  htmlLayout,
  layoutTextBlocksHtml,
  PAGE_STATUS_LABELS,
  parseLayout,
  validateLayout,
  type PageLayout,
  type PageStatus,
  type PageSummary,
} from '../../core/layout.js';
import { RecordType, Role } from '../../core/enums.js';
import { pageEditor as em } from '../../core/messages.js';
import type { PostCover, PostFields } from '../../core/content.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { cleanOwnerHtml } from '../content/index.js';
import { publishScheduled } from '../content/index.js';
import { audit } from '../platform/index.js';
import { EditorService, guardRawCode, stale, type Actor } from './service.js';
import { layoutSearchText } from './search-text.js';

const { items, collections } = schema;
type ItemRow = typeof items.$inferSelect;

export function postCover(i: Pick<ItemRow, 'assets'>): PostCover | null {
  const a = i.assets[0];
  if (!a || typeof a.assetUrl !== 'string' || a.assetUrl === '') return null;
  return {
    assetUrl: a.assetUrl,
    altText: typeof a.altText === 'string' ? a.altText : '',
    originalSize: typeof a.originalSize === 'string' ? a.originalSize : null,
  };
}

export function postFields(i: ItemRow): PostFields {
  return {
    collectionId: i.collectionId,
    title: i.title,
    urlId: i.urlId,
    excerpt: i.excerpt,
    author: i.author,
    tags: i.tags,
    categories: i.categories,
    status: i.status,
    publishOn: i.publishOn.toISOString(),
    commentState: i.commentState,
    cover: postCover(i),
  };
}

/** A post in the shape the editor shows a page (status, version, address). */
export function postSummary(i: ItemRow, journalUrlId: string): PageSummary {
  const status = i.status as PageStatus;
  return {
    id: i.id,
    title: i.title,
    urlId: i.urlId,
    fullUrl: `/${journalUrlId}/${i.urlId}`,
    status,
    statusLabel: PAGE_STATUS_LABELS[status] ?? i.status,
    version: i.version,
    publishAt: status === 'scheduled' ? i.publishOn.toISOString() : null,
    publishedAt: status === 'published' ? i.publishOn.toISOString() : null,
    updatedAt: i.updatedAt.toISOString(),
    hasUnpublishedChanges: i.layoutDraft !== null && i.layoutDraft !== i.layout,
  };
}

/** Scheduled posts whose time has come are published (a sweep, and every editor read). */
export async function publishDuePosts(db: Db, now: Date = new Date()): Promise<number> {
  return publishScheduled(db, RecordType.TEXT, lte(items.publishOn, now), now);
}

/** The body the editor opens: the draft, else the published layout, else the classic HTML body as one text block. */
function bodyLayout(i: ItemRow): PageLayout {
  const text = i.layoutDraft ?? i.layout;
  if (text) return parseLayout(text);
  return htmlLayout(cleanOwnerHtml(i.body));
}

export class PostEditorService {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The post (a text item of a journal of this site) and its journal; locked for a change. */
  private async postOf(db: Db | Tx, websiteId: string, id: string, lock = false): Promise<{ row: ItemRow; journalUrlId: string }> {
    const q = db
      .select({ row: items, journalUrlId: collections.urlId })
      .from(items)
      .innerJoin(collections, eq(collections.id, items.collectionId))
      .where(
        and(eq(items.id, id), eq(items.websiteId, websiteId), eq(items.recordType, RecordType.TEXT), eq(collections.typeName, 'blog')),
      );
    const [found] = lock ? await q.for('update', { of: items }) : await q;
    if (!found) throw notFound(em.POST_NOT_FOUND);
    return found;
  }

  async getPost(websiteId: string, id: string) {
    await publishDuePosts(this.db, this.now());
    const { row, journalUrlId } = await this.postOf(this.db, websiteId, id);
    const layout = bodyLayout(row);
    const v = validateLayout(layout);
    return {
      page: postSummary(row, journalUrlId),
      layout: v.ok && v.layout ? v.layout : layout,
      published: row.layout ? parseLayout(row.layout) : null,
      warnings: v.warnings,
      post: postFields(row),
    };
  }

  /**
   * Runs `change` on the locked post after the version check; `change` returns the new column values, or null
   * when nothing changes (the version stays).
   */
  private async change(
    websiteId: string,
    id: string,
    version: number,
    actor: Actor,
    action: string,
    change: (row: ItemRow, now: Date) => Partial<ItemRow> | null,
  ) {
    return this.db.transaction(async (tx) => {
      const { row, journalUrlId } = await this.postOf(tx, websiteId, id, true);
      if (row.version !== version) throw stale(row.version);
      const now = this.now();
      const values = change(row, now);
      if (!values) return postSummary(row, journalUrlId);
      const [saved] = await tx
        .update(items)
        .set({ ...values, version: row.version + 1, updatedAt: now })
        .where(and(eq(items.id, id), eq(items.version, row.version)))
        .returning();
      if (!saved) throw stale(row.version);
      await audit(tx, {
        websiteId,
        accountId: actor.id,
        action,
        entity: 'post',
        entityId: id,
        after: { version: saved.version, status: saved.status },
      });
      return postSummary(saved, journalUrlId);
    });
  }

  /**
   * The body a request sends: a layout, or (an admin's raw HTML mode) the whole body as HTML, which becomes one
   * text block cleaned with the site's allow-list. Any other role asking for HTML is refused (403).
   */
  private static body(input: { layout?: unknown; html?: string }, actor: Actor) {
    if (input.html !== undefined) {
      if (actor.role !== Role.ADMIN) throw forbidden(em.RAW_HTML_ADMIN_ONLY);
      return EditorService.check(htmlLayout(cleanOwnerHtml(input.html)));
    }
    if (input.layout === undefined || input.layout === null) throw badRequest(em.NOT_A_LAYOUT, { layout: 'layout is required' });
    return EditorService.check(input.layout);
  }

  /** Saves the body's draft (autosave). An unchanged body answers the same version. */
  async saveDraft(websiteId: string, id: string, input: { version: number; layout?: unknown; html?: string }, actor: Actor) {
    const { text, layout, warnings } = PostEditorService.body(input, actor);
    const page = await this.change(websiteId, id, input.version, actor, 'post.draft', (row) => {
      guardRawCode(actor, { draft: row.layoutDraft, published: row.layout }, layout);
      return row.layoutDraft === text ? null : { layoutDraft: text };
    });
    return { page, layout, warnings };
  }

  /**
   * Publishes the body (after saving `layout` or `html` when given): the draft becomes what visitors see, its words
   * go to search, and its text blocks become the post's HTML body (feeds, excerpts). With `publishOn` in the future
   * the post is scheduled; without one a published post keeps its date and any other takes the present.
   */
  async publish(
    websiteId: string,
    id: string,
    input: { version: number; layout?: unknown; html?: string; publishOn?: Date },
    actor: Actor,
  ) {
    const checked = input.layout !== undefined || input.html !== undefined ? PostEditorService.body(input, actor) : null;
    const page = await this.change(websiteId, id, input.version, actor, 'post.publish', (row, now) => {
      if (checked) guardRawCode(actor, { draft: row.layoutDraft, published: row.layout }, checked.layout);
      const text = checked?.text ?? row.layoutDraft ?? row.layout ?? canonicalJson(EditorService.check(bodyLayout(row)).layout);
      const layout = parseLayout(text);
      const publishOn = input.publishOn ?? (row.status === 'published' ? row.publishOn : now);
      return {
        layoutDraft: text,
        layout: text,
        layoutText: layoutSearchText(layout),
        body: cleanOwnerHtml(layoutTextBlocksHtml(layout)),
        status: publishOn.getTime() > now.getTime() ? 'scheduled' : 'published',
        publishOn,
      };
    });
    return { page, layout: parseLayout((await this.postOf(this.db, websiteId, id)).row.layout!) };
  }

  /** Takes a published or scheduled post off the site: it goes back to Draft (its body and fields stay). */
  async unpublish(websiteId: string, id: string, version: number, actor: Actor) {
    const page = await this.change(websiteId, id, version, actor, 'post.unpublish', (row) =>
      row.status === 'draft' ? null : { status: 'draft' },
    );
    return { page };
  }
}
