/**
 * Subscriptions through Stripe Billing (docs/PAYMENTS.md, "Subscriptions").
 *
 * A subscription checkout with Stripe connected:
 *   1. the plan's Stripe Product and recurring Price (interval week/month/year, interval_count the plan's
 *      period value), made once and kept in stripe_prices by SKU, amount, currency and period, so a later
 *      checkout reuses it and a changed amount or period gets a new Price;
 *   2. the shopper's Stripe Customer, by email (stripe_customers; else Stripe's customer list by email; else
 *      created), reused by later subscriptions;
 *   3. the Subscription (payment_behavior=default_incomplete, latest_invoice.payments expanded: the pinned API
 *      version has no invoice.payment_intent, the invoice's payments name its PaymentIntent). That first
 *      invoice's PaymentIntent gets the attempt's metadata (tessera_key, tessera_attempt) and is then confirmed
 *      exactly as a one-off payment (provider.ts): the same Payment Element, 3-D Secure step and return, and
 *      the same order-making (one order, whichever of the shopper and the webhook comes first).
 * Every call carries an idempotency key derived from the checkout attempt's key.
 *
 * A fixed number of cycles ends through cancel_at = the subscription's billing_cycle_anchor + N periods
 * (calendar arithmetic in UTC, a day past the month's end clamped to its last day, as Stripe does), set
 * once the first invoice is paid. Cancelling (the account page, /config) is DELETE /v1/subscriptions/:id:
 * immediate, no further invoice.
 */
import Stripe from 'stripe';
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/index.js';
import { newId } from '../../db/ids.js';
import { rows } from '../db-util.js';
import { Role, ProductType } from '../../core/enums.js';
import { formatMoney } from '../../core/money.js';
import type { ChargeRequest, ChargeResult, SubscriptionCharge } from '../payments/index.js';
import { orderFrom, type CheckoutService } from '../checkout/index.js';
import { orderPlacedHooks } from '../checkout/index.js';
import type { Mailer } from '../mail/index.js';
import { STRIPE_PROVIDER, type StripeProvider } from './provider.js';
import { stripeMessages, type StripeSettings } from './settings.js';

type Obj = Record<string, unknown>;
const INTERVAL = { WEEK: 'week', MONTH: 'month', YEAR: 'year' } as const;

export const billingMessages = {
  NO_DISCOUNTS: 'Coupons and gift cards cannot be used on a subscription. Please remove them and try again.',
  NO_FIRST_PAYMENT: 'Stripe did not start the subscription’s first payment. Please try again.',
} as const;

const idOf = (v: string | { id: string } | null | undefined): string | null => (typeof v === 'string' ? v : (v?.id ?? null));

/** `start` (unix seconds) plus n periods in UTC; a day past the end of the target month is clamped to its last day. */
export function addPeriods(start: number, unit: 'WEEK' | 'MONTH' | 'YEAR', n: number): number {
  const d = new Date(start * 1000);
  if (unit === 'WEEK') return start + n * 7 * 86400;
  const months = unit === 'MONTH' ? n : n * 12;
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const t = Date.UTC(y, m, Math.min(d.getUTCDate(), last), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
  return Math.floor(t / 1000);
}

/** The PaymentIntent of an invoice: its payments' first PaymentIntent (the pinned API version's shape). */
export function invoicePaymentIntent(inv: Stripe.Invoice): string | null {
  for (const p of inv.payments?.data ?? []) {
    const pi = idOf(p.payment?.payment_intent as string | { id: string } | null | undefined);
    if (pi) return pi;
  }
  return null;
}

const invoiceSubscription = (inv: Stripe.Invoice): string | null =>
  idOf(inv.parent?.subscription_details?.subscription as string | { id: string } | null | undefined);

/** Our subscription status for Stripe's. */
function statusOf(s: Stripe.Subscription): 'active' | 'past_due' | 'canceled' | 'ended' | null {
  switch (s.status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    case 'canceled':
    case 'incomplete_expired':
      // Ended by its cancel_at (a fixed number of cycles billed) rather than cancelled by someone.
      return s.cancel_at && s.ended_at && s.ended_at >= s.cancel_at ? 'ended' : 'canceled';
    default:
      return null;
  }
}

export class StripeBilling {
  constructor(
    private readonly database: Database,
    private readonly settings: StripeSettings,
    private readonly provider: StripeProvider,
    private readonly mailer: Mailer,
  ) {}

  private async client(): Promise<Stripe> {
    const s = await this.settings.stripe();
    if (!s) throw new Error(stripeMessages.NOT_CONFIGURED);
    return s;
  }

  /** The plan's recurring Price (and its Product): reused while the amount, currency and period stay the same. */
  async price(sub: SubscriptionCharge, currency: string): Promise<{ priceId: string; productId: string }> {
    const cur = currency.toLowerCase();
    const interval = INTERVAL[sub.unit];
    const known = await rows<{ id: string; product_id: string }>(
      this.database.db,
      sql`select id, product_id from stripe_prices where sku = ${sub.sku} and amount_cents = ${sub.unitPriceCents} and currency = ${cur} and interval = ${interval} and interval_count = ${sub.every}`,
    );
    if (known[0]) return { priceId: known[0].id, productId: known[0].product_id };
    const stripe = await this.client();
    // One Product per SKU: an earlier Price of this SKU names it.
    const prior = await rows<{ product_id: string }>(
      this.database.db,
      sql`select product_id from stripe_prices where sku = ${sub.sku} order by created limit 1`,
    );
    const productId =
      prior[0]?.product_id ??
      (
        await stripe.products.create(
          { name: sub.title.slice(0, 250) || sub.sku, metadata: { tessera_item: sub.itemId, tessera_sku: sub.sku } },
          { idempotencyKey: `tessera:product:${sub.sku}` },
        )
      ).id;
    const price = await stripe.prices.create(
      {
        product: productId,
        currency: cur,
        unit_amount: sub.unitPriceCents,
        recurring: { interval, interval_count: sub.every },
        metadata: { tessera_sku: sub.sku },
      },
      { idempotencyKey: `tessera:price:${sub.sku}:${sub.unitPriceCents}:${cur}:${interval}:${sub.every}` },
    );
    await this.database.db.execute(sql`insert into stripe_prices (id, product_id, sku, amount_cents, currency, interval, interval_count)
      values (${price.id}, ${productId}, ${sub.sku}, ${sub.unitPriceCents}, ${cur}, ${interval}, ${sub.every}) on conflict do nothing`);
    return { priceId: price.id, productId };
  }

  /** The shopper's Customer by email: ours, else Stripe's by email, else a new one. */
  async customer(email: string): Promise<string> {
    const e = email.trim().toLowerCase();
    const known = await rows<{ customer_id: string }>(this.database.db, sql`select customer_id from stripe_customers where email = ${e}`);
    if (known[0]) return known[0].customer_id;
    const stripe = await this.client();
    const listed = await stripe.customers.list({ email: e, limit: 1 });
    const id =
      listed.data[0]?.id ??
      (await stripe.customers.create({ email: e, metadata: { tessera: 'shopper' } }, { idempotencyKey: `tessera:customer:${e}` })).id;
    await this.database.db.execute(
      sql`insert into stripe_customers (email, customer_id) values (${e}, ${id}) on conflict (email) do nothing`,
    );
    return id;
  }

  /** Starts (or resumes, for a retry of the same attempt) the subscription and confirms its first invoice's PaymentIntent. */
  async charge(req: ChargeRequest, sub: SubscriptionCharge): Promise<ChargeResult> {
    const m = req.method;
    if (m.type !== 'token') return { status: 'declined', message: stripeMessages.DECLINED };
    const cur = req.currency.toLowerCase();
    // Shipping and tax repeat every cycle with the plan; a discount on the first payment only cannot be billed.
    const extras = req.amountCents - sub.unitPriceCents * sub.quantity;
    if (extras < 0) return { status: 'declined', message: billingMessages.NO_DISCOUNTS };
    const stripe = await this.client();
    const { priceId, productId } = await this.price(sub, cur);
    const customerId = await this.customer(sub.email);
    const metadata = { tessera_key: req.idempotencyKey, ...(req.attemptId ? { tessera_attempt: req.attemptId } : {}) };
    const recurring = { interval: INTERVAL[sub.unit], interval_count: sub.every };
    const created = await stripe.subscriptions.create(
      {
        customer: customerId,
        items: [
          { price: priceId, quantity: sub.quantity },
          ...(extras > 0 ? [{ price_data: { currency: cur, product: productId, unit_amount: extras, recurring }, quantity: 1 }] : []),
        ],
        payment_behavior: 'default_incomplete',
        payment_settings: { save_default_payment_method: 'on_subscription' },
        metadata: { ...metadata, tessera_cycles: String(sub.cycles) },
        description: req.description.slice(0, 500),
        expand: ['latest_invoice.payments'],
      },
      { idempotencyKey: `tessera:${req.idempotencyKey}:subscription:${priceId}:${extras}:${customerId}` },
    );
    const invoice = created.latest_invoice && typeof created.latest_invoice === 'object' ? created.latest_invoice : null;
    const piId = invoice ? invoicePaymentIntent(invoice) : null;
    if (!piId) return { status: 'declined', message: billingMessages.NO_FIRST_PAYMENT };
    // The first PaymentIntent carries the attempt, as a one-off payment's does: its events, the shopper's
    // return and the reconciler find the attempt by it.
    await stripe.paymentIntents.update(piId, { metadata }, { idempotencyKey: `tessera:${req.idempotencyKey}:metadata:${piId}` });
    await this.database.db
      .execute(sql`insert into stripe_billing_links (payment_intent_id, subscription_id, customer_id) values (${piId}, ${created.id}, ${customerId})
      on conflict (payment_intent_id) do nothing`);
    await req.onPaymentCreated?.(piId);
    let pi = await stripe.paymentIntents.retrieve(piId, { expand: ['latest_charge'] });
    if (pi.status === 'requires_payment_method' || pi.status === 'requires_confirmation') {
      pi = await stripe.paymentIntents.confirm(
        piId,
        { payment_method: m.token, expand: ['latest_charge'], ...(req.returnUrl ? { return_url: req.returnUrl } : {}) },
        { idempotencyKey: `tessera:${req.idempotencyKey}:confirm:${piId}:${m.token}` },
      );
    }
    const result = this.provider.resultOf(pi, req);
    if (result.status === 'succeeded') await this.endAfterCycles(created.id);
    return result;
  }

  /** A fixed-cycle subscription's end: cancel_at after its cycles, set once it is active (safe to repeat). */
  async endAfterCycles(subscriptionId: string): Promise<number | null> {
    const stripe = await this.client();
    const s = await stripe.subscriptions.retrieve(subscriptionId);
    const cycles = Number(s.metadata?.tessera_cycles ?? 0);
    if (!Number.isInteger(cycles) || cycles <= 0) return null;
    const recurring = s.items.data[0]?.price?.recurring;
    const unit =
      recurring?.interval === 'week' ? 'WEEK' : recurring?.interval === 'year' ? 'YEAR' : recurring?.interval === 'month' ? 'MONTH' : null;
    if (!unit) return null;
    const cancelAt = addPeriods(s.billing_cycle_anchor, unit, (recurring?.interval_count ?? 1) * cycles);
    if (s.cancel_at !== cancelAt && s.status !== 'canceled') {
      await stripe.subscriptions.update(
        subscriptionId,
        { cancel_at: cancelAt, proration_behavior: 'none' },
        { idempotencyKey: `tessera:cancel-at:${subscriptionId}:${cancelAt}` },
      );
    }
    await this.database.db.execute(
      sql`update stripe_billing_links set cancel_at = to_timestamp(${cancelAt}) where subscription_id = ${subscriptionId}`,
    );
    await this.database.db.execute(
      sql`update subscriptions set cancel_at = to_timestamp(${cancelAt}) where provider_subscription_id = ${subscriptionId}`,
    );
    return cancelAt;
  }

  /** Inside the order's transaction: a subscription order paid through Stripe names its Stripe subscription. */
  async linkOrder(tx: Tx, orderId: string, paymentIntentId: string): Promise<void> {
    await tx.execute(sql`update subscriptions s set provider = ${STRIPE_PROVIDER}, provider_subscription_id = l.subscription_id, provider_customer_id = l.customer_id, cancel_at = l.cancel_at
      from stripe_billing_links l where l.payment_intent_id = ${paymentIntentId} and s.order_id = ${orderId}`);
    // The order that started a subscription names it (a renewal order already does).
    await tx.execute(
      sql`update orders o set subscription_id = s.id from subscriptions s where s.order_id = o.id and o.id = ${orderId} and o.subscription_id is null`,
    );
  }

  /** Records the link of a first PaymentIntent made by a hosted Checkout Session (the session knows the subscription). */
  async linkSession(paymentIntentId: string, subscriptionId: string, customerId: string, metadata: Record<string, string>): Promise<void> {
    const stripe = await this.client();
    await stripe.paymentIntents.update(
      paymentIntentId,
      { metadata },
      { idempotencyKey: `tessera:${metadata.tessera_key ?? ''}:metadata:${paymentIntentId}` },
    );
    await this.database.db
      .execute(sql`insert into stripe_billing_links (payment_intent_id, subscription_id, customer_id) values (${paymentIntentId}, ${subscriptionId}, ${customerId})
      on conflict (payment_intent_id) do nothing`);
  }

  /**
   * Without JavaScript: a Checkout Session in mode=subscription for the plan's Price (and the shipping and tax
   * that repeat with it), for the shopper's Customer; the attempt's key and id in its metadata. Its address.
   */
  async startSession(a: {
    key: string;
    attemptId: string;
    currency: string;
    origin: string;
    successPath: string;
    amountDueCents: number;
    sub: SubscriptionCharge;
  }): Promise<string> {
    const { sub } = a;
    const cur = a.currency.toLowerCase();
    const extras = a.amountDueCents - sub.unitPriceCents * sub.quantity;
    if (extras < 0) throw new Error(billingMessages.NO_DISCOUNTS);
    const stripe = await this.client();
    const { priceId, productId } = await this.price(sub, cur);
    const customerId = await this.customer(sub.email);
    const metadata = { tessera_key: a.key, tessera_attempt: a.attemptId };
    const recurring = { interval: INTERVAL[sub.unit], interval_count: sub.every };
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        customer: customerId,
        line_items: [
          { price: priceId, quantity: sub.quantity },
          ...(extras > 0 ? [{ price_data: { currency: cur, product: productId, unit_amount: extras, recurring }, quantity: 1 }] : []),
        ],
        client_reference_id: a.attemptId,
        metadata,
        subscription_data: { metadata: { ...metadata, tessera_cycles: String(sub.cycles) } },
        success_url: `${a.origin}${a.successPath}?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${a.origin}/checkout`,
      },
      { idempotencyKey: `tessera:${a.key}:subscription-session:${priceId}:${extras}:${customerId}` },
    );
    if (!session.url) throw new Error('Stripe answered a Checkout Session without its address');
    return session.url;
  }

  /**
   * A paid subscription Checkout Session: its first invoice's PaymentIntent (given the attempt's metadata and
   * linked to the subscription) and the attempt, or null while it is unpaid.
   */
  async sessionPayment(sessionId: string): Promise<{ pi: string; attemptId: string } | null> {
    const stripe = await this.client();
    const session = await stripe.checkout.sessions.retrieve(sessionId);
    const attemptId = session.metadata?.tessera_attempt ?? null;
    const subId = idOf(session.subscription);
    const invoiceId = idOf(session.invoice);
    const customerId = idOf(session.customer);
    if (session.mode !== 'subscription' || session.payment_status !== 'paid' || !attemptId || !subId || !invoiceId || !customerId)
      return null;
    const inv = await stripe.invoices.retrieve(invoiceId, { expand: ['payments'] });
    const pi = invoicePaymentIntent(inv);
    if (!pi) return null;
    await this.linkSession(pi, subId, customerId, { tessera_key: session.metadata?.tessera_key ?? '', tessera_attempt: attemptId });
    await this.endAfterCycles(subId);
    return { pi, attemptId };
  }

  /**
   * After a whole refund of a first invoice's PaymentIntent whose order was never made (the order failed after
   * the payment, or a second charge of one attempt): its subscription must not go on billing, so it is cancelled.
   */
  async cancelUnordered(paymentIntentId: string): Promise<void> {
    const r = await rows<{ subscription_id: string }>(
      this.database.db,
      sql`select l.subscription_id from stripe_billing_links l where l.payment_intent_id = ${paymentIntentId}
        and not exists (select 1 from subscriptions s where s.provider_subscription_id = l.subscription_id)`,
    );
    if (r[0]) await this.cancel(r[0].subscription_id);
  }

  /** Cancels at Stripe now (DELETE /v1/subscriptions/:id); one already cancelled there is fine. */
  async cancel(subscriptionId: string): Promise<void> {
    const stripe = await this.client();
    try {
      await stripe.subscriptions.cancel(subscriptionId, {}, { idempotencyKey: `tessera:cancel-subscription:${subscriptionId}` });
    } catch (e) {
      if (!(e instanceof Stripe.errors.StripeInvalidRequestError)) throw e;
      const s = await stripe.subscriptions.retrieve(subscriptionId);
      if (s.status !== 'canceled' && s.status !== 'incomplete_expired') throw e;
    }
  }

  // ---- Webhook events ----------------------------------------------------------------------------------------

  /**
   * invoice.paid: the first invoice settles its checkout attempt (the order, if the shopper's return did not
   * make it already); each later invoice is a renewal order, once per invoice id.
   */
  async invoicePaid(invoiceId: string, checkout: CheckoutService, origin: string, siteTitle: string): Promise<string> {
    const stripe = await this.client();
    const inv = await stripe.invoices.retrieve(invoiceId, { expand: ['payments'] });
    const subId = invoiceSubscription(inv);
    const piId = invoicePaymentIntent(inv);
    if (!subId || !piId) return 'not a subscription invoice';
    if (inv.status !== 'paid') return `waiting (${String(inv.status)})`;
    if (inv.billing_reason === 'subscription_create') {
      const pi = await this.provider.retrieve(piId);
      const attemptId = pi.metadata?.tessera_attempt ?? null;
      if (!attemptId) return 'not ours';
      const r = await checkout.settlePayment(STRIPE_PROVIDER, piId, attemptId);
      await this.endAfterCycles(subId);
      await this.syncSubscription(subId);
      return r ?? 'settled before';
    }
    const found = await rows<{ id: string }>(this.database.db, sql`select id from subscriptions where provider_subscription_id = ${subId}`);
    if (!found[0]) return 'unknown subscription';
    const paid = await this.provider.lookup('', piId);
    const payment = {
      provider: STRIPE_PROVIDER,
      paymentId: piId,
      brand: paid?.brand ?? 'card',
      last4: paid?.last4 ?? '',
      amountCents: inv.amount_paid,
      invoiceId: inv.id,
    };
    const made = await this.database.db.transaction(async (tx) => {
      const r = await rows<Obj>(
        tx,
        sql`insert into orders (id, website_id, idempotency_key, cart_id, cart_kind, email, currency, test_mode, shipping_address, items, subtotal_cents, shipping_cents,
            tax_cents, grand_total_cents, shipping_option, tax_rules, payment, status, subscription_id)
          select ${newId()}, o.website_id, ${`stripe-invoice:${inv.id}`}, o.cart_id, 'subscription', o.email, o.currency, o.test_mode, o.shipping_address, o.items,
            o.subtotal_cents, o.shipping_cents, o.tax_cents, ${inv.amount_paid}, o.shipping_option, o.tax_rules, ${JSON.stringify(payment)}::jsonb, 'paid', s.id
          from subscriptions s join orders o on o.id = s.order_id where s.id = ${found[0]!.id}
          on conflict (website_id, idempotency_key) do nothing returning *`,
      );
      if (!r[0]) return null;
      const order = orderFrom(r[0]);
      // The renewal ships again: its stock is taken (never below 0: the money is already taken).
      for (const i of order.items) {
        const type = Number(i.productType);
        if ((type === ProductType.PHYSICAL || type === ProductType.SERVICE) && typeof i.variantId === 'string') {
          await tx.execute(
            sql`update product_variants set qty_in_stock = greatest(0, qty_in_stock - ${Number(i.quantity)}) where id = ${i.variantId} and not unlimited`,
          );
        }
      }
      await tx.execute(sql`update subscriptions set status = 'active' where id = ${found[0]!.id} and status = 'past_due'`);
      await this.mailer.enqueue(tx, checkout.confirmationEmail(order, { origin, siteTitle }, [], Date.now()));
      for (const hook of orderPlacedHooks(this.database)) await hook(tx, order);
      return order;
    });
    if (!made) return 'renewal recorded before';
    this.mailer.kick();
    await this.syncSubscription(subId);
    return 'renewal recorded';
  }

  /** invoice.payment_failed: the subscription is past due and the owners are told (once, when it becomes so). */
  async invoiceFailed(invoiceId: string, origin: string): Promise<string> {
    const stripe = await this.client();
    const inv = await stripe.invoices.retrieve(invoiceId);
    const subId = invoiceSubscription(inv);
    if (!subId) return 'not a subscription invoice';
    const changed = await this.database.db.transaction(async (tx) => {
      const r = await rows<Obj>(
        tx,
        sql`update subscriptions s set status = 'past_due' from orders o where o.id = s.order_id and s.provider_subscription_id = ${subId} and s.status = 'active'
          returning s.id, s.website_id, s.email, o.order_number, o.currency`,
      );
      const s = r[0];
      if (!s) return false;
      const owners = await rows<{ email: string }>(
        tx,
        sql`select email from accounts where website_id = ${String(s.website_id)} and role in (${Role.ADMIN}, ${Role.STORE_MANAGER}) order by created_at, id`,
      );
      const due = formatMoney(inv.amount_due, String(s.currency));
      await this.mailer.enqueue(
        tx,
        owners.map((a) => ({
          kind: 'subscription-past-due',
          to: a.email,
          subject: `A subscription payment failed (order #${String(s.order_number)})`,
          text: [
            `Stripe could not take the ${due} renewal of the subscription from order #${String(s.order_number)} (${String(s.email)}). The subscription is past due.`,
            '',
            'Stripe retries the payment on its own schedule; a renewal paid later is recorded as an order as usual.',
            '',
            `Orders: ${origin}/config/orders`,
          ].join('\n'),
          ref: String(s.id),
        })),
      );
      return true;
    });
    if (changed) this.mailer.kick();
    return changed ? 'past due' : 'no change';
  }

  /** customer.subscription.updated/deleted: our row follows the subscription as Stripe has it now. */
  async syncSubscription(subscriptionId: string): Promise<string> {
    const stripe = await this.client();
    let s: Stripe.Subscription;
    try {
      s = await stripe.subscriptions.retrieve(subscriptionId);
    } catch (e) {
      if (e instanceof Stripe.errors.StripeInvalidRequestError && e.code === 'resource_missing') return 'unknown subscription';
      throw e;
    }
    const status = statusOf(s);
    const periodEnd = s.items.data[0]?.current_period_end ?? null;
    const r = await rows<{ id: string }>(
      this.database.db,
      sql`update subscriptions set
          status = case when ${status}::text is null then status when status in ('canceled', 'ended') then status else ${status}::text end,
          canceled_at = case when ${status}::text in ('canceled', 'ended') and canceled_at is null then now() else canceled_at end,
          cancel_at = ${s.cancel_at ? new Date(s.cancel_at * 1000).toISOString() : null}::timestamptz,
          current_period_end = ${periodEnd ? new Date(periodEnd * 1000).toISOString() : null}::timestamptz
        where provider_subscription_id = ${subscriptionId} returning id`,
    );
    return r.length ? `synced (${s.status})` : 'unknown subscription';
  }
}
