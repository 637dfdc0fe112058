import { describe, expect, it } from 'vitest';
import { nextFreeSlug, slugify, storeUrlId } from '../../../src/core/slug';

describe('slugify', () => {
  it('lower-cases, strips accents and joins with hyphens', () => {
    expect(slugify('Café & Crème!')).toBe('cafe-creme');
    expect(slugify('  My   Shop  ')).toBe('my-shop');
    expect(slugify('--Hello--World--')).toBe('hello-world');
    expect(slugify('日本')).toBe('');
  });
  it('keeps slashes on request', () => {
    expect(slugify('Shop/New In', { keepSlashes: true })).toBe('shop/new-in');
    expect(slugify('Shop/New In')).toBe('shop-new-in');
  });
});

describe('storeUrlId', () => {
  it('uses the title slug', () => {
    expect(storeUrlId('Summer Store')).toBe('summer-store');
  });
  it('falls back when empty or shorter than 3', () => {
    expect(storeUrlId('ab', [], 'Shop')).toBe('shop');
    expect(storeUrlId('!!', [], 'Shop')).toBe('shop');
    expect(storeUrlId('abc', [], 'Shop')).toBe('abc');
    expect(storeUrlId('')).toBe('store');
  });
  it('adds the next free numeric suffix', () => {
    expect(storeUrlId('Shop', ['shop'])).toBe('shop-1');
    expect(storeUrlId('Shop', new Set(['shop', 'shop-1', 'shop-2']))).toBe('shop-3');
    expect(storeUrlId('Shop', ['shop', 'shop-2'])).toBe('shop-1');
    expect(nextFreeSlug('a', [])).toBe('a');
  });
});
