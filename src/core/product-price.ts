/**
 * What a product's price shows, decided once for the template formatters
 * (`product-price`, `subscription-price`) and the product page's price island,
 * so they agree. Pure: no CLDR, no I/O; callers pass how to format a money
 * value and how to fill a message, and the markup is built here.
 *
 * The rules are the platform's:
 * - Varied prices (physical, service and gift-card products whose variants
 *   differ in price, sale price or sale flag) show "from" the lowest price a
 *   buyer pays (a variant's sale price when it is on sale).
 * - Otherwise a product on sale (any variant on sale; a digital product's own
 *   flag) shows the lowest sale price beside the normal price, each after a
 *   visually-hidden 'Sale Price:' / 'Original Price:' label.
 * - Otherwise the normal price: the highest variant price (digital products
 *   carry theirs on structuredContent; a product without a type shows 0). A
 *   product type code that names no type shows an empty price block, as the
 *   reference renders it.
 * - A subscription's text says how often it bills and, for a finite number of
 *   billing cycles, for how long ("{price} every 2 weeks for 8 weeks"); a
 *   period or duration in weeks or months that makes whole years is said in
 *   years (52 weeks or 12 months a year) unless asked not to. The rule is
 *   core/subscription.ts's (subscriptionTerms), the checkout's own. A site can word each
 *   case through localizedStrings (productPrice__singlePrice__nWeekly__limited__nWeeks
 *   and so on). A plan no wording fits (no or an unknown period unit, a
 *   period that is not a positive whole number, negative or fractional
 *   cycles) shows 'Unavailable' (or the site's productPriceUnavailable text).
 * Money stays as given: minor units ("1999") or decimals ("19.99").
 */
import { subscriptionTerms } from './subscription.js';

export const PRODUCT_TYPE = { PHYSICAL: 1, DIGITAL: 2, SERVICE: 3, GIFT_CARD: 4 } as const;

/** A money value as the views carry it: decimals ("19.99") or minor units ("1999"). */
export interface MoneyValue {
  value: string | number;
  currency?: string;
}

/** A subscription plan's billing, ready for wording. */
export interface Billing {
  /** Billing period value and unit ('WEEK', 'MONTH', ...). */
  value: number;
  unit: string;
  /** value x cycles (0: open-ended), in durationUnit (YEAR when it makes whole years). */
  duration: number;
  durationUnit: string;
  /** The localizedStrings key that words this case. */
  key: string;
  /** The English wording with {price}, {billingPeriodValue} and {duration} placeholders. */
  text: string;
}

export interface PriceView {
  /** 'none': a product of no known type, whose price block is empty (as the reference renders it). */
  kind: 'from' | 'sale' | 'normal' | 'unavailable' | 'none';
  /** The lowest price paid ('from'). */
  from?: MoneyValue;
  /** The lowest sale price ('sale'). */
  sale?: MoneyValue;
  /** The normal price (every kind but 'unavailable'). */
  normal: MoneyValue;
  /** A subscription's billing; null for a one-time purchase. */
  billing: Billing | null;
}

const ZERO: MoneyValue = Object.freeze({ value: '0', currency: 'USD' });

type Obj = Record<string, unknown>;
const obj = (x: unknown): Obj | undefined => (x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Obj) : undefined);
const truthy = (x: unknown): boolean =>
  x !== undefined && x !== null && x !== false && x !== 0 && x !== '' && !(typeof x === 'number' && isNaN(x));

/** The price a view shows first: the lowest price paid ('from'), the sale price ('sale'), else the normal price. */
export function shownPrice(view: PriceView): MoneyValue {
  return (view.kind === 'from' ? view.from : view.kind === 'sale' ? view.sale : undefined) ?? view.normal;
}

/**
 * A money value's amount in exact minor units (a bigint, so 15 integer places stay exact), or null when it is not
 * a plain decimal. A whole number is already in minor units (as the storefront's money values are); a decimal
 * string is read as major units with `decimals` minor-unit digits. The pattern is anchored and bounded (no
 * backtracking), and the length is checked first.
 */
export function minorUnitsOf(m: unknown, decimals = 2): bigint | null {
  const v = obj(m)?.value;
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : typeof v === 'string' ? v.trim() : '';
  if (s.length > 42) return null;
  const r = /^([+-]?)(\d{1,20})(?:\.(\d{0,20}))?$/.exec(s);
  if (r === null) return null;
  if (r[3] === undefined) return BigInt(r[1] + r[2]);
  const frac = (r[3] + '0'.repeat(decimals)).slice(0, decimals);
  return BigInt(r[1] + r[2] + frac);
}

/** The amount of a money value as a comparable number (0 when missing or not a number). */
export function amountOf(m: unknown): number {
  const v = obj(m)?.value;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v.trim() || 'x') : NaN;
  return Number.isFinite(n) ? n : 0;
}

const asMoney = (m: unknown): MoneyValue => {
  const o = obj(m);
  return o !== undefined && (typeof o.value === 'string' || typeof o.value === 'number') ? (o as unknown as MoneyValue) : ZERO;
};

const variantsOf = (content: Obj): Obj[] => (Array.isArray(content.variants) ? content.variants.map((v) => obj(v) ?? {}) : []);

/** The price a buyer pays for a variant: its sale price when on sale. */
const paidMoney = (v: Obj): unknown => (truthy(v.onSale) ? v.salePriceMoney : v.priceMoney);

/** Legacy price fields, or the money values' amounts when a view has none. */
const legacy = (v: Obj, field: 'price' | 'salePrice'): unknown =>
  v[field] !== undefined ? v[field] : amountOf(field === 'price' ? v.priceMoney : v.salePriceMoney);
const same = (a: unknown, b: unknown): boolean =>
  a === b || (a !== null && b !== null && typeof a !== 'object' && typeof b !== 'object' && String(a) === String(b));

/** Variants differ in price, in sale flag, or (when on sale) in sale price. */
export function hasVariedPrices(content: Obj): boolean {
  const type = Number(content.productType);
  if (type !== PRODUCT_TYPE.PHYSICAL && type !== PRODUCT_TYPE.SERVICE && type !== PRODUCT_TYPE.GIFT_CARD) return false;
  const vs = variantsOf(content);
  if (vs.length === 0) return false;
  const first = vs[0];
  for (let i = 1; i < vs.length; i++) {
    const v = vs[i];
    if (truthy(v.onSale) !== truthy(first.onSale)) return true;
    if (truthy(first.onSale) && !same(legacy(v, 'salePrice'), legacy(first, 'salePrice'))) return true;
    if (!same(legacy(v, 'price'), legacy(first, 'price'))) return true;
  }
  return false;
}

/** The lowest price paid among the variants (the first of equal ones). */
function fromPrice(content: Obj): MoneyValue {
  const vs = variantsOf(content);
  if (vs.length === 0) return ZERO;
  let best = paidMoney(vs[0]);
  for (let i = 1; i < vs.length; i++) {
    const m = paidMoney(vs[i]);
    if (amountOf(m) < amountOf(best)) best = m;
  }
  return asMoney(best);
}

/** The normal price: the highest variant price; a digital product's own price. */
function normalPrice(content: Obj): MoneyValue {
  const type = Number(content.productType);
  if (type === PRODUCT_TYPE.DIGITAL) return asMoney(content.priceMoney);
  if (type !== PRODUCT_TYPE.PHYSICAL && type !== PRODUCT_TYPE.SERVICE && type !== PRODUCT_TYPE.GIFT_CARD) return ZERO;
  const vs = variantsOf(content);
  if (vs.length === 0) return ZERO;
  let best = vs[0].priceMoney;
  for (let i = 1; i < vs.length; i++) if (amountOf(vs[i].priceMoney) > amountOf(best)) best = vs[i].priceMoney;
  return asMoney(best);
}

/** Any variant on sale (a digital product's own flag; gift cards never). */
export function isOnSale(content: Obj): boolean {
  const type = Number(content.productType);
  if (type === PRODUCT_TYPE.DIGITAL) return truthy(content.onSale);
  if (type !== PRODUCT_TYPE.PHYSICAL && type !== PRODUCT_TYPE.SERVICE) return false;
  return variantsOf(content).some((v) => truthy(v.onSale));
}

/** The lowest sale price among the variants on sale; a digital product's own. */
function salePrice(content: Obj): MoneyValue {
  const type = Number(content.productType);
  if (type === PRODUCT_TYPE.DIGITAL) return asMoney(content.salePriceMoney);
  let best: unknown;
  for (const v of variantsOf(content)) {
    if (truthy(v.onSale) && (best === undefined || amountOf(v.salePriceMoney) < amountOf(best))) best = v.salePriceMoney;
  }
  return asMoney(best);
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();

/**
 * The billing of a subscription plan, by core/subscription.ts's one rule (subscriptionTerms); null where no
 * wording fits (no or an unknown period unit, a value that is not a positive whole number, negative or
 * fractional cycles), which the price shows as 'Unavailable'.
 */
export function billingOf(plan: unknown, varied: boolean, opts: { inYears?: boolean } = {}): Billing | null {
  const t = subscriptionTerms(plan, opts);
  if (t === null) return null;
  const { value, unit } = t.period;
  const duration = t.duration.value;
  const durationUnit = t.duration.unit;
  let key = `productPrice__${varied ? 'multiplePrices' : 'singlePrice'}__${value === 1 ? '1' : 'n'}${capitalized(unit)}ly__`;
  key += t.cycles === 0 ? 'indefinite' : `limited__${duration === 1 ? '1' : 'n'}${capitalized(durationUnit)}s`;
  const plural = value > 1;
  let text =
    (varied ? 'from ' : '') + '{price} every ' + (plural ? '{billingPeriodValue} ' : '') + unit.toLowerCase() + (plural ? 's' : '');
  if (t.cycles > 0) text += ' for {duration} ' + durationUnit.toLowerCase() + (duration === 1 ? '' : 's');
  return { value, unit, duration, durationUnit, key, text };
}

const KNOWN_TYPES: ReadonlySet<number> = new Set(Object.values(PRODUCT_TYPE));
/** A product type code that names no type (7, 'x'); a missing type (or 0, the platform's undefined type) is not unknown and shows 0. */
const unknownType = (t: unknown): boolean => t !== undefined && t !== null && t !== '' && Number(t) !== 0 && !KNOWN_TYPES.has(Number(t));

/** The price view of a product item (the template view's shape: structuredContent with variants). */
export function productPriceView(item: unknown, opts: { inYears?: boolean } = {}): PriceView {
  const content = obj(obj(item)?.structuredContent) ?? {};
  if (unknownType(content.productType)) return { kind: 'none', normal: ZERO, billing: null };
  const varied = hasVariedPrices(content);
  const normal = normalPrice(content);
  let billing: Billing | null = null;
  if (truthy(content.isSubscribable)) {
    billing = billingOf(content.subscriptionPlan, varied, opts);
    if (billing === null) return { kind: 'unavailable', normal, billing: null };
  }
  if (varied) return { kind: 'from', from: fromPrice(content), normal, billing };
  if (isOnSale(content)) return { kind: 'sale', sale: salePrice(content), normal, billing };
  return { kind: 'normal', normal, billing };
}

/** Wording a site may localize (localizedStrings); missing entries use the English defaults. */
export interface PriceStrings {
  /** productPriceFromText: 'from {fromPrice}' */
  fromText?: string;
  /** productPriceUnavailable: 'Unavailable' */
  unavailableText?: string;
  /** A subscription wording by its key (Billing.key). */
  subscription?: (key: string) => string | undefined;
}

/** Message arguments the wording may use. */
export interface PriceArgs {
  price: string;
  fromPrice?: string;
  billingPeriodValue?: number;
  duration?: number;
}

const HIDDEN = '<span class="visually-hidden v6-visually-hidden">';

/**
 * The price markup themes know (`<div class="product-price">` with the
 * visually-hidden sale labels). `money` renders one money value; `fill`
 * formats a wording (a message) with its arguments.
 */
export function priceMarkup(
  view: PriceView,
  money: (m: MoneyValue) => string,
  strings: PriceStrings,
  fill: (text: string, args: PriceArgs) => string,
): string {
  const b = view.billing;
  const wording = b === null ? '{price}' : (strings.subscription?.(b.key) ?? b.text);
  const args = (price: string): PriceArgs => (b === null ? { price } : { price, billingPeriodValue: b.value, duration: b.duration });
  let body: string;
  if (view.kind === 'none') body = '';
  else if (view.kind === 'unavailable') body = fill(strings.unavailableText ?? 'Unavailable', { price: 'true', fromPrice: 'true' }) + '\n';
  else if (view.kind === 'from') {
    const price = money(view.from ?? ZERO);
    body = fill(b === null ? (strings.fromText ?? 'from {fromPrice}') : wording, { ...args(price), fromPrice: price }) + '\n';
  } else if (view.kind === 'sale') {
    body =
      HIDDEN +
      'Sale Price:</span>' +
      fill(wording, args(money(view.sale ?? ZERO))) +
      ' ' +
      HIDDEN +
      'Original Price:</span><span class="original-price">' +
      fill(wording, args(money(view.normal))) +
      '</span>\n';
  } else body = fill(wording, args(money(view.normal)));
  return '\n\n\n<div class="product-price">\n' + body + '\n</div>';
}

/** What `subscription-price` shows: the pricing options of the variant with the lowest price paid. */
export interface SubscriptionPriceView {
  from?: MoneyValue;
  sale?: MoneyValue;
  normal: MoneyValue;
}

/** The subscription price view of a physical or service product; null when it has no pricing options. */
export function subscriptionPriceView(item: unknown): SubscriptionPriceView | null {
  const content = obj(obj(item)?.structuredContent) ?? {};
  const type = Number(content.productType);
  if (type !== PRODUCT_TYPE.PHYSICAL && type !== PRODUCT_TYPE.SERVICE) return null;
  const vs = variantsOf(content);
  if (vs.length === 0) return null;
  let options = vs[0].pricingOptions;
  let low = amountOf(paidMoney(vs[0]));
  for (let i = 1; i < vs.length; i++) {
    const p = amountOf(paidMoney(vs[i]));
    if (p < low) {
      low = p;
      options = vs[i].pricingOptions;
    }
  }
  if (!Array.isArray(options) || options.length === 0) return null;
  const first = obj(options[0]) ?? {};
  const view: SubscriptionPriceView = { normal: asMoney(first.priceMoney) };
  if (hasVariedPrices(content)) view.from = asMoney(paidMoney(first));
  if (truthy(first.onSale)) view.sale = asMoney(first.salePriceMoney);
  return view;
}

/** The `subscription-price` markup (`<div class="subscription-price">`), built from its view. */
export function subscriptionPriceMarkup(
  view: SubscriptionPriceView | null,
  money: (m: MoneyValue) => string,
  strings: PriceStrings,
  fill: (text: string, args: PriceArgs) => string,
): string {
  let body = '';
  if (view !== null) {
    if (view.from !== undefined) {
      const price = money(view.from);
      body = fill(strings.fromText ?? 'from {fromPrice}', { price: '', fromPrice: price }) + '\n';
    } else if (view.sale !== undefined) {
      body =
        HIDDEN +
        'Sale Price:</span>' +
        fill('{price}', { price: money(view.sale) }) +
        ' ' +
        HIDDEN +
        'Original Price:</span><span class="original-price">' +
        fill('{price}', { price: money(view.normal) }) +
        '</span>\n';
    } else body = fill('{price}', { price: money(view.normal) });
  }
  return '\n\n\n<div class="subscription-price">\n' + body + '\n</div>';
}

/** Fill {price}, {fromPrice}, {billingPeriodValue} and {duration} into a wording (for callers without a message formatter). */
export function fillPrice(text: string, args: PriceArgs): string {
  return text.replace(/\{(price|fromPrice|billingPeriodValue|duration)\}/g, (_, k: keyof PriceArgs) => String(args[k] ?? ''));
}
