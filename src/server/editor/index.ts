/**
 * The page editor area (issue #13): owners' pages of sections and blocks (draft, publish, schedule,
 * version-checked saves), site styles, uploads; and the public rendering of published layouts
 * through the theme's block partials. Owner calls are in routes.ts; the contract for the /config
 * editor is core/api/editor.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/index.js';
import { EditorService, isEditorDraft } from './service.js';
import { appReservedUrlIds } from '../platform/index.js';
import { UPLOADS_PREFIX, type UploadService } from '../storage/index.js';
import { editorRoutes } from './routes.js';
import { configPageRoutes } from './config-page-routes.js';
import { configPostRoutes } from './config-post-routes.js';
import { renderBlocksHtml, renderLayout, type RenderEnv } from './render.js';
import { readInside } from '../files-inside.js';
import { and, eq } from 'drizzle-orm';
import { schema } from '../../db/index.js';
import { EditorService as Service } from './service.js';
import { parseInput } from '../platform/index.js';
import { editor as editorApi } from '../../core/api/index.js';
import { EDITOR_API } from './routes.js';
import { mapProviderFor } from './map.js';
import { commerceWidgets } from '../commerce/index.js';
import { contentWidgets } from '../site-context/index.js';
import { ImageVariantError } from '../images/index.js';
import { siteStylesCss, stylesCss } from '../../core/site-styles.js';
import { fontRoutes, siteFontFacesCss } from './fonts.js';
import { HttpError } from '../errors.js';
import { pageEditor as em } from '../../core/messages.js';
import { PostEditorService, publishDuePosts } from './posts.js';
import { parseLayout, type PageLayout } from '../../core/layout.js';
import { RecordType } from '../../core/enums.js';
import { can } from '../../core/roles.js';

/** How often scheduled journal posts are looked at (a due one is published; editor reads also publish them). */
export const POST_SWEEP_MS = 30_000;

export { EditorService } from './service.js';
export { seedEditorDemo } from './seed.js';

interface Area {
  editor: EditorService;
  posts: PostEditorService;
  uploads: UploadService;
  /** The site styles <style> of each website, kept for a second (saves clear it). */
  styleTags: Map<string, { at: number; html: Promise<string> }>;
}
const areas = new WeakMap<Database, Area>();

/** The editor services of an app (tests reach them through the app's database). */
export function editorOf(app: FastifyInstance): Area {
  const a = areas.get(app.database);
  if (!a) throw new Error('The editor area is not registered on this app');
  return a;
}

export async function editorArea(app: FastifyInstance): Promise<void> {
  // Reserved url ids come from the app's route table, read when a page is made (every route is registered by then).
  const editor = new EditorService(app.database.db, undefined, () => appReservedUrlIds(app));
  const uploads = app.services.uploads;
  // With media in a bucket, /ready also asks the bucket (plugins/ops.ts).
  if (uploads.store && Array.isArray(app.readyChecks)) app.readyChecks.push({ name: 'media', probe: () => uploads.store!.check() });
  if (uploads.store) app.addHook('onClose', async () => uploads.store!.close());
  const posts = new PostEditorService(app.database.db);
  const styleTags = new Map<string, { at: number; html: Promise<string> }>();
  areas.set(app.database, { editor, posts, uploads, styleTags });
  await editorRoutes(app, { service: editor, posts, uploads, onStylesSaved: () => styleTags.clear() });
  // The /config calls of collections, classic pages and journal posts' fields.
  await app.register(configPageRoutes);
  await app.register(configPostRoutes);
  const sweep = setInterval(
    () => void publishDuePosts(app.database.db).catch((e: unknown) => app.log.warn({ err: e }, 'scheduled posts sweep failed')),
    POST_SWEEP_MS,
  );
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
  fontRoutes(app);
  // The canvas's picture of blocks: the theme's own partials and stylesheets (see canvasRender).
  app.post(`${EDITOR_API}/pages/:id/render`, { preHandler: app.requireOwner(can('drafts', 'write')) }, async (req, reply) => {
    const { id } = parseInput(editorApi.idParam, req.params);
    const body = parseInput(editorApi.renderIn, req.body);
    // A block being typed may not be valid yet (a half-typed link): the canvas draws the valid ones and
    // keeps its own picture of the others, so an invalid block answers no picture rather than a 400.
    const layout = canvasLayout(body.layout);
    const [page] = await app.database.db
      .select({ id: schema.collections.id, title: schema.collections.title })
      .from(schema.collections)
      .where(
        and(eq(schema.collections.id, id), eq(schema.collections.websiteId, req.owner!.websiteId), eq(schema.collections.typeName, 'page')),
      );
    if (!page) throw new HttpError(404, em.PAGE_NOT_FOUND);
    reply.header('cache-control', 'no-store');
    return canvasRender(app, req, { id: page.id, title: page.title }, layout);
  });
  // The same picture for a journal post's body (issue 27).
  app.post(`${EDITOR_API}/posts/:id/render`, { preHandler: app.requireOwner(can('drafts', 'write')) }, async (req, reply) => {
    const { id } = parseInput(editorApi.idParam, req.params);
    const body = parseInput(editorApi.renderIn, req.body);
    const layout = canvasLayout(body.layout);
    const [post] = await app.database.db
      .select({ id: schema.items.id, title: schema.items.title })
      .from(schema.items)
      .where(and(eq(schema.items.id, id), eq(schema.items.websiteId, req.owner!.websiteId), eq(schema.items.recordType, RecordType.TEXT)));
    if (!post) throw new HttpError(404, em.POST_NOT_FOUND);
    reply.header('cache-control', 'no-store');
    return canvasRender(app, req, { id: post.id, title: post.title }, layout);
  });
  // Layouts published before site search read them (migration 0025) are indexed once the app is up.
  app.addHook('onReady', async () => {
    await editor.backfillSearchText();
  });

  /** Uploaded files; images also as `?format=NNNw` size variants (made once, then served from the disk cache). */
  app.get<{ Params: { file: string } }>(`${UPLOADS_PREFIX}:file`, async (req, reply) => {
    if (uploads.store) {
      try {
        return await sendStoredUpload(uploads, req, reply);
      } catch (err) {
        // The bucket did not answer: a 503 the load balancer and the browser retry, never a 500.
        req.log.warn({ err }, 'media storage unavailable');
        if (reply.sent) throw err;
        return reply
          .status(503)
          .header('cache-control', 'no-store')
          .header('retry-after', '5')
          .send({ error: 'Media storage is unavailable', message: 'Media storage is unavailable. Try again in a moment.' });
      }
    }
    const found = await uploads.served(req.params.file);
    if (!found) return reply.status(404).send({ error: 'Not found', message: 'Not found' });
    const format = (req.query as Record<string, unknown>).format;
    reply.header('cache-control', 'public, max-age=3600');
    if (found.row.kind === 'image' && typeof format === 'string' && format !== 'original') {
      try {
        const v = await uploads.variants.variant(`${UPLOADS_PREFIX}${found.row.storedName}`, format, req.headers.accept);
        reply.header('vary', 'Accept').header('content-length', String(v.bytes));
        return reply.type(v.contentType).send(uploads.stream(v.file));
      } catch (err) {
        if (err instanceof ImageVariantError) return reply.status(err.status).send({ error: err.message, message: err.message });
        throw err;
      }
    }
    reply.header('content-length', String(found.row.bytes));
    if (found.row.kind !== 'image')
      reply.header('content-disposition', `inline; filename="${found.row.name.replace(/[^A-Za-z0-9._ -]/g, '_')}"`);
    return reply.type(found.row.contentType).send(uploads.stream(found.file));
  });
}

/** `GET /uploads/:file` with media in a bucket: the original or a size variant, read from the bucket by any instance. */
async function sendStoredUpload(uploads: UploadService, req: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply) {
  const row = await uploads.readyRow(req.params.file);
  const notFoundReply = () => reply.status(404).send({ error: 'Not found', message: 'Not found' });
  if (!row) return notFoundReply();
  const format = (req.query as Record<string, unknown>).format;
  reply.header('cache-control', 'public, max-age=3600');
  if (row.kind === 'image' && typeof format === 'string' && format !== 'original') {
    try {
      const v = await uploads.storedVariant(row.storedName, undefined, format, req.headers.accept);
      reply.header('vary', 'Accept').header('content-length', String(v.bytes));
      return reply.type(v.contentType).send(v.body);
    } catch (err) {
      if (err instanceof ImageVariantError) return reply.status(err.status).send({ error: err.message, message: err.message });
      throw err;
    }
  }
  const o = await uploads.openStored(row);
  if (!o) return notFoundReply();
  reply.header('content-length', String(o.bytes));
  if (row.kind !== 'image') reply.header('content-disposition', `inline; filename="${row.name.replace(/[^A-Za-z0-9._ -]/g, '_')}"`);
  return reply.type(row.contentType).send(o.body);
}

/** The valid blocks of a layout sent by the canvas (each checked alone when the whole is refused). */
function canvasLayout(input: unknown): import('../../core/layout.js').PageLayout {
  try {
    return Service.check(input).layout;
  } catch (err) {
    if (!(err instanceof HttpError) || err.status !== 400 || !input || typeof input !== 'object') throw err;
    const l = input as { sections?: unknown };
    if (!Array.isArray(l.sections)) throw err;
    const sections = (l.sections as Array<Record<string, unknown>>).slice(0, 30).map((sec) => {
      const blocks = (Array.isArray(sec.blocks) ? sec.blocks : []).filter((b) => {
        try {
          Service.check({ ...l, sections: [{ ...sec, blocks: [b] }] });
          return true;
        } catch {
          return false;
        }
      });
      return { ...sec, blocks };
    });
    return Service.check({ ...l, sections }).layout;
  }
}

/** The theme's stylesheets as the canvas needs them: the document's `:root` and `body` become the shadow root's host. */
function hostCss(css: string): string {
  return css.replace(/(^|[}\s,]):root(?=\s*[{,])/g, '$1:host').replace(/(^|[}\s,])(?:html|body)(?=\s*[{,])/g, '$1:host');
}
const themeCss = new Map<string, { at: number; css: string }>();
function readThemeCss(dir: string): string {
  const hit = themeCss.get(dir);
  if (hit && Date.now() - hit.at < 2000) return hit.css;
  // Through files-inside.ts: a link in the theme folder never brings a file from outside it into the editor.
  const css = ['site.css', 'blocks.css'].map((f) => readInside(dir, f) ?? '').join('\n');
  themeCss.set(dir, { at: Date.now(), css });
  return css;
}

/**
 * The editor canvas's picture of a layout's blocks: each block's HTML from the same partials and data the
 * public page uses, with the CSS the page loads (the theme's stylesheets, the site styles, the layout's
 * variables) rewritten for a shadow root, and the site bundle's stylesheets.
 */
export async function canvasRender(
  app: FastifyInstance,
  req: FastifyRequest,
  page: { id: string; title: string },
  layout: import('../../core/layout.js').PageLayout,
) {
  const site = await app.services.websites.get();
  const area = editorOf(app);
  const env = await renderEnvFor(app, req, area, site, page);
  const { styles } = env;
  const blocks = await renderBlocksHtml(layout, env);
  const head = (await siteStylesHead(app, site.id)).replace(/<\/?style[^>]*>/g, '');
  const css = hostCss(`${readThemeCss(app.services.theme.assetsDir)}\n${head}`) + '\n' + stylesCss(styles);
  const stylesheets = [...app.services.assets.tags('site').head.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]!);
  return { blocks, css, stylesheets };
}

/**
 * The page pipeline's hook for page collections: the published layout's HTML, `false` when the
 * owner made the page private or it was made in the editor and never published (the page answers
 * 404), or null when the page has no layout (the classic page body shows). `?preview=draft` with an owner session of this site renders the draft.
 */
export async function pageLayoutHtml(
  app: FastifyInstance,
  req: FastifyRequest,
  page: { id: string; title: string; settings?: Record<string, unknown> | null },
): Promise<string | false | null> {
  const area = areas.get(app.database);
  if (!area) return null;
  const site = await app.services.websites.get();
  const wantsPreview = (req.query as Record<string, unknown>).preview === 'draft';
  const owner = wantsPreview ? await app.loadOwner(req) : null;
  const preview = !!owner && owner.websiteId === site.id;
  // The draft runs sandboxed (an opaque origin: no cookies, no crumb), wherever the preview is opened.
  if (preview) req.sandboxPreview();
  const layout = preview ? await area.editor.draftLayout(page.id) : await area.editor.publicLayout(page.id);
  if (layout === 'private') return false;
  // A page made in the editor and never published is not on the public site yet.
  if (!layout) return !preview && isEditorDraft(page) ? false : null;
  return layoutHtml(app, req, area, site, layout, page, preview);
}

/**
 * A journal post's body on the site: its published layout drawn by the theme's block partials, as a page's is,
 * or null when the post has none (its classic HTML body shows).
 */
export async function postLayoutHtml(
  app: FastifyInstance,
  req: FastifyRequest,
  post: { id: string; title: string; layout: string | null },
): Promise<string | null> {
  const area = areas.get(app.database);
  if (!area || !post.layout) return null;
  const site = await app.services.websites.get();
  return layoutHtml(app, req, area, site, parseLayout(post.layout), { id: post.id, title: post.title }, false);
}

async function layoutHtml(
  app: FastifyInstance,
  req: FastifyRequest,
  area: Area,
  site: Awaited<ReturnType<FastifyInstance['services']['websites']['get']>>,
  layout: PageLayout,
  page: { id: string; title: string },
  preview: boolean,
): Promise<string> {
  return renderLayout(layout, { ...(await renderEnvFor(app, req, area, site, page)), preview });
}

/** What rendering a layout's blocks needs: the site's styles, its widgets (commerce and content) and its map provider. */
async function renderEnvFor(
  app: FastifyInstance,
  req: FastifyRequest,
  area: Area,
  site: Awaited<ReturnType<FastifyInstance['services']['websites']['get']>>,
  page: { id: string; title: string },
): Promise<RenderEnv> {
  const { styles } = await area.editor.getStyles(site.id);
  const settings = app.services.websites.storeSettings(site);
  const siteSettings = site.settings as Record<string, unknown>;
  const renderer = contentWidgets(commerceWidgets({ currency: site.currency, settings }), {
    origin: `${req.protocol}://${req.host}`,
    shareButtonOptions: (siteSettings.shareButtonOptions as Record<string, unknown>) ?? {},
  });
  return {
    app,
    req,
    theme: app.services.theme,
    styles,
    websiteId: site.id,
    currency: site.currency,
    locale: site.locale,
    timeZone: site.timeZone,
    renderer,
    maps: mapProviderFor(siteSettings),
    page,
  };
}

/**
 * The hook for <head> of every page the site serves (theme pages, system pages, account, forms,
 * newsletter pages): once an owner has saved site styles, the @font-face rules of the library
 * families they use, their design tokens (the theme's --accent, --bg, --fg, --btn-*, --ts-space),
 * fonts by usage category and colour themes as CSS variables ('' until then, so sites without saved
 * styles look exactly as their theme draws them). The layout puts it after its own :root rule.
 */
export async function siteStylesHead(app: FastifyInstance, websiteId: string): Promise<string> {
  const area = areas.get(app.database);
  if (!area) return '';
  const load = () =>
    area.editor
      .getStyles(websiteId)
      .then(({ styles, version }) =>
        version > 0
          ? `<style id="ts-site-styles">${[siteFontFacesCss(styles), siteStylesCss(styles)].filter(Boolean).join('\n')}</style>`
          : '',
      );
  // Per content version in a page request (site_styles writes move it); elsewhere for a second.
  if (app.siteCache.inScope()) return app.siteCache.get('site-styles-head', websiteId, load);
  const now = Date.now();
  const hit = area.styleTags.get(websiteId);
  if (hit && now - hit.at < 1000) return hit.html;
  const html = load();
  area.styleTags.set(websiteId, { at: now, html });
  html.catch(() => area.styleTags.delete(websiteId));
  return html;
}
export { postCover } from './posts.js';
export { isEditorDraft } from './service.js';
