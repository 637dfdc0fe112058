/**
 * Enumerations of the platform. Numeric codes are part of stored data and template contexts,
 * so they never change once given. Each enum is a frozen `as const` object (NAME -> code) with a
 * union type of its values, and, where templates refer to members by name, a code -> identifier map.
 */

type ValueOf<T> = T[keyof T];

/** Reverse lookup: the member name of a code, e.g. enumKey(Role, 10) === 'VIEWER'. */
export function enumKey<T extends Record<string, string | number>>(e: T, value: unknown): keyof T | undefined {
  return (Object.keys(e) as (keyof T)[]).find((k) => e[k] === value);
}

/** Whether a value is one of the codes of an enum. */
export function isEnumValue<T extends Record<string, string | number>>(e: T, value: unknown): value is ValueOf<T> {
  return Object.values(e).includes(value as string | number);
}

// ------------------------------------------------------------------------------------------------
// Page types
// ------------------------------------------------------------------------------------------------

export const PageType = Object.freeze({
  MAIN_CONTENT: 1,
  PAGE: 2,
  SPLASH_PAGE: 3,
  CONTENT_ITEM: 50,
  NOT_FOUND: 100,
  ERROR: 101,
  SEARCH: 102,
  LOCK_SCREEN: 103,
  POPUP_OVERLAY: 104,
  PROTECTED_CONTENT: 105,
  MEMBER_AREA_ACCESS_DENIED: 106,
  SHOW_CART: 200,
  CHECKOUT: 201,
  ORDER_CONFIRMED: 202,
  DONATE: 203,
  CONTRIBUTION_CONFIRMED: 204,
  CART_V2: 205,
  SUBSCRIPTION_CONFIRMED: 206,
  ORDER_RECEIVED: 207,
  MEMBERSHIP_CONFIRMED: 208,
  REVIEWS_REQUEST: 209,
  DIGITAL_PRODUCT_COMPOSER_PREVIEW: 210,
  ORDER_STATUS: 211,
  NEWSLETTER_UNSUBSCRIBE: 300,
  COMMERCE_EMAIL_PREVIEW: 301,
  SINGLE_SIGN_ON_PAGE: 400,
} as const);
export type PageType = ValueOf<typeof PageType>;

/** Page types on which visitor analytics are never recorded. */
export const UNTRACKED_PAGE_TYPES: readonly PageType[] = Object.freeze([
  PageType.NOT_FOUND,
  PageType.LOCK_SCREEN,
  PageType.MEMBER_AREA_ACCESS_DENIED,
]);

/** Page types the editor names. */
export const EditorPageType = Object.freeze({
  SPLASH_PAGE: 'splash-page',
  LOCK_SCREEN: 'lock-screen',
  POPUP_OVERLAY: 'popup-overlay',
  CHECKOUT: 'checkout',
  STYLE: 'style',
  SINGLE_SIGN_ON_PAGE: 'sso-page',
} as const);
export type EditorPageType = ValueOf<typeof EditorPageType>;

/** Special screen types. */
export const ScreenType = Object.freeze({
  COVER_PAGE: 'cover-page',
  LOCK_SCREEN: 'lock-screen',
  POPUP_OVERLAY: 'popup-overlay',
  SSO_SCREEN: 'sso-screen',
} as const);
export type ScreenType = ValueOf<typeof ScreenType>;

// ------------------------------------------------------------------------------------------------
// Roles
// ------------------------------------------------------------------------------------------------

export const Role = Object.freeze({
  ADMIN: 1,
  BILLING: 2,
  REPORTING: 3,
  EDITOR: 4,
  MODERATOR: 6,
  COMMENTER: 7,
  STORE_MANAGER: 8,
  SCHEDULING: 9,
  VIEWER: 10,
  CAMPAIGNS_EDITOR: 11,
  SCHEDULING_VIEWER: 12,
  SCHEDULING_EDITOR: 13,
  NONE: 14,
  WEBSITE_MANAGER: 15,
  DRAFT_EDITOR: 16,
} as const);
export type Role = ValueOf<typeof Role>;

// ------------------------------------------------------------------------------------------------
// Records and collections
// ------------------------------------------------------------------------------------------------

export const RecordType = Object.freeze({
  TEXT: 1,
  IMAGE: 2,
  QUOTE: 4,
  LINK: 5,
  AUDIO: 7,
  VIDEO: 8,
  STORE_ITEM: 11,
  EVENT: 12,
  GALLERY: 14,
  BINARY: 15,
  CSS_ASSET: 16,
  TWEAK_ASSET: 17,
  DIGITAL_GOOD: 18,
  ATTACHMENT: 19,
  WORDPRESS_EXPORT: 20,
  JSON_EXPORT: 21,
  SITE_SEARCH: 30,
  ACTIVE_TIME: 31,
  TWEET: 50,
  CHECKIN: 52,
  KBARTICLE: 54,
} as const);
export type RecordType = ValueOf<typeof RecordType>;

/** Identifiers of record types as templates spell them. */
export const RECORD_TYPE_NAMES: Readonly<Record<RecordType, string>> = Object.freeze({
  1: 'text',
  2: 'image',
  4: 'quote',
  5: 'link',
  7: 'audio',
  8: 'video',
  11: 'store-item',
  12: 'event',
  14: 'gallery',
  15: 'binary',
  16: 'css-asset',
  17: 'tweak-asset',
  18: 'digital-good',
  19: 'attachment',
  20: 'wordpress-export',
  21: 'json-export',
  30: 'site-search',
  31: 'active-time',
  50: 'tweet',
  52: 'checkin',
  54: 'kbarticle',
});

/** Collection types 1-18 (codes 9 and 14 are unused). */
export const CollectionType = Object.freeze({
  GENERIC: 1,
  SUBSCRIPTION: 2,
  TWITTER: 3,
  FOURSQUARE: 4,
  INSTAGRAM: 5,
  GALLERY_BLOCK: 6,
  TEMPLATE_PAGE: 7,
  SPLASH_PAGE: 8,
  PAGE: 10,
  FIVEHUNDREDPIX: 11,
  FLICKR: 12,
  PRODUCTS: 13,
  SLIDE_GALLERY: 15,
  SLIDE_ALBUM: 16,
  SLIDE_VIDEO: 17,
  ALBUM_BLOCK: 18,
} as const);
export type CollectionType = ValueOf<typeof CollectionType>;

export const COLLECTION_TYPE_NAMES: Readonly<Record<CollectionType, string>> = Object.freeze({
  1: 'generic',
  2: 'subscription',
  3: 'twitter',
  4: 'foursquare',
  5: 'instagram',
  6: 'gallery-block',
  7: 'template-page',
  8: 'splash-page',
  10: 'page',
  11: 'fivehundredpix',
  12: 'flickr',
  13: 'products',
  15: 'slide-gallery',
  16: 'slide-album',
  17: 'slide-video',
  18: 'album-block',
});

/** Collection views. */
export const CollectionView = Object.freeze({ LIST: 'list', GRID: 'grid', PRODUCT: 'product' } as const);
export type CollectionView = ValueOf<typeof CollectionView>;

export const FolderBehavior = Object.freeze({
  INDEX: 1,
  REDIRECT: 2,
  NONE: 3,
  /** A fourth value that appears in one listing only. */
  VARIATION: 4,
} as const);
export type FolderBehavior = ValueOf<typeof FolderBehavior>;

export const BackgroundSource = Object.freeze({ UPLOAD: 1, INSTAGRAM: 2, VIDEO: 3, NONE: 4 } as const);
export type BackgroundSource = ValueOf<typeof BackgroundSource>;

// ------------------------------------------------------------------------------------------------
// Blocks
// ------------------------------------------------------------------------------------------------

export const BlockType = Object.freeze({
  NAVIGATION: 1,
  HTML: 2,
  LOGO: 3,
  MAP: 4,
  IMAGE: 5,
  TWITTER: 6,
  JOURNAL: 7,
  GALLERY: 8,
  FORM: 9,
  GEO: 10,
  INDEX: 11,
  COLLECTION_LINK: 12,
  LINK: 13,
  TAG_CLOUD: 14,
  COMMENTS: 16,
  FOLDER: 17,
  MENU: 18,
  SOCIAL_LINKS: 19,
  SUMMARY: 20,
  SPACER: 21,
  EMBED: 22,
  CODE: 23,
  FOURSQUARE: 24,
  INSTAGRAM: 25,
  CALENDAR: 26,
  POSTS_BY_AUTHOR: 27,
  POSTS_BY_TAG: 28,
  POSTS_BY_CATEGORY: 29,
  POSTS_BY_MONTH: 30,
  QUOTE: 31,
  VIDEO: 32,
  SEARCH: 33,
  AUDIO: 41,
  FIVEHUNDREDPIX: 42,
  PRODUCT: 43,
  MARKDOWN: 44,
  FLICKR: 45,
  AMAZON: 46,
  HORIZONTAL_RULE: 47,
  SOCIAL_ACCOUNT_LINKS: 48,
  RSS: 49,
  OPENTABLE: 50,
  NEWSLETTER: 51,
  DONATION: 52,
  BUTTON: 53,
  SOCIAL_ACCOUNT_LINKS_V2: 54,
  SUMMARY_V2: 55,
  SOUNDCLOUD: 56,
  EMAIL_FOOTER: 57,
  IN_BROWSER_MESSAGE_LINK: 58,
  TOUR_DATES: 59,
  ALBUM: 60,
  ARCHIVE: 61,
  CHART: 62,
  WEDDING_REGISTRY: 63,
  SCHEDULING: 65,
  OPENTABLE_V2: 66,
  MEMBER_AREA: 67,
  TOCK: 68,
  ACCORDION: 69,
  MARQUEE: 70,
  SHAPE: 71,
  PRICING_PLAN: 72,
  // Block variants, numbered from 1000 in the order the platform lists them.
  GALLERY_SLIDESHOW: 1000,
  GALLERY_CAROUSEL: 1001,
  GALLERY_GRID: 1002,
  GALLERY_STACK: 1003,
  SUMMARY_WALL: 1004,
  SUMMARY_CAROUSEL: 1005,
  SUMMARY_LIST: 1006,
  SUMMARY_GRID: 1007,
  CHART_BAR: 1008,
  CHART_LINE: 1009,
  CHART_PIE: 1010,
  IMAGE_INLINE: 1011,
  IMAGE_POSTER: 1012,
  IMAGE_CARD: 1013,
  IMAGE_OVERLAP: 1014,
  IMAGE_COLLAGE: 1015,
  IMAGE_STACK: 1016,
  TOCK_RESERVATIONS: 1017,
  TOCK_EVENTS: 1018,
  WEBSITE_COMPONENT: 1337,
} as const);
export type BlockType = ValueOf<typeof BlockType>;

/** First code of the block variants. */
export const BLOCK_VARIANT_BASE = 1000;

/** The base block of each block variant. */
export const BLOCK_VARIANT_BASE_TYPE: Readonly<Partial<Record<BlockType, BlockType>>> = Object.freeze({
  1000: BlockType.GALLERY,
  1001: BlockType.GALLERY,
  1002: BlockType.GALLERY,
  1003: BlockType.GALLERY,
  1004: BlockType.SUMMARY_V2,
  1005: BlockType.SUMMARY_V2,
  1006: BlockType.SUMMARY_V2,
  1007: BlockType.SUMMARY_V2,
  1008: BlockType.CHART,
  1009: BlockType.CHART,
  1010: BlockType.CHART,
  1011: BlockType.IMAGE,
  1012: BlockType.IMAGE,
  1013: BlockType.IMAGE,
  1014: BlockType.IMAGE,
  1015: BlockType.IMAGE,
  1016: BlockType.IMAGE,
  1017: BlockType.TOCK,
  1018: BlockType.TOCK,
});

/** Whether a block code is a variant (1000 onward, except the website component 1337). */
export function isBlockVariant(code: number): boolean {
  return Object.prototype.hasOwnProperty.call(BLOCK_VARIANT_BASE_TYPE, code);
}

// ------------------------------------------------------------------------------------------------
// Template engine slices
// ------------------------------------------------------------------------------------------------

/** Slice types, numbered from 1 in the order the platform lists them. */
export const SliceType = Object.freeze({
  HEADING: 1,
  SUB_HEADING: 2,
  BODY: 3,
  IMAGE: 4,
  GALLERY: 5,
  VIDEO: 6,
  SOCIAL_ICONS: 7,
  BUTTONS: 8,
  NAVIGATION: 9,
  CUSTOM_FORM: 10,
  NEWSLETTER: 11,
  ALBUM: 12,
  MAP: 13,
  LOCK: 14,
  PASSWORD: 15,
  TWITTER: 16,
  LOGO: 17,
  ACTION: 18,
  POPUP_OVERLAY_ACTION: 19,
  TEMP_LOCK_INJECT: 20,
  SSO_OPTIONS: 21,
} as const);
export type SliceType = ValueOf<typeof SliceType>;

export const SLICE_TYPE_NAMES: Readonly<Record<SliceType, string>> = Object.freeze({
  1: 'heading',
  2: 'sub-heading',
  3: 'body',
  4: 'image',
  5: 'gallery',
  6: 'video',
  7: 'social-icons',
  8: 'buttons',
  9: 'navigation',
  10: 'custom-form',
  11: 'newsletter',
  12: 'album',
  13: 'map',
  14: 'lock',
  15: 'password',
  16: 'twitter',
  17: 'logo',
  18: 'action',
  19: 'popup-overlay-action',
  20: 'temp-lock-inject',
  21: 'sso-options',
});

/** The slice type of an identifier such as 'custom-form', or undefined. */
export function sliceTypeFromName(name: string): SliceType | undefined {
  const hit = Object.entries(SLICE_TYPE_NAMES).find(([, n]) => n === name);
  return hit ? (Number(hit[0]) as SliceType) : undefined;
}

// ------------------------------------------------------------------------------------------------
// Commerce
// ------------------------------------------------------------------------------------------------

export const ProductType = Object.freeze({ PHYSICAL: 1, DIGITAL: 2, SERVICE: 3, GIFT_CARD: 4, PAYWALL: 5 } as const);
export type ProductType = ValueOf<typeof ProductType>;

export const BillingPeriodUnit = Object.freeze({ WEEK: 'WEEK', MONTH: 'MONTH', YEAR: 'YEAR' } as const);
export type BillingPeriodUnit = ValueOf<typeof BillingPeriodUnit>;

// ------------------------------------------------------------------------------------------------
// Galleries
// ------------------------------------------------------------------------------------------------

export const GalleryMediaType = Object.freeze({
  IMAGE_EMPTY: 'imageEmpty',
  IMAGE_FILE: 'imageFile',
  IMAGE_LICENSED: 'imageLicensed',
  IMAGE_REUSED: 'imageReused',
  ASSET_REUSED: 'assetReused',
  VIDEO: 'video',
} as const);
export type GalleryMediaType = ValueOf<typeof GalleryMediaType>;

export const GalleryDesign = Object.freeze({
  GRID: 'grid',
  SLIDESHOW: 'slideshow',
  SLIDER: 'slider',
  STACKED: 'stacked',
} as const);
export type GalleryDesign = ValueOf<typeof GalleryDesign>;

// ------------------------------------------------------------------------------------------------
// Forms
// ------------------------------------------------------------------------------------------------

export const FormFieldType = Object.freeze({
  TEXT: 'text',
  TEXTAREA: 'textarea',
  EMAIL: 'email',
  NUMBER: 'number',
  WEBSITE: 'website',
  CURRENCY: 'currency',
  PASSWORD: 'password',
  TWITTER: 'twitter',
  DATE: 'date',
  TIME: 'time',
  NAME: 'name',
  ADDRESS: 'address',
  PHONE: 'phone',
  SECTION: 'section',
  RADIO: 'radio',
  CHECKBOX: 'checkbox',
  SELECT: 'select',
  LIKERT: 'likert',
  HIDDEN: 'hidden',
} as const);
export type FormFieldType = ValueOf<typeof FormFieldType>;

/** Editable properties of each form-builder field type. */
export const FORM_FIELD_PROPERTIES: Readonly<Record<FormFieldType, readonly string[]>> = Object.freeze({
  text: ['description', 'placeholder', 'required'],
  textarea: ['description', 'placeholder', 'required'],
  email: ['description', 'placeholder', 'required'],
  number: ['description', 'placeholder', 'required'],
  website: ['description', 'placeholder', 'required'],
  currency: ['description', 'currencySymbol', 'required'],
  password: ['description', 'required'],
  twitter: ['description', 'required'],
  date: ['description', 'required'],
  time: ['description', 'required'],
  name: ['description', 'required'],
  address: ['description', 'required'],
  phone: ['description', 'showCountryCode', 'required'],
  section: ['description', 'underline'],
  radio: ['description', 'options', 'required'],
  checkbox: ['description', 'options', 'required'],
  select: ['description', 'options', 'required'],
  likert: ['description', 'options', 'required'],
  hidden: ['key', 'value'],
});

/** Form field answer types (fields whose answer is structured). */
export const FORM_ANSWER_TYPES = Object.freeze(['address', 'checkbox', 'date', 'likert', 'name', 'phone', 'time'] as const);

export const FormModelTab = Object.freeze({ BUILD: 1, STORAGE: 2, ADVANCED: 3, CAPTCHA: 4, DISCLAIMER: 5 } as const);
export type FormModelTab = ValueOf<typeof FormModelTab>;

/** Form submission contentSource values. */
export const ContentSource = Object.freeze({ ITEM: 'i', COLLECTION: 'c' } as const);
export type ContentSource = ValueOf<typeof ContentSource>;

/** Captcha action types a token is requested for. */
export const CaptchaAction = Object.freeze({
  FORM_BLOCK: 'form_block',
  NEWSLETTER_BLOCK: 'newsletter_block',
  PRODUCT_WAITLIST: 'product_waitlist',
  PROMO_POPUP: 'promo_popup',
} as const);
export type CaptchaAction = ValueOf<typeof CaptchaAction>;

// ------------------------------------------------------------------------------------------------
// Editor
// ------------------------------------------------------------------------------------------------

export const TweakEvent = Object.freeze({
  CHANGE: 'change',
  CLOSE: 'close',
  SAVE: 'save',
  RESET: 'reset',
  AFTER_SHOW: 'aftershow',
  AFTER_CLOSE: 'afterclose',
  BEFORE_OPEN: 'beforeopen',
} as const);
export type TweakEvent = ValueOf<typeof TweakEvent>;

export const ContentStatus = Object.freeze({
  SCHEDULED: 'scheduled',
  NEEDS_REVIEW: 'needs-review',
  DRAFT: 'draft',
  PRIVATE: 'private',
} as const);
export type ContentStatus = ValueOf<typeof ContentStatus>;

/** Labels of content statuses (shown to owners as written here). */
export const CONTENT_STATUS_LABELS: Readonly<Record<ContentStatus, string>> = Object.freeze({
  scheduled: 'Scheduled',
  'needs-review': 'Needs Review',
  draft: 'Draft',
  private: 'Private',
});

export const DeviceView = Object.freeze({ DESKTOP: 'desktop', PHONE: 'phone', TABLET: 'tablet' } as const);
export type DeviceView = ValueOf<typeof DeviceView>;

export const FluidEngineBreakpoint = Object.freeze({ MOBILE: 'mobile', DESKTOP: 'desktop' } as const);
export type FluidEngineBreakpoint = ValueOf<typeof FluidEngineBreakpoint>;

/** Popup overlay anchor positions: the 3x3 grid of top/center/bottom by left/center/right. */
export const POPUP_ANCHOR_POSITIONS = Object.freeze(
  (['top', 'center', 'bottom'] as const).flatMap((v) => (['left', 'center', 'right'] as const).map((h) => `${v}-${h}` as const)),
);
export type PopupAnchorPosition = (typeof POPUP_ANCHOR_POSITIONS)[number];

/** Navigation names. */
export const NavigationName = Object.freeze({ HIDDEN: '_hidden', MEMBER_AREAS: '_memberareas' } as const);

/**
 * Named page layouts: a template's `default` layout, and the one product-page
 * layout, 'pdp', that product detail pages use when a template.conf declares it.
 */
export const PageLayoutName = Object.freeze({ DEFAULT: 'default', PRODUCT_PAGE: 'pdp' } as const);
export type PageLayoutName = ValueOf<typeof PageLayoutName>;

/** Page names: the readme page. */
export const PageName = Object.freeze({ README: 'readme' } as const);

/** Text filter names. */
export const TextFilter = Object.freeze({ URL_SLUG: 'url-slug', URL_SLUG_WITH_SLASH: 'url-slug-with-slash' } as const);

/** Analytics source environments. */
export const SourceEnvironment = Object.freeze({ DEV: 'dev', QA: 'qa', PROD: 'prod' } as const);
export type SourceEnvironment = ValueOf<typeof SourceEnvironment>;
