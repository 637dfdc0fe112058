/**
 * The Stripe payment provider: PaymentIntents behind the PaymentProvider interface (payments/provider.ts).
 *
 * A charge is two calls, each with an idempotency key derived from the checkout attempt's key:
 *   1. create the PaymentIntent (amount and currency from the server's totals; metadata names the attempt),
 *      and hand its id to `onPaymentCreated` so the attempt records it before any money moves;
 *   2. confirm it with the shopper's payment method (a PaymentMethod id from Stripe.js, or Stripe's test
 *      ids). The answer is succeeded, requires_action (3-D Secure: the client secret and the bank's URL go
 *      back to the page) or a decline with Stripe's words for the shopper.
 * `{ type: 'existing', paymentId }` resumes a PaymentIntent after the shopper's bank step: it is retrieved and
 * must carry this attempt's key. Card numbers never reach this server: `{ type: 'card' }` is refused.
 */
import Stripe from 'stripe';
import type { ChargeRequest, ChargeResult, PaymentProvider, ProviderPayment } from '../payments/index.js';
import { stripeMessages, type StripeSettings } from './settings.js';

export const STRIPE_PROVIDER = 'stripe';
/** Stripe's payment method type for Afterpay (Clearpay in the UK). */
export const AFTERPAY = 'afterpay_clearpay';

/** Stripe's minor units are ours (money.ts keeps every currency in its minor unit); its currency codes are lower case. */
const stripeCurrency = (c: string) => c.toLowerCase();

type Intent = Stripe.PaymentIntent;

function cardOf(pi: Intent): { brand: string; last4: string } {
  const ch = pi.latest_charge && typeof pi.latest_charge === 'object' ? pi.latest_charge : null;
  const card = ch?.payment_method_details?.card;
  if (card) return { brand: card.brand ?? 'card', last4: card.last4 ?? '' };
  const type = ch?.payment_method_details?.type;
  return { brand: type === AFTERPAY ? 'afterpay' : (type ?? 'card'), last4: '' };
}

function refundedOf(pi: Intent): number {
  const ch = pi.latest_charge && typeof pi.latest_charge === 'object' ? pi.latest_charge : null;
  return ch ? ch.amount_refunded : 0;
}

/** Whether an SDK error means Stripe could not be reached (or failed on its side): nothing is known to have happened. */
export function isUnreachable(e: unknown): boolean {
  return (
    e instanceof Stripe.errors.StripeConnectionError ||
    e instanceof Stripe.errors.StripeAPIError ||
    (e instanceof Stripe.errors.StripeError && (e.statusCode ?? 0) >= 500)
  );
}

export class StripeProvider implements PaymentProvider {
  readonly name = STRIPE_PROVIDER;
  /** Stripe Billing (billing.ts): a subscription checkout's first payment goes through it. */
  billing: {
    charge(req: ChargeRequest, sub: NonNullable<ChargeRequest['subscription']>): Promise<ChargeResult>;
    cancelUnordered(paymentIntentId: string): Promise<void>;
  } | null = null;
  constructor(private readonly settings: StripeSettings) {}

  /** Test keys move no real money; orders record the mode of the key that took them. */
  get testMode(): boolean {
    return !this.settings.live;
  }

  private async client(): Promise<Stripe> {
    const s = await this.settings.stripe();
    if (!s) throw new Error(stripeMessages.NOT_CONFIGURED);
    return s;
  }

  owns(paymentId: string): boolean {
    return /^pi_[A-Za-z0-9_]{1,200}$/.test(paymentId);
  }

  /** What a PaymentIntent as Stripe has it means for the checkout (billing.ts uses it for a first invoice's intent). */
  resultOf(pi: Intent, req: ChargeRequest): ChargeResult {
    if (pi.amount !== req.amountCents || pi.currency !== stripeCurrency(req.currency))
      return { status: 'declined', message: stripeMessages.AMOUNT_CHANGED };
    const { brand, last4 } = cardOf(pi);
    switch (pi.status) {
      case 'succeeded':
        return { status: 'succeeded', paymentId: pi.id, brand, last4 };
      case 'requires_action':
      case 'processing': {
        const next = pi.next_action;
        const redirectUrl = next?.type === 'redirect_to_url' ? (next.redirect_to_url?.url ?? undefined) : undefined;
        return { status: 'requires_action', paymentId: pi.id, brand, last4, clientSecret: pi.client_secret ?? undefined, redirectUrl };
      }
      case 'canceled':
        return { status: 'declined', message: stripeMessages.CANCELED };
      default:
        return { status: 'declined', message: pi.last_payment_error?.message ?? stripeMessages.DECLINED };
    }
  }

  async charge(req: ChargeRequest): Promise<ChargeResult> {
    const m = req.method;
    if (m.type === 'card') return { status: 'declined', message: stripeMessages.CARD_NUMBERS_REFUSED };
    const stripe = await this.client();
    try {
      if (m.type === 'existing') {
        if (!this.owns(m.paymentId)) return { status: 'declined', message: stripeMessages.UNKNOWN_PAYMENT };
        const pi = await stripe.paymentIntents.retrieve(m.paymentId, { expand: ['latest_charge'] });
        if (pi.metadata?.tessera_key !== req.idempotencyKey) return { status: 'declined', message: stripeMessages.UNKNOWN_PAYMENT };
        return this.resultOf(pi, req);
      }
      if (m.provider !== STRIPE_PROVIDER) return { status: 'declined', message: stripeMessages.DECLINED };
      // A subscription: Stripe Billing starts it, and its first invoice's PaymentIntent is confirmed as below.
      if (req.subscription && this.billing) return await this.billing.charge(req, req.subscription);
      // Cards always; Afterpay/Clearpay only where the order qualifies (the Payment Element offers the same).
      const types = req.instalments ? ['card', AFTERPAY] : ['card'];
      const sh = req.shipping;
      const created = await stripe.paymentIntents.create(
        {
          amount: req.amountCents,
          currency: stripeCurrency(req.currency),
          description: req.description.slice(0, 1000),
          allowed_payment_method_types: types as Stripe.PaymentIntentCreateParams.AllowedPaymentMethodType[],
          ...(sh
            ? {
                shipping: {
                  name: sh.name,
                  address: {
                    line1: sh.line1,
                    line2: sh.line2 || undefined,
                    city: sh.city,
                    state: sh.region || undefined,
                    postal_code: sh.postalCode,
                    country: sh.country,
                  },
                },
              }
            : {}),
          metadata: { tessera_key: req.idempotencyKey, ...(req.attemptId ? { tessera_attempt: req.attemptId } : {}) },
        },
        { idempotencyKey: `tessera:${req.idempotencyKey}:create:${req.amountCents}:${stripeCurrency(req.currency)}:${types.join('+')}` },
      );
      await req.onPaymentCreated?.(created.id);
      if (created.status === 'succeeded' || created.status === 'requires_action' || created.status === 'processing') {
        // A retry of an attempt whose intent already moved on: its state as it is now.
        return this.resultOf(await stripe.paymentIntents.retrieve(created.id, { expand: ['latest_charge'] }), req);
      }
      const pi = await stripe.paymentIntents.confirm(
        created.id,
        { payment_method: m.token, expand: ['latest_charge'], ...(req.returnUrl ? { return_url: req.returnUrl } : {}) },
        { idempotencyKey: `tessera:${req.idempotencyKey}:confirm:${created.id}:${m.token}` },
      );
      return this.resultOf(pi, req);
    } catch (e) {
      if (e instanceof Stripe.errors.StripeCardError) return { status: 'declined', message: e.message || stripeMessages.DECLINED };
      if (e instanceof Stripe.errors.StripeIdempotencyError) return { status: 'declined', message: stripeMessages.AMOUNT_CHANGED };
      if (e instanceof Stripe.errors.StripeInvalidRequestError && e.code === 'resource_missing')
        return { status: 'declined', message: stripeMessages.UNKNOWN_PAYMENT };
      // A payment method this order may not use (Afterpay for an order that does not qualify).
      if (e instanceof Stripe.errors.StripeInvalidRequestError && e.param === 'payment_method')
        return { status: 'declined', message: stripeMessages.METHOD_NOT_ALLOWED };
      if (e instanceof Stripe.errors.StripeInvalidRequestError && e.code === 'payment_intent_unexpected_state') {
        const pi = (e.raw as { payment_intent?: Intent } | undefined)?.payment_intent;
        if (pi) return this.resultOf(await stripe.paymentIntents.retrieve(pi.id, { expand: ['latest_charge'] }), req);
      }
      throw e;
    }
  }

  private payment(pi: Intent): ProviderPayment {
    const refunded = refundedOf(pi);
    const status: ProviderPayment['status'] =
      pi.status === 'succeeded'
        ? refunded >= pi.amount
          ? 'refunded'
          : 'succeeded'
        : pi.status === 'requires_action' || pi.status === 'processing'
          ? 'requires_action'
          : 'failed';
    return { paymentId: pi.id, status, amountCents: pi.amount, refundedCents: refunded, ...cardOf(pi) };
  }

  async retrieve(paymentId: string): Promise<Intent> {
    return (await this.client()).paymentIntents.retrieve(paymentId, { expand: ['latest_charge'] });
  }

  async lookup(idempotencyKey: string, paymentId?: string | null): Promise<ProviderPayment | null> {
    const stripe = await this.client();
    if (paymentId) {
      try {
        return this.payment(await stripe.paymentIntents.retrieve(paymentId, { expand: ['latest_charge'] }));
      } catch (e) {
        if (e instanceof Stripe.errors.StripeInvalidRequestError && e.code === 'resource_missing') return null;
        throw e;
      }
    }
    // No id recorded (a crash between the create call and its record): Stripe's search by the attempt's key.
    const safe = idempotencyKey.replace(/[^A-Za-z0-9_-]/g, '');
    const found = await stripe.paymentIntents.search({ query: `metadata['tessera_key']:'${safe}'`, expand: ['data.latest_charge'] });
    const list = found.data.map((pi) => this.payment(pi));
    return list.find((p) => p.status === 'succeeded') ?? list[0] ?? null;
  }

  async cancel(paymentId: string): Promise<void> {
    const stripe = await this.client();
    try {
      await stripe.paymentIntents.cancel(paymentId, {}, { idempotencyKey: `tessera:cancel:${paymentId}` });
    } catch (e) {
      // Already succeeded or cancelled: nothing to cancel.
      if (!(e instanceof Stripe.errors.StripeInvalidRequestError)) throw e;
    }
  }

  /**
   * Gives money back through the Refunds API: the whole remaining amount when amountCents is omitted (an
   * intent that holds nothing is cancelled instead). Answers the total refunded on the payment so far.
   */
  async refund(paymentId: string, amountCents?: number): Promise<{ refundedCents: number }> {
    const stripe = await this.client();
    const pi = await stripe.paymentIntents.retrieve(paymentId, { expand: ['latest_charge'] });
    if (pi.status !== 'succeeded') {
      if (pi.status !== 'canceled') await this.cancel(paymentId);
      return { refundedCents: 0 };
    }
    const before = refundedOf(pi);
    const left = pi.amount - before;
    if (left <= 0 || amountCents === 0) return { refundedCents: before };
    const amount = amountCents === undefined ? left : Math.min(amountCents, left);
    // A whole refund has one key per payment (a repeat is the same refund); an amount is a new refund each call.
    const r = await stripe.refunds.create(
      { payment_intent: paymentId, ...(amountCents === undefined ? {} : { amount }), metadata: { tessera: 'refund' } },
      amountCents === undefined ? { idempotencyKey: `tessera:refund-all:${paymentId}:${before}` } : undefined,
    );
    // A subscription's first payment given back whole without its order: the subscription stops too.
    if (amountCents === undefined) await this.billing?.cancelUnordered(paymentId);
    return { refundedCents: before + r.amount };
  }

  /** Retrieves the account the secret key belongs to (the Check connection button). */
  async account(): Promise<Stripe.Account> {
    return (await this.client()).accounts.retrieveCurrent();
  }
}
