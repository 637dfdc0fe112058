/**
 * Stripe's Payment Element on the checkout page (issue 25), in Stripe's "finalize payments on the server" flow:
 * the element collects the card (or Afterpay/Clearpay) in Stripe's own frame, `createPaymentMethod` turns it
 * into a PaymentMethod id, and place-order creates and confirms the PaymentIntent on the server for the total
 * the server computed. A next action (3-D Secure, Afterpay's page) goes back to Stripe.js (`handleNextAction`).
 *
 * Stripe.js is loaded from `jsUrl` (STRIPE_JS_URL: js.stripe.com in production, a local stand-in in the tests)
 * only when Stripe is connected and the checkout has something to pay; the page's CSP lets the island's script
 * load it ('strict-dynamic', docs/SECURITY.md).
 */
import { useEffect, useMemo, useState, type MutableRefObject } from 'react';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure/index.mjs';
import type { Stripe, StripeElementsOptions } from '@stripe/stripe-js';
import type { StripeCheckoutConfig } from '../../core/api/checkout.js';
export type { StripeCheckoutConfig };

export interface BillingDetails {
  name?: string;
  email?: string;
  address?: { line1?: string; line2?: string; city?: string; state?: string; postal_code?: string; country?: string };
}

/** What the checkout page asks of the element (set once Stripe.js is ready). */
export interface StripePaymentApi {
  /** Checks the fields and makes a PaymentMethod: its id, or Stripe's message ('' when the element shows it on the field). */
  createMethod(billing: BillingDetails): Promise<{ id: string } | { error: string }>;
  /** Finishes a next action (3-D Secure; Afterpay leaves the page): ok, or Stripe's message. */
  nextAction(clientSecret: string): Promise<{ ok: true } | { error: string }>;
}

let loading: Promise<Stripe | null> | null = null;

/** Stripe.js from `jsUrl` (once per page), then the Stripe object for the publishable key. */
function stripeFrom(jsUrl: string, publishableKey: string): Promise<Stripe | null> {
  loading ??= new Promise<void>((resolve, reject) => {
    if ((window as { Stripe?: unknown }).Stripe) return resolve();
    const s = document.createElement('script');
    s.src = jsUrl;
    s.async = true;
    s.onload = () => resolve();
    s.onerror = () => reject(new Error('Stripe.js could not be loaded.'));
    document.head.appendChild(s);
  }).then(() => loadStripe(publishableKey));
  loading.catch(() => (loading = null));
  return loading;
}

function Bridge({ api }: { api: MutableRefObject<StripePaymentApi | null> }) {
  const stripe = useStripe();
  const elements = useElements();
  useEffect(() => {
    if (!stripe || !elements) return;
    api.current = {
      async createMethod(billing) {
        const submitted = await elements.submit();
        // An incomplete or invalid field: the Payment Element shows Stripe's words on the field itself.
        if (submitted.error)
          return {
            error: submitted.error.type === 'validation_error' ? '' : (submitted.error.message ?? 'Please check your payment details.'),
          };
        const r = await stripe.createPaymentMethod({ elements, params: { billing_details: billing } });
        if (r.error) return { error: r.error.message ?? 'Please check your payment details.' };
        return { id: r.paymentMethod.id };
      },
      async nextAction(clientSecret) {
        const r = await stripe.handleNextAction({ clientSecret });
        if (r.error) return { error: r.error.message ?? 'We are unable to authenticate your payment method.' };
        return { ok: true };
      },
    };
    return () => {
      api.current = null;
    };
  }, [stripe, elements, api]);
  return null;
}

export function StripePayment(props: {
  config: StripeCheckoutConfig;
  amountCents: number;
  currency: string;
  afterpay: boolean;
  api: MutableRefObject<StripePaymentApi | null>;
  error: string;
  onReady?: () => void;
}) {
  const { config, amountCents, currency, afterpay, api, error } = props;
  const [stripe, setStripe] = useState<Promise<Stripe | null> | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const p = stripeFrom(config.jsUrl, config.publishableKey);
    p.catch(() => setFailed(true));
    setStripe(p);
  }, [config.jsUrl, config.publishableKey]);
  const options = useMemo<StripeElementsOptions>(
    () => ({
      mode: 'payment',
      amount: amountCents,
      currency: currency.toLowerCase(),
      paymentMethodCreation: 'manual',
      allowedPaymentMethodTypes: afterpay ? ['card', 'afterpay_clearpay'] : ['card'],
    }),
    [amountCents, currency, afterpay],
  );
  if (failed) {
    return (
      <p role="alert" className="checkout-field__error">
        The secure payment form could not be loaded. Check your connection and reload the page.
      </p>
    );
  }
  return (
    <div className="checkout-stripe">
      {stripe && (
        <Elements stripe={stripe} options={options}>
          <PaymentElement id="stripe-payment-element" onReady={props.onReady} />
          <Bridge api={api} />
        </Elements>
      )}
      {error && (
        <p id="stripe-payment-error" role="alert" className="checkout-field__error">
          {error}
        </p>
      )}
    </div>
  );
}
