/** The payments area's door: the payment providers' contract, their registry and the test-mode providers. */
export { InstalmentTestProvider } from './instalments-provider.js';
export {
  type ChargeRequest,
  type ChargeResult,
  type PaymentMethodInput,
  type PaymentProvider,
  PaymentProviders,
  type ProviderPayment,
  type SubscriptionCharge,
} from './provider.js';
export { TestPaymentProvider } from './test-provider.js';
