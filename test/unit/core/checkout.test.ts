import { describe, expect, it } from 'vitest';
import {
  applyBasisPoints,
  cardBrand,
  cardErrors,
  computeCheckout,
  couponReasons,
  luhnValid,
  shippingCost,
  taxRulesFor,
  type Coupon,
  type ShippingOption,
  type TaxRule,
} from '../../../src/core/checkout.js';
import { ProductType } from '../../../src/core/enums.js';

/** A small seeded generator, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]!;
  return { next, int, pick };
}

const NOW = Date.UTC(2026, 5, 1);

describe('checkout totals (property)', () => {
  it('grandTotal = subtotal - discount + shipping + tax, whole cents, never negative, for 5,000 random checkouts', () => {
    const r = rng(20260601);
    for (let run = 0; run < 5000; run++) {
      const lines = Array.from({ length: r.int(0, 5) }, () => ({
        priceCents: r.int(0, 200_000),
        quantity: r.int(1, 20),
        weightGrams: r.int(0, 3000),
        productType: r.pick([ProductType.PHYSICAL, ProductType.DIGITAL, ProductType.SERVICE, ProductType.GIFT_CARD]),
      }));
      const shippingOptions: ShippingOption[] = Array.from({ length: r.int(0, 3) }, (_, i) => {
        const kind = r.pick(['flat', 'free_above', 'weight'] as const);
        return {
          id: `s${i}`,
          name: `S${i}`,
          kind,
          priceCents: r.int(0, 5000),
          freeAboveCents: r.int(0, 50_000),
          weightRates: [
            { upToGrams: r.int(100, 5000), priceCents: r.int(0, 3000) },
            { upToGrams: r.int(5001, 100_000), priceCents: r.int(0, 9000) },
          ],
          countries: r.next() < 0.3 ? ['US'] : [],
        };
      });
      const taxRules: TaxRule[] = Array.from({ length: r.int(0, 3) }, (_, i) => ({
        id: `t${i}`,
        name: `T${i}`,
        country: r.pick(['US', 'CA']),
        region: r.pick(['', 'OR', 'CA', 'ON']),
        rateBasisPoints: r.int(0, 2500),
        appliesToShipping: r.next() < 0.5,
      }));
      const coupons: Coupon[] = Array.from({ length: r.int(0, 4) }, (_, i) => ({
        code: `C${i}`,
        kind: r.pick(['percent', 'fixed', 'free_shipping'] as const),
        percentBasisPoints: r.int(1, 10000),
        amountCents: r.int(1, 300_000),
        minSubtotalCents: r.next() < 0.3 ? r.int(0, 100_000) : 0,
        expiresAt: r.next() < 0.2 ? NOW - 1 : null,
        usageLimit: r.int(0, 2),
        timesUsed: r.int(0, 2),
      }));
      const codes = Array.from({ length: r.int(0, 4) }, () => `c${r.int(0, 5)}`);
      const t = computeCheckout({
        lines,
        shippingOptions,
        selectedShippingOptionId: r.next() < 0.5 ? `s${r.int(0, 3)}` : null,
        location: r.next() < 0.8 ? { country: r.pick(['US', 'CA', 'GB']), region: r.pick(['', 'OR', 'CA', 'ON']) } : null,
        taxRules,
        couponCodes: codes,
        coupons,
        giftCardBalanceCents: r.next() < 0.3 ? r.int(0, 100_000) : 0,
        now: NOW,
      });
      const context = `run ${run}`;
      expect(t.grandTotalCents, context).toBe(t.subtotalCents - t.discountCents + t.shippingCostCents + t.taxCents);
      for (const v of [
        t.subtotalCents,
        t.discountCents,
        t.shippingCostCents,
        t.taxCents,
        t.grandTotalCents,
        t.giftCardCents,
        t.amountDueCents,
      ]) {
        expect(Number.isSafeInteger(v), context).toBe(true);
        expect(v, context).toBeGreaterThanOrEqual(0);
      }
      expect(t.discountCents, context).toBeLessThanOrEqual(t.subtotalCents);
      expect(t.giftCardCents + t.amountDueCents, context).toBe(t.grandTotalCents);
      expect(t.subtotalCents, context).toBe(lines.reduce((s, l) => s + l.priceCents * l.quantity, 0));
      if (!t.requiresShipping) expect(t.shippingCostCents, context).toBe(0);
      expect(t.validCoupons.filter((c) => c.kind !== 'free_shipping').length, context).toBeLessThanOrEqual(1);
      expect(t.validCoupons.length + t.invalidCoupons.length, context).toBe(codes.length);
      // Same inputs, same totals (what the page shows is what the server charges).
      expect(
        computeCheckout({ lines, shippingOptions, taxRules, couponCodes: codes, coupons, now: NOW, location: null }).grandTotalCents,
      ).toBe(
        computeCheckout({
          lines: lines.map((l) => ({ ...l })),
          shippingOptions,
          taxRules,
          couponCodes: [...codes],
          coupons,
          now: NOW,
          location: null,
        }).grandTotalCents,
      );
    }
  });
});

describe('checkout rules', () => {
  const line = (priceCents: number, quantity = 1, weightGrams = 0) => ({
    priceCents,
    quantity,
    weightGrams,
    productType: ProductType.PHYSICAL,
  });

  it('rounds basis points half up', () => {
    expect(applyBasisPoints(1000, 825)).toBe(83); // 82.5
    expect(applyBasisPoints(999, 1000)).toBe(100); // 99.9
    expect(applyBasisPoints(7020 + 599, 500)).toBe(381);
  });

  it('prices shipping: flat, free above an amount, by weight (too heavy is not offered)', () => {
    const flat: ShippingOption = { id: 'a', name: 'A', kind: 'flat', priceCents: 599 };
    const free: ShippingOption = { id: 'b', name: 'B', kind: 'free_above', priceCents: 999, freeAboveCents: 10000 };
    const weight: ShippingOption = {
      id: 'c',
      name: 'C',
      kind: 'weight',
      priceCents: 0,
      weightRates: [
        { upToGrams: 5000, priceCents: 1200 },
        { upToGrams: 1000, priceCents: 450 },
      ],
    };
    expect(shippingCost(flat, 0, 0)).toBe(599);
    expect(shippingCost(free, 9999, 0)).toBe(999);
    expect(shippingCost(free, 10000, 0)).toBe(0);
    expect(shippingCost(weight, 0, 1000)).toBe(450);
    expect(shippingCost(weight, 0, 1001)).toBe(1200);
    expect(shippingCost(weight, 0, 5001)).toBeNull();
  });

  it('applies country-wide and regional tax rules', () => {
    const rules: TaxRule[] = [
      { id: '1', name: 'US', country: 'US', region: '', rateBasisPoints: 100, appliesToShipping: false },
      { id: '2', name: 'CA', country: 'US', region: 'CA', rateBasisPoints: 725, appliesToShipping: false },
      { id: '3', name: 'ON', country: 'CA', region: 'ON', rateBasisPoints: 1300, appliesToShipping: true },
    ];
    expect(taxRulesFor(rules, { country: 'us', region: 'ca' }).map((r) => r.id)).toEqual(['1', '2']);
    expect(taxRulesFor(rules, { country: 'US', region: 'OR' }).map((r) => r.id)).toEqual(['1']);
    expect(taxRulesFor(rules, null)).toEqual([]);
  });

  it('explains invalid coupons', () => {
    const coupons: Coupon[] = [
      { code: 'MIN', kind: 'fixed', amountCents: 500, minSubtotalCents: 5000, expiresAt: null, usageLimit: 0, timesUsed: 0 },
      { code: 'GONE', kind: 'percent', percentBasisPoints: 1000, minSubtotalCents: 0, expiresAt: NOW, usageLimit: 0, timesUsed: 0 },
      { code: 'USED', kind: 'percent', percentBasisPoints: 1000, minSubtotalCents: 0, expiresAt: null, usageLimit: 3, timesUsed: 3 },
      { code: 'SHIP', kind: 'free_shipping', minSubtotalCents: 0, expiresAt: null, usageLimit: 0, timesUsed: 0 },
    ];
    const t = computeCheckout(
      {
        lines: [{ priceCents: 1000, quantity: 1, productType: ProductType.DIGITAL }],
        shippingOptions: [],
        taxRules: [],
        couponCodes: ['min', 'gone', 'used', 'ship', 'what', 'MIN'],
        coupons,
        now: NOW,
      },
      (c) => `$${(c / 100).toFixed(2)}`,
    );
    expect(t.invalidCoupons).toEqual([
      { code: 'MIN', reason: couponReasons.minimum('$50.00') },
      { code: 'GONE', reason: couponReasons.EXPIRED },
      { code: 'USED', reason: couponReasons.USED_UP },
      { code: 'SHIP', reason: couponReasons.NO_SHIPPING },
      { code: 'WHAT', reason: couponReasons.UNKNOWN },
      { code: 'MIN', reason: couponReasons.DUPLICATE },
    ]);
  });

  it('free shipping coupon zeroes shipping; a fixed coupon never takes the total below zero', () => {
    const opts: ShippingOption[] = [{ id: 'a', name: 'A', kind: 'flat', priceCents: 599 }];
    const coupons: Coupon[] = [
      { code: 'SHIP', kind: 'free_shipping', minSubtotalCents: 0, expiresAt: null, usageLimit: 0, timesUsed: 0 },
      { code: 'BIG', kind: 'fixed', amountCents: 100000, minSubtotalCents: 0, expiresAt: null, usageLimit: 0, timesUsed: 0 },
    ];
    const t = computeCheckout({
      lines: [line(2500, 2, 100)],
      shippingOptions: opts,
      taxRules: [],
      couponCodes: ['SHIP', 'BIG'],
      coupons,
      now: NOW,
    });
    expect(t).toMatchObject({ subtotalCents: 5000, discountCents: 5000, shippingCostCents: 0, grandTotalCents: 0 });
  });

  it('checks cards like a provider would', () => {
    expect(luhnValid('4242 4242 4242 4242')).toBe(true);
    expect(luhnValid('4242 4242 4242 4241')).toBe(false);
    expect(cardBrand('4000002760003184')).toBe('visa');
    expect(cardBrand('5555555555554444')).toBe('mastercard');
    expect(cardBrand('378282246310005')).toBe('amex');
    expect(cardErrors({ number: '4242424242424242', expiry: '01/20', cvc: '12' }, NOW)).toEqual({
      cardExpiry: 'Your card has expired.',
      cardCvc: "Your card's security code is incomplete.",
    });
    expect(cardErrors({ number: '4242424242424242', expiry: '12/30', cvc: '123' }, NOW)).toEqual({});
  });
});

describe('coupons and gift cards (issue 21, item 15)', () => {
  const coupon = (c: Partial<Coupon>): Coupon => ({
    code: 'C',
    kind: 'percent',
    percentBasisPoints: 5000,
    minSubtotalCents: 0,
    expiresAt: null,
    usageLimit: 0,
    timesUsed: 0,
    ...c,
  });
  const lines = [
    { priceCents: 10000, quantity: 1, productType: ProductType.GIFT_CARD },
    { priceCents: 3000, quantity: 1, productType: ProductType.DIGITAL },
  ];
  const run = (c: Coupon) => computeCheckout({ lines, shippingOptions: [], taxRules: [], couponCodes: ['C'], coupons: [c], now: 0 });

  it('discounts only what is not a gift card, unless the coupon says otherwise', () => {
    expect(run(coupon({})).discountCents).toBe(1500);
    expect(run(coupon({ kind: 'fixed', amountCents: 7000 })).discountCents).toBe(3000);
    expect(run(coupon({ appliesToGiftCards: true })).discountCents).toBe(6500);
    expect(run(coupon({ kind: 'fixed', amountCents: 7000, appliesToGiftCards: true })).discountCents).toBe(7000);
  });
});
