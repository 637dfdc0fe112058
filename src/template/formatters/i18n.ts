/** Locale-aware formatters through Intl (Node's full ICU): message/plural, money, decimal, datetime, relative time. */
import type { Context } from '../context';
import type { FormatterFn } from '../types';
import { asNumber, asString, splitVariable, step } from '../util';
import { timeZoneOf } from './date';
import { moneyCurrencyText } from './commerce';
import { formatMoney, isSupportedCurrency } from '../../core/money';

/** Clamp digit options to 0..50 as the spec requires. */
export const clampDigits = (n: number): number => Math.max(0, Math.min(50, n | 0));

/** Parse `key:value` / `key=value` formatter options. */
function options(args: string[]): Record<string, string> {
  const o: Record<string, string> = {};
  for (const a of args) {
    const i = a.search(/[:=]/);
    if (i === -1) o[a] = 'true';
    else o[a.slice(0, i)] = a.slice(i + 1);
  }
  return o;
}

function decimalOptions(args: string[], base: Intl.NumberFormatOptions = {}): Intl.NumberFormatOptions {
  const o = options(args);
  const r: Intl.NumberFormatOptions = { ...base };
  const dig = (k: string) => (o[k] !== undefined ? clampDigits(parseInt(o[k], 10) || 0) : undefined);
  const minF = dig('minimumFractionDigits') ?? dig('minFractionDigits');
  const maxF = dig('maximumFractionDigits') ?? dig('maxFractionDigits');
  const minI = dig('minimumIntegerDigits') ?? dig('minIntegerDigits');
  if (minF !== undefined) r.minimumFractionDigits = Math.min(minF, 20);
  if (maxF !== undefined) r.maximumFractionDigits = Math.min(Math.max(maxF, r.minimumFractionDigits ?? 0), 20);
  if (minI !== undefined) r.minimumIntegerDigits = Math.max(1, Math.min(minI, 21));
  if (o.grouping === 'false' || o.group === 'false') r.useGrouping = false;
  if (o.style === 'percent') r.style = 'percent';
  if (o.style === 'short' || o.style === 'long') {
    r.notation = 'compact';
    r.compactDisplay = o.style;
  }
  return r;
}

const pluralRules = new Map<string, Intl.PluralRules>();
function plural(locale: string, n: number): string {
  let r = pluralRules.get(locale);
  if (r === undefined) {
    r = new Intl.PluralRules(locale);
    pluralRules.set(locale, r);
  }
  return r.select(n);
}

/** Valid plural categories for a locale (keys outside this set are ignored, `=N` always allowed). */
export function pluralCategories(locale: string): string[] {
  return new Intl.PluralRules(locale).resolvedOptions().pluralCategories as string[];
}

/** Find the matching close brace of a `{` at position i. */
function matchBrace(s: string, i: number): number {
  let depth = 0;
  for (let k = i; k < s.length; k++) {
    if (s[k] === '{') depth++;
    else if (s[k] === '}' && --depth === 0) return k;
  }
  return -1;
}

/** A small ICU MessageFormat: {arg}, {arg, plural, one {...} other {...}}, {arg, select, a {...} other {...}}, #. */
export function formatMessage(msg: string, positional: unknown[], keyword: Record<string, unknown>, locale: string, hash?: number): string {
  let out = '';
  for (let i = 0; i < msg.length; i++) {
    const ch = msg[i];
    if (ch === '#' && hash !== undefined) {
      out += new Intl.NumberFormat(locale).format(hash);
      continue;
    }
    if (ch !== '{') {
      out += ch;
      continue;
    }
    const end = matchBrace(msg, i);
    if (end === -1) {
      out += msg.slice(i);
      break;
    }
    const body = msg.slice(i + 1, end);
    i = end;
    const parts = body.split(',');
    const name = parts[0].trim();
    const val = /^\d+$/.test(name) ? positional[+name] : Object.prototype.hasOwnProperty.call(keyword, name) ? keyword[name] : undefined;
    if (parts.length < 3) {
      out += val === undefined || val === null ? '' : typeof val === 'object' ? '' : String(val);
      continue;
    }
    const kind = parts[1].trim();
    const rest = body.slice(parts[0].length + parts[1].length + 2);
    const branches = new Map<string, string>();
    let k = 0;
    while (k < rest.length) {
      const open = rest.indexOf('{', k);
      if (open === -1) break;
      const key = rest.slice(k, open).trim();
      const close = matchBrace(rest, open);
      if (close === -1) break;
      branches.set(key, rest.slice(open + 1, close));
      k = close + 1;
    }
    if (kind === 'plural') {
      const n = asNumber(val);
      const cats = pluralCategories(locale);
      let branch = branches.get('=' + n);
      if (branch === undefined) {
        const cat = plural(locale, n);
        branch = cats.includes(cat) ? branches.get(cat) : undefined;
      }
      branch ??= branches.get('other') ?? '';
      out += formatMessage(branch, positional, keyword, locale, n);
    } else if (kind === 'select') {
      const b = branches.get(asString(val)) ?? branches.get('other') ?? '';
      out += formatMessage(b, positional, keyword, locale, hash);
    } else {
      out += val === undefined || val === null ? '' : String(val);
    }
  }
  return out;
}

const messageFormatter: FormatterFn = (v, args, ctx: Context) => {
  const from = ctx.frame.parent ?? ctx.frame;
  const positional: unknown[] = [];
  const keyword: Record<string, unknown> = {};
  for (const a of args) {
    const i = a.search(/[:=]/);
    if (i === -1) positional.push(ctx.resolve(splitVariable(a), from));
    else {
      const r = ctx.resolve(splitVariable(a.slice(i + 1)), from);
      keyword[a.slice(0, i)] = r;
      positional.push(r);
    }
  }
  return formatMessage(asString(v), positional, keyword, ctx.locale);
};

const dtCache = new Map<string, Intl.DateTimeFormat>();
function dateFormat(locale: string, zone: string, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = locale + '|' + zone + '|' + JSON.stringify(opts);
  let f = dtCache.get(key);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat(locale, { ...opts, timeZone: zone });
    } catch {
      f = new Intl.DateTimeFormat(locale, { ...opts, timeZone: 'UTC' });
    }
    dtCache.set(key, f);
  }
  return f;
}

function datetimeOptions(args: string[]): Intl.DateTimeFormatOptions {
  const o = options(args);
  const styles = ['short', 'medium', 'long', 'full'] as const;
  const pick = (s: string | undefined) => (styles as readonly string[]).includes(s ?? '') ? (s as (typeof styles)[number]) : undefined;
  const r: Intl.DateTimeFormatOptions = {};
  const date = pick(o.date) ?? (o.date === undefined && o.time === undefined ? pick(args.find((a) => pick(a))) : undefined);
  const time = pick(o.time);
  if (o.date === undefined && o.time === undefined && date === undefined) r.dateStyle = 'short';
  if (date) r.dateStyle = date;
  if (time) r.timeStyle = time;
  return r;
}

const SECOND = 1000, MINUTE = 60 * SECOND, HOUR = 60 * MINUTE, DAY = 24 * HOUR, WEEK = 7 * DAY, MONTH = 30 * DAY, YEAR = 365 * DAY;

/** Time-since wording from the spec. */
export function humanizeDelta(delta: number): string {
  const abs = Math.abs(delta);
  const ago = (n: number, unit: string) => (n === 1 ? `about a${unit === 'hour' ? 'n' : ''} ${unit} ago` : `about ${n} ${unit}s ago`);
  if (abs >= YEAR) return ago(Math.floor(abs / YEAR), 'year');
  if (abs >= MONTH) return ago(Math.floor(abs / MONTH), 'month');
  if (abs >= WEEK) return ago(Math.floor(abs / WEEK), 'week');
  if (abs >= DAY) return ago(Math.floor(abs / DAY), 'day');
  if (abs >= HOUR) return ago(Math.floor(abs / HOUR), 'hour');
  if (abs >= MINUTE) return ago(Math.floor(abs / MINUTE), 'minute');
  return 'less than a minute ago';
}

export const I18N_FORMATTERS: Record<string, FormatterFn> = {
  datetime: (v, args, ctx: Context) => {
    const n = asNumber(v);
    if (!isFinite(n)) return '';
    return dateFormat(ctx.locale, timeZoneOf(ctx), datetimeOptions(args)).format(n);
  },
  'datetime-interval': (v, args, ctx: Context, vars) => {
    if (vars.length < 2) return '';
    const a = asNumber(v);
    const b = asNumber(vars[1]);
    if (!isFinite(a) || !isFinite(b)) return '';
    const f = dateFormat(ctx.locale, timeZoneOf(ctx), datetimeOptions(args).dateStyle ? datetimeOptions(args) : { dateStyle: 'medium' });
    return f.formatRange(Math.min(a, b), Math.max(a, b));
  },
  decimal: (v, args, ctx: Context) => {
    const s = asString(v).trim();
    const n = Number(s);
    if (s === '' || !isFinite(n)) return '';
    return new Intl.NumberFormat(ctx.locale, decimalOptions(args)).format(n);
  },
  message: messageFormatter,
  plural: messageFormatter,
  money: (v, args, ctx: Context) => {
    let value = step(v, 'decimalValue');
    let currency = step(v, 'currencyCode');
    if (value === undefined || currency === undefined) {
      value = step(v, 'value');
      currency = step(v, 'currency');
      if (value === undefined || currency === undefined) return '';
    }
    const o = options(args);
    const raw = asString(value).trim();
    const major = step(v, 'decimalValue') !== undefined || raw.indexOf('.') !== -1 ? Number(raw) : NaN;
    const code = asString(currency);
    if (raw === '' || (!isFinite(major) && !/^-?\d+$/.test(raw))) return '';
    const amount = isFinite(major) ? major : Number(raw) / (code.toUpperCase() === 'JPY' ? 1 : 100);
    if (amount === 0 && o.free !== undefined) return o.free;
    // Minor units in a store currency, with no digit options: core's one money formatter (exact to 15 places).
    if (!isFinite(major) && args.length === 0 && ctx.locale.toLowerCase().startsWith('en') && isSupportedCurrency(code)) {
      try {
        return formatMoney(raw, code);
      } catch {
        /* over 15 integer places: Intl below */
      }
    }
    try {
      return new Intl.NumberFormat(ctx.locale, decimalOptions(args, { style: 'currency', currency: code })).format(amount);
    } catch {
      return moneyCurrencyText({ value: raw, currency: 'USD' }, ctx.locale);
    }
  },
  'relative-time': (v, args, ctx: Context, vars) => {
    let s = ctx.now ?? Date.now();
    let e = asNumber(v);
    if (vars.length > 1) {
      s = e;
      e = asNumber(vars[1]);
    }
    if (!isFinite(s) || !isFinite(e)) return '';
    const d = e - s;
    const abs = Math.abs(d);
    const rtf = new Intl.RelativeTimeFormat(ctx.locale, { numeric: options(args).numeric === 'always' ? 'always' : 'auto' });
    const units: Array<[number, Intl.RelativeTimeFormatUnit]> = [[YEAR, 'year'], [MONTH, 'month'], [WEEK, 'week'], [DAY, 'day'], [HOUR, 'hour'], [MINUTE, 'minute'], [SECOND, 'second']];
    for (const [ms, unit] of units) if (abs >= ms || unit === 'second') return rtf.format(Math.round(d / ms), unit);
    return '';
  },
  timesince: (v, _args, ctx: Context) => {
    const n = asNumber(v);
    if (!isFinite(n)) return 'Invalid date.';
    const now = ctx.now ?? Date.now();
    return `<span class="timesince" data-date="${n}">${humanizeDelta(now - n)}</span>`;
  },
};
