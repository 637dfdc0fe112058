/**
 * The platform tags of Squarespace 7.0 developer templates (`<squarespace:…>`), rewritten into plain JSON-T
 * when a template file loads. Each tag becomes a variable or section over `tesseraPlatform`, a key the
 * context adapter (adapter.ts) fills for every page. Tags this platform does not know are removed, so no
 * page ever shows `<squarespace:` text.
 */

export interface QuerySpec {
  /** The key under tesseraPlatform.queries. */
  key: string;
  collection: string;
  limit: number;
  skip: number;
  category: string[];
  tag: string[];
  featured: boolean;
}

export interface TagTables {
  navigations: Set<string>;
  /** Block-field ids by their key under tesseraPlatform.blockFields. */
  blockFields: Map<string, { id: string; columns: number; label: string }>;
  queries: Map<string, QuerySpec>;
  scripts: Set<string>;
}

export function newTagTables(): TagTables {
  return { navigations: new Set(), blockFields: new Map(), queries: new Map(), scripts: new Set() };
}

/** The most results one query returns, and the most items it may skip (the platform's limits). */
export const QUERY_MAX_LIMIT = 100;
export const QUERY_MAX_SKIP = 10;

function attributes(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  // Attribute names and double-quoted values; the scan is linear (no nested quantifiers).
  const re = /([A-Za-z][A-Za-z0-9-]*)\s*=\s*"([^"]*)"/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(raw))) out[m[1]!] = m[2]!;
  return out;
}

/** A partial's name as the engine keys it: `navigation` and `navigation.block` both mean blocks/navigation.block. */
function blockName(template: string): string {
  const t = template.trim();
  return /\.block$/i.test(t) ? t : `${t}.block`;
}

/** Safe for a JSON-T formatter argument: the partial names the loader knows are plain file names. */
function safeName(s: string): boolean {
  return /^[A-Za-z0-9_.-]{1,100}$/.test(s);
}

function list(s: string | undefined): string[] {
  return (s ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
}

function int(s: string | undefined, def: number, max: number): number {
  const n = Number.parseInt(String(s ?? ''), 10);
  return Number.isFinite(n) ? Math.max(0, Math.min(max, n)) : def;
}

/**
 * Rewrites the platform tags of one template source. `file` keeps query keys unique across the template.
 * Tag attributes are literal values (a JSON-T expression inside an attribute is not evaluated).
 */
export function rewriteTags(source: string, file: string, tables: TagTables): string {
  if (!source.includes('<squarespace:')) return source;
  let out = '';
  let from = 0;
  let n = 0;
  const open = /<squarespace:([a-z-]+)\b([^>]*)>/gi;
  let m: RegExpExecArray | null;
  while ((m = open.exec(source))) {
    const name = m[1]!.toLowerCase();
    let raw = m[2]!;
    const selfClosing = raw.trimEnd().endsWith('/');
    if (selfClosing) raw = raw.trimEnd().slice(0, -1);
    const attrs = attributes(raw);
    let body: string | null = null;
    let end = m.index + m[0].length;
    if (!selfClosing) {
      const close = source.toLowerCase().indexOf(`</squarespace:${name}>`, end);
      if (close >= 0) {
        body = source.slice(end, close);
        end = close + `</squarespace:${name}>`.length;
      }
    }
    out += source.slice(from, m.index);
    from = end;
    open.lastIndex = end;
    const template = attrs.template && safeName(blockName(attrs.template)) ? blockName(attrs.template) : null;
    switch (name) {
      case 'navigation': {
        const id = attrs.navigationId ?? attrs.navigationid ?? '';
        if (!/^[A-Za-z][A-Za-z0-9_-]{0,60}$/.test(id) || !template) break;
        tables.navigations.add(id);
        out += `{.section tesseraPlatform.navigations.${id}}{@|apply ${template}}{.end}`;
        break;
      }
      case 'folder-navigation':
        if (template) out += `{.section tesseraPlatform.folderNavigation}{@|apply ${template}}{.end}`;
        break;
      case 'block-field': {
        const id = attrs.id ?? '';
        if (!/^[A-Za-z0-9_-]{1,80}$/.test(id)) break;
        let key = [...tables.blockFields].find(([, b]) => b.id === id)?.[0];
        if (!key) {
          key = `f${tables.blockFields.size + 1}`;
          tables.blockFields.set(key, { id, columns: int(attrs.columns, 12, 24) || 12, label: attrs.label ?? id });
        }
        out += `{tesseraPlatform.blockFields.${key}}`;
        break;
      }
      case 'query': {
        const collection = (attrs.collection ?? '').trim();
        if (!/^[A-Za-z0-9_-]{1,100}$/.test(collection)) break;
        const key = `q${file.replace(/[^A-Za-z0-9]/g, '')}${n++}`;
        tables.queries.set(key, {
          key,
          collection,
          limit: int(attrs.limit, QUERY_MAX_LIMIT, QUERY_MAX_LIMIT) || QUERY_MAX_LIMIT,
          skip: int(attrs.skip, 0, QUERY_MAX_SKIP),
          category: list(attrs.category),
          tag: list(attrs.tag),
          featured: attrs.featured === 'true',
        });
        out += `{.section tesseraPlatform.queries.${key}}${body ?? ''}{.end}`;
        break;
      }
      case 'script': {
        const src = (attrs.src ?? '').trim();
        if (!/^[A-Za-z0-9_./-]{1,200}$/.test(src) || src.includes('..')) break;
        tables.scripts.add(src);
        out += `<script src="/scripts/${src}" nonce="{tesseraPlatform.nonce}" defer></script>`;
        break;
      }
      case 'category':
        if (body !== null) out += `{.section tesseraPlatform.category}${body}{.end}`;
        else if (template) out += `{.section tesseraPlatform.category}{@|apply ${template}}{.end}`;
        break;
      default:
        // Unknown platform tags render nothing.
        break;
    }
  }
  return out + source.slice(from);
}
