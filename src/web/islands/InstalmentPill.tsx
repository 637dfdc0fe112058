/**
 * The instalment (buy now, pay later) pill on product pages and /cart, with its information popup.
 *
 * Eligible price: 'or 4 interest-free payments of $17.00 with' the provider's mark and 'more information';
 * out of range: the mark, 'available for orders up to {max}' (or 'over {min}') and 'more information'.
 * Nothing at all when the item or cart cannot be paid in instalments (provider off, unsupported country,
 * no limits for the store currency, a non-physical item). Every rule and text comes from core.
 * The popup is a dialog: Escape, a click outside and Close hide it and return focus to 'more information'.
 */
import { useEffect, useRef, useState } from 'react';
import { DEFAULT_INSTALMENT_COUNT } from '../../core/constants.js';
import { ProductType } from '../../core/enums.js';
import {
  instalmentPaymentsText,
  instalmentState,
  isInstalmentEligibleCart,
  type InstalmentBrand,
  type InstalmentContext,
  type InstalmentLocale,
} from '../../core/instalments.js';
import { instalments as text } from '../../core/messages.js';
import { findVariant, parseQuantity, productOptions, showVariantSelector, variantEffectivePrice } from '../../core/product.js';
import { minorUnitsOf, productPriceView, shownPrice } from '../../core/product-price.js';
import { currencyDecimals } from '../../core/money.js';
import { useProductChoice } from '../client/product-store.js';
import { BRAND_NAMES, loadInstalmentModal, localInstalmentInfo, type ModalContent } from '../client/instalment-info.js';
import { domId, structuredContentOf, type ProductProps } from './product-props.js';
import { Modal } from './Modal.js';
import type { CartInstalmentContext } from '../../core/api/storefront.js';
export type { CartInstalmentContext };

const pillStyle: React.CSSProperties = {
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: '0.35em',
  margin: '0.75em 0',
  fontSize: '0.9em',
  lineHeight: 1.5,
};
const markStyle: React.CSSProperties = {
  display: 'inline-block',
  padding: '0.05em 0.55em',
  borderRadius: '1em',
  background: '#b2fce4',
  color: '#000',
  fontWeight: 700,
  fontSize: '0.85em',
  letterSpacing: '0.01em',
};
const infoStyle: React.CSSProperties = {
  background: 'none',
  border: 0,
  padding: 0,
  color: 'inherit',
  font: 'inherit',
  textDecoration: 'underline',
  cursor: 'pointer',
};

/** The provider's mark, named for assistive technology. */
export function InstalmentMark({ brand }: { brand: InstalmentBrand }) {
  return (
    <span className={`instalment-mark instalment-mark--${brand}`} role="img" aria-label={BRAND_NAMES[brand]} style={markStyle}>
      <span aria-hidden="true">{brand}</span>
    </span>
  );
}

function LocalInfo({ locale, brand, paymentsText }: { locale: InstalmentLocale; brand: InstalmentBrand; paymentsText: string | null }) {
  const info = localInstalmentInfo(locale, brand);
  return (
    <div className="instalment-info instalment-info--local" lang={info.lang}>
      <h3 className="instalment-info__heading">{info.heading}</h3>
      {paymentsText && <p className="instalment-info__payments">{paymentsText}</p>}
      <h4 className="instalment-info__steps-title">{info.stepsLabel}</h4>
      <ol className="instalment-info__steps">
        {info.steps.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ol>
      {info.notes.map((n) => (
        <p key={n} className="instalment-info__note">
          {n}
        </p>
      ))}
      <p>
        <a href={info.termsUrl} target="_blank" rel="noopener noreferrer">
          {info.termsLabel}
        </a>
      </p>
    </div>
  );
}

export interface InstalmentInfoDialogProps {
  locale: InstalmentLocale;
  brand: InstalmentBrand;
  /** 'N interest-free payments of {amount}' for the current price, when eligible. */
  paymentsText: string | null;
  titleId: string;
  onClose: () => void;
}

/** The information popup: the provider's modal when it loads, else the local version. */
export function InstalmentInfoDialog({ locale, brand, paymentsText, titleId, onClose }: InstalmentInfoDialogProps) {
  const [content, setContent] = useState<ModalContent | null>(null);
  useEffect(() => {
    let live = true;
    void loadInstalmentModal(locale).then((c) => live && setContent(c));
    return () => {
      live = false;
    };
  }, [locale]);
  const name = BRAND_NAMES[brand];
  return (
    <Modal title={name} titleId={titleId} onClose={onClose} className="instalment-dialog">
      {content === null ? (
        <p role="status">Loading…</p>
      ) : content.source === 'provider' && content.html ? (
        // The provider's page runs nothing here: a sandbox without scripts.
        <iframe
          className="instalment-info instalment-info--provider"
          title={name}
          srcDoc={content.html}
          sandbox="allow-popups allow-popups-to-escape-sandbox"
          style={{ width: '100%', minHeight: '28em', border: 0 }}
        />
      ) : (
        <LocalInfo locale={locale} brand={brand} paymentsText={paymentsText} />
      )}
    </Modal>
  );
}

export interface InstalmentMessageProps {
  context: InstalmentContext | null | undefined;
  /** The price the message is about, in minor units. */
  priceCents: number | bigint | null;
  currency: string;
  /** Unique per page (ids of the popup). */
  idBase: string;
  /** The eligible text; defaults to core's 'or N interest-free payments of {amount} with'. */
  eligibleText?: (total: bigint, count: number) => string;
}

/** The pill for a price under a context; nothing when instalments do not apply. */
export function InstalmentMessage({ context, priceCents, currency, idBase, eligibleText }: InstalmentMessageProps) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  // The dialog returns focus as it closes; a click outside would then move it to the page under the
  // pointer, so focus goes back to 'more information' once that click is over.
  const close = () => {
    setOpen(false);
    setTimeout(() => opener.current?.focus(), 0);
  };
  if (!context || priceCents === null) return null;
  let state: ReturnType<typeof instalmentState>;
  try {
    state = instalmentState(context, BigInt(priceCents), currency, DEFAULT_INSTALMENT_COUNT);
  } catch {
    return null; // an unsupported currency or malformed limits never show a broken widget
  }
  if (!state.show) return null;
  const message = state.eligible && eligibleText ? eligibleText(BigInt(priceCents), state.count) : state.text;
  const paymentsText = state.eligible ? instalmentPaymentsText(BigInt(priceCents), currency, state.count) : null;
  return (
    <div
      className={`instalment-pill${state.eligible ? '' : ' instalment-pill--out-of-range'}`}
      data-instalment-brand={state.brand}
      data-instalment-locale={state.locale}
      style={pillStyle}
    >
      <span className="instalment-pill__text" aria-live="polite">
        {state.eligible ? message : null}
      </span>
      <InstalmentMark brand={state.brand} />
      {!state.eligible && (
        <span className="instalment-pill__range" aria-live="polite">
          {message}
        </span>
      )}
      <button
        ref={opener}
        type="button"
        className="instalment-pill__info"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
        style={infoStyle}
      >
        {text.MORE_INFORMATION}
      </button>
      {open && (
        <InstalmentInfoDialog
          locale={state.locale}
          brand={state.brand}
          paymentsText={paymentsText}
          titleId={`${idBase}-title`}
          onClose={close}
        />
      )}
    </div>
  );
}

// ------------------------------------------------------------------------------------------------
// Product page
// ------------------------------------------------------------------------------------------------

/**
 * The price the product pill is about: the chosen variant's price times the quantity; before a variant
 * is chosen, the price the page shows (core/product-price.ts productPriceView: the sale price, or the
 * lowest price a buyer pays when the variants' prices differ). A quantity that is not a whole number counts as 1.
 */
export function productInstalmentPrice(product: ProductProps, attributes: Record<string, string>, quantityText: string): bigint | null {
  const sc = structuredContentOf(product);
  const selector = showVariantSelector(sc);
  const complete = !selector || productOptions(sc).every((o) => attributes[o.name]);
  const chosen = complete ? (selector ? findVariant(sc, attributes) : sc.variants[0]) : undefined;
  let unit: bigint | null = chosen ? variantEffectivePrice(chosen) : null;
  // Before a variant is chosen: the price the page shows, from core's one price rule (sale, from-price).
  if (unit === null && sc.variants.length > 0)
    unit = minorUnitsOf(shownPrice(productPriceView({ structuredContent: sc })), currencyDecimals(product.currency));
  if (unit === null) return null;
  const q = parseQuantity(quantityText);
  return unit * BigInt(q.ok ? q.quantity : 1);
}

export interface InstalmentPillProps {
  product: ProductProps;
  scope: string;
}

/** The product page's pill: follows the variant choice and the quantity. */
export function InstalmentPill({ product, scope }: InstalmentPillProps) {
  const choice = useProductChoice(scope);
  if (!product.instalments?.afterPayAvailable) return null;
  const price = productInstalmentPrice(product, choice.attributes, choice.quantityText);
  return (
    <InstalmentMessage context={product.instalments} priceCents={price} currency={product.currency} idBase={domId(scope, 'instalments')} />
  );
}

// ------------------------------------------------------------------------------------------------
// Cart
// ------------------------------------------------------------------------------------------------

/** The instalment context served with the cart: the store's, and each item's. */

export interface InstalmentCartPillProps {
  context: CartInstalmentContext | null | undefined;
  cart: { subtotalCents: number; entries: readonly { itemId: string; productType?: number }[] };
  currency: string;
}

/** Whether a cart qualifies: every item is a physical product that can be paid in instalments. */
export function cartQualifies(context: CartInstalmentContext, entries: readonly { itemId: string; productType?: number }[]): boolean {
  return (
    context.store.afterPayAvailable &&
    isInstalmentEligibleCart(entries.map((e) => ({ productType: e.productType ?? ProductType.PHYSICAL }))) &&
    entries.every((e) => context.items[e.itemId]?.afterPayAvailable !== false)
  );
}

/** The /cart pill: the cart subtotal, re-drawn on every cart edit. */
export function InstalmentCartPill({ context, cart, currency }: InstalmentCartPillProps) {
  if (!context || !cartQualifies(context, cart.entries)) return null;
  return (
    <InstalmentMessage
      context={context.store}
      priceCents={cart.subtotalCents}
      currency={currency}
      idBase="cart-instalments"
      eligibleText={(total, count) => text.orInstallmentWith(instalmentPaymentsText(total, currency, count))}
    />
  );
}
