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
import type { Address, CheckoutPricing } from '../../core/api/checkout.js';
import type { OrderRow } from '../../core/orders.js';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, Db, Tx } from '../../db/index.js';
import { hashToken, newId } from '../../db/ids.js';
import { rows } from '../db-util.js';
import { HttpError, badRequest, conflict, notFound } from '../errors.js';
import type { Mailer } from '../mail/index.js';
import type { PaymentMethodInput, PaymentProvider, PaymentProviders, ProviderPayment, SubscriptionCharge } from '../payments/index.js';
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
import { ProductType, Role } from '../../core/enums.js';
import { cart as cartMessages, checkoutMessages, commerce, forms as formMessages } from '../../core/messages.js';
import { checkedAddress, formatAddress } from '../site-page/index.js';
import { cartAmountTooLarge } from '../../core/cart.js';
import { formatMoney, money, moneyDecimalString } from '../../core/money.js';
import { isValidEmail } from '../../core/forms.js';
import { isInstalmentEligiblePrice } from '../../core/instalments.js';
import { orderFulfilledHooks, orderPlacedHooks } from './order-hooks.js';
import { crashPoint } from '../crash-points.js';

type Obj = Record<string, unknown>;
const n = (v: unknown) => Number(v ?? 0);
const parse = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

/** How long a download link works. */
export const DOWNLOAD_TTL_MS = 24 * 3600 * 1000;

export type { Address };

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
  pricing: CheckoutPricing;
  currency: string;
  subscription: Obj | null;
}

/** A checkout line's columns, read from a cart row (`table` as `a`) joined to its item and variant. */
const lineRows = (table: 'cart_entries' | 'subscription_carts', a: 'e' | 's') =>
  sql.raw(`select ${a}.id, ${a}.item_id, ${a}.sku, ${a}.quantity, ${a}.additional_fields, ${a}.purchase_price_cents, i.title,
    i.structured_content as sc, i.status, i.record_type, i.assets -> 0 as image, v.id as variant_id, v.weight_grams, v.unlimited,
    v.qty_in_stock, v.attributes, v.price_cents, v.sale_price_cents, v.on_sale
  from ${table} ${a}
  left join items i on i.id = ${a}.item_id
  left join product_variants v on v.item_id = ${a}.item_id and v.sku = ${a}.sku`);

const LINES_SQL = (cartId: string) => sql`${lineRows('cart_entries', 'e')}
  where e.cart_id = ${cartId}
  order by e.created, e.id`;

const SUB_LINE_SQL = (subId: string) => sql`${lineRows('subscription_carts', 's')}
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
    // The price is the variant's as it is now (its sale state included), never the one stored when the
    // item was added: carts live 30 days. A line whose variant is gone keeps its stored price and is
    // refused as unavailable anyway.
    unitPriceCents: r.variant_id ? (r.on_sale === true ? n(r.sale_price_cents) : n(r.price_cents)) : n(r.purchase_price_cents),
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
    appliesToGiftCards: r.applies_to_gift_cards === true,
  };
}

/** A money value of a purchase confirmation: minor units, currency and the exact decimal value. */
export function moneyWithDecimal(cents: number, currency: string) {
  return { ...money(cents, currency), decimalValue: moneyDecimalString(cents, currency) };
}

export function orderFrom(r: Obj): OrderRow {
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
    fulfilmentStatus: String(r.fulfilment_status ?? 'unfulfilled'),
    refundedCents: n(r.refunded_cents),
  };
}

/** The purchase confirmation: every money value with its decimal value. */
export function purchaseConfirmation(o: OrderRow) {
  const m = (c: number) => moneyWithDecimal(c, o.currency);
  return {
    id: o.id,
    orderNumber: o.orderNumber,
    purchasedCartId: o.cartId,
    testMode: o.testMode,
    websiteId: o.websiteId,
    status: o.status,
    items: o.items.map((i) => ({
      sku: String(i.sku),
      productName: String(i.productName),
      quantity: n(i.quantity),
      unitPrice: m(n(i.unitPriceCents)),
    })),
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
  | {
      status: 'requires_action';
      paymentId: string;
      brand: string;
      last4: string;
      amountDueCents: number;
      clientSecret?: string;
      redirectUrl?: string;
    };

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
  /**
   * The grand total the shopper saw and confirmed (minor units). When it differs from the server's total
   * as it is now, nothing is charged: 409 with the new quote, and the shopper confirms again.
   */
  expectedTotalCents?: number | null;
  /** The page's locale: the language the address's subdivision names are matched in. */
  locale?: string;
  now?: number;
}

/** Where a payment method that leaves the page (a bank's 3-D Secure page, Afterpay) sends the shopper back. */
export const PAYMENT_RETURN_PATH = '/checkout/payment-return';

/** The instalment offer for a cart's lines (null: not offered), set by the area that knows the owner's settings. */
export type InstalmentOfferFn = (currency: string, ref: CartRef, lines: OrderLine[]) => Promise<{ min: string; max: string } | null>;

/** What a payment attempt keeps to make its order again (the reconciler): PlaceInput without the payment method. */
type StoredInput = Omit<PlaceInput, 'payment' | 'now'>;

/** A charge that went through, as the order stores it. */
interface Payment {
  provider: string;
  paymentId: string;
  brand: string;
  last4: string;
  amountCents: number;
}

class Duplicate extends Error {}

/**
 * Settles an open payment attempt of another area whose payment the provider holds (nothing held is voided
 * by reconcile itself): what it recorded or refunded, or null when another process had settled it.
 */
export type AttemptSettler = (
  attempt: { id: string; input: unknown; amountCents: number },
  provider: PaymentProvider,
  paid: ProviderPayment,
) => Promise<'completed' | 'voided' | null>;

export class CheckoutService {
  private secret: Buffer | null = null;
  private readonly settlers = new Map<string, AttemptSettler>();
  /** Whether a cart may be paid in instalments (set by the Stripe area; null: never). */
  instalmentOffer: InstalmentOfferFn | null = null;
  /** Providers that bill subscriptions themselves (Stripe Billing) cancel them there: provider name -> cancel by the provider's id. */
  readonly subscriptionCancelers = new Map<string, (providerSubscriptionId: string) => Promise<void>>();

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
    await this.db.execute(
      sql`insert into system_values (key, value) values ('checkout_link_secret', ${randomBytes(32).toString('hex')}) on conflict (key) do nothing`,
    );
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
    const r = await rows<Obj>(
      db,
      sql`select * from shipping_options where website_id = ${websiteId} and enabled order by ordering, created_at, id`,
    );
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

  async giftCard(
    db: Db | Tx,
    websiteId: string,
    code: string | null | undefined,
  ): Promise<{ id: string; code: string; balanceCents: number } | null> {
    const c = normalizeGiftCardCode(code ?? '');
    if (!c) return null;
    const r = await rows<Obj>(
      db,
      sql`select id, code, balance_cents from gift_cards where website_id = ${websiteId} and code = ${c} and not disabled`,
    );
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
    const pricingLines: CheckoutLine[] = lines.map((l) => ({
      priceCents: l.unitPriceCents,
      quantity: l.quantity,
      weightGrams: l.weightGrams,
      productType: l.productType,
    }));
    const addr = state.shippingAddress;
    // Shipping and tax rules name regions by their subdivision code: a region given by its name counts as its code.
    const region = addr?.country ? checkedAddress(addr, 'en').address.region : '';
    const totals = computeCheckout(
      {
        lines: pricingLines,
        shippingOptions,
        selectedShippingOptionId: state.selectedShippingOptionId ?? null,
        location: addr?.country ? { country: addr.country.toUpperCase(), region } : null,
        taxRules,
        couponCodes: state.coupons ?? [],
        coupons,
        giftCardBalanceCents: giftCard?.balanceCents ?? 0,
        now,
      },
      (c) => formatMoney(c, currency),
    );
    return {
      totals,
      giftCard,
      pricing: { lines: pricingLines, shippingOptions, taxRules, coupons, giftCardBalanceCents: giftCard?.balanceCents ?? 0 },
    };
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
      await this.db
        .execute(sql`update carts set checkout = ${JSON.stringify(state)}::jsonb, tax_cents = ${n(c.taxCents)}, shipping_cost_cents = ${n(c.shippingCostCents)},
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

  /** Checks what can be checked before any money moves; 400 with the message of core/messages.ts. */
  private precheck(lines: OrderLine[], t: CheckoutTotals, state: CheckoutState, input: PlaceInput) {
    if (lines.length === 0) throw badRequest(checkoutMessages.EMPTY_CART);
    if (cartAmountTooLarge(t.subtotalCents, input.currency) || cartAmountTooLarge(t.grandTotalCents, input.currency))
      throw badRequest(cartMessages.CART_TOTAL_TOO_LARGE);
    const errors: Record<string, string> = {};
    if (!state.email || !isValidEmail(state.email)) errors.email = state.email ? formMessages.INVALID_EMAIL : formMessages.REQUIRED;
    if (t.requiresShipping) {
      // The address in its country's format (server/site-page/address-formats.ts): required parts, the
      // subdivision from the country's list, the postcode's pattern. What passes is stored normalised.
      const { address, errors: wrong } = checkedAddress(state.shippingAddress, input.locale ?? 'en');
      for (const [part, message] of Object.entries(wrong)) errors[`shippingAddress.${part}`] = message;
      if (Object.keys(wrong).length === 0) state.shippingAddress = address;
    }
    if (Object.keys(errors).length > 0) throw badRequest(cartMessages.UPDATE_MISSING_INFO, errors);
    if (t.requiresShipping && !t.selectedShippingOption)
      throw badRequest(checkoutMessages.NO_SHIPPING, { shippingOption: checkoutMessages.NO_SHIPPING });
    if (input.ref.kind === 'cart' && input.minimumOrderSubtotalCents > 0 && t.subtotalCents < input.minimumOrderSubtotalCents) {
      throw badRequest(cartMessages.minimumSubtotal(formatMoney(input.minimumOrderSubtotalCents, input.currency)));
    }
    for (const l of lines) {
      if (!l.available) throw badRequest(checkoutMessages.UNAVAILABLE);
      if (stocked(l) && !l.unlimited && l.qtyInStock < l.quantity) throw badRequest(commerce.NOT_ENOUGH_STOCK);
    }
    if (input.ref.kind === 'subscription' && lines[0]?.structuredContent.isSubscribable !== true)
      throw badRequest(checkoutMessages.NOT_SUBSCRIBABLE);
    // A known card (unknown ones are refused before) that pays nothing of a total due has no balance left.
    if (state.giftCardCode && t.giftCardCents === 0 && t.grandTotalCents > 0)
      throw badRequest(checkoutMessages.GIFT_CARD_EMPTY, { giftCardCode: checkoutMessages.GIFT_CARD_EMPTY });
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
    if (state.giftCardCode && !giftCard)
      throw badRequest(checkoutMessages.GIFT_CARD_UNKNOWN, { giftCardCode: checkoutMessages.GIFT_CARD_UNKNOWN });
    this.precheck(lines, totals, state, input);
    // The shopper confirmed a total, always (issue 38: without one, whatever the total had become was charged):
    // a price, a sale or a coupon that changed since then stops the payment, and the answer carries the new
    // quote so the page shows the new total for a second confirmation.
    if (input.expectedTotalCents === undefined || input.expectedTotalCents === null)
      throw badRequest(checkoutMessages.CONFIRM_TOTAL, { expectedTotalCents: checkoutMessages.CONFIRM_TOTAL });
    if (input.expectedTotalCents !== totals.grandTotalCents) {
      const f = (c: number) => formatMoney(c, input.currency);
      const quote = await this.view(input.websiteId, input.currency, input.ref, state, now);
      throw new HttpError(409, checkoutMessages.totalChanged(f(totals.grandTotalCents), f(input.expectedTotalCents)), undefined, {
        code: 'total_changed',
        confirmedTotalCents: input.expectedTotalCents,
        grandTotalCents: totals.grandTotalCents,
        quote,
      });
    }

    // The payment: an attempt row first (so a crash after the charge is found and reconciled), then the
    // charge outside any transaction, then the order; the payment is voided if the order cannot be made.
    let payment: Payment | null = null;
    let attemptId: string | null = null;
    const provider = input.payment ? this.providers.forMethod(input.payment) : this.providers.defaultProvider;
    if (totals.amountDueCents > 0) {
      if (!input.payment || !provider)
        throw new HttpError(402, checkoutMessages.PAYMENT_REQUIRED, { cardNumber: checkoutMessages.PAYMENT_REQUIRED });
      try {
        attemptId = await this.openAttempt(input, provider.name, totals.amountDueCents);
      } catch (e) {
        // The attempt of this key already made its order (a retry that raced the first answer).
        const first = e instanceof Duplicate ? await this.orderByKey(this.db, input.websiteId, input.key) : null;
        if (first) return this.duplicateOf(first, input.ref);
        throw e;
      }
      const openId = attemptId;
      // Instalments (Afterpay/Clearpay at Stripe) only where the page offered them: owner, cart and limits.
      const offer = input.ref.kind === 'cart' && this.instalmentOffer ? await this.instalmentOffer(input.currency, input.ref, lines) : null;
      const instalments = !!offer && isInstalmentEligiblePrice(totals.amountDueCents, offer.min, offer.max);
      const sa = totals.requiresShipping ? (state.shippingAddress ?? null) : null;
      const shipping = sa
        ? {
            name: String(sa.name ?? ''),
            line1: String(sa.line1 ?? ''),
            line2: String(sa.line2 ?? ''),
            city: String(sa.city ?? ''),
            region: String(sa.region ?? ''),
            postalCode: String(sa.postalCode ?? ''),
            country: String(sa.country ?? '').toUpperCase(),
          }
        : null;
      let r;
      try {
        r = await provider.charge({
          amountCents: totals.amountDueCents,
          currency: input.currency,
          method: input.payment,
          idempotencyKey: input.key,
          description: `${input.siteTitle} order`,
          now,
          attemptId: openId,
          instalments,
          shipping,
          returnUrl: `${input.origin}${PAYMENT_RETURN_PATH}`,
          subscription: input.ref.kind === 'subscription' ? subscriptionCharge(lines[0]!, state.email ?? '') : undefined,
          // A two-step provider (Stripe) records its payment id before any money moves.
          onPaymentCreated: async (paymentId) => {
            await this.db.execute(
              sql`update payment_attempts set payment_id = ${paymentId}, updated = now() where id = ${openId} and state in ('created', 'charged')`,
            );
          },
        });
      } catch (e) {
        // The provider could not be reached (or failed on its side): the attempt stays open, and the
        // reconciler settles whatever the provider did (completes the order or gives the money back).
        if (e instanceof HttpError) throw e;
        throw new HttpError(503, checkoutMessages.PROVIDER_UNREACHABLE);
      }
      if (r.status === 'declined') {
        await this.closeAttempt(attemptId, 'voided', null, 'declined');
        throw new HttpError(402, r.message, r.errors);
      }
      if (r.status === 'requires_action') {
        await this.db.execute(sql`update payment_attempts set payment_id = ${r.paymentId}, updated = now() where id = ${attemptId}`);
        return {
          status: 'requires_action',
          paymentId: r.paymentId,
          brand: r.brand,
          last4: r.last4,
          amountDueCents: totals.amountDueCents,
          clientSecret: r.clientSecret,
          redirectUrl: r.redirectUrl,
        };
      }
      crashPoint('after-charge');
      payment = { provider: provider.name, paymentId: r.paymentId, brand: r.brand, last4: r.last4, amountCents: totals.amountDueCents };
      const marked = await rows<{ id: string }>(
        this.db,
        sql`update payment_attempts set state = 'charged', payment_id = ${r.paymentId}, updated = now() where id = ${attemptId} and state in ('created', 'charged') returning id`,
      );
      if (marked.length === 0) {
        // Closed while the charge was under way: by a twin request with the same key that made the order
        // (the provider answered both with one payment), or voided by the reconciler, which saw no payment
        // then; the money is given back in that case only.
        const now2 = await rows<{ state: string }>(this.db, sql`select state from payment_attempts where id = ${attemptId}`);
        const first = now2[0]?.state === 'completed' ? await this.orderByKey(this.db, input.websiteId, input.key) : null;
        if (first) return this.duplicateOf(first, input.ref);
        await provider.refund(r.paymentId);
        throw new HttpError(409, checkoutMessages.ATTEMPT_CLOSED);
      }
    }

    try {
      const order = await this.db.transaction((tx) => this.commitOrder(tx, input, payment, provider?.testMode ?? true, now, attemptId));
      this.mailer.kick();
      return { status: 'paid', order, duplicate: false };
    } catch (e) {
      if (e instanceof Duplicate) {
        const first = await this.orderByKey(this.db, input.websiteId, input.key);
        if (first) return this.duplicateOf(first, input.ref);
      }
      if (payment && provider && attemptId)
        await this.voidAttempt(attemptId, provider, payment.paymentId, e instanceof Error ? e.message : 'order failed');
      throw e;
    }
  }

  /**
   * The first half of place() for a payment taken on the provider's own page (Stripe Checkout, no JavaScript
   * needed): the same totals, checks and confirmed-total rule, then the payment attempt recorded before the
   * provider is called. The order is made when the provider says the payment succeeded (settlePayment).
   */
  async prepareHosted(
    input: PlaceInput,
    providerName: string,
  ): Promise<{ attemptId: string; lines: OrderLine[]; totals: CheckoutTotals } | { order: OrderRow }> {
    const now = input.now ?? Date.now();
    await this.loadSecret();
    const existing = await this.orderByKey(this.db, input.websiteId, input.key);
    if (existing) {
      this.duplicateOf(existing, input.ref);
      return { order: existing };
    }
    const lines = await this.lines(this.db, input.ref);
    const { totals, giftCard } = await this.totals(this.db, input.websiteId, input.currency, lines, input.state, now);
    if (input.state.giftCardCode && !giftCard)
      throw badRequest(checkoutMessages.GIFT_CARD_UNKNOWN, { giftCardCode: checkoutMessages.GIFT_CARD_UNKNOWN });
    this.precheck(lines, totals, input.state, input);
    if (
      input.expectedTotalCents !== undefined &&
      input.expectedTotalCents !== null &&
      input.expectedTotalCents !== totals.grandTotalCents
    ) {
      const f = (c: number) => formatMoney(c, input.currency);
      throw new HttpError(409, checkoutMessages.totalChanged(f(totals.grandTotalCents), f(input.expectedTotalCents)), undefined, {
        code: 'total_changed',
        confirmedTotalCents: input.expectedTotalCents,
        grandTotalCents: totals.grandTotalCents,
      });
    }
    if (totals.amountDueCents <= 0) throw badRequest(checkoutMessages.NOTHING_DUE);
    try {
      return { attemptId: await this.openAttempt(input, providerName, totals.amountDueCents), lines, totals };
    } catch (e) {
      const first = e instanceof Duplicate ? await this.orderByKey(this.db, input.websiteId, input.key) : null;
      if (first) return { order: first };
      throw e;
    }
  }

  /** The order a payment attempt made, once it made one. */
  async orderOfAttempt(attemptId: string): Promise<OrderRow | null> {
    const r = await rows<{ order_id: string | null }>(
      this.db,
      sql`select order_id from payment_attempts where id = ${attemptId} and state = 'completed'`,
    );
    return r[0]?.order_id ? this.order(r[0].order_id) : null;
  }

  // ---- Payment attempts --------------------------------------------------------------------------

  /** Records (or re-opens, for a retry with the same key) the attempt before any call to the provider. */
  private async openAttempt(input: PlaceInput, providerName: string, amountCents: number): Promise<string> {
    const stored: StoredInput = {
      websiteId: input.websiteId,
      currency: input.currency,
      siteTitle: input.siteTitle,
      origin: input.origin,
      ref: input.ref,
      state: input.state,
      key: input.key,
      minimumOrderSubtotalCents: input.minimumOrderSubtotalCents,
      expectedTotalCents: input.expectedTotalCents ?? null,
    };
    const r = await rows<{ id: string; state: string }>(
      this.db,
      sql`insert into payment_attempts (id, website_id, idempotency_key, state, provider, amount_cents, currency, input)
        values (${newId()}, ${input.websiteId}, ${input.key}, 'created', ${providerName}, ${amountCents}, ${input.currency}, ${JSON.stringify(stored)}::jsonb)
        on conflict (website_id, idempotency_key) do update set
          state = case when payment_attempts.state in ('completed', 'charged') then payment_attempts.state else 'created' end,
          provider = excluded.provider, amount_cents = excluded.amount_cents, currency = excluded.currency, input = excluded.input, note = null, updated = now()
        returning id, state`,
    );
    if (r[0]!.state === 'completed') throw new Duplicate();
    return r[0]!.id;
  }

  /** Moves an open attempt to a final state; false when it was no longer open (another process closed it). */
  private async closeAttempt(
    id: string,
    to: 'voided' | 'completed',
    orderId: string | null,
    note: string | null,
    db: Db | Tx = this.db,
    paymentId: string | null = null,
  ): Promise<boolean> {
    const r = await rows<{ id: string }>(
      db,
      sql`update payment_attempts set state = ${to}, order_id = ${orderId}, note = ${note}, payment_id = coalesce(${paymentId}, payment_id), updated = now()
        where id = ${id} and state in ('created', 'charged') returning id`,
    );
    return r.length === 1;
  }

  /** Voids an attempt and gives its money back (only the process that closes the attempt refunds). */
  private async voidAttempt(
    id: string,
    provider: { refund(paymentId: string): Promise<unknown> },
    paymentId: string,
    note: string,
  ): Promise<boolean> {
    if (!(await this.closeAttempt(id, 'voided', null, note.slice(0, 200), this.db, paymentId))) return false;
    await provider.refund(paymentId);
    return true;
  }

  /** Another area's payment attempts (input.kind = kind) are settled by its own settler; see reconcile. */
  registerAttemptSettler(kind: string, settle: AttemptSettler): void {
    this.settlers.set(kind, settle);
  }

  /**
   * The payment reconciler's pass: every attempt still open (created or charged) and untouched for longer
   * than olderThanMs is settled. The provider is asked for the payment the attempt's key made: nothing held
   * means the attempt is voided; a payment held means the order is made now, exactly as place-order would
   * have made it (same totals, stock and coupon checks, the confirmed total included), or, when that is no
   * longer possible, the payment is refunded. Safe to run in several processes at once: every move out of
   * an open state is one conditional update, so one process settles an attempt. An attempt of another area
   * (input.kind) is looked up the same way; a held payment goes to that area's settler.
   */
  async reconcile(olderThanMs: number, now = Date.now()): Promise<{ completed: number; voided: number }> {
    const open = await rows<Obj>(
      this.db,
      sql`select id, provider, idempotency_key, amount_cents, input, payment_id from payment_attempts
        where state in ('created', 'charged') and updated < ${new Date(now - olderThanMs).toISOString()}::timestamptz
        order by updated limit 100`,
    );
    let completed = 0;
    let voided = 0;
    await this.loadSecret();
    for (const a of open) {
      const r = await this.settleAttempt(a, now);
      if (r === 'completed') completed++;
      if (r === 'voided') voided++;
    }
    return { completed, voided };
  }

  /**
   * Settles one open attempt (see reconcile): asks its provider for the payment, then voids the attempt,
   * makes its order, or gives the money back. Also used when a provider's event says a payment succeeded.
   */
  async settleAttempt(a: Obj, now = Date.now()): Promise<'completed' | 'voided' | null> {
    const id = String(a.id);
    const provider = this.providers.get(String(a.provider));
    if (!provider) return null; // a provider this install no longer has: left for the owner
    // An attempt of another area (input.kind, e.g. a donation) is settled by that area's settler.
    const kind = parse<{ kind?: unknown }>(a.input).kind;
    const settle = kind === undefined ? null : this.settlers.get(String(kind));
    if (kind !== undefined && !settle) return null; // its area is not loaded in this process
    const paid = await provider.lookup(String(a.idempotency_key), (a.payment_id as string | null | undefined) ?? null);
    if (!paid || paid.status !== 'succeeded') {
      // Nothing held (declined, refunded, never made, or still waiting on the shopper's bank: a later
      // retry with the same key opens the attempt again). A payment still waiting is cancelled where the
      // provider can, so it can no longer take money for an attempt that is closed.
      if (await this.closeAttempt(id, 'voided', null, paid ? `payment ${paid.status}` : 'no payment')) {
        if (paid && paid.status === 'requires_action') await provider.cancel?.(paid.paymentId);
        return 'voided';
      }
      return null;
    }
    if (settle) return settle({ id, input: parse<unknown>(a.input), amountCents: n(a.amount_cents) }, provider, paid);
    const input = { ...parse<StoredInput>(a.input), payment: null } as PlaceInput;
    const payment: Payment = {
      provider: provider.name,
      paymentId: paid.paymentId,
      brand: paid.brand,
      last4: paid.last4,
      amountCents: paid.amountCents,
    };
    try {
      await this.db.transaction(async (tx) => {
        if (paid.amountCents !== n(a.amount_cents)) throw new HttpError(409, checkoutMessages.TOTAL_CHANGED);
        const lines = await this.lines(tx, input.ref);
        const { totals } = await this.totals(tx, input.websiteId, input.currency, lines, input.state, now);
        if (
          input.expectedTotalCents !== undefined &&
          input.expectedTotalCents !== null &&
          input.expectedTotalCents !== totals.grandTotalCents
        ) {
          throw new HttpError(409, checkoutMessages.TOTAL_CHANGED);
        }
        await this.commitOrder(tx, input, payment, provider.testMode, now, id);
      });
      this.mailer.kick();
      return 'completed';
    } catch (e) {
      // Duplicate: the order exists (its own transaction closed the attempt), nothing to settle.
      if (e instanceof Duplicate) return null;
      if (await this.voidAttempt(id, provider, paid.paymentId, `reconciler: ${e instanceof Error ? e.message : 'order failed'}`))
        return 'voided';
      return null;
    }
  }

  /**
   * A provider says a payment succeeded (a webhook): the attempt it belongs to is settled now, whoever
   * comes first (the shopper's return or the event); one order either way. A payment whose attempt is
   * already closed without it (voided, or completed by another payment) is given back.
   */
  async settlePayment(
    providerName: string,
    paymentId: string,
    attemptId: string | null,
    now = Date.now(),
  ): Promise<'completed' | 'voided' | 'refunded' | null> {
    const found = await rows<Obj>(
      this.db,
      attemptId
        ? sql`select id, provider, idempotency_key, amount_cents, input, payment_id, state from payment_attempts where id = ${attemptId} and provider = ${providerName}`
        : sql`select id, provider, idempotency_key, amount_cents, input, payment_id, state from payment_attempts where payment_id = ${paymentId} and provider = ${providerName}`,
    );
    const a = found[0];
    const provider = this.providers.get(providerName);
    if (!provider) return null;
    if (!a) return null;
    if (a.state === 'completed') {
      if (a.payment_id === paymentId) return null;
      // The attempt made its order with another payment: this one is a second charge.
      await provider.refund(paymentId);
      return 'refunded';
    }
    if (a.state === 'voided' || a.payment_id !== paymentId) {
      // Closed before this payment succeeded (e.g. a bank step finished after the reconciler gave up), or
      // a replaced payment of the same attempt: open again with this payment, then settled like any other.
      const reopened = await rows<{ id: string }>(
        this.db,
        sql`update payment_attempts set state = 'charged', payment_id = ${paymentId}, updated = now() where id = ${a.id} and state in ('voided', 'created', 'charged') returning id`,
      );
      if (reopened.length === 0) return null;
      a.payment_id = paymentId;
    }
    await this.loadSecret();
    return this.settleAttempt(a, now);
  }

  private duplicateOf(order: OrderRow, ref: CartRef): PlaceResult {
    if (order.cartId !== ref.id) throw conflict(checkoutMessages.KEY_REUSED);
    return { status: 'paid', order, duplicate: true };
  }

  private async commitOrder(
    tx: Tx,
    input: PlaceInput,
    payment: Payment | null,
    testMode: boolean,
    now: number,
    attemptId: string | null = null,
  ): Promise<OrderRow> {
    const { websiteId, ref, state, currency } = input;
    const orderId = newId();
    // 0. The payment attempt, closed in this transaction (its row stays locked to the commit): a reconciler
    // that settled it first wins, and this order is not made.
    if (attemptId) {
      const a = await rows<{ state: string }>(tx, sql`select state from payment_attempts where id = ${attemptId} for update`);
      if (a[0]?.state === 'completed') throw new Duplicate();
      if (!(await this.closeAttempt(attemptId, 'completed', orderId, null, tx, payment?.paymentId ?? null)))
        throw new HttpError(409, checkoutMessages.ATTEMPT_CLOSED);
    }
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
    // What the provider took must be exactly what is due now (a coupon used up, a price or balance changed).
    const paidByCard = payment ? payment.amountCents : 0;
    if (t.amountDueCents !== paidByCard) throw new HttpError(409, checkoutMessages.TOTAL_CHANGED);

    // 4. Stock, with a guard that never lets it go below 0 (variants in id order, so two orders never deadlock).
    // An unlimited variant is only checked to exist: its count is not a stock and is left as it is (issue 38).
    const need = new Map<string, number>();
    for (const l of lines) if (stocked(l) && l.variantId) need.set(l.variantId, (need.get(l.variantId) ?? 0) + l.quantity);
    for (const [variantId, qty] of [...need].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const r = await rows<{ id: string }>(
        tx,
        sql`update product_variants set qty_in_stock = case when unlimited then qty_in_stock else qty_in_stock - ${qty} end
          where id = ${variantId} and (unlimited or qty_in_stock >= ${qty}) returning id`,
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
      const plan = (l.structuredContent.subscriptionPlan ?? {}) as {
        billingPeriod?: { value?: number; unit?: string };
        numBillingCycles?: number;
      };
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
    for (const hook of orderPlacedHooks(this.database)) await hook(tx, order);
    return order;
  }

  private precheckInTx(lines: OrderLine[]) {
    if (lines.length === 0) throw badRequest(checkoutMessages.EMPTY_CART);
    for (const l of lines) if (!l.available) throw badRequest(checkoutMessages.UNAVAILABLE);
  }

  confirmationEmail(
    o: OrderRow,
    input: Pick<PlaceInput, 'origin' | 'siteTitle' | 'locale'>,
    giftCards: Array<{ code: string; cents: number }>,
    now: number,
  ) {
    const f = (c: number) => formatMoney(c, o.currency);
    const lines: string[] = [`Thank you for your order #${o.orderNumber} from ${input.siteTitle}.`, ''];
    for (const i of o.items)
      lines.push(`${n(i.quantity)} x ${String(i.productName)} (${String(i.sku)}) — ${f(n(i.unitPriceCents) * n(i.quantity))}`);
    lines.push('', `Subtotal: ${f(o.subtotalCents)}`);
    if (o.discountCents > 0) lines.push(`Discount: -${f(o.discountCents)}`);
    if (o.shippingOption) lines.push(`Shipping (${String(o.shippingOption.name)}): ${f(o.shippingCents)}`);
    lines.push(`Tax: ${f(o.taxCents)}`);
    if (o.giftCardCents > 0) lines.push(`Paid by gift card: ${f(o.giftCardCents)}`);
    lines.push(`Total: ${f(o.grandTotalCents)}`);
    // The address as its country writes it (core/address-format.ts), as the confirmation page shows it.
    const shipTo = formatAddress(o.shippingAddress, input.locale ?? 'en');
    if (shipTo.length) lines.push('', 'Shipping to:', ...shipTo);
    o.items.forEach((i, idx) => {
      if (n(i.productType) === ProductType.DIGITAL)
        lines.push(
          '',
          `Download ${String(i.productName)} (the link works for 24 hours): ${input.origin}${this.downloadPath(o.id, idx, now)}`,
        );
    });
    for (const g of giftCards) lines.push('', `Gift card code: ${g.code} (${f(g.cents)})`);
    lines.push('', `Order status: ${input.origin}${this.statusPath(o.id)}`);
    if (o.testMode) lines.push('', 'This was a test-mode order: no money was taken.');
    return {
      kind: 'order-confirmation',
      to: o.email,
      subject: `Your order #${o.orderNumber} from ${input.siteTitle}`,
      text: lines.join('\n'),
      ref: o.id,
    };
  }

  async giftCardsOf(orderId: string): Promise<Array<{ code: string; initialCents: number; balanceCents: number; disabled: boolean }>> {
    const r = await rows<Obj>(
      this.db,
      sql`select code, initial_cents, balance_cents, disabled from gift_cards where order_id = ${orderId} order by created, id`,
    );
    return r.map((x) => ({
      code: String(x.code),
      initialCents: n(x.initial_cents),
      balanceCents: n(x.balance_cents),
      disabled: x.disabled === true,
    }));
  }

  async subscriptionOf(orderId: string): Promise<Obj | null> {
    // The order that started it, or a renewal order (orders.subscription_id).
    const r = await rows<Obj>(
      this.db,
      sql`select * from subscriptions where order_id = ${orderId} or id = (select subscription_id from orders where id = ${orderId}) order by created limit 1`,
    );
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
      provider: s.provider ?? 'test',
      providerSubscriptionId: s.provider_subscription_id ?? null,
      cancelAt: s.cancel_at ? new Date(s.cancel_at as string).getTime() : null,
      currentPeriodEnd: s.current_period_end ? new Date(s.current_period_end as string).getTime() : null,
    };
  }

  /**
   * Cancels a subscription (the customer's account page, /config): at the provider that bills it first (a
   * provider that cannot be reached leaves it active: 503), then here. False when it was not active.
   */
  async cancelSubscription(websiteId: string, id: string): Promise<boolean> {
    const r = await rows<Obj>(
      this.db,
      sql`select status, provider, provider_subscription_id from subscriptions where id = ${id} and website_id = ${websiteId}`,
    );
    const s = r[0];
    if (!s) throw notFound('No such subscription.');
    if (s.status !== 'active' && s.status !== 'past_due') return false;
    const cancel = this.subscriptionCancelers.get(String(s.provider));
    if (cancel && typeof s.provider_subscription_id === 'string') {
      try {
        await cancel(s.provider_subscription_id);
      } catch (e) {
        if (e instanceof HttpError) throw e;
        throw new HttpError(503, checkoutMessages.CANCEL_UNREACHABLE);
      }
    }
    const done = await rows<Obj>(
      this.db,
      sql`update subscriptions set status = 'canceled', canceled_at = now() where id = ${id} and status in ('active', 'past_due') returning id`,
    );
    return done.length === 1;
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
      const r = await rows<Obj>(
        tx,
        sql`update orders set status = 'fulfilled', fulfilled_at = now() where id = ${orderId} and website_id = ${websiteId} and status = 'paid' returning *`,
      );
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
    return this.markRefunded(orderId);
  }

  /** The order refunded in full: stock, coupons and gift cards restored in one transaction (no provider call). */
  async markRefunded(orderId: string): Promise<OrderRow> {
    return this.db.transaction(async (tx) => {
      const r = await rows<Obj>(
        tx,
        sql`update orders set status = 'refunded', refunded_at = now(), refunded_cents = greatest(refunded_cents, grand_total_cents),
          payment = case when payment ? 'amountCents' then jsonb_set(payment, '{refundedCents}', payment -> 'amountCents') else payment end
          where id = ${orderId} and status <> 'refunded' returning *`,
      );
      if (!r[0]) throw conflict('This order is already refunded.');
      const order = orderFrom(r[0]);
      const websiteId = order.websiteId;
      const back = new Map<string, number>();
      for (const i of order.items)
        if (stocked({ productType: n(i.productType) }) && i.variantId)
          back.set(String(i.variantId), (back.get(String(i.variantId)) ?? 0) + n(i.quantity));
      for (const [variantId, qty] of [...back].sort(([a], [b]) => (a < b ? -1 : 1))) {
        await tx.execute(sql`update product_variants set qty_in_stock = qty_in_stock + ${qty} where id = ${variantId} and not unlimited`);
      }
      for (const code of [...order.coupons].sort()) {
        await tx.execute(
          sql`update coupons set times_used = greatest(0, times_used - 1) where website_id = ${websiteId} and code = ${code}`,
        );
      }
      if (order.giftCardId && order.giftCardCents > 0) {
        await tx.execute(sql`update gift_cards set balance_cents = balance_cents + ${order.giftCardCents} where id = ${order.giftCardId}`);
      }
      await tx.execute(sql`update gift_cards set disabled = true, balance_cents = 0 where order_id = ${orderId}`);
      await tx.execute(sql`update subscriptions set status = 'canceled' where order_id = ${orderId}`);
      return order;
    });
  }
  // ---- Provider events (webhooks) -------------------------------------------------------------------

  private async orderOfPayment(db: Db | Tx, providerName: string, paymentId: string): Promise<OrderRow | null> {
    const r = await rows<Obj>(
      db,
      sql`select * from orders where payment ->> 'paymentId' = ${paymentId} and payment ->> 'provider' = ${providerName} and status <> 'pending' limit 1`,
    );
    return r[0] ? orderFrom(r[0]) : null;
  }

  /**
   * The provider says how much of a payment has been refunded in all (Stripe's charge.refunded carries the
   * running total): the order keeps the largest total seen, so a refund made here and confirmed later by
   * the event, or an event delivered twice or out of order, is counted once. All of it back: the order is
   * refunded (stock, coupons and gift cards restored) unless it already was.
   */
  async settleProviderRefund(providerName: string, paymentId: string, refundedCents: number): Promise<'refunded' | 'partial' | null> {
    const o = await this.orderOfPayment(this.db, providerName, paymentId);
    if (!o) return null;
    await this.db
      .execute(sql`update orders set payment = jsonb_set(payment, '{refundedCents}', to_jsonb(greatest(coalesce((payment ->> 'refundedCents')::bigint, 0), ${refundedCents}::bigint)))
      where id = ${o.id}`);
    const paid = n(o.payment?.amountCents);
    // A refund the order desk made (checkout/order-admin.ts) is reserved in orders.refunded_cents before the
    // provider is called, and the desk itself restocks and moves the status: the event only confirms it. Only
    // money given back outside Tessera (e.g. in Stripe's dashboard) beyond what the desk recorded acts here.
    const desk = await rows<Obj>(this.db, sql`select refunded_cents from orders where id = ${o.id}`);
    const recorded = n(desk[0]?.refunded_cents);
    if (refundedCents <= recorded) return paid > 0 && refundedCents >= paid ? 'refunded' : 'partial';
    if (paid > 0 && refundedCents >= paid) {
      if (o.status !== 'refunded') {
        try {
          await this.markRefunded(o.id);
        } catch (e) {
          if (!(e instanceof HttpError && e.status === 409)) throw e;
        }
      }
      return 'refunded';
    }
    return 'partial';
  }

  /** A dispute opened on a payment: the order is marked (once per dispute) and the store's owners are told by email. */
  async markDisputed(
    providerName: string,
    paymentId: string,
    dispute: { id: string; reason: string; amountCents: number; status: string },
    origin: string,
  ): Promise<OrderRow | null> {
    const order = await this.db.transaction(async (tx) => {
      const r = await rows<Obj>(
        tx,
        sql`update orders set payment = jsonb_set(payment, '{dispute}', ${JSON.stringify(dispute)}::jsonb)
          where payment ->> 'paymentId' = ${paymentId} and payment ->> 'provider' = ${providerName} and status <> 'pending'
            and coalesce(payment -> 'dispute' ->> 'id', '') <> ${dispute.id} returning *`,
      );
      if (!r[0]) return null;
      const o = orderFrom(r[0]);
      const owners = await rows<{ email: string }>(
        tx,
        sql`select email from accounts where website_id = ${o.websiteId} and role in (${Role.ADMIN}, ${Role.STORE_MANAGER}) order by created_at, id`,
      );
      const f = formatMoney(dispute.amountCents, o.currency);
      await this.mailer.enqueue(
        tx,
        owners.map((a) => ({
          kind: 'payment-dispute',
          to: a.email,
          subject: `A payment for order #${o.orderNumber} is disputed`,
          text: [
            `The card holder's bank opened a dispute on order #${o.orderNumber} (${f}). Reason given: ${dispute.reason.replace(/_/g, ' ')}.`,
            '',
            'Respond from your Stripe dashboard before the deadline it shows; the money is held until the dispute is decided.',
            '',
            `Orders: ${origin}/config/orders`,
          ].join('\n'),
          ref: o.id,
        })),
      );
      return o;
    });
    if (order) this.mailer.kick();
    return order;
  }
}

/** The plan a subscription checkout starts (its one line), as a provider that bills it needs it. */
export function subscriptionCharge(l: OrderLine, email: string): SubscriptionCharge {
  const plan = (l.structuredContent.subscriptionPlan ?? {}) as {
    billingPeriod?: { value?: number; unit?: string };
    numBillingCycles?: number;
  };
  const unit = plan.billingPeriod?.unit === 'WEEK' || plan.billingPeriod?.unit === 'YEAR' ? plan.billingPeriod.unit : 'MONTH';
  return {
    itemId: l.itemId,
    sku: l.sku,
    title: l.title,
    unitPriceCents: l.unitPriceCents,
    quantity: l.quantity,
    unit,
    every: Math.max(1, Math.trunc(n(plan.billingPeriod?.value) || 1)),
    cycles: Math.max(0, Math.trunc(n(plan.numBillingCycles))),
    email,
  };
}

/** A gift card code as typed (any case, with or without spaces and dashes) in its stored shape. */
export function normalizeGiftCardCode(code: string): string {
  const s = code
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, 32);
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
