/**
 * Checkout totals: shipping options, tax rules and coupons applied to a cart, as one pure function the
 * server (quotes and place-order) and the browser (the checkout island) both run, so the page shows
 * exactly what the order charges. All amounts are integer minor units; rates are basis points
 * (1/100 of a percent: 825 = 8.25 %), rounded half up once per rule.
 *
 *   grandTotal = subtotal - discount + shipping + tax, never negative (discount never exceeds subtotal).
 *
 * A gift card is a way to pay, not a discount: it lowers the amount due, never the grand total.
 */
import { ProductType } from './enums';

export type ShippingKind = 'flat' | 'free_above' | 'weight';

export interface WeightRate {
  /** The rate applies to parcels up to this weight (grams, inclusive). */
  upToGrams: number;
  priceCents: number;
}

export interface ShippingOption {
  id: string;
  name: string;
  kind: ShippingKind;
  /** flat: the price; free_above: the price below the threshold. */
  priceCents: number;
  /** free_above: the merchandise subtotal at or above which shipping is free. */
  freeAboveCents?: number;
  /** weight: the price by parcel weight; heavier than every tier means the option is not offered. */
  weightRates?: WeightRate[];
  /** ISO country codes the option ships to; empty means everywhere. */
  countries?: string[];
}

export interface TaxRule {
  id: string;
  name: string;
  /** ISO country code. */
  country: string;
  /** Region (state, province) code; '' applies to the whole country. */
  region: string;
  rateBasisPoints: number;
  /** Whether shipping is taxed too. */
  appliesToShipping: boolean;
}

export type CouponKind = 'percent' | 'fixed' | 'free_shipping';

export interface Coupon {
  code: string;
  kind: CouponKind;
  /** percent: basis points (1000 = 10 %). */
  percentBasisPoints?: number;
  /** fixed: the amount off. */
  amountCents?: number;
  minSubtotalCents: number;
  /** Epoch milliseconds; null when it never expires. */
  expiresAt: number | null;
  /** 0 means no limit. */
  usageLimit: number;
  timesUsed: number;
  /** Whether the discount also applies to gift cards in the cart; off (the default) leaves them at full price. */
  appliesToGiftCards?: boolean;
}

export interface CheckoutLine {
  priceCents: number;
  quantity: number;
  weightGrams?: number;
  productType?: number;
}

export interface ShippingLocation {
  country: string;
  region?: string;
}

export interface CheckoutInput {
  lines: readonly CheckoutLine[];
  shippingOptions: readonly ShippingOption[];
  selectedShippingOptionId?: string | null;
  location?: ShippingLocation | null;
  taxRules: readonly TaxRule[];
  /** The codes the visitor entered, in order. */
  couponCodes: readonly string[];
  /** The coupons the store has for those codes (unknown codes are simply missing). */
  coupons: readonly Coupon[];
  /** The balance of the gift card the visitor pays with, if any. */
  giftCardBalanceCents?: number;
  now: number;
}

export interface PricedShippingOption extends ShippingOption {
  costCents: number;
}

export interface InvalidCoupon {
  code: string;
  reason: string;
}

export interface AppliedTaxRule extends TaxRule {
  taxCents: number;
}

export interface CheckoutTotals {
  subtotalCents: number;
  discountCents: number;
  shippingCostCents: number;
  taxCents: number;
  grandTotalCents: number;
  /** What the gift card pays (at most the grand total). */
  giftCardCents: number;
  /** What is left to pay by card. */
  amountDueCents: number;
  requiresShipping: boolean;
  totalWeightGrams: number;
  shippingOptions: PricedShippingOption[];
  selectedShippingOption: PricedShippingOption | null;
  applicableTaxRules: AppliedTaxRule[];
  validCoupons: Coupon[];
  invalidCoupons: InvalidCoupon[];
}

/** Reasons a coupon code is refused (shown next to the code). */
export const couponReasons = {
  UNKNOWN: 'This coupon code does not exist.',
  EXPIRED: 'This coupon has expired.',
  USED_UP: 'This coupon has reached its usage limit.',
  DUPLICATE: 'This coupon code has already been entered.',
  ONE_DISCOUNT: 'Only one discount coupon can be used per order.',
  NO_SHIPPING: 'This order has no shipping to discount.',
  /** 'Your order subtotal must be {amount} or more to use this coupon.' with the amount formatted by the caller. */
  minimum: (formattedAmount: string) => `Your order subtotal must be ${formattedAmount} or more to use this coupon.`,
} as const;

/** Coupon codes are compared without case or surrounding space. */
export function normalizeCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

const whole = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) ? Math.max(0, Math.trunc(n)) : 0);

/** amount x basisPoints / 10000, rounded half up, for non-negative integers. */
export function applyBasisPoints(amountCents: number, basisPoints: number): number {
  const a = whole(amountCents);
  const bp = whole(basisPoints);
  return Math.floor((a * bp + 5000) / 10000);
}

/** The cost of an option for a parcel, or null when the option does not take it. */
export function shippingCost(option: ShippingOption, subtotalCents: number, weightGrams: number): number | null {
  switch (option.kind) {
    case 'flat':
      return whole(option.priceCents);
    case 'free_above':
      return subtotalCents >= whole(option.freeAboveCents) ? 0 : whole(option.priceCents);
    case 'weight': {
      const tiers = [...(option.weightRates ?? [])].sort((a, b) => a.upToGrams - b.upToGrams);
      const tier = tiers.find((t) => weightGrams <= t.upToGrams);
      return tier ? whole(tier.priceCents) : null;
    }
    default:
      return null;
  }
}

function shipsTo(option: ShippingOption, location: ShippingLocation | null | undefined): boolean {
  const countries = option.countries ?? [];
  if (countries.length === 0) return true;
  if (!location?.country) return false;
  const c = location.country.toUpperCase();
  return countries.some((x) => x.toUpperCase() === c);
}

/** The tax rules that apply to a location: the country's rules without a region, and the region's own. */
export function taxRulesFor(rules: readonly TaxRule[], location: ShippingLocation | null | undefined): TaxRule[] {
  if (!location?.country) return [];
  const country = location.country.toUpperCase();
  const region = (location.region ?? '').trim().toUpperCase();
  return rules.filter((r) => r.country.toUpperCase() === country && (r.region === '' || r.region.toUpperCase() === region));
}

/** Why a coupon cannot be used (before the one-discount rule), or null. */
export function couponProblem(c: Coupon, subtotalCents: number, now: number, formatAmount: (cents: number) => string): string | null {
  if (c.expiresAt !== null && now >= c.expiresAt) return couponReasons.EXPIRED;
  if (c.usageLimit > 0 && c.timesUsed >= c.usageLimit) return couponReasons.USED_UP;
  if (subtotalCents < whole(c.minSubtotalCents)) return couponReasons.minimum(formatAmount(whole(c.minSubtotalCents)));
  return null;
}

/** Every total of a checkout. Pure: the same inputs give the same totals on server and page. */
export function computeCheckout(input: CheckoutInput, formatAmount: (cents: number) => string = (c) => String(c)): CheckoutTotals {
  let subtotalCents = 0;
  let giftCardSubtotalCents = 0;
  let totalWeightGrams = 0;
  let requiresShipping = false;
  for (const l of input.lines) {
    const q = whole(l.quantity);
    subtotalCents += whole(l.priceCents) * q;
    if (l.productType === ProductType.GIFT_CARD) giftCardSubtotalCents += whole(l.priceCents) * q;
    if ((l.productType ?? ProductType.PHYSICAL) === ProductType.PHYSICAL) {
      requiresShipping = true;
      totalWeightGrams += whole(l.weightGrams) * q;
    }
  }

  // Coupons: each code once; at most one money-off coupon; free shipping only when there is shipping.
  const byCode = new Map(input.coupons.map((c) => [normalizeCouponCode(c.code), c]));
  const seen = new Set<string>();
  const validCoupons: Coupon[] = [];
  const invalidCoupons: InvalidCoupon[] = [];
  let discountCoupon: Coupon | null = null;
  let freeShipping = false;
  for (const raw of input.couponCodes) {
    const code = normalizeCouponCode(raw);
    if (!code) continue;
    if (seen.has(code)) {
      invalidCoupons.push({ code, reason: couponReasons.DUPLICATE });
      continue;
    }
    seen.add(code);
    const c = byCode.get(code);
    if (!c) {
      invalidCoupons.push({ code, reason: couponReasons.UNKNOWN });
      continue;
    }
    const problem = couponProblem(c, subtotalCents, input.now, formatAmount);
    if (problem) {
      invalidCoupons.push({ code, reason: problem });
      continue;
    }
    if (c.kind === 'free_shipping') {
      if (!requiresShipping) {
        invalidCoupons.push({ code, reason: couponReasons.NO_SHIPPING });
        continue;
      }
      freeShipping = true;
    } else {
      if (discountCoupon) {
        invalidCoupons.push({ code, reason: couponReasons.ONE_DISCOUNT });
        continue;
      }
      discountCoupon = c;
    }
    validCoupons.push(c);
  }
  // A gift card is money: a coupon discounts it only when the owner said so on the coupon.
  const discountable = discountCoupon?.appliesToGiftCards === true ? subtotalCents : subtotalCents - giftCardSubtotalCents;
  let discountCents = 0;
  if (discountCoupon?.kind === 'percent')
    discountCents = applyBasisPoints(discountable, Math.min(10000, whole(discountCoupon.percentBasisPoints)));
  else if (discountCoupon?.kind === 'fixed') discountCents = whole(discountCoupon.amountCents);
  discountCents = Math.min(discountCents, discountable);

  // Shipping: the options that ship to the location and take the parcel, priced.
  const shippingOptions: PricedShippingOption[] = [];
  if (requiresShipping) {
    for (const o of input.shippingOptions) {
      if (!shipsTo(o, input.location)) continue;
      const cost = shippingCost(o, subtotalCents, totalWeightGrams);
      if (cost === null) continue;
      shippingOptions.push({ ...o, costCents: freeShipping ? 0 : cost });
    }
  }
  const selectedShippingOption = requiresShipping
    ? (shippingOptions.find((o) => o.id === input.selectedShippingOptionId) ?? shippingOptions[0] ?? null)
    : null;
  const shippingCostCents = selectedShippingOption?.costCents ?? 0;

  // Tax: each applicable rule on the discounted merchandise, plus shipping where the rule says so.
  const goods = subtotalCents - discountCents;
  const applicableTaxRules: AppliedTaxRule[] = taxRulesFor(input.taxRules, input.location).map((r) => ({
    ...r,
    taxCents: applyBasisPoints(goods + (r.appliesToShipping ? shippingCostCents : 0), r.rateBasisPoints),
  }));
  const taxCents = applicableTaxRules.reduce((s, r) => s + r.taxCents, 0);

  const grandTotalCents = Math.max(0, subtotalCents - discountCents + shippingCostCents + taxCents);
  const giftCardCents = Math.min(whole(input.giftCardBalanceCents), grandTotalCents);
  return {
    subtotalCents,
    discountCents,
    shippingCostCents,
    taxCents,
    grandTotalCents,
    giftCardCents,
    amountDueCents: grandTotalCents - giftCardCents,
    requiresShipping,
    totalWeightGrams,
    shippingOptions,
    selectedShippingOption,
    applicableTaxRules,
    validCoupons,
    invalidCoupons,
  };
}

// ---- Cards (what the browser may check before sending; the provider decides) --------------------

/** Digits only. */
export function cardDigits(number: string): string {
  return number.replace(/[\s-]/g, '');
}

/** The Luhn check of a card number. */
export function luhnValid(number: string): boolean {
  const d = cardDigits(number);
  if (!/^\d{12,19}$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < d.length; i++) {
    let x = d.charCodeAt(d.length - 1 - i) - 48;
    if (i % 2 === 1) {
      x *= 2;
      if (x > 9) x -= 9;
    }
    sum += x;
  }
  return sum % 10 === 0;
}

/** The card brand from the number's prefix. */
export function cardBrand(number: string): string {
  const d = cardDigits(number);
  if (/^4/.test(d)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(d)) return 'mastercard';
  if (/^3[47]/.test(d)) return 'amex';
  if (/^6(011|5)/.test(d)) return 'discover';
  return 'card';
}

export const cardMessages = {
  NUMBER_INVALID: 'Your card number is incorrect.',
  EXPIRY_INVALID: "Your card's expiration date is incomplete.",
  EXPIRED: 'Your card has expired.',
  CVC_INVALID: "Your card's security code is incomplete.",
} as const;

/** Parses 'MM/YY' or 'MM/YYYY'. */
export function parseExpiry(text: string): { month: number; year: number } | null {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!m) return null;
  const month = Number(m[1]);
  let year = Number(m[2]);
  if (year < 100) year += 2000;
  if (month < 1 || month > 12) return null;
  return { month, year };
}

/** Field errors of a card form (number, expiry, cvc), empty when it may be sent. */
export function cardErrors(card: { number: string; expiry: string; cvc: string }, now: number): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!luhnValid(card.number)) errors.cardNumber = cardMessages.NUMBER_INVALID;
  const exp = parseExpiry(card.expiry);
  if (!exp) errors.cardExpiry = cardMessages.EXPIRY_INVALID;
  else {
    const d = new Date(now);
    const y = d.getUTCFullYear();
    const mo = d.getUTCMonth() + 1;
    if (exp.year < y || (exp.year === y && exp.month < mo)) errors.cardExpiry = cardMessages.EXPIRED;
  }
  if (!/^\d{3,4}$/.test(card.cvc.trim())) errors.cardCvc = cardMessages.CVC_INVALID;
  return errors;
}
