/** Product state and prices derived from the template view of a product item. */
import { asBoolean, asNumber, asString, deepEquals, isTruthy, path, step } from '../util';

export const enum ProductType {
  UNDEFINED = 0,
  PHYSICAL = 1,
  DIGITAL = 2,
  SERVICE = 3,
  GIFT_CARD = 4,
}

const P_PRODUCT_TYPE = ['structuredContent', 'productType'];
const P_VARIANTS = ['structuredContent', 'variants'];
const P_SUBSCRIBABLE = ['structuredContent', 'isSubscribable'];

/**
 * One-entry memo of derived product facts. Several formatters and predicates
 * ask about the same item in a row; the memo is tied to a render (template
 * data is not modified while rendering), so a new render recomputes.
 */
let renderEpoch = 0;
let memoEpoch = -1;
let memoItem: unknown = undefined;
let memoType: ProductType = ProductType.UNDEFINED;
/** -1 unknown, 0 false, 1 true. */
let memoSoldOut = -1;
let memoOnSale = -1;

/** Called at the start of every render. */
export function newRenderEpoch(): void {
  renderEpoch++;
}

function memoFor(item: unknown): boolean {
  if (item === null || typeof item !== 'object') return false;
  if (item !== memoItem || memoEpoch !== renderEpoch) {
    memoItem = item;
    memoEpoch = renderEpoch;
    memoType = productTypeUncached(item);
    memoSoldOut = -1;
    memoOnSale = -1;
  }
  return true;
}

function productTypeUncached(item: unknown): ProductType {
  const n = asNumber(path(item, P_PRODUCT_TYPE));
  return n >= 1 && n <= 4 ? (n as ProductType) : ProductType.UNDEFINED;
}

export function productType(item: unknown): ProductType {
  return memoFor(item) ? memoType : productTypeUncached(item);
}

export const variantsOf = (item: unknown): unknown => path(item, P_VARIANTS);

export function hasVariants(item: unknown): boolean {
  const v = variantsOf(item);
  return productType(item) === ProductType.DIGITAL ? false : Array.isArray(v) && v.length > 1;
}

const RE_EXP = /e/i;

/** A money value as a number of minor units: platform decimals ("19.99") and minor-unit integers ("1999") both read. */
export function moneyMinor(money: unknown): number {
  const raw = asString(step(money, 'value')).trim();
  if (!raw) return 0;
  const n = Number(raw);
  if (!isFinite(n)) return 0;
  return raw.indexOf('.') !== -1 || RE_EXP.test(raw) ? Math.round(n * 100) : n;
}

export function moneyCurrency(money: unknown): string {
  const c = step(money, 'currency');
  return c === undefined ? 'USD' : asString(c).trim();
}

export const DEFAULT_MONEY = Object.freeze({ value: '0', currency: 'USD' });

const priceOf = (v: unknown) => (isTruthy(step(v, 'onSale')) ? step(v, 'salePriceMoney') : step(v, 'priceMoney'));

export function fromPrice(item: unknown): unknown {
  const t = productType(item);
  const content = step(item, 'structuredContent');
  if (t === ProductType.PHYSICAL || t === ProductType.SERVICE || t === ProductType.GIFT_CARD) {
    const vs = step(content, 'variants');
    if (!Array.isArray(vs) || vs.length === 0) return DEFAULT_MONEY;
    let money = priceOf(vs[0]);
    let price = moneyMinor(money);
    for (let i = 1; i < vs.length; i++) {
      const m = priceOf(vs[i]);
      const p = moneyMinor(m);
      if (p < price) {
        price = p;
        money = m;
      }
    }
    return money;
  }
  if (t === ProductType.DIGITAL) return step(content, 'priceMoney') ?? DEFAULT_MONEY;
  return DEFAULT_MONEY;
}

export function normalPrice(item: unknown): unknown {
  const t = productType(item);
  const content = step(item, 'structuredContent');
  if (t === ProductType.PHYSICAL || t === ProductType.SERVICE || t === ProductType.GIFT_CARD) {
    const vs = step(content, 'variants');
    if (!Array.isArray(vs) || vs.length === 0) return DEFAULT_MONEY;
    let money = step(vs[0], 'priceMoney');
    let price = moneyMinor(money);
    for (let i = 1; i < vs.length; i++) {
      const m = step(vs[i], 'priceMoney');
      const p = moneyMinor(m);
      if (p > price) {
        price = p;
        money = m;
      }
    }
    return money;
  }
  if (t === ProductType.DIGITAL) return step(content, 'priceMoney') ?? DEFAULT_MONEY;
  return DEFAULT_MONEY;
}

export function salePrice(item: unknown): unknown {
  const t = productType(item);
  const content = step(item, 'structuredContent');
  if (t === ProductType.PHYSICAL || t === ProductType.SERVICE) {
    const vs = step(content, 'variants');
    if (!Array.isArray(vs) || vs.length === 0) return DEFAULT_MONEY;
    let node: unknown;
    let price = 0;
    for (const v of vs) {
      if (!isTruthy(step(v, 'onSale'))) continue;
      const m = step(v, 'salePriceMoney');
      const p = moneyMinor(m);
      if (node === undefined || (p && price && p < price)) {
        node = m;
        price = p;
      }
    }
    return node ?? DEFAULT_MONEY;
  }
  if (t === ProductType.DIGITAL) return step(content, 'salePriceMoney') ?? DEFAULT_MONEY;
  return DEFAULT_MONEY;
}

export function totalStock(item: unknown): number {
  const t = productType(item);
  if (t === ProductType.DIGITAL || t === ProductType.GIFT_CARD) return Number.MAX_SAFE_INTEGER;
  let total = 0;
  const vs = variantsOf(item);
  if (Array.isArray(vs)) {
    for (const v of vs) {
      if (isTruthy(step(v, 'unlimited'))) return Number.MAX_SAFE_INTEGER;
      total += asNumber(step(v, 'qtyInStock'));
    }
  }
  return total;
}

const same = (a: unknown, b: unknown) => deepEquals(a === undefined ? null : a, b === undefined ? null : b);

export function hasVariedPrices(item: unknown): boolean {
  const t = productType(item);
  if (t !== ProductType.PHYSICAL && t !== ProductType.SERVICE && t !== ProductType.GIFT_CARD) return false;
  const vs = variantsOf(item);
  if (!Array.isArray(vs) || vs.length === 0) return false;
  const first = vs[0];
  const onSale = step(first, 'onSale');
  const sale = step(first, 'salePrice');
  const price = step(first, 'price');
  for (let i = 1; i < vs.length; i++) {
    const v = vs[i];
    if (!same(step(v, 'onSale'), onSale)) return true;
    if (isTruthy(onSale) && !same(step(v, 'salePrice'), sale)) return true;
    if (!same(step(v, 'price'), price)) return true;
  }
  return false;
}

export function isOnSale(item: unknown): boolean {
  if (!memoFor(item)) return isOnSaleUncached(item);
  if (memoOnSale === -1) memoOnSale = isOnSaleUncached(item) ? 1 : 0;
  return memoOnSale === 1;
}

function isOnSaleUncached(item: unknown): boolean {
  const t = productType(item);
  const content = step(item, 'structuredContent');
  if (t === ProductType.PHYSICAL || t === ProductType.SERVICE) {
    const vs = step(content, 'variants');
    if (!Array.isArray(vs)) return false;
    for (let i = 0; i < vs.length; i++) if (isTruthy(step(vs[i], 'onSale'))) return true;
    return false;
  }
  if (t === ProductType.DIGITAL) return isTruthy(step(content, 'onSale'));
  return false;
}

export function isSoldOut(item: unknown): boolean {
  if (!memoFor(item)) return isSoldOutUncached(item);
  if (memoSoldOut === -1) memoSoldOut = isSoldOutUncached(item) ? 1 : 0;
  return memoSoldOut === 1;
}

function isSoldOutUncached(item: unknown): boolean {
  const t = productType(item);
  if (t === ProductType.PHYSICAL || t === ProductType.SERVICE) {
    const vs = variantsOf(item);
    if (Array.isArray(vs)) {
      for (const v of vs) {
        if (isTruthy(step(v, 'unlimited')) || asNumber(step(v, 'qtyInStock')) > 0) return false;
      }
    }
    return true;
  }
  return !(t === ProductType.DIGITAL || t === ProductType.GIFT_CARD);
}

export const isSubscribable = (item: unknown): boolean => asBoolean(path(item, P_SUBSCRIBABLE));

export function multipleQuantityAllowedForServices(settings: unknown): boolean {
  const store = step(settings, 'storeSettings');
  if (store !== null && typeof store === 'object' && !Array.isArray(store)) {
    const v = step(store, 'multipleQuantityAllowedForServices');
    if (v !== undefined && v !== null) return asBoolean(v);
  }
  return true;
}

/** Options (in the product's option order) with the distinct values the variants use. */
export function variantOptions(item: unknown): Array<{ name: string; values: string[] }> {
  const content = step(item, 'structuredContent');
  const vs = step(content, 'variants');
  if (!Array.isArray(vs) || vs.length <= 1) return [];
  const ordering = step(content, 'variantOptionOrdering');
  const options: Array<{ name: string; values: string[] }> = Array.isArray(ordering)
    ? ordering.map((n) => ({ name: asString(n), values: [] }))
    : [];
  for (const v of vs) {
    const attrs = step(v, 'attributes');
    if (attrs === null || typeof attrs !== 'object' || Array.isArray(attrs)) continue;
    for (const field of Object.keys(attrs)) {
      const value = asString((attrs as Record<string, unknown>)[field]);
      const opt = options.find((o) => o.name === field);
      if (opt !== undefined && !opt.values.includes(value)) opt.values.push(value);
    }
  }
  return options;
}

export function variantDescriptor(variant: unknown): string {
  const opts = step(variant, 'optionValues');
  if (!Array.isArray(opts)) return '';
  return opts.map((o) => asString(step(o, 'value'))).join(' / ');
}
