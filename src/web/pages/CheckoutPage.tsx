/**
 * The checkout page (page type checkout 201), rendered on the server and hydrated as an island: email,
 * shipping address (when the cart needs shipping), shipping method, coupons, gift card, the order summary
 * and card payment. The totals are worked out here with core/checkout.ts, the same function the server
 * charges with; the server's quote is saved as the visitor goes.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { computeCheckout } from '../../core/checkout.js';
import { formatMoneyShown } from '../../core/money.js';
import { cartAmountTooLarge } from '../../core/cart.js';
import { instalmentPaymentsText, isInstalmentEligiblePrice } from '../../core/instalments.js';
import { cart as cartMessages, commerce } from '../../core/messages.js';
import { ProductType } from '../../core/enums.js';
import { subscriptionPriceText } from '../../core/subscription.js';
import type { SubscriptionPlan } from '../../core/product.js';
import { api, ApiError } from '../client/api.js';
import { cartErrorDetail } from '../client/cart-api.js';
import { Modal } from '../islands/Modal.js';
import { AddressFields, useAddressFormat } from '../shared/AddressFields.js';
import { StripePayment, type StripePaymentApi } from './StripePayment.js';
import type {
  Address as PostalAddress,
  CheckoutPageProps,
  CheckoutStateView,
  CheckoutView,
  PlaceAnswer,
  PlaceInput,
} from '../../core/api/checkout.js';

type State = CheckoutStateView;
type Address = Partial<PostalAddress>;
export type { CheckoutPageProps, CheckoutView } from '../../core/api/checkout.js';

/** Where the checkout form posts without JavaScript (server/checkout/checkout-form.ts). */
export const CHECKOUT_FORM_ACTION = '/api/checkout/form';

/** The test-mode stand-in for the instalment provider's browser flow: the token it hands back on approval. */
const INSTALMENT_TEST_APPROVED = 'instalments_test_approved';

function newKey(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `k${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`;
}

function Field(props: {
  id: string;
  name?: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  type?: string;
  autoComplete?: string;
  required?: boolean;
  inputMode?: 'numeric' | 'text' | 'email';
  placeholder?: string;
}) {
  const errId = `${props.id}-error`;
  return (
    <div className="checkout-field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        placeholder={props.placeholder}
        required={props.required}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errId : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.error && (
        <p id={errId} className="checkout-field__error">
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A coupon's Remove button: a form submit without JavaScript, a quote update with it. */
function RemoveCoupon({ code, onRemove }: { code: string; onRemove: (code: string) => Promise<void> | void }) {
  return (
    <button
      type="submit"
      name="removeCoupon"
      value={code}
      aria-label={`Remove coupon ${code}`}
      onClick={(e) => {
        e.preventDefault();
        void onRemove(code);
      }}
    >
      Remove
    </button>
  );
}

export function CheckoutPage({
  view: initial,
  cartToken,
  minimumOrderSubtotalCents,
  testMode,
  stripe = null,
  paymentUnavailable,
  crumb,
  plainKey,
  errors: initialErrors,
  message: initialMessage,
  cardName,
  instalments,
  countries,
  addressFormat: firstFormat,
}: CheckoutPageProps) {
  const [method, setMethod] = useState<'card' | 'instalments'>('card');
  const [view, setView] = useState(initial);
  const [email, setEmail] = useState(initial.state.email ?? '');
  const [address, setAddress] = useState<Address>(initial.state.shippingAddress ?? { country: '' });
  const [shippingId, setShippingId] = useState<string | null>(initial.state.selectedShippingOptionId ?? null);
  const [coupons, setCoupons] = useState<string[]>(initial.state.coupons ?? []);
  const [couponInput, setCouponInput] = useState('');
  const [giftCode, setGiftCode] = useState(initial.state.giftCardCode ?? '');
  const [giftInput, setGiftInput] = useState(initial.state.giftCardCode ?? '');
  const [card, setCard] = useState({ number: '', expiry: '', cvc: '', name: cardName ?? '' });
  const [errors, setErrors] = useState<Record<string, string>>(initialErrors ?? {});
  const [message, setMessage] = useState(initialMessage ?? '');
  const [busy, setBusy] = useState(false);
  const [challenge, setChallenge] = useState<{ paymentId: string } | null>(null);
  /** The server's total changed since the page showed it: the shopper sees the new total and confirms it. */
  const [totalChanged, setTotalChanged] = useState(false);
  const key = useRef<string | null>(null);
  /** Stripe's Payment Element (when Stripe is connected) and its message for the shopper. */
  const stripeApi = useRef<StripePaymentApi | null>(null);
  const [stripeError, setStripeError] = useState('');
  const elementPays = !!stripe;
  /** The island is running (false in the server's markup, which is also the page without JavaScript). */
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  /** The shipping address's country format: laid out again when the shopper picks another country. */
  const format = useAddressFormat(firstFormat, address.country || firstFormat.country);
  const currency = view.currency;
  const f = (c: number) => formatMoneyShown(c, currency);

  const totals = useMemo(
    () =>
      computeCheckout(
        {
          lines: view.pricing.lines,
          shippingOptions: view.pricing.shippingOptions,
          selectedShippingOptionId: shippingId,
          location: address.country ? { country: address.country, region: address.region ?? '' } : null,
          taxRules: view.pricing.taxRules,
          couponCodes: coupons,
          coupons: view.pricing.coupons,
          giftCardBalanceCents: giftCode ? view.pricing.giftCardBalanceCents : 0,
          now: Date.now(),
        },
        f,
      ),
    [view, shippingId, address.country, address.region, coupons, giftCode],
  );
  // The instalment method: offered by the owner for this cart, and the amount due within the provider's limits.
  const instalmentsOffered =
    !!instalments && totals.amountDueCents > 0 && isInstalmentEligiblePrice(totals.amountDueCents, instalments.min, instalments.max);
  const payInInstalments = instalmentsOffered && method === 'instalments';

  const state = (): State & { cartToken?: string } => ({
    ...(cartToken ? { cartToken } : {}),
    email,
    shippingAddress: totals.requiresShipping ? address : null,
    selectedShippingOptionId: totals.selectedShippingOption?.id ?? shippingId,
    coupons,
    giftCardCode: giftCode || null,
  });

  // Save what the visitor entered (debounced); coupons and gift cards need the server's answer.
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    clearTimeout(saveTimer.current);
    saveTimer.current = setTimeout(() => {
      api<CheckoutView>('POST', '/api/checkout/quote', state()).catch(() => undefined);
    }, 500);
    return () => clearTimeout(saveTimer.current);
  }, [email, address, shippingId]);

  async function requote(next: Partial<State>) {
    const body = { ...state(), ...next };
    const v = await api<CheckoutView>('POST', '/api/checkout/quote', body);
    setView(v);
    return v;
  }

  async function applyCoupon(e: FormEvent) {
    e.preventDefault();
    const code = couponInput.trim().toUpperCase();
    if (!code) return;
    const next = coupons.includes(code) ? coupons : [...coupons, code];
    try {
      await requote({ coupons: next });
      setCoupons(next);
      setCouponInput('');
      setMessage('');
    } catch (err) {
      setMessage(cartErrorDetail(err));
    }
  }

  async function removeCoupon(code: string) {
    const next = coupons.filter((c) => c !== code);
    setCoupons(next);
    await requote({ coupons: next }).catch(() => undefined);
  }

  async function applyGiftCard(e: FormEvent) {
    e.preventDefault();
    const code = giftInput.trim();
    try {
      const v = await requote({ giftCardCode: code || null });
      if (code && v.pricing.giftCardBalanceCents <= 0) {
        setErrors((x) => ({ ...x, giftCardCode: 'That gift card code is not valid.' }));
        setGiftCode('');
      } else {
        setErrors(({ giftCardCode: _drop, ...rest }) => rest);
        setGiftCode(code);
      }
    } catch (err) {
      setMessage(cartErrorDetail(err));
    }
  }

  const below = minimumOrderSubtotalCents > 0 && totals.subtotalCents < minimumOrderSubtotalCents;
  // A total past what can be shown (a stored cart an owner's price change took there): shown, not payable.
  const tooLarge = cartAmountTooLarge(totals.grandTotalCents, currency) || cartAmountTooLarge(totals.subtotalCents, currency);

  async function place(payment: PlaceInput['payment']) {
    key.current ??= newKey();
    setBusy(true);
    setMessage('');
    try {
      // The total the shopper sees is the total they confirm: the server refuses to charge any other.
      const r = await api<PlaceAnswer>('POST', '/api/checkout/place-order', {
        ...state(),
        payment,
        idempotencyKey: key.current,
        expectedTotalCents: totals.grandTotalCents,
      } satisfies PlaceInput);
      if (r.status === 'requires_action' && r.paymentId && elementPays) {
        // Stripe's next action (3-D Secure in Stripe's dialog, or Afterpay's page), then the order.
        const next =
          stripeApi.current && r.clientSecret ? await stripeApi.current.nextAction(r.clientSecret) : { error: cartMessages.CHECK_INTERNET };
        if ('error' in next) {
          setBusy(false);
          setStripeError(next.error);
          return;
        }
        return void (await place({ type: 'existing', paymentId: r.paymentId }));
      }
      if (r.status === 'requires_action' && r.paymentId) {
        setChallenge({ paymentId: r.paymentId });
        setBusy(false);
        return;
      }
      window.location.assign(r.confirmationUrl ?? '/');
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && !err.network) {
        // A definite answer: the next attempt is a new one. (A network failure keeps the key, so a retry is safe.)
        key.current = null;
        if (err.crumbFail) setMessage(commerce.crumbFailure(navigator.cookieEnabled));
        else if (err.status === 429) setMessage(commerce.RATE_LIMITED);
        // A decline: Stripe's words, on the payment field.
        else if (err.status === 402 && elementPays) setStripeError(err.message);
        else setMessage(err.message);
        // A changed total comes with the new quote: show it, and the next click confirms it.
        const quote = err.data.code === 'total_changed' ? (err.data.quote as CheckoutView | undefined) : undefined;
        if (quote) {
          setView(quote);
          setTotalChanged(true);
        }
        setErrors((err.data.errors as Record<string, string> | undefined) ?? {});
      } else setMessage(cartMessages.CHECK_INTERNET);
    }
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (below || tooLarge) return;
    setTotalChanged(false);
    if (totals.amountDueCents <= 0) return void place(null);
    if (elementPays) return void payWithElement();
    if (payInInstalments) return void place({ type: 'token', provider: 'instalments', token: INSTALMENT_TEST_APPROVED });
    void place({ type: 'card', number: card.number, expiry: card.expiry, cvc: card.cvc, name: card.name });
  }

  /** The Payment Element's details become a Stripe PaymentMethod; the server charges it (place-order). */
  async function payWithElement() {
    setStripeError('');
    setMessage('');
    const el = stripeApi.current;
    if (!el) return setStripeError('The secure payment form is still loading. Please wait a moment and try again.');
    setBusy(true);
    const a = totals.requiresShipping ? address : null;
    const m = await el.createMethod({
      name: a?.name || undefined,
      email: email || undefined,
      ...(a
        ? {
            address: {
              line1: a.line1,
              line2: a.line2 || undefined,
              city: a.city,
              state: a.region || undefined,
              postal_code: a.postalCode,
              country: a.country,
            },
          }
        : {}),
    });
    if ('error' in m) {
      setBusy(false);
      setStripeError(m.error);
      return;
    }
    await place({ type: 'token', provider: 'stripe', token: m.id });
  }

  async function finishChallenge(pass: boolean) {
    const c = challenge;
    setChallenge(null);
    if (!c) return;
    try {
      await api('POST', `/api/checkout/test-payments/${c.paymentId}/authenticate`, { outcome: pass ? 'complete' : 'fail' });
    } catch {
      /* the place call below reports the payment's state */
    }
    await place({ type: 'existing', paymentId: c.paymentId });
  }

  if (view.cart.entries.length === 0) {
    return (
      <div className="checkout">
        <p>Your cart is empty.</p>
        <p>
          <a href="/">Continue shopping</a>
        </p>
      </div>
    );
  }

  /** A shipping address part changed; another country clears the region, which names one of the old country's. */
  const setPart = (k: keyof PostalAddress, v: string) =>
    setAddress((a) => (k === 'country' && v !== (a.country || format.country) ? { ...a, country: v, region: '' } : { ...a, [k]: v }));
  const addressErrors = Object.fromEntries(
    Object.entries(errors).flatMap(([k, v]) => (k.startsWith('shippingAddress.') ? [[k.slice('shippingAddress.'.length), v]] : [])),
  );

  return (
    <form
      className="checkout"
      method="post"
      action={cartToken ? `${CHECKOUT_FORM_ACTION}?cartToken=${encodeURIComponent(cartToken)}` : CHECKOUT_FORM_ACTION}
      onSubmit={onSubmit}
      noValidate
      aria-label="Checkout"
    >
      {/* Enter in a field places the order (the first submit button is the form's default). */}
      <button type="submit" name="action" value="place" className="visually-hidden" tabIndex={-1} aria-hidden="true">
        Place order
      </button>
      {crumb && <input type="hidden" name="crumb" value={crumb} />}
      {plainKey && <input type="hidden" name="idempotencyKey" value={plainKey} />}
      {cartToken && <input type="hidden" name="cartToken" value={cartToken} />}
      <input type="hidden" name="expectedTotalCents" value={totals.grandTotalCents} />
      {coupons.map((c) => (
        <input key={c} type="hidden" name="coupons" value={c} />
      ))}
      <div className="checkout__main">
        <section aria-labelledby="checkout-contact">
          <h2 id="checkout-contact">Contact</h2>
          <Field
            id="checkout-email"
            name="email"
            label="Email"
            type="email"
            inputMode="email"
            autoComplete="email"
            value={email}
            onChange={setEmail}
            error={errors.email}
            required
          />
        </section>

        {totals.requiresShipping && (
          <section aria-labelledby="checkout-address">
            <h2 id="checkout-address">Shipping address</h2>
            <AddressFields
              format={format}
              countries={countries}
              values={address}
              onChange={setPart}
              errors={addressErrors}
              idPrefix="addr"
              cls="checkout"
              section="shipping"
              afterCountry={
                <noscript>
                  <button type="submit" name="action" value="update" className="checkout-shipping__update">
                    Show this country&apos;s address form
                  </button>
                </noscript>
              }
            />
          </section>
        )}

        {totals.requiresShipping && (
          <fieldset className="checkout-shipping">
            <legend>Shipping method</legend>
            {totals.shippingOptions.length === 0 ? (
              <p>
                {address.country
                  ? 'We do not ship to that address. Please choose another address.'
                  : 'Enter your address to see shipping options.'}
              </p>
            ) : (
              totals.shippingOptions.map((o) => (
                <label key={o.id} className="checkout-shipping__option">
                  <input
                    type="radio"
                    name="shipping"
                    value={o.id}
                    checked={totals.selectedShippingOption?.id === o.id}
                    onChange={() => setShippingId(o.id)}
                  />
                  {o.name} — {o.costCents === 0 ? 'Free' : f(o.costCents)}
                </label>
              ))
            )}
            {errors.shippingOption && (
              <p id="checkout-shipping-error" className="checkout-field__error">
                {errors.shippingOption}
              </p>
            )}
            <noscript>
              <button type="submit" name="action" value="update" className="checkout-shipping__update">
                Update shipping options
              </button>
            </noscript>
          </fieldset>
        )}

        <section aria-labelledby="checkout-coupons">
          <h2 id="checkout-coupons">Coupons</h2>
          <div className="checkout-inline">
            <Field id="coupon-code" name="coupon" label="Coupon code" value={couponInput} onChange={setCouponInput} />
            <button type="submit" name="action" value="coupon" onClick={(e) => void applyCoupon(e)}>
              Apply coupon
            </button>
          </div>
          {totals.validCoupons.length > 0 && (
            <ul className="checkout-coupons" aria-label="Applied coupons">
              {totals.validCoupons.map((c) => (
                <li key={c.code}>
                  {c.code} <RemoveCoupon code={c.code} onRemove={removeCoupon} />
                </li>
              ))}
            </ul>
          )}
          {totals.invalidCoupons.length > 0 && (
            <ul className="checkout-coupons checkout-coupons--invalid" aria-label="Coupons that cannot be used">
              {totals.invalidCoupons.map((c) => (
                <li key={c.code}>
                  <strong>{c.code}</strong>: {c.reason} <RemoveCoupon code={c.code} onRemove={removeCoupon} />
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="checkout-giftcard">
          <h2 id="checkout-giftcard">Gift card</h2>
          <div className="checkout-inline">
            <Field
              id="gift-card-code"
              name="giftCardCode"
              label="Gift card code"
              value={giftInput}
              onChange={setGiftInput}
              error={errors.giftCardCode}
            />
            <button type="submit" name="action" value="giftCard" onClick={(e) => void applyGiftCard(e)}>
              Apply gift card
            </button>
          </div>
        </section>

        {totals.amountDueCents > 0 && (
          <section aria-labelledby="checkout-payment">
            <h2 id="checkout-payment">Payment</h2>
            {paymentUnavailable ? (
              <p className="checkout-field__error">{paymentUnavailable}</p>
            ) : elementPays ? (
              <>
                {testMode && (
                  <p className="checkout-test-mode">
                    Test mode: pay with card 4242 4242 4242 4242, any future expiry date and any CVC. No money is taken.
                  </p>
                )}
                <StripePayment
                  config={stripe!}
                  amountCents={totals.amountDueCents}
                  currency={currency}
                  afterpay={instalmentsOffered}
                  api={stripeApi}
                  error={stripeError}
                />
                {/* Drawn by the server for a visitor without JavaScript (the form then goes to Stripe's page); gone once the island runs. */}
                {!live && <p className="checkout-stripe__nojs">You pay on Stripe&apos;s secure page, then come back here to your order.</p>}
              </>
            ) : (
              <>
                {instalmentsOffered && (
                  <fieldset className="checkout-methods">
                    <legend>Payment method</legend>
                    <label>
                      <input
                        type="radio"
                        name="payment-method"
                        value="card"
                        checked={method === 'card'}
                        onChange={() => setMethod('card')}
                      />{' '}
                      Card
                    </label>
                    <label>
                      <input
                        type="radio"
                        name="payment-method"
                        value="instalments"
                        checked={method === 'instalments'}
                        onChange={() => setMethod('instalments')}
                      />{' '}
                      {instalmentPaymentsText(totals.amountDueCents, currency, instalments!.count)}
                    </label>
                  </fieldset>
                )}
                {payInInstalments ? (
                  <p className="checkout-instalments">
                    {instalmentPaymentsText(totals.amountDueCents, currency, instalments!.count)}.
                    {testMode ? ' Test mode: the instalment plan is approved without leaving this page. No money is taken.' : ''}
                  </p>
                ) : (
                  <>
                    {testMode && (
                      <p className="checkout-test-mode">
                        Test mode: pay with card 4242 4242 4242 4242, any future expiry date and any CVC. No money is taken.
                      </p>
                    )}
                    <Field
                      id="card-name"
                      name="cardName"
                      label="Name on card"
                      autoComplete="cc-name"
                      value={card.name}
                      onChange={(v) => setCard((c) => ({ ...c, name: v }))}
                    />
                    <Field
                      id="card-number"
                      name="cardNumber"
                      label="Card number"
                      inputMode="numeric"
                      autoComplete="cc-number"
                      value={card.number}
                      onChange={(v) => setCard((c) => ({ ...c, number: v }))}
                      error={errors.cardNumber}
                      required
                    />
                    <Field
                      id="card-expiry"
                      name="cardExpiry"
                      label="Expiry (MM/YY)"
                      autoComplete="cc-exp"
                      placeholder="MM/YY"
                      value={card.expiry}
                      onChange={(v) => setCard((c) => ({ ...c, expiry: v }))}
                      error={errors.cardExpiry}
                      required
                    />
                    <Field
                      id="card-cvc"
                      name="cardCvc"
                      label="Security code (CVC)"
                      inputMode="numeric"
                      autoComplete="cc-csc"
                      value={card.cvc}
                      onChange={(v) => setCard((c) => ({ ...c, cvc: v }))}
                      error={errors.cardCvc}
                      required
                    />
                  </>
                )}
              </>
            )}
          </section>
        )}
      </div>

      <aside className="checkout__summary" aria-labelledby="checkout-summary">
        <h2 id="checkout-summary">Order summary</h2>
        <ul className="checkout-lines">
          {view.cart.entries.map((e) => (
            <li key={e.id}>
              <span className="checkout-lines__title">
                {e.title}
                {Object.values(e.chosenVariant.attributes).length > 0 && ` (${Object.values(e.chosenVariant.attributes).join(', ')})`}
                {e.productType === ProductType.DIGITAL && ' — digital download'}
              </span>{' '}
              <span className="checkout-lines__qty">× {e.quantity}</span>{' '}
              <span className="checkout-lines__total">{f(e.subTotalCents)}</span>
            </li>
          ))}
        </ul>
        {view.subscription && view.cart.entries[0] && (
          <p className="subscription-price">
            Subscription:{' '}
            {subscriptionPriceText(f(view.pricing.lines[0]?.priceCents ?? 0), view.subscription.plan as SubscriptionPlan | null)}
          </p>
        )}
        <table className="checkout-totals" aria-label="Totals">
          <tbody>
            <tr>
              <th scope="row">Subtotal</th>
              <td data-test="subtotal">{f(totals.subtotalCents)}</td>
            </tr>
            {totals.discountCents > 0 && (
              <tr>
                <th scope="row">Discount</th>
                <td data-test="discount">-{f(totals.discountCents)}</td>
              </tr>
            )}
            {totals.requiresShipping && (
              <tr>
                <th scope="row">Shipping</th>
                <td data-test="shipping">{f(totals.shippingCostCents)}</td>
              </tr>
            )}
            <tr>
              <th scope="row">Tax</th>
              <td data-test="tax">{f(totals.taxCents)}</td>
            </tr>
            <tr className="checkout-totals__grand">
              <th scope="row">Total</th>
              <td data-test="grand-total">{f(totals.grandTotalCents)}</td>
            </tr>
            {totals.giftCardCents > 0 && (
              <>
                <tr>
                  <th scope="row">Gift card</th>
                  <td data-test="gift-card">-{f(totals.giftCardCents)}</td>
                </tr>
                <tr>
                  <th scope="row">Amount due</th>
                  <td data-test="amount-due">{f(totals.amountDueCents)}</td>
                </tr>
              </>
            )}
          </tbody>
        </table>
        {below && <p className="checkout-minimum">{cartMessages.minimumSubtotal(f(minimumOrderSubtotalCents))}</p>}
        {tooLarge && <p className="checkout-too-large">{cartMessages.CART_TOTAL_TOO_LARGE}</p>}
        {message && (
          <p role="alert" className="checkout-error">
            {message}
          </p>
        )}
        <button
          type="submit"
          name="action"
          value="place"
          className="checkout__place"
          disabled={busy || below || tooLarge || (!!paymentUnavailable && totals.amountDueCents > 0)}
          aria-busy={busy || undefined}
        >
          {busy ? 'Placing order…' : totalChanged ? `Confirm new total ${f(totals.grandTotalCents)} and place order` : 'Place order'}
        </button>
      </aside>

      {challenge && (
        <Modal title="Confirm your payment" titleId="checkout-3ds-title" onClose={() => void finishChallenge(false)}>
          <p>Your bank asks you to confirm this payment of {f(totals.amountDueCents)}. (Test mode: choose an outcome.)</p>
          <div className="checkout-inline">
            <button type="button" onClick={() => void finishChallenge(true)}>
              Complete authentication
            </button>
            <button type="button" onClick={() => void finishChallenge(false)}>
              Fail authentication
            </button>
          </div>
        </Modal>
      )}
    </form>
  );
}
