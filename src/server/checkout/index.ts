import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CheckoutService } from './service.js';
import { checkoutRoutes } from './routes.js';
import { checkoutAdminRoutes } from './admin-routes.js';
import { PaymentProviders } from '../payments/index.js';
import { TestPaymentProvider } from '../payments/index.js';
import { PaymentReconciler } from '../jobs/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The checkout area's service and payment providers (another provider registers on `payments`). */
    checkout: { service: CheckoutService; payments: PaymentProviders };
  }
}

/**
 * The checkout area: its routes and services register here (see docs/ARCHITECTURE.md). Wrapped with
 * fastify-plugin so `app.checkout.payments` is visible to other areas (an instalment provider registers there).
 */
export const checkoutArea = fp(async (app: FastifyInstance): Promise<void> => {
  const testProvider = new TestPaymentProvider(app.database);
  const payments = new PaymentProviders(testProvider);
  const service = new CheckoutService(app.database, payments, app.services.mailer);
  if (!app.hasDecorator('checkout')) app.decorate('checkout', { service, payments });
  // Payment attempts a crash left open are settled at start and then periodically (worker processes).
  const reconciler = new PaymentReconciler(
    service,
    { afterMs: app.config.PAYMENT_RECONCILE_AFTER_SECONDS * 1000, everyMs: app.config.PAYMENT_RECONCILE_EVERY_SECONDS * 1000 },
    app.log,
  );
  if (app.config.WORKERS) app.addHook('onListen', async () => reconciler.start());
  app.addHook('onClose', async () => reconciler.stop());
  await app.register(checkoutRoutes, { checkout: service, testProvider });
  await app.register(checkoutAdminRoutes, { checkout: service });
});
export { checkoutInstalments } from './instalment-offer.js';
export { onOrderPlaced, type OrderFulfilledHook, orderFulfilledHooks, orderPlacedHooks } from './order-hooks.js';
export { KEY, placeSchema, stateOf } from './routes.js';
export { type CheckoutService, orderFrom, type OrderLine, PAYMENT_RETURN_PATH, type PlaceInput, subscriptionCharge } from './service.js';
