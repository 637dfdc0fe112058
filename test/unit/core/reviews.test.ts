import { describe, expect, it } from 'vitest';
import { isRating, ratingSummary } from '../../../src/core/reviews.js';
import { donationAmount } from '../../../src/core/donations.js';
import { donations as text } from '../../../src/core/messages.js';

describe('rating summary', () => {
  it('averages to one decimal, rounding half up, with its texts', () => {
    expect(ratingSummary(0, 0)).toMatchObject({ count: 0, average: 0, averageText: '0.0', countText: '0 reviews', percent: 0 });
    expect(ratingSummary(1, 5)).toMatchObject({
      average: 5,
      averageText: '5.0',
      label: '5.0 out of 5 stars',
      countText: '1 review',
      percent: 100,
    });
    expect(ratingSummary(2, 9).averageText).toBe('4.5');
    expect(ratingSummary(20, 89).averageText).toBe('4.5'); // 4.45
    expect(ratingSummary(3, 13).averageText).toBe('4.3'); // 4.333
    expect(ratingSummary(3, 14).averageText).toBe('4.7'); // 4.666
  });
  it('knows a rating', () => {
    expect([1, 5].every(isRating)).toBe(true);
    expect([0, 6, 2.5, '3', null].some(isRating)).toBe(false);
  });
});

describe('donation amounts', () => {
  const limits = { minimumCents: 100, maximumCents: 10_000_000 };
  it('reads suggested amounts in minor units and custom amounts in major units of the currency', () => {
    expect(donationAmount({ amountCents: 2500 }, 'USD', limits)).toEqual({ ok: true, cents: 2500 });
    expect(donationAmount({ amountCents: '2500' }, 'USD', limits)).toEqual({ ok: true, cents: 2500 });
    expect(donationAmount({ amountCents: 'custom', customAmount: '12.5' }, 'USD', limits)).toEqual({ ok: true, cents: 1250 });
    expect(donationAmount({ customAmount: '$1,000.00' }, 'USD', limits)).toEqual({ ok: true, cents: 100000 });
    expect(donationAmount({ customAmount: '500' }, 'JPY', limits)).toEqual({ ok: true, cents: 500 });
  });
  it("refuses what is not an amount or is out of bounds, in the donor's words", () => {
    expect(donationAmount({}, 'USD', limits)).toEqual({ ok: false, message: text.AMOUNT_REQUIRED });
    expect(donationAmount({ amountCents: 'custom', customAmount: ' ' }, 'USD', limits)).toEqual({
      ok: false,
      message: text.AMOUNT_REQUIRED,
    });
    for (const bad of ['abc', '-5', '1e3', '12.345', '1.2.3', '0x10'])
      expect(donationAmount({ customAmount: bad }, 'USD', limits)).toEqual({ ok: false, message: text.AMOUNT_INVALID });
    expect(donationAmount({ customAmount: '12.5' }, 'JPY', limits)).toEqual({ ok: false, message: text.AMOUNT_INVALID });
    expect(donationAmount({ amountCents: 12.5 }, 'USD', limits)).toEqual({ ok: false, message: text.AMOUNT_INVALID });
    expect(donationAmount({ amountCents: 99 }, 'USD', limits)).toEqual({ ok: false, message: text.tooSmall('$1.00') });
    expect(donationAmount({ amountCents: 10_000_001 }, 'USD', limits)).toEqual({ ok: false, message: text.tooLarge('$100,000.00') });
  });
});
