import { describe, expect, it } from 'vitest';
import {
  albumTracksError,
  categoryError,
  categoryListErrors,
  collectionAddError,
  collectionItemLimit,
  tagError,
  tagListErrors,
} from '../../../src/core/content';
import { CollectionType } from '../../../src/core/enums';
import { contentLimits } from '../../../src/core/messages';

describe('content limits', () => {
  it('a tag may be 50 characters, not 51', () => {
    expect(tagError('a'.repeat(50))).toBeNull();
    expect(tagError('a'.repeat(51))).toBe('Tags can be up to 50 characters.');
    expect(tagError(`  ${'a'.repeat(50)}  `)).toBeNull();
    // An emoji is one character, not two UTF-16 units.
    expect(tagError('😀'.repeat(50))).toBeNull();
    expect(tagError('😀'.repeat(51))).toBe(contentLimits.tagTooLong(50));
  });

  it('names the first too-long tag of a list', () => {
    expect(tagListErrors(['ok', 'fine'])).toEqual({});
    expect(tagListErrors(['ok', 'x'.repeat(51), 'y'.repeat(60)])).toEqual({ 'tags.1': 'Tags can be up to 50 characters.' });
  });

  it('a category may be 25 characters, not 26', () => {
    expect(categoryError('c'.repeat(25))).toBeNull();
    expect(categoryError('c'.repeat(26))).toBe('Categories can be up to 25 characters.');
    expect(categoryListErrors(['News', 'c'.repeat(25)])).toEqual({});
    expect(categoryListErrors(['c'.repeat(26)])).toEqual({ 'categories.0': 'Categories can be up to 25 characters.' });
  });

  it('a store holds at most 200 products', () => {
    const store = { type: CollectionType.PRODUCTS, typeName: 'products' };
    expect(collectionItemLimit(store)).toBe(200);
    expect(collectionAddError(store, 199)).toBeNull();
    expect(collectionAddError(store, 200)).toBe('A store can hold at most 200 products. Delete a product to add another.');
    expect(collectionAddError(store, 150, 51)).toBe(contentLimits.productsLimit(200));
  });

  it('a user-orderable collection holds at most 250 items; a date-ordered one has no such limit', () => {
    const gallery = { type: CollectionType.SLIDE_GALLERY, typeName: 'slide-gallery' };
    expect(collectionItemLimit(gallery)).toBe(250);
    expect(collectionAddError(gallery, 249)).toBeNull();
    expect(collectionAddError(gallery, 250)).toBe('A collection can hold at most 250 items. Delete an item to add another.');
    const journal = { type: CollectionType.GENERIC, typeName: 'blog' };
    expect(collectionItemLimit(journal)).toBeNull();
    expect(collectionAddError(journal, 10_000)).toBeNull();
  });

  it('an album has at most 60 tracks', () => {
    expect(albumTracksError(60)).toBeNull();
    expect(albumTracksError(61)).toBe('An album can have at most 60 tracks.');
  });
});
