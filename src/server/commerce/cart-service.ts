/**
 * The shopping cart service: owns the carts and their entries, and the transactions that change them.
 *
 * Every write to one cart runs in one transaction with the cart row locked (SELECT ... FOR UPDATE), so
 * concurrent writes to one cart serialize and none is lost. The add path is kept to few round trips:
 * a first add is one statement (cart and entry inserted together); a later add is BEGIN, lock, one read
 * (entries and the product together), one write (entry and totals together), COMMIT.
 *
 * The rules themselves (stock, totals, messages) come from src/core.
 */
import type { CartEntryJson, CartJson } from '../../core/api/cart.js';
import { sql } from 'drizzle-orm';
import type { Database, Db, Tx } from '../../db/index.js';
import { hashToken, newId, newToken } from '../../db/ids.js';
import { KeptUntilNotified, rows } from '../db-util.js';
import { lit, prepared, q, rawTransaction } from './raw.js';
import { withReferencedForm } from './form-ref.js';
import type { CartIdent } from '../visitor/index.js';
import { HttpError } from '../errors.js';
import {
  additionalFieldsErrors,
  cartAmountMaxMinor,
  computeCartTotals,
  exactSubtotalMinor,
  findMergeableEntry,
  unpricedCartFields,
  variantQuantity,
  type CartEntry,
  type CartTotals,
} from '../../core/cart.js';
import { availableQuantity, inStock, type StockResult } from '../../core/product.js';
import type { FormField } from '../../core/forms.js';
import { ProductType, RecordType } from '../../core/enums.js';
import { CART_LINES_MAX, QUANTITY_MAX } from '../../core/constants.js';
import { cart as cartMessages, commerce } from '../../core/messages.js';
import { money } from '../../core/money.js';

// ------------------------------------------------------------------------------------------------
// Shapes
// ------------------------------------------------------------------------------------------------

export interface AddInput {
  itemId: string;
  sku: string;
  quantity: number;
  /** Canonical JSON text of the additional-fields answers, '' when none. */
  additionalFields: string;
  /** The store lets a cart hold more than one of a service (multipleQuantityAllowedForServices; default true). */
  multipleServices?: boolean;
}

/** What a page shows of a visitor's cart (the cart pill): findShared's answer. */
export interface CartSummary {
  totalQuantity: number;
}

/** A cart row as this service reads it. */
export interface CartRow extends CartTotals {
  id: string;
  websiteId: string;
  siteUserId: string | null;
  orderId: string | null;
  isPurchased: boolean;
  created: Date;
}

/** An entry with what the cart shows of its product. */
export interface Line {
  id: string;
  itemId: string;
  sku: string;
  quantity: number;
  additionalFields: string;
  purchasePriceCents: number;
  /** The unit price exactly, when read from the database as text (a price past 2^53 would round as a number). */
  priceMinor?: bigint;
  created: number;
  title: string;
  productType: number;
  urlId: string;
  fullUrl: string;
  image: Record<string, unknown> | null;
  attributes: Record<string, string>;
}

/** A variant with the item fields the cart needs. */
export interface VariantInfo {
  variantId: string;
  itemId: string;
  sku: string;
  attributes: Record<string, string>;
  priceCents: number;
  salePriceCents: number;
  onSale: boolean;
  qtyInStock: number;
  unlimited: boolean;
  recordType: number;
  status: string;
  title: string;
  urlId: string;
  fullUrl: string;
  image: Record<string, unknown> | null;
  structuredContent: Record<string, unknown>;
}

export type { CartEntryJson, CartJson };

// ------------------------------------------------------------------------------------------------
// JSON
// ------------------------------------------------------------------------------------------------

export function entryJson(l: Line, currency: string): CartEntryJson {
  // Exact even for a cart an owner's later price change took past the safe range (money strings are bigint-exact).
  const unit = lineUnitMinor(l);
  const sub = unit * BigInt(l.quantity);
  return {
    id: l.id,
    itemId: l.itemId,
    chosenVariant: { sku: l.sku, attributes: l.attributes },
    quantity: l.quantity,
    title: l.title,
    purchasePriceCents: l.purchasePriceCents,
    purchasePriceMoney: money(unit, currency),
    subTotal: money(sub, currency),
    subTotalCents: Number(sub),
    additionalFields: l.additionalFields,
    productType: l.productType,
    urlId: l.urlId,
    fullUrl: l.fullUrl,
    image: l.image,
  };
}

/** The shopping cart as the API answers it. */
export function cartJson(cart: CartRow | null, lines: Line[], currency: string): CartJson {
  return {
    id: cart?.id ?? null,
    websiteId: cart?.websiteId ?? null,
    orderId: cart?.orderId ?? null,
    created: cart ? cart.created.getTime() : null,
    isPurchased: cart?.isPurchased ?? false,
    entries: lines.map((l) => entryJson(l, currency)),
    ...unpricedCartFields(),
    subtotalCents: cart?.subtotalCents ?? 0,
    taxCents: cart?.taxCents ?? 0,
    shippingCostCents: cart?.shippingCostCents ?? 0,
    discountCents: cart?.discountCents ?? 0,
    grandTotalCents: cart?.grandTotalCents ?? 0,
    totalQuantity: cart?.totalQuantity ?? 0,
    hasDigital: cart?.hasDigital ?? false,
    purelyDigital: cart?.purelyDigital ?? false,
    requiresShipping: cart?.requiresShipping ?? false,
    subtotal: money(cart ? linesMinor(lines) : 0, currency),
  };
}

/** A line's exact unit price in minor units. */
const lineUnitMinor = (l: Pick<Line, 'purchasePriceCents' | 'priceMinor'>): bigint =>
  l.priceMinor ?? exactSubtotalMinor([{ purchasePriceCents: l.purchasePriceCents, quantity: 1 }]);

/** The exact subtotal of lines in minor units. */
const linesMinor = (lines: ReadonlyArray<Pick<Line, 'purchasePriceCents' | 'priceMinor' | 'quantity'>>): bigint =>
  lines.reduce((sum, l) => sum + lineUnitMinor(l) * BigInt(l.quantity), 0n);

// ------------------------------------------------------------------------------------------------
// Rules (from core)
// ------------------------------------------------------------------------------------------------

function productTypeOf(sc: Record<string, unknown>): number {
  const t = Number(sc.productType);
  return Number.isInteger(t) && t > 0 ? t : ProductType.PHYSICAL;
}

export function unitPriceCents(v: Pick<VariantInfo, 'onSale' | 'priceCents' | 'salePriceCents'>): number {
  return v.onSale ? v.salePriceCents : v.priceCents;
}

/** Totals of a cart from its lines, through core's computeCartTotals. */
export function totalsOf(lines: readonly Line[], cart: Pick<CartRow, 'taxCents' | 'shippingCostCents' | 'discountCents'>) {
  const entries: CartEntry[] = lines.map((l) => ({
    id: l.id,
    itemId: l.itemId,
    chosenVariant: { sku: l.sku, attributes: l.attributes },
    quantity: l.quantity,
    title: l.title,
    purchasePriceCents: l.purchasePriceCents,
    productType: l.productType as ProductType,
  }));
  return computeCartTotals(entries, {
    taxCents: cart.taxCents,
    shippingCostCents: cart.shippingCostCents,
    discountCents: cart.discountCents,
  });
}

/**
 * The stock rule: in stock when any stock result is unlimited or has more in stock than the
 * cart already holds; and the quantity asked for must fit in what is left (and under the 9999 cap).
 * Digital and gift-card products are never out of stock.
 */
export function assertStock(v: Pick<VariantInfo, 'unlimited' | 'qtyInStock' | 'structuredContent'>, inCart: number, adding: number) {
  if (inCart + adding > QUANTITY_MAX) throw new HttpError(400, commerce.NOT_ENOUGH_STOCK);
  const t = productTypeOf(v.structuredContent);
  if (t !== ProductType.PHYSICAL && t !== ProductType.SERVICE) return;
  const result: StockResult = { unlimited: v.unlimited, qtyInStock: v.qtyInStock };
  if (!inStock([result], inCart) || availableQuantity({ attributes: {}, ...result }, inCart) < adding) {
    throw new HttpError(400, commerce.NOT_ENOUGH_STOCK);
  }
}

/** The additional-fields form of a product, when it has one with fields. */
export function additionalFieldsFormOf(sc: Record<string, unknown>): { id: string; name?: string; fields: FormField[] } | null {
  const form = sc.additionalFieldsForm as { id?: unknown; name?: unknown; fields?: unknown } | null | undefined;
  if (!form || typeof form !== 'object' || !Array.isArray(form.fields) || form.fields.length === 0) return null;
  return {
    id: String(form.id ?? sc.additionalFieldsFormId ?? ''),
    ...(typeof form.name === 'string' ? { name: form.name } : {}),
    fields: form.fields as FormField[],
  };
}

/**
 * Validates the answers against the product's form (core/cart.ts additionalFieldsErrors); 400 with
 * per-field messages. A product without a form takes no answers at all (they would make every add a new
 * line and the cart grow without bound).
 */
export function assertAdditionalFields(sc: Record<string, unknown>, additionalFields: string) {
  const form = additionalFieldsFormOf(sc);
  if (!form) {
    if (additionalFields !== '')
      throw new HttpError(400, cartMessages.NO_ADDITIONAL_FIELDS, { additionalFields: cartMessages.NO_ADDITIONAL_FIELDS });
    return;
  }
  let values: Record<string, unknown> = {};
  if (additionalFields !== '') {
    const parsed = JSON.parse(additionalFields) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new HttpError(400, cartMessages.UPDATE_MISSING_INFO, {
        additionalFields: 'additionalFields must be a JSON object of field answers.',
      });
    }
    values = parsed as Record<string, unknown>;
  }
  const errors = additionalFieldsErrors(form.fields, values, additionalFields);
  if (Object.keys(errors).length > 0) throw new HttpError(400, cartMessages.UPDATE_MISSING_INFO, errors);
}

// ------------------------------------------------------------------------------------------------
// SQL
// ------------------------------------------------------------------------------------------------

const n = (v: unknown) => Number(v ?? 0);
const asDate = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));

function cartFrom(r: Record<string, unknown>): CartRow {
  return {
    id: String(r.id),
    websiteId: String(r.website_id),
    siteUserId: (r.site_user_id as string | null) ?? null,
    orderId: (r.order_id as string | null) ?? null,
    isPurchased: r.is_purchased === true,
    subtotalCents: n(r.subtotal_cents),
    taxCents: n(r.tax_cents),
    shippingCostCents: n(r.shipping_cost_cents),
    discountCents: n(r.discount_cents),
    grandTotalCents: n(r.grand_total_cents),
    totalQuantity: n(r.total_quantity),
    hasDigital: r.has_digital === true,
    purelyDigital: r.purely_digital === true,
    requiresShipping: r.requires_shipping === true,
    created: asDate(r.created),
  };
}

function lineFrom(r: Record<string, unknown>): Line {
  const sc = (r.sc as Record<string, unknown> | null) ?? {};
  return {
    id: String(r.id),
    itemId: String(r.itemId),
    sku: String(r.sku),
    quantity: n(r.quantity),
    additionalFields: String(r.additionalFields ?? ''),
    purchasePriceCents: n(r.purchasePriceCents),
    ...(typeof r.purchasePriceMinor === 'string' && /^-?\d{1,20}$/.test(r.purchasePriceMinor)
      ? { priceMinor: BigInt(r.purchasePriceMinor) }
      : {}),
    created: asDate(r.created).getTime(),
    title: String(r.title ?? ''),
    productType: productTypeOf(sc),
    urlId: String(r.urlId ?? ''),
    fullUrl: r.urlId ? `/${String(r.collectionUrlId ?? '')}/p/${String(r.urlId)}` : '',
    image: (r.image as Record<string, unknown> | null) ?? null,
    attributes: (r.attributes as Record<string, string> | null) ?? {},
  };
}

function variantFrom(r: Record<string, unknown>): VariantInfo {
  return {
    variantId: String(r.variantId),
    itemId: String(r.itemId),
    sku: String(r.sku),
    attributes: (r.attributes as Record<string, string> | null) ?? {},
    priceCents: n(r.priceCents),
    salePriceCents: n(r.salePriceCents),
    onSale: r.onSale === true,
    qtyInStock: n(r.qtyInStock),
    unlimited: r.unlimited === true,
    recordType: n(r.recordType),
    status: String(r.status ?? ''),
    title: String(r.title ?? ''),
    urlId: String(r.urlId ?? ''),
    fullUrl: `/${String(r.collectionUrlId ?? '')}/p/${String(r.urlId ?? '')}`,
    image: (r.image as Record<string, unknown> | null) ?? null,
    structuredContent: (r.sc as Record<string, unknown> | null) ?? {},
  };
}

/** The entries of a cart as JSON objects, with their product fields (one subquery); cartId is a SQL expression. */
const linesText = (cartIdExpr: string) => `coalesce((
  select json_agg(json_build_object(
    'id', e.id, 'itemId', e.item_id, 'sku', e.sku, 'quantity', e.quantity, 'additionalFields', e.additional_fields,
    'purchasePriceCents', case when v.id is null then e.purchase_price_cents when v.on_sale then v.sale_price_cents else v.price_cents end,
    'purchasePriceMinor', (case when v.id is null then e.purchase_price_cents when v.on_sale then v.sale_price_cents else v.price_cents end)::text,
    'created', e.created, 'title', i.title, 'sc', i.structured_content,
    'urlId', i.url_id, 'collectionUrlId', col.url_id, 'image', i.assets -> 0, 'attributes', v.attributes
  ) order by e.created, e.id)
  from cart_entries e
  left join items i on i.id = e.item_id
  left join collections col on col.id = i.collection_id
  left join product_variants v on v.item_id = e.item_id and v.sku = e.sku
  where e.cart_id = ${cartIdExpr}), '[]'::json)`;
const LINES_JSON = (cartId: string) => sql.raw(linesText(lit(cartId)));

/** One variant with its item, as a JSON object (or null). */
const variantText = (itemId: string, sku: string, params = false) => `(
  select json_build_object(${params ? "'variantVersion', v.xmin::text, 'itemVersion', i.xmin::text," : ''}
    'variantId', v.id, 'itemId', v.item_id, 'sku', v.sku, 'attributes', v.attributes, 'priceCents', v.price_cents,
    'salePriceCents', v.sale_price_cents, 'onSale', v.on_sale, 'qtyInStock', v.qty_in_stock, 'unlimited', v.unlimited,
    'recordType', i.record_type, 'status', i.status, 'title', i.title, 'urlId', i.url_id, 'collectionUrlId', col.url_id,
    'image', i.assets -> 0, 'sc', ${withReferencedForm('i.structured_content', 'i.website_id')})
  from product_variants v join items i on i.id = v.item_id left join collections col on col.id = i.collection_id
  where v.item_id = ${params ? itemId : lit(itemId)} and v.sku = ${params ? sku : lit(sku)})`;
const VARIANT_JSON = (itemId: string, sku: string) => sql.raw(variantText(itemId, sku));

const CART_COLUMNS_TEXT =
  'id, website_id, site_user_id, order_id, is_purchased, subtotal_cents, tax_cents, shipping_cost_cents, discount_cents, grand_total_cents, total_quantity, has_digital, purely_digital, requires_shipping, created';
const CART_COLUMNS = sql.raw(CART_COLUMNS_TEXT);

/** The visitor's open cart: the site user's when signed in, else the cart cookie's. */
function identText(ident: CartIdent): string {
  if (ident.siteUserId) return `site_user_id = ${lit(ident.siteUserId)} and is_purchased = false`;
  return `token_hash = ${lit(hashToken(ident.token ?? ''))} and is_purchased = false`;
}

interface PlannedAdd {
  /** The lines after the add. */
  lines: Line[];
  /** The entry added to or created. */
  entry: Line;
  merged: boolean;
}

/**
 * The rules of an add on a cart's lines (mutated): the product's form, stock by the stock rule against
 * what the cart already holds of the variant, then merge into the entry with equal item, sku and answers
 * (core) or a new entry.
 */
function planAdd(
  lines: Line[],
  v: VariantInfo,
  input: AddInput,
  currency: string,
  newLine: (id: string, created: number) => Line,
): PlannedAdd {
  assertAdditionalFields(v.structuredContent, input.additionalFields);
  const inCart = variantQuantity(lines, input);
  assertStock(v, inCart, input.quantity);
  assertServiceQuantity(v, inCart + input.quantity, input.multipleServices);
  const same = findMergeableEntry(lines, input);
  if (same) {
    same.quantity += input.quantity;
    assertCartAmount(lines, currency);
    return { lines, entry: same, merged: true };
  }
  assertRoomForLine(lines);
  const last = lines.reduce((m, l) => Math.max(m, l.created), 0);
  const entry = newLine(newId(), Math.max(Date.now(), last + 1));
  lines.push(entry);
  assertCartAmount(lines, currency);
  return { lines, entry, merged: false };
}

/**
 * Money is shown to 15 integer places: a write that would take the cart's subtotal
 * past what the store's currency can show, or past the largest safe integer of minor units, is refused before
 * anything is saved (core cartAmountMaxMinor), so no visitor's own add makes a cart whose total cannot be shown.
 */
export function assertCartAmount(lines: ReadonlyArray<Pick<Line, 'purchasePriceCents' | 'priceMinor' | 'quantity'>>, currency: string) {
  if (linesMinor(lines) > cartAmountMaxMinor(currency))
    throw new HttpError(400, cartMessages.TOTAL_TOO_LARGE, { quantity: cartMessages.TOTAL_TOO_LARGE });
}

/** With multiple quantity for services off, a cart holds at most one of a service (the API refuses more, not only the input). */
export function assertServiceQuantity(v: Pick<VariantInfo, 'structuredContent'>, total: number, multipleServices: boolean | undefined) {
  if (multipleServices === false && productTypeOf(v.structuredContent) === ProductType.SERVICE && total > 1) {
    throw new HttpError(400, cartMessages.SERVICE_QUANTITY_ONE, { quantity: cartMessages.SERVICE_QUANTITY_ONE });
  }
}

/** A new line beyond the cart's CART_LINES_MAX is refused (merging into an existing line is not). */
function assertRoomForLine(lines: readonly Line[]) {
  if (lines.length >= CART_LINES_MAX)
    throw new HttpError(400, cartMessages.linesLimit(CART_LINES_MAX), { cart: cartMessages.linesLimit(CART_LINES_MAX) });
}

/** The statement that applies an entry change and stores the totals of the lines (core computeCartTotals). */
function totalsWrite(cart: CartRow, lines: readonly Line[], change: string): { text: string; cart: CartRow } {
  const t = totalsOf(lines, cart);
  const text =
    `with changed as (${change}) ` +
    q`update carts set subtotal_cents = ${t.subtotalCents}, grand_total_cents = ${t.grandTotalCents}, total_quantity = ${t.totalQuantity},
        has_digital = ${t.hasDigital}, purely_digital = ${t.purelyDigital}, requires_shipping = ${t.requiresShipping}, updated = now()
      where id = ${cart.id}`;
  return { text, cart: { ...cart, ...t } };
}

/**
 * The optimistic add (see CartService.add): the visitor's open cart with its row version (xmin), its
 * lines, the variant and the item with their row versions, all from one snapshot, in one prepared
 * statement. $1 is the token hash or the site user id, $2 the item id, $3 the sku.
 */
const addReadText = (byUser: boolean) => `with c as (
    select ${CART_COLUMNS_TEXT}, xmin::text as version from carts
    where ${byUser ? 'site_user_id = $1' : 'token_hash = $1'} and is_purchased = false order by created desc limit 1)
  select (select row_to_json(c) from c) as cart, ${linesText('(select id from c)')} as lines,
    ${variantText('$2', '$3', true)} as variant,
    (select json_build_object('recordType', record_type, 'status', status) from items where id = $2) as item`;
const FIND_BY_TOKEN = `select ${CART_COLUMNS_TEXT} from carts where token_hash = $1 and is_purchased = false order by created desc limit 1`;
const FIND_BY_USER = `select ${CART_COLUMNS_TEXT} from carts where site_user_id = $1 and is_purchased = false order by created desc limit 1`;
/**
 * The open carts of several visitors in one statement (findShared on PostgreSQL), as much of them as a page
 * shows (the quantity in the cart pill): $1 the token hashes, $2 the site user ids. Each row names what found
 * it (`k`: 't:' + token hash or 'u:' + user id, as cartKey); a site user's newest open cart comes first, as
 * FIND_BY_USER picks it (a token names one cart).
 */
const FIND_MANY = `select k, total_quantity from (
  select 't:' || token_hash as k, total_quantity, created from carts where token_hash = any($1::text[]) and is_purchased = false
  union all
  select 'u:' || site_user_id as k, total_quantity, created from carts where site_user_id = any($2::text[]) and is_purchased = false
) found order by k, created desc`;
const LINES_BY_ID = `select ${linesText('$1')} as lines`;
const ADD_READ_BY_TOKEN = addReadText(false);
const ADD_READ_BY_USER = addReadText(true);

/**
 * The optimistic add's write: one statement (so one transaction) that locks the cart row only if it is
 * still the version the computation used ($1 id, $2 xmin) and the variant and item rows are too ($3 item
 * id, $4 sku, $5 and $6 their xmin: price, stock and status unchanged), applies the entry change and stores
 * the totals ($7-$12). It answers the cart row's new version; no row means something changed first.
 */
const addWriteText = (change: string) => `with c as (
    select id from carts where id = $1 and xmin = $2::xid
      and exists (select 1 from product_variants v join items i on i.id = v.item_id
        where v.item_id = $3 and v.sku = $4 and v.xmin = $5::xid and i.xmin = $6::xid)
    for update),
  e as (${change})
  update carts set subtotal_cents = $7::bigint, grand_total_cents = $8::bigint, total_quantity = $9::int,
    has_digital = $10::boolean, purely_digital = $11::boolean, requires_shipping = $12::boolean, updated = now()
  where id in (select id from c) returning xmin::text as version`;
const ADD_MERGE = addWriteText('update cart_entries set quantity = $13::int where id = $14 and cart_id in (select id from c) returning id');
const ADD_INSERT =
  addWriteText(`insert into cart_entries (id, cart_id, item_id, sku, quantity, additional_fields, purchase_price_cents, created)
    select $13::text, c.id, $3::text, $4::text, $14::int, $15::text, $16::bigint, $17::timestamptz from c returning id`);

/** A small in-process map whose entries expire, bounded in size (oldest dropped first). */
class ExpiringMap<V> {
  private readonly map = new Map<string, { value: V; until: number }>();
  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
  ) {}
  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e.until < Date.now()) {
      this.map.delete(key);
      return undefined;
    }
    return e.value;
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value as string);
    this.map.set(key, { value, until: Date.now() + this.ttlMs });
  }
  delete(key: string): void {
    this.map.delete(key);
  }
  clear(): void {
    this.map.clear();
  }
}

/** A cart as the last add of this process left it: the row, its version and its lines. */
interface CartSnapshot {
  cart: CartRow;
  version: string;
  lines: Line[];
}

/** A variant as last read, with the row versions of the variant and its item. */
interface VariantSnapshot {
  v: VariantInfo;
  variantVersion: string;
  itemVersion: string;
}

const cartKey = (ident: CartIdent) => (ident.siteUserId ? `u:${ident.siteUserId}` : `t:${hashToken(ident.token ?? '')}`);
const variantKey = (itemId: string, sku: string) => `${itemId}\u0000${sku}`;

/** The record type and status of an item, as a JSON object (or null). */
const itemText = (itemId: string) =>
  `(select json_build_object('recordType', record_type, 'status', status) from items where id = ${lit(itemId)})`;

/** 404 for an unknown or unpublished product, 400 for an unknown sku of a product. */
function checkVariant(found: VariantInfo | null, item: { recordType?: unknown; status?: unknown } | null): VariantInfo {
  const recordType = found ? found.recordType : n(item?.recordType);
  const status = found ? found.status : String(item?.status ?? '');
  if (recordType !== RecordType.STORE_ITEM || status !== 'published') throw new HttpError(404, 'This product is no longer available.');
  if (!found) throw new HttpError(400, commerce.VARIANT_UNAVAILABLE);
  return found;
}

function variantOf(v: unknown): VariantInfo | null {
  const raw = parseJson<Record<string, unknown> | null>(v ?? null);
  return raw ? variantFrom(raw) : null;
}

function parseJson<T>(v: unknown): T {
  return (typeof v === 'string' ? JSON.parse(v) : v) as T;
}

function identWhere(ident: CartIdent) {
  return sql.raw(identText(ident));
}

function usableIdent(ident: CartIdent): boolean {
  if (ident.siteUserId) return true;
  return typeof ident.token === 'string' && ident.token.length > 0 && ident.token.length <= 100;
}

// ------------------------------------------------------------------------------------------------
// The service
// ------------------------------------------------------------------------------------------------

export interface WriteLimit {
  /** Writes allowed per visitor in a window; 0 turns the limit off. */
  max: number;
  windowMs: number;
}

/** The channel the carts trigger notifies on PGlite (migration 0026). */
export const CART_CHANGES_CHANNEL = 'tessera_cart_changes';
/** Carts kept for pages before the map is emptied (a bound on memory, not a policy). */
const SHARED_CARTS = 10_000;

export class CartService {
  /** Cart writes per visitor (the routes apply it through the shared rate limiter). Tests and benches may raise it. */
  writeLimit: WriteLimit = { max: 60, windowMs: 10_000 };
  /** The per-IP ceiling is this many times the per-visitor limit. */
  ipLimitFactor = 20;

  /** What this process last saw of carts it added to, and of variants: the one-statement add works from them. */
  private readonly snapshots = new ExpiringMap<CartSnapshot>(10_000, 20_000);
  private readonly variants = new ExpiringMap<VariantSnapshot>(5_000, 5_000);

  constructor(private readonly database: Database) {}

  private get db(): Db {
    return this.database.db;
  }

  /** Finds the visitor's cart by its cookie token (kept for the page routes). */
  async findByToken(token: string | undefined): Promise<CartRow | null> {
    return this.find({ token });
  }

  /** PGlite: carts found for pages, kept until the next cart write is notified (see findShared). */
  private readonly shared = new KeptUntilNotified<CartSummary | null>(SHARED_CARTS);

  /**
   * PGlite: follows the carts trigger's notifications (migration 0026), so a cart found after the last
   * notification is still the cart. PostgreSQL is not watched: findShared reads for every request there.
   */
  async watch(): Promise<void> {
    await this.shared.watch(this.database, CART_CHANGES_CHANNEL, 'tessera.cart_notify');
  }

  /**
   * What a page shows of the cart `find` answers (its quantity, for the cart pill): on PGlite read once per
   * cart write (no query while it is unchanged); elsewhere read for each request, in one statement shared
   * by the requests that ask at about the same time (see batchRead), which reads only that column (the whole
   * row, a date among its fifteen columns, was parsed for every shopper's page and never shown). The value
   * is shared: read-only.
   */
  findShared(ident: CartIdent): Promise<CartSummary | null> {
    if (!usableIdent(ident)) return Promise.resolve(null);
    if (!this.shared.watched) return this.batchRead(ident);
    return this.shared.get(cartKey(ident), async () => {
      const cart = await this.find(ident);
      return cart ? { totalQuantity: cart.totalQuantity } : null;
    });
  }

  /** Statements findShared sent to read carts on PostgreSQL (tests and the benchmark). */
  sharedReads = 0;
  /** The statement in flight, and the batch that waits for it (cart key to the callers' promise). */
  private reading: Promise<void> | null = null;
  private batch: Map<
    string,
    { read: Promise<CartSummary | null>; settle: (cart: CartSummary | null) => void; fail: (e: unknown) => void }
  > | null = null;

  /**
   * One statement for the carts of the requests that ask while another such statement is in flight, as
   * plugins/site-cache.ts shares the version read: a statement already under way may have started before a
   * caller arrived, and so miss a write committed just before that caller, so such callers join the next
   * statement, which starts when the current one ends (after all of them arrived). A caller that finds none
   * in flight starts one at once. Under load this turns one query per shopper request into one per round trip.
   */
  private batchRead(ident: CartIdent): Promise<CartSummary | null> {
    const key = cartKey(ident);
    const waiting = this.batch?.get(key);
    if (waiting) return waiting.read;
    let settle!: (cart: CartSummary | null) => void;
    let fail!: (e: unknown) => void;
    const read = new Promise<CartSummary | null>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    (this.batch ??= new Map()).set(key, { read, settle, fail });
    if (!this.reading) this.startBatch();
    return read;
  }

  /** Sends the waiting batch as one statement; when it ends, the batch that gathered meanwhile follows. */
  private startBatch(): void {
    const batch = this.batch;
    this.batch = null;
    if (!batch || batch.size === 0) return;
    const reading = this.readBatch(batch);
    this.reading = reading;
    void reading.then(() => {
      if (this.reading === reading) this.reading = null;
      this.startBatch();
    });
  }

  private async readBatch(batch: NonNullable<CartService['batch']>): Promise<void> {
    const tokens: string[] = [];
    const users: string[] = [];
    for (const key of batch.keys()) (key.startsWith('u:') ? users : tokens).push(key.slice(2));
    try {
      this.sharedReads++;
      const r = await prepared(this.database, 'cart-find-many', FIND_MANY, [tokens, users]);
      const found = new Map<string, CartSummary>();
      // Ordered by key, newest first: the first row of a key is its cart.
      for (const row of r.rows) {
        const k = String(row.k);
        if (!found.has(k)) found.set(k, { totalQuantity: n(row.total_quantity) });
      }
      for (const [key, b] of batch) b.settle(found.get(key) ?? null);
    } catch (e) {
      for (const b of batch.values()) b.fail(e);
    }
  }

  /** Finds a cart without locking it (a prepared statement: every page with a cart cookie asks). */
  async find(ident: CartIdent): Promise<CartRow | null> {
    if (!usableIdent(ident)) return null;
    const byUser = Boolean(ident.siteUserId);
    const r = await prepared(this.database, byUser ? 'cart-find-user' : 'cart-find-token', byUser ? FIND_BY_USER : FIND_BY_TOKEN, [
      byUser ? ident.siteUserId : hashToken(ident.token ?? ''),
    ]);
    return r.rows[0] ? cartFrom(r.rows[0]) : null;
  }

  private async lock(tx: Tx, ident: CartIdent): Promise<CartRow | null> {
    if (!usableIdent(ident)) return null;
    const r = await rows<Record<string, unknown>>(
      tx,
      sql`select ${CART_COLUMNS} from carts where ${identWhere(ident)} order by created desc limit 1 for update`,
    );
    return r[0] ? cartFrom(r[0]) : null;
  }

  async lines(db: Db | Tx, cartId: string): Promise<Line[]> {
    if (db === this.db) {
      const p = await prepared(this.database, 'cart-lines', LINES_BY_ID, [cartId]);
      return parseJson<Record<string, unknown>[]>(p.rows[0]?.lines ?? []).map(lineFrom);
    }
    const r = await rows<{ lines: unknown }>(db, sql`select ${LINES_JSON(cartId)} as lines`);
    return parseJson<Record<string, unknown>[]>(r[0]?.lines ?? []).map(lineFrom);
  }

  /**
   * Reads a cart. Every entry shows its variant's price as it is now (sale state included), as checkout
   * charges it, never the price stored when it was added, so the totals are always worked out again from
   * the entries (calculateSubtotal is accepted and changes nothing).
   */
  async read(cart: CartRow | null, currency: string, _opts: { calculateSubtotal?: boolean } = {}): Promise<CartJson> {
    if (!cart) return cartJson(null, [], currency);
    const lines = await this.lines(this.db, cart.id);
    return cartJson({ ...cart, ...totalsOf(lines, cart) }, lines, currency);
  }

  /** A variant with its item; 404 for an unknown or unpublished product, 400 for an unknown sku. */
  private async variant(db: Db | Tx, itemId: string, sku: string, found: VariantInfo | null): Promise<VariantInfo> {
    if (found) return checkVariant(found, null);
    const item = await rows<{ item: unknown }>(db, sql.raw(`select ${itemText(itemId)} as item`));
    return checkVariant(null, parseJson(item[0]?.item ?? null));
  }

  /**
   * Adds a variant to the visitor's cart, creating the cart (and its cookie token) on the first add.
   * Merges into an entry with the same item, sku and additional fields; else adds an entry.
   *
   * Round trips: without a cart, one read and one statement inserting cart and entry together; with a
   * cart, two batches in one transaction: `BEGIN; lock the cart; read entries and product` and
   * `write the entry and the totals; COMMIT`.
   */
  async add(
    websiteId: string,
    ident: CartIdent,
    input: AddInput,
    currency: string,
  ): Promise<{ token: string | undefined; cart: CartJson; newlyAdded: CartEntryJson }> {
    if (!usableIdent(ident)) {
      const r = await rows<{ variant: unknown }>(this.db, sql`select ${VARIANT_JSON(input.itemId, input.sku)} as variant`);
      const v = await this.variant(this.db, input.itemId, input.sku, variantOf(r[0]?.variant));
      const created = this.newCart(websiteId, ident, input, v, currency);
      await this.db.execute(sql.raw(created.text));
      return created.result;
    }
    const key = cartKey(ident);
    const cached = await this.addFromSnapshot(key, ident, input, currency);
    if (cached) return cached;
    const fast = await this.addOptimistic(websiteId, key, ident, input, currency);
    if (fast) return fast;
    this.snapshots.delete(key);
    const where = identText(ident);
    return rawTransaction(this.database, async (tx) => {
      const [locked, read] = await tx.first(
        `select ${CART_COLUMNS_TEXT} from carts where ${where} order by created desc limit 1 for update;` +
          `select ${linesText(`(select id from carts where ${where} order by created desc limit 1)`)} as lines, ${variantText(input.itemId, input.sku)} as variant, ${itemText(input.itemId)} as item`,
      );
      const row = locked?.rows[0];
      const v = checkVariant(variantOf(read?.rows[0]?.variant), parseJson(read?.rows[0]?.item ?? null));
      if (!row) {
        // A stale cookie (the cart was purchased or is unknown): start a new cart.
        const created = this.newCart(websiteId, ident, input, v, currency);
        await tx.last(created.text);
        return created.result;
      }
      const cart = cartFrom(row);
      const lines = parseJson<Record<string, unknown>[]>(read?.rows[0]?.lines ?? []).map(lineFrom);
      assertAdditionalFields(v.structuredContent, input.additionalFields);
      const inCart = variantQuantity(lines, input);
      assertStock(v, inCart, input.quantity);
      assertServiceQuantity(v, inCart + input.quantity, input.multipleServices);

      const same = findMergeableEntry(lines, input);
      let entry: Line;
      let change: string;
      if (same) {
        same.quantity += input.quantity;
        entry = same;
        change = q`update cart_entries set quantity = ${same.quantity} where id = ${same.id} returning id`;
      } else {
        assertRoomForLine(lines);
        const last = lines.reduce((m, l) => Math.max(m, l.created), 0);
        entry = this.lineFor(v, input, newId(), Math.max(Date.now(), last + 1));
        lines.push(entry);
        change = q`insert into cart_entries (id, cart_id, item_id, sku, quantity, additional_fields, purchase_price_cents, created)
          values (${entry.id}, ${cart.id}, ${entry.itemId}, ${entry.sku}, ${entry.quantity}, ${entry.additionalFields}, ${entry.purchasePriceCents}, ${new Date(entry.created)})
          returning id`;
      }
      assertCartAmount(lines, currency);
      const saved = totalsWrite(cart, lines, change);
      await tx.last(saved.text);
      return { token: ident.token, cart: cartJson(saved.cart, lines, currency), newlyAdded: entryJson(entry, currency) };
    });
  }

  /**
   * The add as one prepared statement, from the snapshot this process kept of the cart (after its last add)
   * and of the variant. The write applies only if the cart, variant and item rows are still exactly those
   * versions, so the rules ran on the true state; else (or when a rule refuses on the snapshot, or there is
   * none) null sends the caller to a fresh read.
   */
  private async addFromSnapshot(
    key: string,
    ident: CartIdent,
    input: AddInput,
    currency: string,
  ): Promise<{ token: string | undefined; cart: CartJson; newlyAdded: CartEntryJson } | null> {
    const snap = this.snapshots.get(key);
    const vs = snap && this.variants.get(variantKey(input.itemId, input.sku));
    if (!snap || !vs) return null;
    let planned: ReturnType<typeof planAdd>;
    try {
      planned = planAdd(
        snap.lines.map((l) => ({ ...l })),
        vs.v,
        input,
        currency,
        (id, created) => this.lineFor(vs.v, input, id, created),
      );
    } catch {
      return null; // the fresh read decides (and answers the error) on the true state
    }
    const res = await this.writeAdd(snap.cart, snap.version, vs, planned);
    if (!res) {
      this.snapshots.delete(key);
      this.variants.delete(variantKey(input.itemId, input.sku));
      return null;
    }
    return res.answer(ident, currency);
  }

  /**
   * The add in two prepared statements and no held lock: read the cart (with its row version), lines and
   * variant from one snapshot; apply the same rules as the locked path; then write the entry and the totals
   * in one statement that locks the cart row only if it is still that version. Writes to one cart still
   * serialize on its row: when another write got there first, nothing is written and null sends the caller
   * to the locked transaction. Every write of this service changes the cart row with its entries, so an
   * unchanged row version means unchanged entries.
   */
  private async addOptimistic(
    websiteId: string,
    key: string,
    ident: CartIdent,
    input: AddInput,
    currency: string,
  ): Promise<{ token: string | undefined; cart: CartJson; newlyAdded: CartEntryJson } | null> {
    const byUser = Boolean(ident.siteUserId);
    const read = await prepared(
      this.database,
      byUser ? 'cart-add-read-user' : 'cart-add-read-token',
      byUser ? ADD_READ_BY_USER : ADD_READ_BY_TOKEN,
      [byUser ? ident.siteUserId : hashToken(ident.token ?? ''), input.itemId, input.sku],
    );
    const r = read.rows[0];
    const rawVariant = parseJson<Record<string, unknown> | null>(r?.variant ?? null);
    const v = checkVariant(rawVariant ? variantFrom(rawVariant) : null, parseJson(r?.item ?? null));
    const vs: VariantSnapshot = { v, variantVersion: String(rawVariant?.variantVersion), itemVersion: String(rawVariant?.itemVersion) };
    this.variants.set(variantKey(input.itemId, input.sku), vs);
    const raw = parseJson<Record<string, unknown> | null>(r?.cart ?? null);
    if (!raw) {
      // No open cart for this cookie (purchased or unknown): start a new one, as the locked path does.
      const created = this.newCart(websiteId, ident, input, v, currency);
      await this.db.execute(sql.raw(created.text));
      return created.result;
    }
    const cart = cartFrom(raw);
    const lines = parseJson<Record<string, unknown>[]>(r?.lines ?? []).map(lineFrom);
    const planned = planAdd(lines, v, input, currency, (id, created) => this.lineFor(v, input, id, created));
    const res = await this.writeAdd(cart, String(raw.version), vs, planned);
    if (!res) return null;
    return res.answer(ident, currency);
  }

  /** The guarded write of a planned add; on success the new snapshot is kept for the next add. */
  private async writeAdd(cart: CartRow, version: string, vs: VariantSnapshot, p: PlannedAdd) {
    const t = totalsOf(p.lines, cart);
    const e = p.entry;
    const [name, text, change] = p.merged
      ? ['cart-add-merge', ADD_MERGE, [e.quantity, e.id]]
      : ['cart-add-insert', ADD_INSERT, [e.id, e.quantity, e.additionalFields, e.purchasePriceCents, new Date(e.created)]];
    const w = await prepared(this.database, name, text, [
      cart.id,
      version,
      vs.v.itemId,
      vs.v.sku,
      vs.variantVersion,
      vs.itemVersion,
      t.subtotalCents,
      t.grandTotalCents,
      t.totalQuantity,
      t.hasDigital,
      t.purelyDigital,
      t.requiresShipping,
      ...change,
    ]);
    const row = w.rows[0];
    if (!row) return null;
    const saved: CartRow = { ...cart, ...t };
    return {
      answer: (ident: CartIdent, currency: string) => {
        this.snapshots.set(cartKey(ident), { cart: saved, version: String(row.version), lines: p.lines.map((l) => ({ ...l })) });
        return { token: ident.token, cart: cartJson(saved, p.lines, currency), newlyAdded: entryJson(e, currency) };
      },
    };
  }

  private lineFor(v: VariantInfo, input: AddInput, id: string, created: number): Line {
    return {
      id,
      itemId: v.itemId,
      sku: v.sku,
      quantity: input.quantity,
      additionalFields: input.additionalFields,
      purchasePriceCents: unitPriceCents(v),
      created,
      title: v.title,
      productType: productTypeOf(v.structuredContent),
      urlId: v.urlId,
      fullUrl: v.fullUrl,
      image: v.image,
      attributes: v.attributes,
    };
  }

  /** A new cart with its first entry: the checks, and one statement that inserts both. */
  private newCart(websiteId: string, ident: CartIdent, input: AddInput, v: VariantInfo, currency: string) {
    assertAdditionalFields(v.structuredContent, input.additionalFields);
    assertStock(v, 0, input.quantity);
    assertServiceQuantity(v, input.quantity, input.multipleServices);
    const now = new Date();
    const token = newToken();
    const entry = this.lineFor(v, input, newId(), now.getTime());
    assertCartAmount([entry], currency);
    const base: CartRow = {
      id: newId(),
      websiteId,
      siteUserId: ident.siteUserId ?? null,
      orderId: null,
      isPurchased: false,
      ...zeroTotals,
      created: now,
    };
    const cart: CartRow = { ...base, ...totalsOf([entry], base) };
    const text = q`with c as (
        insert into carts (id, website_id, token_hash, site_user_id, subtotal_cents, tax_cents, shipping_cost_cents, discount_cents,
          grand_total_cents, total_quantity, has_digital, purely_digital, requires_shipping, created, updated)
        values (${cart.id}, ${websiteId}, ${hashToken(token)}, ${cart.siteUserId}, ${cart.subtotalCents}, 0, 0, 0, ${cart.grandTotalCents},
          ${cart.totalQuantity}, ${cart.hasDigital}, ${cart.purelyDigital}, ${cart.requiresShipping}, ${now}, ${now})
        returning id)
      insert into cart_entries (id, cart_id, item_id, sku, quantity, additional_fields, purchase_price_cents, created)
      select ${entry.id}, c.id, ${entry.itemId}, ${entry.sku}, ${entry.quantity}, ${entry.additionalFields}, ${entry.purchasePriceCents}, ${now} from c`;
    return { text, result: { token, cart: cartJson(cart, [entry], currency), newlyAdded: entryJson(entry, currency) } };
  }

  /** Writes an entry change (a statement returning the entry id) and the recomputed totals in one statement. */
  private async saveTotals(tx: Tx, cart: CartRow, lines: Line[], change: string): Promise<CartRow> {
    const w = totalsWrite(cart, lines, change);
    await tx.execute(sql.raw(w.text));
    return w.cart;
  }

  /** Runs fn on the locked cart and its lines; 404 when the visitor has no cart or the entry is not in it. */
  private async withEntry<T>(
    ident: CartIdent,
    entryId: string,
    fn: (tx: Tx, cart: CartRow, lines: Line[], entry: Line) => Promise<T>,
  ): Promise<T> {
    this.snapshots.delete(cartKey(ident));
    return this.db.transaction(async (tx) => {
      const cart = await this.lock(tx, ident);
      if (!cart) throw new HttpError(404, 'There is no shopping cart.');
      const lines = await this.lines(tx, cart.id);
      const entry = lines.find((l) => l.id === entryId);
      if (!entry) throw new HttpError(404, 'That item is no longer in the cart.');
      return fn(tx, cart, lines, entry);
    });
  }

  /** Sets an entry's quantity (1-9999), checking stock against the other entries of the same variant. */
  async updateQuantity(
    ident: CartIdent,
    entryId: string,
    quantity: number,
    currency: string,
    opts: { multipleServices?: boolean } = {},
  ): Promise<{ cart: CartJson; updatedEntry: CartEntryJson }> {
    return this.withEntry(ident, entryId, async (tx, cart, lines, entry) => {
      const r = await rows<{ variant: unknown }>(tx, sql`select ${VARIANT_JSON(entry.itemId, entry.sku)} as variant`);
      const v = await this.variant(tx, entry.itemId, entry.sku, variantOf(r[0]?.variant));
      const others = variantQuantity(lines, entry, entry);
      const raising = quantity > entry.quantity;
      if (raising) {
        assertStock(v, others, quantity);
        assertServiceQuantity(v, others + quantity, opts.multipleServices);
      }
      entry.quantity = quantity;
      // Lowering is always allowed, so a cart an owner's price change took too far can still be brought back.
      if (raising) assertCartAmount(lines, currency);
      const saved = await this.saveTotals(
        tx,
        cart,
        lines,
        q`update cart_entries set quantity = ${quantity} where id = ${entry.id} returning id`,
      );
      return { cart: cartJson(saved, lines, currency), updatedEntry: entryJson(entry, currency) };
    });
  }

  /** Removes an entry. */
  async remove(ident: CartIdent, entryId: string, currency: string): Promise<{ cart: CartJson; removedEntry: CartEntryJson }> {
    return this.withEntry(ident, entryId, async (tx, cart, lines, entry) => {
      const left = lines.filter((l) => l !== entry);
      const saved = await this.saveTotals(tx, cart, left, q`delete from cart_entries where id = ${entry.id} returning id`);
      return { cart: cartJson(saved, left, currency), removedEntry: entryJson(entry, currency) };
    });
  }

  /** Replaces an entry's additional-fields answers, validated against the product's form. */
  async updateAdditionalFields(
    ident: CartIdent,
    entryId: string,
    input: { itemId: string; sku: string; additionalFields: string },
    currency: string,
  ): Promise<{ cart: CartJson; updatedEntry: CartEntryJson }> {
    return this.withEntry(ident, entryId, async (tx, cart, lines, entry) => {
      if (entry.itemId !== input.itemId || entry.sku !== input.sku)
        throw new HttpError(400, 'The itemId and sku do not match that cart entry.');
      const r = await rows<{ variant: unknown }>(tx, sql`select ${VARIANT_JSON(entry.itemId, entry.sku)} as variant`);
      const v = await this.variant(tx, entry.itemId, entry.sku, variantOf(r[0]?.variant));
      assertAdditionalFields(v.structuredContent, input.additionalFields);
      entry.additionalFields = input.additionalFields;
      const saved = await this.saveTotals(
        tx,
        cart,
        lines,
        q`update cart_entries set additional_fields = ${input.additionalFields} where id = ${entry.id} returning id`,
      );
      return { cart: cartJson(saved, lines, currency), updatedEntry: entryJson(entry, currency) };
    });
  }

  /** The additional-fields forms of the given items, by item id (items without a form are left out). */
  async formsFor(itemIds: string[]): Promise<Record<string, { id: string; name?: string; fields: FormField[] }>> {
    const out: Record<string, { id: string; name?: string; fields: FormField[] }> = {};
    const ids = [...new Set(itemIds)];
    if (ids.length === 0) return out;
    const r = await rows<{ id: string; sc: unknown }>(
      this.db,
      sql.raw(
        `select id, ${withReferencedForm('structured_content', 'website_id')} as sc from items where id in (${ids.map((x) => lit(x)).join(', ')})`,
      ),
    );
    for (const row of r) {
      const sc = parseJson<Record<string, unknown>>(row.sc ?? {});
      const form = additionalFieldsFormOf(sc);
      if (form) out[row.id] = form;
    }
    return out;
  }

  /** Stock of every variant of a store item (GET commerce/inventory/stock/). */
  async stock(itemId: string): Promise<Array<{ variantId: string; sku: string; unlimited: boolean; qtyInStock: number }>> {
    const item = await rows<{ record_type: number; status: string }>(
      this.db,
      sql`select record_type, status from items where id = ${itemId}`,
    );
    if (!item[0] || n(item[0].record_type) !== RecordType.STORE_ITEM || item[0].status !== 'published')
      throw new HttpError(404, 'This product is no longer available.');
    const r = await rows<Record<string, unknown>>(
      this.db,
      sql`select id, sku, unlimited, qty_in_stock from product_variants where item_id = ${itemId} order by ordering, id`,
    );
    return r.map((x) => ({
      variantId: String(x.id),
      sku: String(x.sku),
      unlimited: x.unlimited === true,
      qtyInStock: Math.max(0, n(x.qty_in_stock)),
    }));
  }

  /** Stores a single-item subscription cart, apart from the shopping cart; answers its cartToken. */
  async createSubscription(websiteId: string, ident: CartIdent, input: AddInput, currency: string): Promise<{ cartToken: string }> {
    const r = await rows<{ variant: unknown }>(this.db, sql`select ${VARIANT_JSON(input.itemId, input.sku)} as variant`);
    const v = await this.variant(this.db, input.itemId, input.sku, variantOf(r[0]?.variant));
    if (v.structuredContent.isSubscribable !== true) throw new HttpError(400, 'This product is not sold by subscription.');
    assertAdditionalFields(v.structuredContent, input.additionalFields);
    assertStock(v, 0, input.quantity);
    assertServiceQuantity(v, input.quantity, input.multipleServices);
    assertCartAmount([{ purchasePriceCents: unitPriceCents(v), quantity: input.quantity }], currency);
    const cartToken = newToken();
    await this.db
      .execute(sql`insert into subscription_carts (id, website_id, token_hash, site_user_id, item_id, sku, quantity, additional_fields, purchase_price_cents)
      values (${newId()}, ${websiteId}, ${hashToken(cartToken)}, ${ident.siteUserId ?? null}, ${v.itemId}, ${v.sku}, ${input.quantity}, ${input.additionalFields}, ${unitPriceCents(v)})`);
    return { cartToken };
  }

  /** The subscription cart of a cartToken with its product, or null. */
  async findSubscription(
    cartToken: string,
  ): Promise<{ quantity: number; purchasePriceCents: number; additionalFields: string; variant: VariantInfo } | null> {
    if (!cartToken || cartToken.length > 100) return null;
    const r = await rows<Record<string, unknown>>(
      this.db,
      sql`select item_id, sku, quantity, purchase_price_cents, additional_fields from subscription_carts where token_hash = ${hashToken(cartToken)} and is_purchased = false`,
    );
    const s = r[0];
    if (!s) return null;
    const vr = await rows<{ variant: unknown }>(this.db, sql`select ${VARIANT_JSON(String(s.item_id), String(s.sku))} as variant`);
    const raw = parseJson<Record<string, unknown> | null>(vr[0]?.variant ?? null);
    if (!raw) return null;
    return {
      quantity: n(s.quantity),
      purchasePriceCents: n(s.purchase_price_cents),
      additionalFields: String(s.additional_fields ?? ''),
      variant: variantFrom(raw),
    };
  }
}

const zeroTotals = {
  subtotalCents: 0,
  taxCents: 0,
  shippingCostCents: 0,
  discountCents: 0,
  grandTotalCents: 0,
  totalQuantity: 0,
  hasDigital: false,
  purelyDigital: false,
  requiresShipping: false,
};
