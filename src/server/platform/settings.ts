/**
 * Owner settings calls: header/footer code, multilingual, commerce preferences,
 * store creation (collection and root category), navigation and site layout, and the places lookup.
 * Every write is one transaction with the website row locked, and leaves an audit row.
 */
import { parseInput } from './validate.js';
import type { LayoutLink } from '../../core/api/common.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { rows } from '../db-util.js';
import { z } from 'zod';
import type { Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { newId } from '../../db/ids.js';
import { CollectionType } from '../../core/enums.js';
import { contentLimits, platform as platformMessages } from '../../core/messages.js';
import { nextFreeSlug, slugify, storeUrlId } from '../../core/slug.js';
import { MAX_CATEGORY_LENGTH, STORE_URL_ID_MIN_LENGTH } from '../../core/constants.js';
import { categoryError } from '../../core/content.js';
import { checkLink } from '../../core/layout.js';
import { badRequest, HttpError, notFound } from '../errors.js';
import type { WebsiteRow } from './websites.js';
import { audit } from './audit.js';
import type { PlacesProvider } from './places.js';
import { can } from '../../core/roles.js';

/** Tells a commerce-preferences PUT that changed nothing from one that wrote. */
export const WRITTEN_HEADER = 'x-preferences-written';

/**
 * Url ids a collection may never take, named by hand: the app's own paths. The full set also holds the
 * first segment of every registered route (reservedUrlIdsOf), so a route added later is covered too.
 */
export const RESERVED_URL_IDS = [
  'api',
  'config',
  'cart',
  'checkout',
  'account',
  'assets',
  'theme',
  'demo-media',
  'health',
  'admin.css',
  'search',
  'commerce',
];

/**
 * The url ids no collection or page may take: RESERVED_URL_IDS plus the first path segment of every
 * route whose first segment is a fixed string. '/forms/:formId' reserves 'forms'; '/:collection/:item',
 * '/*' and '/' reserve nothing (a segment holding ':', '*' or a regex is not fixed).
 */
export function reservedUrlIdsOf(routes: Iterable<{ url: string }>): Set<string> {
  const out = new Set(RESERVED_URL_IDS);
  for (const r of routes) {
    const first = r.url.replace(/^\/+/, '').split(/[/?]/, 1)[0] ?? '';
    if (first !== '' && !/[:*()]/.test(first)) out.add(first);
  }
  return out;
}

const reservedByTable = new WeakMap<object, { routes: number; ids: Set<string> }>();

/** The reserved url ids of a running app, from its route table (worked out again only when routes were added). */
export function appReservedUrlIds(app: FastifyInstance): Set<string> {
  const table = app.routeTable;
  const hit = reservedByTable.get(table);
  if (hit && hit.routes === table.length) return hit.ids;
  const ids = reservedUrlIdsOf(table);
  reservedByTable.set(table, { routes: table.length, ids });
  return ids;
}

/** The fallback title of a store whose title gives no usable url id. */
export const STORE_FALLBACK_TITLE = 'Store';

export interface SiteLanguage {
  code: string;
  /** A language whose translation is coded by hand in the theme: the visitor's choice is not sent to the server. */
  customCoded: boolean;
}

export interface MultilingualSettings {
  languages: SiteLanguage[];
  connected: boolean;
}

export function multilingualOf(site: WebsiteRow): MultilingualSettings {
  const m = (site.settings.multilingual ?? {}) as Partial<MultilingualSettings>;
  const languages = Array.isArray(m.languages) ? m.languages : [];
  return { languages, connected: m.connected ?? languages.length > 0 };
}

/** The site's languages: the configured ones, else the site locale's language alone. */
export function siteLanguages(site: WebsiteRow): SiteLanguage[] {
  const m = multilingualOf(site);
  return m.languages.length > 0 ? m.languages : [{ code: site.locale, customCoded: false }];
}

/** Locks the website row, lets `fn` change its settings, bumps the version and writes the audit row. */
export async function changeSettings(
  tx: Tx,
  websiteId: string,
  accountId: string,
  action: string,
  fn: (settings: Record<string, unknown>, row: WebsiteRow) => Record<string, unknown>,
): Promise<WebsiteRow> {
  const [row] = await tx.select().from(schema.websites).where(eq(schema.websites.id, websiteId)).for('update');
  if (!row) throw notFound('No such website.');
  const next = fn(structuredClone(row.settings), row);
  const [updated] = await tx
    .update(schema.websites)
    .set({ settings: next, version: row.version + 1 })
    .where(eq(schema.websites.id, websiteId))
    .returning();
  await audit(tx, {
    websiteId,
    accountId,
    action,
    entity: 'website',
    entityId: websiteId,
    before: diffBefore(row.settings, next),
    after: diffAfter(row.settings, next),
  });
  return updated!;
}

/**
 * Locks the website row and replaces one section of its settings (`key`) with what `fn` makes of the current
 * one (as `read` gives it); bumps the version and audits the section before and after. Answers the new settings.
 */
export async function changeSettingsSection<T>(
  tx: Tx,
  websiteId: string,
  accountId: string,
  action: string,
  key: string,
  read: (settings: Record<string, unknown>) => T,
  fn: (current: T) => T,
): Promise<Record<string, unknown>> {
  const r = await rows<{ settings: Record<string, unknown> }>(tx, sql`select settings from websites where id = ${websiteId} for update`);
  if (!r[0]) throw new HttpError(404, 'Not found');
  const section = fn(read(r[0].settings));
  const next = { ...r[0].settings, [key]: section };
  await tx.execute(sql`update websites set settings = ${JSON.stringify(next)}::jsonb, version = version + 1 where id = ${websiteId}`);
  await audit(tx, { websiteId, accountId, action, entity: 'website', entityId: websiteId, before: read(r[0].settings), after: section });
  return next;
}

function diffBefore(a: Record<string, unknown>, b: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) out[k] = a[k] ?? null;
  return out;
}
function diffAfter(a: Record<string, unknown>, b: Record<string, unknown>) {
  return diffBefore(b, a);
}

// ------------------------------------------------------------------------------------------------
// Commerce preferences
// ------------------------------------------------------------------------------------------------

/** Empty values (null, undefined, '') are filtered out when preferences are read. */
export function filterEmpty(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined && v !== '') out[k] = v;
  return out;
}

/** Stable JSON for comparing values (object keys sorted). */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** The keys whose value differs between what is stored and what was sent (empty counts as absent). */
export function changedKeys(stored: Record<string, unknown>, sent: Record<string, unknown>): string[] {
  const a = filterEmpty(stored);
  const b = filterEmpty(sent);
  return Object.keys(sent).filter((k) => stableJson(a[k]) !== stableJson(b[k]));
}

const namespaceParam = z.object({ namespace: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'Unknown preferences namespace.') });
const prefsBody = z.record(z.string().max(100), z.unknown(), { error: 'Preferences must be a JSON object.' });

// ------------------------------------------------------------------------------------------------
// Navigation
// ------------------------------------------------------------------------------------------------

interface StoredLink {
  title?: string;
  collectionId?: string;
  externalLink?: string;
  memberAreaId?: string;
  children?: StoredLink[];
}

function toLayoutLink(l: StoredLink): LayoutLink {
  return {
    title: l.title ?? '',
    collectionId: l.collectionId ?? null,
    externalLink: l.externalLink ?? null,
    memberAreaId: l.memberAreaId ?? null,
    children: (l.children ?? []).map(toLayoutLink),
  };
}

/** The site layout: one entry per navigation, the main navigation first. */
export function siteLayout(site: WebsiteRow): Array<{ identifier: string; links: LayoutLink[] }> {
  const nav = (site.settings.navigation ?? {}) as Record<string, StoredLink[]>;
  const names = Object.keys(nav).sort((a, b) => (a === 'mainNav' ? -1 : b === 'mainNav' ? 1 : 0));
  return names.map((identifier) => ({ identifier, links: (nav[identifier] ?? []).map(toLayoutLink) }));
}

/**
 * A navigation link: what its message promises (example.com, with a path, a subdomain or an IDN, or an
 * http(s) URL), a page path, #anchor, mailto: or tel:, by core checkLink; a bare host is stored with https://.
 */
const externalLink = z
  .string()
  .trim()
  .max(2000)
  .refine((s) => checkLink(s).ok && s !== '', { message: platformMessages.linksFormattedAs('example.com', 'https://example.com') })
  .transform((s) => checkLink(s).value);
type LinkIn = {
  title?: string;
  collectionId?: string | null;
  externalLink?: string | null;
  memberAreaId?: string | null;
  children?: LinkIn[];
};
const linkSchema: z.ZodType<LinkIn> = z.lazy(() =>
  z.object({
    title: z.string().trim().max(200).optional(),
    collectionId: z.string().max(64).nullish(),
    externalLink: externalLink.nullish(),
    memberAreaId: z.string().max(64).nullish(),
    children: z.array(linkSchema).max(100).optional(),
  }),
);
const navigationBody = z.object({
  fieldName: z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]{0,40}$/, 'fieldName must name a navigation.'),
  templateId: z.string().max(100).optional().default('default'),
  navigation: z.object({ items: z.array(linkSchema).max(200) }),
});

function storedLinks(items: LinkIn[], known: Set<string>, depth = 0): StoredLink[] {
  if (depth > 3) throw badRequest('Navigation can nest at most 3 levels deep.');
  return items.map((i) => {
    if (i.collectionId && !known.has(i.collectionId)) throw badRequest(platformMessages.notValidPageUrl(i.collectionId));
    if (!i.collectionId && !i.externalLink && !(i.children && i.children.length))
      throw badRequest(platformMessages.notValidPageUrl(i.title ?? ''));
    const l: StoredLink = { title: i.title ?? '' };
    if (i.collectionId) l.collectionId = i.collectionId;
    else if (i.externalLink) l.externalLink = i.externalLink;
    if (i.memberAreaId) l.memberAreaId = i.memberAreaId;
    if (i.children && i.children.length) l.children = storedLinks(i.children, known, depth + 1);
    return l;
  });
}

// ------------------------------------------------------------------------------------------------
// Store creation
// ------------------------------------------------------------------------------------------------

const storeBody = z.object({
  title: z.string({ error: 'Enter a title.' }).trim().min(1, 'Enter a title.').max(200),
  navigationTitle: z.string().trim().max(200).optional(),
  urlId: z.string().trim().max(200).optional(),
  description: z.string().max(10_000).optional().default(''),
  enabled: z.boolean().optional().default(true),
});
const categoryBody = z.object({
  displayName: z
    .string()
    .trim()
    .min(1, 'Enter a name.')
    .max(1000)
    // A category is at most 25 characters.
    .refine((n) => categoryError(n) === null, { message: contentLimits.categoryTooLong(MAX_CATEGORY_LENGTH) }),
  parentCategoryId: z.string().max(64).nullish(),
  type: z.enum(['ROOT', 'CATEGORY'], { error: (i) => platformMessages.notExpectedOption(String(i.input)) }),
  pageRendering: z
    .enum(['LIST_VIEW', 'GRID_VIEW'], { error: (i) => platformMessages.notExpectedOption(String(i.input)) })
    .optional()
    .default('LIST_VIEW'),
  displayIndex: z.number().int().min(0).max(10_000).optional().default(1),
});

export interface StoreCategory {
  id: string;
  displayName: string;
  parentCategoryId: string | null;
  type: 'ROOT' | 'CATEGORY';
  pageRendering: 'LIST_VIEW' | 'GRID_VIEW';
  displayIndex: number;
}

/**
 * The url id a new store collection gets: from the title, or the sent url id, never a taken or reserved
 * one. A reserved url id the owner sent is refused ('This URL already exists'); one made from the title, or a
 * taken one sent, takes the next free suffix.
 */
export function newStoreUrlId(
  title: string,
  requested: string | undefined,
  taken: Iterable<string>,
  reserved: Iterable<string> = RESERVED_URL_IDS,
): string {
  const blocked = new Set(reserved);
  const all = new Set([...taken, ...blocked]);
  const asked = requested ? slugify(requested) : '';
  if (asked.length >= STORE_URL_ID_MIN_LENGTH) {
    if (blocked.has(asked)) throw badRequest(platformMessages.tagExists('URL'), { urlId: platformMessages.tagExists('URL') });
    return nextFreeSlug(asked, all);
  }
  return storeUrlId(title, all, STORE_FALLBACK_TITLE);
}

// ------------------------------------------------------------------------------------------------
// Routes
// ------------------------------------------------------------------------------------------------

declare module 'fastify' {
  interface FastifyInstance {
    /** The address-lookup provider (null: not configured). Tests may put a local stand-in here. */
    places: { provider: PlacesProvider | null };
  }
}

export async function settingsRoutes(app: FastifyInstance) {
  const ctx = settingsRoutesCtx(app);
  await headerFooterRoutes(app, ctx);
  await multilingualRoutes(app, ctx);
  await commercePreferenceRoutes(app, ctx);
  await storeCreationRoutes(app, ctx);
  await navigationRoutes(app, ctx);
  await placesRoutes(app);
}

type SettingsRoutesCtx = ReturnType<typeof settingsRoutesCtx>;

/** What the calls of settingsRoutes share. */
function settingsRoutesCtx(app: FastifyInstance) {
  const db = app.database.db;
  const websites = app.services.websites;
  const settingsRead = { preHandler: app.requireOwner(can('settings', 'read')) };
  const settingsOnly = { preHandler: app.requireOwner(can('settings', 'write')) };
  const storeRead = { preHandler: app.requireOwner(can('store-settings', 'read')) };
  const store = { preHandler: app.requireOwner(can('store-settings', 'write')) };
  const reader = { preHandler: app.requireOwner(can('navigation', 'read')) };
  const navigation = { preHandler: app.requireOwner(can('navigation', 'write')) };
  const ownerSite = async (req: FastifyRequest) => {
    const site = await websites.get();
    if (req.owner && req.owner.websiteId !== site.id) throw notFound('No such website.');
    return site;
  };
  const write = async <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => {
    const out = await db.transaction(fn);
    websites.invalidate();
    return out;
  };

  return { db, websites, settingsRead, settingsOnly, storeRead, store, reader, navigation, ownerSite, write };
}

async function headerFooterRoutes(app: FastifyInstance, ctx: SettingsRoutesCtx) {
  const { ownerSite, write } = ctx;
  // ---- Header and footer code injection ---------------------------------------------------------
  const headerFooterBody = z.object({
    header: z.string({ error: 'header must be text.' }).max(100_000, 'The header code is too long (100,000 characters at most).'),
    footer: z.string({ error: 'footer must be text.' }).max(100_000, 'The footer code is too long (100,000 characters at most).'),
  });
  app.get('/api/site-header-footer', { preHandler: app.requireOwner(can('code', 'read')) }, async (req) => {
    const site = await ownerSite(req);
    const c = (site.settings.codeInjection ?? {}) as { header?: string; footer?: string };
    return { header: c.header ?? '', footer: c.footer ?? '' };
  });
  // Header/footer code runs on every page of the site's origin: saved by an admin (role 1) only;
  // website managers may still read it.
  app.put(
    '/api/site-header-footer',
    { preHandler: app.requireOwner(can('code', 'write'), platformMessages.CODE_INJECTION_ADMIN_ONLY) },
    async (req) => {
      const body = parseInput(headerFooterBody, req.body);
      const site = await ownerSite(req);
      await write((tx) =>
        changeSettings(tx, site.id, req.owner!.id, 'header-footer.update', (s) => ({
          ...s,
          codeInjection: { header: body.header, footer: body.footer },
        })),
      );
      return { header: body.header, footer: body.footer };
    },
  );
}

async function multilingualRoutes(app: FastifyInstance, ctx: SettingsRoutesCtx) {
  const { settingsRead, settingsOnly, ownerSite, write } = ctx;
  // ---- Multilingual -------------------------------------------------------------------------------
  const languageCode = z
    .string()
    .trim()
    .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, { error: (i) => platformMessages.notExpectedOption(String(i.input)) });
  const languagesBody = z.object({
    languages: z
      .array(z.union([languageCode, z.object({ code: languageCode, customCoded: z.boolean().optional().default(false) })]))
      .max(50, 'At most 50 languages.'),
  });
  app.get('/api/multilingual/settings', settingsRead, async (req) => {
    const site = await ownerSite(req);
    const m = multilingualOf(site);
    return { primaryLanguage: site.locale, languages: m.languages, connected: m.connected };
  });
  app.get('/api/multilingual/status', settingsRead, async (req) => {
    const site = await ownerSite(req);
    const m = multilingualOf(site);
    return { connected: m.connected, languageCount: m.languages.length, status: m.connected ? 'CONNECTED' : 'DISCONNECTED' };
  });
  app.get('/api/multilingual/languages', settingsRead, async (req) => {
    const site = await ownerSite(req);
    return { languages: multilingualOf(site).languages };
  });
  app.put('/api/multilingual/languages', settingsOnly, async (req) => {
    const body = parseInput(languagesBody, req.body);
    const languages: SiteLanguage[] = [];
    for (const l of body.languages) {
      const entry = typeof l === 'string' ? { code: l, customCoded: false } : { code: l.code, customCoded: l.customCoded };
      if (languages.some((x) => x.code.toLowerCase() === entry.code.toLowerCase()))
        throw badRequest(platformMessages.tagExists('language'));
      languages.push(entry);
    }
    const site = await ownerSite(req);
    await write((tx) =>
      changeSettings(tx, site.id, req.owner!.id, 'multilingual.languages', (s) => ({
        ...s,
        multilingual: { languages, connected: languages.length > 0 },
      })),
    );
    return { languages };
  });
  app.delete('/api/multilingual/connection', settingsOnly, async (req) => {
    const site = await ownerSite(req);
    await write((tx) =>
      changeSettings(tx, site.id, req.owner!.id, 'multilingual.disconnect', (s) => ({
        ...s,
        multilingual: { languages: [], connected: false },
      })),
    );
    return { connected: false };
  });
}

async function commercePreferenceRoutes(app: FastifyInstance, ctx: SettingsRoutesCtx) {
  const { db, storeRead, store, ownerSite, write } = ctx;
  // ---- Commerce preferences -----------------------------------------------------------------------
  app.get('/api/v1/commerce-preferences/:namespace', storeRead, async (req, reply) => {
    const { namespace } = parseInput(namespaceParam, req.params);
    const site = await ownerSite(req);
    try {
      const [row] = await db
        .select()
        .from(schema.commercePreferences)
        .where(and(eq(schema.commercePreferences.websiteId, site.id), eq(schema.commercePreferences.namespace, namespace)));
      const value = { ...(row?.value ?? {}) };
      delete value.websiteId;
      reply.header('cache-control', 'no-store');
      return filterEmpty(value);
    } catch (err) {
      req.log.error({ err, namespace, event: 'commerce-preferences-load-failed' }, 'commerce preferences could not be loaded');
      throw err;
    }
  });
  // The answer is the stored preferences as they are (a key may be named anything, 'written' too); whether
  // this call wrote them is told by the X-Preferences-Written header.
  app.put('/api/v1/commerce-preferences/:namespace', store, async (req, reply) => {
    const { namespace } = parseInput(namespaceParam, req.params);
    const sent = { ...parseInput(prefsBody, req.body) };
    delete sent.websiteId;
    if (stableJson(sent).length > 64 * 1024) throw badRequest('Preferences are too large (64 KB at most).');
    const site = await ownerSite(req);
    try {
      return await write(async (tx) => {
        const [row] = await tx
          .select()
          .from(schema.commercePreferences)
          .where(and(eq(schema.commercePreferences.websiteId, site.id), eq(schema.commercePreferences.namespace, namespace)))
          .for('update');
        const stored = { ...(row?.value ?? {}) };
        delete stored.websiteId;
        const changed = changedKeys(stored, sent);
        if (changed.length === 0) {
          reply.header(WRITTEN_HEADER, 'false');
          return filterEmpty(stored);
        }
        const next = filterEmpty({ ...stored, ...sent });
        if (row) {
          await tx
            .update(schema.commercePreferences)
            .set({ value: next, version: row.version + 1, updatedAt: new Date() })
            .where(and(eq(schema.commercePreferences.websiteId, site.id), eq(schema.commercePreferences.namespace, namespace)));
        } else {
          await tx.insert(schema.commercePreferences).values({ websiteId: site.id, namespace, value: next });
        }
        await audit(tx, {
          websiteId: site.id,
          accountId: req.owner!.id,
          action: 'commerce-preferences.update',
          entity: 'commerce-preferences',
          entityId: namespace,
          before: Object.fromEntries(changed.map((k) => [k, stored[k] ?? null])),
          after: Object.fromEntries(changed.map((k) => [k, next[k] ?? null])),
        });
        reply.header(WRITTEN_HEADER, 'true');
        return next;
      });
    } catch (err) {
      if (!(err instanceof HttpError))
        req.log.error({ err, namespace, event: 'commerce-preferences-save-failed' }, 'commerce preferences could not be saved');
      throw err;
    }
  });
}

async function storeCreationRoutes(app: FastifyInstance, ctx: SettingsRoutesCtx) {
  const { store, ownerSite, write } = ctx;
  // ---- Store creation -----------------------------------------------------------------------------
  const websiteParam = z.object({ websiteId: z.string().min(1).max(64) });
  const collectionParam = websiteParam.extend({ collectionId: z.string().min(1).max(64) });
  const checkWebsite = async (req: FastifyRequest, websiteId: string) => {
    const site = await ownerSite(req);
    if (websiteId !== site.id) throw notFound('No such website.');
    return site;
  };

  app.post('/api/content-service/product/1.1/websites/:websiteId/products', store, async (req, reply) => {
    const { websiteId } = parseInput(websiteParam, req.params);
    const body = parseInput(storeBody, req.body);
    const site = await checkWebsite(req, websiteId);
    const created = await write(async (tx) => {
      // Serialize store creation on the website row so two owners cannot take the same url id.
      await tx.select({ id: schema.websites.id }).from(schema.websites).where(eq(schema.websites.id, site.id)).for('update');
      const taken = await tx
        .select({ urlId: schema.collections.urlId })
        .from(schema.collections)
        .where(eq(schema.collections.websiteId, site.id));
      const urlId = newStoreUrlId(
        body.title,
        body.urlId,
        taken.map((t) => t.urlId),
        appReservedUrlIds(app),
      );
      const row = {
        id: newId(),
        websiteId: site.id,
        urlId,
        title: body.title,
        navigationTitle: body.navigationTitle ?? body.title,
        description: body.description,
        enabled: body.enabled,
        type: CollectionType.PRODUCTS,
        typeName: 'products',
        ordering: taken.length,
        settings: { categories: [] as StoreCategory[] },
      };
      await tx.insert(schema.collections).values(row);
      await audit(tx, {
        websiteId: site.id,
        accountId: req.owner!.id,
        action: 'store.create',
        entity: 'collection',
        entityId: row.id,
        after: { urlId, title: row.title },
      });
      return row;
    });
    return reply.status(201).send({
      id: created.id,
      urlId: created.urlId,
      title: created.title,
      navigationTitle: created.navigationTitle,
      description: created.description,
      enabled: created.enabled,
      fullUrl: `/${created.urlId}`,
    });
  });

  app.post('/api/content-service/product/1.1/websites/:websiteId/products/:collectionId/categories', store, async (req, reply) => {
    const { websiteId, collectionId } = parseInput(collectionParam, req.params);
    const body = parseInput(categoryBody, req.body);
    const site = await checkWebsite(req, websiteId);
    const category = await write(async (tx) => {
      const [c] = await tx
        .select()
        .from(schema.collections)
        .where(and(eq(schema.collections.id, collectionId), eq(schema.collections.websiteId, site.id)))
        .for('update');
      if (!c || c.type !== CollectionType.PRODUCTS) throw notFound('No such store.');
      const categories = ((c.settings.categories ?? []) as StoreCategory[]).slice();
      if (body.type === 'ROOT' && (body.parentCategoryId || categories.some((x) => x.type === 'ROOT'))) {
        throw badRequest(platformMessages.tagExists('root category'));
      }
      if (body.type === 'CATEGORY' && !categories.some((x) => x.id === body.parentCategoryId))
        throw badRequest('Choose the parent category.');
      if (
        categories.some(
          (x) => x.displayName.toLowerCase() === body.displayName.toLowerCase() && x.parentCategoryId === (body.parentCategoryId ?? null),
        )
      ) {
        throw badRequest(platformMessages.tagExists('category'));
      }
      const cat: StoreCategory = {
        id: newId(),
        displayName: body.displayName,
        parentCategoryId: body.parentCategoryId ?? null,
        type: body.type,
        pageRendering: body.pageRendering,
        displayIndex: body.displayIndex,
      };
      categories.push(cat);
      await tx
        .update(schema.collections)
        .set({ settings: { ...c.settings, categories }, version: c.version + 1, updatedAt: new Date() })
        .where(eq(schema.collections.id, c.id));
      await audit(tx, {
        websiteId: site.id,
        accountId: req.owner!.id,
        action: 'store.category.create',
        entity: 'collection',
        entityId: c.id,
        after: cat,
      });
      return cat;
    });
    return reply.status(201).send(category);
  });
}

async function navigationRoutes(app: FastifyInstance, ctx: SettingsRoutesCtx) {
  const { db, reader, navigation, ownerSite, write } = ctx;
  // ---- Navigation and site layout -----------------------------------------------------------------
  app.get('/api/commondata/GetSiteLayout', reader, async (req, reply) => {
    const site = await ownerSite(req);
    reply.header('cache-control', 'no-store');
    return siteLayout(site);
  });
  app.post('/api/widget/UpdateNavigation', navigation, async (req) => {
    const body = parseInput(navigationBody, req.body);
    const site = await ownerSite(req);
    const collections = await db
      .select({ id: schema.collections.id })
      .from(schema.collections)
      .where(eq(schema.collections.websiteId, site.id));
    const links = storedLinks(body.navigation.items, new Set(collections.map((c) => c.id)));
    const updated = await write((tx) =>
      changeSettings(tx, site.id, req.owner!.id, 'navigation.update', (s) => ({
        ...s,
        navigation: { ...((s.navigation ?? {}) as Record<string, unknown>), [body.fieldName]: links },
      })),
    );
    return { fieldName: body.fieldName, templateId: body.templateId, layout: siteLayout(updated) };
  });
}

async function placesRoutes(app: FastifyInstance) {
  // ---- Places (address lookup) -------------------------------------------------------------------
  const placesQuery = z.object({
    input: z.string().trim().max(300).optional(),
    placeId: z.string().trim().max(300).optional(),
    sessionToken: z.string().max(200).optional(),
    language: z.string().max(35).optional(),
    productPage: z.string().max(100).optional(),
    productSection: z.string().max(100).optional(),
  });
  const notConfigured = () =>
    new HttpError(503, 'Address lookup is not configured: set GOOGLE_MAPS_API_KEY to turn it on.', undefined, { notConfigured: true });
  app.get('/api/google-maps/places/autocomplete', { preHandler: app.requireOwner(can('account', 'read')) }, async (req) => {
    const q = parseInput(placesQuery, req.query);
    if (!q.input) throw badRequest('Enter an address to look up.');
    const provider = app.places.provider;
    if (!provider) throw notConfigured();
    return provider.autocomplete({ input: q.input, sessionToken: q.sessionToken, language: q.language });
  });
  app.get('/api/google-maps/places/details', { preHandler: app.requireOwner(can('account', 'read')) }, async (req) => {
    const q = parseInput(placesQuery, req.query);
    if (!q.placeId) throw badRequest('placeId is required.');
    if (!q.productPage && !q.productSection)
      req.log.warn({ event: 'places-no-tracking-context' }, platformMessages.PLACES_TRACKING_CONTEXT);
    const provider = app.places.provider;
    if (!provider) throw notConfigured();
    return provider.details({
      placeId: q.placeId,
      sessionToken: q.sessionToken,
      language: q.language,
      trackingContext:
        q.productPage || q.productSection ? { productPage: q.productPage ?? '', productSection: q.productSection ?? '' } : undefined,
    });
  });
}
