import { describe, expect, it } from 'vitest';
import { ProductType } from '../../../src/core/enums';
import {
  INSTALMENT_LOCALES,
  instalmentAmounts,
  instalmentBrand,
  instalmentLocale,
  instalmentPaymentsText,
  instalmentState,
  isInstalmentEligibleCart,
  isInstalmentEligiblePrice,
} from '../../../src/core/instalments';

describe('locales and brands', () => {
  it('lists the provider locales', () => {
    expect(INSTALMENT_LOCALES.afterpay).toEqual(['en_US', 'en_CA', 'fr_CA', 'en_AU', 'en_NZ']);
    expect(INSTALMENT_LOCALES.clearpay).toEqual(['en_GB']);
  });
  it('maps country and language to a locale', () => {
    expect(instalmentLocale('US', 'en-US')).toBe('en_US');
    expect(instalmentLocale('US', 'fr')).toBe('en_US');
    expect(instalmentLocale('CA', 'fr-CA')).toBe('fr_CA');
    expect(instalmentLocale('CA', 'de')).toBe('en_CA');
    expect(instalmentLocale('ca', null)).toBe('en_CA');
    expect(instalmentLocale('AU')).toBe('en_AU');
    expect(instalmentLocale('NZ')).toBe('en_NZ');
    expect(instalmentLocale('GB')).toBe('en_GB');
    expect(instalmentLocale('FR', 'fr')).toBeNull();
    expect(instalmentLocale(null)).toBeNull();
  });
  it('picks the brand', () => {
    expect(instalmentBrand('en_GB')).toBe('clearpay');
    expect(instalmentBrand('fr_CA')).toBe('afterpay');
    expect(instalmentBrand('de_DE')).toBeNull();
  });
});

describe('eligibility', () => {
  it('price above min and not above max', () => {
    expect(isInstalmentEligiblePrice(100, 100, 200000)).toBe(false);
    expect(isInstalmentEligiblePrice(101, 100, 200000)).toBe(true);
    expect(isInstalmentEligiblePrice(200000, 100, 200000)).toBe(true);
    expect(isInstalmentEligiblePrice(200001, 100, 200000)).toBe(false);
    expect(isInstalmentEligiblePrice('5000', '100', 200000n)).toBe(true);
  });
  it('carts qualify only when every item is physical', () => {
    expect(isInstalmentEligibleCart([{ productType: ProductType.PHYSICAL }, { productType: ProductType.PHYSICAL }])).toBe(true);
    expect(isInstalmentEligibleCart([{ productType: ProductType.PHYSICAL }, { productType: ProductType.DIGITAL }])).toBe(false);
    expect(isInstalmentEligibleCart([{ productType: ProductType.SERVICE }])).toBe(false);
    expect(isInstalmentEligibleCart([])).toBe(false);
  });
});

describe('instalmentAmounts', () => {
  it('defaults to 4 payments adding up to the total, first payments carry the remainder', () => {
    expect(instalmentAmounts(1000)).toEqual([250n, 250n, 250n, 250n]);
    expect(instalmentAmounts(1001)).toEqual([251n, 250n, 250n, 250n]);
    expect(instalmentAmounts(1003)).toEqual([251n, 251n, 251n, 250n]);
    expect(instalmentAmounts(2, 4)).toEqual([1n, 1n, 0n, 0n]);
  });
  it('always sums to the total', () => {
    for (const total of [0, 1, 7, 9999, 123457]) {
      for (const n of [1, 2, 3, 4, 6]) {
        const a = instalmentAmounts(total, n);
        expect(a).toHaveLength(n);
        expect(a.reduce((s, x) => s + x, 0n)).toBe(BigInt(total));
      }
    }
  });
  it('rejects bad counts and negative totals', () => {
    expect(() => instalmentAmounts(100, 0)).toThrow(RangeError);
    expect(() => instalmentAmounts(100, 2.5)).toThrow(RangeError);
    expect(() => instalmentAmounts(-1)).toThrow(RangeError);
  });
});

describe('instalmentState and texts', () => {
  const ctx = { afterPayAvailable: true, afterPayMin: 3500, afterPayMax: 200000, stripeAccountCountry: 'US', shopperLanguage: 'en' };
  it('eligible price', () => {
    const s = instalmentState(ctx, 10001);
    expect(s).toMatchObject({ show: true, eligible: true, locale: 'en_US', brand: 'afterpay', count: 4 });
    if (s.show) expect(s.text).toBe('or 4 interest-free payments of $25.01 with');
  });
  it('above the maximum and at or below the minimum', () => {
    const over = instalmentState(ctx, 200001);
    expect(over.show && over.text).toBe('available for orders up to $2,000.00');
    const under = instalmentState(ctx, 3500);
    expect(under.show && under.text).toBe('available for orders over $35.00');
    expect(under.show && under.eligible).toBe(false);
  });
  it('hidden when unavailable or country unsupported', () => {
    expect(instalmentState({ ...ctx, afterPayAvailable: false }, 10000)).toEqual({ show: false });
    expect(instalmentState({ ...ctx, stripeAccountCountry: 'DE' }, 10000)).toEqual({ show: false });
  });
  it('second brand in GB with GBP', () => {
    const s = instalmentState({ ...ctx, stripeAccountCountry: 'GB' }, 4000, 'GBP');
    expect(s).toMatchObject({ brand: 'clearpay', locale: 'en_GB', text: 'or 4 interest-free payments of £10.00 with' });
  });
  it('payments text', () => {
    expect(instalmentPaymentsText(10000)).toBe('4 interest-free payments of $25.00');
    expect(instalmentPaymentsText(9000, 'EUR', 3)).toBe('3 interest-free payments of €30.00');
  });
});
