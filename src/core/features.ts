/**
 * The feature enumeration (codes up to 70: commerce, gift cards, subscriptions, two instalment-payment
 * brands, and more; the amazon, donation, menu and opentable blocks are tied to beta feature flags) and
 * the per-site switch rule.
 *
 * Codes are stored data: they never change once given. Beyond the named members, the codes
 * are the features this product has areas for. Switches live in the website's settings under `features`
 * as `{ [key]: boolean }`; a missing key means the feature's default.
 */
import { BlockType } from './enums';

type ValueOf<T> = T[keyof T];

export const FEATURE_MAX = 70;

export const Feature = Object.freeze({
  COMMERCE: 1,
  GIFT_CARDS: 2,
  SUBSCRIPTIONS: 3,
  /** The first instalment-payment brand (US, CA, AU, NZ). */
  INSTALMENTS_AFTERPAY: 4,
  /** The second instalment-payment brand (GB). */
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
export type Feature = ValueOf<typeof Feature>;

export interface FeatureInfo {
  code: Feature;
  /** The key in the settings object and in the template context's `features`. */
  key: string;
  label: string;
  /** Tied to a beta flag (the amazon, donation, menu and opentable blocks). */
  beta: boolean;
  defaultOn: boolean;
}

const info = (code: Feature, key: string, label: string, opts: { beta?: boolean; defaultOn?: boolean } = {}): FeatureInfo =>
  Object.freeze({ code, key, label, beta: opts.beta ?? false, defaultOn: opts.defaultOn ?? true });

/** Every feature, in code order. Session recording is off until an owner turns it on. */
export const FEATURES: readonly FeatureInfo[] = Object.freeze([
  info(Feature.COMMERCE, 'commerce', 'Commerce'),
  info(Feature.GIFT_CARDS, 'giftCards', 'Gift cards'),
  info(Feature.SUBSCRIPTIONS, 'subscriptions', 'Subscriptions'),
  info(Feature.INSTALMENTS_AFTERPAY, 'instalmentsAfterpay', 'Instalments (Afterpay)'),
  info(Feature.INSTALMENTS_CLEARPAY, 'instalmentsClearpay', 'Instalments (Clearpay)'),
  info(Feature.MEMBER_AREAS, 'memberAreas', 'Member areas'),
  info(Feature.DONATIONS, 'donations', 'Donations'),
  info(Feature.DIGITAL_PRODUCTS, 'digitalProducts', 'Digital products'),
  info(Feature.SERVICE_PRODUCTS, 'serviceProducts', 'Service products'),
  info(Feature.RESTOCK_NOTIFICATIONS, 'restockNotifications', 'Back-in-stock notifications'),
  info(Feature.PRODUCT_REVIEWS, 'productReviews', 'Product reviews'),
  info(Feature.QUICK_VIEW, 'quickView', 'Quick view'),
  info(Feature.RELATED_PRODUCTS, 'relatedProducts', 'Related products'),
  info(Feature.SCARCITY, 'scarcity', 'Scarcity text'),
  info(Feature.COUPONS, 'coupons', 'Coupons'),
  info(Feature.EXPRESS_CHECKOUT, 'expressCheckout', 'Express checkout'),
  info(Feature.FORMS, 'forms', 'Forms'),
  info(Feature.NEWSLETTER, 'newsletter', 'Newsletter'),
  info(Feature.COMMENTS, 'comments', 'Comments'),
  info(Feature.SITE_SEARCH, 'siteSearch', 'Site search'),
  info(Feature.MULTILINGUAL, 'multilingual', 'Multilingual'),
  info(Feature.CODE_INJECTION, 'codeInjection', 'Header and footer code'),
  info(Feature.ANALYTICS, 'analytics', 'Analytics'),
  info(Feature.SESSION_RECORDING, 'sessionRecording', 'Session recording', { defaultOn: false }),
  info(Feature.VIDEO_PAYWALL, 'videoPaywall', 'Video paywall'),
  info(Feature.POPUP_OVERLAY, 'popupOverlay', 'Promotional pop-up'),
  info(Feature.COOKIE_BANNER, 'cookieBanner', 'Cookie banner'),
  info(Feature.PAGE_EDITOR, 'pageEditor', 'Page editor'),
  info(Feature.SCHEDULING, 'scheduling', 'Scheduling'),
  info(Feature.EMAIL_CAMPAIGNS, 'emailCampaigns', 'Email campaigns'),
  info(Feature.AMAZON_BLOCK, 'amazonBlock', 'Amazon block', { beta: true }),
  info(Feature.DONATION_BLOCK, 'donationBlock', 'Donation block', { beta: true }),
  info(Feature.MENU_BLOCK, 'menuBlock', 'Menu block', { beta: true }),
  info(Feature.OPENTABLE_BLOCK, 'opentableBlock', 'OpenTable block', { beta: true }),
]);

const BY_CODE = new Map<number, FeatureInfo>(FEATURES.map((f) => [f.code, f]));
const BY_KEY = new Map<string, FeatureInfo>(FEATURES.map((f) => [f.key, f]));

export function featureInfo(code: Feature): FeatureInfo {
  return BY_CODE.get(code)!;
}

export function featureByKey(key: string): FeatureInfo | undefined {
  return BY_KEY.get(key);
}

/** The blocks tied to beta feature flags. */
export const BETA_BLOCK_FEATURES: Readonly<Partial<Record<number, Feature>>> = Object.freeze({
  [BlockType.AMAZON]: Feature.AMAZON_BLOCK,
  [BlockType.DONATION]: Feature.DONATION_BLOCK,
  [BlockType.MENU]: Feature.MENU_BLOCK,
  [BlockType.OPENTABLE]: Feature.OPENTABLE_BLOCK,
  [BlockType.OPENTABLE_V2]: Feature.OPENTABLE_BLOCK,
});

/** The stored switches, read leniently: only known keys with boolean values count. */
export function storedSwitches(value: unknown): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  if (!value || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (BY_KEY.has(k) && typeof v === 'boolean') out[k] = v;
  return out;
}

/** Whether a feature is on, given the site's stored switches (a missing switch means the default). */
export function featureOn(stored: unknown, feature: Feature): boolean {
  const f = BY_CODE.get(feature);
  if (!f) return false;
  const s = storedSwitches(stored);
  const own = s[f.key] ?? f.defaultOn;
  // Everything a store sells needs commerce.
  if (feature !== Feature.COMMERCE && COMMERCE_FEATURES.has(feature) && !(s.commerce ?? true)) return false;
  return own;
}

const COMMERCE_FEATURES = new Set<number>([
  Feature.GIFT_CARDS,
  Feature.SUBSCRIPTIONS,
  Feature.INSTALMENTS_AFTERPAY,
  Feature.INSTALMENTS_CLEARPAY,
  Feature.DIGITAL_PRODUCTS,
  Feature.SERVICE_PRODUCTS,
  Feature.COUPONS,
  Feature.EXPRESS_CHECKOUT,
]);

/** Every feature's state by key: the `features` object of the template context. */
export function featureStates(stored: unknown): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const f of FEATURES) out[f.key] = featureOn(stored, f.code);
  return out;
}

/** Whether a block of this type renders: beta blocks follow their flag; other blocks always do. */
export function blockOn(stored: unknown, blockType: number): boolean {
  const f = BETA_BLOCK_FEATURES[blockType];
  return f === undefined ? true : featureOn(stored, f);
}

/** The instalment brand of a merchant country: the second brand in GB, the first elsewhere. */
export function instalmentBrand(country: string | null | undefined): Feature {
  return (country ?? '').toUpperCase() === 'GB' ? Feature.INSTALMENTS_CLEARPAY : Feature.INSTALMENTS_AFTERPAY;
}
