/**
 * Developer templates (Squarespace 7.0 developer-mode folders) as themes: which one the site renders with
 * (the owner's choice in /config, stored in the site settings), their static files (/assets/…, /scripts/…),
 * the compiled /site.css with the owner's tweak values, the image loader, and the owner calls of
 * /config's Site styles (GET and PUT /api/themes).
 */
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { asc, eq } from 'drizzle-orm';
import { schema } from '../../db/index.js';
import { HttpError } from '../errors.js';
import { parseInput } from '../platform/index.js';
import { Theme, DEFAULT_THEME_DIR } from '../site-page/index.js';
import type { WebsiteRow } from '../platform/index.js';
import { DevTemplate, isDevTemplate } from './dev-template.js';
import { BLOCK_FIELDS_SETTING, THEME_SETTING, TWEAKS_SETTING, cleanBlockField } from './adapter.js';
import { tweakValueError } from './styles.js';
import { IMAGE_LOADER_JS } from './image-loader.js';
import { can } from '../../core/roles.js';
import { FOLDER_FILE_HEADERS, folderFileType, sendInside } from '../files-inside.js';

export { DevTemplate, isDevTemplate } from './dev-template.js';

/** The value of the theme setting for Tessera's own theme. */
export const TESSERA_THEME = 'tessera';

const FOLDER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

interface Registry {
  base: Theme;
  /** The developer template THEME_DIR points at, if it is one: the site's theme until the owner picks another. */
  initial: DevTemplate | null;
  root: string;
  log: FastifyBaseLogger;
  watch: boolean;
  loaded: Map<string, DevTemplate>;
}

const registries = new WeakMap<Theme, Registry>();

/**
 * The theme of THEME_DIR. A Tessera theme folder is used as it is; a developer template folder renders
 * through the platform layer, with Tessera's default theme for the page types it has no template for.
 */
export function openTheme(themeDir: string | undefined, log: FastifyBaseLogger, watch: boolean): Theme {
  const dir = resolve(themeDir ?? DEFAULT_THEME_DIR);
  const dev = isDevTemplate(dir);
  const base = new Theme(dev ? DEFAULT_THEME_DIR : dir, log, watch);
  const initial = dev ? new DevTemplate(dir, log, base, watch) : null;
  const registry: Registry = { base, initial, root: dirname(dir), log, watch, loaded: new Map() };
  if (initial) registry.loaded.set(initial.folderName, initial);
  registries.set(base, registry);
  base.select(initial);
  const close = base.close.bind(base);
  base.close = () => {
    close();
    for (const t of registry.loaded.values()) t.close();
  };
  return base;
}

function registryOf(theme: Theme): Registry {
  let r = registries.get(theme);
  if (!r) {
    r = {
      base: theme,
      initial: null,
      root: dirname(theme.dir),
      log: console as unknown as FastifyBaseLogger,
      watch: false,
      loaded: new Map(),
    };
    registries.set(theme, r);
  }
  return r;
}

/** The developer template folders beside THEME_DIR (and THEME_DIR itself when it is one), by folder name. */
export function availableTemplates(theme: Theme): string[] {
  const r = registryOf(theme);
  const names = new Set<string>(r.initial ? [r.initial.folderName] : []);
  try {
    for (const n of readdirSync(r.root)) if (FOLDER_NAME.test(n) && isDevTemplate(join(r.root, n))) names.add(n);
  } catch {
    /* no readable themes folder: only THEME_DIR */
  }
  return [...names].sort();
}

export function templateNamed(theme: Theme, name: string): DevTemplate | null {
  const r = registryOf(theme);
  if (!FOLDER_NAME.test(name)) return null;
  const hit = r.loaded.get(name);
  if (hit) return hit;
  const dir = join(r.root, name);
  if (!isDevTemplate(dir)) return null;
  const t = new DevTemplate(dir, r.log, r.base, r.watch);
  r.loaded.set(name, t);
  return t;
}

/** The developer template a site renders with, or null for Tessera's own theme. */
export function templateFor(theme: Theme, site: WebsiteRow): DevTemplate | null {
  const r = registryOf(theme);
  const chosen = (site.settings as Record<string, unknown>)[THEME_SETTING];
  if (chosen === TESSERA_THEME) return null;
  if (typeof chosen === 'string' && chosen) return templateNamed(theme, chosen) ?? r.initial;
  return r.initial;
}

function tweakValues(site: WebsiteRow, t: DevTemplate): Record<string, string> {
  const all = ((site.settings as Record<string, unknown>)[TWEAKS_SETTING] ?? {}) as Record<string, Record<string, string>>;
  return all[t.folderName] ?? {};
}

/**
 * Sends a file of the template's folder `sub` (assets, scripts) named by a request path, or answers 404.
 * Never outside the template's real folder, whatever links it holds (files-inside.ts).
 */
function sendFile(reply: FastifyReply, t: DevTemplate, sub: string, rel: string) {
  return sendInside(reply, t.dir, `${sub}/${rel}`, folderFileType(rel), 3600);
}

const stateIn = z.object({
  theme: z.string({ error: 'Choose a theme.' }).trim().min(1, 'Choose a theme.').max(100).optional(),
  tweaks: z.record(z.string().max(100), z.union([z.string().max(200), z.boolean(), z.number()])).optional(),
});
const layoutIn = z.object({
  collectionId: z.string({ error: 'Choose a page.' }).trim().min(1, 'Choose a page.').max(64),
  layout: z.string({ error: 'Choose a layout.' }).trim().min(1, 'Choose a layout.').max(100),
});
const blockFieldIn = z.object({
  field: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,80}$/, 'Choose a block field.'),
  page: z
    .string()
    .trim()
    .regex(/^(\*|(item|collection|page)-[A-Za-z0-9_-]{1,64})$/, 'Choose a page.'),
  html: z.string({ error: 'Enter the content.' }).max(100_000, 'The content is too long.'),
});

/**
 * The preHandler (app.ts, before any route) that makes every page render with the site's chosen theme.
 * One site per install, so the choice is process-wide; it is read from the site row (cached) per request.
 */
export function siteThemeHook(app: FastifyInstance) {
  return async (req: { url: string }) => {
    const path = req.url;
    if (
      path.startsWith('/api/') ||
      path.startsWith('/theme/') ||
      path.startsWith('/demo-media/') ||
      path.startsWith('/health') ||
      path.startsWith('/metrics')
    )
      return;
    try {
      app.services.theme.select(templateFor(app.services.theme, await app.services.websites.get()));
    } catch {
      /* no website yet (before seeding): the theme stays as it is */
    }
  };
}

export async function themesArea(app: FastifyInstance) {
  const theme = app.services.theme;
  const websites = app.services.websites;

  async function active(): Promise<{ site: WebsiteRow; t: DevTemplate | null }> {
    const site = await websites.get();
    return { site, t: templateFor(theme, site) };
  }

  app.get('/site.css', async (_req, reply) => {
    const { site, t } = await active();
    if (!t) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    const { css } = t.css(tweakValues(site, t));
    return reply.headers(FOLDER_FILE_HEADERS).type('text/css; charset=utf-8').header('cache-control', 'public, max-age=300').send(css);
  });

  app.get('/scripts/*', async (req, reply) => {
    const { t } = await active();
    if (!t) return reply.callNotFound();
    return sendFile(reply, t, 'scripts', (req.params as { '*': string })['*']);
  });

  // /assets/ also holds the client bundle's files (registered one by one in app.ts); the rest are the template's.
  app.get('/assets/*', async (req, reply) => {
    const { t } = await active();
    if (!t) return reply.callNotFound();
    return sendFile(reply, t, 'assets', (req.params as { '*': string })['*']);
  });

  app.get('/tessera/image-loader.js', async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(IMAGE_LOADER_JS),
  );

  const owner = { preHandler: app.requireOwner(can('themes', 'write')) };
  const ownerRead = { preHandler: app.requireOwner(can('themes', 'read')) };

  const state = async () => {
    const { site, t } = await active();
    const values = t ? tweakValues(site, t) : {};
    return {
      theme: t ? t.folderName : TESSERA_THEME,
      themes: [
        { id: TESSERA_THEME, name: 'Tessera (default)' },
        ...availableTemplates(theme).map((n) => ({ id: n, name: templateNamed(theme, n)?.conf.name ?? n })),
      ],
      tweaks: t ? t.tweaks.map((tw) => ({ ...tw, value: values[tw.name] ?? tw.default })) : [],
      layouts: t ? Object.entries(t.conf.layouts).map(([id, l]) => ({ id, name: l.name })) : [],
      blockFields: t ? [...t.tables.blockFields.values()].map((b) => ({ id: b.id, label: b.label, columns: b.columns })) : [],
      pages:
        t && Object.keys(t.conf.layouts).length > 1
          ? (await pagesOf(site.id)).map((c) => ({ id: c.id, title: c.title, layout: t.layoutOf({ collection: c.settings }) }))
          : [],
    };
  };

  const pagesOf = async (websiteId: string) =>
    (
      await app.database.db
        .select()
        .from(schema.collections)
        .where(eq(schema.collections.websiteId, websiteId))
        .orderBy(asc(schema.collections.ordering))
    ).filter((c) => c.enabled);

  /** The layout one page uses (template.conf's layouts; the owner's choice per page, kept in the collection's settings). */
  app.put('/api/themes/layout', owner, async (req) => {
    const body = parseInput(layoutIn, req.body);
    const { site, t } = await active();
    if (!t)
      throw new HttpError(400, 'Tessera’s own theme has no template layouts.', { layout: 'Tessera’s own theme has no template layouts.' });
    if (!t.conf.layouts[body.layout])
      throw new HttpError(400, 'Choose one of the template’s layouts.', { layout: 'Choose one of the template’s layouts.' });
    const c = (await pagesOf(site.id)).find((x) => x.id === body.collectionId);
    if (!c) throw new HttpError(400, 'Choose a page.', { collectionId: 'Choose a page.' });
    await app.database.db
      .update(schema.collections)
      .set({ settings: { ...c.settings, templateLayout: body.layout }, version: c.version + 1, updatedAt: new Date() })
      .where(eq(schema.collections.id, c.id));
    return state();
  });

  app.get('/api/themes', ownerRead, async () => state());

  app.put('/api/themes', owner, async (req) => {
    const body = parseInput(stateIn, req.body);
    const site = await websites.get();
    const settings = site.settings as Record<string, unknown>;
    const patch: Record<string, unknown> = {};
    let target = templateFor(theme, site);
    if (body.theme !== undefined) {
      if (body.theme === TESSERA_THEME) target = null;
      else {
        target = availableTemplates(theme).includes(body.theme) ? templateNamed(theme, body.theme) : null;
        if (!target) throw new HttpError(400, 'That theme is not installed.', { theme: 'That theme is not installed.' });
      }
      patch[THEME_SETTING] = target ? target.folderName : TESSERA_THEME;
    }
    if (body.tweaks && Object.keys(body.tweaks).length) {
      if (!target)
        throw new HttpError(400, 'Tessera’s own theme has no template tweaks.', { tweaks: 'Tessera’s own theme has no template tweaks.' });
      const values: Record<string, string> = { ...tweakValues(site, target) };
      const errors: Record<string, string> = {};
      for (const [name, value] of Object.entries(body.tweaks)) {
        const tw = target.tweaks.find((x) => x.name === name);
        const error = tw ? tweakValueError(tw, value) : `${name} is not a tweak of this template.`;
        if (error) errors[`tweaks.${name}`] = error;
        else values[name] = String(value).trim();
      }
      const first = Object.values(errors)[0];
      if (first) throw new HttpError(400, first, errors);
      const all = { ...((settings[TWEAKS_SETTING] ?? {}) as Record<string, unknown>), [target.folderName]: values };
      patch[TWEAKS_SETTING] = all;
    }
    if (Object.keys(patch).length) await websites.updateSettings(site.id, patch);
    theme.select(target);
    return state();
  });

  /** A block field's content for one page ('*': every page without its own). */
  app.put('/api/themes/block-fields', owner, async (req) => {
    const body = parseInput(blockFieldIn, req.body);
    const site = await websites.get();
    const settings = site.settings as Record<string, unknown>;
    const all = { ...((settings[BLOCK_FIELDS_SETTING] ?? {}) as Record<string, Record<string, string>>) };
    all[body.field] = { ...(all[body.field] ?? {}), [body.page]: cleanBlockField(body.html) };
    await websites.updateSettings(site.id, { [BLOCK_FIELDS_SETTING]: all });
    return { field: body.field, page: body.page, html: all[body.field]![body.page] };
  });
}
