/**
 * What each formatter needs from the render state, used at compile time to
 * decide whether a formatted variable must push its value as a frame (the
 * platform's behaviour) or can skip that push because no formatter in the
 * chain could observe the difference.
 *
 * A pushed frame holding the value `v` is invisible to a formatter when:
 * - the formatter never touches the context (PURE, the default below is the
 *   opposite: unknown names are treated as frame-sensitive), or
 * - `v` is the current frame's node (the pushed frame would duplicate it) and
 *   the formatter does not read `ctx.frame` directly, or
 * - `v` is not an object, and the formatter only resolves fixed plain names,
 *   `@index` or `@vars` (a primitive node resolves no names and holds no vars).
 */

/** Never touch the context. */
const PURE = new Set([
  'cart-quantity',
  'cart-subtotal',
  'cart-url',
  'from-price',
  'normal-price',
  'sale-price',
  'product-price',
  'variant-descriptor',
  'capitalize',
  'color-weight',
  'height',
  'width',
  'humanizeDuration',
  'image-color',
  'image-srcset',
  'resizedHeightForWidth',
  'resizedWidthForHeight',
  'squarespaceThumbnailForWidth',
  'squarespaceThumbnailForHeight',
  'website-color',
  'count',
  'cycle',
  'encode-space',
  'encode-uri',
  'encode-uri-component',
  'html',
  'htmlattr',
  'htmltag',
  'json',
  'json-pretty',
  'key-by',
  'line-breaks',
  'mod',
  'output',
  'pluralize',
  'prop',
  'raw',
  'round',
  'safe',
  'slugify',
  'smartypants',
  'str',
  'truncate',
  'url-encode',
  'datetimefield',
  'i18n-money-format',
  'money-format',
  'money-string',
  'moneyFormat',
  'unit',
  'activate-twitter-links',
  'comment-count',
  'google-calendar-url',
]);

/**
 * Resolve only fixed plain names, `@index` or `@vars` (directly, or inside
 * frames they push themselves), or use only render options.
 */
const PLAIN = new Set([
  'add-to-cart-btn',
  'bookkeeper-money-format',
  'percentage-format',
  'product-checkout',
  'subscription-price',
  'product-restock-notification',
  'product-scarcity',
  'product-status',
  'quantity-input',
  'summary-form-field',
  'variants-select',
  'AbsUrl',
  'audio-player',
  'child-image-meta',
  'cover-image-meta',
  'image',
  'image-meta',
  'item-classes',
  'video',
  'apply',
  'iter',
  'date',
  'datetime',
  'decimal',
  'money',
  'timesince',
  'comment-link',
  'comments',
  'like-button',
  'social-button',
  'social-button-inline',
  'twitter-follow-button',
  'datetime-interval',
  'relative-time',
]);

/** Resolve names given in their arguments (which may be `@`): the pushed frame matters unless it duplicates the current one. */
const ARGREF = new Set(['get', 'lookup', 'find-first', 'find-last', 'product-quick-view']);

/** Read the variable list (the `vars` parameter) beyond its length-1 default. */
const USES_VARS = new Set(['datetime-interval', 'relative-time']);

/** Push modes for a formatted variable. */
export const enum Push {
  NEVER = 0,
  /** When the value is an object other than the current node. */
  OBJECT = 1,
  /** When the value is not the current node. */
  DIFFERENT = 2,
  ALWAYS = 3,
}

export function pushMode(names: readonly string[]): Push {
  let mode = Push.NEVER;
  for (const n of names) {
    if (PURE.has(n)) continue;
    if (PLAIN.has(n)) {
      if (mode < Push.OBJECT) mode = Push.OBJECT;
    } else if (ARGREF.has(n)) {
      if (mode < Push.DIFFERENT) mode = Push.DIFFERENT;
    } else {
      return Push.ALWAYS; // format, message, plural read ctx.frame directly; unknown names too
    }
  }
  return mode;
}

export function usesVars(names: readonly string[]): boolean {
  for (const n of names) if (USES_VARS.has(n)) return true;
  return false;
}
