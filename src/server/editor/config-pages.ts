/**
 * The /config calls' reads and writes of collections and classic pages (their title, navigation title, url
 * id, description, body). Every write is one transaction, checks the row's `version` and leaves an audit row.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { newId } from '../../db/ids.js';
import { CollectionType } from '../../core/enums.js';
import { platform as platformMessages } from '../../core/messages.js';
import { slugify, nextFreeSlug } from '../../core/slug.js';
import { badRequest, notFound } from '../errors.js';
import { audit } from '../platform/index.js';
import { staleEdit } from '../platform/index.js';
import { cleanOwnerHtml } from '../content/index.js';

const { collections } = schema;
type CollectionRow = typeof collections.$inferSelect;

/** A collection's fields as a /config save sends them. */
export interface CollectionFields {
  version: number;
  title: string;
  navigationTitle?: string;
  urlId?: string;
  description?: string;
  enabled?: boolean;
  noindex?: boolean;
}

export const collectionJson = (c: CollectionRow) => ({
  id: c.id,
  title: c.title,
  navigationTitle: c.navigationTitle,
  urlId: c.urlId,
  description: c.description,
  enabled: c.enabled,
  type: c.type,
  typeName: c.typeName,
  version: c.version,
  body: typeof c.settings.body === 'string' ? c.settings.body : undefined,
  noindex: c.settings.noindex === true,
});

/** Every collection of a website, or only its classic pages, in navigation order. */
export async function listCollections(db: Db, websiteId: string, onlyPages = false) {
  const where = onlyPages
    ? and(eq(collections.websiteId, websiteId), eq(collections.typeName, 'page'))
    : eq(collections.websiteId, websiteId);
  const rows = await db.select().from(collections).where(where).orderBy(asc(collections.ordering));
  return rows.map(collectionJson);
}

/** Who saves and where: the website, the owner's account, and the url ids the app's own routes use. */
export interface CollectionWriter {
  websiteId: string;
  accountId: string;
  reserved: () => Set<string>;
}

/** Saves a collection's fields with the version check; shared by collections and pages. */
export async function saveCollection(
  db: Db,
  w: CollectionWriter,
  id: string,
  body: CollectionFields,
  extra: Record<string, unknown> = {},
  onlyPages = false,
) {
  return db.transaction(async (tx) => {
    const [c] = await tx
      .select()
      .from(collections)
      .where(and(eq(collections.id, id), eq(collections.websiteId, w.websiteId)))
      .for('update');
    if (!c || (onlyPages && c.typeName !== 'page')) throw notFound('No such page.');
    if (c.version !== body.version) throw staleEdit(c.version);
    let urlId = c.urlId;
    if (body.urlId !== undefined && slugify(body.urlId) !== c.urlId) {
      urlId = slugify(body.urlId);
      if (!urlId) throw badRequest(platformMessages.notValidPageUrl(body.urlId), { urlId: platformMessages.notValidPageUrl(body.urlId) });
      const taken = await tx
        .select({ id: collections.id })
        .from(collections)
        .where(and(eq(collections.websiteId, w.websiteId), eq(collections.urlId, urlId)));
      if (taken.length || w.reserved().has(urlId))
        throw badRequest(platformMessages.tagExists('URL'), { urlId: platformMessages.tagExists('URL') });
    }
    const [updated] = await tx
      .update(collections)
      .set({
        title: body.title,
        navigationTitle: body.navigationTitle ?? c.navigationTitle,
        urlId,
        description: body.description ?? c.description,
        enabled: body.enabled ?? c.enabled,
        settings: { ...c.settings, ...extra, ...(body.noindex === undefined ? {} : { noindex: body.noindex }) },
        version: c.version + 1,
        updatedAt: new Date(),
      })
      .where(eq(collections.id, id))
      .returning();
    await audit(tx, {
      websiteId: w.websiteId,
      accountId: w.accountId,
      action: onlyPages ? 'page.update' : 'collection.update',
      entity: 'collection',
      entityId: id,
      before: collectionJson(c),
      after: collectionJson(updated!),
    });
    return collectionJson(updated!);
  });
}

/** Makes a classic page at the end of the navigation; its url id comes from the title unless the owner typed one. */
export async function createPage(db: Db, w: CollectionWriter, body: Omit<CollectionFields, 'version'> & { body: string }) {
  return db.transaction(async (tx) => {
    const taken = await tx.select({ urlId: collections.urlId }).from(collections).where(eq(collections.websiteId, w.websiteId));
    const reserved = w.reserved();
    const asked = body.urlId === undefined ? '' : slugify(body.urlId);
    // A reserved url id the owner typed is refused; one made from the title skips to the next free suffix.
    if (reserved.has(asked)) throw badRequest(platformMessages.tagExists('URL'), { urlId: platformMessages.tagExists('URL') });
    const all = new Set([...taken.map((t) => t.urlId), ...reserved]);
    const urlId = nextFreeSlug((body.urlId === undefined ? slugify(body.title) : asked) || 'page', all);
    const [row] = await tx
      .insert(collections)
      .values({
        id: newId(),
        websiteId: w.websiteId,
        urlId,
        title: body.title,
        navigationTitle: body.navigationTitle ?? body.title,
        description: body.description ?? '',
        enabled: body.enabled ?? true,
        type: CollectionType.PAGE,
        typeName: 'page',
        ordering: taken.length,
        settings: { body: cleanOwnerHtml(body.body) },
      })
      .returning();
    await audit(tx, {
      websiteId: w.websiteId,
      accountId: w.accountId,
      action: 'page.create',
      entity: 'collection',
      entityId: row!.id,
      after: collectionJson(row!),
    });
    return collectionJson(row!);
  });
}
