/**
 * Checkout without JavaScript. The checkout page (web/pages/CheckoutPage.tsx) is one real form: every
 * field named, POST to /api/checkout/form with the crumb and an idempotency key in hidden fields. The
 * buttons say what to do (`action`): apply a coupon, remove one (`removeCoupon`), apply a gift card,
 * update the shipping options, or place the order (the default). Each calls the same CheckoutService
 * the island's calls use:
 * - the others save the quote (CheckoutService.quote) and 303 back to /checkout, which shows the saved
 *   state (POST/redirect/GET); a subscription cart, whose state is not saved, gets the page again;
 * - place-order runs `placePlainOrder`: CheckoutService.place with the built-in test provider's card
 *   payment, then 303 to the order-confirmed page. A refusal draws the page again with the posted values
 *   kept (never the card number or code), the refusal message above the button and each field's error
 *   next to it, exactly as the island shows an API error.
 * With Stripe connected, `placePlainOrder` sends the shopper to a Stripe Checkout Session for the same lines
 * and totals instead (stripe/hosted.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { randomUUID } from 'node:crypto';
import { PageType } from '../../core/enums.js';
import { HttpError } from '../errors.js';
import { renderIsland } from '../../web/ssr.js';
import type { CheckoutPageProps } from '../../core/api/checkout.js';
import type { PaymentMethodInput } from '../payments/index.js';
import { checkoutMessages } from '../../core/messages.js';
import { type CartRef, type CheckoutService, type CheckoutState } from './service.js';
import { addressFormat, countryOptions, defaultCountry, sendSitePage } from '../site-page/index.js';

export const CHECKOUT_FORM_PATH = '/api/checkout/form';

/** The words for a payment that needs the bank's own confirmation step, which needs JavaScript here. */
export const NEEDS_SCRIPT_AUTH =
  'Your bank asks you to confirm this payment in a window that needs JavaScript. Please turn on JavaScript, or use another card.';

type Body = Record<string, unknown>;
const one = (v: unknown, max: number): string | undefined => {
  const s = typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;
  return s === undefined ? undefined : s.slice(0, max);
};
const many = (v: unknown): string[] =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((x): x is string => typeof x === 'string');

/** The checkout state a plain post describes: the fields, the applied coupons plus a new one, minus a removed one. */
export function plainState(body: Body): { state: CheckoutState; action: string; newCoupon: string | null } {
  const removed = one(body.removeCoupon, 64)?.trim().toUpperCase() ?? null;
  const action = removed ? 'removeCoupon' : (one(body.action, 20) ?? 'place');
  const newCoupon = action === 'coupon' ? (one(body.coupon, 64)?.trim().toUpperCase() ?? '') || null : null;
  const coupons = [...new Set([...many(body.coupons).map((c) => c.slice(0, 64).trim().toUpperCase()), ...(newCoupon ? [newCoupon] : [])])]
    .filter((c) => c && c !== removed)
    .slice(0, 10);
  const address = {
    name: one(body.name, 200) ?? '',
    line1: one(body.line1, 200) ?? '',
    line2: one(body.line2, 200) ?? '',
    city: one(body.city, 100) ?? '',
    region: (one(body.region, 100) ?? '').toUpperCase(),
    postalCode: one(body.postalCode, 20) ?? '',
    country: /^[A-Za-z]{2}$/.test(one(body.country, 2) ?? '') ? one(body.country, 2)!.toUpperCase() : '',
  };
  const hasAddress = ['name', 'line1', 'line2', 'city', 'region', 'postalCode', 'country'].some((k) => body[k] !== undefined);
  const gift = action === 'giftCard' || body.giftCardCode !== undefined ? (one(body.giftCardCode, 64)?.trim() ?? '') : '';
  return {
    action,
    newCoupon,
    state: {
      email: one(body.email, 256)?.trim() ?? '',
      shippingAddress: hasAddress ? address : null,
      selectedShippingOptionId: one(body.shipping, 64) ?? null,
      coupons,
      giftCardCode: gift || null,
    },
  };
}

export interface PlainCheckoutDeps {
  checkout: CheckoutService;
  refOf: (req: FastifyRequest, cartToken: string | undefined) => Promise<CartRef | null>;
  /** The place-order and coupon limits of the JSON calls, so a plain post gets no fresh allowance. */
  preHandler: preHandlerHookHandler[] | Array<(req: FastifyRequest) => Promise<void>>;
}

export async function plainCheckoutRoutes(app: FastifyInstance, deps: PlainCheckoutDeps) {
  const { checkout, refOf } = deps;
  const { websites } = app.services;

  /** The checkout page again, for this post: its values, the server's errors and message. */
  async function redraw(
    req: FastifyRequest,
    reply: FastifyReply,
    ref: CartRef | null,
    cartToken: string | undefined,
    state: CheckoutState,
    status: number,
    extra: { errors?: Record<string, string>; message?: string; cardName?: string },
  ) {
    const site = await websites.get();
    const view = await checkout.view(site.id, site.currency, ref, state);
    const settings = websites.storeSettings(site);
    const stripeOn = app.hasDecorator('stripe') && app.stripe.active();
    const props: CheckoutPageProps = {
      view: view as unknown as CheckoutPageProps['view'],
      cartToken: cartToken ?? null,
      minimumOrderSubtotalCents: ref?.kind === 'cart' ? Math.max(0, Number(settings.minimumOrderSubtotalCents) || 0) : 0,
      // The page as /checkout draws it: Stripe's element (or its no-JavaScript note) once Stripe is connected.
      testMode: stripeOn ? app.stripe.provider.testMode : true,
      stripe: ref && stripeOn ? await app.stripe.checkoutConfig() : null,
      crumb: req.crumb,
      plainKey: randomUUID(),
      countries: countryOptions(site.locale),
      addressFormat: addressFormat(view.state.shippingAddress?.country || defaultCountry(site.locale, site.settings), site.locale),
      ...extra,
    };
    return sendSitePage(app, req, reply, {
      template: 'system/checkout.html',
      pageType: PageType.CHECKOUT,
      status,
      title: 'Checkout',
      ctx: {
        cart: view.cart,
        checkoutPage: renderIsland('CheckoutPage', props as unknown as Record<string, unknown>),
        empty: (view.cart.entries as unknown[] | undefined)?.length === 0,
      },
    });
  }

  /** The coupon limit of the JSON calls counts `coupons` as an array: a plain post's are put in that shape first. */
  const normalise = async (req: FastifyRequest) => {
    const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Body;
    const { state } = plainState(body);
    (req as { body: unknown }).body = { ...body, coupons: state.coupons };
  };

  app.post(
    CHECKOUT_FORM_PATH,
    { preHandler: [normalise, ...(deps.preHandler as Array<(req: FastifyRequest) => Promise<void>>)], bodyLimit: 32 * 1024 },
    async (req, reply) => {
      const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Body;
      const q = (req.query ?? {}) as Record<string, unknown>;
      const cartToken = one(q.cartToken, 100) ?? one(body.cartToken, 100);
      const back = cartToken ? `/checkout?cartToken=${encodeURIComponent(cartToken)}` : '/checkout';
      reply.header('cache-control', 'no-store');
      const { state, action } = plainState(body);
      const ref = await refOf(req, cartToken);
      if (!ref) return reply.redirect(back, 303);
      const site = await websites.get();

      if (action !== 'place') {
        const view = await checkout.quote(site.id, site.currency, ref, state);
        if (action === 'giftCard' && state.giftCardCode && view.pricing.giftCardBalanceCents <= 0) {
          const kept = { ...state, giftCardCode: null };
          await checkout.quote(site.id, site.currency, ref, kept);
          return redraw(req, reply, ref, cartToken, kept, 400, {
            errors: { giftCardCode: checkoutMessages.GIFT_CARD_UNKNOWN },
            cardName: one(body.cardName, 200),
          });
        }
        if (ref.kind === 'cart') return reply.redirect(back, 303);
        return redraw(req, reply, ref, cartToken, state, 200, { cardName: one(body.cardName, 200) });
      }
      return placePlainOrder(app, req, reply, {
        checkout,
        ref,
        state,
        body,
        redraw: (status, extra) => redraw(req, reply, ref, cartToken, state, status, extra),
      });
    },
  );
}

/**
 * Place order from a plain post: the built-in provider's card payment through CheckoutService.place, the
 * same call /api/checkout/place-order makes. Paid: 303 to the order-confirmed page. Refused: the page again.
 */
export async function placePlainOrder(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  o: {
    checkout: CheckoutService;
    ref: CartRef;
    state: CheckoutState;
    body: Body;
    redraw: (status: number, extra: { errors?: Record<string, string>; message?: string; cardName?: string }) => Promise<unknown>;
  },
) {
  const { checkout, ref, state, body } = o;
  const cardName = one(body.cardName, 200);
  const key = one(body.idempotencyKey, 200) ?? '';
  const site = await app.services.websites.get();
  const settings = app.services.websites.storeSettings(site);
  // Save what was entered, so the page keeps it whatever the answer.
  if (ref.kind === 'cart') await checkout.quote(site.id, site.currency, ref, state);
  const expected = Number(one(body.expectedTotalCents, 20));
  const number = one(body.cardNumber, 30) ?? '';
  const payment: PaymentMethodInput | null =
    number || body.cardExpiry || body.cardCvc
      ? ({
          type: 'card',
          number,
          expiry: one(body.cardExpiry, 10) ?? '',
          cvc: one(body.cardCvc, 6) ?? '',
          name: cardName,
        } as PaymentMethodInput)
      : null;
  try {
    if (!/^[A-Za-z0-9_-]{8,128}$/.test(key)) throw new HttpError(400, checkoutMessages.KEY_REQUIRED);
    // Stripe connected: the same lines and totals go to a Stripe Checkout Session and the shopper pays on
    // Stripe's page (no card fields are drawn then); success and cancel come back to Tessera. A subscription
    // goes to a Checkout Session in mode=subscription (Stripe Billing, stripe/billing.ts).
    const order = {
      websiteId: site.id,
      currency: site.currency,
      siteTitle: site.title,
      origin: await app.emailOrigin(),
      locale: site.locale,
      ref,
      state,
      key,
      minimumOrderSubtotalCents: ref.kind === 'cart' ? Math.max(0, Number(settings.minimumOrderSubtotalCents) || 0) : 0,
      expectedTotalCents: Number.isSafeInteger(expected) && expected >= 0 ? expected : null,
    };
    if (app.hasDecorator('stripe') && app.stripe.active()) {
      const r = await app.stripe.startCheckout({ ...order, payment: null });
      reply.header('cache-control', 'no-store');
      return reply.redirect('url' in r ? r.url : checkout.confirmationPath(r.order), 303);
    }
    const result = await checkout.place({ ...order, payment });
    if (result.status === 'requires_action') return o.redraw(402, { message: NEEDS_SCRIPT_AUTH, cardName });
    return reply.redirect(checkout.confirmationPath(result.order), 303);
  } catch (e) {
    if (!(e instanceof HttpError) || e.status >= 500) throw e;
    return o.redraw(e.status, { errors: e.errors ?? {}, message: e.message, cardName });
  }
}
