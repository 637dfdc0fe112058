/**
 * Date formatting through CLDR (@phensley/cldr): `datetime`, `datetime-interval`
 * and `relative-time`. Arguments are parsed once per compiled instruction; each
 * (locale, zone, options) keeps a bounded memo of instant -> text.
 */
import type {
  CalendarType,
  ContextType,
  DateFormatOptions,
  DateIntervalFormatOptions,
  FormatWidthType,
  RelativeTimeFormatOptions,
  TimePeriodField,
} from '@phensley/cldr';
import { cldrFor } from '../cldr';
import { parseNumberArgs } from './numbers';

const WIDTHS = new Set(['short', 'medium', 'long', 'full']);
const CALENDARS = new Set(['gregorian', 'gregory', 'japanese', 'buddhist', 'persian', 'iso8601']);
const CONTEXTS = new Set(['begin-sentence', 'middle-of-text', 'standalone', 'ui-list-or-menu']);
const FIELDS = new Set(['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second', 'millis']);

interface Parsed<T> {
  opts: T;
  key: string;
}

function split(a: string): [string, string] {
  const i = a.search(/[:=]/);
  return i === -1 ? [a, ''] : [a.slice(0, i), a.slice(i + 1)];
}

function calendar(v: string): CalendarType | undefined {
  if (!CALENDARS.has(v)) return undefined;
  return (v === 'gregorian' ? 'gregory' : v) as CalendarType;
}

/**
 * `datetime` arguments, `key:value` (or a bare word): `date:`, `time:` and
 * `datetime:` take a width (short, medium, long, full) or skeleton fields
 * (`date:yMMMd time:Bh` joins them); a bare `date` or `time` is its short
 * width, a bare width is `datetime:<width>`, any other bare word adds skeleton
 * fields; `skeleton:`, `wrap:` (the width whose pattern joins date and time),
 * `calendar:` (gregorian, japanese, buddhist, persian, iso8601), `context:`.
 * No argument: CLDR's default, the long date.
 */
export function parseDatetimeArgs(args: readonly string[]): Parsed<DateFormatOptions> {
  const o: DateFormatOptions = {};
  const addSkeleton = (f: string) => (o.skeleton = (o.skeleton ?? '') + f);
  for (const a of args) {
    const [k, v] = split(a);
    if (v === '') {
      if (k === 'date' || k === 'time') o[k] = 'short';
      else if (WIDTHS.has(k)) o.datetime = k as FormatWidthType;
      else if (k) addSkeleton(k);
    } else if (k === 'date' || k === 'time' || k === 'datetime') {
      if (WIDTHS.has(v)) o[k] = v as FormatWidthType;
      else addSkeleton(v);
    } else if (k === 'skeleton') o.skeleton = v;
    else if ((k === 'wrap' || k === 'wrapper' || k === 'wrapped') && WIDTHS.has(v)) o.wrap = v as FormatWidthType;
    else if ((k === 'calendar' || k === 'ca') && calendar(v)) o.ca = calendar(v);
    else if (k === 'context' && CONTEXTS.has(v)) o.context = v as ContextType;
  }
  if (o.ca === undefined) o.ca = 'gregory';
  return { opts: o, key: JSON.stringify(o) };
}

/**
 * `datetime-interval` arguments: a bare word is the skeleton (`yMMMd`);
 * `skeleton:`, `date:` and `time:` (skeletons for the date and the time part),
 * `context:` (always the Gregorian calendar). No skeleton: CLDR picks one from the greatest
 * difference between the two instants.
 */
export function parseIntervalArgs(args: readonly string[]): Parsed<DateIntervalFormatOptions> {
  const o: DateIntervalFormatOptions = {};
  for (const a of args) {
    const [k, v] = split(a);
    if (v === '') {
      if (k && k !== 'context' && k !== 'skeleton' && k !== 'date' && k !== 'time') o.skeleton = k;
    } else if (k === 'skeleton') o.skeleton = v;
    else if (k === 'date') o.date = v;
    else if (k === 'time') o.time = v;
    else if (k === 'context' && CONTEXTS.has(v)) o.context = v as ContextType;
  }
  // Intervals are always Gregorian, as on the platform (no calendar argument).
  o.ca = 'gregory';
  return { opts: o, key: JSON.stringify(o) };
}

/**
 * `relative-time` arguments: `context:`, `field:` (fix the unit), `numericOnly`,
 * `alwaysNow`, `width:`, `dayOfWeek`, `allowWeeks`, and the number options of
 * `decimal` (`maxfrac:1` shows "in 3.8 months").
 */
export function parseRelativeArgs(args: readonly string[]): Parsed<RelativeTimeFormatOptions> {
  const o: RelativeTimeFormatOptions = {};
  const flag = (v: string) => v === '' || v === 'true';
  for (const a of args) {
    const [k, v] = split(a);
    const lk = k.toLowerCase();
    if (lk === 'context' && CONTEXTS.has(v)) o.context = v as ContextType;
    else if (lk === 'field' && FIELDS.has(v)) o.field = v as TimePeriodField;
    else if (lk === 'numericonly') o.numericOnly = flag(v);
    else if (lk === 'alwaysnow') o.alwaysNow = flag(v);
    else if (lk === 'dayofweek') o.dayOfWeek = flag(v);
    else if (lk === 'allowweeks') o.allowWeeks = flag(v);
    else if (lk === 'width' && (v === 'short' || v === 'narrow' || v === 'wide')) o.width = v;
    else if (lk === 'numeric' && v === 'always') o.numericOnly = true;
  }
  Object.assign(o, parseNumberArgs(args, false).opts);
  return { opts: o, key: JSON.stringify(o) };
}

function cached<T>(
  cache: WeakMap<readonly string[], Parsed<T>>,
  args: readonly string[],
  parse: (a: readonly string[]) => Parsed<T>,
): Parsed<T> {
  let p = cache.get(args);
  if (p === undefined) {
    p = parse(args);
    cache.set(args, p);
  }
  return p;
}
const dtArgs = new WeakMap<readonly string[], Parsed<DateFormatOptions>>();
const ivArgs = new WeakMap<readonly string[], Parsed<DateIntervalFormatOptions>>();
const rtArgs = new WeakMap<readonly string[], Parsed<RelativeTimeFormatOptions>>();

const MEMO_MAX = 4096;
const memos = new Map<string, Map<string, string>>();
function memo(key: string, k: string, make: () => string): string {
  let m = memos.get(key);
  if (m === undefined) {
    m = new Map();
    memos.set(key, m);
  }
  let s = m.get(k);
  if (s === undefined) {
    if (m.size >= MEMO_MAX) m.clear();
    s = make();
    m.set(k, s);
  }
  return s;
}

export function formatDatetime(locale: string, zoneId: string, epoch: number, args: readonly string[]): string {
  const p = cached(dtArgs, args, parseDatetimeArgs);
  return memo(`dt|${locale}|${zoneId}|${p.key}`, String(epoch), () =>
    cldrFor(locale).Calendars.formatDate({ date: epoch, zoneId }, p.opts),
  );
}

export function formatInterval(locale: string, zoneId: string, a: number, b: number, args: readonly string[]): string {
  const p = cached(ivArgs, args, parseIntervalArgs);
  return memo(`iv|${locale}|${zoneId}|${p.key}`, a + '|' + b, () =>
    cldrFor(locale).Calendars.formatDateInterval({ date: a, zoneId }, { date: b, zoneId }, p.opts),
  );
}

/**
 * Relative time between two instants, measured in UTC as the platform does (a
 * zone's daylight-saving shift does not move the count of days).
 */
export function formatRelative(locale: string, start: number, end: number, args: readonly string[]): string {
  const p = cached(rtArgs, args, parseRelativeArgs);
  return memo(`rt|${locale}|${p.key}`, start + '|' + end, () =>
    cldrFor(locale).Calendars.formatRelativeTime({ date: start, zoneId: 'UTC' }, { date: end, zoneId: 'UTC' }, p.opts),
  );
}
