/**
 * The full-page cart (/cart, page type show cart 200), rendered on the server and hydrated as an island.
 * Every entry shows its image, title, variant, an editable quantity, a remove control and its line total;
 * then the subtotal, the owner's minimum order subtotal when set, and checkout. Without JavaScript the
 * quantity and remove controls are plain forms posting to the form-encoded fallbacks.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { cart as cartMessages, forms as formMessages } from '../../core/messages.js';
import { formatMoney, formatMoneyShown } from '../../core/money.js';
import { cartAmountTooLarge } from '../../core/cart.js';
import { QUANTITY_MAX, QUANTITY_MIN, QUANTITY_STEP } from '../../core/constants.js';
import { parseQuantity } from '../../core/product.js';
import { cartStore } from '../client/cart-store.js';
import { cartApi, cartErrorDetail } from '../client/cart-api.js';
import { Modal } from '../islands/Modal.js';
import { AdditionalFieldsForm, usableForm } from '../islands/AdditionalFieldsForm.js';
import type { AdditionalFieldsFormProps } from '../islands/product-props.js';
import { InstalmentCartPill } from '../islands/InstalmentPill.js';
import type { CartPageCart, CartPageEntry, CartPageProps } from '../../core/api/storefront.js';
export type { CartPageCart, CartPageEntry, CartPageProps };

interface Alert {
  title: string;
  message: string;
  /** The entry whose quantity the alert refuses. */
  entryId?: string;
}

const ENTRIES = '/api/commerce/shopping-cart/entries';
const CART_ALERT_ID = 'cart-alert';

function answers(text: string): Record<string, string> {
  if (!text) return {};
  try {
    const v = JSON.parse(text) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, Array.isArray(x) ? x.join(', ') : String(x ?? '')]),
    );
  } catch {
    return {};
  }
}

function EntryRow(props: {
  entry: CartPageEntry;
  currency: string;
  crumb: string;
  busy: boolean;
  form: AdditionalFieldsFormProps | undefined;
  onQuantity: (e: CartPageEntry, text: string) => void;
  onRemove: (e: CartPageEntry) => void;
  onEdit: (e: CartPageEntry) => void;
  /** The page's alert is about this entry's quantity: the field is marked invalid and described by it. */
  quantityInvalid?: boolean;
}) {
  const { entry, currency, crumb, busy, form } = props;
  const [text, setText] = useState(String(entry.quantity));
  useEffect(() => setText(String(entry.quantity)), [entry.quantity]);
  const variant = Object.entries(entry.chosenVariant.attributes ?? {});
  const fields = answers(entry.additionalFields);
  const qid = `cart-qty-${entry.id}`;
  const submitQuantity = (ev: FormEvent) => {
    ev.preventDefault();
    props.onQuantity(entry, text);
  };
  return (
    <li className="cart-row" data-entry-id={entry.id} data-item-id={entry.itemId}>
      <div className="cart-row__image">
        {entry.image?.assetUrl && (
          <img src={entry.image.assetUrl} alt={entry.image.altText || entry.title} width={96} height={96} loading="lazy" />
        )}
      </div>
      <div className="cart-row__desc">
        <a className="cart-row__title" href={entry.fullUrl || undefined}>
          {entry.title}
        </a>
        {variant.length > 0 && (
          <div className="cart-row__variant">
            {variant.map(([k, v]) => (
              <span key={k} className="variant-attribute">
                {k}: {v}
              </span>
            ))}
          </div>
        )}
        {Object.keys(fields).length > 0 && (
          <dl className="cart-row__fields">
            {Object.entries(fields).map(([k, v]) => {
              const title = form?.fields.find((f) => f.id === k)?.title ?? k;
              return (
                <div key={k}>
                  <dt>{title}</dt> <dd>{v}</dd>
                </div>
              );
            })}
          </dl>
        )}
        {form && (
          <button type="button" className="cart-row__edit" onClick={() => props.onEdit(entry)} disabled={busy}>
            Edit<span className="visually-hidden"> {entry.title}</span>
          </button>
        )}
      </div>
      <form className="cart-row__qty" method="post" action={`${ENTRIES}/${entry.id}/quantity`} onSubmit={submitQuantity} noValidate>
        <input type="hidden" name="crumb" value={crumb} />
        <label htmlFor={qid} className="visually-hidden">
          Quantity of {entry.title}
        </label>
        <input
          id={qid}
          name="quantity"
          // Text with a numeric keyboard, checked by the page (and the server without JavaScript): a browser
          // number field's own validation would answer before our quantity messages.
          type="text"
          inputMode="numeric"
          autoComplete="off"
          data-min={QUANTITY_MIN}
          data-max={QUANTITY_MAX}
          data-step={QUANTITY_STEP}
          aria-invalid={props.quantityInvalid ? true : undefined}
          aria-describedby={props.quantityInvalid ? CART_ALERT_ID : undefined}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onBlur={() => text !== String(entry.quantity) && props.onQuantity(entry, text)}
        />
        <button type="submit" className="cart-row__update" disabled={busy}>
          Update<span className="visually-hidden"> quantity of {entry.title}</span>
        </button>
      </form>
      <form
        className="cart-row__remove"
        method="post"
        action={`${ENTRIES}/${entry.id}/remove`}
        onSubmit={(ev) => {
          ev.preventDefault();
          props.onRemove(entry);
        }}
      >
        <input type="hidden" name="crumb" value={crumb} />
        <button type="submit" aria-label={`Remove ${entry.title}`} disabled={busy}>
          Remove
        </button>
      </form>
      <div className="cart-row__total">{formatMoneyShown(entry.subTotal?.value ?? entry.subTotalCents, currency)}</div>
    </li>
  );
}

/** Keeps the page's cart in step with the shared cart store (other tabs, the back/forward cache); true while it is read. */
function useCartSync(setCart: (cart: CartPageCart) => void): boolean {
  const [loading, setLoading] = useState(false);

  // Changes made in the visitor's other tabs arrive through the shared cart store.
  useEffect(() => cartStore.subscribe((c) => Array.isArray((c as CartPageCart).entries) && setCart(c as CartPageCart)), []);
  // The cart is read again when the page comes back from the back/forward cache; the loading flag is set
  // while it is read.
  useEffect(() => {
    const off = cartStore.onLoading(setLoading);
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) void cartStore.refresh().catch((err: unknown) => console.warn('tessera: cart read failed', err));
    };
    window.addEventListener('pageshow', onShow);
    return () => {
      off();
      window.removeEventListener('pageshow', onShow);
    };
  }, []);
  return loading;
}

/** The subtotal, the instalments pill, the minimum-order notice and the checkout button (disabled below the minimum). */
function CartTotals({
  cart,
  currency,
  minimumOrderSubtotalCents,
  checkoutUrl,
  instalments,
}: {
  cart: CartPageCart;
  currency: string;
  minimumOrderSubtotalCents: number;
  checkoutUrl: string;
  instalments: CartPageProps['instalments'];
}) {
  const below = minimumOrderSubtotalCents > 0 && cart.subtotalCents < minimumOrderSubtotalCents;
  // A cart an owner's price change took past what can be shown still opens, says so, and cannot check out.
  const tooLarge = cartAmountTooLarge(cart.subtotal?.value ?? cart.subtotalCents, currency);
  return (
    <>
      <div className="cart-subtotal">
        <span className="cart-subtotal__label">Subtotal</span>{' '}
        <span className="cart-subtotal__price">{formatMoneyShown(cart.subtotal?.value ?? cart.subtotalCents, currency)}</span>
      </div>
      {tooLarge && <p className="cart-too-large">{cartMessages.CART_TOTAL_TOO_LARGE}</p>}
      <InstalmentCartPill context={instalments} cart={cart} currency={currency} />
      {below && <p className="cart-minimum">{cartMessages.minimumSubtotal(formatMoney(minimumOrderSubtotalCents, currency))}</p>}
      <div className="cart-checkout">
        {below || tooLarge ? (
          <button type="button" className="cart-checkout-button sqs-button-element--primary" disabled>
            Checkout
          </button>
        ) : (
          <a className="cart-checkout-button sqs-button-element--primary" href={checkoutUrl}>
            Checkout
          </a>
        )}
      </div>
    </>
  );
}

export function CartPage({
  cart: initial,
  currency,
  minimumOrderSubtotalCents,
  crumb,
  forms,
  checkoutUrl = '/checkout',
  instalments,
}: CartPageProps) {
  const [cart, setCart] = useState<CartPageCart>(initial);
  const [alert, setAlert] = useState<Alert | null>(null);
  const [busy, setBusy] = useState(false);
  const [recalculating, setRecalculating] = useState(false);
  const [editing, setEditing] = useState<CartPageEntry | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const loading = useCartSync(setCart);

  const run = async (title: string, call: () => Promise<{ shoppingCart: Parameters<typeof cartStore.set>[0] }>) => {
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      setAlert({ title, message: cartMessages.CHECK_INTERNET });
      return false;
    }
    setBusy(true);
    setAlert(null);
    try {
      const res = await call();
      setCart(res.shoppingCart as unknown as CartPageCart);
      cartStore.set(res.shoppingCart as Parameters<typeof cartStore.set>[0]);
      return true;
    } catch (err) {
      setAlert({ title, message: cartErrorDetail(err) });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const onQuantity = (entry: CartPageEntry, text: string) => {
    const q = parseQuantity(text);
    if (!q.ok) {
      setAlert({ title: cartMessages.UNABLE_TO_UPDATE_QUANTITY, message: q.message, entryId: entry.id });
      return;
    }
    if (q.quantity === entry.quantity) return;
    void run(cartMessages.UNABLE_TO_UPDATE_QUANTITY, () => cartApi.updateQuantity(entry.id, q.quantity));
  };
  const onRemove = (entry: CartPageEntry) => void run(cartMessages.UNABLE_TO_REMOVE_ITEM, () => cartApi.remove(entry.id));
  const onEdit = (entry: CartPageEntry) => {
    setFormError(null);
    if (!usableForm(forms[entry.itemId])) {
      setAlert({ title: cartMessages.UNABLE_TO_OPEN_FORM, message: cartMessages.PLEASE_TRY_AGAIN });
      return;
    }
    setEditing(entry);
  };
  const saveFields = async (values: Record<string, string>) => {
    if (!editing) return;
    setRecalculating(true);
    setFormError(null);
    try {
      const res = await cartApi.updateFields(editing.id, {
        itemId: editing.itemId,
        sku: editing.chosenVariant.sku,
        additionalFields: JSON.stringify(values),
      });
      setCart(res.shoppingCart as unknown as CartPageCart);
      cartStore.set(res.shoppingCart);
      setEditing(null);
    } catch (err) {
      setFormError(`${cartMessages.UNABLE_TO_UPDATE_FORM}: ${cartErrorDetail(err)}`);
    } finally {
      setRecalculating(false);
    }
  };

  const empty = cart.entries.length === 0;
  return (
    <div
      className={`cart-container${recalculating ? ' cart--recalculating' : ''}`}
      aria-busy={recalculating || busy || loading ? true : undefined}
      data-loading={loading ? '' : undefined}
      data-recalculating={recalculating ? '' : undefined}
    >
      {alert && (
        <div className="cart-alert" role="alert" id={CART_ALERT_ID}>
          <strong className="title">{alert.title}</strong> <span className="message">{alert.message}</span>
        </div>
      )}
      {empty ? (
        <div className="cart-empty">
          <p>You have nothing in your shopping cart.</p>
          <a className="sqs-button-element--primary" href="/">
            Continue Shopping
          </a>
        </div>
      ) : (
        <>
          <ul className="cart-entries" aria-label="Items in your cart">
            {cart.entries.map((e) => (
              <EntryRow
                key={e.id}
                entry={e}
                currency={currency}
                crumb={crumb}
                busy={busy || recalculating}
                form={forms[e.itemId]}
                onQuantity={onQuantity}
                onRemove={onRemove}
                onEdit={onEdit}
                quantityInvalid={alert?.entryId === e.id}
              />
            ))}
          </ul>
          <CartTotals
            cart={cart}
            currency={currency}
            minimumOrderSubtotalCents={minimumOrderSubtotalCents}
            checkoutUrl={checkoutUrl}
            instalments={instalments}
          />
        </>
      )}
      {editing && forms[editing.itemId] && (
        <Modal
          title={forms[editing.itemId]!.name || editing.title}
          titleId={`cart-form-${editing.id}`}
          onClose={() => setEditing(null)}
          refocusKey={formError}
        >
          <AdditionalFieldsForm
            form={forms[editing.itemId]!}
            scope={`cart-${editing.id}`}
            initial={answers(editing.additionalFields)}
            submitLabel="Save"
            saving={recalculating}
            error={formError}
            onSubmit={(v) => void saveFields(v)}
          />
        </Modal>
      )}
      {recalculating && (
        <span className="visually-hidden" role="status">
          {formMessages.SAVING}
        </span>
      )}
    </div>
  );
}
