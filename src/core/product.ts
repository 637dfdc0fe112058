/**
 * Product types and the derived product state shared by server, templates and browser:
 * sold out, on sale, badge, stock, quantity input and variant selector visibility, variant lookup
 * and the add-to-cart validation with its messages (core/messages.ts).
 */
import { BillingPeriodUnit, ProductType } from './enums';
import { QUANTITY_MAX, QUANTITY_MIN } from './constants';
import { commerce } from './messages';
import { money, type Money } from './money';
import type { ProductProps } from './api/storefront';
import { slugify } from './slug';

// ------------------------------------------------------------------------------------------------
// Types
// ------------------------------------------------------------------------------------------------

export type { Money } from './money';

/** One option value of a variant, in the product's option order. */
export interface VariantOptionValue {
  optionName: string;
  value: string;
}

export interface Variant {
  id?: string;
  sku?: string;
  /** Option name to chosen value, e.g. { Size: 'M', Color: 'Blue' }. Empty for a product without options. */
  attributes: Record<string, string>;
  optionValues?: VariantOptionValue[];
  /** Price in minor units (legacy number field). */
  price?: number;
  /** Sale price in minor units (legacy number field). */
  salePrice?: number;
  priceMoney?: Money;
  salePriceMoney?: Money;
  onSale?: boolean;
  qtyInStock: number;
  unlimited: boolean;
}

export interface BillingPeriod {
  value: number;
  unit: BillingPeriodUnit;
}

export interface SubscriptionPlan {
  billingPeriod: BillingPeriod;
  /** 0 means open-ended (bills until cancelled). */
  numBillingCycles: number;
}

export interface StructuredContent {
  productType: ProductType;
  variants: Variant[];
  priceMoney?: Money;
  salePriceMoney?: Money;
  /** The product-level sale flag (used by digital products). */
  onSale?: boolean;
  isSubscribable?: boolean;
  subscriptionPlan?: SubscriptionPlan | null;
  additionalFieldsFormId?: string | null;
  additionalFieldsForm?: unknown;
  useCustomAddButtonText?: boolean;
  customAddButtonText?: string;
  /** Option names in display order. */
  variantOptionOrdering?: string[];
}

/** A store item as templates and the server see it. */
export interface Product {
  id: string;
  title?: string;
  urlId?: string;
  structuredContent: StructuredContent;
}

/** Store settings that affect the product page. */
export interface StoreSettings {
  /** Default true. */
  multipleQuantityAllowedForServices?: boolean;
  /** Default 'USD'. */
  selectedCurrency?: string;
  restockNotificationsSuccessText?: string;
}

/** Either a product (item) or its structuredContent. */
export type ProductLike = Product | StructuredContent;

/** A stock result of GET commerce/inventory/stock/. */
export interface StockResult {
  unlimited: boolean;
  qtyInStock: number;
}

export type ProductBadge = 'sold-out' | 'sale' | null;

// ------------------------------------------------------------------------------------------------
// Derived state
// ------------------------------------------------------------------------------------------------

/** The structuredContent of a product or the value itself. */
export function structuredContentOf(product: ProductLike): StructuredContent {
  return 'structuredContent' in product ? product.structuredContent : product;
}

function variantsOf(sc: StructuredContent): Variant[] {
  return Array.isArray(sc.variants) ? sc.variants : [];
}

/** Whether the product's stock is tracked (physical and service products). */
export function tracksStock(product: ProductLike): boolean {
  const t = structuredContentOf(product).productType;
  return t === ProductType.PHYSICAL || t === ProductType.SERVICE;
}

function variantHasStock(v: Variant): boolean {
  return v.unlimited === true || Number(v.qtyInStock) > 0;
}

/**
 * Sold out: a physical or service product with no variant that is unlimited or has stock above 0.
 * Digital and gift-card products (and any other type) are never sold out.
 */
export function isSoldOut(product: ProductLike): boolean {
  if (!tracksStock(product)) return false;
  return !variantsOf(structuredContentOf(product)).some(variantHasStock);
}

/** On sale: any variant is on sale; digital products use their own product-level flag. */
export function isOnSale(product: ProductLike): boolean {
  const sc = structuredContentOf(product);
  if (sc.productType === ProductType.DIGITAL) return sc.onSale === true;
  return variantsOf(sc).some((v) => v.onSale === true);
}

/** The badge to show: sold out takes precedence over sale. */
export function productBadge(product: ProductLike): ProductBadge {
  if (isSoldOut(product)) return 'sold-out';
  if (isOnSale(product)) return 'sale';
  return null;
}

/** The badge label ('sold out' or 'sale'), or null. */
export function productBadgeLabel(product: ProductLike): string | null {
  const b = productBadge(product);
  return b === 'sold-out' ? commerce.SOLD_OUT : b === 'sale' ? commerce.SALE : null;
}

/**
 * Total stock across variants. Infinity when the stock is unlimited: digital and gift-card
 * products, or any unlimited variant. Negative quantities count as 0.
 */
export function totalStock(product: ProductLike): number {
  const sc = structuredContentOf(product);
  if (sc.productType === ProductType.DIGITAL || sc.productType === ProductType.GIFT_CARD) return Infinity;
  let sum = 0;
  for (const v of variantsOf(sc)) {
    if (v.unlimited) return Infinity;
    sum += Math.max(0, Number(v.qtyInStock) || 0);
  }
  return sum;
}

/**
 * The quantity input is shown for physical products, or service products when
 * multipleQuantityAllowedForServices is on (default true), and only when the product is not
 * subscribable and its total stock exceeds 1.
 */
export function showQuantityInput(product: ProductLike, settings: StoreSettings = {}): boolean {
  const sc = structuredContentOf(product);
  const allowServices = settings.multipleQuantityAllowedForServices ?? true;
  const typeAllows = sc.productType === ProductType.PHYSICAL || (sc.productType === ProductType.SERVICE && allowServices);
  if (!typeAllows) return false;
  if (sc.isSubscribable === true) return false;
  return totalStock(sc) > 1;
}

/** The variant selector is shown when the product has more than one variant, never for digital products. */
export function showVariantSelector(product: ProductLike): boolean {
  const sc = structuredContentOf(product);
  return sc.productType !== ProductType.DIGITAL && variantsOf(sc).length > 1;
}

// ------------------------------------------------------------------------------------------------
// Options and variants
// ------------------------------------------------------------------------------------------------

/**
 * Option names in display order: those of variantOptionOrdering first (when they occur in the
 * variants, or when no variant has attributes), then any others in first-seen order.
 */
export function optionNames(product: ProductLike): string[] {
  const sc = structuredContentOf(product);
  const seen: string[] = [];
  for (const v of variantsOf(sc)) {
    for (const name of Object.keys(v.attributes ?? {})) if (!seen.includes(name)) seen.push(name);
  }
  const ordering = Array.isArray(sc.variantOptionOrdering) ? sc.variantOptionOrdering : [];
  const ordered = ordering.filter((n, i) => typeof n === 'string' && ordering.indexOf(n) === i && seen.includes(n));
  return [...ordered, ...seen.filter((n) => !ordered.includes(n))];
}

/** The distinct values of an option, in the order the variants list them. */
export function optionValues(product: ProductLike, optionName: string): string[] {
  const values: string[] = [];
  for (const v of variantsOf(structuredContentOf(product))) {
    const value = v.attributes?.[optionName];
    if (value !== undefined && value !== null && !values.includes(value)) values.push(value);
  }
  return values;
}

/** The options of a product with their values, in display order. */
export function productOptions(product: ProductLike): { name: string; values: string[] }[] {
  return optionNames(product).map((name) => ({ name, values: optionValues(product, name) }));
}

/**
 * The variant whose attributes all equal the selected ones (extra selected keys are ignored).
 * A product with a single variant returns it when nothing contradicts it.
 */
export function findVariant(product: ProductLike, attributes: Record<string, string | null | undefined> = {}): Variant | undefined {
  const variants = variantsOf(structuredContentOf(product));
  return variants.find((v) => Object.entries(v.attributes ?? {}).every(([name, value]) => attributes[name] === value));
}

/** Option names without a selection (empty, null or missing), in display order. */
export function unselectedOptions(product: ProductLike, attributes: Record<string, string | null | undefined> = {}): string[] {
  return optionNames(product).filter((n) => {
    const v = attributes[n];
    return v === undefined || v === null || String(v).trim() === '';
  });
}

/** Stock check: in stock when any result is unlimited or has more in stock than already in the cart. */
export function inStock(stockResults: readonly StockResult[], qtyInCart = 0): boolean {
  return stockResults.some((r) => r.unlimited === true || Number(r.qtyInStock) > qtyInCart);
}

/** Units of a variant still available to add, given what is already in the cart (Infinity when unlimited). */
export function availableQuantity(variant: Variant, qtyInCart = 0): number {
  if (variant.unlimited) return Infinity;
  return Math.max(0, (Number(variant.qtyInStock) || 0) - qtyInCart);
}

// ------------------------------------------------------------------------------------------------
// Prices
// ------------------------------------------------------------------------------------------------

function minorOf(money: Money | undefined, legacy: number | undefined): bigint | null {
  if (money && typeof money.value === 'string' && /^-?\d+$/.test(money.value.trim())) return BigInt(money.value.trim());
  if (typeof legacy === 'number' && Number.isSafeInteger(legacy)) return BigInt(legacy);
  return null;
}

/** The regular price of a variant in minor units (priceMoney, else price), or null. */
export function variantPrice(variant: Variant): bigint | null {
  return minorOf(variant.priceMoney, variant.price);
}

/** The price a buyer pays for a variant: the sale price when on sale, else the regular price. */
export function variantEffectivePrice(variant: Variant): bigint | null {
  if (variant.onSale) {
    const sale = minorOf(variant.salePriceMoney, variant.salePrice);
    if (sale !== null) return sale;
  }
  return variantPrice(variant);
}

/** Lowest and highest effective variant prices in minor units, or null without prices. */
export function priceRange(product: ProductLike): { min: bigint; max: bigint } | null {
  const sc = structuredContentOf(product);
  const prices = variantsOf(sc)
    .map(variantEffectivePrice)
    .filter((p): p is bigint => p !== null);
  if (prices.length === 0) {
    const own = sc.onSale
      ? (minorOf(sc.salePriceMoney, undefined) ?? minorOf(sc.priceMoney, undefined))
      : minorOf(sc.priceMoney, undefined);
    return own === null ? null : { min: own, max: own };
  }
  let min = prices[0];
  let max = prices[0];
  for (const p of prices) {
    if (p < min) min = p;
    if (p > max) max = p;
  }
  return { min, max };
}

/** The currency of a product's prices (first one found), else the fallback. */
export function productCurrency(product: ProductLike, fallback = 'USD'): string {
  const sc = structuredContentOf(product);
  const v = variantsOf(sc).find((x) => x.priceMoney?.currency);
  return v?.priceMoney?.currency ?? sc.priceMoney?.currency ?? fallback;
}

/** The add button label: the custom text when enabled and non-empty, else 'Subscribe' or 'Add To Cart'. */
export function addButtonLabel(product: ProductLike): string {
  const sc = structuredContentOf(product);
  if (sc.useCustomAddButtonText && sc.customAddButtonText && sc.customAddButtonText.trim() !== '') {
    return sc.customAddButtonText;
  }
  return sc.isSubscribable ? commerce.SUBSCRIBE : commerce.ADD_TO_CART;
}

// ------------------------------------------------------------------------------------------------
// Add to cart
// ------------------------------------------------------------------------------------------------

export type QuantityParse = { ok: true; quantity: number } | { ok: false; message: string };

/**
 * Parses the quantity input text. Blank or non-numeric text gives 'Quantity must be a number.';
 * a fraction, or a number below 1, gives 'Quantity must be a whole number.' (there is no separate
 * text for a quantity below the minimum of 1).
 */
export function parseQuantity(text: string | number | null | undefined): QuantityParse {
  const s = text === null || text === undefined ? '' : String(text).trim();
  // Text must be a plain decimal number: Number() alone would take '0x10', '1e3', '0b11' and 'Infinity'.
  // Length first, then a pattern without overlapping repeats.
  if (typeof text === 'string' && (s.length > 20 || !/^[+-]?\d+(\.\d+)?$/.test(s)))
    return { ok: false, message: commerce.QUANTITY_NOT_A_NUMBER };
  const n = s === '' ? NaN : Number(s);
  if (!Number.isFinite(n)) return { ok: false, message: commerce.QUANTITY_NOT_A_NUMBER };
  if (!Number.isInteger(n) || n < QUANTITY_MIN) return { ok: false, message: commerce.QUANTITY_NOT_WHOLE };
  return { ok: true, quantity: n };
}

export interface AddToCartInput {
  product: ProductLike;
  /** The visitor's choice per option name. */
  selectedAttributes?: Record<string, string | null | undefined>;
  /** The quantity input's text; ignored (quantity 1) when the input is not shown. */
  quantityText?: string | number | null;
  /** How many of the chosen variant the cart already holds. */
  cartQty?: number;
  /** For gift cards: the chosen denomination (variant sku, id or amount); empty means none. */
  giftCardDenomination?: string | number | null;
  settings?: StoreSettings;
}

export interface AddToCartCheck {
  message: string | null;
  variant?: Variant;
  quantity?: number;
}

/**
 * Checks an add-to-cart attempt in this order: gift-card denomination, unselected options,
 * quantity text, variant existence, stock (quantity plus cart quantity against stock, and the
 * 9999 cap). Returns the refusal message and, when valid, the variant and quantity.
 */
export function checkAddToCart(input: AddToCartInput): AddToCartCheck {
  const sc = structuredContentOf(input.product);
  const attrs = input.selectedAttributes ?? {};

  if (sc.productType === ProductType.GIFT_CARD) {
    const d = input.giftCardDenomination;
    if (d === undefined || d === null || String(d).trim() === '') {
      return { message: commerce.SELECT_GIFT_CARD_DENOMINATION };
    }
  }

  const selectorShown = showVariantSelector(sc);
  if (selectorShown) {
    const missing = unselectedOptions(sc, attrs);
    if (missing.length > 0) return { message: commerce.selectOptions(missing) };
  }

  let quantity = 1;
  if (showQuantityInput(sc, input.settings)) {
    const q = parseQuantity(input.quantityText ?? '');
    if (!q.ok) return { message: q.message };
    quantity = q.quantity;
  }

  const variants = variantsOf(sc);
  let variant: Variant | undefined;
  if (sc.productType === ProductType.GIFT_CARD) {
    const d = String(input.giftCardDenomination).trim();
    variant =
      variants.find((v) => v.sku === d || v.id === d) ??
      variants.find((v) => variantPrice(v)?.toString() === d) ??
      (variants.length === 1 ? variants[0] : undefined);
  } else {
    variant = selectorShown ? findVariant(sc, attrs) : variants[0];
  }
  if (!variant) return { message: commerce.VARIANT_UNAVAILABLE };

  const cartQty = Math.max(0, input.cartQty ?? 0);
  if (quantity + cartQty > QUANTITY_MAX) return { message: commerce.NOT_ENOUGH_STOCK };
  if (tracksStock(sc) && availableQuantity(variant, cartQty) < quantity) {
    return { message: commerce.NOT_ENOUGH_STOCK };
  }
  return { message: null, variant, quantity };
}

/** The add-to-cart validation message, or null when the attempt may proceed. */
export function validateAddToCart(input: AddToCartInput): string | null {
  return checkAddToCart(input).message;
}

/** A SKU from the title and the option values: 'Linen Shirt', {Size: 'S', Colour: 'Sand'} -> 'LINEN-SHIRT-S-SAND'. */
export function suggestSku(title: string, attributes: Record<string, string>): string {
  const parts = [slugify(title).slice(0, 24), ...Object.values(attributes).map((v) => slugify(v).slice(0, 12))].filter(Boolean);
  return (parts.join('-') || 'SKU').toUpperCase();
}

/** The product the server hands the islands (core/api/storefront.ts) as core's rules read it. */
export function structuredContentOfProps(p: ProductProps): StructuredContent {
  return {
    productType: p.productType as ProductType,
    isSubscribable: p.isSubscribable,
    subscriptionPlan: p.subscriptionPlan ?? null,
    useCustomAddButtonText: p.useCustomAddButtonText,
    customAddButtonText: p.customAddButtonText,
    variantOptionOrdering: p.variantOptionOrdering,
    onSale: p.onSale,
    variants: p.variants.map((v): Variant => ({
      sku: v.sku,
      attributes: v.attributes,
      qtyInStock: v.qtyInStock,
      unlimited: v.unlimited,
      onSale: v.onSale,
      priceMoney: money(v.priceCents, p.currency),
      salePriceMoney: money(v.salePriceCents, p.currency),
    })),
  };
}
