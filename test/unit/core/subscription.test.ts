import { describe, expect, it } from 'vitest';
import { billingPeriodText, subscriptionPriceText, toDisplayUnit } from '../../../src/core/subscription';

const plan = (value: number, unit: string, numBillingCycles = 0) => ({
  billingPeriod: { value, unit: unit as 'WEEK' },
  numBillingCycles,
});

describe('billingPeriodText', () => {
  it('singular and plural', () => {
    expect(billingPeriodText({ value: 1, unit: 'WEEK' })).toBe('week');
    expect(billingPeriodText({ value: 2, unit: 'WEEK' })).toBe('2 weeks');
    expect(billingPeriodText({ value: 3, unit: 'MONTH' })).toBe('3 months');
    expect(billingPeriodText({ value: 1, unit: 'YEAR' })).toBe('year');
  });
  it('whole years unless told not to', () => {
    expect(billingPeriodText({ value: 12, unit: 'MONTH' })).toBe('year');
    expect(billingPeriodText({ value: 24, unit: 'MONTH' })).toBe('2 years');
    expect(billingPeriodText({ value: 52, unit: 'WEEK' })).toBe('year');
    expect(billingPeriodText({ value: 12, unit: 'MONTH' }, { inYears: false })).toBe('12 months');
    expect(billingPeriodText({ value: 6, unit: 'MONTH' })).toBe('6 months');
  });
  it('null where no wording fits', () => {
    expect(billingPeriodText({ value: 0, unit: 'MONTH' })).toBeNull();
    expect(billingPeriodText({ value: 1.5, unit: 'MONTH' })).toBeNull();
    expect(billingPeriodText({ value: 1, unit: 'DAY' as 'WEEK' })).toBeNull();
    expect(billingPeriodText(null)).toBeNull();
  });
  it('toDisplayUnit', () => {
    expect(toDisplayUnit(104, 'WEEK')).toEqual({ value: 2, unit: 'YEAR' });
    expect(toDisplayUnit(53, 'WEEK')).toEqual({ value: 53, unit: 'WEEK' });
  });
});

describe('subscriptionPriceText', () => {
  it('open-ended with 0 cycles', () => {
    expect(subscriptionPriceText('$10.00', plan(1, 'MONTH'))).toBe('$10.00 every month');
    expect(subscriptionPriceText('$10.00', plan(2, 'week'))).toBe('$10.00 every 2 weeks');
  });
  it('fixed durations, in years when whole', () => {
    expect(subscriptionPriceText('$10.00', plan(1, 'MONTH', 6))).toBe('$10.00 every month for 6 months');
    expect(subscriptionPriceText('$10.00', plan(1, 'MONTH', 12))).toBe('$10.00 every month for 1 year');
    expect(subscriptionPriceText('$10.00', plan(1, 'MONTH', 12), { inYears: false })).toBe('$10.00 every month for 12 months');
    expect(subscriptionPriceText('$5.00', plan(2, 'WEEK', 26))).toBe('$5.00 every 2 weeks for 1 year');
    expect(subscriptionPriceText('$5.00', plan(1, 'WEEK', 1))).toBe('$5.00 every week for 1 week');
  });
  it('Unavailable where no wording fits', () => {
    expect(subscriptionPriceText('$1.00', null)).toBe('Unavailable');
    expect(subscriptionPriceText('$1.00', plan(0, 'MONTH'))).toBe('Unavailable');
    expect(subscriptionPriceText('$1.00', plan(1, 'MONTH', -1))).toBe('Unavailable');
    expect(subscriptionPriceText('$1.00', plan(1, 'FORTNIGHT'))).toBe('Unavailable');
  });
});
