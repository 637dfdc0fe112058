/**
 * Business constants and limits: cart, content, upload, rate and time limits in one place.
 * Times are milliseconds unless named otherwise.
 */

// ---- Cart -------------------------------------------------------------------------------------
/** Above this quantity the cart pill shows '100+'. */
export const CART_COUNT_CAP = 100;
export const CART_URL = '/cart';
export const QUANTITY_MIN = 1;
export const QUANTITY_MAX = 9999;
export const QUANTITY_STEP = 1;
export const QUANTITY_DEFAULT = 1;
/** The most entries (distinct lines) one cart holds; each line's quantity is capped at QUANTITY_MAX. */
export const CART_LINES_MAX = 100;
/** The longest answer to one additional-fields question without its own maximum length. */
export const ADDITIONAL_FIELD_ANSWER_MAX = 2000;
/** The most characters all the additional-fields answers of one cart line take, as JSON. */
export const ADDITIONAL_FIELDS_MAX_CHARS = 8 * 1024;

// ---- Add-to-cart button -----------------------------------------------------------------------
/** Delay before the button shows 'Added!' after a success, and before an error returns it to idle. */
export const ADD_TO_CART_ADDED_DELAY_MS = 1000;
/** Time the button stays 'Added!' before returning to idle. */
export const ADD_TO_CART_RESET_DELAY_MS = 2000;

// ---- Cookies ----------------------------------------------------------------------------------
export const VISITOR_COOKIE_MAX_AGE_SECONDS = 2 * 365 * 24 * 60 * 60;
export const VISIT_COOKIE_MAX_AGE_SECONDS = 30 * 60;
export const ANALYTICS_ID_COOKIE_MAX_AGE_DAYS = 390;
export const ANALYTICS_ID_COOKIE_MAX_AGE_SECONDS = 390 * 24 * 60 * 60;

// ---- Analytics --------------------------------------------------------------------------------
export const ANALYTICS_TIMEOUT_MS = 2500;
export const ANALYTICS_DEFAULTS = Object.freeze({ fireEvents: true, logging: false, beacon: true, validate: false });
/** Accepted HTTP statuses of a plain (non-beacon) analytics request. */
export const ANALYTICS_ACCEPTED_STATUSES: readonly number[] = Object.freeze([200, 202]);
export const DEFAULT_RESOLVED_LOCALE = 'en-US';

// ---- Error reporter ---------------------------------------------------------------------------
export const ERROR_REPORTER_MAX_SENDS = 20;
export const ERROR_REPORTER_MAX_QUEUED = 10;
export const ERROR_REPORTER_DEBOUNCE_MS = 1000;
export const ERROR_REPORTER_MAX_STACK_CHARS = 5000;

// ---- Forms, restock, captcha ------------------------------------------------------------------
export const EMAIL_MIN_LENGTH = 3;
export const EMAIL_MAX_LENGTH = 256;
export const CAPTCHA_DEFAULT_THEME = 'light';
export const CAPTCHA_DEFAULT_SIZE = 'normal';
/** The captcha is compact when its container is narrower than this (px). */
export const CAPTCHA_COMPACT_BELOW_PX = 320;

// ---- Lightbox ---------------------------------------------------------------------------------
/** Margin when the lightbox is taller than the window (px). */
export const LIGHTBOX_MARGIN_PX = 50;
export const LIGHTBOX_RESIZE_DEBOUNCE_MS = 100;

// ---- Query parser -----------------------------------------------------------------------------
export const QUERY_PARSER_DEPTH = 5;
export const QUERY_PARSER_ARRAY_LIMIT = 20;
export const QUERY_PARSER_PARAMETER_LIMIT = 1000;

// ---- Images -----------------------------------------------------------------------------------
export const SRCSET_WIDTHS: readonly number[] = Object.freeze([100, 300, 500, 750, 1000, 1500, 2500]);
/** Thumbnail bucket thresholds (px): an image is served at the first bucket at least as wide as needed. */
export const THUMBNAIL_BUCKETS: readonly number[] = Object.freeze([100, 300, 500, 750, 1000]);
export const DEFAULT_FOCAL_POINT = Object.freeze({ x: 0.5, y: 0.5 });
/** Image hosts recognised for the platform srcset: a fixed list of three (the site's origin and two media CDN hosts). */
export const MAX_IMAGE_HOSTS = 3;

// ---- Text -------------------------------------------------------------------------------------
export const EXCERPT_MAX_CHARS = 250;
export const TRUNCATE_DEFAULT_LENGTH = 100;
export const TRUNCATE_SUFFIX = '...';

// ---- Template engine --------------------------------------------------------------------------
export const TEMPLATE_MAX_PARTIAL_DEPTH = 16;
export const TEMPLATE_DEFAULT_TIME_ZONE = 'America/New_York';
/** The default currency (USD) is DEFAULT_CURRENCY in money.ts. */
export const DEFAULT_MONEY_VALUE = 0;
/** Number-format digit options are clamped to this range. */
export const NUMBER_FORMAT_DIGITS_MIN = 0;
export const NUMBER_FORMAT_DIGITS_MAX = 50;

// ---- Scrolling and animation ------------------------------------------------------------------
export const SCROLL_OFFSET_PX = 30;
export const SCROLL_ANIMATION_DURATION_MS = 50;
export const DEFAULT_TWEEN_MS = 300;

// ---- Colour -----------------------------------------------------------------------------------
/** Dark-colour brightness threshold: 65% of 256. */
export const DARK_BRIGHTNESS_THRESHOLD = 0.65 * 256;
/** Light/dark split: the midpoint of 24-bit colour. */
export const COLOR_24BIT_MIDPOINT = 0xffffff / 2;

// ---- Subscriptions ----------------------------------------------------------------------------
export const WEEKS_PER_YEAR = 52;
export const MONTHS_PER_YEAR = 12;

// ---- Breakpoints and DOM ----------------------------------------------------------------------
export const MOBILE_MAX_WIDTH_PX = 432;
export const DESKTOP_MIN_WIDTH_PX = 433;
export const MOBILE_MEDIA_QUERY = '(max-width: 432px)';
export const DESKTOP_MEDIA_QUERY = '(min-width: 433px)';
/** A tablet query that can never match: no width is both above 432 and below 433. */
export const TABLET_MEDIA_QUERY = '(min-width: 433px) and (max-width: 432px)';
export const WAIT_FOR_ELEMENT_TIMEOUT_MS = 3000;
export const WAIT_FOR_ELEMENT_DEBOUNCE_MS = 100;

// ---- Files ------------------------------------------------------------------------------------
export const FILE_SIZE_UNITS: readonly string[] = Object.freeze(['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB']);
export const FILE_SIZE_STEP = 1024;
export const BYTES_IN_MB = 1_000_000;

// ---- Editor limits ----------------------------------------------------------------------------
export const MAX_BLOCKS_PER_LAYOUT = 60;
export const MAX_ALBUM_TRACKS = 60;
export const MAX_ITEMS_USER_ORDERABLE_COLLECTION = 250;
export const MAX_PRODUCTS_IN_COLLECTION = 200;
export const NESTED_CATEGORIES_LIMIT = 10000;
export const MAX_TAG_LENGTH = 50;
export const MAX_CATEGORY_LENGTH = 25;
export const MAX_PHOTO_GALLERY_SERVICE_GALLERIES = 20;
export const PHOTO_GALLERY_SERVICE_GALLERY_SIZE = 50;
export const DEFAULT_SLIDER_ASPECT_RATIO = 50;
/** Tessera's range for a slider's height as a percentage of its width (the default, 50, is fixed; the bounds are ours). */
export const SLIDER_ASPECT_RATIO_RANGE = Object.freeze([10, 200] as const);
export const EMPTY_LAYOUT_GRID_COLUMNS = 12;
export const FLUID_ENGINE_COLORS: readonly string[] = Object.freeze(['blue', 'yellow']);

// ---- Store ------------------------------------------------------------------------------------
export const STORE_ROOT_CATEGORY_DISPLAY_INDEX = 1;
/** Store urlId fallback applies when the slug of the title is shorter than this. */
export const STORE_URL_ID_MIN_LENGTH = 3;

// ---- Performance ------------------------------------------------------------------------------
export const PERFORMANCE_FLUSH_AFTER_LOAD_MS = 30_000;
export const PAGE_SPEED_MAX_WAIT_MS = 60_000;
/** Web-vitals thresholds: [good, poor]; FCP/LCP/FID in ms, CLS unitless. */
export const WEB_VITALS_THRESHOLDS = Object.freeze({
  FCP: Object.freeze({ good: 1800, poor: 3000 }),
  LCP: Object.freeze({ good: 2500, poor: 4000 }),
  CLS: Object.freeze({ good: 0.1, poor: 0.25 }),
  FID: Object.freeze({ good: 100, poor: 300 }),
});

export type WebVitalName = keyof typeof WEB_VITALS_THRESHOLDS;
export type WebVitalRating = 'good' | 'needs-improvement' | 'poor';

/** Rates a web-vitals value: at or below good is 'good', above poor is 'poor', else 'needs-improvement'. */
export function rateWebVital(name: WebVitalName, value: number): WebVitalRating {
  const t = WEB_VITALS_THRESHOLDS[name];
  if (value <= t.good) return 'good';
  if (value > t.poor) return 'poor';
  return 'needs-improvement';
}

// ---- Session recording ------------------------------------------------------------------------
/** Session recording needs more hardware threads than this. */
export const SESSION_RECORDING_MIN_HARDWARE_THREADS_EXCLUSIVE = 2;

// ---- Census cookies ---------------------------------------------------------------------------
export const CENSUS_COOKIES: readonly string[] = Object.freeze(['ss_cid', 'ss_cpvisit', 'ss_cvisit', 'ss_cvr', 'ss_cvt']);

// ---- Instalments ------------------------------------------------------------------------------
export const DEFAULT_INSTALMENT_COUNT = 4;

// ---- Gallery option defaults ------------------------------------------------------------------
export const GALLERY_DEFAULTS = Object.freeze({
  design: 'grid',
  autoplay: false,
  autoplayDuration: 5,
  controls: false,
  autoCrop: true,
  aspectRatio: 'square',
  squareThumbs: true,
  thumbnails: false,
  thumbnailStripHeight: 80,
  thumbnailStripMargin: 20,
  showMetaBasic: true,
  showMeta: true,
  showMetaOnlyTitle: false,
  metaPosition: 'bottom',
  showMetaOnHover: false,
  activeAlignment: 'center',
  thumbnailsPerRow: 4,
  padding: 20,
  lightbox: false,
  lightboxTheme: 'dark',
  maxWidth: 300,
  newWindow: false,
  transparentBackground: false,
} as const);

/** Ranges of the numeric gallery options (inclusive). */
export const GALLERY_RANGES = Object.freeze({
  autoplayDuration: Object.freeze([1, 10] as const),
  thumbnailStripHeight: Object.freeze([0, 200] as const),
  thumbnailStripMargin: Object.freeze([0, 60] as const),
  thumbnailsPerRow: Object.freeze([1, 10] as const),
  padding: Object.freeze([0, 50] as const),
  maxWidth: Object.freeze([100, 300] as const),
});

/** Gallery grid aspect ratios as width / height. */
export const GALLERY_ASPECT_RATIOS: Readonly<Record<string, number>> = Object.freeze({
  square: 1,
  standard: 3 / 2,
  'standard-vertical': 2 / 3,
  'four-three': 4 / 3,
  'three-four-vertical': 3 / 4,
  widescreen: 16 / 9,
  'anamorphic-widescreen': 2.4,
});
