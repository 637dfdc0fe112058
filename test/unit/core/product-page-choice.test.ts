/** The product page's choice rules: a choice's own image, sold-out option values, `?variant=` and the one sale markup. */
import { describe, expect, it } from 'vitest';
import { chosenFromQuery, chosenImageUrl, soldOutValue, type StructuredContent } from '../../../src/core/product.js';
import { productPriceView, shopMoney, shopPriceHtml } from '../../../src/core/product-price.js';

const v = (sku: string, Size: string, Color: string, qtyInStock: number, imageUrl = '') => ({
  id: `id-${sku}`,
  sku,
  attributes: { Size, Color },
  qtyInStock,
  unlimited: false,
  imageUrl,
});
const SHIRT = {
  productType: 1,
  variants: [
    v('S-SAND', 'S', 'Sand', 4),
    v('L-SAND', 'L', 'Sand', 2),
    v('S-NAVY', 'S', 'Navy', 6, '/navy.jpg'),
    v('L-NAVY', 'L', 'Navy', 0, '/navy.jpg'),
  ],
} as unknown as StructuredContent;

describe('the product page choice', () => {
  it("shows a choice's own image once every matching variant shares it", () => {
    expect(chosenImageUrl(SHIRT.variants as never, {})).toBeNull();
    expect(chosenImageUrl(SHIRT.variants as never, { Color: 'Navy' })).toBe('/navy.jpg');
    expect(chosenImageUrl(SHIRT.variants as never, { Color: 'Sand' })).toBeNull();
    expect(chosenImageUrl(SHIRT.variants as never, { Size: 'S' })).toBeNull();
  });

  it('marks a value sold out only when none of its variants matching the other choices can be bought', () => {
    expect(soldOutValue(SHIRT, {}, 'Size', 'L')).toBe(false);
    expect(soldOutValue(SHIRT, { Color: 'Navy' }, 'Size', 'L')).toBe(true);
    expect(soldOutValue(SHIRT, { Color: 'Navy', Size: 'S' }, 'Size', 'L')).toBe(true);
    expect(soldOutValue(SHIRT, { Color: 'Navy' }, 'Size', 'S')).toBe(false);
    expect(soldOutValue({ ...SHIRT, productType: 2 } as StructuredContent, { Color: 'Navy' }, 'Size', 'L')).toBe(false);
  });

  it('reads ?variant= (SKU or id) and option fields, keeping only what the product has', () => {
    expect(chosenFromQuery(SHIRT, { variant: 'S-NAVY' })).toEqual({ Size: 'S', Color: 'Navy' });
    expect(chosenFromQuery(SHIRT, { variant: 'id-L-SAND' })).toEqual({ Size: 'L', Color: 'Sand' });
    expect(chosenFromQuery(SHIRT, { 'option.Color': 'Navy', 'option.Size': 'XL', 'option.Fit': 'Slim' })).toEqual({ Color: 'Navy' });
    expect(chosenFromQuery(SHIRT, { variant: 'nope' })).toEqual({});
  });

  it('prints a sale as the original struck through beside the sale price, each labelled', () => {
    const item = {
      structuredContent: {
        productType: 1,
        variants: [{ priceMoney: { value: '7200', currency: 'GBP' }, salePriceMoney: { value: '5600', currency: 'GBP' }, onSale: true }],
      },
    };
    expect(shopPriceHtml(productPriceView(item), shopMoney('GBP'))).toBe(
      '<s class="original-price"><span class="visually-hidden">Original Price: </span>£72.00</s> <span class="sale-price"><span class="visually-hidden">Sale Price: </span>£56.00</span>',
    );
    const varied = {
      structuredContent: { ...item.structuredContent, variants: [...item.structuredContent.variants, { priceMoney: { value: '9000' } }] },
    };
    expect(shopPriceHtml(productPriceView(varied), shopMoney('GBP'))).toBe('from £56.00');
  });
});
