import { describe, expect, it } from 'vitest';
import {
  BLOCK_VARIANT_BASE_TYPE,
  BlockType,
  CollectionType,
  COLLECTION_TYPE_NAMES,
  FormModelTab,
  PageType,
  POPUP_ANCHOR_POSITIONS,
  ProductType,
  RECORD_TYPE_NAMES,
  RecordType,
  Role,
  SLICE_TYPE_NAMES,
  SliceType,
  enumKey,
  isBlockVariant,
  isEnumValue,
  sliceTypeFromName,
} from '../../../src/core/enums';
import { FEATURE_MAX, Feature } from '../../../src/core/features';

const uniqueValues = (o: Record<string, number | string>) => new Set(Object.values(o)).size === Object.keys(o).length;

describe('enums', () => {
  it('page types pin the spec codes', () => {
    expect(PageType.MAIN_CONTENT).toBe(1);
    expect(PageType.CONTENT_ITEM).toBe(50);
    expect(PageType.NOT_FOUND).toBe(100);
    expect(PageType.MEMBER_AREA_ACCESS_DENIED).toBe(106);
    expect(PageType.SHOW_CART).toBe(200);
    expect(PageType.ORDER_STATUS).toBe(211);
    expect(PageType.COMMERCE_EMAIL_PREVIEW).toBe(301);
    expect(PageType.SINGLE_SIGN_ON_PAGE).toBe(400);
    expect(Object.keys(PageType)).toHaveLength(26);
    expect(uniqueValues(PageType)).toBe(true);
  });
  it('roles', () => {
    expect(Role.ADMIN).toBe(1);
    expect(Role.MODERATOR).toBe(6);
    expect(Role.VIEWER).toBe(10);
    expect(Role.DRAFT_EDITOR).toBe(16);
    expect(Object.values(Role)).not.toContain(5);
    expect(enumKey(Role, 10)).toBe('VIEWER');
    expect(enumKey(Role, 5)).toBeUndefined();
  });
  it('record types and names', () => {
    expect(RecordType.STORE_ITEM).toBe(11);
    expect(RecordType.KBARTICLE).toBe(54);
    expect(RECORD_TYPE_NAMES[RecordType.STORE_ITEM]).toBe('store-item');
    expect(
      Object.keys(RECORD_TYPE_NAMES)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(Object.values(RecordType).sort((a, b) => a - b));
  });
  it('collection types 1-18', () => {
    expect(CollectionType.GENERIC).toBe(1);
    expect(CollectionType.SUBSCRIPTION).toBe(2);
    expect(CollectionType.TEMPLATE_PAGE).toBe(7);
    expect(CollectionType.PAGE).toBe(10);
    expect(CollectionType.PRODUCTS).toBe(13);
    expect(Math.max(...Object.values(CollectionType))).toBe(18);
    expect(COLLECTION_TYPE_NAMES[13]).toBe('products');
  });
  it('block types include the variants from 1000 in listed order', () => {
    expect(BlockType.NAVIGATION).toBe(1);
    expect(BlockType.SCHEDULING).toBe(65);
    expect(BlockType.ACCORDION).toBe(69);
    expect(BlockType.PRICING_PLAN).toBe(72);
    expect(BlockType.WEBSITE_COMPONENT).toBe(1337);
    expect(BlockType.GALLERY_SLIDESHOW).toBe(1000);
    expect(BlockType.TOCK_EVENTS).toBe(1018);
    expect(uniqueValues(BlockType)).toBe(true);
    expect(BLOCK_VARIANT_BASE_TYPE[BlockType.CHART_PIE]).toBe(BlockType.CHART);
    expect(isBlockVariant(1005)).toBe(true);
    expect(isBlockVariant(1337)).toBe(false);
    expect(isBlockVariant(43)).toBe(false);
  });
  it('slice types in listed order', () => {
    expect(SliceType.HEADING).toBe(1);
    expect(SliceType.SUB_HEADING).toBe(2);
    expect(SliceType.TWITTER).toBe(16);
    expect(SliceType.SSO_OPTIONS).toBe(21);
    expect(SLICE_TYPE_NAMES[SliceType.CUSTOM_FORM]).toBe('custom-form');
    expect(sliceTypeFromName('popup-overlay-action')).toBe(19);
    expect(sliceTypeFromName('nope')).toBeUndefined();
  });
  it('product types, form tabs, features', () => {
    expect(ProductType).toEqual({ PHYSICAL: 1, DIGITAL: 2, SERVICE: 3, GIFT_CARD: 4, PAYWALL: 5 });
    expect(FormModelTab.BUILD).toBe(1);
    expect(FormModelTab.DISCLAIMER).toBe(5);
    expect(Math.max(...Object.values(Feature))).toBeLessThanOrEqual(FEATURE_MAX);
    expect(uniqueValues(Feature)).toBe(true);
    expect(isEnumValue(Feature, Feature.GIFT_CARDS)).toBe(true);
    expect(isEnumValue(Feature, 999)).toBe(false);
  });
  it('popup anchors are the 3x3 grid', () => {
    expect(POPUP_ANCHOR_POSITIONS).toHaveLength(9);
    expect(POPUP_ANCHOR_POSITIONS[0]).toBe('top-left');
    expect(POPUP_ANCHOR_POSITIONS[8]).toBe('bottom-right');
  });
  it('enums are frozen', () => {
    expect(Object.isFrozen(PageType)).toBe(true);
  });
});
