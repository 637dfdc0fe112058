/** Issue 45 item 6: a digital product never gets a variant selector, however many variants it has */
import { describe, expect, it } from 'vitest';
import { render } from '../../../src/template/index.js';
import { ProductType } from '../../../src/core/enums.js';

const item = (productType: number) => ({
  structuredContent: {
    productType,
    variantOptionOrdering: ['Format'],
    variants: [
      { sku: 'a', attributes: { Format: 'PDF' }, priceMoney: { value: '100', currency: 'USD' }, unlimited: true },
      { sku: 'b', attributes: { Format: 'EPUB' }, priceMoney: { value: '100', currency: 'USD' }, unlimited: true },
    ],
  },
});
const out = (tpl: string, json: unknown) => render(tpl, json, { locale: 'en-US' }).output;

describe('variant selector and product type', () => {
  it('no selector for a digital product with several variants, through variants-select and product-checkout', () => {
    expect(out('{@|variants-select}', item(ProductType.DIGITAL)).trim()).toBe('');
    expect(out('{@|product-checkout}', item(ProductType.DIGITAL))).not.toContain('<select');
    expect(out('{@|product-checkout}', item(ProductType.DIGITAL))).not.toContain('variant-radiobtn');
  });
  it('a physical, service or gift-card product with several variants still has one', () => {
    for (const t of [ProductType.PHYSICAL, ProductType.SERVICE, ProductType.GIFT_CARD])
      expect(out('{@|variants-select}', item(t)), String(t)).toContain('<select');
  });
});
