/**
 * Cart rules: pill text and spoken label, visibility, entry merging and totals recomputed from entries.
 * All amounts are integer minor units (cents) as numbers.
 */
import { ADDITIONAL_FIELD_ANSWER_MAX, ADDITIONAL_FIELDS_MAX_CHARS, CART_COUNT_CAP, CART_LINES_MAX, QUANTITY_MAX } from './constants';
import { ProductType } from './enums';
import { cart as cartMessages, forms as formMessages } from './messages';
import { validateForm, type FormField } from './forms';
import type { Money } from './product';
import { currencyDecimals, DEFAULT_CURRENCY, isSupportedCurrency, MAX_INTEGER_PLACES, toBigIntMinor } from './money';

export { QUANTITY_MAX as CART_QUANTITY_MAX, CART_COUNT_CAP, CART_LINES_MAX };

export interface ChosenVariant {
  sku: string;
  attributes: Record<string, string>;
}

export interface CartEntry {
  id: string;
  itemId: string;
  chosenVariant: ChosenVariant;
  quantity: number;
  title: string;
  /** Line total (purchasePriceCents x quantity) with the cart's currency. */
  subTotal?: Money;
  /** Unit price paid, in minor units. */
  purchasePriceCents: number;
  /** The product type of the item, when known (drives the digital and shipping flags). */
  productType?: ProductType;
  /** JSON text of the additional-fields form answers, if any. */
  additionalFields?: string | null;
}

export interface CartTotals {
  subtotalCents: number;
  taxCents: number;
  shippingCostCents: number;
  discountCents: number;
  grandTotalCents: number;
  totalQuantity: number;
  hasDigital: boolean;
  purelyDigital: boolean;
  requiresShipping: boolean;
}

export interface ShoppingCart extends CartTotals {
  id: string;
  websiteId: string;
  orderId?: string | null;
  created: number;
  isPurchased: boolean;
  entries: CartEntry[];
  shippingOptions?: unknown[];
  selectedShippingOption?: unknown;
  shippingLocation?: unknown;
  applicableTaxRules?: unknown[];
  coupons?: unknown[];
  validCoupons?: unknown[];
  invalidCoupons?: unknown[];
}

// ---- Pill -----------------------------------------------------------------------------------

/** The pill number: the quantity, or '100+' above 100. Negative or non-finite counts show 0. */
export function cartPillText(totalQuantity: number): string {
  const n = normalizeCount(totalQuantity);
  return n > CART_COUNT_CAP ? cartMessages.PILL_OVERFLOW : String(n);
}

/** The pill's spoken label: 'One item in cart', '{n} items in cart' or 'More than 100 items in cart'. */
export function cartSpokenLabel(totalQuantity: number): string {
  const n = normalizeCount(totalQuantity);
  if (n === 1) return cartMessages.ONE_ITEM_IN_CART;
  if (n > CART_COUNT_CAP) return cartMessages.MORE_THAN_100_ITEMS;
  return cartMessages.itemsInCart(n);
}

/** The pill is shown only when the cart holds something. */
export function cartPillVisible(totalQuantity: number): boolean {
  return normalizeCount(totalQuantity) > 0;
}

function normalizeCount(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

// ---- Entries --------------------------------------------------------------------------------

const DIGITAL_DELIVERY: ReadonlySet<number> = new Set([ProductType.DIGITAL, ProductType.GIFT_CARD]);

/** Line total of an entry in minor units. */
export function entrySubtotalCents(entry: Pick<CartEntry, 'purchasePriceCents' | 'quantity'>): number {
  return entry.purchasePriceCents * entry.quantity;
}

/** A cart line as the merge and stock rules see it: the server's lines carry the sku, entries their variant. */
type CartLineLike = { itemId: string; additionalFields?: string | null } & ({ sku: string } | { chosenVariant: { sku: string } });

const skuOf = (l: CartLineLike): string => ('sku' in l ? l.sku : l.chosenVariant.sku);

/** Whether a line is of the given variant (same item and sku, whatever the answers): such lines share its stock. */
export function isSameVariant(line: CartLineLike, variant: { itemId: string; sku: string }): boolean {
  return line.itemId === variant.itemId && skuOf(line) === variant.sku;
}

/** How many of a variant the lines hold, leaving out one line (the one being changed) if given. */
export function variantQuantity<L extends CartLineLike & { quantity: number }>(
  lines: readonly L[],
  variant: { itemId: string; sku: string },
  except?: L,
): number {
  return lines.reduce((sum, l) => (l !== except && isSameVariant(l, variant) ? sum + l.quantity : sum), 0);
}

/**
 * The entry an add request merges into: same item, same sku and equal additional-fields answers
 * (else the add makes a new entry). No answers on both sides counts as equal; answers are compared as JSON values.
 */
export function findMergeableEntry<L extends CartLineLike>(
  entries: readonly L[],
  add: { itemId: string; sku: string; additionalFields?: string | null },
): L | undefined {
  return entries.find((e) => isSameVariant(e, add) && sameAdditionalFields(e.additionalFields, add.additionalFields));
}

/**
 * Whether two additional-fields answers are equal: nothing, '', 'null', '{}' and '[]' all mean no answers;
 * JSON texts are equal when they hold the same value (object key order does not matter); text that is
 * not JSON is compared as it is.
 */
export function sameAdditionalFields(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a === b) return true;
  return canonicalAnswers(a) === canonicalAnswers(b);
}

function canonicalAnswers(fields: string | null | undefined): string {
  if (!hasAnswers(fields)) return '';
  const t = (fields as string).trim();
  try {
    return JSON.stringify(sortKeys(JSON.parse(t)));
  } catch {
    return t;
  }
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(o).sort()) out[k] = sortKeys(o[k]);
    return out;
  }
  return v;
}

function hasAnswers(fields: string | null | undefined): boolean {
  if (fields === undefined || fields === null) return false;
  const t = fields.trim();
  return t !== '' && t !== '{}' && t !== '[]' && t !== 'null';
}

// ---- Additional-fields answers ----------------------------------------------------------------

const CHOICE_TYPES: ReadonlySet<string> = new Set(['select', 'radio', 'checkbox']);
/** The most parts an answer has (address and name parts, checkbox choices, likert statements). */
const ANSWER_PARTS_MAX = 50;

/**
 * Every problem of a cart line's additional-fields answers against the product's form, by field id
 * (empty when they may be stored): the form's own rules (required, email, maximum length; core/forms.ts),
 * then answers only to the form's questions, text or lists or maps of text of bounded size, select, radio
 * and checkbox answers among the field's options, and the whole answers under ADDITIONAL_FIELDS_MAX_CHARS.
 * `text` is the answers as JSON text (canonical, as the cart stores it).
 */
export function additionalFieldsErrors(
  fields: readonly FormField[],
  values: Readonly<Record<string, unknown>>,
  text: string,
): Record<string, string> {
  if (text.length > ADDITIONAL_FIELDS_MAX_CHARS) return { additionalFields: cartMessages.ANSWERS_TOO_LONG };
  const byId = new Map(fields.filter((f) => f.type !== 'section').map((f) => [f.id, f]));
  const errors: Record<string, string> = {};
  for (const id of Object.keys(values)) if (!byId.has(id)) errors[id] = cartMessages.UNKNOWN_QUESTION;
  for (const [id, f] of byId) {
    const v = values[id];
    if (v === undefined || v === null) continue;
    const max =
      typeof f.maxLength === 'number' && f.maxLength >= 0
        ? Math.min(f.maxLength, ADDITIONAL_FIELD_ANSWER_MAX)
        : ADDITIONAL_FIELD_ANSWER_MAX;
    const parts = answerParts(v);
    if (!parts) errors[id] = cartMessages.INVALID_ANSWER;
    else if (parts.some((p) => p.length > max)) errors[id] = formMessages.CHARACTER_LIMIT;
    else if (CHOICE_TYPES.has(f.type) && parts.some((p) => p.trim() !== '' && !(f.options ?? []).includes(p)))
      errors[id] = cartMessages.NOT_AN_OPTION;
  }
  return { ...validateForm(fields, values), ...errors };
}

/** The text parts of an answer (text, a list of text, or a map of text or lists of text), or null for any other shape. */
function answerParts(v: unknown): string[] | null {
  if (typeof v === 'string') return [v];
  const out: string[] = [];
  const add = (x: unknown): boolean => {
    if (typeof x === 'string') return out.push(x) <= ANSWER_PARTS_MAX;
    if (Array.isArray(x)) return x.length <= ANSWER_PARTS_MAX && x.every((y) => typeof y === 'string' && out.push(y) <= ANSWER_PARTS_MAX);
    return false;
  };
  if (Array.isArray(v)) return add(v) ? out : null;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length > ANSWER_PARTS_MAX) return null;
    return entries.every(([, x]) => add(x)) ? out : null;
  }
  return null;
}

/** Quantity of one variant already in the cart, across entries. */
export function quantityInCart(entries: readonly CartEntry[], itemId: string, sku?: string): number {
  return entries
    .filter((e) => e.itemId === itemId && (sku === undefined || e.chosenVariant.sku === sku))
    .reduce((s, e) => s + e.quantity, 0);
}

// ---- Totals ---------------------------------------------------------------------------------

export interface CartAdjustments {
  taxCents?: number;
  shippingCostCents?: number;
  discountCents?: number;
}

const SAFE_MINOR = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The largest amount a cart may hold in a currency, in minor units: what can be shown (15 integer places:
 * ¥999,999,999,999,999 in yen) and what stays a safe integer, so it is exact
 * everywhere (2^53 - 1 cents in the two-decimal currencies). An unsupported code counts as the default.
 */
export function cartAmountMaxMinor(currency: string): bigint {
  const decimals = currencyDecimals(isSupportedCurrency(currency) ? currency : DEFAULT_CURRENCY);
  const shown = 10n ** BigInt(MAX_INTEGER_PLACES + decimals) - 1n;
  return shown < SAFE_MINOR ? shown : SAFE_MINOR;
}

/** Whether a stored cart amount (minor units, a number or an integer string) is past what its currency's cart may hold. */
export function cartAmountTooLarge(minorUnits: number | string | bigint, currency: string): boolean {
  if (typeof minorUnits === 'number' && Number.isFinite(minorUnits) && minorUnits > Number.MAX_SAFE_INTEGER) return true;
  let v: bigint;
  try {
    v = toBigIntMinor(minorUnits);
  } catch {
    return false;
  }
  return v > cartAmountMaxMinor(currency);
}

/** The exact subtotal of entries in minor units (bigint: never rounded, however large). */
export function exactSubtotalMinor(entries: ReadonlyArray<Pick<CartEntry, 'purchasePriceCents' | 'quantity'>>): bigint {
  let sum = 0n;
  const whole = (n: number) => BigInt(Number.isFinite(n) ? Math.trunc(n) : 0);
  for (const e of entries) sum += whole(e.purchasePriceCents) * whole(e.quantity);
  return sum;
}

/**
 * Recomputes the totals from the entries: subtotal and quantity are sums over entries; the
 * digital flags come from the entries' product types (digital and gift cards are delivered
 * digitally; physical products require shipping); grand total = subtotal - discount + shipping + tax,
 * never negative. An empty cart is not purely digital.
 */
export function computeCartTotals(entries: readonly CartEntry[], adj: CartAdjustments = {}): CartTotals {
  let subtotalCents = 0;
  let totalQuantity = 0;
  let digital = 0;
  let requiresShipping = false;
  for (const e of entries) {
    subtotalCents += entrySubtotalCents(e);
    totalQuantity += e.quantity;
    if (e.productType !== undefined && DIGITAL_DELIVERY.has(e.productType)) digital++;
    if (e.productType === ProductType.PHYSICAL) requiresShipping = true;
  }
  const taxCents = adj.taxCents ?? 0;
  const shippingCostCents = adj.shippingCostCents ?? 0;
  const discountCents = adj.discountCents ?? 0;
  const grandTotalCents = Math.max(0, subtotalCents - discountCents + shippingCostCents + taxCents);
  return {
    subtotalCents,
    taxCents,
    shippingCostCents,
    discountCents,
    grandTotalCents,
    totalQuantity,
    hasDigital: digital > 0,
    purelyDigital: entries.length > 0 && digital === entries.length,
    requiresShipping,
  };
}

/** A cart's shipping, tax and coupon fields before checkout works them out: all empty. */
export function unpricedCartFields() {
  return {
    shippingOptions: [] as unknown[],
    selectedShippingOption: null,
    shippingLocation: null,
    applicableTaxRules: [] as unknown[],
    coupons: [] as unknown[],
    validCoupons: [] as unknown[],
    invalidCoupons: [] as unknown[],
  };
}

/** A new empty cart with every number at 0 and every flag false. */
export function emptyCart(id: string, websiteId: string, created: number): ShoppingCart {
  return {
    id,
    websiteId,
    orderId: null,
    created,
    isPurchased: false,
    entries: [],
    ...unpricedCartFields(),
    ...computeCartTotals([]),
  };
}
