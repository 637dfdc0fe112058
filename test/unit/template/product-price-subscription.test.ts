/**
 * Issue 45 item 7: the theme-facing `product-price` words a subscription by core/subscription.ts's one rule,
 * the checkout's own: where no wording fits it is 'Unavailable', never invented wording.
 */
import { describe, expect, it } from 'vitest';
import { render } from '../../../src/template/index.js';
import { subscriptionPriceText } from '../../../src/core/subscription.js';
import { commerce } from '../../../src/core/messages.js';
import type { SubscriptionPlan } from '../../../src/core/product.js';

const item = (plan: unknown) => ({
  structuredContent: {
    productType: 1,
    isSubscribable: true,
    subscriptionPlan: plan,
    variants: [
      {
        sku: 'a',
        attributes: {},
        priceMoney: { value: '1000', currency: 'USD' },
        salePriceMoney: { value: '0', currency: 'USD' },
        unlimited: true,
      },
    ],
  },
});
const text = (plan: unknown, args = '') => {
  const html = render(`{@|product-price${args}}`, item(plan), { locale: 'en-US' }).output;
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
};

const PLANS: unknown[] = [
  { billingPeriod: { value: 1, unit: 'WEEK' }, numBillingCycles: 0 },
  { billingPeriod: { value: 2, unit: 'WEEK' }, numBillingCycles: 4 },
  { billingPeriod: { value: 1, unit: 'MONTH' }, numBillingCycles: 12 },
  { billingPeriod: { value: 3, unit: 'MONTH' }, numBillingCycles: 5 },
  { billingPeriod: { value: 1, unit: 'YEAR' }, numBillingCycles: 2 },
  { billingPeriod: { value: 1, unit: 'month' }, numBillingCycles: 0 },
  { billingPeriod: { value: 52, unit: 'WEEK' }, numBillingCycles: 0 },
  { billingPeriod: { value: 12, unit: 'MONTH' }, numBillingCycles: 3 },
  { billingPeriod: { value: 26, unit: 'WEEK' }, numBillingCycles: 2 },
  { billingPeriod: { value: 1, unit: 'FORTNIGHT' }, numBillingCycles: 2 },
  { billingPeriod: { value: 1.5, unit: 'MONTH' }, numBillingCycles: 0 },
  { billingPeriod: { value: 0, unit: 'MONTH' }, numBillingCycles: 0 },
  { billingPeriod: { value: -1, unit: 'MONTH' }, numBillingCycles: 0 },
  { billingPeriod: { value: 1, unit: 'MONTH' }, numBillingCycles: -3 },
  { billingPeriod: { value: 1, unit: 'MONTH' }, numBillingCycles: 2.5 },
  { billingPeriod: { value: '2', unit: 'MONTH' }, numBillingCycles: 0 },
  { billingPeriod: { unit: 'MONTH' } },
  { billingPeriod: null },
  {},
  null,
];

describe('product-price subscription wording', () => {
  it('says what the checkout says, for every plan', () => {
    for (const plan of PLANS) expect(text(plan), JSON.stringify(plan)).toBe(subscriptionPriceText('10.00', plan as SubscriptionPlan));
  });

  it('gives Unavailable for an unknown unit, a fractional or non-positive period, negative or fractional cycles', () => {
    expect(text({ billingPeriod: { value: 1, unit: 'FORTNIGHT' }, numBillingCycles: 2 })).toBe(commerce.UNAVAILABLE);
    expect(text({ billingPeriod: { value: 1.5, unit: 'MONTH' }, numBillingCycles: 0 })).toBe(commerce.UNAVAILABLE);
    expect(text({ billingPeriod: { value: 1, unit: 'MONTH' }, numBillingCycles: -3 })).toBe(commerce.UNAVAILABLE);
  });

  it('says 52 weeks and 12 months as a year, as a period as well as a duration; noyears keeps the unit', () => {
    expect(text({ billingPeriod: { value: 52, unit: 'WEEK' }, numBillingCycles: 0 })).toBe('10.00 every year');
    expect(text({ billingPeriod: { value: 12, unit: 'MONTH' }, numBillingCycles: 3 })).toBe('10.00 every year for 3 years');
    expect(text({ billingPeriod: { value: 52, unit: 'WEEK' }, numBillingCycles: 0 }, ' noyears')).toBe('10.00 every 52 weeks');
    expect(text({ billingPeriod: { value: 2, unit: 'WEEK' }, numBillingCycles: 26 }, ' noyears')).toBe('10.00 every 2 weeks for 52 weeks');
  });
});
