/**
 * Every user-facing message and label of the product, grouped by area. Their wording is fixed
 * (tests and themes match it): change a text here only on purpose. Templated messages keep their verbatim template (with {placeholders})
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
  /** 'Select {variantName}', e.g. selectVariantName('Size') === 'Select Size'. */
  selectVariantName: (variantName: string) => fill(SELECT_VARIANT_NAME, { variantName }),

  // Add-to-cart button states
  ADDING: 'Adding…',
  ADDED: 'Added!',

  // Add-to-cart validation
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
  commentLink: (count: number) => (count > 0 ? String(count) : commerce.NO_COMMENTS),

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
  /** 'To check out, your order subtotal must be {subtotal} or more'; subtotal is already formatted. */
  minimumSubtotal: (subtotal: string) => fill(MIN_SUBTOTAL, { subtotal }),
  /** A cart holding the most lines it may. */
  linesLimit: (max: number) => `Your cart can hold at most ${max} different items. Remove an item to add another.`,
  /** Answers sent for a product that has no additional-fields form. */
  NO_ADDITIONAL_FIELDS: 'This product does not take additional information.',
  /** An answer to a question the product's form does not ask. */
  UNKNOWN_QUESTION: 'This question is not on the product form.',
  /** A select, radio or checkbox answer that is not one of the field's options. */
  NOT_AN_OPTION: 'Choose one of the options.',
  /** An answer of the wrong shape (e.g. a list where text is asked for). */
  INVALID_ANSWER: 'This answer is not valid.',
  ANSWERS_TOO_LONG: 'Your answers are too long.',
  /** A write that would take the cart's total past the largest amount money is exact to. */
  TOTAL_TOO_LARGE: 'That would make your cart total larger than this store can take. Lower the quantity or remove an item.',
  /** A stored cart whose total is already past what can be shown (an owner's price change): it opens, and says so. */
  CART_TOTAL_TOO_LARGE: 'Your cart total is larger than this store can take. Lower the quantity or remove an item.',
  /** In place of an amount past the 15 integer places money is shown with. */
  AMOUNT_TOO_LARGE: 'Too large to show',
  /** A service with more than one in the cart while multiple quantity for services is off. */
  SERVICE_QUANTITY_ONE: 'Only one of this service can be in your cart.',
} as const;

// ---------------------------------------------------------------------------------------------
// Forms
// ---------------------------------------------------------------------------------------------

const INVALID_EMAIL = 'Email is not valid. Email addresses should follow the format {email}.';

export const forms = {
  REQUIRED: 'Required',
  CHARACTER_LIMIT: 'You have exceeded the character limit.',
  /** 'Email is not valid. Email addresses should follow the format name@example.com.' */
  INVALID_EMAIL: fill(INVALID_EMAIL, { email: EXAMPLE_EMAIL }),
  CAPTCHA_INCOMPLETE: 'Complete CAPTCHA before submitting.',

  /** The live counter of a textarea with a maximum: 'current / max'. */
  counter: (current: number, max: number) => `${current} / ${max}`,

  // Button / widget states
  SUBMITTING: 'Submitting…',
  SAVING: 'Saving…',

  // Submission errors
  PROBLEM_ABOVE: 'Your form has encountered a problem. Please scroll down to review.',
  /** Shown below the form; its full wording was chosen here: '... scroll up to review.' ends it */
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
// Addresses: the labels of each country's address parts (by the name type of Google's address data)
// ---------------------------------------------------------------------------------------------

export const address = {
  NAME: 'Full name',
  LINE1: 'Address',
  LINE2: 'Apartment, suite (optional)',
  COUNTRY: 'Country',
  /** A two-letter code that names no country. */
  UNKNOWN_COUNTRY: 'Choose a country from the list.',
  optional: (label: string) => `${label} (optional)`,
  /** The first, empty option of a subdivision list ("Select a prefecture"). */
  choose: (label: string) => `Select a ${label.toLowerCase()}`,
  /** A region that is not one of the country's subdivisions ("Choose a province from the list."). */
  unknownSubdivision: (label: string) => `Choose a ${label.toLowerCase()} from the list.`,
  /** A postcode that does not fit the country's pattern. */
  badPostcode: (label: string, example: string) =>
    example ? `Enter a valid ${lowerFirst(label)}, for example ${example}.` : `Enter a valid ${lowerFirst(label)}.`,
  /** The city part, by the country's locality name type. */
  cityLabels: { city: 'City', district: 'District', post_town: 'Town/City', suburb: 'Suburb' } as Record<string, string>,
  /** The region part, by the country's state name type. */
  regionLabels: {
    area: 'Area',
    county: 'County',
    department: 'Department',
    district: 'District',
    do_si: 'Province',
    emirate: 'Emirate',
    island: 'Island',
    oblast: 'Oblast',
    parish: 'Parish',
    prefecture: 'Prefecture',
    province: 'Province',
    region: 'Region',
    state: 'State',
  } as Record<string, string>,
  /** The postcode part, by the country's zip name type ('postcode' where English calls it so: GB, AU, NZ). */
  postcodeLabels: { postal: 'Postal code', zip: 'ZIP code', pin: 'PIN code', eircode: 'Eircode', postcode: 'Postcode' } as Record<
    string,
    string
  >,
} as const;

/** "ZIP code" keeps its capitals in a sentence; "Postal code" becomes "postal code". */
function lowerFirst(label: string): string {
  return /^[A-Z][a-z]/.test(label) ? label[0]!.toLowerCase() + label.slice(1) : label;
}

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
  /** Header and footer code injection runs on every page: an admin (role 1) action. */
  CODE_INJECTION_ADMIN_ONLY: 'Only an admin can change the header and footer code.',
  // Content statuses shown in labels
  STATUS_SCHEDULED: 'Scheduled',
  STATUS_NEEDS_REVIEW: 'Needs Review',
  STATUS_DRAFT: 'Draft',
  STATUS_PRIVATE: 'Private',

  // Interface validation
  ENTER_VALID_EMAIL: 'Please enter a valid email',
  emailsFormattedAs: (email: string = EXAMPLE_EMAIL) => fill(EMAILS_FORMATTED, { email }),
  /** 'Links must be formatted as {host} or {host}', e.g. linksFormattedAs('example.com', 'https://example.com'). */
  linksFormattedAs: (host1: string, host2: string) => {
    const hosts = [host1, host2];
    return LINKS_FORMATTED.replace(/\{host\}/g, () => hosts.shift() ?? '');
  },
  notValidPageUrl: (val: string) => fill(NOT_PAGE_URL, { val }),
  notExpectedOption: (val: string) => fill(NOT_EXPECTED_OPTION, { val }),
  LIST_MUST_BE_SELECTED: 'A List must be selected',
  ENTER_FILE_NAME: 'Please enter a file name',
  tagExists: (tagType: string) => fill(TAG_EXISTS, { tagType }),
  oneTagAtATime: (tagType: string) => fill(ONE_TAG_AT_A_TIME, { tagType }),
  DATASET_NO_COLUMN: 'Your dataset must have at least one column',
  DATASET_NO_ROW: 'Your dataset must have at least one row',
  DATASET_MISSING_DATA: 'One or more rows was missing data',
  /** Wording ours. */
  datasetTruncated: (maxRows: number, maxColumns: number) =>
    `Your dataset was truncated to a maximum of ${maxRows} rows or ${maxColumns} columns`,
  /** Wording ours. */
  fileTooLarge: (maxSize: string) => `File is too large. The maximum size is ${maxSize}`,
  /** Wording ours. */
  FILE_NOT_SUPPORTED: 'File is not a supported type',
  /** An upload that would take the site's stored files past its quota (UPLOAD_QUOTA_MB; issue 38). */
  storageQuotaFull: (quota: string, used: string) =>
    `This upload would pass the site’s storage quota of ${quota} (${used} used). Delete files the site no longer needs to make room, or ask whoever runs the server for a larger quota.`,
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
  /** '"name" formatter is not yet implemented' with the formatter's name in the quotes. */
  formatterNotImplemented: (name: string) => FORMATTER_NOT_IMPLEMENTED.replace('name', () => name),
  INVALID_SOURCE_PARAMETER: "Invalid source parameter. Pass in 'originalSize'",
  // The 'units-metric?' predicate reports formatterNotImplemented('units-metric?'), as the reference engine does.
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
  invalidProp: (src: string, prop: string, reason: string) => `Image with src "${src}" has invalid "${prop}" property: ${reason}`,
  missingProp: (src: string, prop: string) => `Image with src "${src}" is missing required "${prop}" property`,
  unknownLoader: (src: string, loader: string) => `Image with src "${src}" ${image.UNKNOWN_LOADER} "${loader}"`,
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

// ---------------------------------------------------------------------------------------------
// Engagement: promo popup, newsletter lists, cookie banner (Tessera's own wording)
// ---------------------------------------------------------------------------------------------

export const engagement = {
  POPUP_CLOSE: 'Close',
  POPUP_EMAIL_LABEL: 'Email Address',
  POPUP_THANKS: 'Thank you for signing up!',
  CONFIRM_SENT: 'Almost done: check your inbox and confirm your subscription.',
  EMAIL_REQUIRED: 'Email cannot be blank',
  LIST_NOT_FOUND: 'That mailing list does not exist.',
  LIST_NAME_REQUIRED: 'Name is required.',
  POPUP_OFF: 'The popup is switched off.',
  BAD_BODY: 'The request body must be a JSON object.',
  PREVIEW_NOT_FOUND: 'There is no email with that name.',
  // Newsletter unsubscribe (page type 300) and confirmation pages
  UNSUBSCRIBE_TITLE: 'Unsubscribe',
  UNSUBSCRIBE_CONFIRM: 'Stop newsletter emails from {store} to {email}?',
  UNSUBSCRIBE_BUTTON: 'Unsubscribe',
  UNSUBSCRIBED_TITLE: 'You are unsubscribed',
  UNSUBSCRIBED: '{email} will get no more newsletter emails from {store}.',
  LINK_INVALID_TITLE: 'Link not valid',
  LINK_INVALID: 'This link is not valid. Please use the link from the latest email.',
  CONFIRM_TITLE: 'Confirm your subscription',
  CONFIRM_QUESTION: 'Subscribe {email} to the {store} newsletter?',
  CONFIRM_BUTTON: 'Confirm subscription',
  CONFIRMED_TITLE: 'Subscription confirmed',
  CONFIRMED: '{email} is now subscribed to the {store} newsletter.',
  // Cookie banner
  BANNER_LABEL: 'Cookie preferences',
  BANNER_NOTICE_DEFAULT: 'This website uses cookies to keep your cart and to understand how the site is used.',
  BANNER_OPT_IN_DEFAULT:
    'We use necessary cookies to run this site. With your consent we also use analytics cookies and third-party scripts.',
  BANNER_ACCEPT: 'Accept all',
  BANNER_REJECT: 'Reject optional cookies',
  BANNER_SAVE: 'Save choices',
  BANNER_DISMISS: 'OK',
  BANNER_CHOOSE: 'Choose cookies',
  CATEGORY_NECESSARY: 'Necessary (always on)',
  CATEGORY_ANALYTICS: 'Analytics',
  CATEGORY_MARKETING: 'Third-party scripts and marketing',
} as const;

// ---------------------------------------------------------------------------------------------
// Product reviews and donations (issue #15, second half): Tessera's own wording.
// ---------------------------------------------------------------------------------------------

export const reviews = {
  TOKEN_INVALID: 'This review link is not valid. Please use the link from your email.',
  RATING_REQUIRED: 'Choose a rating from 1 to 5 stars.',
  BODY_REQUIRED: 'Please write a few words about the product.',
  BODY_TOO_LONG: 'Reviews can be up to 5000 characters.',
  TITLE_TOO_LONG: 'Titles can be up to 120 characters.',
  NAME_REQUIRED: 'Please enter your name.',
  NAME_TOO_LONG: 'Names can be up to 80 characters.',
  NOT_IN_ORDER: 'That product is not part of this order.',
  ALREADY_REVIEWED: 'You have already reviewed this product.',
  THANKS: 'Thank you! Your review will appear once it has been approved.',
  NOT_FOUND: 'That review does not exist.',
  PAGE_TITLE: 'Review your purchase',
  TAB: 'Reviews',
  NONE_YET: 'No reviews yet.',
  /** '4.5 out of 5 stars' */
  outOf5: (average: string) => `${average} out of 5 stars`,
  /** 'One review' / '3 reviews' */
  count: (n: number) => (n === 1 ? '1 review' : `${n} reviews`),
  /** The label of one rating choice: '1 star', '4 stars'. */
  stars: (n: number) => (n === 1 ? '1 star' : `${n} stars`),
} as const;

export const relatedProducts = {
  HEADING: 'You may also like',
  CHOOSE_OPTIONS: 'Choose options',
  UNKNOWN_PRODUCT: 'One of those products does not exist.',
  SELF: 'A product cannot be related to itself.',
} as const;

export const donations = {
  PAGE_TITLE: 'Donate',
  CONFIRMED_TITLE: 'Thank you for your contribution',
  AMOUNT_REQUIRED: 'Choose or enter an amount.',
  AMOUNT_INVALID: 'Enter an amount as a number, like 25 or 25.50.',
  /** 'The smallest donation is $1.00.' */
  tooSmall: (min: string) => `The smallest donation is ${min}.`,
  tooLarge: (max: string) => `The largest donation is ${max}.`,
  NAME_REQUIRED: 'Please enter your name.',
  NAME_TOO_LONG: 'Names can be up to 120 characters.',
  MESSAGE_TOO_LONG: 'Messages can be up to 1000 characters.',
  CLOSED: 'Donations are not open on this site.',
  NOT_FOUND: 'That contribution does not exist.',
  KEY_INVALID: 'The form has expired. Please reload the page and try again.',
  CUSTOM_AMOUNT: 'Other amount',
} as const;

// ---------------------------------------------------------------------------------------------
// Page editor (issue #13): layout limits, saves, uploads. These are the sentences Tessera shows
// when a layout limit is reached and for each upload outcome.
// ---------------------------------------------------------------------------------------------

export const pageEditor = {
  STATUS_PUBLISHED: 'Published',
  /** Raw code runs on the site's origin: only an admin (role 1) may add or change it (issue 21). */
  /** A journal post's body written as HTML (raw HTML mode) is an admin's; other staff write it in blocks (issue 27). */
  RAW_HTML_ADMIN_ONLY: 'Only an admin can write a post body as HTML. Write the post in the visual editor, or ask an admin.',
  POST_NOT_FOUND: 'No such post.',
  RAW_CODE_ADMIN_ONLY:
    'Only an admin can add or change a code block used as raw HTML. Untick "Use as raw HTML on the site" to show the code as text, or ask an admin.',
  /** At most 60 blocks per layout. */
  blockLimit: (max: number) => `A page can have at most ${max} blocks. Delete a block to add another.`,
  sectionLimit: (max: number) => `A page can have at most ${max} sections.`,
  /** The photo-gallery limits (20 galleries, 50 images per gallery), applied to gallery blocks; wording ours. */
  galleryLimit: (max: number) => `A page can have at most ${max} galleries. Delete a gallery to add another.`,
  galleryImageLimit: (max: number) => `A gallery can have at most ${max} images.`,
  SECTION_NOT_FOUND: 'That section is no longer on the page.',
  BLOCK_NOT_FOUND: 'That block is no longer on the page.',
  NOT_A_LAYOUT: 'The page layout is not valid.',
  /** Creating a page into a navigation folder that is no longer there (issue 27). */
  NO_SUCH_NAV_FOLDER: 'That folder is no longer in the main navigation. Choose another place.',
  REQUIRED: 'Required',
  mustBeText: (field: string) => `${field} must be text`,
  mustBeObject: (field: string) => `${field} must be an object`,
  mustBeList: (field: string) => `${field} must be a list`,
  tooLong: (max: number) => `At most ${max} characters`,
  listTooLong: (max: number) => `At most ${max} items`,
  listTooShort: (min: number) => `At least ${min} item${min === 1 ? '' : 's'}`,
  numberBetween: (min: number, max: number) => `Enter a whole number from ${min} to ${max}`,
  outsideGrid: (columns: number) => `The block must fit in the ${columns} columns of the grid`,
  /** A save with a version older than the stored one (two owners editing one page). */
  STALE_VERSION:
    'This page was changed by someone else after you opened it. Your changes were not saved: reload the page to see the latest version.',
  STYLES_STALE_VERSION:
    'The site styles were changed by someone else after you opened them. Your changes were not saved: reload to see the latest styles.',
  PAGE_NOT_FOUND: 'Page not found',
  NOTHING_TO_PUBLISH: 'There is no draft to publish.',
  SCHEDULE_IN_PAST: 'Choose a time in the future to schedule publishing.',
  PLACEHOLDER: (name: string) => `${name} block: shown only in the editor`,
  UPLOAD_NOT_FOUND: 'File not found',
} as const;

export const donationPayments = {
  AUTHENTICATION_UNSUPPORTED: 'This card needs an extra authentication step, which donations do not support yet. Please use another card.',
  ATTEMPT_CLOSED: 'This donation attempt was already closed, and any payment for it was given back. Please try again.',
} as const;

// ---------------------------------------------------------------------------------------------
// Members (issue #14): the lock screen, page passwords, member areas and video courses (page
// types 103, 105, 106, 208) and the join button; Tessera's own wording.
// ---------------------------------------------------------------------------------------------

export const members = {
  LOCK_TITLE: 'This site is private',
  LOCK_TEXT: 'Enter the password to view this site.',
  PROTECTED_TEXT: 'This page is protected. Enter the password to view it.',
  PASSWORD_LABEL: 'Password',
  UNLOCK_BUTTON: 'Enter',
  WRONG_PASSWORD: 'That password is not right. Please try again.',
  PASSWORD_REQUIRED: 'Enter the password.',
  TOO_MANY_PASSWORDS: 'Too many password attempts. Please try again in a few minutes.',
  DENIED_TEXT: 'This page is for members. Join to see it, or sign in if you already have an account.',
  JOIN_BUTTON: 'Join',
  SIGN_IN_BUTTON: 'Sign in',
  joinArea: (name: string) => `Join ${name}`,
  FREE: 'Free',
  /** The one answer to a join without an account, whether or not the address has one (no enumeration). */
  JOIN_CHECK_EMAIL: 'Check your email: we sent you a link to finish joining.',
  TOO_MANY_JOINS_FOR_EMAIL: 'Too many attempts to join with this email. Please try again later.',
  TOO_MANY_JOINS: 'Too many attempts to join. Please try again in a few minutes.',
  CONFIRMED_TITLE: 'Membership confirmed',
  confirmedText: (name: string) => `Welcome to ${name}. You can now see everything in it.`,
  NOT_A_MEMBER: 'Your membership is not active yet.',
  AREA_NOT_FOUND: 'That member area does not exist.',
  AREA_EXISTS: 'A member area with that id already exists.',
  UNKNOWN_COLLECTION: 'One of the chosen pages or collections does not exist.',
  NAME_REQUIRED: 'Give the member area a name.',
  PRICE_REQUIRED: 'A paid member area needs a price above zero.',
  PASSWORD_TOO_SHORT: 'Use at least 4 characters for the password.',
  LESSON_NOT_FOUND: 'That lesson does not exist.',
  MEMBERS_ONLY: 'Only members can do that.',
  FILE_TOO_LARGE: 'That file is too large.',
  FILE_TYPE: 'Upload a video, an image, audio or a PDF.',
  VIDEO_SOURCE: 'Give the lesson an uploaded video or an embed URL (https).',
  lessonsDone: (done: number, total: number) => `${done} of ${total} lessons complete`,
  MARK_COMPLETE: 'Mark lesson complete',
  COMPLETED: 'Completed',
  STARTED: 'Started',
  NEXT_LESSON: 'Next lesson',
  watchOn: (host: string) => `Watch on ${host}`,
} as const;

/** Feature switches (server/flags). */
export const featureFlags = {
  GIFT_CARDS_OFF: 'Gift cards are not sold at the moment. Remove the gift card from your cart to check out.',
} as const;

// ---------------------------------------------------------------------------------------------
// Content limits (issue #13): tag length 50, category length 25, 200 products in a collection,
// 250 items in a user-orderable collection, 60 album tracks; these are the sentences Tessera shows when one is reached.
// ---------------------------------------------------------------------------------------------

export const contentLimits = {
  tagTooLong: (max: number) => `Tags can be up to ${max} characters.`,
  categoryTooLong: (max: number) => `Categories can be up to ${max} characters.`,
  productsLimit: (max: number) => `A store can hold at most ${max} products. Delete a product to add another.`,
  itemsLimit: (max: number) => `A collection can hold at most ${max} items. Delete an item to add another.`,
  albumTrackLimit: (max: number) => `An album can have at most ${max} tracks.`,
} as const;

// ---------------------------------------------------------------------------------------------
// Site search (/search)
// ---------------------------------------------------------------------------------------------

export const search = {
  TOO_MANY_SEARCHES: 'Too many searches. Please wait a minute and try again.',
} as const;

// ---------------------------------------------------------------------------------------------
// Crawlers (issue #26): URL mappings and robots.txt. The documented platform names the URL-mappings
// format (`/old -> /new 301`) but no wording for its errors; these are Tessera's, given per line.
// ---------------------------------------------------------------------------------------------

export const seo = {
  RULE_FORMAT: 'Write each redirect as /old-path -> /new-path 301 (or 302).',
  RULE_SOURCE: 'The old path must start with a single /.',
  RULE_TARGET: 'The new path must start with a single / or be a full http:// or https:// address.',
  RULE_WILDCARD: 'A * may only end the old path.',
  RULE_TARGET_WILDCARD: 'The new path may hold one *, and only when the old path ends with *.',
  RULE_CODE: 'The redirect type must be 301 (permanent) or 302 (temporary).',
  RULE_LOOP: 'The new path is the same as the old path.',
  ruleChainLoop: (paths: string[]) => `This redirect would loop: ${paths.join(' → ')}.`,
  ruleDuplicate: (from: string) => `${from} already has a redirect above.`,
  ruleTooLong: (max: number) => `Paths can be up to ${max} characters.`,
  tooManyRules: (max: number) => `At most ${max} redirects.`,
  rulesInvalid: (n: number) => (n === 1 ? 'One line is not a valid redirect.' : `${n} lines are not valid redirects.`),
  robotsTooLong: (max: number) => `robots.txt can be up to ${max} characters.`,
} as const;

// ---------------------------------------------------------------------------------------------
// Security hardening (issue 21): the wording of these refusals is Tessera's own.
// ---------------------------------------------------------------------------------------------

export const security = {
  /** A path with an encoded slash, backslash or percent sign, or a `.`/`..` segment. */
  BAD_PATH: 'The address is not valid.',
  /** A lone UTF-16 surrogate in a JSON body or a query. */
  INVALID_UNICODE: 'The request contains text that is not valid Unicode.',
  // A quantity that is not a plain whole number gets commerce.QUANTITY_NOT_A_NUMBER / QUANTITY_NOT_WHOLE.
  /** Owner sign-in: too many failed attempts for this address or account. */
  TOO_MANY_SIGN_INS: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  /** The lock notice emailed to an owner account after repeated failed sign-ins. */
  LOCK_NOTICE_SUBJECT: 'Sign-in attempts on your Tessera account',
  lockNoticeText: (link: string, minutes: number) =>
    `There were several failed attempts to sign in to your account. Tessera now refuses the addresses they came from for a while, and may slow sign-in from other addresses. If this was not you, nothing else is needed: your password was not accepted.\n\nTo sign in now, follow this link. It works once, for ${minutes} minutes:\n\n${link}\n`,
} as const;

/** Owner sign-in recovery (issue 41): the first sign-in's setup screen and the forgotten-password pages. */
export const ownerAccount = {
  SETUP_HEADING: 'Set your email and password',
  SETUP_INTRO:
    'This is your first sign-in. Choose the email and the password you will sign in with from now on; the one-time link will not work again.',
  SETUP_EMAIL_HINT: 'Password reset links are sent here.',
  SETUP_DONE: 'Your email and password are set already. Change them from your account.',
  PASSWORD_HINT: 'At least 8 characters.',
  PASSWORD_SHORT: 'Use at least 8 characters for the password.',
  PASSWORD_LONG: 'Use at most 1024 characters for the password.',
  PASSWORD_MISMATCH: 'The two passwords do not match.',
  EMAIL_INVALID: 'Enter a valid email address, like name@example.com.',
  EMAIL_TAKEN: 'Another team member signs in with that email. Use a different one.',
  FIX_ONE: 'One field needs your attention.',
  fixMany: (n: number) => `${n} fields need your attention.`,
  FORGOT_HEADING: 'Reset your password',
  FORGOT_INTRO: 'Enter the email you sign in with. We will email you a link to choose a new password.',
  RESET_SENT:
    'If an account signs in with that email, a link to reset its password is on its way. Check your inbox (and its spam folder). The link works once, for 60 minutes.',
  TOO_MANY_RESETS: 'Too many tries. Wait a few minutes and try again.',
  RESET_HEADING: 'Choose a new password',
  resetIntro: (email: string) => `Choose a new password for ${email}. Every device signed in to this account will be signed out.`,
  RESET_EXPIRED: 'This reset link has expired or was already used. Ask for a new one.',
  resetSubject: (site: string) => `Reset your password for ${site}`,
  resetText: (link: string, minutes: number) =>
    `Someone asked to reset the password of your Tessera account.\n\nChoose a new password here (the link works once, for ${minutes} minutes):\n${link}\n\nIf it was not you, ignore this email: your password stays as it is.\n`,
  RESET_HTML_INTRO: 'Someone asked to reset the password of your Tessera account.',
  resetHtmlNote: (minutes: number) =>
    `The link works once, for ${minutes} minutes. If it was not you, ignore this email: your password stays as it is.`,
} as const;

// ---------------------------------------------------------------------------------------------
// Checkout: placing an order, paying, gift cards and coupons
// ---------------------------------------------------------------------------------------------

export const checkoutMessages = {
  PAYMENT_NOT_COMPLETED: 'Your payment was not completed and you were not charged. Please try again or choose another payment method.',
  PAYMENT_PROCESSING:
    'Your payment is still being processed. We will email your order confirmation as soon as it completes, so please do not pay again.',
  EMPTY_CART: 'Your cart is empty.',
  NO_CART: 'There is no shopping cart.',
  ALREADY_PURCHASED: 'This cart has already been purchased.',
  KEY_REQUIRED: 'An Idempotency-Key header (or idempotencyKey field) of 8 to 128 letters, digits, - or _ is required.',
  KEY_REUSED: 'That Idempotency-Key was already used for another order.',
  NO_SHIPPING: 'We do not ship to that address. Please choose another address.',
  UNAVAILABLE: 'This product is no longer available.',
  PAYMENT_REQUIRED: 'Please enter your card details.',
  GIFT_CARD_UNKNOWN: 'That gift card code is not valid.',
  GIFT_CARD_EMPTY: 'That gift card has no balance left.',
  GIFT_CARD_CHANGED: 'The gift card balance changed. Please review your order and try again.',
  COUPON_USED_UP: 'This coupon has reached its usage limit.',
  TOTAL_CHANGED: 'The order total changed. Please review your order and try again.',
  /** Place-order without the total the shopper was shown (issue 38): nothing is charged unconfirmed. */
  CONFIRM_TOTAL:
    'The order total was not confirmed: send expectedTotalCents, the grand total in minor units that the shopper was shown (the last quote’s grandTotalCents).',
  /** Place-order with a confirmed total the server no longer agrees with (prices, sale, coupons changed). */
  totalChanged: (now: string, confirmed: string) =>
    `The order total is now ${now}, not ${confirmed}. Please review your order and confirm the new total.`,
  ATTEMPT_CLOSED: 'This payment attempt was already closed. Please review your order and try again.',
  NOTHING_DUE: 'Nothing is left to pay on this order: place it from the checkout page.',
  PROVIDER_UNREACHABLE: 'We could not reach the payment processor. Please try again in a moment: you will not be charged twice.',
  NOT_SUBSCRIBABLE: 'This product is not sold by subscription.',
  CANCEL_UNREACHABLE: 'We could not reach the payment processor, so the subscription is still active. Please try again in a moment.',
} as const;

/** The owner's customer records (/config/customers). */
export const customerMessages = {
  PHONE_INVALID: 'Phone: use digits, spaces and + ( ) - . only.',
  TOO_MANY_TAGS: 'Tags: at most 20.',
  NO_SUCH_CUSTOMER: 'No customer has that address.',
  SAVED: 'Customer saved.',
} as const;
