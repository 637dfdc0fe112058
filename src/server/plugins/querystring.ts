/**
 * The one query-string parser of the server (depth 5, array limit 20, parameter
 * limit 1000), for request query strings (Fastify's querystringParser) and url-encoded form bodies
 * (@fastify/formbody's parser).
 *
 * - `a=1` gives { a: '1' }; a repeated key gives an array (`a=1&a=2` -> { a: ['1', '2'] }).
 * - Brackets nest: `a[b][c]=x` -> { a: { b: { c: 'x' } } }, down to QUERY_PARSER_DEPTH levels; whatever
 *   brackets remain past that depth stay together as one literal key (`a[1][2][3][4][5][6][7]` keeps
 *   `[6][7]` as the sixth key).
 * - `a[]=x` appends, `a[3]=x` sets index 3, as long as the array stays within QUERY_PARSER_ARRAY_LIMIT
 *   entries (an index up to the limit); past it the array becomes an object keyed by index, so a visitor
 *   cannot make the server build a huge sparse array.
 * - Only the first QUERY_PARSER_PARAMETER_LIMIT parameters are read; the rest are ignored.
 * - `__proto__`, `constructor` and `prototype` keys are dropped; results are null-prototype objects
 *   turned into plain ones at the end.
 *
 * Linear in the input: no regular expression runs over visitor input (the brackets are scanned by hand).
 */
import { QUERY_PARSER_ARRAY_LIMIT, QUERY_PARSER_DEPTH, QUERY_PARSER_PARAMETER_LIMIT } from '../../core/constants.js';

type Value = string | Value[] | { [k: string]: Value };

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

function decode(s: string): string {
  const plus = s.includes('+') ? s.replace(/\+/g, ' ') : s;
  if (!plus.includes('%')) return plus;
  try {
    return decodeURIComponent(plus);
  } catch {
    return plus;
  }
}

/** The key path of a raw key: `a[b][]` -> ['a', 'b', '']; brackets past the depth stay one key. */
export function keyPath(raw: string, depth = QUERY_PARSER_DEPTH): string[] {
  const open = raw.indexOf('[');
  if (open <= 0) return [raw];
  const path = [raw.slice(0, open)];
  let i = open;
  while (i < raw.length && raw[i] === '[') {
    const close = raw.indexOf(']', i + 1);
    if (close < 0) break;
    if (path.length > depth) {
      path.push(raw.slice(i));
      return path;
    }
    path.push(raw.slice(i + 1, close));
    i = close + 1;
  }
  if (i < raw.length) {
    // Text after the brackets that is not a bracket (`a[b]c`, `a[b`): the rest is one literal key.
    path.push(raw.slice(i));
  }
  return path;
}

const isIndex = (k: string) => k.length > 0 && k.length <= 10 && /^\d+$/.test(k);

function toObject(arr: Value[]): { [k: string]: Value } {
  const o: { [k: string]: Value } = Object.create(null) as { [k: string]: Value };
  arr.forEach((v, i) => {
    if (v !== undefined) o[String(i)] = v;
  });
  return o;
}

/** Sets a value at a path below a container, following the array rules. */
function assign(container: { [k: string]: Value } | Value[], path: string[], value: string): { [k: string]: Value } | Value[] {
  const [key, ...rest] = path;
  if (key === undefined) return container;
  if (FORBIDDEN.has(key)) return container;
  let target = container;
  if (Array.isArray(target)) {
    if (key === '' && target.length < QUERY_PARSER_ARRAY_LIMIT) {
      target.push(rest.length ? (assignNew(rest, value) as Value) : value);
      return target;
    }
    if (isIndex(key) && Number(key) <= QUERY_PARSER_ARRAY_LIMIT) {
      const idx = Number(key);
      const existing = target[idx];
      target[idx] = rest.length ? (assignInto(existing, rest, value) as Value) : merge(existing, value);
      return target;
    }
    target = toObject(target);
  }
  const obj = target;
  const k = key === '' ? String(Object.keys(obj).length) : key;
  obj[k] = rest.length ? (assignInto(obj[k], rest, value) as Value) : merge(obj[k], value);
  return obj;
}

/** A fresh container for the next key of a path: an array for `[]` or a small index, else an object. */
function assignNew(path: string[], value: string): Value {
  const first = path[0]!;
  const start: { [k: string]: Value } | Value[] =
    first === '' || (isIndex(first) && Number(first) <= QUERY_PARSER_ARRAY_LIMIT) ? [] : (Object.create(null) as { [k: string]: Value });
  return assign(start, path, value) as Value;
}

function assignInto(existing: Value | undefined, path: string[], value: string): Value {
  if (existing === undefined) return assignNew(path, value);
  if (typeof existing === 'string') {
    // `a=1&a[b]=2`: the plain value keeps index 0 beside the nested keys.
    const o = Object.create(null) as { [k: string]: Value };
    o['0'] = existing;
    return assign(o, path, value) as Value;
  }
  return assign(existing, path, value) as Value;
}

/** A repeated plain key: the values gather into an array (up to the array limit, then an object). */
function merge(existing: Value | undefined, value: string): Value {
  if (existing === undefined) return value;
  if (Array.isArray(existing)) {
    if (existing.length < QUERY_PARSER_ARRAY_LIMIT) {
      existing.push(value);
      return existing;
    }
    const o = toObject(existing);
    o[String(existing.length)] = value;
    return o;
  }
  if (typeof existing === 'string') return [existing, value];
  const n = Object.keys(existing).length;
  existing[String(n)] = value;
  return existing;
}

function plain(v: Value): Value {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.filter((x) => x !== undefined).map(plain);
  const out: { [k: string]: Value } = {};
  for (const [k, x] of Object.entries(v)) out[k] = plain(x);
  return out;
}

/** Parses a query string (without its leading `?`) by the rules above. */
export function parseQueryString(input: string): Record<string, unknown> {
  const root = Object.create(null) as { [k: string]: Value };
  let start = 0;
  let count = 0;
  while (start <= input.length && count < QUERY_PARSER_PARAMETER_LIMIT) {
    let end = input.indexOf('&', start);
    if (end < 0) end = input.length;
    const part = input.slice(start, end);
    start = end + 1;
    if (part === '') {
      if (end >= input.length) break;
      continue;
    }
    count++;
    const eq = part.indexOf('=');
    const rawKey = decode(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : decode(part.slice(eq + 1));
    if (rawKey === '') continue;
    assign(root, keyPath(rawKey), value);
    if (end >= input.length) break;
  }
  return plain(root) as Record<string, unknown>;
}
