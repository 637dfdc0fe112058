/** Locale-aware formatters through CLDR (@phensley/cldr): message/plural, money, decimal, datetime, interval, relative time. */
import type { Context } from '../context';
import type { FormatterFn } from '../types';
import { asNumber, asString, splitVariable } from '../util';
import { timeZoneOf } from './date';
import { formatMessage } from './message-cldr';
import { formatDatetime, formatInterval, formatRelative } from './dates-cldr';
import {
  decimalString,
  formatCurrency,
  formatDecimal,
  isMinorUnits,
  minorDigits,
  moneyAmount,
  moneyPartsOrDefault,
  numberArgs,
  storeDigits,
} from './numbers';

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
  return formatMessage(asString(v), positional, keyword, ctx.locale, timeZoneOf(ctx));
};

const SECOND = 1000,
  MINUTE = 60 * SECOND,
  HOUR = 60 * MINUTE,
  DAY = 24 * HOUR,
  WEEK = 7 * DAY,
  MONTH = 30 * DAY,
  YEAR = 365 * DAY;

/** Time-since wording ('N minutes ago' and the like). */
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
    return formatDatetime(ctx.locale, timeZoneOf(ctx), n, args);
  },
  'datetime-interval': (v, args, ctx: Context, vars) => {
    if (vars.length < 2) return '';
    const a = asNumber(v);
    const b = asNumber(vars[1]);
    if (!isFinite(a) || !isFinite(b)) return '';
    return formatInterval(ctx.locale, timeZoneOf(ctx), Math.min(a, b), Math.max(a, b), args);
  },
  decimal: (v, args, ctx: Context) => {
    const s = decimalString(v);
    return s === null ? '' : formatDecimal(ctx.locale, s, numberArgs(args, false));
  },
  message: messageFormatter,
  plural: messageFormatter,
  money: (v, args, ctx: Context) => {
    const m = moneyPartsOrDefault(v);
    if (!m) return '';
    const { value, code, decimal } = m;
    const amount = moneyAmount(value, code, decimal);
    if (amount === null) return '';
    let a = numberArgs(args, true);
    if (!decimal && (typeof value === 'number' || isMinorUnits(asString(value).trim()))) a = storeDigits(a, minorDigits(code));
    if (a.free !== undefined && !/[1-9]/.test(amount.replace(/[eE].*$/, ''))) return a.free;
    return formatCurrency(ctx.locale, amount, code, a);
  },
  'relative-time': (v, args, ctx: Context, vars) => {
    let s = ctx.now ?? Date.now();
    let e = asNumber(v);
    if (vars.length > 1) {
      s = e;
      e = asNumber(vars[1]);
    }
    if (!isFinite(s) || !isFinite(e)) return '';
    return formatRelative(ctx.locale, s, e, args);
  },
  timesince: (v, _args, ctx: Context) => {
    const n = asNumber(v);
    if (!isFinite(n)) return 'Invalid date.';
    const now = ctx.now ?? Date.now();
    return `<span class="timesince" data-date="${n}">${humanizeDelta(now - n)}</span>`;
  },
};
