/** The owner calls of the page editor: pages (draft, publish, schedule), site styles, uploads; the bodies are core/api/editor's. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, asc, eq } from 'drizzle-orm';
import { Role } from '../../core/enums.js';
import { schema } from '../../db/index.js';
import { parseInput } from '../platform/index.js';
import { HttpError, forbidden } from '../errors.js';
import { pageEditor as em } from '../../core/messages.js';
import { navFolders, type EditorService } from './service.js';
import { editor as contract } from '../../core/api/index.js';
import type { PostEditorService } from './posts.js';
import { extname } from 'node:path';
import { checkBlockReferences, VimeoOembed } from './block-checks.js';
import { MAX_FILE_BYTES, SUPPORTED_TYPES, maxBytesFor, tooLarge, uploadJson, type UploadService } from '../storage/index.js';
import { allows, can } from '../../core/roles.js';

export const EDITOR_API = '/api/editor';
/** The refusal of a rename or delete, by a role that cannot publish, of an upload that published content uses. */
export const UPLOAD_PUBLISHED = 'Published content uses this file, so only a role that publishes may rename or delete it.';

export async function editorRoutes(
  app: FastifyInstance,
  opts: { service: EditorService; posts: PostEditorService; uploads: UploadService; onStylesSaved?: () => void },
) {
  const { service, uploads, posts } = opts;
  const db = app.database.db;
  // Drafts: who edits pages (draft editors too); publish: who publishes them (core/roles.ts).
  const editRead = { preHandler: app.requireOwner(can('drafts', 'read')) };
  const edit = { preHandler: app.requireOwner(can('drafts', 'write')) };
  const publish = { preHandler: app.requireOwner(can('pages', 'write')) };
  const stylesRead = { preHandler: app.requireOwner(can('styles', 'read')) };
  const styles = { preHandler: app.requireOwner(can('styles', 'write')) };
  const site = (req: { owner?: { websiteId: string } | null }) => req.owner!.websiteId;
  // Newsletter lists and Vimeo addresses are checked before a layout is stored (block-checks.ts).
  const vimeo = new VimeoOembed(app.config.VIMEO_OEMBED_URL);
  const references = (req: { owner?: { websiteId: string } | null }, layout: unknown) =>
    layout === undefined ? Promise.resolve() : checkBlockReferences(db, site(req), layout, vimeo);

  app.get(`${EDITOR_API}/pages`, editRead, async (req, reply) => {
    const websiteId = site(req);
    const [pages, collections, products, forms] = await Promise.all([
      service.listPages(websiteId),
      db
        .select({ id: schema.collections.id, title: schema.collections.title, typeName: schema.collections.typeName })
        .from(schema.collections)
        .where(eq(schema.collections.websiteId, websiteId))
        .orderBy(asc(schema.collections.ordering)),
      db
        .select({ id: schema.items.id, title: schema.items.title })
        .from(schema.items)
        .innerJoin(schema.collections, eq(schema.items.collectionId, schema.collections.id))
        .where(and(eq(schema.items.websiteId, websiteId), eq(schema.collections.typeName, 'products')))
        .orderBy(asc(schema.items.title))
        .limit(500),
      db
        .select({ id: schema.forms.id, name: schema.forms.name, kind: schema.forms.kind })
        .from(schema.forms)
        .where(eq(schema.forms.websiteId, websiteId))
        .orderBy(asc(schema.forms.name)),
    ]);
    reply.header('cache-control', 'no-store');
    const siteRow = await app.services.websites.get();
    const folders = siteRow.id === websiteId ? navFolders(siteRow.settings, new Map(collections.map((c) => [c.id, c]))) : [];
    return { pages, collections, products, forms, navFolders: folders } satisfies contract.PagesList;
  });

  app.post(`${EDITOR_API}/pages`, publish, async (req, reply) => {
    const body = parseInput(contract.newPageIn, req.body);
    const page = await service.createPage(site(req), body, req.owner!.id);
    // The navigation lives in the website's settings: the cached website row is re-read.
    if (body.navigation) app.services.websites.invalidate();
    return reply.status(201).send({ page });
  });

  app.get(`${EDITOR_API}/pages/:id`, editRead, async (req, reply) => {
    const { id } = parseInput(contract.idParam, req.params);
    reply.header('cache-control', 'no-store');
    return service.getPage(site(req), id);
  });

  app.put(`${EDITOR_API}/pages/:id/draft`, edit, async (req) => {
    const { id } = parseInput(contract.idParam, req.params);
    const body = parseInput(contract.draftIn, req.body);
    await references(req, body.layout);
    return service.saveDraft(site(req), id, body, req.owner!);
  });

  app.post(`${EDITOR_API}/pages/:id/publish`, publish, async (req) => {
    const { id } = parseInput(contract.idParam, req.params);
    const body = parseInput(contract.publishIn, req.body);
    await references(req, body.layout);
    return service.publish(site(req), id, body, req.owner!);
  });

  app.post(`${EDITOR_API}/pages/:id/schedule`, publish, async (req) => {
    const { id } = parseInput(contract.idParam, req.params);
    const body = parseInput(contract.scheduleIn, req.body);
    await references(req, body.layout);
    return service.schedule(site(req), id, { version: body.version, publishAt: new Date(body.publishAt), layout: body.layout }, req.owner!);
  });

  app.delete(`${EDITOR_API}/pages/:id/schedule`, publish, async (req) => {
    const { id } = parseInput(contract.idParam, req.params);
    const body = parseInput(contract.versionIn, req.body ?? (req.query as Record<string, unknown>) ?? {});
    return service.unschedule(site(req), id, body.version, req.owner!.id);
  });

  // Journal posts: the same editor for the body (issue 27). The post's fields save through /api/config/posts/:id.
  app.get(`${EDITOR_API}/posts/:id`, editRead, async (req, reply) => {
    const { id } = parseInput(contract.idParam, req.params);
    reply.header('cache-control', 'no-store');
    const site = await app.services.websites.get();
    const doc = await posts.getPost(req.owner!.websiteId, id);
    // The publish date is shown and chosen on the site's clocks; raw HTML mode is offered to admins only.
    return { ...doc, timeZone: site.timeZone, canWriteHtml: req.owner!.role === Role.ADMIN };
  });

  app.put(`${EDITOR_API}/posts/:id/draft`, edit, async (req) => {
    const { id } = parseInput(contract.idParam, req.params);
    const body = parseInput(contract.postDraftIn, req.body);
    return posts.saveDraft(site(req), id, body, req.owner!);
  });

  app.post(`${EDITOR_API}/posts/:id/publish`, publish, async (req) => {
    const { id } = parseInput(contract.idParam, req.params);
    const body = parseInput(contract.postPublishIn, req.body);
    return posts.publish(site(req), id, { ...body, publishOn: body.publishOn ? new Date(body.publishOn) : undefined }, req.owner!);
  });

  app.post(`${EDITOR_API}/posts/:id/unpublish`, publish, async (req) => {
    const { id } = parseInput(contract.idParam, req.params);
    const body = parseInput(contract.versionIn, req.body);
    return posts.unpublish(site(req), id, body.version, req.owner!);
  });

  app.get(`${EDITOR_API}/styles`, stylesRead, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return service.getStyles(site(req));
  });

  app.put(`${EDITOR_API}/styles`, styles, async (req) => {
    const body = parseInput(contract.stylesIn, req.body);
    const saved = await service.patchStyles(site(req), body.version, body.changes, req.owner!.id);
    opts.onStylesSaved?.();
    return saved;
  });

  await registerUploadRoutes(app, uploads);
}

/** The editor's uploads: list, processing state, rename, delete, and the upload of a file's bytes. */
async function registerUploadRoutes(app: FastifyInstance, uploads: UploadService) {
  const uploadsRead = { preHandler: app.requireOwner(can('uploads', 'read')) };
  const uploadsWrite = { preHandler: app.requireOwner(can('uploads', 'write')) };
  const site = (req: { owner?: { websiteId: string } | null }) => req.owner!.websiteId;

  app.get(`${EDITOR_API}/uploads`, uploadsRead, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return { uploads: await uploads.list(site(req)) };
  });

  // The processing job of one upload: the editor polls it after a 202 until the upload is ready or failed.
  app.get(`${EDITOR_API}/uploads/:id`, uploadsRead, async (req, reply) => {
    const { id } = parseInput(contract.idParam, req.params);
    const row = await uploads.get(site(req), id);
    if (!row) throw new HttpError(404, em.UPLOAD_NOT_FOUND);
    reply.header('cache-control', 'no-store');
    return { upload: uploadJson(row) };
  });

  // A role that cannot publish (draft editors) may not rename or delete what the live site shows.
  const guardPublishedUpload = async (req: FastifyRequest, id: string) => {
    if (!allows(req.owner!.role, 'published-uploads', 'write') && (await uploads.usedByPublished(site(req), id)))
      throw forbidden(UPLOAD_PUBLISHED);
  };

  app.put(`${EDITOR_API}/uploads/:id`, uploadsWrite, async (req) => {
    const { id } = parseInput(contract.idParam, req.params);
    const body = parseInput(contract.renameIn, req.body);
    await guardPublishedUpload(req, id);
    return { upload: await uploads.rename(site(req), id, body.name) };
  });

  app.delete(`${EDITOR_API}/uploads/:id`, uploadsWrite, async (req, reply) => {
    const { id } = parseInput(contract.idParam, req.params);
    await guardPublishedUpload(req, id);
    await uploads.remove(site(req), id);
    return reply.status(204).send();
  });

  // The upload itself: the raw bytes of one file as the body, in a scope that reads any content type as bytes.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_FILE_BYTES + 1 }, (_req, body, done) => done(null, body));
    // A declared length over the file's maximum is refused before the body is read, with the 'file too large' message.
    const declaredSize = async (req: FastifyRequest) => {
      const kind = SUPPORTED_TYPES[extname(String((req.query as Record<string, unknown>).name ?? '')).toLowerCase()]?.kind ?? 'file';
      if (Number(req.headers['content-length'] ?? 0) > maxBytesFor(kind)) throw tooLarge(kind);
    };
    scope.post(`${EDITOR_API}/uploads`, { ...uploadsWrite, onRequest: declaredSize, bodyLimit: MAX_FILE_BYTES + 1 }, async (req, reply) => {
      const q = req.query as Record<string, unknown>;
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const row = await uploads.create(site(req), q.name, body, { waitMs: app.config.UPLOAD_PROCESSING_WAIT_MS });
      if (row.status === 'failed') throw new HttpError(422, row.error ?? 'File processing failed', undefined, { upload: uploadJson(row) });
      // Still processing after the wait: 202, and the editor polls GET /api/editor/uploads/{id}.
      return reply.status(row.status === 'processing' ? 202 : 201).send({ upload: uploadJson(row) });
    });
  });
}
