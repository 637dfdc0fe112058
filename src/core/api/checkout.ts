/**
 * Checkout's wire shapes: the state a shopper sends with each quote and the place-order body, the quote's
 * answer (the checkout view), the place-order answer, and the props the checkout island is rendered with.
 */
import { z } from 'zod';
import type { CheckoutLine, Coupon, ShippingOption, TaxRule } from '../checkout.js';
import { storableText as str, type AddressFormat, type CountryOption } from './common.js';

/** A postal address as stored and answered (every field present, '' when not given). */
export const postalAddress = z.object({
  name: z.string(),
  line1: z.string(),
  line2: z.string(),
  city: z.string(),
  region: z.string(),
  postalCode: z.string(),
  country: z.string(),
});
export type Address = z.infer<typeof postalAddress>;

/** The shipping address a shopper sends: any field may still be missing. */
export const checkoutAddressIn = z
  .object({
    name: str(200).optional(),
    line1: str(200).optional(),
    line2: str(200).optional(),
    city: str(100).optional(),
    region: str(100).optional(),
    postalCode: str(20).optional(),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'Country must be a two-letter code.')
      .optional()
      .or(z.literal('')),
  })
  .nullable()
  .optional();

/** POST /api/checkout/quote (and the start of place-order's body). */
export const checkoutStateIn = z.object({
  cartToken: str(100).optional(),
  email: str(256).optional(),
  shippingAddress: checkoutAddressIn,
  selectedShippingOptionId: str(64).nullable().optional(),
  coupons: z.array(str(64)).max(10, 'At most 10 coupon codes.').optional(),
  giftCardCode: str(64).nullable().optional(),
});
export type CheckoutStateInput = z.input<typeof checkoutStateIn>;

export const paymentIn = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('card'), number: str(30), expiry: str(10), cvc: str(6), name: str(200).optional() }),
    z.object({ type: z.literal('existing'), paymentId: str(64) }),
    z.object({ type: z.literal('token'), provider: str(40), token: str(2000) }),
  ])
  .nullable()
  .optional();

/** POST /api/checkout/place-order. */
export const placeIn = checkoutStateIn.extend({
  payment: paymentIn,
  idempotencyKey: str(200).optional(),
  /** The grand total (minor units) the shopper confirmed: required by place (400 without it); a different total as it is now is refused with 409. */
  expectedTotalCents: z
    .number()
    .int('The confirmed total must be whole minor units.')
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .nullable()
    .optional(),
});
export type PlaceInput = z.input<typeof placeIn>;

/** The answer of place-order: paid, or a payment step the browser finishes. */
export const placeAnswer = z.object({
  status: z.enum(['paid', 'requires_action']),
  confirmationUrl: z.string().optional(),
  paymentId: z.string().optional(),
  clientSecret: z.string().optional(),
});
export type PlaceAnswer = z.infer<typeof placeAnswer>;

/** The state as the server answers it with the view. */
export interface CheckoutStateView {
  email?: string;
  shippingAddress?: Partial<Address> | null;
  selectedShippingOptionId?: string | null;
  coupons?: string[];
  giftCardCode?: string | null;
}

export interface CheckoutEntry {
  id: string;
  title: string;
  quantity: number;
  productType: number;
  chosenVariant: { sku: string; attributes: Record<string, string> };
  subTotalCents: number;
  image: { assetUrl?: string; altText?: string } | null;
}

/** What the checkout's totals are worked out from, so the page computes the same totals as the server. */
export interface CheckoutPricing {
  lines: CheckoutLine[];
  shippingOptions: ShippingOption[];
  taxRules: TaxRule[];
  coupons: Coupon[];
  giftCardBalanceCents: number;
}

/** The quote's answer: the cart, the state, what the totals are worked out from, the currency. */
export interface CheckoutView {
  cart: { id: string | null; entries: CheckoutEntry[]; invalidCoupons: Array<{ code: string; reason: string }>; [key: string]: unknown };
  state: CheckoutStateView;
  pricing: CheckoutPricing;
  currency: string;
  subscription: { plan: unknown } | null;
}

/** Stripe's Payment Element on the checkout page: the key and the script it loads. */
export interface StripeCheckoutConfig {
  publishableKey: string;
  jsUrl: string;
}

/** What the server renders the checkout island with. */
export interface CheckoutPageProps {
  view: CheckoutView;
  /** A subscription cart's token (subscription checkout), else null. */
  cartToken: string | null;
  minimumOrderSubtotalCents: number;
  testMode: boolean;
  /** Why this checkout cannot be paid on this site: shown instead of the payment fields (no caller sets it since subscriptions bill through Stripe Billing). */
  paymentUnavailable?: string;
  /** Stripe is connected: its Payment Element takes the payment on this page. */
  stripe?: StripeCheckoutConfig | null;
  /** The visitor's crumb: the page is also a plain form post for a visitor without JavaScript. */
  crumb?: string;
  /** The plain form post's idempotency key (a fresh one per drawn page). */
  plainKey?: string;
  /** The server's answer to a plain form post: per-field errors and the message, shown as the island shows them. */
  errors?: Record<string, string>;
  message?: string;
  /** The name on the card as posted (the card's number and code are never drawn back). */
  cardName?: string;
  /** The instalment payment method, when the owner offers it and the cart qualifies. */
  instalments?: { min: string; max: string; count: number } | null;
  /** The shipping address's country list, named in the page's language. */
  countries: CountryOption[];
  /** The format of the address's country (the shop's when none is chosen yet); others load as picked. */
  addressFormat: AddressFormat;
}
