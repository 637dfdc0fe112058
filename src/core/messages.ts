/**
 * Every user-facing message and label of the two specifications (storefront.md, platform.md),
 * verbatim, grouped by area. Templated messages keep their verbatim template (with {placeholders})
 * next to a small function that fills it. Nothing else in the code base should spell these strings.
 */

/** Replaces each {name} in a template by vars[name]; unknown placeholders are left as they are. */
export function fill(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, key: string) =>
    Object.prototype.hasOwnProperty.call(vars, key) ? String(vars[key]) : whole,
  );
}

/** Replaces the count placeholder N (a standalone capital N) of the instalment templates. */
function fillCount(template: string, n: number | string): string {
  return template.replace(/\bN\b/, String(n));
}

/** The example address shown in the email-format messages. */
export const EXAMPLE_EMAIL = 'name@example.com';

// ---------------------------------------------------------------------------------------------
// Commerce: product page, add to cart, labels
// ---------------------------------------------------------------------------------------------

const SELECT_ONE_OPTION = 'Please select the {option} option.';
const SELECT_TWO_OPTIONS = 'Please select the {option1} and {option2} options.';
const SELECT_MANY_OPTIONS = 'Please select the {optionsList} and {lastOption} options.';
const SELECT_VARIANT_NAME = 'Select {variantName}';

export const commerce = {
  // Default labels
  ADD_TO_CART: 'Add To Cart',
  SUBSCRIBE: 'Subscribe',
  QUANTITY: 'Quantity',
  QUICK_VIEW: 'Quick View',
  SOLD_OUT: 'sold out',
  SALE: 'sale',
  SELECT_VALUE: 'Select Value',
  SELECT_VARIANT_NAME_TEMPLATE: SELECT_VARIANT_NAME,
  /** 'Select {variantName}', e.g. selectVariantName('Size') === 'Select Size'. */
  selectVariantName: (variantName: string) => fill(SELECT_VARIANT_NAME, { variantName }),

  // Add-to-cart button states
  ADDING: 'Adding…',
  ADDED: 'Added!',

  // Add-to-cart validation
  SELECT_ONE_OPTION_TEMPLATE: SELECT_ONE_OPTION,
  SELECT_TWO_OPTIONS_TEMPLATE: SELECT_TWO_OPTIONS,
  SELECT_MANY_OPTIONS_TEMPLATE: SELECT_MANY_OPTIONS,
  /**
   * The message for unselected variant options:
   * ['Size'] -> 'Please select the Size option.';
   * ['Size', 'Color'] -> 'Please select the Size and Color options.';
   * ['Size', 'Color', 'Fit'] -> 'Please select the Size, Color and Fit options.'
   */
  selectOptions(options: readonly string[]): string {
    if (options.length === 0) return '';
    if (options.length === 1) return fill(SELECT_ONE_OPTION, { option: options[0] });
    if (options.length === 2) return fill(SELECT_TWO_OPTIONS, { option1: options[0], option2: options[1] });
    return fill(SELECT_MANY_OPTIONS, {
      optionsList: options.slice(0, -1).join(', '),
      lastOption: options[options.length - 1],
    });
  },
  VARIANT_UNAVAILABLE: 'Sorry, that item variant is unavailable. Please select another variant.',
  NOT_ENOUGH_STOCK: 'Sorry, we do not have enough of that item available.',
  QUANTITY_NOT_A_NUMBER: 'Quantity must be a number.',
  QUANTITY_NOT_WHOLE: 'Quantity must be a whole number.',
  SELECT_GIFT_CARD_DENOMINATION: 'Select a denomination for the Gift Card.',

  // Add-to-cart errors
  SESSION_EXPIRED: 'Your session has expired. Please reload the page and try again.',
  ENABLE_COOKIES: 'Please enable cookies in your browser, reload the page, and try again.',
  /** The crumb-failure message: depends on whether the browser has cookies enabled. */
  crumbFailure: (cookiesEnabled: boolean) =>
    cookiesEnabled
      ? 'Your session has expired. Please reload the page and try again.'
      : 'Please enable cookies in your browser, reload the page, and try again.',
  RATE_LIMITED: 'Please try again in a few seconds.',

  // Alert titles
  UNABLE_TO_ADD_ITEM: 'Unable to Add Item',
  UNABLE_TO_PURCHASE_ITEM: 'Unable to Purchase Item',
  UNABLE_TO_PURCHASE_GIFT_CARD: 'Unable to purchase Gift Card',

  /** Subscription price text where no wording fits. */
  UNAVAILABLE: 'Unavailable',

  // Comments
  NO_COMMENTS: 'No Comment(s)',
  /** Comment link text: 'No Comment(s)' or the count. */
  commentLink: (count: number) => (count > 0 ? String(count) : 'No Comment(s)'),

  /** Default link title of the online food ordering connected account. */
  ORDER_NOW: 'Order Now',
} as const;

// ---------------------------------------------------------------------------------------------
// Cart
// ---------------------------------------------------------------------------------------------

const ITEMS_IN_CART = '{n} items in cart';
const MIN_SUBTOTAL = 'To check out, your order subtotal must be {subtotal} or more';

export const cart = {
  ONE_ITEM_IN_CART: 'One item in cart',
  ITEMS_IN_CART_TEMPLATE: ITEMS_IN_CART,
  /** '{n} items in cart' */
  itemsInCart: (n: number) => fill(ITEMS_IN_CART, { n }),
  MORE_THAN_100_ITEMS: 'More than 100 items in cart',
  /** The pill text above the cap. */
  PILL_OVERFLOW: '100+',

  UNABLE_TO_UPDATE_QUANTITY: 'Unable to update quantity',
  UNABLE_TO_REMOVE_ITEM: 'Unable to remove item',
  UNABLE_TO_OPEN_FORM: 'Unable to open form',
  UNABLE_TO_UPDATE_FORM: 'Unable to update form',
  CHECK_INTERNET: 'Please check your internet connection',
  PLEASE_TRY_AGAIN: 'Please try again',
  UPDATE_MISSING_INFO: 'Update the missing or invalid information above',
  MIN_SUBTOTAL_TEMPLATE: MIN_SUBTOTAL,
  /** 'To check out, your order subtotal must be {subtotal} or more'; subtotal is already formatted. */
  minimumSubtotal: (subtotal: string) => fill(MIN_SUBTOTAL, { subtotal }),
} as const;

// ---------------------------------------------------------------------------------------------
// Forms
// ---------------------------------------------------------------------------------------------

const INVALID_EMAIL = 'Email is not valid. Email addresses should follow the format {email}.';

export const forms = {
  REQUIRED: 'Required',
  CHARACTER_LIMIT: 'You have exceeded the character limit.',
  INVALID_EMAIL_TEMPLATE: INVALID_EMAIL,
  /** 'Email is not valid. Email addresses should follow the format name@example.com.' */
  INVALID_EMAIL: fill(INVALID_EMAIL, { email: EXAMPLE_EMAIL }),
  invalidEmail: (email: string = EXAMPLE_EMAIL) => fill(INVALID_EMAIL, { email }),
  CAPTCHA_INCOMPLETE: 'Complete CAPTCHA before submitting.',

  /** The live counter of a textarea with a maximum: 'current / max'. */
  counter: (current: number, max: number) => `${current} / ${max}`,

  // Button / widget states
  SUBMITTING: 'Submitting…',
  SAVING: 'Saving…',

  // Submission errors
  PROBLEM_ABOVE: 'Your form has encountered a problem. Please scroll down to review.',
  /** Shown below the form; the spec abbreviates it as '... scroll up to review.' */
  PROBLEM_BELOW: 'Your form has encountered a problem. Please scroll up to review.',
  STATUS_401: 'Unable to submit form. Please try again later.',
  STATUS_404: 'This form has not been configured yet.',
  STATUS_429: 'Unable to submit form. Submission rate limit exceeded. Please try again later.',
  STATUS_500: 'Unable to send form. Please try again later.',
  UNKNOWN_ERROR: 'Unknown error, please try again later.',
  ERROR_PROCESSING: 'Error processing form submission. Please reload and try again.',
  RECAPTCHA_FAILED: 'reCAPTCHA failed. Refresh this page and try again.',
  NO_SUBMISSION_KEY: 'Could not get a form submission key, please try again later.',
  PARSE_FIELDS_FAILED: 'Could not parse the form fields, please check your entries.',
  FIELDS_INVALID: 'One or more fields is invalid, please check your entries.',

  // Rendering
  NO_ANSWER: 'N/A',

  /** Likert answer labels, from 1 (Strongly Disagree) to 5 (Strongly Agree). */
  LIKERT_LABELS: ['Strongly Disagree', 'Disagree', 'Neutral', 'Agree', 'Strongly Agree'] as const,
} as const;

// ---------------------------------------------------------------------------------------------
// Restock sign-up
// ---------------------------------------------------------------------------------------------

export const restock = {
  EMAIL_BLANK: 'Email cannot be blank',
  EMAIL_INVALID: 'Email is invalid',
  DEFAULT_SUCCESS: 'Signed up!',
  /** Fallback with the enterprise captcha. */
  ENTERPRISE_FALLBACK: 'Unable to submit form. Please try again later.',
} as const;

// ---------------------------------------------------------------------------------------------
// Instalments (buy now, pay later)
// ---------------------------------------------------------------------------------------------

const PAYMENTS_OF = 'N interest-free payments of {amount}';
const OR_PAYMENTS_OF_WITH = 'or N interest-free payments of {amount} with';
const OR_INSTALLMENT_WITH = 'or {installment} with';
const UP_TO = 'available for orders up to {amount}';
const OVER = 'available for orders over {amount}';

export const instalments = {
  PAYMENTS_OF_TEMPLATE: PAYMENTS_OF,
  OR_PAYMENTS_OF_WITH_TEMPLATE: OR_PAYMENTS_OF_WITH,
  OR_INSTALLMENT_WITH_TEMPLATE: OR_INSTALLMENT_WITH,
  AVAILABLE_UP_TO_TEMPLATE: UP_TO,
  AVAILABLE_OVER_TEMPLATE: OVER,
  /** '4 interest-free payments of $25.00' */
  paymentsOf: (n: number, amount: string) => fill(fillCount(PAYMENTS_OF, n), { amount }),
  /** 'or 4 interest-free payments of $25.00 with' (the provider's logo follows) */
  orPaymentsOfWith: (n: number, amount: string) => fill(fillCount(OR_PAYMENTS_OF_WITH, n), { amount }),
  /** 'or {installment} with' */
  orInstallmentWith: (installment: string) => fill(OR_INSTALLMENT_WITH, { installment }),
  MORE_INFORMATION: 'more information',
  /** Out of range because the price is above the maximum: 'available for orders up to {amount}'. */
  availableUpTo: (amount: string) => fill(UP_TO, { amount }),
  /** Out of range because the price is at or below the minimum: 'available for orders over {amount}'. */
  availableOver: (amount: string) => fill(OVER, { amount }),
} as const;

// ---------------------------------------------------------------------------------------------
// Platform: content statuses, interface validation, captcha, navigation, logs
// ---------------------------------------------------------------------------------------------

const EMAILS_FORMATTED = 'Emails must be formatted as {email}';
const LINKS_FORMATTED = 'Links must be formatted as {host} or {host}';
const NOT_PAGE_URL = '{val} is not a valid page URL';
const NOT_EXPECTED_OPTION = '{val} is not one of the expected options';
const TAG_EXISTS = 'This {tagType} already exists';
const ONE_TAG_AT_A_TIME = 'You may only edit one {tagType} at a time';

export const platform = {
  // Content statuses shown in labels
  STATUS_SCHEDULED: 'Scheduled',
  STATUS_NEEDS_REVIEW: 'Needs Review',
  STATUS_DRAFT: 'Draft',
  STATUS_PRIVATE: 'Private',

  // Interface validation
  ENTER_VALID_EMAIL: 'Please enter a valid email',
  EMAILS_FORMATTED_TEMPLATE: EMAILS_FORMATTED,
  emailsFormattedAs: (email: string = EXAMPLE_EMAIL) => fill(EMAILS_FORMATTED, { email }),
  LINKS_FORMATTED_TEMPLATE: LINKS_FORMATTED,
  /** 'Links must be formatted as {host} or {host}', e.g. linksFormattedAs('example.com', 'https://example.com'). */
  linksFormattedAs: (host1: string, host2: string) => {
    const hosts = [host1, host2];
    return LINKS_FORMATTED.replace(/\{host\}/g, () => hosts.shift() ?? '');
  },
  NOT_PAGE_URL_TEMPLATE: NOT_PAGE_URL,
  notValidPageUrl: (val: string) => fill(NOT_PAGE_URL, { val }),
  NOT_EXPECTED_OPTION_TEMPLATE: NOT_EXPECTED_OPTION,
  notExpectedOption: (val: string) => fill(NOT_EXPECTED_OPTION, { val }),
  LIST_MUST_BE_SELECTED: 'A List must be selected',
  ENTER_FILE_NAME: 'Please enter a file name',
  TAG_EXISTS_TEMPLATE: TAG_EXISTS,
  tagExists: (tagType: string) => fill(TAG_EXISTS, { tagType }),
  ONE_TAG_AT_A_TIME_TEMPLATE: ONE_TAG_AT_A_TIME,
  oneTagAtATime: (tagType: string) => fill(ONE_TAG_AT_A_TIME, { tagType }),
  DATASET_NO_COLUMN: 'Your dataset must have at least one column',
  DATASET_NO_ROW: 'Your dataset must have at least one row',
  DATASET_MISSING_DATA: 'One or more rows was missing data',
  /** The spec names this message without its wording. */
  datasetTruncated: (maxRows: number, maxColumns: number) =>
    `Your dataset was truncated to a maximum of ${maxRows} rows or ${maxColumns} columns`,
  /** The spec names this message without its wording. */
  fileTooLarge: (maxSize: string) => `File is too large. The maximum size is ${maxSize}`,
  /** The spec names this message without its wording. */
  FILE_NOT_SUPPORTED: 'File is not a supported type',
  VIMEO_BASIC_UNSUPPORTED: 'Vimeo Basic accounts are unsupported',

  // Navigation and store creation
  NO_MAIN_NAVIGATION: 'Unable to find site main navigation',

  // Captcha
  RECAPTCHA_NOT_SET_UP: 'ReCaptcha has not been set up!',
  CAPTCHA_RENDER_ERROR: 'Error rendering captcha into node',
  DOCUMENT_DESTROYED: 'Document was destroyed',

  // Logs
  PLACES_TRACKING_CONTEXT: 'Please provide a tracking context when using Google Places API details to track cost',
} as const;

// ---------------------------------------------------------------------------------------------
// Editor
// ---------------------------------------------------------------------------------------------

export const editor = {
  SOMETHING_WENT_WRONG: 'Something went wrong',
  UNABLE_TO_LOAD_RESULTS: 'Unable to load results',
  UNABLE_TO_LOAD_TRY_AGAIN: 'Unable to load. Try again',
  UNABLE_TO_LOAD_FONTS: 'Unable to load fonts',
  UNABLE_TO_LOAD_COLLECTIONS: 'Unable to load collections',
  UNABLE_TO_CONNECT: 'Unable to connect. Please try again',
  NETWORK_ERROR: 'Network error',
  NO_JOB_RESPONSE: 'No response data from job request',
  FILE_PROCESSING_FAILED: 'File processing failed',
  FILE_PROCESSING_CANCELLED: 'File processing cancelled',
  FILE_UPLOAD_INCOMPLETE: 'File upload failed to complete',
  FILE_PROCESSING_INCOMPLETE: 'File processing failed to complete',
  ERROR_UPLOADING: 'Error uploading',
  RENAME_PROBLEM: 'There was a problem while renaming your file',
  RENAME_TITLE: 'Unable to Rename File',
  UPLOAD_PROBLEM: 'There was a problem while uploading your file',
  UPLOAD_TITLE: 'Unable to Upload File',
  FONT_PREVIEW_FAILED: 'Unable to load preview for a font',
  TIMEZONE_FAILED: 'Failed to load timezone, retry connection',
  NO_MAILING_LISTS: "You don't have any mailing lists, create one before continuing",
  NO_CODE_EDITING_ANDROID: 'Code editing is not available on Android',
  // Recovery actions
  TRY_AGAIN: 'Try again',
  RETRY: 'Retry',
} as const;

// ---------------------------------------------------------------------------------------------
// Template engine
// ---------------------------------------------------------------------------------------------

const FORMATTER_NOT_IMPLEMENTED = '"name" formatter is not yet implemented';

export const template = {
  ERROR_CALLING_FUNCTION: 'Error calling function',
  INVALID_OPERATOR_ARGUMENTS: 'Invalid arguments to operator',
  MAX_STRING_LENGTH: 'Concatenation would exceed maximum string length',
  MAX_TOKENS: 'Expression exceeds the maximum number of allowed tokens',
  UNEXPECTED_CHARACTER: 'Unexpected character',
  INVALID_FUNCTION: 'Invalid function',
  FORMATTER_NOT_IMPLEMENTED_TEMPLATE: FORMATTER_NOT_IMPLEMENTED,
  /** '"name" formatter is not yet implemented' with the formatter's name in the quotes. */
  formatterNotImplemented: (name: string) => FORMATTER_NOT_IMPLEMENTED.replace('name', () => name),
  INVALID_SOURCE_PARAMETER: "Invalid source parameter. Pass in 'originalSize'",
  /** The 'units-metric?' predicate reports this. */
  UNITS_METRIC_NOT_IMPLEMENTED: 'units-metric? not implemented',
  /** Returned by the product-price formatter. */
  NOT_YET_IMPLEMENTED: 'not yet implemented',
  /** Returned by the cart-subtotal formatter. */
  DEPRECATED: 'deprecated, do not use',
} as const;

// ---------------------------------------------------------------------------------------------
// Colour
// ---------------------------------------------------------------------------------------------

export const colour = {
  HUE_OUT_OF_BOUNDS: 'Hue out of bounds.',
  SATURATION_OUT_OF_BOUNDS: 'Saturation out of bounds.',
  LIGHTNESS_OUT_OF_BOUNDS: 'Lightness out of bounds.',
  ALPHA_OUT_OF_BOUNDS: 'Alpha out of bounds.',
  MISSING_HSL_VALUE: 'Missing an H/S/L value.',
} as const;

// ---------------------------------------------------------------------------------------------
// Image template
// ---------------------------------------------------------------------------------------------

export const image = {
  REQUIRES_POSITIVE_INTEGER: 'requires a positive integer',
  NEGATIVE_OR_NON_INTEGER: 'negative value or non-integer value',
  UNKNOWN_LOADER: 'received unknown loader type',
  /** e.g. 'Image with src "/a.jpg" has invalid "width" property: requires a positive integer' */
  invalidProp: (src: string, prop: string, reason: string) =>
    `Image with src "${src}" has invalid "${prop}" property: ${reason}`,
  missingProp: (src: string, prop: string) => `Image with src "${src}" is missing required "${prop}" property`,
  unknownLoader: (src: string, loader: string) => `Image with src "${src}" received unknown loader type "${loader}"`,
} as const;

// ---------------------------------------------------------------------------------------------
// Time since
// ---------------------------------------------------------------------------------------------

export const time = {
  ABOUT_A_YEAR_AGO: 'about a year ago',
  ABOUT_A_MONTH_AGO: 'about a month ago',
  ABOUT_A_WEEK_AGO: 'about a week ago',
  ABOUT_A_DAY_AGO: 'about a day ago',
  ABOUT_AN_HOUR_AGO: 'about an hour ago',
  ABOUT_A_MINUTE_AGO: 'about a minute ago',
  LESS_THAN_A_MINUTE_AGO: 'less than a minute ago',
} as const;

/** All areas in one object. */
export const messages = { commerce, cart, forms, restock, instalments, platform, editor, template, colour, image, time } as const;
