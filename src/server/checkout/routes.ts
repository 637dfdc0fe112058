/**
 * Visitor-facing checkout: the checkout page (201), quotes, place-order (idempotent), the test provider's
 * authentication step, and the pages after the order: order confirmed (202), order status (211, by a signed
 * link), subscription confirmed (206) and time-limited digital downloads.
 */
import { checkoutInstalments } from './instalment-offer.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PageType, ProductType } from '../../core/enums.js';
import { formatMoney } from '../../core/money.js';
import { checkoutMessages, commerce } from '../../core/messages.js';
import { CRUMB_COOKIE } from '../../core/cookies.js';
import { cartIdent } from '../visitor/index.js';
import { CART_COOKIE } from '../../core/cookies.js';
import { HttpError, badRequest, notFound } from '../errors.js';
import { renderIsland } from '../../web/ssr.js';
import type { CheckoutPageProps } from '../../core/api/checkout.js';
import { checkoutStateIn, placeIn } from '../../core/api/checkout.js';
import { storableText } from '../../core/api/common.js';
import type { PaymentMethodInput } from '../payments/index.js';
import type { TestPaymentProvider } from '../payments/index.js';
import { purchaseConfirmation, type CartRef, type CheckoutService, type CheckoutState } from './service.js';
import { addressFormat, countryOptions, defaultCountry, formatAddress, sendSitePage } from '../site-page/index.js';
import { randomUUID } from 'node:crypto';
import { plainCheckoutRoutes } from './checkout-form.js';
import { privateFileOf, sendDigitalFile } from '../catalog/index.js';
import { prefillFromAccount } from '../platform/index.js';
import { orderStatusLabel, type OrderRow } from '../../core/orders.js';

const str = storableText;
const stateSchema = checkoutStateIn;
export const placeSchema = placeIn;

export const KEY = /^[A-Za-z0-9_-]{8,128}$/;

export function stateOf(body: z.infer<typeof stateSchema>): CheckoutState {
  return {
    email: body.email?.trim(),
    shippingAddress: body.shippingAddress ?? null,
    selectedShippingOptionId: body.selectedShippingOptionId ?? null,
    coupons: body.coupons ?? [],
    giftCardCode: body.giftCardCode ?? null,
  };
}

export async function checkoutRoutes(app: FastifyInstance, opts: { checkout: CheckoutService; testProvider: TestPaymentProvider }) {
  const ctx = checkoutRoutesCtx(app, opts);
  await checkoutPageRoutes(app, opts, ctx);
  await checkoutCallRoutes(app, opts, ctx);
  await afterOrderRoutes(app, opts, ctx);
}

type CheckoutRoutesCtx = ReturnType<typeof checkoutRoutesCtx>;

/** What the calls of checkoutRoutes share. */
function checkoutRoutesCtx(app: FastifyInstance, opts: { checkout: CheckoutService; testProvider: TestPaymentProvider }) {
  const { checkout, testProvider } = opts;
  const { websites, carts } = app.services;
  const COUPON_PER_CART = { name: 'checkout-coupon-cart', max: 40, windowMs: 10 * 60_000, message: commerce.RATE_LIMITED };
  const COUPON_PER_IP = { name: 'checkout-coupon-ip', max: 100, windowMs: 10 * 60_000, message: commerce.RATE_LIMITED };
  const visitorKey = (req: FastifyRequest) => req.cookies[CRUMB_COOKIE] ?? req.cookies[CART_COOKIE] ?? req.ip;

  /** The cart a request checks out: a subscription cart by its token, else the visitor's shopping cart. */
  async function refOf(req: FastifyRequest, cartToken: string | undefined): Promise<CartRef | null> {
    if (cartToken) {
      const s = await checkout.subscriptionCart(cartToken);
      return s && !s.isPurchased ? { kind: 'subscription', id: s.id } : null;
    }
    const cart = await carts.find(cartIdent(req));
    return cart ? { kind: 'cart', id: cart.id } : null;
  }

  return { checkout, testProvider, websites, carts, COUPON_PER_CART, COUPON_PER_IP, visitorKey, refOf };
}

async function checkoutPageRoutes(
  app: FastifyInstance,
  opts: { checkout: CheckoutService; testProvider: TestPaymentProvider },
  ctx: CheckoutRoutesCtx,
) {
  const { checkout, websites, refOf } = ctx;
  // ---- The checkout page (201) -------------------------------------------------------------------

  const checkoutPage = async (req: FastifyRequest, reply: FastifyReply) => {
    const q = z.object({ cartToken: str(100).optional(), payment: z.string().max(20).optional() }).parse(req.query ?? {});
    const site = await websites.get();
    const ref = await refOf(req, q.cartToken);
    const saved = ref?.kind === 'cart' ? await checkout.savedState(ref.id) : {};
    // A signed-in customer starts from their account: its email and default saved address (platform/account-data.ts).
    const state = ref ? await prefillFromAccount(app, req.siteUser, saved) : saved;
    const view = await checkout.view(site.id, site.currency, ref, state);
    const settings = websites.storeSettings(site);
    const stripeOn = app.hasDecorator('stripe') && app.stripe.active();
    const props: CheckoutPageProps = {
      view: view as unknown as CheckoutPageProps['view'],
      cartToken: q.cartToken ?? null,
      minimumOrderSubtotalCents: ref?.kind === 'cart' ? Math.max(0, Number(settings.minimumOrderSubtotalCents) || 0) : 0,
      // The test-mode banner: shown unless a live payment processor (Stripe with live keys) takes the cards.
      testMode: (app.checkout.payments.cardProvider?.() ?? app.checkout.payments.defaultProvider).testMode,
      // Stripe connected: the Payment Element on this page pays a cart, and a subscription's first invoice (Stripe Billing).
      stripe: ref && stripeOn ? await app.stripe.checkoutConfig() : null,
      // Back from a payment page (Afterpay, a bank) without a payment.
      ...(q.payment === 'failed'
        ? { message: checkoutMessages.PAYMENT_NOT_COMPLETED }
        : q.payment === 'processing'
          ? { message: checkoutMessages.PAYMENT_PROCESSING }
          : {}),
      // The page is also a plain form post (no JavaScript): checkout/checkout-form.ts.
      crumb: req.crumb,
      plainKey: randomUUID(),
      countries: countryOptions(site.locale),
      addressFormat: addressFormat(view.state.shippingAddress?.country || defaultCountry(site.locale, site.settings), site.locale),
      instalments: await checkoutInstalments(app, site.currency, ref, view.cart.entries as Array<{ productType?: number }> | undefined),
    };
    const checkoutIsland = renderIsland('CheckoutPage', props as unknown as Record<string, unknown>);
    return sendSitePage(app, req, reply, {
      template: 'system/checkout.html',
      pageType: PageType.CHECKOUT,
      status: ref ? 200 : q.cartToken ? 404 : 200,
      title: 'Checkout',
      ctx: {
        cart: view.cart,
        checkoutPage: checkoutIsland,
        empty: view.cart.entries === undefined || (view.cart.entries as unknown[]).length === 0,
      },
    });
  };
  app.get('/checkout', checkoutPage);
}

/** The checkout page's calls: the cart, the quote, placing the order, the test provider. */
async function checkoutCallRoutes(
  app: FastifyInstance,
  opts: { checkout: CheckoutService; testProvider: TestPaymentProvider },
  ctx: CheckoutRoutesCtx,
) {
  const { checkout, testProvider, websites, COUPON_PER_CART, COUPON_PER_IP, visitorKey, refOf } = ctx;
  // ---- Calls ---------------------------------------------------------------------------------------

  app.get('/api/checkout', async (req, reply) => {
    const q = z.object({ cartToken: str(100).optional() }).parse(req.query ?? {});
    const site = await websites.get();
    const ref = await refOf(req, q.cartToken);
    const state = ref?.kind === 'cart' ? await checkout.savedState(ref.id) : {};
    reply.header('cache-control', 'no-store');
    return checkout.view(site.id, site.currency, ref, state);
  });

  // Per visitor, with a per-IP ceiling (rate-limit.ts guard): a fresh crumb cookie gets no fresh allowance.
  const quoteLimit = app.services.rateLimiter.guard({
    name: 'checkout-quote',
    max: 120,
    windowMs: 60_000,
    key: visitorKey,
    ipMax: 1200,
    message: commerce.RATE_LIMITED,
  });
  /** Coupon codes tried, each one counted per cart and per IP (issue 21, item 11): codes cannot be guessed without limit. */
  const couponLimit = async (req: FastifyRequest) => {
    const b = (req.body ?? {}) as { coupons?: unknown; cartToken?: unknown };
    if (!Array.isArray(b.coupons) || b.coupons.length === 0) return;
    const cart = typeof b.cartToken === 'string' && b.cartToken ? `t:${b.cartToken.slice(0, 100)}` : req.cookies[CART_COOKIE];
    const n = Math.min(b.coupons.length, 10);
    const checks = [];
    for (let i = 0; i < n; i++) {
      checks.push({ rule: COUPON_PER_IP, key: req.ip });
      if (cart) checks.push({ rule: COUPON_PER_CART, key: cart.slice(0, 200) });
    }
    await app.services.rateLimiter.checkAll(checks);
  };
  app.post('/api/checkout/quote', { preHandler: [quoteLimit, couponLimit], bodyLimit: 32 * 1024 }, async (req, reply) => {
    const body = stateSchema.parse(req.body ?? {});
    const site = await websites.get();
    const ref = await refOf(req, body.cartToken);
    reply.header('cache-control', 'no-store');
    return checkout.quote(site.id, site.currency, ref, stateOf(body));
  });

  const placeLimit = app.services.rateLimiter.guard({
    name: 'checkout-place',
    max: 30,
    windowMs: 60_000,
    key: visitorKey,
    ipMax: 300,
    message: commerce.RATE_LIMITED,
  });
  app.post('/api/checkout/place-order', { preHandler: [placeLimit, couponLimit], bodyLimit: 32 * 1024 }, async (req, reply) => {
    const body = placeSchema.parse(req.body ?? {});
    const header = req.headers['idempotency-key'];
    const key = (Array.isArray(header) ? header[0] : header) ?? body.idempotencyKey;
    if (!key || !KEY.test(key)) throw badRequest(checkoutMessages.KEY_REQUIRED, { idempotencyKey: checkoutMessages.KEY_REQUIRED });
    const site = await websites.get();
    let ref = await refOf(req, body.cartToken);
    if (!ref) {
      // A retry after the first attempt went through: the cart is purchased now; answer that order.
      const prior = await checkout.orderByKey(app.database.db, site.id, key);
      if (prior) ref = { kind: prior.cartKind === 'subscription' ? 'subscription' : 'cart', id: prior.cartId };
      if (!ref || !(await ownsCart(req, prior!, body.cartToken))) throw notFound(checkoutMessages.NO_CART);
    }
    const settings = websites.storeSettings(site);
    const result = await checkout.place({
      websiteId: site.id,
      currency: site.currency,
      siteTitle: site.title,
      origin: await app.emailOrigin(),
      locale: site.locale,
      ref,
      state: stateOf(body),
      payment: (body.payment ?? null) as PaymentMethodInput | null,
      key,
      minimumOrderSubtotalCents: Math.max(0, Number(settings.minimumOrderSubtotalCents) || 0),
      expectedTotalCents: body.expectedTotalCents ?? null,
    });
    reply.header('cache-control', 'no-store');
    if (result.status === 'requires_action') {
      return {
        status: 'requires_action',
        paymentId: result.paymentId,
        brand: result.brand,
        last4: result.last4,
        amountDueCents: result.amountDueCents,
        ...(result.clientSecret ? { clientSecret: result.clientSecret } : {}),
        ...(result.redirectUrl ? { redirectUrl: result.redirectUrl } : {}),
      };
    }
    const o = result.order;
    return {
      status: 'paid',
      duplicate: result.duplicate,
      purchaseConfirmation: purchaseConfirmation(o),
      confirmationUrl: checkout.confirmationPath(o),
      statusUrl: checkout.statusPath(o.id),
    };
  });

  // Checkout without JavaScript: the same page as a plain form post, the same service calls.
  await plainCheckoutRoutes(app, { checkout, refOf, preHandler: [placeLimit, couponLimit] });

  /** Whether the request holds the cart of an earlier order (its cookie, or the subscription cart token). */
  async function ownsCart(req: FastifyRequest, o: OrderRow, cartToken: string | undefined): Promise<boolean> {
    if (o.cartKind === 'subscription') {
      const s = cartToken ? await checkout.subscriptionCart(cartToken) : null;
      return !!s && s.id === o.cartId;
    }
    const token = req.cookies[CART_COOKIE];
    if (!token) return false;
    return checkout.cartHasToken(o.cartId, token);
  }

  /** The test provider's second authentication step (in a real provider, the bank's page). */
  app.post('/api/checkout/test-payments/:paymentId/authenticate', { preHandler: placeLimit }, async (req) => {
    const { paymentId } = z.object({ paymentId: z.string().regex(/^tp_[0-9a-f]{24}$/, 'Unknown payment.') }).parse(req.params);
    const { outcome } = z.object({ outcome: z.enum(['complete', 'fail']) }).parse(req.body ?? {});
    const ok = await testProvider.authenticate(paymentId, outcome === 'complete');
    if (!ok) throw new HttpError(409, 'This payment is not waiting for authentication.');
    return { paymentId, authenticated: outcome === 'complete' };
  });
}

/** After the order: the confirmation, status and download pages. */
async function afterOrderRoutes(
  app: FastifyInstance,
  opts: { checkout: CheckoutService; testProvider: TestPaymentProvider },
  ctx: CheckoutRoutesCtx,
) {
  const { checkout, websites } = ctx;
  // ---- After the order --------------------------------------------------------------------------

  async function signedOrder(req: FastifyRequest): Promise<OrderRow | null> {
    const p = z.object({ orderId: z.string().max(64) }).safeParse(req.params);
    const q = z.object({ t: z.string().max(64).optional() }).safeParse(req.query ?? {});
    if (!p.success || !q.success) return null;
    const { orderId } = p.data;
    const { t } = q.data;
    await checkout.loadSecret();
    if (!checkout.verify(`order:${orderId}`, t)) return null;
    const o = await checkout.order(orderId);
    return o && o.status !== 'pending' ? o : null;
  }

  async function orderContext(o: OrderRow) {
    const f = (c: number) => formatMoney(c, o.currency);
    const now = Date.now();
    const giftCards = await checkout.giftCardsOf(o.id);
    const subscription = await checkout.subscriptionOf(o.id);
    const { locale } = await websites.get();
    return {
      purchaseConfirmation: purchaseConfirmation(o),
      order: {
        id: o.id,
        orderNumber: o.orderNumber,
        email: o.email,
        status: o.status,
        statusLabel: orderStatusLabel(o.status, o.fulfilmentStatus),
        created: o.created.getTime(),
        testMode: o.testMode,
        // The parts as stored, and `lines`: the address as its country writes it (core/address-format.ts).
        shippingAddress: o.shippingAddress ? { ...o.shippingAddress, lines: formatAddress(o.shippingAddress, locale) } : null,
        shippingOption: o.shippingOption,
        payment: o.payment && typeof o.payment.last4 === 'string' ? { brand: o.payment.brand, last4: o.payment.last4 } : null,
        items: o.items.map((i, idx) => ({
          sku: i.sku,
          productName: i.productName,
          quantity: i.quantity,
          unitPrice: f(Number(i.unitPriceCents)),
          lineTotal: f(Number(i.unitPriceCents) * Number(i.quantity)),
          downloadUrl:
            Number(i.productType) === ProductType.DIGITAL && o.status !== 'refunded' ? checkout.downloadPath(o.id, idx, now) : null,
        })),
        subtotal: f(o.subtotalCents),
        discount: o.discountCents > 0 ? f(o.discountCents) : null,
        shipping: f(o.shippingCents),
        tax: f(o.taxCents),
        giftCard: o.giftCardCents > 0 ? f(o.giftCardCents) : null,
        grandTotal: f(o.grandTotalCents),
        coupons: o.coupons,
        statusUrl: checkout.statusPath(o.id),
      },
      giftCards: giftCards.filter((g) => !g.disabled).map((g) => ({ code: g.code, amount: f(g.initialCents), balance: f(g.balanceCents) })),
      subscription: subscription
        ? {
            ...subscription,
            price: f(Number(subscription.priceCents)),
            cyclesText:
              Number(subscription.numBillingCycles) === 0
                ? 'until you cancel'
                : `for ${String(subscription.numBillingCycles)} billing periods`,
          }
        : null,
    };
  }

  const notFoundPage = (req: FastifyRequest, reply: FastifyReply) =>
    sendSitePage(app, req, reply, {
      template: 'system/404.html',
      pageType: PageType.NOT_FOUND,
      status: 404,
      title: 'Page not found',
      ctx: { path: req.url.split('?')[0] },
    });

  app.get('/order-confirmed/:orderId', async (req, reply) => {
    const o = await signedOrder(req);
    if (!o || o.cartKind !== 'cart') return notFoundPage(req, reply);
    return sendSitePage(app, req, reply, {
      template: 'system/order-confirmed.html',
      pageType: PageType.ORDER_CONFIRMED,
      title: 'Order confirmed',
      ctx: await orderContext(o),
    });
  });

  app.get('/subscription-confirmed/:orderId', async (req, reply) => {
    const o = await signedOrder(req);
    if (!o || o.cartKind !== 'subscription') return notFoundPage(req, reply);
    return sendSitePage(app, req, reply, {
      template: 'system/order-subscription-confirmed.html',
      pageType: PageType.SUBSCRIPTION_CONFIRMED,
      title: 'Subscription confirmed',
      ctx: await orderContext(o),
    });
  });

  app.get('/order-status/:orderId', async (req, reply) => {
    const o = await signedOrder(req);
    if (!o) return notFoundPage(req, reply);
    return sendSitePage(app, req, reply, {
      template: 'system/order-status.html',
      pageType: PageType.ORDER_STATUS,
      title: `Order #${o.orderNumber}`,
      ctx: await orderContext(o),
    });
  });

  app.get('/order-download/:orderId/:index', async (req, reply) => {
    const { orderId, index } = z.object({ orderId: z.string().max(64), index: z.coerce.number().int().min(0).max(1000) }).parse(req.params);
    const q = z.object({ expires: z.coerce.number().int().min(0), t: z.string().max(64) }).safeParse(req.query ?? {});
    await checkout.loadSecret();
    const verdict = q.success ? checkout.verifyDownload(orderId, index, q.data.expires, q.data.t) : 'bad';
    if (verdict === 'expired')
      return reply
        .status(410)
        .type('text/plain; charset=utf-8')
        .send('This download link has expired. Open your order status page for a new one.');
    if (verdict !== 'ok') return reply.status(403).type('text/plain; charset=utf-8').send('This download link is not valid.');
    const o = await checkout.order(orderId);
    const item = o?.items[index];
    if (!o || !item || Number(item.productType) !== ProductType.DIGITAL) return notFoundPage(req, reply);
    if (o.status === 'refunded') return reply.status(410).type('text/plain; charset=utf-8').send('This order was refunded.');
    const file = (item.digitalFile ?? null) as { url?: unknown } | null;
    reply.header('cache-control', 'no-store');
    // A file the owner uploaded in the product editor is private: streamed only here, behind the signed link.
    const stored = privateFileOf(file);
    if (stored && sendDigitalFile(reply, app.config.DATA_DIR, stored)) return reply;
    if (file && typeof file.url === 'string' && /^(\/|https?:\/\/)/.test(file.url)) return reply.redirect(file.url, 302);
    return reply
      .status(404)
      .type('text/plain; charset=utf-8')
      .send('The file for this product has not been uploaded yet. Please contact the shop.');
  });
}
