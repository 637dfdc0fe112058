/**
 * A developer template's stylesheets: the files template.conf lists (styles/), concatenated in order with
 * their `@import`s inlined, compiled by Squarespace's own LESS compiler (@squarespace/less-ts: the
 * platform's LESS dialect, synchronous). Tweaks are declared in the stylesheets as the platform does it:
 * a `// tweak: { … }` comment line directly above the LESS variable it controls, whose value is the default.
 * The owner's values are appended as later definitions of the same variables (the last one wins in LESS).
 */
import type { Tweak, TweakType } from '../../core/api/themes.js';
import { posix, sep } from 'node:path';
import { LessCompiler } from '@squarespace/less-ts';
import { folderInside, readInside, resolveInside } from '../files-inside.js';

export type { Tweak, TweakType };

const TWEAK_TYPES: readonly TweakType[] = ['color', 'font', 'dropdown', 'checkbox', 'value'];
const MAX_IMPORT_DEPTH = 10;

/**
 * Reads a stylesheet of the template folder `root` (its name relative to styles/) with its `@import "file";`
 * lines replaced by the files (relative to styles/ too). Only files inside styles/ of the template's real
 * folder are read (files-inside.ts): an import of a link that leads out of it is left out.
 */
function inlineImports(root: string, file: string, depth: number, seen: Set<string>): string {
  const rel = posix.normalize(`styles/${file.replace(/\\/g, '/')}`);
  if (!rel.startsWith('styles/') || depth > MAX_IMPORT_DEPTH) return '';
  const real = resolveInside(root, rel);
  const styles = folderInside(root, 'styles');
  if (!real || !styles || !real.startsWith(styles + sep) || seen.has(real)) return '';
  seen.add(real);
  const source = readInside(root, rel) ?? '';
  return source.replace(/^[ \t]*@import\s+(?:url\()?["']([^"'()]{1,200})["']\)?[^;\n]*;[ \t]*$/gm, (line, name: string) => {
    if (/^(https?:)?\/\//i.test(name) || name.endsWith('.css')) return line;
    return inlineImports(root, name.endsWith('.less') ? name : `${name}.less`, depth + 1, seen);
  });
}

/** The concatenated LESS source of the listed stylesheets (names relative to the template's styles/). */
export function stylesheetSource(root: string, files: string[]): string {
  const seen = new Set<string>();
  return files.map((f) => inlineImports(root, f, 0, seen)).join('\n');
}

/** The tweaks declared in a LESS source, in order. */
export function parseTweaks(source: string): Tweak[] {
  const out: Tweak[] = [];
  const lines = source.split('\n');
  for (let i = 0; i < lines.length - 1; i++) {
    const m = /^\s*\/\/\s*tweak\s*:\s*(\{.*\})\s*$/.exec(lines[i]!);
    if (!m) continue;
    const v = /^\s*@([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*?);?\s*(\/\/.*)?$/.exec(lines[i + 1]!);
    if (!v) continue;
    let def: Record<string, unknown>;
    try {
      def = JSON.parse(m[1]!) as Record<string, unknown>;
    } catch {
      continue;
    }
    const type = String(def.type ?? '').toLowerCase() as TweakType;
    if (!TWEAK_TYPES.includes(type)) continue;
    const num = (k: string) => (typeof def[k] === 'number' && Number.isFinite(def[k]) ? (def[k] as number) : null);
    const raw = v[2]!.trim();
    out.push({
      name: v[1]!,
      type,
      title: typeof def.title === 'string' ? def.title : v[1]!,
      category: typeof def.category === 'string' ? def.category : '',
      default: raw.replace(/^"(.*)"$/, '$1'),
      options: Array.isArray(def.options) ? def.options.filter((o): o is string => typeof o === 'string') : [],
      min: num('min'),
      max: num('max'),
      step: num('step'),
      unit:
        typeof def.units === 'string'
          ? def.units
          : typeof def.unit === 'string'
            ? def.unit
            : type === 'value'
              ? (/^-?[\d.]+([a-z%]+)$/i.exec(raw)?.[1] ?? '')
              : '',
    });
  }
  return out;
}

/** The message for a tweak value the owner cannot use, or null when it is fine. */
export function tweakValueError(t: Tweak, value: unknown): string | null {
  const s = typeof value === 'string' ? value.trim() : typeof value === 'boolean' || typeof value === 'number' ? String(value) : null;
  if (s === null || s.length > 200) return `Enter a value for ${t.title}.`;
  switch (t.type) {
    case 'color':
      return /^(#[0-9a-f]{3,8}|rgba?\(\s*[\d.\s,%]+\)|hsla?\(\s*[\d.\s,%deg]+\)|transparent)$/i.test(s)
        ? null
        : `Choose a colour for ${t.title}.`;
    case 'checkbox':
      return s === 'true' || s === 'false' ? null : `Choose on or off for ${t.title}.`;
    case 'dropdown':
      return t.options.includes(s) ? null : `Choose one of the options for ${t.title}.`;
    case 'value': {
      const m = /^(-?\d+(?:\.\d+)?)([a-z%]*)$/i.exec(s);
      if (!m) return `Enter a number for ${t.title}.`;
      const n = Number(m[1]);
      if ((t.min !== null && n < t.min) || (t.max !== null && n > t.max))
        return `${t.title} must be between ${t.min ?? '…'} and ${t.max ?? '…'}.`;
      return null;
    }
    case 'font':
      return /^[A-Za-z0-9 ,.'"/%-]+$/.test(s) ? null : `Enter a font for ${t.title}.`;
  }
}

/** A tweak's value as LESS source. */
function lessValue(t: Tweak, value: string): string {
  if (t.type === 'dropdown') return `"${value}"`;
  if (t.type === 'value' && /^-?\d+(\.\d+)?$/.test(value) && t.unit) return `${value}${t.unit}`;
  return value;
}

function kebab(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}

/** Body classes of dropdown and checkbox tweaks: `tweak-{name}-{option}` and `tweak-{name}` when on. */
export function tweakClasses(tweaks: Tweak[], values: Record<string, string>): string[] {
  const out: string[] = [];
  for (const t of tweaks) {
    const v = values[t.name] ?? t.default;
    if (t.type === 'checkbox' && v === 'true') out.push(`tweak-${kebab(t.name)}`);
    if (t.type === 'dropdown' && v) out.push(`tweak-${kebab(t.name)}-${kebab(v)}`);
  }
  return out;
}

export interface CompiledCss {
  css: string;
  errors: string[];
}

/** Compiles the source with the owner's tweak values (only valid ones are applied). */
export function compileLess(source: string, tweaks: Tweak[], values: Record<string, string>): CompiledCss {
  const overrides = tweaks
    .filter((t) => values[t.name] !== undefined && tweakValueError(t, values[t.name]) === null)
    .map((t) => `@${t.name}: ${lessValue(t, String(values[t.name]).trim())};`)
    .join('\n');
  const compiler = new LessCompiler({ compress: false, indentSize: 2 });
  try {
    const r = compiler.compile(overrides ? `${source}\n${overrides}\n` : source);
    return { css: r.css, errors: compiler.formatErrors(r.errors) };
  } catch (err) {
    return { css: '', errors: [(err as Error).message] };
  }
}
