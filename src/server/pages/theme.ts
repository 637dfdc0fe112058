import '../cldr-packs.js';
import { readdirSync, readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { compile, render, type Compiled, type TemplateError, type WidgetRenderer } from '../../template/index.js';

export const DEFAULT_THEME_DIR = resolve('themes/default');

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

  constructor(
    readonly dir: string,
    private readonly log: FastifyBaseLogger,
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

  private load() {
    this.generation++;
    const templates = new Map<string, Loaded>();
    const partials: Record<string, string> = {};
    const walk = (d: string) => {
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        if (statSync(p).isDirectory()) {
          if (name !== 'assets') walk(p);
          continue;
        }
        const rel = relative(this.dir, p).split(sep).join('/');
        const source = readFileSync(p, 'utf8');
        if (rel.startsWith('blocks/')) {
          partials[rel.slice('blocks/'.length)] = source;
          continue;
        }
        const { code, errors } = compile(source);
        this.logErrors(rel, errors);
        templates.set(rel, { code, file: rel });
      }
    };
    walk(this.dir);
    this.templates = templates;
    this.partials = partials;
  }

  has(name: string): boolean {
    return this.templates.has(name);
  }

  private logErrors(file: string, errors: TemplateError[]) {
    for (const e of errors) this.log.error({ file, line: e.line, column: e.column, kind: e.type }, `template error in ${file}:${e.line}:${e.column}: ${e.message}`);
  }

  /** Renders one template; errors are logged with file, line and column, and what rendered is kept. */
  render(name: string, json: unknown, opts: { locale?: string; timeZone?: string; renderer?: WidgetRenderer; now?: number }): string {
    const t = this.templates.get(name);
    if (!t) throw new Error(`Theme template missing: ${name}`);
    try {
      const { output, errors } = render(t.code, json, { partials: this.partials, locale: opts.locale, timeZone: opts.timeZone, renderer: opts.renderer, now: opts.now });
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
