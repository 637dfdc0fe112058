/**
 * Checkout without JavaScript: Stripe's hosted Checkout page. `startStripeCheckout` (for the checkout form's
 * POST, when Stripe is connected) records the payment attempt, creates a Checkout Session for the cart's
 * lines and totals (amount and currency from the server), and answers the address to redirect the shopper
 * to. Stripe sends the shopper back to /checkout/stripe/return (the order is made there or by the
 * checkout.session.completed webhook, whichever comes first) or, on cancel, to /checkout.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ProductType } from '../../core/enums.js';
import { badRequest, HttpError, notFound } from '../errors.js';
import { cartIdent } from '../visitor/index.js';
import { CART_COOKIE } from '../../core/cookies.js';
import { checkoutMessages } from '../../core/messages.js';
import { PAYMENT_RETURN_PATH, subscriptionCharge, type OrderLine, type PlaceInput } from '../checkout/index.js';
import type { OrderRow } from '../../core/orders.js';
import { KEY, placeSchema, stateOf } from '../checkout/index.js';
import type { CheckoutTotals } from '../../core/checkout.js';
import { STRIPE_PROVIDER } from './provider.js';
import { stripeMessages } from './settings.js';
import { isUnreachable } from './provider.js';
import { billingMessages } from './billing.js';

export const STRIPE_RETURN_PATH = '/checkout/stripe/return';

type LineItem = { quantity: number; price_data: { currency: string; unit_amount: number; product_data: { name: string } } };

/** The session's lines: the cart's lines, shipping and tax, or one line for the amount due when a discount or gift card changes it. */
export function sessionLines(lines: OrderLine[], t: CheckoutTotals, currency: string, siteTitle: string): LineItem[] {
  const cur = currency.toLowerCase();
  const item = (name: string, unit: number, quantity = 1): LineItem => ({
    quantity,
    price_data: { currency: cur, unit_amount: unit, product_data: { name: name.slice(0, 250) || 'Item' } },
  });
  const out = lines.map((l) => item(l.title, l.unitPriceCents, l.quantity));
  if (t.shippingCostCents > 0)
    out.push(item(`Shipping${t.selectedShippingOption ? ` (${t.selectedShippingOption.name})` : ''}`, t.shippingCostCents));
  if (t.taxCents > 0) out.push(item('Tax', t.taxCents));
  const sum = out.reduce((s, l) => s + l.price_data.unit_amount * l.quantity, 0);
  return sum === t.amountDueCents ? out : [item(`${siteTitle} order`, t.amountDueCents)];
}

/**
 * Starts a hosted Stripe Checkout for a place-order input: `{ url }` to redirect to, or the order when this
 * key already made one. Throws the same errors as place-order (400 missing details, 409 total changed).
 */
export async function startStripeCheckout(app: FastifyInstance, input: PlaceInput): Promise<{ url: string } | { order: OrderRow }> {
  const { service } = app.checkout;
  const prepared = await service.prepareHosted(input, STRIPE_PROVIDER);
  if ('order' in prepared) return prepared;
  const stripe = await app.stripe.settings.stripe();
  if (!stripe) throw new HttpError(503, stripeMessages.NOT_CONFIGURED);
  if (input.ref.kind === 'subscription') {
    // Stripe Billing's hosted page: a Checkout Session in mode=subscription (billing.ts).
    const sub = subscriptionCharge(prepared.lines[0]!, input.state.email ?? '');
    if (prepared.totals.amountDueCents < sub.unitPriceCents * sub.quantity) throw badRequest(billingMessages.NO_DISCOUNTS);
    try {
      const url = await app.stripe.billing.startSession({
        key: input.key,
        attemptId: prepared.attemptId,
        currency: input.currency,
        origin: input.origin,
        successPath: STRIPE_RETURN_PATH,
        amountDueCents: prepared.totals.amountDueCents,
        sub,
      });
      return { url };
    } catch (e) {
      if (isUnreachable(e)) throw new HttpError(503, checkoutMessages.PROVIDER_UNREACHABLE);
      throw e;
    }
  }
  const physicalOnly = prepared.lines.every((l) => l.productType === ProductType.PHYSICAL);
  const metadata = { tessera_key: input.key, tessera_attempt: prepared.attemptId };
  try {
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: sessionLines(prepared.lines, prepared.totals, input.currency, input.siteTitle),
        customer_email: input.state.email || undefined,
        client_reference_id: prepared.attemptId,
        metadata,
        payment_intent_data: { metadata, description: `${input.siteTitle} order` },
        success_url: `${input.origin}${STRIPE_RETURN_PATH}?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${input.origin}/checkout`,
      },
      { idempotencyKey: `tessera:${input.key}:session:${prepared.totals.amountDueCents}:${physicalOnly ? 'p' : 'm'}` },
    );
    if (!session.url) throw new Error('Stripe answered a Checkout Session without its address');
    return { url: session.url };
  } catch (e) {
    if (isUnreachable(e)) throw new HttpError(503, checkoutMessages.PROVIDER_UNREACHABLE);
    throw e;
  }
}

/** Where Stripe's page sends a donor back (hosted.ts), and cancel. */
export const STRIPE_DONATION_RETURN_PATH = '/donate/stripe/return';

/**
 * A donation paid on Stripe's Checkout page: one line for the amount (from the server's validation), the attempt's
 * key and id in the metadata of the session and its PaymentIntent. Answers the address to send the donor to.
 */
export async function startStripeDonation(
  app: FastifyInstance,
  d: { attemptId: string; attemptKey: string; amountCents: number; currency: string; siteTitle: string; email: string; origin: string },
): Promise<string> {
  const stripe = await app.stripe.settings.stripe();
  if (!stripe) throw new HttpError(503, stripeMessages.NOT_CONFIGURED);
  const metadata = { tessera_key: d.attemptKey, tessera_attempt: d.attemptId, tessera_kind: 'donation' };
  try {
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: d.currency.toLowerCase(),
              unit_amount: d.amountCents,
              product_data: { name: `Donation to ${d.siteTitle}`.slice(0, 250) },
            },
          },
        ],
        customer_email: d.email || undefined,
        client_reference_id: d.attemptId,
        metadata,
        payment_intent_data: { metadata, description: `Donation to ${d.siteTitle}`.slice(0, 1000) },
        success_url: `${d.origin}${STRIPE_DONATION_RETURN_PATH}?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${d.origin}/donate`,
      },
      { idempotencyKey: `tessera:${d.attemptKey}:session:${d.amountCents}` },
    );
    if (!session.url) throw new Error('Stripe answered a Checkout Session without its address');
    return session.url;
  } catch (e) {
    if (isUnreachable(e)) throw new HttpError(503, checkoutMessages.PROVIDER_UNREACHABLE);
    throw e;
  }
}

/** A completed Checkout Session's PaymentIntent and attempt, or null while it is unpaid (the return pages). */
async function paidSession(app: FastifyInstance, sessionId: string): Promise<{ pi: string; attemptId: string } | null> {
  const stripe = await app.stripe.settings.stripe();
  if (!stripe) return null;
  let session;
  try {
    session = await stripe.checkout.sessions.retrieve(sessionId);
    // A subscription's session pays its first invoice: that invoice's PaymentIntent (billing.ts).
    if (session.mode === 'subscription') return await app.stripe.billing.sessionPayment(sessionId);
  } catch (e) {
    if (isUnreachable(e)) throw new HttpError(503, checkoutMessages.PROVIDER_UNREACHABLE);
    return null;
  }
  const attemptId = session.metadata?.tessera_attempt ?? null;
  const pi = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
  if (session.payment_status !== 'paid' || !pi || !attemptId) return null;
  return { pi, attemptId };
}

/** The routes of the hosted Checkout: start it (JSON, or a form post answered with a redirect) and the shopper's return. */
export async function stripeHostedRoutes(app: FastifyInstance) {
  const limit = app.services.rateLimiter.guard({
    name: 'stripe-session',
    max: 30,
    windowMs: 60_000,
    key: (req: FastifyRequest) => req.cookies[CART_COOKIE] ?? req.ip,
    ipMax: 300,
    message: 'Too many attempts. Please wait a minute and try again.',
  });

  app.post('/api/payments/stripe/checkout-session', { preHandler: limit, bodyLimit: 32 * 1024 }, async (req, reply) => {
    if (!app.stripe.active()) throw notFound('Stripe is not connected on this site.');
    const body = placeSchema.parse(req.body ?? {});
    const header = req.headers['idempotency-key'];
    const key = (Array.isArray(header) ? header[0] : header) ?? body.idempotencyKey;
    if (!key || !KEY.test(key)) throw badRequest(checkoutMessages.KEY_REQUIRED, { idempotencyKey: checkoutMessages.KEY_REQUIRED });
    const site = await app.services.websites.get();
    const cart = await app.services.carts.find(cartIdent(req));
    if (!cart) throw notFound(checkoutMessages.NO_CART);
    const settings = app.services.websites.storeSettings(site);
    const r = await startStripeCheckout(app, {
      websiteId: site.id,
      currency: site.currency,
      siteTitle: site.title,
      origin: await app.emailOrigin(),
      locale: site.locale,
      ref: { kind: 'cart', id: cart.id },
      state: stateOf(body),
      payment: null,
      key,
      minimumOrderSubtotalCents: Math.max(0, Number(settings.minimumOrderSubtotalCents) || 0),
      expectedTotalCents: body.expectedTotalCents ?? null,
    });
    const url = 'url' in r ? r.url : app.checkout.service.confirmationPath(r.order);
    reply.header('cache-control', 'no-store');
    if (String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return reply.redirect(url, 303);
    return { url };
  });

  /**
   * Back from a page a payment method sent the shopper to (Afterpay, a bank's 3-D Secure page), with Stripe's
   * `payment_intent` parameter: the order (made now if the webhook has not yet), or the checkout with a message.
   * Only the PaymentIntent as Stripe has it counts, never the `redirect_status` in the address.
   */
  app.get(PAYMENT_RETURN_PATH, async (req: FastifyRequest, reply: FastifyReply) => {
    const q = z.object({ payment_intent: z.string().regex(/^pi_[A-Za-z0-9_]{1,200}$/) }).safeParse(req.query ?? {});
    reply.header('cache-control', 'no-store');
    if (!q.success || !app.stripe.active()) return reply.redirect('/checkout', 303);
    let pi;
    try {
      pi = await app.stripe.provider.retrieve(q.data.payment_intent);
    } catch (e) {
      if (isUnreachable(e)) throw new HttpError(503, checkoutMessages.PROVIDER_UNREACHABLE);
      return reply.redirect('/checkout?payment=failed', 303);
    }
    const attemptId = pi.metadata?.tessera_attempt ?? null;
    // Some methods settle later (a bank debit): the webhook makes the order then, so the shopper is not told
    // the payment failed, nor invited to pay twice.
    if (pi.status === 'processing' && attemptId) return reply.redirect('/checkout?payment=processing', 303);
    if (pi.status !== 'succeeded' || !attemptId) return reply.redirect('/checkout?payment=failed', 303);
    await app.checkout.service.settlePayment(STRIPE_PROVIDER, pi.id, attemptId);
    const order = await app.checkout.service.orderOfAttempt(attemptId);
    return reply.redirect(order ? app.checkout.service.confirmationPath(order) : '/checkout?payment=failed', 303);
  });

  /** Stripe sends the shopper back here: the order (made now if the webhook has not yet), or the checkout again. */
  app.get(STRIPE_RETURN_PATH, async (req: FastifyRequest, reply: FastifyReply) => {
    const q = z.object({ session_id: z.string().regex(/^cs_[A-Za-z0-9_]{1,200}$/) }).safeParse(req.query ?? {});
    reply.header('cache-control', 'no-store');
    if (!q.success) return reply.redirect('/checkout', 303);
    const paid = await paidSession(app, q.data.session_id);
    if (!paid) return reply.redirect('/checkout', 303);
    const { pi, attemptId } = paid;
    await app.checkout.service.settlePayment(STRIPE_PROVIDER, pi, attemptId);
    const order = await app.checkout.service.orderOfAttempt(attemptId);
    return reply.redirect(order ? app.checkout.service.confirmationPath(order) : '/checkout', 303);
  });
}
