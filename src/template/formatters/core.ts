/** Core formatters: escaping, JSON, strings, lookups, partial application. */
import type { Context } from '../context';
import { runBlock } from '../engine';
import { Msg } from '../errors';
import type { FormatterFn, Inst } from '../types';
import { asNumber, asString, escapeAttr, escapeHtml, escapeJsonForHtml, isTruthy, path, splitVariable, step } from '../util';

const isWs = (c: number): boolean => c === 32 || c === 10 || c === 9 || c === 11 || c === 13 || c === 12;

/** Cut at the last whitespace before `max` and append the ellipsis. */
export function truncate(s: string, max: number, ellipsis = '...'): string {
  if (s.length <= max) return s;
  let end = max;
  for (let i = max - 1; i >= 0; i--) {
    if (isWs(s.charCodeAt(i))) {
      end = i + 1;
      break;
    }
  }
  return s.substring(0, end) + ellipsis;
}

/** Stripped forms of strings that had tags (pure, and the same bodies come back render after render). */
const stripCache = new Map<string, string>();

/** Remove `<...>` tags (each from a `<` to the next `>`), as `/<[^>]*?>/g` would. */
export function stripTags(s: string): string {
  const i = s.indexOf('<');
  if (i === -1) return s;
  if (s.length > 4096) return stripFrom(s, i);
  let hit = stripCache.get(s);
  if (hit === undefined) {
    hit = stripFrom(s, i);
    if (stripCache.size >= 2000) stripCache.clear();
    stripCache.set(s, hit);
  }
  return hit;
}

function stripFrom(s: string, first: number): string {
  let i = first;
  let out = '';
  let pos = 0;
  while (i !== -1) {
    const j = s.indexOf('>', i + 1);
    if (j === -1) break;
    out += s.substring(pos, i);
    pos = j + 1;
    i = s.indexOf('<', pos);
  }
  return pos === 0 ? s : out + s.substring(pos);
}

const slugCache = new Map<string, string>();
export function slugify(s: string): string {
  let hit = slugCache.get(s);
  if (hit === undefined) {
    hit = slugifyUncached(s);
    if (slugCache.size > 5000) slugCache.clear();
    slugCache.set(s, hit);
  }
  return hit;
}

function slugifyUncached(s: string): string {
  return s
    .replace(/[^a-zA-Z0-9\s-]+/g, '')
    .replace(/\s+/g, '-')
    .toLowerCase();
}

/** `{0}`-style positional substitution; malformed tags are dropped. */
export function formatPositional(pattern: string, values: unknown[]): string {
  let out = '';
  let idx = -1; // -1: text, >=0: reading an index, -2: skipping a bad tag
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (idx === -2) {
      if (ch === '}') idx = -1;
      continue;
    }
    if (idx >= 0) {
      const c = ch.charCodeAt(0);
      if (c >= 48 && c <= 57) idx = idx * 10 + (c - 48);
      else if (ch === '}') {
        if (idx < values.length) out += values[idx];
        idx = -1;
      } else idx = -2;
    } else if (ch === '{') idx = 0;
    else out += ch;
  }
  return out;
}

/** ASCII characters `escape()` keeps, by code. */
const URL_SAFE = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@*_+-./') URL_SAFE[ch.charCodeAt(0)] = 1;
const HEX = '0123456789ABCDEF';
const utf8 = new TextEncoder();

/** Percent-encode the UTF-8 bytes, keeping the characters `escape()` keeps. */
export function urlEncode(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 128) {
      out += URL_SAFE[c] === 1 ? s[i] : '%' + HEX[c >> 4] + HEX[c & 15];
      continue;
    }
    let cp = c;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        cp = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
        i++;
      }
    }
    for (const b of utf8.encode(String.fromCodePoint(cp))) out += '%' + b.toString(16).toUpperCase();
  }
  return out;
}

function findNth(items: unknown, keyPath: Array<string | number> | null, lookup: unknown, hasLookup: boolean, forward: boolean): unknown {
  if (!Array.isArray(items) || items.length === 0) return undefined;
  const n = items.length;
  for (let k = 0; k < n; k++) {
    const item = items[forward ? k : n - 1 - k];
    if (keyPath === null) return item;
    const candidate = hasLookup ? step(lookup, asString(item)) : item;
    if (isTruthy(path(candidate, keyPath))) return item;
  }
  return undefined;
}

function finder(forward: boolean): FormatterFn {
  return (v, args, ctx: Context) => {
    const hasLookup = args.length === 2;
    const lookup = hasLookup ? ctx.resolve(splitVariable(args[0])) : undefined;
    const keyPath = args.length >= 1 ? splitVariable(args[hasLookup ? 1 : 0]) : null;
    return findNth(v, keyPath, lookup, hasLookup, forward);
  };
}

/** Run a macro or partial against a value and return its output. */
export function applyPartial(
  ctx: Context,
  name: string,
  node: unknown,
  priv: boolean,
  argmap: Record<string, string> | null,
  inst: Inst,
): string {
  const code = ctx.getPartial(name);
  if (code === null) {
    ctx.error('engine', Msg.partialMissing(name), inst);
    return '';
  }
  if (!ctx.enterPartial(name, inst)) return '';
  const savedBuf = ctx.buf;
  const savedFrame = ctx.frame;
  ctx.buf = '';
  const f = ctx.push(node);
  f.stop = priv;
  if (argmap !== null) ctx.setVar('@args', argmap);
  try {
    runBlock(code.block, ctx);
    return ctx.buf;
  } finally {
    ctx.frame = savedFrame;
    ctx.buf = savedBuf;
    ctx.exitPartial();
  }
}

const SMARTY_SINGLE_OPEN = /(^|[-\u2014\\s(["])'/gm;
const SMARTY_DOUBLE_OPEN = /(^|[-\u2014/[(\u2018\s])"/gm;

export const CORE_FORMATTERS: Record<string, FormatterFn> = {
  apply: (v, args, ctx: Context, _vars, inst) => {
    if (args.length === 0) return '';
    let priv = false;
    let argmap: Record<string, string> | null = null;
    if (args.length > 1) {
      argmap = {};
      for (let i = 1; i < args.length; i++) {
        const a = args[i];
        if (a === 'private') {
          priv = true;
          continue;
        }
        const j = a.indexOf('=');
        if (j !== -1) argmap[a.slice(0, j)] = a.slice(j + 1);
      }
    }
    return applyPartial(ctx, args[0], v, priv, argmap, inst);
  },
  count: (v) => {
    if (v !== null && typeof v === 'object') return Array.isArray(v) ? v.length : Object.keys(v).length;
    return typeof v === 'string' ? v.length : 0;
  },
  cycle: (v, args) => {
    const count = args.length;
    let i = (asNumber(v) - 1) % count;
    if (i < 0) i += count;
    return args[i];
  },
  'encode-space': (v) => asString(v).replace(/\s/g, '&nbsp;'),
  'encode-uri': (v) => encodeURI(asString(v)),
  'encode-uri-component': (v) => encodeURIComponent(asString(v)),
  'find-first': finder(true),
  'find-last': finder(false),
  format: (v, args, ctx: Context) => {
    const from = ctx.frame.parent ?? ctx.frame;
    const values = args.map((a) => {
      const r = ctx.resolve(splitVariable(a), from);
      return r === undefined || r === null ? '' : r;
    });
    return formatPositional(asString(v), values);
  },
  get: (v, args, ctx: Context) => {
    let tmp = v;
    for (const a of args) {
      const r = ctx.resolve(splitVariable(a));
      if (r === undefined) {
        tmp = undefined;
      } else {
        const p = Array.isArray(r) ? r : typeof r === 'number' ? [r] : [asString(r)];
        tmp = path(tmp, p);
      }
      if (tmp === undefined) break;
    }
    return tmp;
  },
  html: (v) => escapeHtml(asString(v)),
  htmlattr: (v) => escapeAttr(asString(v)),
  htmltag: (v) => escapeAttr(asString(v)),
  iter: (_v, _args, ctx: Context) => asString(ctx.lookup('@index')),
  json: (v) => (v === undefined ? '' : escapeJsonForHtml(JSON.stringify(v))),
  'json-pretty': (v) => (v === undefined ? '' : escapeJsonForHtml(JSON.stringify(v, undefined, '  '))),
  'key-by': (v, args) => {
    const out: Record<string, unknown> = {};
    const p = args[0];
    if (Array.isArray(v) && p) {
      const keyPath = splitVariable(p);
      for (const item of v) {
        const k = path(item, keyPath);
        if (k !== undefined) out[String(k)] = item;
      }
    }
    return out;
  },
  'line-breaks': (v) => asString(v).replace(/\n/g, '<br/>'),
  lookup: (_v, args, ctx: Context) => {
    const key = args[0];
    if (!key) return '';
    const ref = ctx.resolve(splitVariable(key));
    return ctx.resolve(splitVariable(asString(ref)));
  },
  mod: (v, args) => {
    const n = asNumber(v);
    const d = parseInt(args[0], 10) || 2;
    return n % (d && isFinite(d) ? d : 2);
  },
  output: (_v, args) => args.join(' '),
  pluralize: (v, args) => {
    let singular = '';
    let plural = 's';
    if (args.length === 1) plural = args[0];
    else if (args.length >= 2) {
      singular = args[0];
      plural = args[1];
    }
    return asNumber(v) === 1 ? singular : plural;
  },
  prop: (v, args) => {
    let tmp = v;
    for (const a of args) {
      tmp = path(tmp, splitVariable(a));
      if (tmp === undefined) break;
    }
    return tmp;
  },
  raw: (v) => JSON.stringify(v === undefined ? null : v),
  round: (v) => Math.round(asNumber(v)),
  safe: (v) => {
    if (!isTruthy(v)) return v;
    return stripTags(asString(v));
  },
  slugify: (v) => slugify(asString(v)),
  smartypants: (v) =>
    asString(v)
      .replace(SMARTY_SINGLE_OPEN, '$1\u2018')
      .replace(/'/g, '\u2019')
      .replace(SMARTY_DOUBLE_OPEN, '$1\u201c')
      .replace(/"/g, '\u201d')
      .replace(/--/g, '\u2014'),
  str: (v) => (v !== null && typeof v === 'object' ? '' : asString(v)),
  truncate: (v, args) => {
    const limit = args.length ? parseInt(args[0], 10) : 100;
    const ellipsis = args.length > 1 ? args[1] : '...';
    if (isFinite(limit) && limit > 0) return truncate(asString(v), limit, ellipsis);
    return v;
  },
  'url-encode': (v) => urlEncode(asString(v)),
};
