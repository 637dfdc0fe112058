/**
 * Stripe's events, after the signature check (routes.ts): each event id is handled once (stripe_events), and
 * every handler is safe to run again and in any order:
 * - payment_intent.* reads the PaymentIntent as it is now (never the event's copy, which may be older), so a
 *   payment_failed arriving after succeeded changes nothing; a succeeded intent settles its attempt through
 *   CheckoutService.settlePayment (one order whichever of the shopper's return and the event comes first);
 * - checkout.session.completed settles the session's PaymentIntent the same way;
 * - charge.refunded carries the running total refunded, and the order keeps the largest seen;
 * - charge.dispute.created marks the order once per dispute and emails the owners;
 * - invoice.paid, invoice.payment_failed and customer.subscription.updated/deleted go to Stripe Billing
 *   (billing.ts): the first order or a renewal order (once per invoice), past due, and the state kept in sync.
 * An event naming an object Stripe answers 404 resource_missing for (issue 38: another account's intent sent
 * to this endpoint, a deleted test object) is acknowledged as 'not ours' and recorded: it will never be found,
 * and a 503 would only have Stripe retry it for three days and then disable the endpoint.
 */
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import type { Database } from '../../db/index.js';
import { rows } from '../db-util.js';
import type { CheckoutService } from '../checkout/index.js';
import { STRIPE_PROVIDER, type StripeProvider } from './provider.js';
import type { StripeBilling } from './billing.js';

export const HANDLED_EVENTS = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'payment_intent.requires_action',
  'checkout.session.completed',
  'charge.refunded',
  'charge.dispute.created',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.updated',
  'customer.subscription.deleted',
] as const;

/** `missing`: the message of Stripe's resource_missing answer, when the event named an object Stripe does not have. */
export type EventOutcome = { duplicate: boolean; result: string; missing?: string };

const isMissing = (e: unknown): e is Stripe.errors.StripeInvalidRequestError =>
  e instanceof Stripe.errors.StripeInvalidRequestError && e.code === 'resource_missing';

const idOf = (v: string | { id: string } | null | undefined): string | null => (typeof v === 'string' ? v : (v?.id ?? null));

export class StripeEventHandler {
  constructor(
    private readonly database: Database,
    private readonly checkout: CheckoutService,
    private readonly provider: StripeProvider,
    private readonly origin: () => Promise<string>,
    private readonly billing: StripeBilling | null = null,
    private readonly siteTitle: () => Promise<string> = async () => '',
  ) {}

  async seen(eventId: string): Promise<boolean> {
    const r = await rows<{ id: string }>(this.database.db, sql`select id from stripe_events where id = ${eventId}`);
    return r.length === 1;
  }

  /** Handles an event (verified by the caller); a replay of an event handled before is acknowledged and ignored. */
  async handle(event: Stripe.Event): Promise<EventOutcome> {
    if (await this.seen(event.id)) return { duplicate: true, result: 'replay' };
    let result: string;
    let missing: string | undefined;
    try {
      result = await this.dispatch(event);
    } catch (e) {
      if (!isMissing(e)) throw e;
      result = 'not ours';
      missing = e.message.slice(0, 200);
    }
    // Recorded after the work: an event whose handling failed is handled again when Stripe retries it.
    const obj = event.data.object as { id?: string };
    await this.database.db.execute(
      sql`insert into stripe_events (id, type, object_id) values (${event.id}, ${event.type}, ${typeof obj.id === 'string' ? obj.id : null}) on conflict (id) do nothing`,
    );
    return { duplicate: false, result, ...(missing !== undefined ? { missing } : {}) };
  }

  private async dispatch(event: Stripe.Event): Promise<string> {
    switch (event.type) {
      case 'payment_intent.succeeded':
      case 'payment_intent.payment_failed':
      case 'payment_intent.canceled':
      case 'payment_intent.requires_action':
        return this.intentChanged(event.data.object.id);
      case 'invoice.paid':
        return this.billing
          ? this.billing.invoicePaid(event.data.object.id ?? '', this.checkout, await this.origin(), await this.siteTitle())
          : 'ignored';
      case 'invoice.payment_failed':
        return this.billing ? this.billing.invoiceFailed(event.data.object.id ?? '', await this.origin()) : 'ignored';
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        return this.billing ? this.billing.syncSubscription(event.data.object.id) : 'ignored';
      case 'checkout.session.completed': {
        const s = event.data.object;
        // A subscription's session: its first invoice's PaymentIntent settles the attempt (billing.ts).
        if (s.mode === 'subscription' && this.billing) {
          const first = await this.billing.sessionPayment(s.id);
          return first ? this.intentChanged(first.pi, first.attemptId) : 'no payment';
        }
        const pi = idOf(s.payment_intent);
        return pi ? this.intentChanged(pi, s.metadata?.tessera_attempt ?? null) : 'no payment';
      }
      case 'charge.refunded': {
        const ch = event.data.object;
        const pi = idOf(ch.payment_intent);
        if (!pi) return 'no payment';
        return (await this.checkout.settleProviderRefund(STRIPE_PROVIDER, pi, ch.amount_refunded)) ?? 'no order';
      }
      case 'charge.dispute.created': {
        const d = event.data.object;
        const pi = idOf(d.payment_intent);
        if (!pi) return 'no payment';
        const o = await this.checkout.markDisputed(
          STRIPE_PROVIDER,
          pi,
          { id: d.id, reason: d.reason, amountCents: d.amount, status: d.status },
          await this.origin(),
        );
        return o ? 'marked' : 'no order';
      }
      default:
        return 'ignored';
    }
  }

  /** A PaymentIntent changed: act on its state as Stripe has it now. */
  private async intentChanged(piId: string, attemptHint: string | null = null): Promise<string> {
    const pi = await this.provider.retrieve(piId);
    const attemptId = pi.metadata?.tessera_attempt ?? attemptHint;
    if (pi.status === 'succeeded') {
      if (!attemptId && !pi.metadata?.tessera_key) return 'not ours';
      return (await this.checkout.settlePayment(STRIPE_PROVIDER, pi.id, attemptId ?? null)) ?? 'settled before';
    }
    if (pi.status === 'canceled') {
      // An attempt waiting on this intent can no longer be paid: closed (nothing was taken).
      const r = await rows<{ id: string }>(
        this.database.db,
        sql`update payment_attempts set state = 'voided', note = 'payment canceled at Stripe', updated = now()
          where payment_id = ${pi.id} and provider = ${STRIPE_PROVIDER} and state = 'created' returning id`,
      );
      return r.length ? 'voided' : 'nothing open';
    }
    return `waiting (${pi.status})`;
  }
}
