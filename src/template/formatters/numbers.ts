/**
 * Number formatting through CLDR (@phensley/cldr): `decimal`, `money` and
 * `bookkeeper-money-format`, plus the cached helpers other formatters use.
 *
 * Speed: a formatter call allocates no formatter object. Arguments are parsed
 * once per compiled instruction (the args array is the key), and each
 * (locale, options) pair keeps a bounded memo of value -> text, so a price that
 * a page prints many times is formatted by CLDR once.
 */
import { getCurrencyFractions } from '@phensley/cldr';
import type { CurrencyFormatOptions, CurrencyType, DecimalFormatOptions, RoundingModeType } from '@phensley/cldr';
import { cldrFor } from '../cldr';
import { currencyDecimals, DEFAULT_CURRENCY, isSupportedCurrency } from '../../core/money';
import { DEFAULT_MONEY_VALUE, NUMBER_FORMAT_DIGITS_MAX } from '../../core/constants';
import { asString, step } from '../util';

/** Number-format digit options are clamped to 0-50. */
export const clampDigits = (n: number): number => Math.max(0, Math.min(NUMBER_FORMAT_DIGITS_MAX, n | 0));

const ROUNDING: Record<string, RoundingModeType> = {
  up: 'up',
  down: 'down',
  truncate: 'down',
  ceil: 'ceiling',
  ceiling: 'ceiling',
  floor: 'floor',
  'half-up': 'half-up',
  'half-down': 'half-down',
  'half-even': 'half-even',
  round: 'half-even',
};
const DIGITS: Record<string, keyof DecimalFormatOptions> = {
  minint: 'minimumIntegerDigits',
  minimumintegerdigits: 'minimumIntegerDigits',
  minfrac: 'minimumFractionDigits',
  minimumfractiondigits: 'minimumFractionDigits',
  maxfrac: 'maximumFractionDigits',
  maximumfractiondigits: 'maximumFractionDigits',
  minsig: 'minimumSignificantDigits',
  minimumsignificantdigits: 'minimumSignificantDigits',
  maxsig: 'maximumSignificantDigits',
  maximumsignificantdigits: 'maximumSignificantDigits',
};
const DECIMAL_STYLES = new Set(['decimal', 'short', 'long', 'scientific', 'percent', 'percent-scaled', 'permille', 'permille-scaled']);
const CURRENCY_STYLES = new Set(['symbol', 'accounting', 'code', 'name', 'short']);

/** A parsed argument list: CLDR options, the `free` text for zero, and a key naming both (every argument that changes the output). */
export interface NumberArgs {
  opts: DecimalFormatOptions & CurrencyFormatOptions;
  key: string;
  free?: string;
}

/** The key of parsed arguments: the options and the `free` text, so two lists that print differently never share one. */
const argsKey = (opts: DecimalFormatOptions & CurrencyFormatOptions, free: string | undefined): string =>
  JSON.stringify([opts, free ?? null]);

/** Parse `key:value` arguments (key case-insensitive) into CLDR number options. */
export function parseNumberArgs(args: readonly string[], currency: boolean): NumberArgs {
  const opts: DecimalFormatOptions & CurrencyFormatOptions = {};
  let free: string | undefined;
  for (const a of args) {
    const i = a.search(/[:=]/);
    const k = (i === -1 ? a : a.slice(0, i)).toLowerCase();
    const v = i === -1 ? '' : a.slice(i + 1);
    if (k === 'free') free = v;
    else if (k === 'style') {
      if (currency ? CURRENCY_STYLES.has(v) : DECIMAL_STYLES.has(v)) (opts as { style?: string }).style = v;
      else if (v === 'standard') (opts as { style?: string }).style = currency ? 'symbol' : 'decimal';
    } else if (k === 'round' || k === 'rounding') {
      const r = ROUNDING[v.toLowerCase()];
      if (r !== undefined) opts.round = r;
    } else if (k === 'group' || k === 'grouping') opts.group = v === '' || v.toLowerCase() === 'true';
    else if (k === 'nogroup' || k === 'no-group' || k === 'no-grouping') opts.group = false;
    else if (DIGITS[k] !== undefined) {
      const n = parseInt(v, 10);
      if (isFinite(n)) (opts as Record<string, number>)[DIGITS[k]] = clampDigits(n);
    } else if (currency && (k === 'symbol' || k === 'symbolwidth' || k === 'width') && v === 'narrow') opts.symbolWidth = 'narrow';
  }
  return { opts, key: argsKey(opts, free), free };
}

const argsCache = new WeakMap<readonly string[], NumberArgs>();
const currencyArgsCache = new WeakMap<readonly string[], NumberArgs>();

/** Parsed arguments, once per compiled instruction's args array. */
export function numberArgs(args: readonly string[], currency: boolean): NumberArgs {
  const cache = currency ? currencyArgsCache : argsCache;
  let p = cache.get(args);
  if (p === undefined) {
    p = parseNumberArgs(args, currency);
    cache.set(args, p);
  }
  return p;
}

/** Bound on each memo (value -> text); a full memo starts over. */
const MEMO_MAX = 4096;
/**
 * Memos per parsed arguments object (stable per compiled instruction), then
 * per locale, then per currency ('' for decimals): lookups by short strings,
 * with no key built per call.
 */
const memos = new WeakMap<NumberArgs, Map<string, Map<string, Map<string, string>>>>();

function memoFor(a: NumberArgs, locale: string, currency: string): Map<string, string> {
  let byLocale = memos.get(a);
  if (byLocale === undefined) {
    byLocale = new Map();
    memos.set(a, byLocale);
  }
  let byCurrency = byLocale.get(locale);
  if (byCurrency === undefined) {
    byCurrency = new Map();
    byLocale.set(locale, byCurrency);
  }
  let m = byCurrency.get(currency);
  if (m === undefined) {
    m = new Map();
    byCurrency.set(currency, m);
  }
  return m;
}

function remember(m: Map<string, string>, value: string, text: string): string {
  if (m.size >= MEMO_MAX) m.clear();
  m.set(value, text);
  return text;
}

/** A number as a decimal string CLDR accepts, or null (booleans, objects, empty and non-numeric text). */
export function decimalString(v: unknown): string | null {
  if (typeof v === 'number') return isFinite(v) ? String(v) : null;
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (s === '' || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s) || s.length > 400) return null;
  return s;
}

/** `decimal`: a number in the locale's decimal (or percent, compact, scientific) format. */
export function formatDecimal(locale: string, value: string, a: NumberArgs): string {
  const m = memoFor(a, locale, '');
  const hit = m.get(value);
  if (hit !== undefined) return hit;
  return remember(m, value, cldrFor(locale).Numbers.formatDecimal(value, a.opts));
}

/** A currency amount (major units, as a decimal string) in the locale's currency format. */
export function formatCurrency(locale: string, amount: string, currency: string, a: NumberArgs): string {
  const m = memoFor(a, locale, currency);
  const hit = m.get(amount);
  if (hit !== undefined) return hit;
  return remember(m, amount, cldrFor(locale).Numbers.formatCurrency(amount, currency as CurrencyType, a.opts));
}

/** Number of fraction digits CLDR gives a currency (JPY 0, USD 2, ...). */
export function currencyDigits(currency: string): number {
  return getCurrencyFractions(currency).digits;
}

/** Minor units (an integer string) as a major-unit decimal string, exactly: '12345' with 2 digits -> '123.45'. */
export function minorToMajor(minor: string, digits: number): string {
  const neg = minor.startsWith('-');
  let d = neg || minor.startsWith('+') ? minor.slice(1) : minor;
  if (digits === 0) return (neg ? '-' : '') + d;
  d = d.padStart(digits + 1, '0');
  return (neg ? '-' : '') + d.slice(0, d.length - digits) + '.' + d.slice(d.length - digits);
}

const EMPTY_ARGS: readonly string[] = [];
export const DEFAULT_CURRENCY_ARGS = parseNumberArgs(EMPTY_ARGS, true);

/**
 * The parts of a money value: `{decimalValue, currencyCode}` (a decimal amount) or `{value, currency}`
 * (Tessera's minor units); null when neither pair is complete.
 */
export function moneyParts(v: unknown): { value: unknown; code: string; decimal: boolean } | null {
  const dv = step(v, 'decimalValue');
  const dc = step(v, 'currencyCode');
  if (dv !== undefined && dc !== undefined) return { value: dv, code: asString(dc).trim().toUpperCase(), decimal: true };
  const mv = step(v, 'value');
  const mc = step(v, 'currency');
  if (mv !== undefined && mc !== undefined) return { value: mv, code: asString(mc).trim().toUpperCase(), decimal: false };
  return null;
}

/**
 * The money formatter's reading (default currency USD, value 0): a missing money
 * value, or one missing its amount or currency, shows the default in place of what is missing. Anything
 * that is not a money object (a bare number or text) is still no money.
 */
export function moneyPartsOrDefault(v: unknown): { value: unknown; code: string; decimal: boolean } | null {
  const full = moneyParts(v);
  if (full) return full;
  if (v === null || v === undefined) return { value: String(DEFAULT_MONEY_VALUE), code: DEFAULT_CURRENCY, decimal: true };
  if (typeof v !== 'object' || Array.isArray(v)) return null;
  const dv = step(v, 'decimalValue');
  const dc = step(v, 'currencyCode');
  const mv = step(v, 'value');
  const mc = step(v, 'currency');
  const decimal = mv === undefined && mc === undefined;
  const value = (decimal ? dv : mv) ?? String(DEFAULT_MONEY_VALUE);
  const code =
    asString((decimal ? dc : mc) ?? '')
      .trim()
      .toUpperCase() || DEFAULT_CURRENCY;
  return { value, code, decimal };
}

/**
 * A money value's amount as a major-unit decimal string, or null. Decimal text
 * ('12.50', or any `decimalValue`) is major units as the platform sends it; an
 * integer string or number is minor units, as Tessera stores money.
 */
export function moneyAmount(raw: unknown, currency: string, decimal: boolean): string | null {
  if (typeof raw === 'number') {
    if (!isFinite(raw)) return null;
    return decimal || !Number.isInteger(raw) ? String(raw) : minorToMajor(String(raw), minorDigits(currency));
  }
  if (typeof raw !== 'string') return null;
  const s = raw.trim();
  if (!decimal && isMinorUnits(s)) return minorToMajor(s, minorDigits(currency));
  return decimalString(s);
}

/** An integer string: a money value in minor units. */
export const isMinorUnits = (s: string): boolean => /^[+-]?\d{1,40}$/.test(s);

/** Decimals of a currency's minor units: the store's rule for its 26 currencies (JPY 0, others 2), else CLDR's. */
export function minorDigits(currency: string): number {
  return isSupportedCurrency(currency) ? currencyDecimals(currency) : currencyDigits(currency);
}

const withDigits = new Map<string, NumberArgs>();
/**
 * Arguments that show exactly `digits` fraction digits unless the template chose digits itself. Kept by the
 * arguments' whole key (options and `free` text) and the digits.
 */
export function storeDigits(a: NumberArgs, digits: number): NumberArgs {
  const o = a.opts;
  if (
    o.minimumFractionDigits !== undefined ||
    o.maximumFractionDigits !== undefined ||
    o.maximumSignificantDigits !== undefined ||
    o.minimumSignificantDigits !== undefined
  )
    return a;
  const k = a.key + '|' + digits;
  let r = withDigits.get(k);
  if (r === undefined) {
    const opts = { ...o, minimumFractionDigits: digits, maximumFractionDigits: digits };
    r = { opts, key: argsKey(opts, a.free), free: a.free };
    if (withDigits.size >= MEMO_MAX) withDigits.clear();
    withDigits.set(k, r);
  }
  return r;
}

/** A decimal string with its point moved by `places` (negative: to the left), exactly: ('12345', -2) -> '123.45'. */
export function shiftDecimal(s: string, places: number): string {
  const m = /^([+-]?)(\d*)\.?(\d*)(?:[eE]([+-]?\d+))?$/.exec(s);
  if (m === null) return s;
  const exp = (m[4] ? parseInt(m[4], 10) : 0) + places;
  let digits = m[2] + m[3];
  let point = m[2].length + exp;
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits = digits.padEnd(point, '0');
  const int = digits.slice(0, point).replace(/^0+(?=\d)/, '') || '0';
  const frac = digits.slice(point);
  return m[1] + int + (frac ? '.' + frac : '');
}
