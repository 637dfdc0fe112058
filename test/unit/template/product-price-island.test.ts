/**
 * The theme's `{@|product-price}` and the product page's price island come
 * from one implementation (src/core/product-price.ts). For the same products
 * (the item JSON the server builds with variantJson, and the island's
 * ProductProps), the island's price for a chosen variant must be exactly what
 * the theme prints for that product with only that variant: same markup, same
 * text, as the page context sets the CLDR money flag.
 */
import { describe, expect, it } from 'vitest';
import { render } from '../../../src/template';
import { variantJson, type VariantRow } from '../../../src/server/commerce/products';
import { variantPriceHtml } from '../../../src/web/islands/ProductControls';
import type { ProductProps, VariantProps } from '../../../src/web/islands/product-props';
import type { SubscriptionPlan } from '../../../src/core/product';

interface Case {
  name: string;
  currency: string;
  productType: number;
  variants: VariantProps[];
  plan?: SubscriptionPlan;
}

const variant = (sku: string, priceCents: number, sale?: number): VariantProps => ({
  sku,
  attributes: { Size: sku },
  qtyInStock: 5,
  unlimited: false,
  priceCents,
  salePriceCents: sale ?? 0,
  onSale: sale !== undefined,
});

const plan = (value: number, unit: 'WEEK' | 'MONTH', numBillingCycles: number) =>
  ({ billingPeriod: { value, unit }, numBillingCycles }) as SubscriptionPlan;

const CASES: Case[] = [
  { name: 'a physical product', currency: 'USD', productType: 1, variants: [variant('S', 7200)] },
  { name: 'a product on sale', currency: 'USD', productType: 1, variants: [variant('S', 5400, 3900)] },
  {
    name: 'a product with varied variants',
    currency: 'EUR',
    productType: 1,
    variants: [variant('S', 6800), variant('M', 7200, 6000), variant('L', 7600)],
  },
  { name: 'a service', currency: 'GBP', productType: 3, variants: [variant('S', 12000)] },
  { name: 'gift card values', currency: 'USD', productType: 4, variants: [variant('25', 2500), variant('50', 5000)] },
  { name: 'a zero-decimal currency', currency: 'JPY', productType: 1, variants: [variant('S', 1235)] },
  { name: 'a weekly subscription, open-ended', currency: 'USD', productType: 1, variants: [variant('S', 1000)], plan: plan(1, 'WEEK', 0) },
  {
    name: 'a bi-weekly subscription for a year',
    currency: 'USD',
    productType: 1,
    variants: [variant('S', 1000)],
    plan: plan(2, 'WEEK', 26),
  },
  { name: 'a bi-weekly subscription, 4 cycles', currency: 'USD', productType: 1, variants: [variant('S', 1000)], plan: plan(2, 'WEEK', 4) },
  {
    name: 'a monthly subscription for two years',
    currency: 'USD',
    productType: 1,
    variants: [variant('S', 1500)],
    plan: plan(1, 'MONTH', 24),
  },
  {
    name: 'a bi-monthly subscription on sale',
    currency: 'USD',
    productType: 1,
    variants: [variant('S', 1500, 1200)],
    plan: plan(2, 'MONTH', 3),
  },
];

function props(c: Case): ProductProps {
  return {
    itemId: 'item',
    title: c.name,
    productType: c.productType,
    isSubscribable: c.plan !== undefined,
    subscriptionPlan: c.plan ?? null,
    variants: c.variants,
    currency: c.currency,
    multipleQuantityAllowedForServices: false,
  };
}

/** The item JSON the server gives templates (src/server/site-context/context.ts), for the given variants. */
function itemJson(c: Case, variants: VariantProps[]) {
  const json = variants.map((v, i) => variantJson({ id: `v${i}`, ...v } as unknown as VariantRow, c.currency));
  return {
    id: 'item',
    structuredContent: {
      productType: c.productType,
      isSubscribable: c.plan !== undefined,
      subscriptionPlan: c.plan,
      variants: json,
      priceMoney: json[0].priceMoney,
      salePriceMoney: json[0].salePriceMoney,
      onSale: json.some((v) => v.onSale),
    },
  };
}

const theme = (c: Case, variants: VariantProps[]) =>
  render('{item|product-price}', { featureFlags: { useCLDRMoneyFormat: true }, item: itemJson(c, variants) }, { locale: 'en-US' });

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();

describe('product-price: the theme formatter and the price island agree', () => {
  for (const c of CASES) {
    it(c.name, () => {
      for (const v of c.variants) {
        const t = theme(c, [v]);
        expect(t.errors).toEqual([]);
        const island = variantPriceHtml(props(c), v.sku);
        expect(island).toBe(t.output);
        expect(text(island ?? '')).toBe(text(t.output));
      }
    });
  }

  it('prints real prices, with the sale labels and billing words (not a placeholder)', () => {
    const sale = theme(CASES[1], CASES[1].variants).output;
    expect(text(sale)).toBe('Sale Price:$39.00 Original Price:$54.00');
    expect(text(theme(CASES[2], CASES[2].variants).output)).toBe('from €60.00');
    expect(text(theme(CASES[7], CASES[7].variants).output)).toBe('$10.00 every 2 weeks for 1 year');
    expect(text(theme(CASES[8], CASES[8].variants).output)).toBe('$10.00 every 2 weeks for 8 weeks');
    expect(text(theme(CASES[5], CASES[5].variants).output)).toBe('¥1,235');
    expect(sale).not.toContain('not yet implemented');
  });
});
