/**
 * The checkout service: quotes (totals of a cart with the owner's shipping, tax and coupons), placing an
 * order in one transaction, refunds and fulfilment. The totals come from core/checkout.ts, the same
 * function the checkout page runs.
 *
 * Placing an order:
 *   1. outside any transaction: read the cart, work out the totals, check the obvious (email, address,
 *      minimum subtotal, stock as it is now), and charge the payment through the provider (a provider is
 *      outside this machine and never waits on our locks);
 *   2. one transaction: insert the order row under its idempotency key (a duplicate waits on the unique
 *      index and then answers the first order), lock the cart, work the totals out again, decrement stock
 *      with a guard that never lets it go below 0, use the coupons and gift card, mark the cart purchased,
 *      issue gift cards and subscriptions, and queue the confirmation email;
 *   3. after the commit, kick the mailer. If the transaction fails, the payment is voided.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, Db, Tx } from '../../db/index.js';
import { hashToken, newId } from '../../db/ids.js';
import { rows } from '../db-util.js';
import { HttpError, badRequest, conflict, notFound } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import type { PaymentMethodInput, PaymentProviders } from '../payments/provider.js';
import {
  computeCheckout,
  normalizeCouponCode,
  type CheckoutLine,
  type CheckoutTotals,
  type Coupon,
  type CouponKind,
  type ShippingKind,
  type ShippingOption,
  type TaxRule,
} from '../../core/checkout.js';
import { ProductType } from '../../core/enums.js';
import { cart as cartMessages, commerce, forms as formMessages } from '../../core/messages.js';
import { formatMoney, money, moneyDecimalString } from '../../core/money.js';
import { isValidEmail } from '../../core/forms.js';
import { orderFulfilledHooks } from './order-hooks.js';

type Obj = Record<string, unknown>;
const n = (v: unknown) => Number(v ?? 0);
const parse = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

export const checkoutMessages = {
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
  NOT_SUBSCRIBABLE: 'This product is not sold by subscription.',
} as const;

/** How long a download link works. */
export const DOWNLOAD_TTL_MS = 24 * 3600 * 1000;

export interface Address {
  name: string;
  line1: string;
  line2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
}

export interface CheckoutState {
  email?: string;
  shippingAddress?: Partial<Address> | null;
  selectedShippingOptionId?: string | null;
  coupons?: string[];
  giftCardCode?: string | null;
}

/** A cart line with what checkout needs of its variant. */
export interface OrderLine {
  entryId: string;
  itemId: string;
  variantId: string | null;
  sku: string;
  title: string;
  quantity: number;
  unitPriceCents: number;
  productType: number;
  weightGrams: number;
  unlimited: boolean;
  qtyInStock: number;
  available: boolean;
  attributes: Record<string, string>;
  additionalFields: string;
  image: Obj | null;
  structuredContent: Obj;
}

/** Which cart a checkout is for: the shopping cart (by cookie) or a subscription cart (by its token). */
export type CartRef = { kind: 'cart'; id: string } | { kind: 'subscription'; id: string };

export interface CheckoutView {
  cart: Obj;
  state: CheckoutState;
  /** The inputs of the totals, so the page computes the same totals as the server. */
  pricing: {
    lines: CheckoutLine[];
    shippingOptions: ShippingOption[];
    taxRules: TaxRule[];
    coupons: Coupon[];
    giftCardBalanceCents: number;
  };
  currency: string;
  subscription: Obj | null;
}

const LINES_SQL = (cartId: string) => sql`
  select e.id, e.item_id, e.sku, e.quantity, e.additional_fields, e.purchase_price_cents, i.title, i.structured_content as sc,
    i.status, i.record_type, i.assets -> 0 as image, v.id as variant_id, v.weight_grams, v.unlimited, v.qty_in_stock, v.attributes
  from cart_entries e
  left join items i on i.id = e.item_id
  left join product_variants v on v.item_id = e.item_id and v.sku = e.sku
  where e.cart_id = ${cartId}
  order by e.created, e.id`;

const SUB_LINE_SQL = (subId: string) => sql`
  select s.id, s.item_id, s.sku, s.quantity, s.additional_fields, s.purchase_price_cents, i.title, i.structured_content as sc,
    i.status, i.record_type, i.assets -> 0 as image, v.id as variant_id, v.weight_grams, v.unlimited, v.qty_in_stock, v.attributes
  from subscription_carts s
  left join items i on i.id = s.item_id
  left join product_variants v on v.item_id = s.item_id and v.sku = s.sku
  where s.id = ${subId}`;

function lineFrom(r: Obj): OrderLine {
  const sc = parse<Obj | null>(r.sc) ?? {};
  const t = Number(sc.productType);
  return {
    entryId: String(r.id),
    itemId: String(r.item_id),
    variantId: r.variant_id ? String(r.variant_id) : null,
    sku: String(r.sku),
    title: String(r.title ?? ''),
    quantity: n(r.quantity),
    unitPriceCents: n(r.purchase_price_cents),
    productType: Number.isInteger(t) && t > 0 ? t : ProductType.PHYSICAL,
    weightGrams: n(r.weight_grams),
    unlimited: r.unlimited === true,
    qtyInStock: n(r.qty_in_stock),
    available: !!r.variant_id && r.status === 'published' && n(r.record_type) === 11,
    attributes: parse<Record<string, string> | null>(r.attributes) ?? {},
    additionalFields: String(r.additional_fields ?? ''),
    image: parse<Obj | null>(r.image) ?? null,
    structuredContent: sc,
  };
}

/** Products whose stock is counted: physical and service (digital and gift cards never sell out). */
const stocked = (l: Pick<OrderLine, 'productType'>) => l.productType === ProductType.PHYSICAL || l.productType === ProductType.SERVICE;

function optionFrom(r: Obj): ShippingOption {
  return {
    id: String(r.id),
    name: String(r.name),
    kind: String(r.kind) as ShippingKind,
    priceCents: n(r.price_cents),
    freeAboveCents: n(r.free_above_cents),
    weightRates: parse<ShippingOption['weightRates']>(r.weight_rates) ?? [],
    countries: parse<string[]>(r.countries) ?? [],
  };
}

function taxRuleFrom(r: Obj): TaxRule {
  return {
    id: String(r.id),
    name: String(r.name),
    country: String(r.country),
    region: String(r.region ?? ''),
    rateBasisPoints: n(r.rate_basis_points),
    appliesToShipping: r.applies_to_shipping === true,
  };
}

function couponFrom(r: Obj): Coupon {
  return {
    code: String(r.code),
    kind: String(r.kind) as CouponKind,
    percentBasisPoints: n(r.percent_basis_points),
    amountCents: n(r.amount_cents),
    minSubtotalCents: n(r.min_subtotal_cents),
    expiresAt: r.expires_at ? new Date(r.expires_at as string).getTime() : null,
    usageLimit: n(r.usage_limit),
    timesUsed: n(r.times_used),
  };
}

/** A money value of a purchase confirmation: minor units, currency and the exact decimal value. */
export function moneyWithDecimal(cents: number, currency: string) {
  return { ...money(cents, currency), decimalValue: moneyDecimalString(cents, currency) };
}

export interface OrderRow {
  id: string;
  websiteId: string;
  orderNumber: number;
  idempotencyKey: string;
  cartId: string;
  cartKind: string;
  status: string;
  testMode: boolean;
  email: string;
  shippingAddress: Partial<Address> | null;
  items: Array<Obj>;
  currency: string;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  grandTotalCents: number;
  giftCardCents: number;
  giftCardId: string | null;
  shippingOption: Obj | null;
  coupons: string[];
  taxRules: Obj[];
  payment: Obj | null;
  created: Date;
  fulfilledAt: Date | null;
  refundedAt: Date | null;
}

function orderFrom(r: Obj): OrderRow {
  const d = (v: unknown) => (v ? new Date(v as string) : null);
  return {
    id: String(r.id),
    websiteId: String(r.website_id),
    orderNumber: n(r.order_number),
    idempotencyKey: String(r.idempotency_key),
    cartId: String(r.cart_id),
    cartKind: String(r.cart_kind),
    status: String(r.status),
    testMode: r.test_mode === true,
    email: String(r.email),
    shippingAddress: parse<Partial<Address> | null>(r.shipping_address) ?? null,
    items: parse<Obj[]>(r.items) ?? [],
    currency: String(r.currency),
    subtotalCents: n(r.subtotal_cents),
    discountCents: n(r.discount_cents),
    shippingCents: n(r.shipping_cents),
    taxCents: n(r.tax_cents),
    grandTotalCents: n(r.grand_total_cents),
    giftCardCents: n(r.gift_card_cents),
    giftCardId: (r.gift_card_id as string | null) ?? null,
    shippingOption: parse<Obj | null>(r.shipping_option) ?? null,
    coupons: parse<string[]>(r.coupons) ?? [],
    taxRules: parse<Obj[]>(r.tax_rules) ?? [],
    payment: parse<Obj | null>(r.payment) ?? null,
    created: d(r.created)!,
    fulfilledAt: d(r.fulfilled_at),
    refundedAt: d(r.refunded_at),
  };
}

/** The purchase confirmation of storefront.md: every money value with its decimal value. */
export function purchaseConfirmation(o: OrderRow) {
  const m = (c: number) => moneyWithDecimal(c, o.currency);
  return {
    id: o.id,
    orderNumber: o.orderNumber,
    purchasedCartId: o.cartId,
    testMode: o.testMode,
    websiteId: o.websiteId,
    status: o.status,
    items: o.items.map((i) => ({ sku: String(i.sku), productName: String(i.productName), quantity: n(i.quantity), unitPrice: m(n(i.unitPriceCents)) })),
    subtotal: m(o.subtotalCents),
    discountTotal: m(o.discountCents),
    shippingTotal: m(o.shippingCents),
    taxTotal: m(o.taxCents),
    giftCardTotal: m(o.giftCardCents),
    grandTotal: m(o.grandTotalCents),
  };
}

export type PlaceResult =
  | { status: 'paid'; order: OrderRow; duplicate: boolean }
  | { status: 'requires_action'; paymentId: string; brand: string; last4: string; amountDueCents: number };

export interface PlaceInput {
  websiteId: string;
  currency: string;
  siteTitle: string;
  origin: string;
  ref: CartRef;
  state: CheckoutState;
  payment: PaymentMethodInput | null;
  key: string;
  minimumOrderSubtotalCents: number;
  now?: number;
}

class Duplicate extends Error {}

export class CheckoutService {
  private secret: Buffer | null = null;

  constructor(
    private readonly database: Database,
    private readonly providers: PaymentProviders,
    private readonly mailer: Mailer,
  ) {}

  private get db(): Db {
    return this.database.db;
  }

  // ---- Signed links ----------------------------------------------------------------------------

  /** The install's signing key for order and download links (made once, kept in system_values). */
  async loadSecret(): Promise<Buffer> {
    if (this.secret) return this.secret;
    await this.db.execute(sql`insert into system_values (key, value) values ('checkout_link_secret', ${randomBytes(32).toString('hex')}) on conflict (key) do nothing`);
    const r = await rows<{ value: string }>(this.db, sql`select value from system_values where key = 'checkout_link_secret'`);
    this.secret = Buffer.from(r[0]!.value, 'hex');
    return this.secret;
  }

  sign(text: string): string {
    if (!this.secret) throw new Error('signing key not loaded');
    return createHmac('sha256', this.secret).update(text).digest('base64url').slice(0, 32);
  }

  verify(text: string, sig: unknown): boolean {
    if (typeof sig !== 'string' || sig.length !== 32) return false;
    const a = Buffer.from(this.sign(text));
    const b = Buffer.from(sig);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  orderToken(orderId: string): string {
    return this.sign(`order:${orderId}`);
  }

  confirmationPath(o: Pick<OrderRow, 'id' | 'cartKind'>): string {
    return `${o.cartKind === 'subscription' ? '/subscription-confirmed' : '/order-confirmed'}/${o.id}?t=${this.orderToken(o.id)}`;
  }

  statusPath(orderId: string): string {
    return `/order-status/${orderId}?t=${this.orderToken(orderId)}`;
  }

  downloadPath(orderId: string, index: number, now = Date.now()): string {
    const expires = now + DOWNLOAD_TTL_MS;
    return `/order-download/${orderId}/${index}?expires=${expires}&t=${this.sign(`download:${orderId}:${index}:${expires}`)}`;
  }

  verifyDownload(orderId: string, index: number, expires: number, sig: unknown, now = Date.now()): 'ok' | 'expired' | 'bad' {
    if (!this.verify(`download:${orderId}:${index}:${expires}`, sig)) return 'bad';
    return now > expires ? 'expired' : 'ok';
  }

  // ---- Store data --------------------------------------------------------------------------------

  async shippingOptions(db: Db | Tx, websiteId: string): Promise<ShippingOption[]> {
    const r = await rows<Obj>(db, sql`select * from shipping_options where website_id = ${websiteId} and enabled order by ordering, created_at, id`);
    return r.map(optionFrom);
  }

  async taxRules(db: Db | Tx, websiteId: string): Promise<TaxRule[]> {
    const r = await rows<Obj>(db, sql`select * from tax_rules where website_id = ${websiteId} order by country, region, id`);
    return r.map(taxRuleFrom);
  }

  async couponsFor(db: Db | Tx, websiteId: string, codes: readonly string[]): Promise<Coupon[]> {
    const list = [...new Set(codes.map(normalizeCouponCode).filter(Boolean))].slice(0, 20);
    if (list.length === 0) return [];
    const r = await rows<Obj>(
      db,
      sql`select * from coupons where website_id = ${websiteId} and enabled and code in (${sql.join(
        list.map((c) => sql`${c}`),
        sql`, `,
      )})`,
    );
    return r.map(couponFrom);
  }

  async giftCard(db: Db | Tx, websiteId: string, code: string | null | undefined): Promise<{ id: string; code: string; balanceCents: number } | null> {
    const c = normalizeGiftCardCode(code ?? '');
    if (!c) return null;
    const r = await rows<Obj>(db, sql`select id, code, balance_cents from gift_cards where website_id = ${websiteId} and code = ${c} and not disabled`);
    return r[0] ? { id: String(r[0].id), code: String(r[0].code), balanceCents: n(r[0].balance_cents) } : null;
  }

  // ---- Carts -------------------------------------------------------------------------------------

  async lines(db: Db | Tx, ref: CartRef): Promise<OrderLine[]> {
    const r = await rows<Obj>(db, ref.kind === 'cart' ? LINES_SQL(ref.id) : SUB_LINE_SQL(ref.id));
    return r.map(lineFrom);
  }

  /** A subscription cart by its cartToken (open or purchased). */
  async subscriptionCart(token: string): Promise<{ id: string; isPurchased: boolean } | null> {
    if (!token || token.length > 100) return null;
    const r = await rows<Obj>(this.db, sql`select id, is_purchased from subscription_carts where token_hash = ${hashToken(token)}`);
    return r[0] ? { id: String(r[0].id), isPurchased: r[0].is_purchased === true } : null;
  }

  async cartHasToken(cartId: string, token: string): Promise<boolean> {
    if (token.length > 100) return false;
    const r = await rows<{ id: string }>(this.db, sql`select id from carts where id = ${cartId} and token_hash = ${hashToken(token)}`);
    return r.length === 1;
  }

  /** The saved checkout state of a shopping cart. */
  async savedState(cartId: string): Promise<CheckoutState> {
    const r = await rows<{ checkout: unknown }>(this.db, sql`select checkout from carts where id = ${cartId}`);
    return (parse<CheckoutState | null>(r[0]?.checkout) ?? {}) as CheckoutState;
  }

  private async totals(db: Db | Tx, websiteId: string, currency: string, lines: OrderLine[], state: CheckoutState, now: number) {
    // One after another: inside a transaction they share one connection.
    const shippingOptions = await this.shippingOptions(db, websiteId);
    const taxRules = await this.taxRules(db, websiteId);
    const coupons = await this.couponsFor(db, websiteId, state.coupons ?? []);
    const giftCard = await this.giftCard(db, websiteId, state.giftCardCode);
    const pricingLines: CheckoutLine[] = lines.map((l) => ({ priceCents: l.unitPriceCents, quantity: l.quantity, weightGrams: l.weightGrams, productType: l.productType }));
    const addr = state.shippingAddress;
    const totals = computeCheckout(
      {
        lines: pricingLines,
        shippingOptions,
        selectedShippingOptionId: state.selectedShippingOptionId ?? null,
        location: addr?.country ? { country: addr.country, region: addr.region ?? '' } : null,
        taxRules,
        couponCodes: state.coupons ?? [],
        coupons,
        giftCardBalanceCents: giftCard?.balanceCents ?? 0,
        now,
      },
      (c) => formatMoney(c, currency),
    );
    return { totals, giftCard, pricing: { lines: pricingLines, shippingOptions, taxRules, coupons, giftCardBalanceCents: giftCard?.balanceCents ?? 0 } };
  }

  /** The checkout of a cart: its lines, the state the visitor entered, and every total. */
  async view(websiteId: string, currency: string, ref: CartRef | null, state: CheckoutState, now = Date.now()): Promise<CheckoutView> {
    const lines = ref ? await this.lines(this.db, ref) : [];
    const { totals, pricing } = await this.totals(this.db, websiteId, currency, lines, state, now);
    let subscription: Obj | null = null;
    if (ref?.kind === 'subscription' && lines[0]) subscription = { plan: lines[0].structuredContent.subscriptionPlan ?? null };
    return { cart: this.cartJson(ref, lines, state, totals, currency), state, pricing, currency, subscription };
  }

  cartJson(ref: CartRef | null, lines: OrderLine[], state: CheckoutState, t: CheckoutTotals, currency: string): Obj {
    const digital = lines.filter((l) => l.productType === ProductType.DIGITAL || l.productType === ProductType.GIFT_CARD).length;
    const addr = state.shippingAddress;
    return {
      id: ref?.id ?? null,
      entries: lines.map((l) => ({
        id: l.entryId,
        itemId: l.itemId,
        chosenVariant: { sku: l.sku, attributes: l.attributes },
        quantity: l.quantity,
        title: l.title,
        purchasePriceCents: l.unitPriceCents,
        subTotal: money(l.unitPriceCents * l.quantity, currency),
        subTotalCents: l.unitPriceCents * l.quantity,
        productType: l.productType,
        image: l.image,
      })),
      shippingOptions: t.shippingOptions,
      selectedShippingOption: t.selectedShippingOption,
      shippingLocation: addr?.country ? { country: addr.country, region: addr.region ?? '' } : null,
      applicableTaxRules: t.applicableTaxRules,
      coupons: state.coupons ?? [],
      validCoupons: t.validCoupons.map((c) => c.code),
      invalidCoupons: t.invalidCoupons,
      subtotalCents: t.subtotalCents,
      discountCents: t.discountCents,
      shippingCostCents: t.shippingCostCents,
      taxCents: t.taxCents,
      grandTotalCents: t.grandTotalCents,
      giftCardCents: t.giftCardCents,
      amountDueCents: t.amountDueCents,
      totalQuantity: lines.reduce((s, l) => s + l.quantity, 0),
      hasDigital: digital > 0,
      purelyDigital: lines.length > 0 && digital === lines.length,
      requiresShipping: t.requiresShipping,
      isPurchased: false,
    };
  }

  /** Saves what the visitor entered on a shopping cart, with the totals it gives; answers the view. */
  async quote(websiteId: string, currency: string, ref: CartRef | null, state: CheckoutState, now = Date.now()): Promise<CheckoutView> {
    const v = await this.view(websiteId, currency, ref, state, now);
    if (ref?.kind === 'cart') {
      const c = v.cart;
      await this.db.execute(sql`update carts set checkout = ${JSON.stringify(state)}::jsonb, tax_cents = ${n(c.taxCents)}, shipping_cost_cents = ${n(c.shippingCostCents)},
        discount_cents = ${n(c.discountCents)}, grand_total_cents = ${n(c.grandTotalCents)}, updated = now() where id = ${ref.id} and not is_purchased`);
    }
    return v;
  }

  // ---- Orders ------------------------------------------------------------------------------------

  async orderByKey(db: Db | Tx, websiteId: string, key: string): Promise<OrderRow | null> {
    const r = await rows<Obj>(db, sql`select * from orders where website_id = ${websiteId} and idempotency_key = ${key}`);
    return r[0] ? orderFrom(r[0]) : null;
  }

  async order(id: string): Promise<OrderRow | null> {
    if (!/^[0-9a-f]{24}$/.test(id)) return null;
    const r = await rows<Obj>(this.db, sql`select * from orders where id = ${id}`);
    return r[0] ? orderFrom(r[0]) : null;
  }

  /** Checks what can be checked before any money moves; 400 with the spec's words. */
  private precheck(lines: OrderLine[], t: CheckoutTotals, state: CheckoutState, input: PlaceInput) {
    if (lines.length === 0) throw badRequest(checkoutMessages.EMPTY_CART);
    const errors: Record<string, string> = {};
    if (!state.email || !isValidEmail(state.email)) errors.email = state.email ? formMessages.INVALID_EMAIL : formMessages.REQUIRED;
    if (t.requiresShipping) {
      const a = state.shippingAddress ?? {};
      for (const f of ['name', 'line1', 'city', 'postalCode', 'country'] as const) if (!String(a[f] ?? '').trim()) errors[`shippingAddress.${f}`] = formMessages.REQUIRED;
    }
    if (Object.keys(errors).length > 0) throw badRequest(cartMessages.UPDATE_MISSING_INFO, errors);
    if (t.requiresShipping && !t.selectedShippingOption) throw badRequest(checkoutMessages.NO_SHIPPING, { shippingOption: checkoutMessages.NO_SHIPPING });
    if (input.ref.kind === 'cart' && input.minimumOrderSubtotalCents > 0 && t.subtotalCents < input.minimumOrderSubtotalCents) {
      throw badRequest(cartMessages.minimumSubtotal(formatMoney(input.minimumOrderSubtotalCents, input.currency)));
    }
    for (const l of lines) {
      if (!l.available) throw badRequest(checkoutMessages.UNAVAILABLE);
      if (stocked(l) && !l.unlimited && l.qtyInStock < l.quantity) throw badRequest(commerce.NOT_ENOUGH_STOCK);
    }
    if (input.ref.kind === 'subscription' && lines[0]?.structuredContent.isSubscribable !== true) throw badRequest(checkoutMessages.NOT_SUBSCRIBABLE);
    if (state.giftCardCode && t.giftCardCents === 0 && t.grandTotalCents > 0) throw badRequest(checkoutMessages.GIFT_CARD_UNKNOWN, { giftCardCode: checkoutMessages.GIFT_CARD_UNKNOWN });
  }

  /** Places an order (see the file comment). */
  async place(input: PlaceInput): Promise<PlaceResult> {
    const now = input.now ?? Date.now();
    await this.loadSecret();
    const existing = await this.orderByKey(this.db, input.websiteId, input.key);
    if (existing) return this.duplicateOf(existing, input.ref);

    const state = input.state;
    const lines = await this.lines(this.db, input.ref);
    const { totals, giftCard } = await this.totals(this.db, input.websiteId, input.currency, lines, state, now);
    if (state.giftCardCode && !giftCard) throw badRequest(checkoutMessages.GIFT_CARD_UNKNOWN, { giftCardCode: checkoutMessages.GIFT_CARD_UNKNOWN });
    this.precheck(lines, totals, state, input);

    // The payment: charged before the transaction, voided if the order cannot be made.
    let payment: { provider: string; paymentId: string; brand: string; last4: string } | null = null;
    const provider = input.payment ? this.providers.forMethod(input.payment) : this.providers.defaultProvider;
    if (totals.amountDueCents > 0) {
      if (!input.payment || !provider) throw new HttpError(402, checkoutMessages.PAYMENT_REQUIRED, { cardNumber: checkoutMessages.PAYMENT_REQUIRED });
      const r = await provider.charge({
        amountCents: totals.amountDueCents,
        currency: input.currency,
        method: input.payment,
        idempotencyKey: input.key,
        description: `${input.siteTitle} order`,
        now,
      });
      if (r.status === 'declined') throw new HttpError(402, r.message, r.errors);
      if (r.status === 'requires_action') return { status: 'requires_action', paymentId: r.paymentId, brand: r.brand, last4: r.last4, amountDueCents: totals.amountDueCents };
      payment = { provider: provider.name, paymentId: r.paymentId, brand: r.brand, last4: r.last4 };
    }

    try {
      const order = await this.db.transaction((tx) => this.commitOrder(tx, input, payment, provider?.testMode ?? true, now));
      this.mailer.kick();
      return { status: 'paid', order, duplicate: false };
    } catch (e) {
      if (e instanceof Duplicate) {
        const first = await this.orderByKey(this.db, input.websiteId, input.key);
        if (first) return this.duplicateOf(first, input.ref);
      }
      if (payment && provider) {
        const again = await this.orderByKey(this.db, input.websiteId, input.key);
        // Void the payment unless an order (a concurrent twin of this attempt) holds it.
        if (!again || (again.payment as Obj | null)?.paymentId !== payment.paymentId) await provider.refund(payment.paymentId).catch(() => undefined);
      }
      throw e;
    }
  }

  private duplicateOf(order: OrderRow, ref: CartRef): PlaceResult {
    if (order.cartId !== ref.id) throw conflict(checkoutMessages.KEY_REUSED);
    return { status: 'paid', order, duplicate: true };
  }

  private async commitOrder(tx: Tx, input: PlaceInput, payment: Obj | null, testMode: boolean, now: number): Promise<OrderRow> {
    const { websiteId, ref, state, currency } = input;
    const orderId = newId();
    // 1. The idempotency key: a concurrent twin waits here until this transaction ends.
    const ins = await rows<{ id: string }>(
      tx,
      sql`insert into orders (id, website_id, idempotency_key, cart_id, cart_kind, email, currency, test_mode)
        values (${orderId}, ${websiteId}, ${input.key}, ${ref.id}, ${ref.kind}, ${state.email ?? ''}, ${currency}, ${testMode})
        on conflict (website_id, idempotency_key) do nothing returning id`,
    );
    if (ins.length === 0) throw new Duplicate();

    // 2. The cart, locked.
    const cartRow = await rows<{ is_purchased: boolean }>(
      tx,
      ref.kind === 'cart'
        ? sql`select is_purchased from carts where id = ${ref.id} for update`
        : sql`select is_purchased from subscription_carts where id = ${ref.id} for update`,
    );
    if (!cartRow[0]) throw notFound(checkoutMessages.NO_CART);
    if (cartRow[0].is_purchased) throw conflict(checkoutMessages.ALREADY_PURCHASED);

    // 3. The totals again, as they are now; the payment must match them.
    const lines = await this.lines(tx, ref);
    const { totals: t, giftCard } = await this.totals(tx, websiteId, currency, lines, state, now);
    this.precheckInTx(lines);
    const paidByCard = payment ? t.amountDueCents : 0;
    if (t.amountDueCents !== paidByCard) throw new HttpError(409, checkoutMessages.TOTAL_CHANGED);

    // 4. Stock, with a guard that never lets it go below 0 (variants in id order, so two orders never deadlock).
    const need = new Map<string, number>();
    for (const l of lines) if (stocked(l) && l.variantId) need.set(l.variantId, (need.get(l.variantId) ?? 0) + l.quantity);
    for (const [variantId, qty] of [...need].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const r = await rows<{ id: string }>(
        tx,
        sql`update product_variants set qty_in_stock = qty_in_stock - ${qty} where id = ${variantId} and (unlimited or qty_in_stock >= ${qty}) returning id`,
      );
      if (r.length !== 1) throw badRequest(commerce.NOT_ENOUGH_STOCK);
    }

    // 5. Coupons (usage limits) and the gift card (balance).
    for (const c of [...t.validCoupons].sort((a, b) => (a.code < b.code ? -1 : 1))) {
      const r = await rows<{ id: string }>(
        tx,
        sql`update coupons set times_used = times_used + 1 where website_id = ${websiteId} and code = ${c.code} and (usage_limit = 0 or times_used < usage_limit) returning id`,
      );
      if (r.length !== 1) throw badRequest(checkoutMessages.COUPON_USED_UP, { coupons: checkoutMessages.COUPON_USED_UP });
    }
    if (giftCard && t.giftCardCents > 0) {
      const r = await rows<{ id: string }>(
        tx,
        sql`update gift_cards set balance_cents = balance_cents - ${t.giftCardCents} where id = ${giftCard.id} and not disabled and balance_cents >= ${t.giftCardCents} returning id`,
      );
      if (r.length !== 1) throw new HttpError(409, checkoutMessages.GIFT_CARD_CHANGED);
    }

    // 6. The cart is purchased.
    if (ref.kind === 'cart') {
      await tx.execute(sql`update carts set is_purchased = true, order_id = ${orderId}, checkout = ${JSON.stringify(state)}::jsonb, subtotal_cents = ${t.subtotalCents},
        tax_cents = ${t.taxCents}, shipping_cost_cents = ${t.shippingCostCents}, discount_cents = ${t.discountCents}, grand_total_cents = ${t.grandTotalCents}, updated = now()
        where id = ${ref.id}`);
    } else {
      await tx.execute(sql`update subscription_carts set is_purchased = true where id = ${ref.id}`);
    }

    // 7. Gift cards bought, and the subscription.
    const issued: Array<{ code: string; cents: number }> = [];
    for (const l of lines) {
      if (l.productType !== ProductType.GIFT_CARD) continue;
      for (let i = 0; i < l.quantity; i++) {
        const code = giftCardCode();
        issued.push({ code, cents: l.unitPriceCents });
        await tx.execute(sql`insert into gift_cards (id, website_id, code, initial_cents, balance_cents, order_id)
          values (${newId()}, ${websiteId}, ${code}, ${l.unitPriceCents}, ${l.unitPriceCents}, ${orderId})`);
      }
    }
    if (ref.kind === 'subscription') {
      const l = lines[0]!;
      const plan = (l.structuredContent.subscriptionPlan ?? {}) as { billingPeriod?: { value?: number; unit?: string }; numBillingCycles?: number };
      const unit = ['WEEK', 'MONTH', 'YEAR'].includes(String(plan.billingPeriod?.unit)) ? String(plan.billingPeriod!.unit) : 'MONTH';
      await tx.execute(sql`insert into subscriptions (id, website_id, order_id, item_id, sku, quantity, price_cents, billing_period, billing_period_value, num_billing_cycles, email)
        values (${newId()}, ${websiteId}, ${orderId}, ${l.itemId}, ${l.sku}, ${l.quantity}, ${l.unitPriceCents}, ${unit}, ${Math.max(1, Math.trunc(n(plan.billingPeriod?.value) || 1))},
          ${Math.max(0, Math.trunc(n(plan.numBillingCycles)))}, ${state.email ?? ''})`);
    }

    // 8. The order itself.
    const items = lines.map((l) => ({
      itemId: l.itemId,
      variantId: l.variantId,
      sku: l.sku,
      productName: l.title,
      quantity: l.quantity,
      unitPriceCents: l.unitPriceCents,
      productType: l.productType,
      attributes: l.attributes,
      additionalFields: l.additionalFields,
      digitalFile: l.productType === ProductType.DIGITAL ? (l.structuredContent.digitalFile ?? null) : undefined,
    }));
    const addr = t.requiresShipping ? normalizeAddress(state.shippingAddress) : null;
    const sel = t.selectedShippingOption;
    const r = await rows<Obj>(
      tx,
      sql`update orders set email = ${state.email ?? ''}, shipping_address = ${addr ? JSON.stringify(addr) : null}::jsonb, items = ${JSON.stringify(items)}::jsonb,
        subtotal_cents = ${t.subtotalCents}, discount_cents = ${t.discountCents}, shipping_cents = ${t.shippingCostCents}, tax_cents = ${t.taxCents},
        grand_total_cents = ${t.grandTotalCents}, gift_card_cents = ${t.giftCardCents}, gift_card_id = ${giftCard && t.giftCardCents > 0 ? giftCard.id : null},
        shipping_option = ${sel ? JSON.stringify({ id: sel.id, name: sel.name, costCents: sel.costCents }) : null}::jsonb,
        coupons = ${JSON.stringify(t.validCoupons.map((c) => c.code))}::jsonb,
        tax_rules = ${JSON.stringify(t.applicableTaxRules.map((x) => ({ id: x.id, name: x.name, taxCents: x.taxCents })))}::jsonb,
        payment = ${payment ? JSON.stringify(payment) : JSON.stringify({ provider: t.giftCardCents > 0 ? 'gift_card' : 'none' })}::jsonb,
        status = 'paid'
        where id = ${orderId} returning *`,
    );
    const order = orderFrom(r[0]!);

    // 9. The confirmation email, delivered after the commit.
    await this.mailer.enqueue(tx, this.confirmationEmail(order, input, issued, now));
    return order;
  }

  private precheckInTx(lines: OrderLine[]) {
    if (lines.length === 0) throw badRequest(checkoutMessages.EMPTY_CART);
    for (const l of lines) if (!l.available) throw badRequest(checkoutMessages.UNAVAILABLE);
  }

  confirmationEmail(o: OrderRow, input: Pick<PlaceInput, 'origin' | 'siteTitle'>, giftCards: Array<{ code: string; cents: number }>, now: number) {
    const f = (c: number) => formatMoney(c, o.currency);
    const lines: string[] = [`Thank you for your order #${o.orderNumber} from ${input.siteTitle}.`, ''];
    for (const i of o.items) lines.push(`${n(i.quantity)} x ${String(i.productName)} (${String(i.sku)}) — ${f(n(i.unitPriceCents) * n(i.quantity))}`);
    lines.push('', `Subtotal: ${f(o.subtotalCents)}`);
    if (o.discountCents > 0) lines.push(`Discount: -${f(o.discountCents)}`);
    if (o.shippingOption) lines.push(`Shipping (${String(o.shippingOption.name)}): ${f(o.shippingCents)}`);
    lines.push(`Tax: ${f(o.taxCents)}`);
    if (o.giftCardCents > 0) lines.push(`Paid by gift card: ${f(o.giftCardCents)}`);
    lines.push(`Total: ${f(o.grandTotalCents)}`);
    o.items.forEach((i, idx) => {
      if (n(i.productType) === ProductType.DIGITAL) lines.push('', `Download ${String(i.productName)} (the link works for 24 hours): ${input.origin}${this.downloadPath(o.id, idx, now)}`);
    });
    for (const g of giftCards) lines.push('', `Gift card code: ${g.code} (${f(g.cents)})`);
    lines.push('', `Order status: ${input.origin}${this.statusPath(o.id)}`);
    if (o.testMode) lines.push('', 'This was a test-mode order: no money was taken.');
    return { kind: 'order-confirmation', to: o.email, subject: `Your order #${o.orderNumber} from ${input.siteTitle}`, text: lines.join('\n'), ref: o.id };
  }

  async giftCardsOf(orderId: string): Promise<Array<{ code: string; initialCents: number; balanceCents: number; disabled: boolean }>> {
    const r = await rows<Obj>(this.db, sql`select code, initial_cents, balance_cents, disabled from gift_cards where order_id = ${orderId} order by created, id`);
    return r.map((x) => ({ code: String(x.code), initialCents: n(x.initial_cents), balanceCents: n(x.balance_cents), disabled: x.disabled === true }));
  }

  async subscriptionOf(orderId: string): Promise<Obj | null> {
    const r = await rows<Obj>(this.db, sql`select * from subscriptions where order_id = ${orderId}`);
    const s = r[0];
    if (!s) return null;
    return {
      id: s.id,
      itemId: s.item_id,
      sku: s.sku,
      quantity: n(s.quantity),
      priceCents: n(s.price_cents),
      billingPeriod: s.billing_period,
      billingPeriodValue: n(s.billing_period_value),
      numBillingCycles: n(s.num_billing_cycles),
      status: s.status,
    };
  }

  // ---- Owner actions -----------------------------------------------------------------------------

  async listOrders(websiteId: string, opts: { status?: string; limit: number; before?: number }): Promise<OrderRow[]> {
    const r = await rows<Obj>(
      this.db,
      sql`select * from orders where website_id = ${websiteId} and status <> 'pending'
        ${opts.status ? sql`and status = ${opts.status}` : sql``}
        ${opts.before ? sql`and order_number < ${opts.before}` : sql``}
        order by order_number desc limit ${opts.limit}`,
    );
    return r.map(orderFrom);
  }

  async fulfil(websiteId: string, orderId: string): Promise<OrderRow> {
    const done = await this.db.transaction(async (tx) => {
      const r = await rows<Obj>(tx, sql`update orders set status = 'fulfilled', fulfilled_at = now() where id = ${orderId} and website_id = ${websiteId} and status = 'paid' returning *`);
      if (!r[0]) return null;
      const order = orderFrom(r[0]);
      for (const hook of orderFulfilledHooks) await hook(tx, order);
      return order;
    });
    if (done) return done;
    const o = await this.order(orderId);
    if (!o || o.websiteId !== websiteId) throw notFound('That order does not exist.');
    throw conflict(o.status === 'fulfilled' ? 'This order is already fulfilled.' : 'A refunded order cannot be fulfilled.');
  }

  /** Refunds an order: money back through the provider, then stock, coupons and gift cards restored in one transaction. */
  async refund(websiteId: string, orderId: string): Promise<OrderRow> {
    const o = await this.order(orderId);
    if (!o || o.websiteId !== websiteId || o.status === 'pending') throw notFound('That order does not exist.');
    if (o.status === 'refunded') throw conflict('This order is already refunded.');
    const pay = o.payment ?? {};
    const provider = typeof pay.provider === 'string' ? this.providers.get(pay.provider) : undefined;
    if (provider && typeof pay.paymentId === 'string') await provider.refund(pay.paymentId);
    return this.db.transaction(async (tx) => {
      const r = await rows<Obj>(tx, sql`update orders set status = 'refunded', refunded_at = now() where id = ${orderId} and status <> 'refunded' returning *`);
      if (!r[0]) throw conflict('This order is already refunded.');
      const order = orderFrom(r[0]);
      const back = new Map<string, number>();
      for (const i of order.items) if (stocked({ productType: n(i.productType) }) && i.variantId) back.set(String(i.variantId), (back.get(String(i.variantId)) ?? 0) + n(i.quantity));
      for (const [variantId, qty] of [...back].sort(([a], [b]) => (a < b ? -1 : 1))) {
        await tx.execute(sql`update product_variants set qty_in_stock = qty_in_stock + ${qty} where id = ${variantId} and not unlimited`);
      }
      for (const code of [...order.coupons].sort()) {
        await tx.execute(sql`update coupons set times_used = greatest(0, times_used - 1) where website_id = ${websiteId} and code = ${code}`);
      }
      if (order.giftCardId && order.giftCardCents > 0) {
        await tx.execute(sql`update gift_cards set balance_cents = balance_cents + ${order.giftCardCents} where id = ${order.giftCardId}`);
      }
      await tx.execute(sql`update gift_cards set disabled = true, balance_cents = 0 where order_id = ${orderId}`);
      await tx.execute(sql`update subscriptions set status = 'canceled' where order_id = ${orderId}`);
      return order;
    });
  }
}

/** A gift card code as typed (any case, with or without spaces and dashes) in its stored shape. */
export function normalizeGiftCardCode(code: string): string {
  const s = code.toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 32);
  return s.length === 16 ? `${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8, 12)}-${s.slice(12)}` : s;
}

/** A gift card code: 16 letters and digits without look-alikes, in groups of four. */
function giftCardCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(16);
  let s = '';
  for (let i = 0; i < 16; i++) s += alphabet[bytes[i]! % alphabet.length];
  return `${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8, 12)}-${s.slice(12)}`;
}

export function normalizeAddress(a: Partial<Address> | null | undefined): Address {
  const s = (v: unknown) => String(v ?? '').trim();
  return {
    name: s(a?.name),
    line1: s(a?.line1),
    line2: s(a?.line2),
    city: s(a?.city),
    region: s(a?.region).toUpperCase(),
    postalCode: s(a?.postalCode),
    country: s(a?.country).toUpperCase(),
  };
}
