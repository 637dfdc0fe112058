/**
 * The product page's purchase controls as islands: variant selector, quantity input, add-to-cart button
 * and scarcity text. They share the visitor's choices through productStore (one scope per product view),
 * and use core's rules and messages for everything they decide and say. Markup keeps the class names and
 * data attributes theme developers know.
 */
import { useEffect, useRef, useState } from 'react';
import {
  addButtonLabel,
  checkAddToCart,
  findVariant,
  productOptions,
  showQuantityInput,
  showVariantSelector,
  variantEffectivePrice,
  variantPrice,
} from '../../core/product.js';
import { commerce, cart as cartMessages } from '../../core/messages.js';
import { QUANTITY_DEFAULT, QUANTITY_MAX, QUANTITY_MIN, QUANTITY_STEP } from '../../core/constants.js';
import { formatMoney } from '../../core/money.js';
import { fillPrice, priceMarkup, productPriceView, type MoneyValue } from '../../core/product-price.js';
import { fill } from '../../core/messages.js';
import { productStore, useProductChoice } from '../client/product-store.js';
import { cartStore } from '../client/cart-store.js';
import { addAlertTitle, addErrorMessage, cartApi } from '../client/cart-api.js';
import { AddButtonMachine, buttonLabel, type ButtonState } from '../client/add-button.js';
import { domId, isGiftCard, structuredContentOf, type ProductProps } from './product-props.js';
import { Modal } from './Modal.js';
import { AdditionalFieldsForm, usableForm } from './AdditionalFieldsForm.js';
import { InstalmentPill } from './InstalmentPill.js';

export interface ControlProps {
  product: ProductProps;
  /** The product view these controls belong to (the item id on its page; another for a quick view). */
  scope: string;
}

/**
 * The id of a product view's add-to-cart form. The button's island draws the form; the variant selects and
 * the quantity input join it with `form=` wherever the theme puts them, so without JavaScript the choice
 * posts as one plain form (server/commerce/cart-form.ts).
 */
export const addFormId = (scope: string) => domId(scope, 'add-form');
export const ADD_ACTION = '/api/commerce/shopping-cart/entries';

// ------------------------------------------------------------------------------------------------
// Variant selector
// ------------------------------------------------------------------------------------------------

/**
 * The price markup of a chosen variant: core's price view and markup, the same
 * the theme's `{@|product-price}` prints (sale price with visually-hidden
 * 'Sale Price:' / 'Original Price:' labels, a subscription's billing words).
 */
export function variantPriceHtml(product: ProductProps, sku: string): string | null {
  const sc = structuredContentOf(product);
  const v = sc.variants.find((x) => x.sku === sku);
  if (!v || variantPrice(v) === null || variantEffectivePrice(v) === null) return null;
  const view = productPriceView({ structuredContent: { ...sc, variants: [v] } });
  const money = (m: MoneyValue) => formatMoney(String(m.value), m.currency ?? product.currency);
  return priceMarkup(view, money, {}, fillPrice);
}

export function VariantSelect({ product, scope }: ControlProps) {
  const choice = useProductChoice(scope);
  const sc = structuredContentOf(product);
  const gift = isGiftCard(product);
  const shown = showVariantSelector(sc);
  const options = productOptions(sc);
  const chosen = shown ? findVariant(sc, choice.attributes) : undefined;
  const complete = options.every((o) => choice.attributes[o.name]);

  // The page's price follows the chosen variant (theme markup: data-product-price-for="{itemId}").
  const original = useRef<Map<Element, string> | null>(null);
  useEffect(() => {
    if (scope !== product.itemId) return;
    const els = document.querySelectorAll(`[data-product-price-for="${CSS.escape(product.itemId)}"]`);
    if (!original.current) original.current = new Map([...els].map((e) => [e, e.innerHTML]));
    const html = complete && chosen?.sku ? variantPriceHtml(product, chosen.sku) : null;
    for (const el of els) el.innerHTML = html ?? original.current.get(el) ?? el.innerHTML;
  }, [complete, chosen?.sku, scope, product]);

  // The page's main image follows the chosen variant's own image (theme markup: data-product-image-for="{itemId}").
  const originalImage = useRef<Map<HTMLImageElement, { src: string; srcset: string | null }> | null>(null);
  useEffect(() => {
    if (scope !== product.itemId) return;
    const imgs = [...document.querySelectorAll<HTMLImageElement>(`img[data-product-image-for="${CSS.escape(product.itemId)}"]`)];
    if (!originalImage.current)
      originalImage.current = new Map(imgs.map((e) => [e, { src: e.getAttribute('src') ?? '', srcset: e.getAttribute('srcset') }]));
    const own = complete ? chosen?.sku && product.variants.find((v) => v.sku === chosen.sku)?.imageUrl : undefined;
    for (const img of imgs) {
      const before = originalImage.current.get(img);
      if (own) {
        img.removeAttribute('srcset');
        img.setAttribute('src', own);
      } else if (before) {
        img.setAttribute('src', before.src);
        if (before.srcset) img.setAttribute('srcset', before.srcset);
      }
    }
  }, [complete, chosen?.sku, scope, product]);

  if (!shown) return null;
  return (
    <div
      className="product-variants"
      data-item-id={product.itemId}
      data-variants={JSON.stringify(product.variants)}
      data-animation-role="content"
    >
      {options.map((o) => {
        const selectText = gift ? commerce.SELECT_VALUE : commerce.selectVariantName(o.name);
        const id = domId(scope, `option-${o.name}`);
        return (
          <div className="variant-option" key={o.name}>
            <label className="variant-option-title" htmlFor={id}>
              {gift ? 'Value' : o.name}:{' '}
            </label>
            <div className="variant-select-wrapper">
              <select
                id={id}
                name={`option.${o.name}`}
                form={addFormId(scope)}
                aria-label={selectText}
                data-variant-option-name={o.name}
                value={choice.attributes[o.name] ?? ''}
                onChange={(e) => productStore.select(scope, o.name, e.target.value)}
              >
                <option value="">{selectText}</option>
                {o.values.map((value) => (
                  <option key={value} value={value}>
                    {value}
                  </option>
                ))}
              </select>
            </div>
          </div>
        );
      })}
    </div>
  );
}

// ------------------------------------------------------------------------------------------------
// Quantity input
// ------------------------------------------------------------------------------------------------

export function QuantityInput({ product, scope }: ControlProps) {
  const choice = useProductChoice(scope);
  const sc = structuredContentOf(product);
  if (!showQuantityInput(sc, { multipleQuantityAllowedForServices: product.multipleQuantityAllowedForServices })) return null;
  const id = domId(scope, 'quantity');
  const invalid = choice.error?.field === 'quantity';
  // A text field with a numeric keyboard, not a browser number field: the browser's own validation
  // ('Please enter a valid value') would answer before our own messages, with or without JavaScript.
  // The page checks it (core parseQuantity), and without JavaScript the server's answer says the same.
  return (
    <div className="product-quantity-input" data-item-id={product.itemId} data-animation-role="content">
      <label className="quantity-label" htmlFor={id}>
        {commerce.QUANTITY}:
      </label>
      <input
        id={id}
        aria-label={commerce.QUANTITY}
        size={4}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        data-min={QUANTITY_MIN}
        data-max={QUANTITY_MAX}
        data-step={QUANTITY_STEP}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? domId(scope, 'add-error') : undefined}
        value={choice.quantityText}
        onChange={(e) => productStore.update(scope, { quantityText: e.target.value, error: null })}
        name="quantity"
        form={addFormId(scope)}
      />
    </div>
  );
}

// ------------------------------------------------------------------------------------------------
// Add to cart
// ------------------------------------------------------------------------------------------------

export interface AddToCartProps extends ControlProps {
  /** Express checkout: a successful add goes straight to checkout. */
  express?: boolean;
  /** Where checkout lives. */
  checkoutUrl?: string;
  /** False on a card of another product's page: no instalment pill under the button. */
  instalmentPill?: boolean;
}

function qtyInCart(itemId: string, sku: string): number {
  const entries = (cartStore.get()?.entries ?? []) as Array<{ itemId?: string; chosenVariant?: { sku?: string }; quantity?: number }>;
  return entries.filter((e) => e.itemId === itemId && e.chosenVariant?.sku === sku).reduce((s, e) => s + (e.quantity ?? 0), 0);
}

/** The messages of a quantity the page refuses: they mark the quantity input invalid. */
const QUANTITY_MESSAGES: ReadonlySet<string> = new Set([commerce.QUANTITY_NOT_A_NUMBER, commerce.QUANTITY_NOT_WHOLE]);

export function AddToCart({ product, scope, express = false, checkoutUrl = '/checkout', instalmentPill = true }: AddToCartProps) {
  const choice = useProductChoice(scope);
  const [state, setState] = useState<ButtonState>('idle');
  const [formOpen, setFormOpen] = useState(false);
  const [formSaving, setFormSaving] = useState(false);
  const machine = useRef<AddButtonMachine | null>(null);
  useEffect(() => {
    const m = new AddButtonMachine(setState);
    machine.current = m;
    return () => m.dispose();
  }, []);

  const sc = structuredContentOf(product);
  const gift = isGiftCard(product);
  const title = addAlertTitle({ express, giftCard: gift });
  const idleLabel = addButtonLabel(sc);
  const hasForm = product.additionalFieldsForm !== undefined && product.additionalFieldsForm !== null;
  const showError = (message: string, alertTitle = title) =>
    productStore.update(scope, {
      error: { title: alertTitle, message, ...(QUANTITY_MESSAGES.has(message) ? { field: 'quantity' as const } : {}) },
    });

  /** Checks the choices with core's rules; the variant and quantity when they pass. */
  const check = () => {
    const chosen = findVariant(sc, choice.attributes);
    return checkAddToCart({
      product: sc,
      selectedAttributes: choice.attributes,
      quantityText: choice.quantityText,
      cartQty: chosen?.sku ? qtyInCart(product.itemId, chosen.sku) : 0,
      giftCardDenomination: gift ? (showVariantSelector(sc) ? (chosen?.sku ?? '') : (sc.variants[0]?.sku ?? '')) : undefined,
      settings: { multipleQuantityAllowedForServices: product.multipleQuantityAllowedForServices },
    });
  };

  const send = async (sku: string, quantity: number, additionalFields: string | null) => {
    const m = machine.current!;
    if (!m.start()) return;
    productStore.update(scope, { error: null });
    try {
      if (product.isSubscribable) {
        const { cartToken } = await cartApi.subscribe({ itemId: product.itemId, sku, qty: quantity, additionalFields });
        window.location.assign(`/checkout/subscription?cartToken=${encodeURIComponent(cartToken)}`);
        return;
      }
      const res = await cartApi.add({ itemId: product.itemId, sku, quantity, additionalFields });
      cartStore.set(res.shoppingCart);
      if (express) {
        window.location.assign(checkoutUrl);
        return;
      }
      m.succeeded(false);
    } catch (err) {
      showError(addErrorMessage(err));
      m.failed();
    }
  };

  const onClick = () => {
    if (state !== 'idle') return; // adding or added: clicks are ignored
    const res = check();
    if (res.message !== null || !res.variant?.sku) {
      showError(res.message ?? commerce.VARIANT_UNAVAILABLE);
      return;
    }
    if (hasForm) {
      if (!usableForm(product.additionalFieldsForm)) {
        showError(cartMessages.UNABLE_TO_OPEN_FORM);
        return;
      }
      productStore.update(scope, { error: null });
      setFormOpen(true);
      return;
    }
    void send(res.variant.sku, res.quantity ?? QUANTITY_DEFAULT, null);
  };

  const onFormSubmit = async (values: Record<string, string>) => {
    const res = check();
    if (res.message !== null || !res.variant?.sku) {
      setFormOpen(false);
      showError(res.message ?? commerce.VARIANT_UNAVAILABLE);
      return;
    }
    setFormSaving(true);
    setFormOpen(false);
    setFormSaving(false);
    await send(res.variant.sku, res.quantity ?? QUANTITY_DEFAULT, JSON.stringify(values));
  };

  const errId = domId(scope, 'add-error');
  const label = buttonLabel(state, idleLabel);
  const sc0 = sc.variants.length === 1 && !showVariantSelector(sc) ? sc.variants[0]?.sku : undefined;
  return (
    <div className="sqs-add-to-cart-button-wrapper" data-animation-role="button">
      <form
        id={addFormId(scope)}
        className="sqs-add-to-cart-form"
        method="post"
        action={ADD_ACTION}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          onClick();
        }}
      >
        <input type="hidden" name="itemId" value={product.itemId} />
        {sc0 && <input type="hidden" name="sku" value={sc0} />}
        {express && <input type="hidden" name="express" value="1" />}
        <button
          type="submit"
          className={`sqs-add-to-cart-button sqs-suppress-edit-mode sqs-editable-button sqs-button-element--primary${hasForm ? ' use-form' : ''}${state !== 'idle' ? ` cart-${state}` : ''}`}
          data-item-id={product.itemId}
          data-product-type={product.productType}
          data-use-custom-label={product.useCustomAddButtonText ? 'true' : 'false'}
          data-is-subscription={product.isSubscribable ? 'true' : undefined}
          data-original-label={idleLabel}
          aria-describedby={choice.error ? errId : undefined}
          aria-disabled={state !== 'idle' ? true : undefined}
        >
          <span className="sqs-add-to-cart-button-inner" aria-live="polite">
            {label}
          </span>
        </button>
      </form>
      {choice.error && (
        <div className="sqs-widgets-confirmation alert product-add-error" role="alert" id={errId}>
          <strong className="title">{choice.error.title}</strong> <span className="message">{choice.error.message}</span>
        </div>
      )}
      {instalmentPill && <InstalmentPill product={product} scope={scope} />}
      {formOpen && usableForm(product.additionalFieldsForm) && (
        <Modal
          title={product.additionalFieldsForm.name || product.title}
          titleId={domId(scope, 'form-title')}
          onClose={() => setFormOpen(false)}
        >
          <AdditionalFieldsForm
            form={product.additionalFieldsForm}
            scope={scope}
            submitLabel={idleLabel}
            saving={formSaving}
            onSubmit={(v) => void onFormSubmit(v)}
          />
        </Modal>
      )}
    </div>
  );
}

// ------------------------------------------------------------------------------------------------
// Scarcity
// ------------------------------------------------------------------------------------------------

export interface ScarcityProps extends ControlProps {
  /** The text with {qtyInStock}. */
  text: string;
  /** Shown when the chosen variant's stock is at or under this number. */
  threshold: number;
  /** Show for the product's lowest stock before a variant is chosen. */
  shownByDefault: boolean;
}

/** The quantity the scarcity text shows, or null when it is hidden. */
export function scarcityQuantity(
  product: ProductProps,
  attributes: Record<string, string>,
  threshold: number,
  shownByDefault: boolean,
): number | null {
  const sc = structuredContentOf(product);
  const tracked = product.productType === 1 || product.productType === 3;
  if (!tracked) return null;
  const selector = showVariantSelector(sc);
  let v = selector ? findVariant(sc, attributes) : sc.variants[0];
  const complete = !selector || productOptions(sc).every((o) => attributes[o.name]);
  if (!complete) v = undefined;
  if (!v) {
    if (!shownByDefault) return null;
    const limited = sc.variants.filter((x) => !x.unlimited && x.qtyInStock > 0);
    if (limited.length !== sc.variants.length) return null;
    const total = limited.reduce((s, x) => s + x.qtyInStock, 0);
    return total > 0 && total <= threshold ? total : null;
  }
  if (v.unlimited || v.qtyInStock <= 0 || v.qtyInStock > threshold) return null;
  return v.qtyInStock;
}

export function ProductScarcity({ product, scope, text, threshold, shownByDefault }: ScarcityProps) {
  const choice = useProductChoice(scope);
  const qty = scarcityQuantity(product, choice.attributes, threshold, shownByDefault);
  return (
    <div className="product-scarcity" data-item-id={product.itemId} hidden={qty === null} aria-live="polite">
      {qty === null ? '' : fill(text, { qtyInStock: qty })}
    </div>
  );
}
