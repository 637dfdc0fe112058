/**
 * Money rules shared by server, template engine and browser.
 *
 * Money is an integer count of minor units (cents) everywhere; it is formatted only where shown
 * (docs/decisions/0003-money-integer-minor-units.md).
 * The store supports 26 currencies, all with 2 decimals except JPY with 0. Formatting is en-US:
 * comma thousands separator, point decimal mark, up to 15 integer places, default currency USD.
 *
 * Amounts may be given as number (a safe integer), bigint, or a string of an integer; strings
 * and bigints are exact for the full 15 integer places (17 digits of minor units for 2-decimal
 * currencies, beyond Number.MAX_SAFE_INTEGER).
 */
import { cart as cartMessages } from './messages';

/** The 26 currencies a store may sell in. */
export const SUPPORTED_CURRENCIES = [
  'USD',
  'EUR',
  'GBP',
  'CAD',
  'AUD',
  'NZD',
  'JPY',
  'CHF',
  'SEK',
  'DKK',
  'NOK',
  'CZK',
  'HUF',
  'PLN',
  'ILS',
  'MXN',
  'BRL',
  'ARS',
  'COP',
  'HKD',
  'SGD',
  'INR',
  'MYR',
  'PHP',
  'THB',
  'ZAR',
] as const;

export type CurrencyCode = (typeof SUPPORTED_CURRENCIES)[number];

export const DEFAULT_CURRENCY: CurrencyCode = 'USD';

/** Largest number of integer (major-unit) places an amount may have. */
export const MAX_INTEGER_PLACES = 15;

/** Currencies shown without decimals. */
export const ZERO_DECIMAL_CURRENCIES: readonly CurrencyCode[] = ['JPY'];

const SUPPORTED = new Set<string>(SUPPORTED_CURRENCIES);

export type MinorUnitsInput = number | string | bigint;

/** A money value as stored and sent: minor units as an integer string, plus an ISO currency code. */
export interface Money {
  value: string;
  currency: string;
}

/** Normalises a currency code (trim, upper case); throws a RangeError when it is not supported. */
export function normalizeCurrency(currency: string | null | undefined = DEFAULT_CURRENCY): CurrencyCode {
  const code = (currency ?? DEFAULT_CURRENCY).trim().toUpperCase();
  if (!SUPPORTED.has(code)) throw new RangeError(`Unsupported currency: ${String(currency)}`);
  return code as CurrencyCode;
}

export function isSupportedCurrency(currency: unknown): currency is CurrencyCode {
  return typeof currency === 'string' && SUPPORTED.has(currency.trim().toUpperCase());
}

/** Number of decimals of a currency: 0 for JPY, 2 for every other supported currency. */
export function currencyDecimals(currency: string = DEFAULT_CURRENCY): 0 | 2 {
  return ZERO_DECIMAL_CURRENCIES.includes(normalizeCurrency(currency)) ? 0 : 2;
}

/**
 * Converts a minor-units value to a bigint. Accepts a safe integer number, a bigint, or a string
 * holding an optionally signed integer. Throws a TypeError otherwise.
 */
export function toBigIntMinor(minorUnits: MinorUnitsInput): bigint {
  if (typeof minorUnits === 'bigint') return minorUnits;
  if (typeof minorUnits === 'number') {
    if (!Number.isSafeInteger(minorUnits)) {
      throw new TypeError(`Minor units must be a safe integer, got ${minorUnits}`);
    }
    return BigInt(minorUnits);
  }
  if (typeof minorUnits === 'string') {
    const s = minorUnits.trim();
    if (!/^[+-]?\d+$/.test(s)) throw new TypeError(`Minor units must be an integer, got "${minorUnits}"`);
    return BigInt(s);
  }
  throw new TypeError(`Minor units must be a number, string or bigint, got ${typeof minorUnits}`);
}

function splitMinor(minorUnits: MinorUnitsInput, currency: string) {
  const decimals = currencyDecimals(currency);
  const value = toBigIntMinor(minorUnits);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const factor = 10n ** BigInt(decimals);
  const major = abs / factor;
  const fraction = decimals === 0 ? '' : (abs % factor).toString().padStart(decimals, '0');
  return { negative, major, fraction, decimals };
}

function assertIntegerPlaces(major: bigint): void {
  if (major.toString().length > MAX_INTEGER_PLACES) {
    throw new RangeError(`Amount exceeds ${MAX_INTEGER_PLACES} integer places`);
  }
}

const formatterCache = new Map<string, Intl.NumberFormat>();
const grouping = new Intl.NumberFormat('en-US', { useGrouping: true, maximumFractionDigits: 0 });

function currencyFormatter(currency: CurrencyCode, decimals: number): Intl.NumberFormat {
  const key = `${currency}|${decimals}`;
  let f = formatterCache.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    formatterCache.set(key, f);
  }
  return f;
}

/**
 * Formats minor units as a currency amount, e.g. formatMoney(123450) === '$1,234.50',
 * formatMoney(1235, 'JPY') === '¥1,235', formatMoney(-5, 'EUR') === '-€0.05'.
 * Exact for bigint and string inputs (no floating point). Throws a RangeError for unsupported
 * currencies and amounts over 15 integer places, a TypeError for non-integer minor units.
 */
export function formatMoney(minorUnits: MinorUnitsInput, currency: string = DEFAULT_CURRENCY): string {
  const code = normalizeCurrency(currency);
  const { negative, major, fraction, decimals } = splitMinor(minorUnits, code);
  assertIntegerPlaces(major);
  const isNegative = negative && (major !== 0n || /[1-9]/.test(fraction));
  // Use Intl for the symbol, sign and their placement (worked out once per currency and sign); splice in the exact digits.
  let out = '';
  for (const p of moneyPattern(code, decimals, isNegative)) out += p === INTEGER ? groupDigits(major) : p === FRACTION ? fraction : p;
  return out;
}

/**
 * formatMoney for what a visitor's page shows of a stored amount: past 15 integer places (a cart an owner's
 * price change took there) it is 'Too large to show' instead of an error, so the page still opens and the
 * quantity can be lowered. Anything else formatMoney refuses is still refused.
 */
export function formatMoneyShown(minorUnits: MinorUnitsInput, currency: string = DEFAULT_CURRENCY): string {
  const code = normalizeCurrency(currency);
  if (splitMinor(minorUnits, code).major.toString().length > MAX_INTEGER_PLACES) return cartMessages.AMOUNT_TOO_LARGE;
  return formatMoney(minorUnits, code);
}

const INTEGER = 0;
const FRACTION = 1;
const moneyPatterns = new Map<string, ReadonlyArray<string | typeof INTEGER | typeof FRACTION>>();

/** Intl's parts of ±1 in a currency, with the integer and fraction digits as slots (the same for every amount). */
function moneyPattern(code: CurrencyCode, decimals: number, negative: boolean): ReadonlyArray<string | typeof INTEGER | typeof FRACTION> {
  const key = `${code}|${decimals}|${negative ? '-' : '+'}`;
  let pattern = moneyPatterns.get(key);
  if (!pattern) {
    pattern = currencyFormatter(code, decimals)
      .formatToParts(negative ? -1n : 1n)
      .map((p) => (p.type === 'integer' ? INTEGER : p.type === 'fraction' ? FRACTION : p.value));
    moneyPatterns.set(key, pattern);
  }
  return pattern;
}

/** The integer digits grouped as en-US groups them (below 1,000 there is nothing to group). */
function groupDigits(major: bigint): string {
  return major < 1000n ? major.toString() : grouping.format(major);
}

/**
 * The amount alone, without the currency symbol, grouped like formatMoney: formatMoneyAmount(123450) === '1,234.50'
 * (the platform's native money text, which themes wrap in their own markup).
 */
export function formatMoneyAmount(minorUnits: MinorUnitsInput, currency: string = DEFAULT_CURRENCY): string {
  const code = normalizeCurrency(currency);
  const { negative, major, fraction, decimals } = splitMinor(minorUnits, code);
  assertIntegerPlaces(major);
  const sign = negative && (major !== 0n || /[1-9]/.test(fraction)) ? '-' : '';
  return `${sign}${groupDigits(major)}${decimals === 0 ? '' : `.${fraction}`}`;
}

/** The exact decimal string of an amount in major units: moneyDecimalString(1250) === '12.50'. */
export function moneyDecimalString(minorUnits: MinorUnitsInput, currency: string = DEFAULT_CURRENCY): string {
  const { negative, major, fraction, decimals } = splitMinor(minorUnits, currency);
  const sign = negative && (major !== 0n || /[1-9]/.test(fraction)) ? '-' : '';
  return decimals === 0 ? `${sign}${major}` : `${sign}${major}.${fraction}`;
}

/**
 * Parses a decimal amount in major units to minor units as a bigint: '12.5' -> 1250n (USD),
 * '1235' -> 1235n (JPY). Accepts an optional sign, digits, and at most the currency's decimals
 * (extra trailing zeros are allowed). Throws a RangeError for anything else or over 15 integer places.
 */
export function toMinorUnitsBigInt(decimal: string | number, currency: string = DEFAULT_CURRENCY): bigint {
  const decimals = currencyDecimals(currency);
  const text = typeof decimal === 'number' ? numberToPlainString(decimal) : String(decimal).trim();
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new RangeError(`Not a decimal amount: "${decimal}"`);
  const [, sign, intPart, fracRaw = ''] = m;
  const frac = fracRaw.replace(/0+$/, '');
  if (frac.length > decimals) {
    throw new RangeError(`Too many decimal places for ${normalizeCurrency(currency)}: "${decimal}"`);
  }
  const major = BigInt(intPart === '' ? '0' : intPart);
  assertIntegerPlaces(major);
  const minor = major * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, '0') || '0');
  return sign === '-' ? -minor : minor;
}

/**
 * Parses a decimal amount in major units to minor units as a number: toMinorUnits('12.50') === 1250.
 * Throws a RangeError when the result is not a safe integer (use toMinorUnitsBigInt for those).
 */
export function toMinorUnits(decimal: string | number, currency: string = DEFAULT_CURRENCY): number {
  const big = toMinorUnitsBigInt(decimal, currency);
  const n = Number(big);
  if (!Number.isSafeInteger(n)) throw new RangeError(`Amount too large for a number: "${decimal}"`);
  return n === 0 ? 0 : n;
}

/**
 * Minor units to a major-units number: fromMinorUnits(1250) === 12.5. A convenience for display
 * maths and analytics; it is a float, so use moneyDecimalString where exactness matters.
 */
export function fromMinorUnits(minorUnits: MinorUnitsInput, currency: string = DEFAULT_CURRENCY): number {
  return Number(moneyDecimalString(minorUnits, currency));
}

function numberToPlainString(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`Not a decimal amount: ${n}`);
  // Round to 10 places to drop binary noise (0.1 + 0.2), then print without exponent.
  const s = n.toFixed(10);
  return s.replace(/\.?0+$/, '') || '0';
}

/** Formats a Money object ({value: minor units string, currency}); a missing currency means USD. */
export function formatMoneyValue(money: Money): string {
  return formatMoney(money.value, money.currency || DEFAULT_CURRENCY);
}

/** Builds a Money object from minor units. */
export function money(minorUnits: MinorUnitsInput, currency: string = DEFAULT_CURRENCY): Money {
  return { value: toBigIntMinor(minorUnits).toString(), currency: normalizeCurrency(currency) };
}
