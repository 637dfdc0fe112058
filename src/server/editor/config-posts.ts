/**
 * The /config calls' reads and writes of journal posts' fields (title, url id, excerpt, author, cover, tags,
 * categories, status, comments). Every write is one transaction, checks the item's `version` and leaves an
 * audit row. The body written as HTML (raw HTML mode) is an admin's; it is cleaned with the one allow-list.
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { newId } from '../../db/ids.js';
import { RecordType, Role } from '../../core/enums.js';
import { pageEditor as pageEditorMessages } from '../../core/messages.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { audit } from '../platform/index.js';
import { staleEdit, type Site } from '../platform/index.js';
import { cleanOwnerHtml, ownerPlainText } from '../content/index.js';
import { itemUrlId } from '../catalog/index.js';
import type { CONTENT_STATUSES as STATUSES } from '../../core/api/common.js';
import { postFields } from './posts.js';

const { items, collections } = schema;
type ItemRow = typeof items.$inferSelect;

/** A post's fields as a /config save sends them (the shape is config-post-routes.ts's postIn). */
export interface PostFieldsIn {
  version?: number;
  collectionId?: string;
  title: string;
  urlId?: string;
  body?: string;
  excerpt: string;
  author?: string;
  cover?: { assetUrl: string; altText: string; originalSize?: string | null } | null;
  tags?: string[];
  categories?: string[];
  status: (typeof STATUSES)[number];
  publishOn?: string;
  commentState?: 0 | 1;
}

/** Who writes: the owner's account, role and display name (a new post's default author). */
export interface PostAuthor {
  id: string;
  role: number;
  displayName?: string | null;
}

export const postJson = (i: ItemRow) => ({
  id: i.id,
  ...postFields(i),
  body: i.body,
  /** Whether the body is a layout of the editor (published or a draft), not only the classic HTML. */
  hasLayout: i.layout !== null || i.layoutDraft !== null,
  version: i.version,
});

/** The journals of a website and their posts, newest first; commentsDefault is the state a new post starts with. */
export async function listPosts(db: Db, site: Site) {
  const journals = await db
    .select()
    .from(collections)
    .where(and(eq(collections.websiteId, site.id), eq(collections.typeName, 'blog')));
  const ids = journals.map((j) => j.id);
  const list = ids.length ? await db.select().from(items).where(inArray(items.collectionId, ids)).orderBy(desc(items.publishOn)) : [];
  return {
    journals: journals.map((j) => ({ id: j.id, title: j.title, urlId: j.urlId })),
    posts: list.map(postJson),
    commentsDefault: site.settings.commentsEnabled === false ? 0 : 1,
    timeZone: site.timeZone,
  };
}

const journalOf = async (tx: Tx, id: string | undefined, websiteId: string) => {
  const [j] = id
    ? await tx
        .select()
        .from(collections)
        .where(and(eq(collections.id, id), eq(collections.websiteId, websiteId)))
    : [];
  if (!j || j.typeName !== 'blog')
    throw badRequest('Choose the journal for this post.', { collectionId: 'Choose the journal for this post.' });
  return j;
};

/** A scheduled post needs a future date; anything else published in the future is scheduled. */
const statusAt = (s: (typeof STATUSES)[number], publishOn: Date) =>
  s === 'published' && publishOn.getTime() > Date.now() ? 'scheduled' : s;

/**
 * A post body written as HTML is raw HTML mode, an admin's (issue 27): other staff write the body in the editor's
 * blocks. They may send the stored body back unchanged. Whoever writes it, it is cleaned with the one allow-list.
 */
export const rawBodyGuard = (author: PostAuthor, html: string | undefined, stored = '') => {
  if (html === undefined || author.role === Role.ADMIN) return;
  const clean = cleanOwnerHtml(html);
  if (clean !== '' && clean !== stored) throw forbidden(pageEditorMessages.RAW_HTML_ADMIN_ONLY);
};

const coverAssets = (cover: PostFieldsIn['cover'], stored: ItemRow['assets']) =>
  cover === undefined
    ? stored
    : cover === null
      ? []
      : [
          {
            assetUrl: cover.assetUrl,
            altText: ownerPlainText(cover.altText),
            ...(cover.originalSize ? { originalSize: cover.originalSize } : {}),
          },
        ];

/** Writes a new post in its journal. */
export async function createPost(db: Db, site: Site, author: PostAuthor, body: PostFieldsIn) {
  return db.transaction(async (tx) => {
    const j = await journalOf(tx, body.collectionId, site.id);
    const urlId = await itemUrlId(tx, j.id, body.urlId ?? '', body.title);
    const publishOn = body.publishOn ? new Date(body.publishOn) : new Date();
    const [row] = await tx
      .insert(items)
      .values({
        id: newId(),
        websiteId: site.id,
        collectionId: j.id,
        urlId,
        title: body.title,
        recordType: RecordType.TEXT,
        body: cleanOwnerHtml(body.body ?? ''),
        excerpt: ownerPlainText(body.excerpt),
        author: body.author ?? author.displayName ?? '',
        assets: coverAssets(body.cover, []),
        tags: body.tags ?? [],
        categories: body.categories ?? [],
        status: statusAt(body.status, publishOn),
        publishOn,
        // A new post's comment state follows the site's comments-enabled setting.
        commentState: body.commentState ?? (site.settings.commentsEnabled === false ? 0 : 1),
      })
      .returning();
    await audit(tx, {
      websiteId: site.id,
      accountId: author.id,
      action: 'post.create',
      entity: 'post',
      entityId: row!.id,
      after: postJson(row!),
    });
    return postJson(row!);
  });
}

/** Updates post `id` (the version must match); fields left out keep their stored values. */
export async function updatePost(db: Db, websiteId: string, author: PostAuthor, id: string, body: PostFieldsIn & { version: number }) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(items)
      .where(and(eq(items.id, id), eq(items.websiteId, websiteId)))
      .for('update');
    if (!row || row.recordType !== RecordType.TEXT) throw notFound('No such post.');
    if (row.version !== body.version) throw staleEdit(row.version);
    rawBodyGuard(author, body.body, row.body);
    const urlId = body.urlId && body.urlId !== row.urlId ? await itemUrlId(tx, row.collectionId, body.urlId, body.title, id) : row.urlId;
    const publishOn = body.publishOn ? new Date(body.publishOn) : row.publishOn;
    const [updated] = await tx
      .update(items)
      .set({
        title: body.title,
        urlId,
        body: body.body === undefined ? row.body : cleanOwnerHtml(body.body),
        assets: coverAssets(body.cover, row.assets),
        excerpt: ownerPlainText(body.excerpt),
        author: body.author ?? row.author,
        tags: body.tags ?? row.tags,
        categories: body.categories ?? row.categories,
        status: statusAt(body.status, publishOn),
        publishOn,
        commentState: body.commentState ?? row.commentState,
        version: row.version + 1,
        updatedAt: new Date(),
      })
      .where(eq(items.id, id))
      .returning();
    await audit(tx, {
      websiteId,
      accountId: author.id,
      action: 'post.update',
      entity: 'post',
      entityId: id,
      before: postJson(row),
      after: postJson(updated!),
    });
    return postJson(updated!);
  });
}
