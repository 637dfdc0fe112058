import { describe, expect, it } from 'vitest';
import {
  BETA_BLOCK_FEATURES,
  FEATURE_MAX,
  FEATURES,
  Feature,
  blockOn,
  featureByKey,
  featureOn,
  featureStates,
  instalmentBrand,
  storedSwitches,
} from '../../../src/core/features.js';
import { BlockType } from '../../../src/core/enums.js';

describe('feature enumeration', () => {
  it('pins every value', () => {
    expect(Feature).toEqual({
      COMMERCE: 1,
      GIFT_CARDS: 2,
      SUBSCRIPTIONS: 3,
      INSTALMENTS_AFTERPAY: 4,
      INSTALMENTS_CLEARPAY: 5,
      MEMBER_AREAS: 6,
      DONATIONS: 7,
      DIGITAL_PRODUCTS: 8,
      SERVICE_PRODUCTS: 9,
      RESTOCK_NOTIFICATIONS: 10,
      PRODUCT_REVIEWS: 11,
      QUICK_VIEW: 12,
      RELATED_PRODUCTS: 13,
      SCARCITY: 14,
      COUPONS: 15,
      EXPRESS_CHECKOUT: 16,
      FORMS: 17,
      NEWSLETTER: 18,
      COMMENTS: 19,
      SITE_SEARCH: 20,
      MULTILINGUAL: 21,
      CODE_INJECTION: 22,
      ANALYTICS: 23,
      SESSION_RECORDING: 24,
      VIDEO_PAYWALL: 25,
      POPUP_OVERLAY: 26,
      COOKIE_BANNER: 27,
      PAGE_EDITOR: 28,
      SCHEDULING: 29,
      EMAIL_CAMPAIGNS: 30,
      AMAZON_BLOCK: 31,
      DONATION_BLOCK: 32,
      MENU_BLOCK: 33,
      OPENTABLE_BLOCK: 34,
    });
    expect(Object.isFrozen(Feature)).toBe(true);
  });

  it('describes every member once, in code order, within the platform maximum of 70', () => {
    const codes = Object.values(Feature);
    expect(FEATURES.map((f) => f.code)).toEqual(codes);
    expect(new Set(FEATURES.map((f) => f.key)).size).toBe(FEATURES.length);
    expect(Math.max(...codes)).toBeLessThanOrEqual(FEATURE_MAX);
    expect(FEATURE_MAX).toBe(70);
    for (const f of FEATURES) expect(featureByKey(f.key)).toBe(f);
    // Only session recording starts off; the four beta blocks are the beta ones.
    expect(FEATURES.filter((f) => !f.defaultOn).map((f) => f.key)).toEqual(['sessionRecording']);
    expect(FEATURES.filter((f) => f.beta).map((f) => f.key)).toEqual(['amazonBlock', 'donationBlock', 'menuBlock', 'opentableBlock']);
  });

  it('ties the amazon, donation, menu and opentable blocks to their beta flags', () => {
    expect(BETA_BLOCK_FEATURES).toEqual({
      [BlockType.MENU]: Feature.MENU_BLOCK,
      [BlockType.AMAZON]: Feature.AMAZON_BLOCK,
      [BlockType.OPENTABLE]: Feature.OPENTABLE_BLOCK,
      [BlockType.DONATION]: Feature.DONATION_BLOCK,
      [BlockType.OPENTABLE_V2]: Feature.OPENTABLE_BLOCK,
    });
    expect(blockOn({}, BlockType.DONATION)).toBe(true);
    expect(blockOn({ donationBlock: false }, BlockType.DONATION)).toBe(false);
    expect(blockOn({ opentableBlock: false }, BlockType.OPENTABLE_V2)).toBe(false);
    // Blocks without a flag always render.
    expect(blockOn({ donationBlock: false }, BlockType.IMAGE)).toBe(true);
  });
});

describe('feature switches', () => {
  it('a missing switch means the default; only known boolean switches count', () => {
    expect(featureOn(undefined, Feature.GIFT_CARDS)).toBe(true);
    expect(featureOn({}, Feature.SESSION_RECORDING)).toBe(false);
    expect(featureOn({ sessionRecording: true }, Feature.SESSION_RECORDING)).toBe(true);
    expect(featureOn({ giftCards: false }, Feature.GIFT_CARDS)).toBe(false);
    expect(featureOn({ giftCards: 'no' }, Feature.GIFT_CARDS)).toBe(true);
    expect(storedSwitches({ giftCards: false, teleport: true, subscriptions: 1 })).toEqual({ giftCards: false });
    expect(storedSwitches(['giftCards'])).toEqual({});
    expect(featureOn({}, 999 as never)).toBe(false);
  });

  it('commerce off turns off everything a store sells, but not member areas or blocks', () => {
    const s = featureStates({ commerce: false });
    expect(s).toMatchObject({
      commerce: false,
      giftCards: false,
      subscriptions: false,
      instalmentsAfterpay: false,
      instalmentsClearpay: false,
      coupons: false,
      memberAreas: true,
      donationBlock: true,
    });
    expect(Object.keys(s)).toEqual(FEATURES.map((f) => f.key));
  });

  it('the instalment brand follows the merchant country', () => {
    expect(instalmentBrand('GB')).toBe(Feature.INSTALMENTS_CLEARPAY);
    expect(instalmentBrand('gb')).toBe(Feature.INSTALMENTS_CLEARPAY);
    for (const c of ['US', 'CA', 'AU', 'NZ', null, undefined]) expect(instalmentBrand(c)).toBe(Feature.INSTALMENTS_AFTERPAY);
  });
});
