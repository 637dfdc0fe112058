/**
 * Subscription price text.
 *
 * Wording: '{price} every {period}' for open-ended plans (numBillingCycles 0) and
 * '{price} every {period} for {duration}' for a fixed number of cycles, where period is 'week',
 * 'month', 'year' or '{n} weeks|months|years', and duration is the whole length
 * (value x cycles). A period or duration in weeks (multiple of 52) or months (multiple of 12)
 * that makes whole years is shown in years unless `inYears: false`. Where no wording fits
 * (unknown unit, a value that is not a positive integer, negative or fractional cycles), the
 * text is 'Unavailable'.
 */
import { MONTHS_PER_YEAR, WEEKS_PER_YEAR } from './constants';
import { BillingPeriodUnit } from './enums';
import { commerce } from './messages';
import type { BillingPeriod, SubscriptionPlan } from './product';

const UNIT_WORD: Record<BillingPeriodUnit, [string, string]> = {
  WEEK: ['week', 'weeks'],
  MONTH: ['month', 'months'],
  YEAR: ['year', 'years'],
};

export interface SubscriptionTextOptions {
  /** Show whole years for weeks and months that make whole years (default true). */
  inYears?: boolean;
}

function normalizeUnit(unit: unknown): BillingPeriodUnit | null {
  if (typeof unit !== 'string') return null;
  const u = unit.toUpperCase();
  return u === 'WEEK' || u === 'MONTH' || u === 'YEAR' ? (u as BillingPeriodUnit) : null;
}

/** Converts a length to years when it makes whole years (and the option allows). */
export function toDisplayUnit(value: number, unit: BillingPeriodUnit, inYears = true): { value: number; unit: BillingPeriodUnit } {
  if (inYears) {
    if (unit === BillingPeriodUnit.WEEK && value % WEEKS_PER_YEAR === 0) return { value: value / WEEKS_PER_YEAR, unit: 'YEAR' };
    if (unit === BillingPeriodUnit.MONTH && value % MONTHS_PER_YEAR === 0) return { value: value / MONTHS_PER_YEAR, unit: 'YEAR' };
  }
  return { value, unit };
}

function lengthWords(value: number, unit: BillingPeriodUnit, singularBare: boolean): string {
  const [one, many] = UNIT_WORD[unit];
  if (value === 1) return singularBare ? one : `1 ${one}`;
  return `${value} ${many}`;
}

/** 'week', '2 weeks', 'year' ...; null where no wording fits. */
export function billingPeriodText(period: BillingPeriod | null | undefined, options: SubscriptionTextOptions = {}): string | null {
  const unit = normalizeUnit(period?.unit);
  const value = period?.value;
  if (!unit || typeof value !== 'number' || !Number.isInteger(value) || value < 1) return null;
  const d = toDisplayUnit(value, unit, options.inYears ?? true);
  return lengthWords(d.value, d.unit, true);
}

/**
 * A plan's billing in the units it is worded in, or null where no wording fits: the one rule of subscription
 * wording (the checkout's text below and the theme-facing `product-price` formatter, core/product-price.ts).
 * The period is WEEK, MONTH or YEAR (any case) with a positive whole value; the cycles a whole number, 0 or
 * more (missing: 0, open-ended); period and duration are said in years when they make whole years.
 */
export interface SubscriptionTerms {
  /** The billing period, as worded ('every 52 weeks' is 'every year' unless inYears is false). */
  period: { value: number; unit: BillingPeriodUnit };
  /** Billing cycles; 0 is open-ended. */
  cycles: number;
  /** The whole length (period x cycles), as worded; value 0 when open-ended. */
  duration: { value: number; unit: BillingPeriodUnit };
}

export function subscriptionTerms(plan: unknown, options: SubscriptionTextOptions = {}): SubscriptionTerms | null {
  const p = plan !== null && typeof plan === 'object' ? (plan as Partial<Record<keyof SubscriptionPlan, unknown>>) : undefined;
  const bp =
    p?.billingPeriod !== null && typeof p?.billingPeriod === 'object'
      ? (p.billingPeriod as Partial<Record<keyof BillingPeriod, unknown>>)
      : undefined;
  const unit = normalizeUnit(bp?.unit);
  const value = bp?.value;
  if (!unit || typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) return null;
  const cycles = p?.numBillingCycles ?? 0;
  if (typeof cycles !== 'number' || !Number.isSafeInteger(cycles) || cycles < 0 || !Number.isSafeInteger(value * cycles)) return null;
  const inYears = options.inYears ?? true;
  return {
    period: toDisplayUnit(value, unit, inYears),
    cycles,
    duration: cycles === 0 ? { value: 0, unit } : toDisplayUnit(value * cycles, unit, inYears),
  };
}

/** The full text for a plan and an already formatted price, or 'Unavailable'. */
export function subscriptionPriceText(
  price: string,
  plan: SubscriptionPlan | null | undefined,
  options: SubscriptionTextOptions = {},
): string {
  const t = subscriptionTerms(plan, options);
  if (t === null) return commerce.UNAVAILABLE;
  const period = lengthWords(t.period.value, t.period.unit, true);
  if (t.cycles === 0) return `${price} every ${period}`;
  return `${price} every ${period} for ${lengthWords(t.duration.value, t.duration.unit, false)}`;
}
