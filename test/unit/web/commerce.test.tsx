import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderToString } from 'react-dom/server';
import { createElement } from 'react';
import { AddButtonMachine, buttonLabel, type ButtonState } from '../../../src/web/client/add-button.js';
import { addAlertTitle, addErrorMessage } from '../../../src/web/client/cart-api.js';
import { ApiError } from '../../../src/web/client/api.js';
import { productStore } from '../../../src/web/client/product-store.js';
import {
  AddToCart,
  ProductScarcity,
  QuantityInput,
  VariantSelect,
  scarcityQuantity,
  variantPriceHtml,
} from '../../../src/web/islands/ProductControls.js';
import { priceRangeText, QuickView } from '../../../src/web/islands/QuickView.js';
import { CartPage, type CartPageProps } from '../../../src/web/pages/CartPage.js';
import type { ProductProps } from '../../../src/web/islands/product-props.js';
import { usableForm } from '../../../src/web/islands/AdditionalFieldsForm.js';

const v = (sku: string, attributes: Record<string, string>, qtyInStock: number, extra: Partial<ProductProps['variants'][0]> = {}) => ({
  sku,
  attributes,
  qtyInStock,
  unlimited: false,
  priceCents: 6800,
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
    v('S-SAND', { Size: 'S', Color: 'Sand' }, 4),
    v('L-NAVY', { Size: 'L', Color: 'Navy' }, 0, { priceCents: 7200 }),
    v('M-SAND', { Size: 'M', Color: 'Sand' }, 0, { unlimited: true }),
  ],
  variantOptionOrdering: ['Color', 'Size'],
  currency: 'USD',
  multipleQuantityAllowedForServices: true,
};
const one = (over: Partial<ProductProps>): ProductProps => ({
  ...shirt,
  itemId: 'one',
  variants: [v('ONE', {}, 12)],
  variantOptionOrdering: [],
  ...over,
});

describe('add-to-cart button states', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('idle -> Adding… -> Added! after 1 s -> idle 2 s later, ignoring clicks meanwhile', () => {
    const seen: ButtonState[] = [];
    const m = new AddButtonMachine((s) => seen.push(s));
    expect(m.start()).toBe(true);
    expect(buttonLabel(m.state, 'Add To Cart')).toBe('Adding…');
    expect(m.start()).toBe(false);
    m.succeeded();
    vi.advanceTimersByTime(999);
    expect(m.state).toBe('adding');
    vi.advanceTimersByTime(1);
    expect(buttonLabel(m.state, 'Add To Cart')).toBe('Added!');
    expect(m.start()).toBe(false);
    vi.advanceTimersByTime(1999);
    expect(m.state).toBe('added');
    vi.advanceTimersByTime(1);
    expect(buttonLabel(m.state, 'Add To Cart')).toBe('Add To Cart');
    expect(seen).toEqual(['adding', 'added', 'idle']);
  });

  it('returns to idle 1 s after a failure; express checkout stays (the page leaves)', () => {
    const m = new AddButtonMachine(() => {});
    m.start();
    m.failed();
    vi.advanceTimersByTime(1000);
    expect(m.state).toBe('idle');
    m.start();
    m.succeeded(true);
    vi.advanceTimersByTime(10_000);
    expect(m.state).toBe('adding');
    m.dispose();
  });
});

describe('add-to-cart errors (section 8)', () => {
  const env = { cookiesEnabled: true, online: true };
  it('maps crumb failures, 429, offline and server messages', () => {
    const crumb = new ApiError(403, 'HTTP 403', { crumbFail: true });
    expect(addErrorMessage(crumb, env)).toBe('Your session has expired. Please reload the page and try again.');
    expect(addErrorMessage(crumb, { ...env, cookiesEnabled: false })).toBe(
      'Please enable cookies in your browser, reload the page, and try again.',
    );
    expect(addErrorMessage(new ApiError(429, 'x', {}), env)).toBe('Please try again in a few seconds.');
    expect(addErrorMessage(new ApiError(400, 'Sorry, we do not have enough of that item available.', {}), env)).toBe(
      'Sorry, we do not have enough of that item available.',
    );
    expect(addErrorMessage(new TypeError('Failed to fetch'), env)).toBe('Please check your internet connection');
    expect(addErrorMessage(new Error('?'), { ...env, online: false })).toBe('Please check your internet connection');
    expect(addErrorMessage(new Error('?'), env)).toBe('Please try again');
  });
  it('titles the alert by kind', () => {
    expect(addAlertTitle({})).toBe('Unable to Add Item');
    expect(addAlertTitle({ express: true })).toBe('Unable to Purchase Item');
    expect(addAlertTitle({ giftCard: true })).toBe('Unable to purchase Gift Card');
  });
});

describe('product islands on the server', () => {
  beforeEach(() => productStore.reset());
  const html = (c: unknown, props: object) => renderToString(createElement(c as never, props as never));

  it('draws the variant selector in option order with Select {name}, never for one variant or digital products', () => {
    const out = html(VariantSelect, { product: shirt, scope: 'shirt' });
    expect(out.indexOf('Select Color')).toBeLessThan(out.indexOf('Select Size'));
    expect(out).toContain('aria-label="Select Size"');
    expect(out).toContain('class="product-variants"');
    expect(html(VariantSelect, { product: one({}), scope: 'one' })).toBe('');
    expect(html(VariantSelect, { product: { ...shirt, productType: 2 }, scope: 'd' })).toBe('');
    const gift = html(VariantSelect, { product: { ...shirt, productType: 4 }, scope: 'g' });
    expect(gift).toContain('Select Value');
  });

  it('shows the quantity input (1-9999, step 1, default 1) only by the spec rules', () => {
    const out = html(QuantityInput, { product: shirt, scope: 'q' });
    expect(out).toMatch(/type="text" inputMode="numeric"[^>]*data-min="1" data-max="9999" data-step="1"[^>]*name="quantity" value="1"/);
    expect(html(QuantityInput, { product: { ...shirt, isSubscribable: true }, scope: 'q' })).toBe('');
    expect(html(QuantityInput, { product: { ...shirt, productType: 2 }, scope: 'q' })).toBe('');
    expect(html(QuantityInput, { product: one({ productType: 3 }), scope: 'q' })).not.toBe('');
    expect(html(QuantityInput, { product: one({ productType: 3, multipleQuantityAllowedForServices: false }), scope: 'q' })).toBe('');
    expect(html(QuantityInput, { product: one({ variants: [v('X', {}, 1)] }), scope: 'q' })).toBe('');
  });

  it('labels the button Add To Cart, Subscribe or the custom text, with the documented class names', () => {
    expect(html(AddToCart, { product: shirt, scope: 'a' })).toMatch(
      /class="sqs-add-to-cart-button [^"]*"[^>]*data-original-label="Add To Cart"/,
    );
    expect(html(AddToCart, { product: one({ isSubscribable: true }), scope: 'a' })).toContain('>Subscribe<');
    expect(html(AddToCart, { product: one({ useCustomAddButtonText: true, customAddButtonText: 'Pre-order' }), scope: 'a' })).toContain(
      '>Pre-order<',
    );
  });

  it('renders the initial state on the server whatever the store holds (no hydration mismatch)', () => {
    productStore.update('err', {
      error: { title: 'Unable to Add Item', message: 'Please select the Size and Color options.' },
      attributes: { Size: 'S', Color: 'Sand' },
    });
    expect(html(AddToCart, { product: shirt, scope: 'err' })).not.toContain('role="alert"');
    expect(
      html(ProductScarcity, { product: shirt, scope: 'err', text: 'Only {qtyInStock} left in stock', threshold: 5, shownByDefault: false }),
    ).toContain('hidden=""');
  });

  it('works out the scarcity quantity for the chosen variant', () => {
    expect(scarcityQuantity(shirt, {}, 5, false)).toBeNull();
    expect(scarcityQuantity(shirt, { Size: 'S', Color: 'Sand' }, 5, false)).toBe(4);
    expect(scarcityQuantity(shirt, { Size: 'S', Color: 'Sand' }, 3, false)).toBeNull();
    expect(scarcityQuantity(shirt, { Size: 'M', Color: 'Sand' }, 5, false)).toBeNull();
    expect(scarcityQuantity(shirt, { Size: 'L', Color: 'Navy' }, 5, false)).toBeNull();
    expect(scarcityQuantity(one({ variants: [v('X', {}, 2)] }), {}, 5, false)).toBe(2);
    expect(scarcityQuantity({ ...shirt, productType: 2 }, { Size: 'S', Color: 'Sand' }, 5, false)).toBeNull();
  });

  it('formats prices with core money', () => {
    // The island prints the markup of the theme's {@|product-price}, from the same core view.
    const wrap = (body: string) => `\n\n\n<div class="product-price">\n${body}\n</div>`;
    const hidden = (t: string) => `<span class="visually-hidden v6-visually-hidden">${t}</span>`;
    expect(variantPriceHtml(shirt, 'L-NAVY')).toBe(wrap('$72.00'));
    expect(variantPriceHtml(one({ variants: [v('X', {}, 2, { onSale: true, salePriceCents: 3900, priceCents: 5400 })] }), 'X')).toBe(
      wrap(`${hidden('Sale Price:')}$39.00 ${hidden('Original Price:')}<span class="original-price">$54.00</span>\n`),
    );
    const monthly = one({
      isSubscribable: true,
      subscriptionPlan: { billingPeriod: { value: 2, unit: 'WEEK' }, numBillingCycles: 26 },
      variants: [v('S', {}, 2, { priceCents: 1000 })],
    });
    expect(variantPriceHtml(monthly, 'S')).toBe(wrap('$10.00 every 2 weeks for 1 year'));
    expect(priceRangeText(shirt)).toBe('$68.00 – $72.00');
    expect(priceRangeText({ ...one({}), currency: 'JPY', variants: [v('Y', {}, 1, { priceCents: 1235 })] })).toBe('¥1,235');
  });

  it('draws the quick-view button with its label', () => {
    expect(html(QuickView, { product: shirt, fullUrl: '/shop/p/x' })).toMatch(
      /<a[^>]*class="sqs-product-quick-view-button"[^>]*href="\/shop\/p\/x"[^>]*>Quick View/,
    );
  });

  it('checks that a form can be drawn', () => {
    expect(usableForm({ id: 'f', fields: [{ id: 'a', type: 'text' }] })).toBe(true);
    expect(usableForm({ id: 'f', fields: [] })).toBe(false);
    expect(usableForm(null)).toBe(false);
  });
});

describe('the cart page on the server', () => {
  const entry = {
    id: 'e1',
    itemId: 'shirt',
    chosenVariant: { sku: 'S-SAND', attributes: { Size: 'S', Color: 'Sand' } },
    quantity: 2,
    title: 'Linen Camp Shirt',
    purchasePriceCents: 6800,
    subTotalCents: 13600,
    additionalFields: '',
    fullUrl: '/shop/p/linen-camp-shirt',
    image: { assetUrl: '/a.svg', altText: 'A shirt' },
  };
  const props = (over: Partial<CartPageProps> = {}): CartPageProps => ({
    cart: { id: 'c', entries: [entry], subtotalCents: 13600, totalQuantity: 2 },
    currency: 'USD',
    minimumOrderSubtotalCents: 0,
    crumb: 'crumb-value-123456',
    forms: {},
    ...over,
  });
  const html = (p: CartPageProps) => renderToString(createElement(CartPage, p));

  it('lists entries with variant, quantity form, remove form and totals in store currency', () => {
    const out = html(props());
    expect(out).toContain('Linen Camp Shirt');
    expect(out).toContain('Size<!-- -->: <!-- -->S');
    expect(out).toContain('action="/api/commerce/shopping-cart/entries/e1/quantity"');
    expect(out).toContain('action="/api/commerce/shopping-cart/entries/e1/remove"');
    expect(out).toContain('name="crumb" value="crumb-value-123456"');
    expect(out).toContain('$136.00');
    expect(out).not.toContain('To check out');
  });

  it('shows the empty state and the minimum subtotal message', () => {
    expect(html(props({ cart: { id: null, entries: [], subtotalCents: 0, totalQuantity: 0 } }))).toContain(
      'You have nothing in your shopping cart.',
    );
    const out = html(props({ minimumOrderSubtotalCents: 20000 }));
    expect(out).toContain('To check out, your order subtotal must be $200.00 or more');
    expect(out).toMatch(/<button[^>]*disabled=""[^>]*>Checkout/);
  });
});
