/**
 * A Squarespace 7.0 developer-mode template folder, recognised by its template.conf, rendered by Tessera's
 * JSON-T engine with the platform layer around it: layouts made of regions, named navigations, the ordered
 * stylesheets (styles.ts), collections/*.conf with their .list and .item templates, blocks, scripts,
 * strings, and the `<squarespace:…>` tags (tags.ts). Page types the template has no file for (system pages,
 * a missing .list or .item) render with Tessera's own theme (`fallback`), never a 500.
 */
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { filesInside, readInside, resolveInside, walkInside } from '../files-inside.js';
import type { FastifyBaseLogger } from 'fastify';
import { compile, render, type Compiled, type TemplateError, type WidgetRenderer } from '../../template/index.js';
import { Theme, type PlatformInput } from '../site-page/index.js';
import { PageLayoutName } from '../../core/enums.js';
import { newTagTables, rewriteTags, type TagTables } from './tags.js';
import { compileLess, parseTweaks, stylesheetSource, tweakClasses, type CompiledCss, type Tweak } from './styles.js';
import { adaptContext, platformData, type PlatformParts } from './adapter.js';

export const TEMPLATE_CONF = 'template.conf';
/** Marks main content rendered by Tessera's own template, so the layout also links Tessera's stylesheet. */
export const FALLBACK_MARK = '<!--tessera-fallback-->';

export interface TemplateConf {
  name: string;
  author: string;
  layouts: Record<string, { name: string; regions: string[] }>;
  navigations: Array<{ title: string; name: string }>;
  stylesheets: string[];
  systemCollections: string[];
}

export interface CollectionConf {
  title: string;
  ordering: string;
  folder: boolean;
  index: boolean;
  addText: string;
  acceptTypes: string[];
  icon: string;
}

type Obj = Record<string, unknown>;

/** Whether a folder is a developer template (it has a template.conf). */
export function isDevTemplate(dir: string): boolean {
  return resolveInside(dir, TEMPLATE_CONF) !== null;
}

/** A JSON file of the template folder (never outside its real folder: files-inside.ts), or {}. */
function readJson(dir: string, rel: string): Obj {
  try {
    const v = JSON.parse(readInside(dir, rel) ?? '') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {};
  } catch {
    return {};
  }
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function parseTemplateConf(raw: Obj): TemplateConf {
  const layouts: TemplateConf['layouts'] = {};
  const rawLayouts = raw.layouts && typeof raw.layouts === 'object' ? (raw.layouts as Record<string, Obj>) : {};
  for (const [key, l] of Object.entries(rawLayouts)) {
    const regions = strings(l?.regions).map((r) => r.replace(/\.region$/, ''));
    if (regions.length) layouts[key] = { name: typeof l.name === 'string' ? l.name : key, regions };
  }
  if (!layouts.default) layouts.default = Object.values(layouts)[0] ?? { name: 'Default', regions: ['site'] };
  const navigations = (Array.isArray(raw.navigations) ? (raw.navigations as Obj[]) : [])
    .filter((n) => n && typeof n.name === 'string')
    .map((n) => ({ name: String(n.name), title: typeof n.title === 'string' ? n.title : String(n.name) }));
  return {
    name: typeof raw.name === 'string' ? raw.name : 'Developer template',
    author: typeof raw.author === 'string' ? raw.author : '',
    layouts,
    navigations,
    stylesheets: strings(raw.stylesheets),
    systemCollections: strings(raw.systemCollections),
  };
}

function parseCollectionConf(raw: Obj): CollectionConf {
  return {
    title: typeof raw.title === 'string' ? raw.title : '',
    ordering: typeof raw.ordering === 'string' ? raw.ordering : '',
    folder: raw.folder === true,
    index: raw.index === true,
    addText: typeof raw.addText === 'string' ? raw.addText : '',
    acceptTypes: strings(raw.acceptTypes),
    icon: typeof raw.icon === 'string' ? raw.icon : '',
  };
}

/** Tessera's collection type names and the record types a collection .conf may accept for them. */
const TYPE_RECORDS: Record<string, string[]> = {
  blog: ['text'],
  events: ['event'],
  products: ['store-item'],
  gallery: ['image', 'gallery'],
  videos: ['video'],
  page: ['page'],
};

export class DevTemplate extends Theme {
  declare conf: TemplateConf;
  declare collectionConfs: Map<string, CollectionConf>;
  declare tables: TagTables;
  declare tweaks: Tweak[];
  declare lessSource: string;
  declare localizedStrings: Record<string, Obj>;
  declare private pages: Map<string, Compiled>;
  declare private layouts: Map<string, Compiled>;
  declare private devPartials: Record<string, string>;
  declare private cssCache: Map<string, CompiledCss>;
  declare fallback: Theme;

  constructor(dir: string, log: FastifyBaseLogger, fallback: Theme, watchForChanges = false) {
    super(dir, log, watchForChanges);
    this.fallback = fallback;
  }

  /** The folder's name (what the site setting stores). */
  get folderName(): string {
    return basename(this.dir);
  }

  protected override load() {
    this.generation++;
    const log = (file: string, errors: TemplateError[]) => {
      for (const e of errors)
        this.log.error(
          { file, line: e.line, column: e.column, kind: e.type },
          `template error in ${file}:${e.line}:${e.column}: ${e.message}`,
        );
    };
    // Every file is read through files-inside.ts: nothing outside the template's real folder, links or not.
    const dir = this.dir;
    const read = (rel: string) => readInside(dir, rel) ?? '';
    const conf = parseTemplateConf(readJson(dir, TEMPLATE_CONF));
    const tables = newTagTables();
    const pages = new Map<string, Compiled>();
    const partials: Record<string, string> = {};
    const collectionConfs = new Map<string, CollectionConf>();
    const regions = new Map<string, string>();
    const files = (sub: string) => filesInside(dir, sub);
    for (const name of filesInside(dir)) {
      if (name.endsWith('.region')) regions.set(name.slice(0, -'.region'.length), rewriteTags(read(name), name, tables));
    }
    for (const name of files('blocks'))
      if (name.endsWith('.block')) partials[name] = rewriteTags(read(`blocks/${name}`), `blocks/${name}`, tables);
    for (const name of files('collections')) {
      const rel = `collections/${name}`;
      if (name.endsWith('.conf')) collectionConfs.set(name.slice(0, -'.conf'.length), parseCollectionConf(readJson(dir, rel)));
      else if (name.endsWith('.list') || name.endsWith('.item')) {
        const { code, errors } = compile(rewriteTags(read(rel), rel, tables));
        log(rel, errors);
        pages.set(rel, code);
      }
    }
    for (const name of files('pages')) {
      if (!name.endsWith('.page')) continue;
      const rel = `pages/${name}`;
      const { code, errors } = compile(rewriteTags(read(rel), rel, tables));
      log(rel, errors);
      pages.set(rel, code);
    }
    const layouts = new Map<string, Compiled>();
    for (const [key, l] of Object.entries(conf.layouts)) {
      const missing = l.regions.filter((r) => !regions.has(r));
      if (missing.length)
        this.log.error({ file: TEMPLATE_CONF, layout: key }, `template.conf layout ${key} names missing regions: ${missing.join(', ')}`);
      const { code, errors } = compile(l.regions.map((r) => regions.get(r) ?? '').join('\n'));
      log(`${key} layout`, errors);
      layouts.set(key, code);
    }
    const localized: Record<string, Obj> = {};
    for (const name of files('strings'))
      if (name.endsWith('.json')) localized[name.slice(0, -'.json'.length)] = readJson(dir, `strings/${name}`);
    const source = stylesheetSource(
      dir,
      conf.stylesheets.length ? conf.stylesheets : files('styles').filter((f) => /\.(less|css)$/.test(f)),
    );
    this.conf = conf;
    this.tables = tables;
    this.pages = pages;
    this.layouts = layouts;
    this.devPartials = partials;
    this.collectionConfs = collectionConfs;
    this.localizedStrings = localized;
    this.lessSource = source;
    this.tweaks = parseTweaks(source);
    this.cssCache = new Map();
    // Compiled at load with the tweak defaults, so a stylesheet error shows in the log at startup.
    for (const e of this.css({}).errors) this.log.error({ file: 'styles' }, `stylesheet error: ${e}`);
  }

  /** The compiled site.css with the owner's tweak values (kept per set of values). */
  css(values: Record<string, string>): CompiledCss {
    const key = JSON.stringify(Object.entries(values).sort());
    let hit = this.cssCache.get(key);
    if (!hit) {
      hit = compileLess(this.lessSource, this.tweaks, values);
      if (this.cssCache.size > 50) this.cssCache.clear();
      this.cssCache.set(key, hit);
    }
    return hit;
  }

  /** A short version for /site.css links: changes with the folder and the tweak values. */
  cssVersion(values: Record<string, string>): string {
    return createHash('sha1')
      .update(`${this.generation}:${JSON.stringify(Object.entries(values).sort())}`)
      .digest('hex')
      .slice(0, 10);
  }

  bodyClasses(values: Record<string, string>): string[] {
    return tweakClasses(this.tweaks, values);
  }

  /** The template file that renders Tessera's template `name`, or null (Tessera's own renders it). */
  fileFor(name: string): string | null {
    // A static page of the folder's pages/ (the readme page, PageName.README): drawn by the template itself.
    if (name.startsWith('pages/')) return /^pages\/[a-z0-9-]{1,64}\.page$/.test(name) && this.pages.has(name) ? name : null;
    const m = /^collections\/([a-z-]+)\.(list|item)$/.exec(name);
    if (!m) return null;
    const [, type, kind] = m as unknown as [string, string, string];
    const direct = `collections/${type}.${kind}`;
    if (this.pages.has(direct)) return direct;
    if (type === 'folder') {
      for (const [file, c] of this.collectionConfs)
        if (c.folder && this.pages.has(`collections/${file}.${kind}`)) return `collections/${file}.${kind}`;
      return null;
    }
    const records = TYPE_RECORDS[type] ?? [];
    for (const [file, c] of this.collectionConfs) {
      if (c.folder) continue;
      if (c.acceptTypes.some((t) => records.includes(t)) && this.pages.has(`collections/${file}.${kind}`))
        return `collections/${file}.${kind}`;
    }
    return null;
  }

  override has(name: string): boolean {
    return name === 'site.region' || this.fileFor(name) !== null || this.fallback.ownHas(name);
  }

  override async platformData(input: PlatformInput): Promise<Obj> {
    return platformData(this, input);
  }

  override render(
    name: string,
    json: unknown,
    opts: { locale?: string; timeZone?: string; renderer?: WidgetRenderer; now?: number },
  ): string {
    const ctx = (json ?? {}) as Obj;
    if (name === 'site.region') return this.renderLayout(ctx, opts);
    const file = this.fileFor(name);
    if (!file) return FALLBACK_MARK + this.fallback.ownRender(name, json, opts);
    return this.run(file, this.pages.get(file)!, adaptContext(this, ctx, null), opts);
  }

  private run(
    file: string,
    code: Compiled,
    json: Obj,
    opts: { locale?: string; timeZone?: string; renderer?: WidgetRenderer; now?: number },
  ): string {
    try {
      const { output, errors } = render(code, json, {
        partials: this.devPartials,
        locale: opts.locale,
        timeZone: opts.timeZone,
        renderer: opts.renderer,
        now: opts.now,
      });
      for (const e of errors)
        this.log.error(
          { file, line: e.line, column: e.column, kind: e.type },
          `template error in ${file}:${e.line}:${e.column}: ${e.message}`,
        );
      return output;
    } catch (err) {
      this.log.error({ file, err }, `template failed in ${file}: ${(err as Error).message}`);
      return '';
    }
  }

  /**
   * The layout a page uses: a product detail page uses the template's product-page layout ('pdp') when
   * template.conf declares one; otherwise the owner's choice for the page, else `default`.
   */
  layoutOf(ctx: Obj): string {
    const c = (ctx.collection ?? {}) as Obj;
    if (ctx.item && c.typeName === 'products' && this.layouts.has(PageLayoutName.PRODUCT_PAGE)) return PageLayoutName.PRODUCT_PAGE;
    const chosen = typeof c.templateLayout === 'string' ? c.templateLayout : '';
    return this.layouts.has(chosen) ? chosen : PageLayoutName.DEFAULT;
  }

  private renderLayout(ctx: Obj, opts: { locale?: string; timeZone?: string; renderer?: WidgetRenderer; now?: number }): string {
    const layout = this.layoutOf(ctx);
    const parts: PlatformParts = { layout };
    return this.run(`${layout} layout`, this.layouts.get(layout)!, adaptContext(this, ctx, parts), opts);
  }

  /** Every template file of the folder by its path (for tests and the docs' file list): links out are left out. */
  files(): string[] {
    return walkInside(this.dir);
  }
}
