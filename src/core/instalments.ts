/**
 * Buy-now-pay-later instalments: provider locales and brands, price and cart eligibility,
 * instalment amounts and the pill texts.
 *
 * Brands: the first brand ('afterpay') serves en_US, en_CA, fr_CA, en_AU, en_NZ; the second
 * ('clearpay') serves en_GB.
 */
import { DEFAULT_INSTALMENT_COUNT } from './constants';
import { ProductType } from './enums';
import { instalments as text } from './messages';
import { formatMoney, type MinorUnitsInput, toBigIntMinor } from './money';

export type InstalmentBrand = 'afterpay' | 'clearpay';

export const INSTALMENT_LOCALES = Object.freeze({
  afterpay: Object.freeze(['en_US', 'en_CA', 'fr_CA', 'en_AU', 'en_NZ'] as const),
  clearpay: Object.freeze(['en_GB'] as const),
});

export type InstalmentLocale = (typeof INSTALMENT_LOCALES.afterpay)[number] | (typeof INSTALMENT_LOCALES.clearpay)[number];

/** Supported countries and their languages. */
export const INSTALMENT_COUNTRIES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  US: Object.freeze(['en']),
  CA: Object.freeze(['en', 'fr']),
  AU: Object.freeze(['en']),
  NZ: Object.freeze(['en']),
  GB: Object.freeze(['en']),
});

export function isSupportedInstalmentCountry(country: string | null | undefined): boolean {
  return typeof country === 'string' && Object.prototype.hasOwnProperty.call(INSTALMENT_COUNTRIES, country.toUpperCase());
}

/**
 * The provider locale for a merchant country and a shopper language (e.g. 'fr', 'fr-CA', 'en_GB').
 * Canada uses French for French-speaking shoppers, English otherwise; other countries use their
 * English locale. Unsupported countries give null.
 */
export function instalmentLocale(country: string | null | undefined, shopperLanguage?: string | null): InstalmentLocale | null {
  if (!isSupportedInstalmentCountry(country)) return null;
  const c = (country as string).toUpperCase();
  const lang = (shopperLanguage ?? '').slice(0, 2).toLowerCase();
  const language = INSTALMENT_COUNTRIES[c].includes(lang) ? lang : 'en';
  return `${language}_${c}` as InstalmentLocale;
}

/** The brand serving a provider locale. */
export function instalmentBrand(locale: string): InstalmentBrand | null {
  if ((INSTALMENT_LOCALES.clearpay as readonly string[]).includes(locale)) return 'clearpay';
  if ((INSTALMENT_LOCALES.afterpay as readonly string[]).includes(locale)) return 'afterpay';
  return null;
}

/** Eligible when the price is above the minimum and not above the maximum (minor units). */
export function isInstalmentEligiblePrice(price: MinorUnitsInput, min: MinorUnitsInput, max: MinorUnitsInput): boolean {
  const p = toBigIntMinor(price);
  return p > toBigIntMinor(min) && p <= toBigIntMinor(max);
}

/** Only carts where every item is a physical product qualify (an empty cart does not). */
export function isInstalmentEligibleCart(items: readonly { productType?: number }[]): boolean {
  return items.length > 0 && items.every((i) => i.productType === ProductType.PHYSICAL);
}

/**
 * Splits a total into `count` integer payments that add up to the total; the first payments carry
 * the remainder: 1001 in 4 -> [251, 250, 250, 250]. Throws for a count below 1 or a negative total.
 */
export function instalmentAmounts(total: MinorUnitsInput, count: number = DEFAULT_INSTALMENT_COUNT): bigint[] {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`Instalment count must be a positive integer, got ${count}`);
  const t = toBigIntMinor(total);
  if (t < 0n) throw new RangeError('Instalment total must not be negative');
  const n = BigInt(count);
  const base = t / n;
  const remainder = Number(t % n);
  return Array.from({ length: count }, (_, i) => (i < remainder ? base + 1n : base));
}

/** The instalment context of an item. */
export interface InstalmentContext {
  afterPayAvailable: boolean;
  /** Minimum price in minor units (exclusive). */
  afterPayMin: MinorUnitsInput;
  /** Maximum price in minor units (inclusive). */
  afterPayMax: MinorUnitsInput;
  shopperLanguage?: string | null;
  stripeAccountCountry?: string | null;
}

export type InstalmentState =
  | { show: false }
  | {
      show: true;
      eligible: boolean;
      locale: InstalmentLocale;
      brand: InstalmentBrand;
      count: number;
      /** The payments when eligible (first payments carry the remainder). */
      amounts: bigint[];
      /** The pill text: 'or N interest-free payments of {amount} with', or the out-of-range text. */
      text: string;
    };

/**
 * What the instalment pill shows for a price. Hidden when the provider is unavailable or the
 * merchant country is unsupported. Eligible prices show 'or N interest-free payments of {amount} with'
 * (amount = the first, largest payment); a price above the maximum shows 'available for orders up
 * to {max}'; a price at or below the minimum shows 'available for orders over {min}'.
 */
export function instalmentState(
  ctx: InstalmentContext,
  price: MinorUnitsInput,
  currency = 'USD',
  count: number = DEFAULT_INSTALMENT_COUNT,
): InstalmentState {
  if (!ctx.afterPayAvailable) return { show: false };
  const locale = instalmentLocale(ctx.stripeAccountCountry, ctx.shopperLanguage);
  if (!locale) return { show: false };
  const brand = instalmentBrand(locale) as InstalmentBrand;
  const p = toBigIntMinor(price);
  if (isInstalmentEligiblePrice(p, ctx.afterPayMin, ctx.afterPayMax)) {
    const amounts = instalmentAmounts(p, count);
    return {
      show: true,
      eligible: true,
      locale,
      brand,
      count,
      amounts,
      text: text.orPaymentsOfWith(count, formatMoney(amounts[0], currency)),
    };
  }
  const outOfRange =
    p > toBigIntMinor(ctx.afterPayMax)
      ? text.availableUpTo(formatMoney(ctx.afterPayMax, currency))
      : text.availableOver(formatMoney(ctx.afterPayMin, currency));
  return { show: true, eligible: false, locale, brand, count, amounts: [], text: outOfRange };
}

/** 'N interest-free payments of {amount}' for a total (amount = the first payment). */
export function instalmentPaymentsText(total: MinorUnitsInput, currency = 'USD', count: number = DEFAULT_INSTALMENT_COUNT): string {
  return text.paymentsOf(count, formatMoney(instalmentAmounts(total, count)[0], currency));
}
