import { describe, expect, it } from 'vitest';
import { cart, commerce, fill, forms, instalments, platform, template } from '../../../src/core/messages';

describe('fill', () => {
  it('replaces known placeholders and keeps unknown ones', () => {
    expect(fill('a {x} b {y}', { x: 1 })).toBe('a 1 b {y}');
    expect(fill('{x}', { x: '$&' })).toBe('$&');
  });
});

describe('commerce.selectOptions', () => {
  it('one option', () => {
    expect(commerce.selectOptions(['Size'])).toBe('Please select the Size option.');
  });
  it('two options', () => {
    expect(commerce.selectOptions(['Size', 'Color'])).toBe('Please select the Size and Color options.');
  });
  it('three or more options are comma joined', () => {
    expect(commerce.selectOptions(['Size', 'Color', 'Fit'])).toBe('Please select the Size, Color and Fit options.');
    expect(commerce.selectOptions(['A', 'B', 'C', 'D'])).toBe('Please select the A, B, C and D options.');
  });
  it('none gives empty text', () => {
    expect(commerce.selectOptions([])).toBe('');
  });
});

describe('templated messages', () => {
  it('cart labels', () => {
    expect(cart.ONE_ITEM_IN_CART).toBe('One item in cart');
    expect(cart.itemsInCart(7)).toBe('7 items in cart');
    expect(cart.MORE_THAN_100_ITEMS).toBe('More than 100 items in cart');
    expect(cart.minimumSubtotal('$10.00')).toBe('To check out, your order subtotal must be $10.00 or more');
  });
  it('form email message uses name@example.com', () => {
    expect(forms.INVALID_EMAIL).toBe('Email is not valid. Email addresses should follow the format name@example.com.');
    expect(forms.counter(12, 100)).toBe('12 / 100');
    expect(forms.LIKERT_LABELS).toEqual(['Strongly Disagree', 'Disagree', 'Neutral', 'Agree', 'Strongly Agree']);
  });
  it('instalment texts', () => {
    expect(instalments.paymentsOf(4, '$25.00')).toBe('4 interest-free payments of $25.00');
    expect(instalments.orPaymentsOfWith(4, '$25.00')).toBe('or 4 interest-free payments of $25.00 with');
    expect(instalments.orInstallmentWith('$25.00')).toBe('or $25.00 with');
    expect(instalments.availableUpTo('$2,000.00')).toBe('available for orders up to $2,000.00');
    expect(instalments.availableOver('$35.00')).toBe('available for orders over $35.00');
  });
  it('labels and other templates', () => {
    expect(commerce.selectVariantName('Size')).toBe('Select Size');
    expect(commerce.crumbFailure(true)).toBe('Your session has expired. Please reload the page and try again.');
    expect(commerce.crumbFailure(false)).toBe('Please enable cookies in your browser, reload the page, and try again.');
    expect(commerce.commentLink(0)).toBe('No Comment(s)');
    expect(commerce.commentLink(3)).toBe('3');
    expect(platform.linksFormattedAs('example.com', 'https://example.com')).toBe(
      'Links must be formatted as example.com or https://example.com',
    );
    expect(platform.tagExists('tag')).toBe('This tag already exists');
    expect(template.formatterNotImplemented('foo')).toBe('"foo" formatter is not yet implemented');
  });
});
