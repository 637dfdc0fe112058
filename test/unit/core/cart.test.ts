import { describe, expect, it } from 'vitest';
import {
  cartPillText,
  cartPillVisible,
  cartSpokenLabel,
  computeCartTotals,
  emptyCart,
  entrySubtotalCents,
  findMergeableEntry,
  sameAdditionalFields,
  quantityInCart,
  type CartEntry,
} from '../../../src/core/cart';
import { CART_QUANTITY_MAX, additionalFieldsErrors } from '../../../src/core/cart';
import { ProductType } from '../../../src/core/enums';
import { ADDITIONAL_FIELDS_MAX_CHARS } from '../../../src/core/constants';
import { cart as cartMessages } from '../../../src/core/messages';
import type { FormField } from '../../../src/core/forms';

const entry = (id: string, price: number, quantity: number, productType?: number, extra: Partial<CartEntry> = {}): CartEntry => ({
  id,
  itemId: `item-${id}`,
  chosenVariant: { sku: `sku-${id}`, attributes: {} },
  quantity,
  title: `Item ${id}`,
  purchasePriceCents: price,
  productType: productType as CartEntry['productType'],
  ...extra,
});

describe('cart pill', () => {
  it('shows the number up to 100 and 100+ above', () => {
    expect(cartPillText(0)).toBe('0');
    expect(cartPillText(1)).toBe('1');
    expect(cartPillText(100)).toBe('100');
    expect(cartPillText(101)).toBe('100+');
    expect(cartPillText(-3)).toBe('0');
  });
  it('spoken labels', () => {
    expect(cartSpokenLabel(1)).toBe('One item in cart');
    expect(cartSpokenLabel(2)).toBe('2 items in cart');
    expect(cartSpokenLabel(0)).toBe('0 items in cart');
    expect(cartSpokenLabel(100)).toBe('100 items in cart');
    expect(cartSpokenLabel(101)).toBe('More than 100 items in cart');
  });
  it('is visible above 0 only', () => {
    expect(cartPillVisible(0)).toBe(false);
    expect(cartPillVisible(1)).toBe(true);
    expect(cartPillVisible(Number.NaN)).toBe(false);
  });
  it('quantity max is 9999', () => {
    expect(CART_QUANTITY_MAX).toBe(9999);
  });
});

describe('computeCartTotals', () => {
  it('sums entries and computes the grand total', () => {
    const t = computeCartTotals([entry('a', 1000, 2, ProductType.PHYSICAL), entry('b', 250, 3, ProductType.DIGITAL)], {
      discountCents: 500,
      shippingCostCents: 700,
      taxCents: 120,
    });
    expect(t.subtotalCents).toBe(2750);
    expect(t.totalQuantity).toBe(5);
    expect(t.grandTotalCents).toBe(2750 - 500 + 700 + 120);
    expect(t.hasDigital).toBe(true);
    expect(t.purelyDigital).toBe(false);
    expect(t.requiresShipping).toBe(true);
  });
  it('never goes negative', () => {
    const t = computeCartTotals([entry('a', 100, 1, ProductType.PHYSICAL)], { discountCents: 5000 });
    expect(t.grandTotalCents).toBe(0);
  });
  it('purely digital carts (digital and gift cards) need no shipping', () => {
    const t = computeCartTotals([entry('a', 100, 1, ProductType.DIGITAL), entry('b', 5000, 1, ProductType.GIFT_CARD)]);
    expect(t.purelyDigital).toBe(true);
    expect(t.hasDigital).toBe(true);
    expect(t.requiresShipping).toBe(false);
  });
  it('service only: no digital, no shipping', () => {
    const t = computeCartTotals([entry('a', 100, 1, ProductType.SERVICE)]);
    expect(t).toMatchObject({ hasDigital: false, purelyDigital: false, requiresShipping: false });
  });
  it('empty cart is all zeros', () => {
    expect(computeCartTotals([])).toEqual({
      subtotalCents: 0,
      taxCents: 0,
      shippingCostCents: 0,
      discountCents: 0,
      grandTotalCents: 0,
      totalQuantity: 0,
      hasDigital: false,
      purelyDigital: false,
      requiresShipping: false,
    });
    const c = emptyCart('c1', 'w1', 123);
    expect(c).toMatchObject({ id: 'c1', websiteId: 'w1', created: 123, isPurchased: false, entries: [], grandTotalCents: 0 });
  });
  it('entry subtotal', () => {
    expect(entrySubtotalCents({ purchasePriceCents: 1999, quantity: 3 })).toBe(5997);
  });
});

describe('entries', () => {
  const entries = [
    entry('a', 100, 2, ProductType.PHYSICAL),
    entry('b', 100, 1, ProductType.PHYSICAL, {
      itemId: 'item-a',
      chosenVariant: { sku: 'sku-a', attributes: {} },
      additionalFields: '{"f":"x"}',
    }),
  ];
  it('merges same item and sku without form answers', () => {
    expect(findMergeableEntry(entries, { itemId: 'item-a', sku: 'sku-a' })?.id).toBe('a');
    expect(findMergeableEntry(entries, { itemId: 'item-a', sku: 'sku-a', additionalFields: '{}' })?.id).toBe('a');
    expect(findMergeableEntry(entries, { itemId: 'item-a', sku: 'sku-a', additionalFields: '{"f":"y"}' })).toBeUndefined();
    expect(findMergeableEntry(entries, { itemId: 'item-a', sku: 'other' })).toBeUndefined();
  });
  it('merges when item, sku and additionalFields are equal (form answers included)', () => {
    expect(findMergeableEntry(entries, { itemId: 'item-a', sku: 'sku-a', additionalFields: '{"f":"x"}' })?.id).toBe('b');
    expect(findMergeableEntry(entries, { itemId: 'item-a', sku: 'sku-a', additionalFields: ' {"f": "x"} ' })?.id).toBe('b');
    expect(findMergeableEntry(entries, { itemId: 'item-a', sku: 'sku-a', additionalFields: null })?.id).toBe('a');
    expect(findMergeableEntry(entries, { itemId: 'item-b', sku: 'sku-a', additionalFields: '{"f":"x"}' })).toBeUndefined();
    const two = [
      entry('c', 100, 1, ProductType.PHYSICAL, {
        itemId: 'item-a',
        chosenVariant: { sku: 'sku-a', attributes: {} },
        additionalFields: '{"a":1,"b":2}',
      }),
    ];
    expect(findMergeableEntry(two, { itemId: 'item-a', sku: 'sku-a', additionalFields: '{"b":2,"a":1}' })?.id).toBe('c');
    expect(findMergeableEntry(two, { itemId: 'item-a', sku: 'sku-a', additionalFields: '{"a":1,"b":3}' })).toBeUndefined();
    expect(findMergeableEntry(two, { itemId: 'item-a', sku: 'sku-a' })).toBeUndefined();
  });
  it('sameAdditionalFields: no answers in any spelling are equal; answers compare as JSON values', () => {
    for (const none of [undefined, null, '', '  ', 'null', '{}', '[]']) expect(sameAdditionalFields(none, '')).toBe(true);
    expect(sameAdditionalFields('{"f":"x"}', '{"f":"x"}')).toBe(true);
    expect(sameAdditionalFields('{"f":"x"}', '')).toBe(false);
    expect(sameAdditionalFields('{"f":["a",{"y":1,"x":2}]}', '{"f":["a",{"x":2,"y":1}]}')).toBe(true);
    expect(sameAdditionalFields('{"f":["a","b"]}', '{"f":["b","a"]}')).toBe(false);
  });
  it('counts quantity in cart per item and sku', () => {
    expect(quantityInCart(entries, 'item-a', 'sku-a')).toBe(3);
    expect(quantityInCart(entries, 'item-a')).toBe(3);
    expect(quantityInCart(entries, 'item-z')).toBe(0);
  });
});

describe('additionalFieldsErrors (issue 21, item 8)', () => {
  const fields = [
    { id: 'text', type: 'text', required: true },
    { id: 'font', type: 'select', required: true, options: ['Serif', 'Block'] },
    { id: 'extras', type: 'checkbox', options: ['Gift wrap', 'Card'] },
    { id: 'note', type: 'textarea', maxLength: 10 },
  ] as const;
  const check = (v: Record<string, unknown>) => additionalFieldsErrors(fields as unknown as FormField[], v, JSON.stringify(v));

  it('accepts answers to the form within its options and sizes', () => {
    expect(check({ text: 'Ada', font: 'Serif', extras: ['Card'], note: 'short' })).toEqual({});
  });
  it('refuses unknown questions, answers outside the options, long or oddly shaped answers, and missing required ones', () => {
    expect(check({ text: 'Ada', font: 'Comic' })).toEqual({ font: cartMessages.NOT_AN_OPTION });
    expect(check({ text: 'Ada', font: 'Serif', extras: ['Card', 'Champagne'] })).toEqual({ extras: cartMessages.NOT_AN_OPTION });
    expect(check({ text: 'Ada', font: 'Serif', other: 'x' })).toEqual({ other: cartMessages.UNKNOWN_QUESTION });
    expect(check({ text: 'Ada', font: 'Serif', note: 'x'.repeat(11) })).toEqual({ note: 'You have exceeded the character limit.' });
    expect(check({ text: ['a', 'b'].map(() => ({})), font: 'Serif' })).toEqual({ text: cartMessages.INVALID_ANSWER });
    expect(check({ text: 'x'.repeat(ADDITIONAL_FIELDS_MAX_CHARS), font: 'Serif' })).toEqual({
      additionalFields: cartMessages.ANSWERS_TOO_LONG,
    });
    expect(check({ font: 'Serif' })).toEqual({ text: 'Required' });
  });
});
