import '../cldr-packs.js';
import { watch, type FSWatcher } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { schema } from '../../db/index.js';
import { readInside, walkInside } from '../files-inside.js';
import { compile, render, type Compiled, type TemplateError, type WidgetRenderer } from '../../template/index.js';

export const DEFAULT_THEME_DIR = resolve('themes/default');

/** What a page offers a theme that reads more data before it renders (developer templates, server/themes). */
export interface PlatformInput {
  app: FastifyInstance;
  req: FastifyRequest;
  site: typeof schema.websites.$inferSelect;
  /** The page's context as built so far. */
  context: Record<string, unknown>;
  /** The page's template (collections/blog.list, system/cart.html, ...). */
  template: string;
}

interface Loaded {
  code: Compiled;
  file: string;
}

/**
 * An owner-editable theme folder: `site.region` (layout), templates under `collections/` and `system/`,
 * partials under `blocks/` (name -> source), static files under `assets/`.
 * Templates are compiled once; in development a change to any file reloads the theme.
 */
export class Theme {
  private templates = new Map<string, Loaded>();
  partials: Record<string, string> = {};
  private watcher: FSWatcher | null = null;
  /** Goes up with every (re)load of the folder: pages rendered before a reload are out of date. */
  generation = 0;
  /** A developer template the site is switched to (server/themes): pages render through it. */
  private override: Theme | null = null;

  constructor(
    readonly dir: string,
    protected readonly log: FastifyBaseLogger,
    watchForChanges = false,
  ) {
    this.load();
    if (watchForChanges) {
      try {
        this.watcher = watch(dir, { recursive: true }, () => this.load());
      } catch {
        this.log.warn({ dir }, 'theme folder cannot be watched; changes need a restart');
      }
    }
  }

  get assetsDir(): string {
    return join(this.dir, 'assets');
  }

  /** Pages render through `other` from now on (null: this folder again); a change dates every rendered page. */
  select(other: Theme | null) {
    if (other === this || other === this.override) return;
    this.override = other;
    this.generation++;
  }

  /** The theme pages render through now. */
  get active(): Theme {
    return this.override ?? this;
  }

  /** Data the active theme reads before a page renders, merged into the page's context (none for Tessera's own format). */
  async platformData(input: PlatformInput): Promise<Record<string, unknown> | null> {
    return this.override ? this.override.platformData(input) : null;
  }

  protected load() {
    this.generation++;
    const templates = new Map<string, Loaded>();
    const partials: Record<string, string> = {};
    // Through files-inside.ts: a link in the folder never makes a template of a file outside it.
    for (const rel of walkInside(this.dir, (path) => path === 'assets' || path.endsWith('/assets'))) {
      const source = readInside(this.dir, rel);
      if (source === null) continue;
      if (rel.startsWith('blocks/')) {
        partials[rel.slice('blocks/'.length)] = source;
        continue;
      }
      const { code, errors } = compile(source);
      this.logErrors(rel, errors);
      templates.set(rel, { code, file: rel });
    }
    this.templates = templates;
    this.partials = partials;
  }

  has(name: string): boolean {
    if (this.override) return this.override.has(name);
    return this.ownHas(name);
  }

  /** Whether this folder itself has the template (whatever the site is switched to). */
  ownHas(name: string): boolean {
    return this.templates.has(name);
  }

  private logErrors(file: string, errors: TemplateError[]) {
    for (const e of errors)
      this.log.error(
        { file, line: e.line, column: e.column, kind: e.type },
        `template error in ${file}:${e.line}:${e.column}: ${e.message}`,
      );
  }

  /** Renders one template; errors are logged with file, line and column, and what rendered is kept. */
  render(name: string, json: unknown, opts: { locale?: string; timeZone?: string; renderer?: WidgetRenderer; now?: number }): string {
    if (this.override) return this.override.render(name, json, opts);
    return this.ownRender(name, json, opts);
  }

  /** Renders one template of this folder itself (whatever the site is switched to). */
  ownRender(name: string, json: unknown, opts: { locale?: string; timeZone?: string; renderer?: WidgetRenderer; now?: number }): string {
    const t = this.templates.get(name);
    if (!t) throw new Error(`Theme template missing: ${name}`);
    try {
      const { output, errors } = render(t.code, json, {
        partials: this.partials,
        locale: opts.locale,
        timeZone: opts.timeZone,
        renderer: opts.renderer,
        now: opts.now,
      });
      this.logErrors(name, errors);
      return output;
    } catch (err) {
      // The engine reports template mistakes as errors; anything thrown is a bug, and the page still renders without this part.
      this.log.error({ file: name, err }, `template failed in ${name}: ${(err as Error).message}`);
      return '';
    }
  }

  close() {
    this.watcher?.close();
  }
}
