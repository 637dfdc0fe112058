/**
 * The payment provider interface. Checkout talks only to this; the default is the test-mode provider
 * (test-provider.ts). A provider never hands card numbers back: a payment is known by the provider's id,
 * the card brand and its last 4 digits, which is all an order stores.
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
}

export type ChargeResult =
  | { status: 'succeeded'; paymentId: string; brand: string; last4: string }
  | { status: 'requires_action'; paymentId: string; brand: string; last4: string }
  | { status: 'declined'; message: string; errors?: Record<string, string> };

export interface PaymentProvider {
  /** The provider's name, stored on orders. */
  readonly name: string;
  /** Test-mode payments move no real money; orders record it. */
  readonly testMode: boolean;
  /** Charges (or resumes) a payment. */
  charge(req: ChargeRequest): Promise<ChargeResult>;
  /** Gives money back (the whole amount when amountCents is omitted). */
  refund(paymentId: string, amountCents?: number): Promise<{ refundedCents: number }>;
}

/** The providers of an install, by name; checkout picks one per payment method. */
export class PaymentProviders {
  private readonly byName = new Map<string, PaymentProvider>();
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
    return method.type === 'token' ? this.byName.get(method.provider) : this.defaultProvider;
  }
}
