/**
 * What the page pipeline asks this area for each page: the owner's preview (unpublished items, another
 * theme folder) and safe mode, the feature states and experiment assignments for the templates, the
 * beta-block filter, and the `tessera-flags` data island the browser reads (experiments, analytics options,
 * session-recording facts). Preview and safe mode count only for a signed-in owner: a visitor's cookie or
 * query parameter is ignored, and this area never sets a cookie on a visitor's page.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { schema } from '../../db/index.js';
import { parseVisitorCookie, VISITOR_COOKIE_NAME } from '../../core/cookies.js';
import { EXPERIMENT_QUERY_PREFIX, experimentStorageKey, resolveAssignment } from '../../core/experiments.js';
import { BETA_BLOCK_FEATURES, Feature } from '../../core/features.js';
import { THEME_FOLDER_NAME, parsePreviewCookie, safeModeAsked } from '../../core/preview.js';
import { PREVIEW_COOKIE, SAFE_MODE_COOKIE } from '../../core/cookies.js';
import { RecordType } from '../../core/enums.js';
import type { AnalyticsOptions } from '../../core/analytics-options.js';
import { Theme, DEFAULT_THEME_DIR } from '../site-page/index.js';
import { scriptJson } from '../../core/html.js';
import { OWNER_COOKIE } from '../../core/cookies.js';
import type { WebsiteRow } from '../platform/index.js';
import { experimentsOf, featuresOf, overridesAllowed, isBlockEnabled, isEnabled, siteCountry } from './service.js';

export const FLAGS_DATA_ID = 'tessera-flags';

export interface PageFlags {
  /** A signed-in owner is looking. */
  owner: boolean;
  /** Show unpublished items (owner preview). */
  drafts: boolean;
  /** The preview theme, when the owner previews another theme folder. */
  theme: Theme | null;
  /** Injected header/footer code and custom scripts are left out (owner safe mode). */
  safeMode: boolean;
  features: Record<string, boolean>;
  experiments: Record<string, string | null>;
  /** The data island for the browser. */
  island: string;
  /** The owner's notice of preview or safe mode ('' for visitors). */
  notice: string;
  /** Removes disabled beta blocks (and, in safe mode, custom scripts) from rendered content. */
  filterHtml(html: string): string;
}

const previewThemes = new WeakMap<FastifyInstance, Map<string, Theme>>();

/** The folder holding theme folders: the parent of the live theme's folder. */
export function themesRoot(app: FastifyInstance): string {
  return dirname(app.config.THEME_DIR ?? DEFAULT_THEME_DIR);
}

/** The names of the theme folders an owner can preview. */
export function previewableThemes(app: FastifyInstance): string[] {
  const root = themesRoot(app);
  try {
    return readdirSync(root)
      .filter((n) => THEME_FOLDER_NAME.test(n) && existsSync(join(root, n, 'site.region')) && !existsSync(join(root, n, 'template.conf')))
      .sort();
  } catch {
    return [];
  }
}

function previewTheme(app: FastifyInstance, name: string | null): Theme | null {
  if (!name || !THEME_FOLDER_NAME.test(name)) return null;
  const dir = join(themesRoot(app), name);
  if (dir === (app.config.THEME_DIR ?? DEFAULT_THEME_DIR)) return null;
  let cache = previewThemes.get(app);
  if (!cache) {
    const made = new Map<string, Theme>();
    cache = made;
    previewThemes.set(app, made);
    app.addHook('onClose', async () => {
      for (const t of made.values()) t.close();
    });
  }
  const hit = cache.get(name);
  if (hit) return hit;
  try {
    // Developer templates (template.conf) are chosen in Site styles (server/themes), not previewed here.
    if (!statSync(dir).isDirectory() || !existsSync(join(dir, 'site.region')) || existsSync(join(dir, 'template.conf'))) return null;
    const t = new Theme(dir, app.log, false);
    cache.set(name, t);
    return t;
  } catch {
    return null;
  }
}

/** Elements marked `data-block-type="N"` whose block is switched off are removed with their content. */
export function removeDisabledBlocks(html: string, enabled: (blockType: number) => boolean): string {
  if (!html.includes('data-block-type')) return html;
  const open = /<(div|section|aside|figure)\b[^>]*\bdata-block-type="(\d{1,4})"[^>]*>/gi;
  let out = '';
  let from = 0;
  let m: RegExpExecArray | null;
  while ((m = open.exec(html))) {
    if (enabled(Number(m[2]))) continue;
    const tag = m[1]!.toLowerCase();
    const any = new RegExp(`<(/?)${tag}\\b[^>]*>`, 'gi');
    any.lastIndex = m.index + m[0].length;
    let depth = 1;
    let end = html.length;
    let t: RegExpExecArray | null;
    while ((t = any.exec(html))) {
      depth += t[1] ? -1 : 1;
      if (depth === 0) {
        end = t.index + t[0].length;
        break;
      }
    }
    out += html.slice(from, m.index);
    from = end;
    open.lastIndex = end;
  }
  return out + html.slice(from);
}

/** Custom scripts in rendered content (safe mode): every script except JSON data islands. */
export function removeCustomScripts(html: string): string {
  return html.replace(/<script\b([^>]*)>[\s\S]*?<\/script\s*>/gi, (all, attrs: string) =>
    /\btype="application\/(ld\+)?json"/i.test(attrs) ? all : '',
  );
}

export interface FlagsClientConfig {
  analytics: AnalyticsOptions;
}

/** Experiment assignments of a request and the `tessera-flags` island that carries them to the browser. */
function assignments(
  site: WebsiteRow,
  client: FlagsClientConfig,
  internal: boolean,
  visitorId: string | null,
  query: Record<string, unknown>,
) {
  const experiments: Record<string, string | null> = {};
  const islandExperiments = experimentsOf(site).map((e) => {
    const a = resolveAssignment({ experiment: e, visitorId, internal, query });
    experiments[e.name] = a.variant;
    return { name: e.name, key: experimentStorageKey(e.name), variants: e.variants, variant: a.variant, source: a.source, store: a.store };
  });
  const island = `<script type="application/json" id="${FLAGS_DATA_ID}">${scriptJson({
    internal,
    experiments: islandExperiments,
    analytics: client.analytics,
    recording: { country: siteCountry(site), timeZone: site.timeZone, toggle: isEnabled(site, Feature.SESSION_RECORDING) },
  })}</script>`;
  return { experiments: experiments as Readonly<Record<string, string | null>>, island };
}

/** The island and assignments of a plain visitor (no visitor id, no override), per website row and kind of host: read-only. */
const plainIslands = new WeakMap<
  WebsiteRow,
  Map<string, { client: FlagsClientConfig; experiments: Readonly<Record<string, string | null>>; island: string }>
>();

/** Whether the address carries an experiment override parameter (`experiment.<name>=`). */
function hasOverride(query: Record<string, unknown>): boolean {
  for (const k in query) if (k.startsWith(EXPERIMENT_QUERY_PREFIX)) return true;
  return false;
}

/** The per-request page state. Cheap for visitors: no query unless an owner cookie is present. */
export async function pageFlags(
  app: FastifyInstance,
  req: FastifyRequest,
  site: WebsiteRow,
  client: FlagsClientConfig,
): Promise<PageFlags> {
  const owner = req.cookies[OWNER_COOKIE] ? await app.loadOwner(req) : null;
  const isOwner = !!owner && owner.websiteId === site.id;
  const preview = isOwner ? parsePreviewCookie(req.cookies[PREVIEW_COOKIE]) : null;
  const safeMode = isOwner && safeModeAsked(req.query, req.cookies[SAFE_MODE_COOKIE]);
  const features = featuresOf(site);
  const internal = overridesAllowed(app, site, req.host);
  const visitorId = parseVisitorCookie(req.cookies[VISITOR_COOKIE_NAME])?.visitorId ?? null;
  const query = (req.query ?? {}) as Record<string, unknown>;
  // A visitor without a visitor id and without an override in the address gets no assignment: the same
  // island for every such request of a website row (one for internal hosts, one for the others), made once.
  const plain = visitorId === null && !hasOverride(query);
  const key = internal ? 'internal' : 'public';
  let made = plain ? plainIslands.get(site)?.get(key) : undefined;
  if (!made || made.client.analytics !== client.analytics) {
    made = { client, ...assignments(site, client, internal, visitorId, query) };
    if (plain) {
      let kept = plainIslands.get(site);
      if (!kept) plainIslands.set(site, (kept = new Map()));
      kept.set(key, made);
    }
  }
  const { experiments, island } = made;
  const notices: string[] = [];
  if (preview?.drafts || preview?.theme)
    notices.push(`Preview: ${preview.theme ? `theme “${preview.theme}”` : 'unpublished changes'} (only you see this).`);
  if (safeMode) notices.push('Safe mode: injected header and footer code and custom scripts are off (only for you).');
  const notice = notices.length
    ? `<div class="tessera-owner-notice" role="status">${notices.map((n) => n.replace(/</g, '&lt;')).join(' ')}</div>`
    : '';
  return {
    owner: isOwner,
    drafts: preview?.drafts ?? false,
    theme: preview ? previewTheme(app, preview.theme) : null,
    safeMode,
    features,
    experiments,
    island,
    notice,
    filterHtml: (html) => {
      const off = disabledBlocksOf(site);
      const blocks = off && off.test(html) ? removeDisabledBlocks(html, (t) => isBlockEnabled(site, t)) : html;
      return safeMode ? removeCustomScripts(blocks) : blocks;
    },
  };
}

/**
 * A test for the block types a site switched off (null: none is), kept per website row (a row is read
 * per content version and never changed in place). Most pages hold none of them, and this one linear test
 * spares them removeDisabledBlocks' scan of every tag; it matches every attribute that scan would act on
 * (its `\d{1,4}` can carry leading zeros, hence `0*`).
 */
const disabledBlocks = new WeakMap<WebsiteRow, RegExp | null>();
function disabledBlocksOf(site: WebsiteRow): RegExp | null {
  let re = disabledBlocks.get(site);
  if (re === undefined) {
    const off = Object.keys(BETA_BLOCK_FEATURES).filter((t) => !isBlockEnabled(site, Number(t)));
    re = off.length ? new RegExp(`data-block-type="0*(?:${off.join('|')})"`, 'i') : null;
    disabledBlocks.set(site, re);
  }
  return re;
}

/** Whether a product is hidden because its feature is off (gift cards). */
export function productHidden(site: WebsiteRow, structuredContent: Record<string, unknown> | null | undefined): boolean {
  const type = Number(structuredContent?.productType);
  return type === 4 && !isEnabled(site, Feature.GIFT_CARDS);
}

/** Any item by url id, whatever its status: the owner's preview of drafts and scheduled posts. */
export async function previewItem(app: FastifyInstance, collectionId: string, urlId: string) {
  const db = app.database.db;
  const found = await db
    .select({ ...getTableColumns(schema.items) })
    .from(schema.items)
    .where(and(eq(schema.items.collectionId, collectionId), eq(schema.items.urlId, urlId)))
    .limit(1);
  const row = found[0];
  if (!row) return null;
  const variants =
    row.recordType === RecordType.STORE_ITEM
      ? await db
          .select()
          .from(schema.productVariants)
          .where(eq(schema.productVariants.itemId, row.id))
          .orderBy(sql`${schema.productVariants.ordering}`)
      : [];
  return { row, product: row.recordType === RecordType.STORE_ITEM ? { item: row, variants } : undefined };
}

/** The item statuses an owner previewing unpublished changes sees in lists. */
export const PREVIEW_STATUSES = ['published', 'draft', 'scheduled', 'needs-review'] as const;

/**
 * The statuses a list page shows this request: undefined (published only) unless a signed-in owner of the
 * site has preview of drafts on. Costs visitors nothing (no query without an owner cookie).
 */
export async function previewStatuses(app: FastifyInstance, req: FastifyRequest, site: WebsiteRow): Promise<readonly string[] | undefined> {
  if (!req.cookies[OWNER_COOKIE] || !req.cookies[PREVIEW_COOKIE]) return undefined;
  const owner = await app.loadOwner(req);
  if (!owner || owner.websiteId !== site.id) return undefined;
  return parsePreviewCookie(req.cookies[PREVIEW_COOKIE])?.drafts ? PREVIEW_STATUSES : undefined;
}
