import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import {
  instalmentAmounts,
  instalmentLocale,
  instalmentBrand,
  instalmentState,
  type InstalmentContext,
} from '../../../../src/core/instalments.js';
import { ProductType } from '../../../../src/core/enums.js';
import { formatMoney, SUPPORTED_CURRENCIES } from '../../../../src/core/money.js';
import { parseInstalmentPreferences, NO_INSTALMENTS } from '../../../../src/server/instalments/preferences.js';
import {
  itemInstalmentContext,
  storeInstalmentContext,
  instalmentContextFor,
  withInstalmentState,
} from '../../../../src/server/instalments/context.js';
import { ModalService } from '../../../../src/server/instalments/modal.js';
import { localInstalmentInfo, BRAND_NAMES } from '../../../../src/web/client/instalment-info.js';
import {
  InstalmentCartPill,
  InstalmentMessage,
  InstalmentPill,
  cartQualifies,
  productInstalmentPrice,
} from '../../../../src/web/islands/InstalmentPill.js';
import type { ProductProps } from '../../../../src/web/islands/product-props.js';

const ctx = (over: Partial<InstalmentContext> = {}): InstalmentContext => ({
  afterPayAvailable: true,
  afterPayMin: 100,
  afterPayMax: 7000,
  shopperLanguage: 'en-US',
  stripeAccountCountry: 'US',
  ...over,
});

/** The pill's visible text (tags dropped, the mark's hidden word kept). */
const pillText = (context: InstalmentContext | null, price: number | bigint, currency = 'USD') =>
  renderToString(createElement(InstalmentMessage, { context, priceCents: price, currency, idBase: 't' }))
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('eligibility edges (min exclusive, max inclusive)', () => {
  it('exactly the minimum is not eligible and says "over {min}"', () => {
    const s = instalmentState(ctx(), 100);
    expect(s.show && s.eligible).toBe(false);
    expect(pillText(ctx(), 100)).toBe('afterpay available for orders over $1.00 more information');
  });
  it('just above the minimum is eligible, and the payments add up', () => {
    const s = instalmentState(ctx(), 101);
    expect(s.show && s.eligible).toBe(true);
    expect(s.show && s.amounts).toEqual([26n, 25n, 25n, 25n]);
    expect(pillText(ctx(), 101)).toBe('or 4 interest-free payments of $0.26 with afterpay more information');
  });
  it('exactly the maximum is eligible', () => {
    expect(pillText(ctx(), 7000)).toBe('or 4 interest-free payments of $17.50 with afterpay more information');
  });
  it('just above the maximum says "up to {max}"', () => {
    expect(pillText(ctx(), 7001)).toBe('afterpay available for orders up to $70.00 more information');
    expect(pillText(ctx(), 7200)).toBe('afterpay available for orders up to $70.00 more information');
  });
  it('far below the minimum and zero say "over {min}"', () => {
    expect(pillText(ctx({ afterPayMin: 3500 }), 0)).toBe('afterpay available for orders over $35.00 more information');
  });
  it('instalment amounts always add up to the total, first payments carrying the remainder', () => {
    for (const total of [0, 1, 3, 101, 6800, 7001, 99999, 123456789]) {
      const parts = instalmentAmounts(total);
      expect(parts).toHaveLength(4);
      expect(parts.reduce((a, b) => a + b, 0n)).toBe(BigInt(total));
      expect(parts[0]! - parts[3]!).toBeLessThanOrEqual(1n);
    }
    expect(instalmentAmounts('100000000000000001')).toEqual([
      25000000000000001n,
      25000000000000000n,
      25000000000000000n,
      25000000000000000n,
    ]);
  });
});

describe('JPY, with 0 decimals', () => {
  const yen = ctx({ afterPayMin: 1000, afterPayMax: 100000 });
  it('splits whole yen and formats without decimals', () => {
    const s = instalmentState(yen, 10001, 'JPY');
    expect(s.show && s.amounts).toEqual([2501n, 2500n, 2500n, 2500n]);
    expect(pillText(yen, 10001, 'JPY')).toBe(`or 4 interest-free payments of ${formatMoney(2501, 'JPY')} with afterpay more information`);
    expect(formatMoney(2501, 'JPY')).toBe('¥2,501');
  });
  it('keeps the edges in whole yen', () => {
    expect(pillText(yen, 1000, 'JPY')).toBe('afterpay available for orders over ¥1,000 more information');
    expect(pillText(yen, 1001, 'JPY')).toContain('or 4 interest-free payments of ¥251 with');
    expect(pillText(yen, 100000, 'JPY')).toContain('or 4 interest-free payments of ¥25,000 with');
    expect(pillText(yen, 100001, 'JPY')).toBe('afterpay available for orders up to ¥100,000 more information');
  });
  it('reads JPY limits from the preferences', () => {
    const prefs = parseInstalmentPreferences({ available: true, merchantCountry: 'us', limits: { jpy: { min: 1000, max: 100000 } } });
    expect(storeInstalmentContext(prefs, 'JPY', 'en-US')).toEqual({
      afterPayAvailable: true,
      afterPayMin: '1000',
      afterPayMax: '100000',
      shopperLanguage: 'en-US',
      stripeAccountCountry: 'US',
    });
  });
});

describe('every locale and country', () => {
  const cases: Array<[string, string, string | null, string | null]> = [
    ['US', 'en-US', 'en_US', 'afterpay'],
    ['CA', 'en-CA', 'en_CA', 'afterpay'],
    ['CA', 'fr-CA', 'fr_CA', 'afterpay'],
    ['CA', 'fr', 'fr_CA', 'afterpay'],
    ['AU', 'en-AU', 'en_AU', 'afterpay'],
    ['NZ', 'en-NZ', 'en_NZ', 'afterpay'],
    ['GB', 'en-GB', 'en_GB', 'clearpay'],
    ['US', 'fr-FR', 'en_US', 'afterpay'],
    ['GB', 'fr', 'en_GB', 'clearpay'],
    ['DE', 'de-DE', null, null],
    ['FR', 'fr-FR', null, null],
    ['JP', 'ja', null, null],
    ['IE', 'en', null, null],
  ];
  it.each(cases)('%s with %s -> %s (%s)', (country, language, locale, brand) => {
    expect(instalmentLocale(country, language)).toBe(locale);
    const c = ctx({ stripeAccountCountry: country, shopperLanguage: language });
    const html = renderToString(createElement(InstalmentMessage, { context: c, priceCents: 6800, currency: 'USD', idBase: 't' }));
    if (!locale) {
      expect(html, 'anything else shows no pill').toBe('');
      return;
    }
    expect(instalmentBrand(locale)).toBe(brand);
    expect(html).toContain(`data-instalment-locale="${locale}"`);
    expect(html).toContain(`aria-label="${BRAND_NAMES[brand as 'afterpay' | 'clearpay']}"`);
    expect(html).toContain('or 4 interest-free payments of $17.00 with');
    // The local information exists for the locale, in its language.
    const info = localInstalmentInfo(locale as 'en_US', brand as 'afterpay');
    expect(info.lang).toBe(locale.replace('_', '-'));
    expect(info.steps).toHaveLength(4);
    expect(info.steps.join(' ')).toContain(BRAND_NAMES[brand as 'afterpay']);
    expect(ModalService.isLocale(locale)).toBe(true);
  });
  it('no country, no pill; provider off, no pill', () => {
    expect(pillText(ctx({ stripeAccountCountry: null }), 6800)).toBe('');
    expect(pillText(ctx({ afterPayAvailable: false }), 6800)).toBe('');
    expect(pillText(null, 6800)).toBe('');
  });
  it('only the six provider locales have a modal', () => {
    expect(ModalService.LOCALES).toEqual(['en_US', 'en_CA', 'fr_CA', 'en_AU', 'en_NZ', 'en_GB']);
    expect(ModalService.isLocale('de_DE')).toBe(false);
    expect(ModalService.isLocale('en_IE')).toBe(false);
  });
  it('the French Canadian local version is in French', () => {
    expect(localInstalmentInfo('fr_CA', 'afterpay').heading).toBe('Magasinez maintenant. Payez plus tard. Toujours sans intérêt.');
    expect(localInstalmentInfo('en_GB', 'clearpay').steps[1]).toBe('Select Clearpay at checkout.');
  });
});

describe('carts: only every-physical carts qualify', () => {
  const store = ctx({ afterPayMax: 200000 });
  const physical = { ...store };
  const digital = { ...store, afterPayAvailable: false };
  const context = { store, items: { shirt: physical, ebook: digital, board: physical } };
  const cart = (entries: Array<{ itemId: string; productType: number }>, subtotalCents: number) => ({ entries, subtotalCents });
  const render = (c: ReturnType<typeof cart>) => renderToString(createElement(InstalmentCartPill, { context, cart: c, currency: 'USD' }));

  it('a physical cart shows "or {installment} with" for its subtotal', () => {
    const c = cart(
      [
        { itemId: 'shirt', productType: ProductType.PHYSICAL },
        { itemId: 'board', productType: ProductType.PHYSICAL },
      ],
      16300,
    );
    expect(cartQualifies(context, c.entries)).toBe(true);
    expect(render(c)).toContain('or 4 interest-free payments of $40.75 with');
  });
  it('a mixed cart, a digital-only cart, a service and an empty cart show nothing', () => {
    const mixed = cart(
      [
        { itemId: 'shirt', productType: ProductType.PHYSICAL },
        { itemId: 'ebook', productType: ProductType.DIGITAL },
      ],
      8000,
    );
    expect(cartQualifies(context, mixed.entries)).toBe(false);
    expect(render(mixed)).toBe('');
    expect(render(cart([{ itemId: 'ebook', productType: ProductType.DIGITAL }], 1200))).toBe('');
    expect(render(cart([{ itemId: 'tune', productType: ProductType.SERVICE }], 8500))).toBe('');
    expect(render(cart([{ itemId: 'gift', productType: ProductType.GIFT_CARD }], 5000))).toBe('');
    expect(render(cart([], 0))).toBe('');
  });
  it('a cart over the maximum shows the out-of-range text', () => {
    expect(render(cart([{ itemId: 'shirt', productType: ProductType.PHYSICAL }], 200001))).toContain(
      'available for orders up to $2,000.00',
    );
  });
});

describe('the product pill', () => {
  const v = (sku: string, attributes: Record<string, string>, priceCents: number, extra = {}) => ({
    sku,
    attributes,
    qtyInStock: 5,
    unlimited: false,
    priceCents,
    salePriceCents: 0,
    onSale: false,
    ...extra,
  });
  const shirt: ProductProps = {
    itemId: 'shirt',
    title: 'Linen Camp Shirt',
    productType: 1,
    isSubscribable: false,
    variants: [
      v('S-SAND', { Size: 'S', Color: 'Sand' }, 6800),
      v('S-NAVY', { Size: 'S', Color: 'Navy' }, 7200),
      v('M-NAVY', { Size: 'M', Color: 'Navy' }, 7200, { onSale: true, salePriceCents: 6000 }),
    ],
    variantOptionOrdering: ['Size', 'Color'],
    currency: 'USD',
    multipleQuantityAllowedForServices: true,
    instalments: ctx(),
  };
  it('is about the lowest price until a variant is chosen, then the variant times the quantity', () => {
    expect(productInstalmentPrice(shirt, {}, '1')).toBe(6000n);
    expect(productInstalmentPrice(shirt, { Size: 'S' }, '1')).toBe(6000n);
    expect(productInstalmentPrice(shirt, { Size: 'S', Color: 'Navy' }, '1')).toBe(7200n);
    expect(productInstalmentPrice(shirt, { Size: 'M', Color: 'Navy' }, '1'), 'the sale price').toBe(6000n);
    expect(productInstalmentPrice(shirt, { Size: 'S', Color: 'Sand' }, '3')).toBe(20400n);
    expect(productInstalmentPrice(shirt, { Size: 'S', Color: 'Sand' }, 'abc'), 'a bad quantity counts as 1').toBe(6800n);
  });
  it('renders on the server from the product props, and nothing without a context', () => {
    expect(renderToString(createElement(InstalmentPill, { product: shirt, scope: 'shirt' }))).toContain(
      'or 4 interest-free payments of $15.00 with',
    );
    expect(renderToString(createElement(InstalmentPill, { product: { ...shirt, instalments: undefined }, scope: 'shirt' }))).toBe('');
    expect(
      renderToString(
        createElement(InstalmentPill, { product: { ...shirt, instalments: ctx({ afterPayAvailable: false }) }, scope: 'shirt' }),
      ),
    ).toBe('');
  });
});

describe('preferences and the per-item context', () => {
  it('reads the stored namespace leniently', () => {
    expect(parseInstalmentPreferences(undefined)).toEqual(NO_INSTALMENTS);
    expect(parseInstalmentPreferences('nope')).toEqual(NO_INSTALMENTS);
    expect(parseInstalmentPreferences({ available: 'yes' })).toEqual(NO_INSTALMENTS);
    const p = parseInstalmentPreferences({
      available: true,
      merchantCountry: 'ca',
      limits: {
        usd: { min: 100, max: 200000 },
        CAD: { min: '100', max: '150000' },
        EUR: { min: 500, max: 400 },
        XXX: { min: 1, max: 2 },
        GBP: { min: -1, max: 5 },
        AUD: 'x',
      },
    });
    expect(p).toEqual({
      available: true,
      merchantCountry: 'CA',
      limits: { USD: { min: '100', max: '200000' }, CAD: { min: '100', max: '150000' } },
    });
  });
  it('serves a context for every supported currency with limits, and none without', () => {
    const limits = Object.fromEntries(SUPPORTED_CURRENCIES.map((c) => [c, { min: 100, max: 200000 }]));
    const prefs = parseInstalmentPreferences({ available: true, merchantCountry: 'US', limits });
    for (const c of SUPPORTED_CURRENCIES) expect(storeInstalmentContext(prefs, c, 'en-US').afterPayAvailable, c).toBe(true);
    expect(
      storeInstalmentContext(parseInstalmentPreferences({ available: true, merchantCountry: 'US' }), 'USD', 'en-US').afterPayAvailable,
    ).toBe(false);
    expect(
      storeInstalmentContext(parseInstalmentPreferences({ available: true, merchantCountry: 'DE', limits }), 'USD', 'en-US')
        .afterPayAvailable,
    ).toBe(false);
  });
  it('only physical, non-subscription items are available', () => {
    const prefs = parseInstalmentPreferences({ available: true, merchantCountry: 'GB', limits: { GBP: { min: 100, max: 100000 } } });
    const of = (productType: number, isSubscribable = false) =>
      itemInstalmentContext({ productType, isSubscribable }, prefs, 'GBP', 'en-GB').afterPayAvailable;
    expect(of(ProductType.PHYSICAL)).toBe(true);
    expect(of(ProductType.PHYSICAL, true)).toBe(false);
    expect(of(ProductType.DIGITAL)).toBe(false);
    expect(of(ProductType.SERVICE)).toBe(false);
    expect(of(ProductType.GIFT_CARD)).toBe(false);
  });
  it('is unavailable outside a page request, and the request state inside one', () => {
    expect(instalmentContextFor({ productType: 1 }, 'USD').afterPayAvailable).toBe(false);
    const prefs = parseInstalmentPreferences({ available: true, merchantCountry: 'NZ', limits: { NZD: { min: 100, max: 200000 } } });
    const inside = withInstalmentState({ prefs, language: 'en-NZ' }, () => instalmentContextFor({ productType: 1 }, 'NZD'));
    expect(inside).toEqual({
      afterPayAvailable: true,
      afterPayMin: '100',
      afterPayMax: '200000',
      shopperLanguage: 'en-NZ',
      stripeAccountCountry: 'NZ',
    });
  });
});
