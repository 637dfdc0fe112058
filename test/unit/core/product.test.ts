import { describe, expect, it } from 'vitest';
import { ProductType } from '../../../src/core/enums';
import {
  addButtonLabel,
  checkAddToCart,
  findVariant,
  inStock,
  isOnSale,
  isSoldOut,
  optionNames,
  optionValues,
  parseQuantity,
  priceRange,
  productBadge,
  productBadgeLabel,
  showQuantityInput,
  showVariantSelector,
  totalStock,
  validateAddToCart,
  type Product,
  type StructuredContent,
  type Variant,
} from '../../../src/core/product';

const v = (attributes: Record<string, string>, qtyInStock: number, extra: Partial<Variant> = {}): Variant => ({
  attributes,
  qtyInStock,
  unlimited: false,
  ...extra,
});

const sc = (productType: number, variants: Variant[], extra: Partial<StructuredContent> = {}): StructuredContent => ({
  productType: productType as StructuredContent['productType'],
  variants,
  ...extra,
});

const shirt: Product = {
  id: 'p1',
  title: 'Shirt',
  structuredContent: sc(
    ProductType.PHYSICAL,
    [
      v({ Size: 'S', Color: 'Blue' }, 3, { sku: 'S-B', priceMoney: { value: '2000', currency: 'USD' } }),
      v({ Size: 'M', Color: 'Blue' }, 0, { sku: 'M-B', priceMoney: { value: '2500', currency: 'USD' } }),
      v({ Size: 'M', Color: 'Red' }, 1, {
        sku: 'M-R',
        onSale: true,
        priceMoney: { value: '2500', currency: 'USD' },
        salePriceMoney: { value: '1500', currency: 'USD' },
      }),
    ],
    { variantOptionOrdering: ['Color', 'Size'] },
  ),
};

describe('isSoldOut', () => {
  it('physical with some stock is not sold out', () => {
    expect(isSoldOut(shirt)).toBe(false);
  });
  it('physical and service with all stock at 0 are sold out', () => {
    expect(isSoldOut(sc(ProductType.PHYSICAL, [v({}, 0), v({}, -2)]))).toBe(true);
    expect(isSoldOut(sc(ProductType.SERVICE, [v({}, 0)]))).toBe(true);
  });
  it('an unlimited variant keeps it in stock', () => {
    expect(isSoldOut(sc(ProductType.PHYSICAL, [v({}, 0), v({}, 0, { unlimited: true })]))).toBe(false);
  });
  it('a physical product without variants is sold out', () => {
    expect(isSoldOut(sc(ProductType.PHYSICAL, []))).toBe(true);
  });
  it('digital and gift card products are never sold out', () => {
    expect(isSoldOut(sc(ProductType.DIGITAL, [v({}, 0)]))).toBe(false);
    expect(isSoldOut(sc(ProductType.GIFT_CARD, [v({}, 0)]))).toBe(false);
  });
});

describe('isOnSale and badge', () => {
  it('any variant on sale', () => {
    expect(isOnSale(shirt)).toBe(true);
    expect(isOnSale(sc(ProductType.PHYSICAL, [v({}, 1)]))).toBe(false);
  });
  it('digital uses its own flag, not the variants', () => {
    expect(isOnSale(sc(ProductType.DIGITAL, [v({}, 0, { onSale: true })]))).toBe(false);
    expect(isOnSale(sc(ProductType.DIGITAL, [v({}, 0)], { onSale: true }))).toBe(true);
  });
  it('sold out takes precedence over sale', () => {
    const p = sc(ProductType.PHYSICAL, [v({}, 0, { onSale: true })]);
    expect(productBadge(p)).toBe('sold-out');
    expect(productBadgeLabel(p)).toBe('sold out');
    expect(productBadge(shirt)).toBe('sale');
    expect(productBadgeLabel(shirt)).toBe('sale');
    expect(productBadge(sc(ProductType.PHYSICAL, [v({}, 2)]))).toBeNull();
    expect(productBadgeLabel(sc(ProductType.PHYSICAL, [v({}, 2)]))).toBeNull();
  });
});

describe('totalStock', () => {
  it('sums positive stock', () => {
    expect(totalStock(shirt)).toBe(4);
    expect(totalStock(sc(ProductType.PHYSICAL, [v({}, 2), v({}, -5)]))).toBe(2);
  });
  it('is Infinity for unlimited, digital and gift cards', () => {
    expect(totalStock(sc(ProductType.PHYSICAL, [v({}, 1), v({}, 0, { unlimited: true })]))).toBe(Infinity);
    expect(totalStock(sc(ProductType.DIGITAL, [v({}, 0)]))).toBe(Infinity);
    expect(totalStock(sc(ProductType.GIFT_CARD, []))).toBe(Infinity);
  });
});

describe('showQuantityInput', () => {
  it('physical with total stock above 1', () => {
    expect(showQuantityInput(shirt)).toBe(true);
    expect(showQuantityInput(sc(ProductType.PHYSICAL, [v({}, 1)]))).toBe(false);
    expect(showQuantityInput(sc(ProductType.PHYSICAL, [v({}, 2)]))).toBe(true);
  });
  it('service depends on multipleQuantityAllowedForServices (default true)', () => {
    const service = sc(ProductType.SERVICE, [v({}, 0, { unlimited: true })]);
    expect(showQuantityInput(service)).toBe(true);
    expect(showQuantityInput(service, { multipleQuantityAllowedForServices: true })).toBe(true);
    expect(showQuantityInput(service, { multipleQuantityAllowedForServices: false })).toBe(false);
  });
  it('never for subscribable products, digital or gift cards', () => {
    expect(showQuantityInput(sc(ProductType.PHYSICAL, [v({}, 10)], { isSubscribable: true }))).toBe(false);
    expect(showQuantityInput(sc(ProductType.DIGITAL, [v({}, 0)]))).toBe(false);
    expect(showQuantityInput(sc(ProductType.GIFT_CARD, [v({}, 0)]))).toBe(false);
  });
});

describe('showVariantSelector', () => {
  it('more than one variant, never digital', () => {
    expect(showVariantSelector(shirt)).toBe(true);
    expect(showVariantSelector(sc(ProductType.PHYSICAL, [v({}, 1)]))).toBe(false);
    expect(showVariantSelector(sc(ProductType.DIGITAL, [v({ A: '1' }, 1), v({ A: '2' }, 1)]))).toBe(false);
  });
});

describe('options and variants', () => {
  it('orders option names by variantOptionOrdering, then first seen', () => {
    expect(optionNames(shirt)).toEqual(['Color', 'Size']);
    expect(optionNames(sc(ProductType.PHYSICAL, [v({ B: '1', A: '2' }, 1)]))).toEqual(['B', 'A']);
    expect(optionNames(sc(ProductType.PHYSICAL, [v({ B: '1', A: '2' }, 1)], { variantOptionOrdering: ['A', 'Z'] }))).toEqual(['A', 'B']);
  });
  it('lists distinct option values in variant order', () => {
    expect(optionValues(shirt, 'Size')).toEqual(['S', 'M']);
    expect(optionValues(shirt, 'Color')).toEqual(['Blue', 'Red']);
  });
  it('finds the variant matching all attributes', () => {
    expect(findVariant(shirt, { Size: 'M', Color: 'Red' })?.sku).toBe('M-R');
    expect(findVariant(shirt, { Size: 'S', Color: 'Red' })).toBeUndefined();
    expect(findVariant(shirt, { Size: 'M' })).toBeUndefined();
    expect(findVariant(sc(ProductType.PHYSICAL, [v({}, 1, { sku: 'ONLY' })]), {})?.sku).toBe('ONLY');
  });
  it('price range uses sale prices', () => {
    expect(priceRange(shirt)).toEqual({ min: 1500n, max: 2500n });
    expect(priceRange(sc(ProductType.DIGITAL, [], { priceMoney: { value: '900', currency: 'USD' } }))).toEqual({ min: 900n, max: 900n });
    expect(priceRange(sc(ProductType.DIGITAL, []))).toBeNull();
  });
  it('add button label', () => {
    expect(addButtonLabel(shirt)).toBe('Add To Cart');
    expect(addButtonLabel(sc(ProductType.PHYSICAL, [], { isSubscribable: true }))).toBe('Subscribe');
    expect(addButtonLabel(sc(ProductType.PHYSICAL, [], { useCustomAddButtonText: true, customAddButtonText: 'Buy' }))).toBe('Buy');
    expect(addButtonLabel(sc(ProductType.PHYSICAL, [], { useCustomAddButtonText: false, customAddButtonText: 'Buy' }))).toBe('Add To Cart');
  });
});

describe('inStock', () => {
  it('unlimited or more in stock than in cart', () => {
    expect(inStock([{ unlimited: false, qtyInStock: 3 }], 2)).toBe(true);
    expect(inStock([{ unlimited: false, qtyInStock: 3 }], 3)).toBe(false);
    expect(
      inStock(
        [
          { unlimited: false, qtyInStock: 0 },
          { unlimited: true, qtyInStock: 0 },
        ],
        50,
      ),
    ).toBe(true);
    expect(inStock([], 0)).toBe(false);
    expect(inStock([{ unlimited: false, qtyInStock: 1 }])).toBe(true);
  });
});

describe('parseQuantity', () => {
  it('accepts positive whole numbers', () => {
    expect(parseQuantity('3')).toEqual({ ok: true, quantity: 3 });
    expect(parseQuantity(' 12 ')).toEqual({ ok: true, quantity: 12 });
  });
  it('rejects non-numbers and fractions with the spec messages', () => {
    expect(parseQuantity('abc')).toEqual({ ok: false, message: 'Quantity must be a number.' });
    expect(parseQuantity('')).toEqual({ ok: false, message: 'Quantity must be a number.' });
    expect(parseQuantity('1.5')).toEqual({ ok: false, message: 'Quantity must be a whole number.' });
    expect(parseQuantity('0')).toEqual({ ok: false, message: 'Quantity must be a whole number.' });
    expect(parseQuantity('-2')).toEqual({ ok: false, message: 'Quantity must be a whole number.' });
  });
});

describe('validateAddToCart', () => {
  it('asks for unselected options in display order', () => {
    expect(validateAddToCart({ product: shirt, selectedAttributes: {}, quantityText: '1' })).toBe(
      'Please select the Color and Size options.',
    );
    expect(validateAddToCart({ product: shirt, selectedAttributes: { Color: 'Blue', Size: '' }, quantityText: '1' })).toBe(
      'Please select the Size option.',
    );
  });
  it('three options use the comma-joined list', () => {
    const p = sc(ProductType.PHYSICAL, [v({ A: '1', B: '1', C: '1' }, 5), v({ A: '2', B: '2', C: '2' }, 5)]);
    expect(validateAddToCart({ product: p, selectedAttributes: {} })).toBe('Please select the A, B and C options.');
  });
  it('reports a missing variant combination', () => {
    expect(validateAddToCart({ product: shirt, selectedAttributes: { Size: 'S', Color: 'Red' }, quantityText: '1' })).toBe(
      'Sorry, that item variant is unavailable. Please select another variant.',
    );
  });
  it('checks quantity text', () => {
    const attrs = { Size: 'S', Color: 'Blue' };
    expect(validateAddToCart({ product: shirt, selectedAttributes: attrs, quantityText: 'x' })).toBe('Quantity must be a number.');
    expect(validateAddToCart({ product: shirt, selectedAttributes: attrs, quantityText: '1.5' })).toBe('Quantity must be a whole number.');
  });
  it('checks stock including what is already in the cart', () => {
    const attrs = { Size: 'S', Color: 'Blue' };
    expect(validateAddToCart({ product: shirt, selectedAttributes: attrs, quantityText: '3' })).toBeNull();
    expect(validateAddToCart({ product: shirt, selectedAttributes: attrs, quantityText: '4' })).toBe(
      'Sorry, we do not have enough of that item available.',
    );
    expect(validateAddToCart({ product: shirt, selectedAttributes: attrs, quantityText: '2', cartQty: 2 })).toBe(
      'Sorry, we do not have enough of that item available.',
    );
    expect(validateAddToCart({ product: shirt, selectedAttributes: { Size: 'M', Color: 'Blue' }, quantityText: '1' })).toBe(
      'Sorry, we do not have enough of that item available.',
    );
  });
  it('caps cart quantity at 9999 even when unlimited', () => {
    const p = sc(ProductType.PHYSICAL, [v({}, 0, { unlimited: true })]);
    expect(validateAddToCart({ product: p, quantityText: '9999' })).toBeNull();
    expect(validateAddToCart({ product: p, quantityText: '9999', cartQty: 1 })).toBe(
      'Sorry, we do not have enough of that item available.',
    );
  });
  it('ignores the quantity text when the input is hidden', () => {
    const p = sc(ProductType.PHYSICAL, [v({}, 1, { sku: 'A' })]);
    expect(checkAddToCart({ product: p, quantityText: 'junk' })).toMatchObject({ message: null, quantity: 1 });
  });
  it('requires a gift card denomination', () => {
    const g = sc(ProductType.GIFT_CARD, [
      v({}, 0, { sku: 'GC25', priceMoney: { value: '2500', currency: 'USD' } }),
      v({}, 0, { sku: 'GC50' }),
    ]);
    expect(validateAddToCart({ product: g })).toBe('Select a denomination for the Gift Card.');
    expect(validateAddToCart({ product: g, giftCardDenomination: '' })).toBe('Select a denomination for the Gift Card.');
    expect(checkAddToCart({ product: g, giftCardDenomination: 'GC50' }).variant?.sku).toBe('GC50');
    expect(checkAddToCart({ product: g, giftCardDenomination: '2500' }).variant?.sku).toBe('GC25');
    expect(validateAddToCart({ product: g, giftCardDenomination: 'nope' })).toBe(
      'Sorry, that item variant is unavailable. Please select another variant.',
    );
  });
  it('digital products are never out of stock', () => {
    const d = sc(ProductType.DIGITAL, [v({}, 0)]);
    expect(validateAddToCart({ product: d })).toBeNull();
  });
});
