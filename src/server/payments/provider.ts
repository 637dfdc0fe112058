/**
 * The payment provider interface. Checkout talks only to this; the default is the test-mode provider
 * (test-provider.ts). A provider never hands card numbers back: a payment is known by the provider's id,
 * the card brand and its last 4 digits, which is all an order stores.
 *
 * The contract checkout relies on (a real processor such as Stripe implements it the same way):
 * - amounts and currency always come from the server's own totals, never from the browser;
 * - `charge` is idempotent on `idempotencyKey` (one payment per checkout attempt, however often it is retried);
 * - `lookup` finds the payment an attempt made by that same key, so a payment whose answer was lost (a crash
 *   between the charge and the order commit) can be found again by the payment reconciler;
 * - `refund` without an amount gives back everything (it voids an uncaptured payment) and may be repeated.
 * Checkout records a payment attempt (payment_attempts) before it calls `charge`
 * (docs/decisions/0008-stripe-sdk-and-stand-in.md).
 */

/** What the visitor pays with, as sent by the checkout page. Card fields go to the provider and nowhere else. */
export type PaymentMethodInput =
  | { type: 'card'; number: string; expiry: string; cvc: string; name?: string }
  /** A payment the visitor already started (e.g. after a second authentication step). */
  | { type: 'existing'; paymentId: string }
  /** Another provider's own method (e.g. instalments): an opaque token from its browser script. */
  | { type: 'token'; provider: string; token: string };

export interface ChargeRequest {
  amountCents: number;
  currency: string;
  method: PaymentMethodInput;
  /** The checkout's idempotency key, so the provider never charges twice for one attempt. */
  idempotencyKey: string;
  description: string;
  now: number;
  /** The payment attempt (payment_attempts.id), kept with the payment at the provider so its events find it. */
  attemptId?: string;
  /** Where the shopper's bank sends them back after a second authentication step. */
  returnUrl?: string;
  /**
   * The order may be paid in instalments (Afterpay/Clearpay through Stripe): the owner offers them, the cart
   * qualifies and the amount is within the limits (server/checkout/instalment-offer.ts).
   */
  instalments?: boolean;
  /** Where the order ships (instalment providers need it), when it ships. */
  shipping?: { name: string; line1: string; line2?: string; city: string; region?: string; postalCode: string; country: string } | null;
  /**
   * A subscription checkout: the plan the first payment starts. A provider that bills subscriptions itself
   * (Stripe Billing) starts the subscription and charges its first invoice; others charge the amount once.
   */
  subscription?: SubscriptionCharge;
  /** Called with the provider's payment id as soon as it exists, before any money moves (a two-step provider). */
  onPaymentCreated?: (paymentId: string) => Promise<void>;
}

/** What a subscription checkout starts: one plan line (the cart's only line) and the shopper's email. */
export interface SubscriptionCharge {
  itemId: string;
  sku: string;
  title: string;
  unitPriceCents: number;
  quantity: number;
  unit: 'WEEK' | 'MONTH' | 'YEAR';
  /** Periods per billing cycle (2 with MONTH: every 2 months). */
  every: number;
  /** Billing cycles in all; 0 = until cancelled. */
  cycles: number;
  email: string;
}

export type ChargeResult =
  | { status: 'succeeded'; paymentId: string; brand: string; last4: string }
  | { status: 'requires_action'; paymentId: string; brand: string; last4: string; clientSecret?: string; redirectUrl?: string }
  | { status: 'declined'; message: string; errors?: Record<string, string> };

/** A payment as the provider knows it, found again by the checkout attempt's idempotency key. */
export interface ProviderPayment {
  paymentId: string;
  /** 'succeeded' holds the money; 'refunded' gave it back; anything else holds nothing. */
  status: 'succeeded' | 'requires_action' | 'refunded' | 'failed';
  amountCents: number;
  refundedCents: number;
  brand: string;
  last4: string;
}

export interface PaymentProvider {
  /** The provider's name, stored on orders. */
  readonly name: string;
  /** Test-mode payments move no real money; orders record it. */
  readonly testMode: boolean;
  /** Charges (or resumes) a payment. */
  charge(req: ChargeRequest): Promise<ChargeResult>;
  /** Gives money back (the whole amount when amountCents is omitted). */
  refund(paymentId: string, amountCents?: number): Promise<{ refundedCents: number }>;
  /**
   * The payment `charge` made (or would resume) for an idempotency key, or null when there is none. `paymentId`
   * is the id the attempt recorded, when it did (a provider whose ids are not derived from the key needs it).
   */
  lookup(idempotencyKey: string, paymentId?: string | null): Promise<ProviderPayment | null>;
  /** Cancels a payment that holds nothing yet, so it can no longer be completed (optional). */
  cancel?(paymentId: string): Promise<void>;
  /** Whether a payment id is this provider's (for `{ type: 'existing' }`; optional). */
  owns?(paymentId: string): boolean;
}

/** The providers of an install, by name; checkout picks one per payment method. */
export class PaymentProviders {
  private readonly byName = new Map<string, PaymentProvider>();
  /** The provider that takes cards when it answers one (Stripe, once connected); else the default. */
  cardProvider: (() => PaymentProvider | null) | null = null;
  constructor(readonly defaultProvider: PaymentProvider) {
    this.register(defaultProvider);
  }
  register(p: PaymentProvider): void {
    this.byName.set(p.name, p);
  }
  get(name: string): PaymentProvider | undefined {
    return this.byName.get(name);
  }
  /** The provider for a payment method: a token names its provider; cards use the default. */
  forMethod(method: PaymentMethodInput): PaymentProvider | undefined {
    if (method.type === 'token') return this.byName.get(method.provider);
    if (method.type === 'existing') {
      for (const p of this.byName.values()) if (p.owns?.(method.paymentId)) return p;
    }
    return this.cardProvider?.() ?? this.defaultProvider;
  }
}
