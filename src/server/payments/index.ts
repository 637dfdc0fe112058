/** The payments area's door: what other areas use of it. */
export { InstalmentTestProvider } from './instalments-provider.js';
export {
  type PaymentMethodInput,
  type PaymentProvider,
  PaymentProviders,
  type ProviderPayment,
  type SubscriptionCharge,
} from './provider.js';
export { startStripeDonation, STRIPE_DONATION_RETURN_PATH } from './stripe/hosted.js';
export { startStripeCheckout } from './stripe/index.js';
export { STRIPE_PROVIDER } from './stripe/provider.js';
export { TestPaymentProvider } from './test-provider.js';
