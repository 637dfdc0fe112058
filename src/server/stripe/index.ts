/**
 * The Stripe area (docs/PAYMENTS.md): the Stripe provider registered with checkout's payment providers, its
 * webhook, and Settings → Payments. Without a secret key the built-in test-mode provider keeps taking
 * (test) payments; with one, every card payment goes to Stripe.
 *
 * Wrapped with fastify-plugin so `app.stripe` is visible to the tests and other areas (the no-JavaScript
 * checkout, below this area, calls `app.stripe.startCheckout`).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { StripeSettings } from './settings.js';
import { StripeProvider } from './provider.js';
import { StripeEventHandler } from './webhook.js';
import { stripeSettingsRoutes, stripeWebhookRoutes } from './routes.js';
import { stripeHostedRoutes } from './hosted.js';
import { checkoutInstalments } from '../checkout/index.js';
import { onOrderPlaced } from '../checkout/index.js';
import { StripeBilling } from './billing.js';
import type { PlaceInput } from '../checkout/index.js';
import type { OrderRow } from '../../core/orders.js';
import { startStripeCheckout } from './hosted.js';

export { startStripeDonation, STRIPE_DONATION_RETURN_PATH } from './hosted.js';
export { STRIPE_PROVIDER } from './provider.js';

declare module 'fastify' {
  interface FastifyInstance {
    stripe: {
      settings: StripeSettings;
      provider: StripeProvider;
      handler: StripeEventHandler;
      /** Subscriptions through Stripe Billing (billing.ts). */
      billing: StripeBilling;
      active(): boolean;
      /** What the checkout page's Payment Element needs: the publishable key and where Stripe.js comes from. */
      checkoutConfig(): Promise<{ publishableKey: string; jsUrl: string } | null>;
      /** The webhook's clock (milliseconds), for its signature's age and future checks; tests set it. */
      clock: { now: () => number };
      /** A Stripe Checkout Session for the order (hosted.ts): its address, or the order a retry already placed. */
      startCheckout(input: PlaceInput): Promise<{ url: string } | { order: OrderRow }>;
    };
  }
}

export const stripeArea = fp(async (app: FastifyInstance): Promise<void> => {
  const settings = new StripeSettings(app.database, app.config);
  const provider = new StripeProvider(settings);
  const { service, payments } = app.checkout;
  payments.register(provider);
  // Known at start and after every save (the keys are read once; a save in another process needs a restart
  // of this one, or its own save: docs/PAYMENTS.md).
  let active = false;
  const refresh = async () => {
    settings.invalidate();
    active = await settings.configured();
  };
  await refresh();
  payments.cardProvider = () => (active ? provider : null);
  const billing = new StripeBilling(app.database, settings, provider, app.services.mailer);
  provider.billing = billing;
  // A subscription order paid through Stripe names its Stripe subscription (in the order's transaction).
  onOrderPlaced(app.database, async (tx, order) => {
    const p = order.payment;
    if (order.cartKind === 'subscription' && p?.provider === provider.name && typeof p.paymentId === 'string')
      await billing.linkOrder(tx, order.id, p.paymentId);
  });
  // Cancelling a subscription Stripe bills (the account page, /config) cancels it at Stripe first.
  service.subscriptionCancelers.set(provider.name, (id) => billing.cancel(id));
  const handler = new StripeEventHandler(
    app.database,
    service,
    provider,
    () => app.emailOrigin(),
    billing,
    async () => (await app.services.websites.get()).title,
  );
  // Afterpay/Clearpay at Stripe where the checkout page offers instalments (the owner's switch, the cart, the limits).
  service.instalmentOffer = (currency, ref, lines) => checkoutInstalments(app, currency, ref, lines);
  const checkoutConfig = async () => {
    const { keys } = await settings.load();
    return active && keys.publishableKey ? { publishableKey: keys.publishableKey, jsUrl: app.config.STRIPE_JS_URL } : null;
  };
  const clock = { now: () => Date.now() };
  if (!app.hasDecorator('stripe'))
    app.decorate('stripe', {
      settings,
      provider,
      handler,
      billing,
      active: () => active,
      checkoutConfig,
      clock,
      startCheckout: (input) => startStripeCheckout(app, input),
    });

  /** What the checkout page needs to mount Stripe's Payment Element: the publishable key only. */
  app.get('/api/payments/stripe/config', async (_req, reply) => {
    const { keys } = await settings.load();
    reply.header('cache-control', 'no-store');
    return {
      enabled: active,
      publishableKey: active ? keys.publishableKey : null,
      testMode: provider.testMode || !active,
      jsUrl: app.config.STRIPE_JS_URL,
    };
  });

  await app.register(stripeWebhookRoutes, { settings, handler, now: () => clock.now() });
  await app.register(stripeSettingsRoutes, { settings, provider, onSaved: refresh });
  await app.register(stripeHostedRoutes);
});
