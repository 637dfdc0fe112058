import { describe, expect, it } from 'vitest';
import {
  SUPPORTED_CURRENCIES,
  currencyDecimals,
  formatMoney,
  formatMoneyValue,
  money,
  fromMinorUnits,
  isSupportedCurrency,
  moneyDecimalString,
  toMinorUnits,
  toMinorUnitsBigInt,
} from '../../../src/core/money';

describe('SUPPORTED_CURRENCIES', () => {
  it('lists 26 distinct ISO codes including USD and JPY', () => {
    expect(SUPPORTED_CURRENCIES).toHaveLength(26);
    expect(new Set(SUPPORTED_CURRENCIES).size).toBe(26);
    for (const c of SUPPORTED_CURRENCIES) expect(c).toMatch(/^[A-Z]{3}$/);
    expect(SUPPORTED_CURRENCIES).toContain('USD');
    expect(SUPPORTED_CURRENCIES).toContain('JPY');
  });
  it('isSupportedCurrency is case-insensitive and rejects others', () => {
    expect(isSupportedCurrency('eur')).toBe(true);
    expect(isSupportedCurrency('XYZ')).toBe(false);
    expect(isSupportedCurrency('CLP')).toBe(false);
    expect(isSupportedCurrency(5)).toBe(false);
  });
});

describe('currencyDecimals', () => {
  it('is 0 for JPY and 2 for every other currency', () => {
    expect(currencyDecimals('JPY')).toBe(0);
    for (const c of SUPPORTED_CURRENCIES.filter((x) => x !== 'JPY')) expect(currencyDecimals(c)).toBe(2);
    expect(currencyDecimals()).toBe(2);
  });
  it('throws for unsupported currencies', () => {
    expect(() => currencyDecimals('XXX')).toThrow(RangeError);
  });
});

describe('formatMoney', () => {
  it('defaults to USD with comma thousands and point decimals', () => {
    expect(formatMoney(123450)).toBe('$1,234.50');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(5)).toBe('$0.05');
    expect(formatMoney(100)).toBe('$1.00');
  });
  it('accepts string and bigint minor units', () => {
    expect(formatMoney('2500')).toBe('$25.00');
    expect(formatMoney(99999n)).toBe('$999.99');
  });
  it('formats other currencies with their en-US symbol', () => {
    expect(formatMoney(123450, 'EUR')).toBe('€1,234.50');
    expect(formatMoney(123450, 'GBP')).toBe('£1,234.50');
    expect(formatMoney(123450, 'CAD')).toBe('CA$1,234.50');
    expect(formatMoney(123450, 'usd')).toBe('$1,234.50');
  });
  it('shows JPY without decimals and HUF with two (spec: 2 decimals except JPY)', () => {
    expect(formatMoney(1235, 'JPY')).toBe('¥1,235');
    expect(formatMoney(1234567, 'JPY')).toBe('¥1,234,567');
    expect(formatMoney(123450, 'HUF')).toMatch(/1,234\.50$/);
  });
  it('formats negative amounts, including below one major unit', () => {
    expect(formatMoney(-123450)).toBe('-$1,234.50');
    expect(formatMoney(-5, 'EUR')).toBe('-€0.05');
    expect(formatMoney('-0')).toBe('$0.00');
  });
  it('is exact up to 15 integer places', () => {
    expect(formatMoney('99999999999999999')).toBe('$999,999,999,999,999.99');
    expect(formatMoney(999999999999999n, 'JPY')).toBe('¥999,999,999,999,999');
    expect(formatMoney('12345678901234567')).toBe('$123,456,789,012,345.67');
  });
  it('rejects more than 15 integer places', () => {
    expect(() => formatMoney('100000000000000000')).toThrow(RangeError);
    expect(() => formatMoney(1000000000000000n, 'JPY')).toThrow(RangeError);
  });
  it('rejects non-integer minor units and unsupported currencies', () => {
    expect(() => formatMoney(1.5)).toThrow(TypeError);
    expect(() => formatMoney('12.50')).toThrow(TypeError);
    expect(() => formatMoney('abc')).toThrow(TypeError);
    expect(() => formatMoney(Number.MAX_SAFE_INTEGER + 1)).toThrow(TypeError);
    expect(() => formatMoney(100, 'XYZ')).toThrow(RangeError);
  });
});

describe('moneyDecimalString / fromMinorUnits', () => {
  it('gives the exact major-unit decimal string', () => {
    expect(moneyDecimalString(1250)).toBe('12.50');
    expect(moneyDecimalString(5)).toBe('0.05');
    expect(moneyDecimalString(-5)).toBe('-0.05');
    expect(moneyDecimalString(0)).toBe('0.00');
    expect(moneyDecimalString(1235, 'JPY')).toBe('1235');
    expect(moneyDecimalString('99999999999999999')).toBe('999999999999999.99');
  });
  it('fromMinorUnits gives a number', () => {
    expect(fromMinorUnits(1250)).toBe(12.5);
    expect(fromMinorUnits(1250, 'JPY')).toBe(1250);
    expect(fromMinorUnits(-1)).toBe(-0.01);
  });
});

describe('toMinorUnits', () => {
  it('parses decimal strings', () => {
    expect(toMinorUnits('12.50')).toBe(1250);
    expect(toMinorUnits('12.5')).toBe(1250);
    expect(toMinorUnits('12')).toBe(1200);
    expect(toMinorUnits('.5')).toBe(50);
    expect(toMinorUnits('-3.07')).toBe(-307);
    expect(toMinorUnits('12.500')).toBe(1250);
    expect(toMinorUnits('1235', 'JPY')).toBe(1235);
    expect(toMinorUnits('-0')).toBe(0);
    expect(Object.is(toMinorUnits('-0'), -0)).toBe(false);
  });
  it('parses numbers without binary noise', () => {
    expect(toMinorUnits(0.1 + 0.2)).toBe(30);
    expect(toMinorUnits(19.99)).toBe(1999);
  });
  it('rejects too many decimals and junk', () => {
    expect(() => toMinorUnits('12.345')).toThrow(RangeError);
    expect(() => toMinorUnits('12.5', 'JPY')).toThrow(RangeError);
    expect(() => toMinorUnits('')).toThrow(RangeError);
    expect(() => toMinorUnits('.')).toThrow(RangeError);
    expect(() => toMinorUnits('1,000')).toThrow(RangeError);
    expect(() => toMinorUnits('abc')).toThrow(RangeError);
  });
  it('uses bigint for the full 15 integer places', () => {
    expect(toMinorUnitsBigInt('999999999999999.99')).toBe(99999999999999999n);
    expect(() => toMinorUnits('999999999999999.99')).toThrow(RangeError);
    expect(() => toMinorUnitsBigInt('1000000000000000')).toThrow(RangeError);
  });
  it('round-trips with moneyDecimalString', () => {
    for (const v of [0, 1, 99, 100, 123456, -42]) expect(toMinorUnits(moneyDecimalString(v))).toBe(v);
  });
});

describe('Money objects', () => {
  it('builds and formats', () => {
    expect(money(1250)).toEqual({ value: '1250', currency: 'USD' });
    expect(money('99999999999999999', 'eur')).toEqual({ value: '99999999999999999', currency: 'EUR' });
    expect(formatMoneyValue({ value: '1250', currency: 'GBP' })).toBe('£12.50');
    expect(formatMoneyValue({ value: '1250', currency: '' })).toBe('$12.50');
  });
});

describe('formatMoney: the currency pattern worked out once per currency and sign', () => {
  /** Intl's parts of every amount, as formatMoney built them before it kept the pattern. */
  function reference(minor: bigint, currency: string): string {
    const decimals = currencyDecimals(currency);
    const negative = minor < 0n;
    const abs = negative ? -minor : minor;
    const factor = 10n ** BigInt(decimals);
    const major = abs / factor;
    const fraction = decimals === 0 ? '' : (abs % factor).toString().padStart(decimals, '0');
    const isNegative = negative && (major !== 0n || /[1-9]/.test(fraction));
    const f = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    const g = new Intl.NumberFormat('en-US', { useGrouping: true, maximumFractionDigits: 0 });
    return f
      .formatToParts(isNegative ? -1n : 1n)
      .map((p) => (p.type === 'integer' ? g.format(major) : p.type === 'fraction' ? fraction : p.value))
      .join('');
  }

  it('gives what the parts of each amount gave, in every supported currency, for small, grouped, negative and zero amounts', () => {
    const amounts = [
      0n,
      1n,
      -1n,
      5n,
      -5n,
      99n,
      100n,
      999n,
      1000n,
      99_999n,
      100_000n,
      123_456n,
      -123_456n,
      99_999_999n,
      100_000_000n,
      123_456_789_012_345n,
      -999_999_999_999_999n,
    ];
    for (let i = 0; i < 200; i++) amounts.push(BigInt(Math.floor(Math.random() * 1e12)) * (i % 2 ? -1n : 1n));
    for (const currency of SUPPORTED_CURRENCIES) {
      for (const a of amounts) {
        expect(formatMoney(a, currency), `${a} ${currency}`).toBe(reference(a, currency));
        expect(formatMoney(String(a), currency)).toBe(reference(a, currency));
      }
    }
  });
});
