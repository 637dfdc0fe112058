/**
 * Value helpers. Template values are plain JSON values; `undefined` stands for
 * a missing value (a path that does not resolve). No wrapper objects are
 * allocated while rendering.
 */

export const enum T {
  MISSING = 0,
  OBJECT = 1,
  ARRAY = 2,
  NUMBER = 3,
  STRING = 4,
  BOOLEAN = 5,
  NULL = 6,
}

export function typeOf(v: unknown): T {
  switch (typeof v) {
    case 'string':
      return T.STRING;
    case 'number':
      return T.NUMBER;
    case 'boolean':
      return T.BOOLEAN;
    case 'object':
      return v === null ? T.NULL : Array.isArray(v) ? T.ARRAY : T.OBJECT;
    default:
      return T.MISSING;
  }
}

/** Normalise anything a formatter produced: functions, symbols, bigints count as missing. */
export function norm(v: unknown): unknown {
  const t = typeof v;
  return t === 'function' || t === 'symbol' || t === 'bigint' ? undefined : v;
}

export function isTruthy(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
      return v !== '';
    case 'number':
      return v === v && v !== 0;
    case 'boolean':
      return v;
    case 'object':
      if (v === null) return false;
      if (Array.isArray(v)) return v.length !== 0;
      for (const k in v) if (Object.prototype.hasOwnProperty.call(v, k)) return true;
      return (v as object).constructor !== Object;
    default:
      return false;
  }
}

export function asString(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
    case 'boolean':
      return String(v);
    default:
      return '';
  }
}

export function asNumber(v: unknown): number {
  switch (typeof v) {
    case 'number':
      return v;
    case 'string':
      return v.indexOf('.') !== -1 ? parseFloat(v) : parseInt(v, 10);
    case 'boolean':
      return v ? 1 : 0;
    default:
      return 0;
  }
}

/** Jackson-style boolean conversion: only `true`, "true" and non-zero integers. */
export function asBoolean(v: unknown): boolean {
  switch (typeof v) {
    case 'boolean':
      return v;
    case 'string':
      return v === 'true';
    case 'number':
      return Number.isInteger(v) ? v !== 0 : false;
    default:
      return false;
  }
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Strict path step: own properties of objects, numeric indexes of arrays. */
export function step(v: unknown, key: string | number): unknown {
  if (v !== null && typeof v === 'object') {
    if (Array.isArray(v)) {
      return typeof key === 'number' ? norm(v[key]) : undefined;
    }
    return hasOwn.call(v, key) ? norm((v as Record<string, unknown>)[key]) : undefined;
  }
  return undefined;
}

/** Follow a path of keys from a value. */
export function path(v: unknown, keys: ReadonlyArray<string | number>): unknown {
  for (let i = 0; i < keys.length; i++) {
    v = step(v, keys[i]);
    if (v === undefined) return undefined;
  }
  return v;
}

/** Loose first-segment lookup, as the platform does (arrays expose `length`). */
export function getKey(v: unknown, key: string | number): unknown {
  if (v !== null && typeof v === 'object') {
    return norm((v as Record<string | number, unknown>)[key]);
  }
  return undefined;
}

const DIGITS = /^\d+$/;

const splitCache = new Map<string, Array<string | number>>();

/** Split `a.b.0` into ['a', 'b', 0]; results are cached (callers must not mutate them). */
export function splitVariable(name: string): Array<string | number> {
  let hit = splitCache.get(name);
  if (hit === undefined) {
    hit = splitUncached(name);
    if (splitCache.size > 10000) splitCache.clear();
    splitCache.set(name, hit);
  }
  return hit;
}

function splitUncached(name: string): Array<string | number> {
  const parts: Array<string | number> = name.split('.');
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] as string;
    if (DIGITS.test(p)) {
      const n = parseInt(p, 10);
      if (isFinite(n) && n <= 0x7fffffff) parts[i] = n;
    }
  }
  return parts;
}

export function deepEquals(a: unknown, b: unknown): boolean {
  // Primitives (the common case) compare directly; no cycle map is allocated.
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a === b;
  return deepVisit(a, b, new Map<object, object>());
}

function deepVisit(x: unknown, y: unknown, seen: Map<object, object>): boolean {
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return x === y;
  if (Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) return false;
  if (seen.has(x)) return seen.get(x) === y;
  seen.set(x, y);
  seen.set(y, x);
  if (Array.isArray(x)) {
    const ya = y as unknown[];
    if (x.length !== ya.length) return false;
    for (let i = 0; i < x.length; i++) if (!deepVisit(x[i], ya[i], seen)) return false;
    return true;
  }
  const xo = x as Record<string, unknown>;
  const yo = y as Record<string, unknown>;
  for (const k in xo) if (!deepVisit(xo[k], yo[k], seen)) return false;
  for (const k in yo) if (!deepVisit(xo[k], yo[k], seen)) return false;
  return true;
}

export function stringCompare(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** Compare `a` to `b`, converting `b` to the type of `a`. */
export function compare(a: unknown, b: unknown): number {
  switch (typeof a) {
    case 'number': {
      const n = asNumber(b);
      return a < n ? -1 : a === n ? 0 : 1;
    }
    case 'string':
      return stringCompare(a, asString(b));
    case 'boolean': {
      const n = asBoolean(b);
      return a === n ? 0 : a ? 1 : -1;
    }
    default:
      return deepEquals(a === undefined ? null : a, b === undefined ? null : b) ? 0 : -1;
  }
}

/** String for output: what the engine appends for a value. */
export function emitString(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
    case 'boolean':
      return '' + v;
    case 'object':
      if (Array.isArray(v)) {
        let s = '';
        for (let i = 0; i < v.length; i++) {
          if (i > 0) s += ',';
          s += v[i];
        }
        return s;
      }
      return '';
    default:
      return '';
  }
}

const RE_JSON_START = /^["\d[{]|^-\d|^(true|false|null)$/;
export const isJsonStart = (s: string): boolean => RE_JSON_START.test(s);

const RE_HTML_SPECIAL = /[&<>]/;
const RE_ATTR_SPECIAL = /[&<>"]/;

/**
 * Escaped forms of strings that needed escaping. Escaping is pure and the
 * same strings (titles, names) come back render after render; strings with
 * nothing to escape are returned as they are, uncached.
 */
const htmlCache = new Map<string, string>();
const attrCache = new Map<string, string>();
const ESCAPE_CACHE_MAX = 5000;
const ESCAPE_CACHE_MAX_LEN = 512;

function cached(cache: Map<string, string>, s: string, attr: boolean): string {
  if (s.length > ESCAPE_CACHE_MAX_LEN) return escapeScan(s, attr);
  let hit = cache.get(s);
  if (hit === undefined) {
    hit = escapeScan(s, attr);
    if (cache.size >= ESCAPE_CACHE_MAX) cache.clear();
    cache.set(s, hit);
  }
  return hit;
}

function escapeScan(s: string, attr: boolean): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let r: string;
    if (c === 38) r = '&amp;';
    else if (c === 60) r = '&lt;';
    else if (c === 62) r = '&gt;';
    else if (attr && c === 34) r = '&quot;';
    else continue;
    out += s.slice(last, i) + r;
    last = i + 1;
  }
  return out + s.slice(last);
}

export function escapeHtml(s: string): string {
  // One native regex scan (charCodeAt loops are slow on concatenated strings).
  return RE_HTML_SPECIAL.test(s) ? cached(htmlCache, s, false) : s;
}

export function escapeAttr(s: string): string {
  return RE_ATTR_SPECIAL.test(s) ? cached(attrCache, s, true) : s;
}

const JSON_HTML_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * JSON text that can sit anywhere in HTML, a script element included: '<', '>', '&', U+2028 and U+2029
 * become \u escapes (they occur only inside JSON strings, so the text stays the same JSON). A value such as
 * '<!--<script>' or '</script>' can then neither end the element nor change how the rest is parsed.
 */
export const escapeJsonForHtml = (s: string): string =>
  /[<>&\u2028\u2029]/.test(s) ? s.replace(/[<>&\u2028\u2029]/g, (c) => JSON_HTML_ESCAPES[c]!) : s;
