/**
 * The WidgetRenderer the server injects into the template engine: the commerce widget formatters
 * ({@|add-to-cart-btn}, {@|variants-select}, {@|quantity-input}, {@|product-status}, {@|product-scarcity},
 * {@|product-quick-view}, {@|product-checkout}) draw React islands rendered on the server, which the
 * browser bundle hydrates. Also the product merchandising context templates read, and the /cart island.
 */
import type { WidgetName, WidgetProps, WidgetRenderer } from '../../template/index.js';
import { renderIsland } from '../../web/ssr.js';
import { productBadge, showVariantSelector, structuredContentOfProps } from '../../core/product.js';
import { commerce } from '../../core/messages.js';
import { ProductType } from '../../core/enums.js';
import type { ProductProps, VariantProps, AdditionalFieldsFormProps } from '../../core/api/storefront.js';
import type { CartPageProps } from '../../core/api/storefront.js';
import type { CartJson, CartService } from './cart-service.js';
import { additionalFieldsFormOf } from './cart-service.js';
import { restockSignUpHtml } from '../restock/index.js';
import {
  cartInstalmentContexts,
  currentInstalmentState,
  currentStoreInstalmentContext,
  instalmentContextFor,
} from '../instalments/index.js';
import { escapeHtml } from '../../core/html.js';

export interface CommerceSettings {
  multipleQuantityAllowedForServices?: boolean;
  /** Express checkout: add-to-cart buttons go straight to checkout. */
  expressCheckout?: boolean;
  scarcityEnabled?: boolean;
  /** The scarcity text, with {qtyInStock}. */
  scarcityText?: string;
  scarcityThreshold?: number;
  scarcityShownByDefault?: boolean;
  minimumOrderSubtotalCents?: number;
  [key: string]: unknown;
}

export const DEFAULT_SCARCITY_TEXT = 'Only {qtyInStock} left in stock';
export const DEFAULT_SCARCITY_THRESHOLD = 5;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const cents = (m: unknown, legacy: unknown): number => {
  const v = obj(m).value;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return typeof legacy === 'number' && Number.isFinite(legacy) ? legacy : 0;
};

/** The compact product props of an item as the page context holds it (itemJson of a store item). */
export function productPropsOf(item: unknown, currency: string, settings: CommerceSettings = {}): ProductProps | null {
  const i = obj(item);
  const sc = obj(i.structuredContent);
  if (typeof i.id !== 'string' || !Array.isArray(sc.variants)) return null;
  const variants: VariantProps[] = (sc.variants as unknown[]).map((raw) => {
    const v = obj(raw);
    return {
      sku: String(v.sku ?? ''),
      attributes: obj(v.attributes) as Record<string, string>,
      qtyInStock: Number(v.qtyInStock) || 0,
      unlimited: v.unlimited === true,
      priceCents: cents(v.priceMoney, v.price),
      salePriceCents: cents(v.salePriceMoney, v.salePrice),
      onSale: v.onSale === true,
      ...(typeof v.imageUrl === 'string' && v.imageUrl ? { imageUrl: v.imageUrl } : {}),
    };
  });
  const form = additionalFieldsFormOf(sc);
  const hasFormRef = !!sc.additionalFieldsFormId || !!sc.additionalFieldsForm;
  return {
    itemId: i.id,
    title: String(i.title ?? ''),
    productType: Number(sc.productType) || ProductType.PHYSICAL,
    isSubscribable: sc.isSubscribable === true,
    subscriptionPlan: (sc.subscriptionPlan as ProductProps['subscriptionPlan']) ?? null,
    variants,
    variantOptionOrdering: Array.isArray(sc.variantOptionOrdering) ? (sc.variantOptionOrdering as string[]) : undefined,
    useCustomAddButtonText: sc.useCustomAddButtonText === true,
    customAddButtonText: typeof sc.customAddButtonText === 'string' ? sc.customAddButtonText : undefined,
    // A product that names a form that cannot be drawn keeps a marker, so the button says 'Unable to open form'.
    additionalFieldsForm: form
      ? (form as AdditionalFieldsFormProps)
      : hasFormRef
        ? ({ id: String(sc.additionalFieldsFormId ?? ''), fields: [] } as AdditionalFieldsFormProps)
        : null,
    currency,
    multipleQuantityAllowedForServices: settings.multipleQuantityAllowedForServices ?? true,
    onSale: sc.onSale === true,
    instalments: instalmentContextFor(
      { productType: Number(sc.productType) || ProductType.PHYSICAL, isSubscribable: sc.isSubscribable === true },
      currency,
    ),
  };
}

/**
 * An item's merchandising context, kept per item `structuredContent` object (made once per item row and
 * content version, see widgetHtmlOf), store settings object and instalment preferences (read per version),
 * with the shopper's language and the currency in the key: the same inputs give the same context, and a
 * list page asks for one per card on every render. Shared: read-only.
 */
const merchandisingKept = new WeakMap<object, WeakMap<object, WeakMap<object, Map<string, Obj>>>>();

/** productMerchandisingContext of the platform: per product id, the scarcity settings templates read. */
export function merchandisingContext(
  items: unknown[],
  settings: CommerceSettings = {},
  currency = String(settings.selectedCurrency ?? 'USD'),
): Record<string, Obj> {
  const out: Record<string, Obj> = {};
  const state = currentInstalmentState();
  for (const item of items) {
    const i = obj(item);
    const sc = i.structuredContent;
    if (typeof i.id !== 'string' || !obj(sc).variants) continue;
    if (!state || !sc || typeof sc !== 'object') {
      out[i.id] = itemMerchandising(obj(sc), settings, currency);
      continue;
    }
    let bySettings = merchandisingKept.get(state.prefs);
    if (!bySettings) merchandisingKept.set(state.prefs, (bySettings = new WeakMap()));
    let bySc = bySettings.get(settings);
    if (!bySc) bySettings.set(settings, (bySc = new WeakMap()));
    let kept = bySc.get(sc);
    if (!kept) bySc.set(sc, (kept = new Map()));
    const key = `${i.id}\u0000${state.language}\u0000${currency}`;
    let made = kept.get(key);
    if (!made) {
      made = itemMerchandising(obj(sc), settings, currency);
      if (kept.size < 16) kept.set(key, made);
    }
    out[i.id] = made;
  }
  return out;
}

function itemMerchandising(sc: Obj, settings: CommerceSettings, currency: string): Obj {
  return {
    scarcityEnabled: settings.scarcityEnabled ?? true,
    scarcityText: settings.scarcityText || DEFAULT_SCARCITY_TEXT,
    scarcityShownByDefault: settings.scarcityShownByDefault ?? false,
    scarcityTemplateViews: [],
    // The per-item instalment context (afterPayAvailable, afterPayMin, afterPayMax, shopperLanguage, stripeAccountCountry).
    ...instalmentContextFor(
      { productType: Number(sc.productType) || ProductType.PHYSICAL, isSubscribable: sc.isSubscribable === true },
      currency,
    ),
  };
}

/** The merchandising context of a page's context (its item, or its items). */
export function pageMerchandising(ctx: Obj, settings: CommerceSettings = {}): Record<string, Obj> {
  const items = [...(ctx.item ? [ctx.item] : []), ...(Array.isArray(ctx.items) ? ctx.items : [])];
  const out = merchandisingContext(items, settings);
  // The cart's items carry their instalment context too.
  const entries = Array.isArray(obj(ctx.cart).entries) ? (obj(ctx.cart).entries as Array<{ itemId: string; productType?: number }>) : [];
  for (const [id, c] of Object.entries(cartInstalmentContexts(entries, String(settings.selectedCurrency ?? 'USD'))))
    out[id] = { ...out[id], ...c };
  return out;
}

/** The renderer for one page render. */
export function commerceWidgets(opts: { currency: string; settings?: CommerceSettings }): WidgetRenderer {
  const settings = opts.settings ?? {};
  // A card or a product page asks for several widgets of one item: its props are worked out once per render.
  const productProps = new WeakMap<object, ProductProps | null>();
  const propsOf = (item: unknown): ProductProps | null => {
    if (!item || typeof item !== 'object') return productPropsOf(item, opts.currency, settings);
    let p = productProps.get(item);
    if (p === undefined) {
      p = productPropsOf(item, opts.currency, settings);
      productProps.set(item, p);
    }
    return p;
  };
  return {
    render(name: WidgetName, props: WidgetProps): string | undefined {
      // A store item's widgets are pure functions of the item, the widget's arguments and data, the store
      // settings, the currency and the instalment preferences: kept per item (see widgetHtmlOf).
      const kept = widgetHtmlOf(props.item, settings);
      const key = kept
        ? `${name}\u0000${props.locale}\u0000${opts.currency}\u0000${currentInstalmentState()?.language ?? ''}\u0000${props.args.join('\u0001')}\u0000${dataKey(name, props.data)}`
        : '';
      const hit = kept?.get(key);
      if (hit !== undefined) return hit;
      const html = renderWidget(name, props);
      if (kept && html !== undefined && kept.size < 64) kept.set(key, html);
      return html;
    },
  };

  function renderWidget(name: WidgetName, props: WidgetProps): string | undefined {
    const product = propsOf(props.item);
    if (!product) return undefined;
    const scope = product.itemId;
    const express = props.args.includes('express') || settings.expressCheckout === true;
    switch (name) {
      case 'add-to-cart-btn': {
        // The engine's {@|variants-select} draws options from variantOptionOrdering only (as the platform
        // does); a product with several variants but no ordering would have no selector and could never be
        // bought, so its button brings the selector along.
        const orphan =
          showVariantSelector(structuredContentOfProps(product)) &&
          !(product.variantOptionOrdering && product.variantOptionOrdering.length > 0);
        // `no-instalments`: a button on a card of another product's page (related products) draws no instalment pill.
        const pill = props.args.includes('no-instalments') ? { instalmentPill: false } : {};
        return (
          (orphan ? renderIsland('VariantSelect', { product, scope }) : '') +
          renderIsland('AddToCart', { product, scope, express, ...pill })
        );
      }
      case 'variants-select':
        return showVariantSelector(structuredContentOfProps(product)) ? renderIsland('VariantSelect', { product, scope }) : '';
      case 'quantity-input':
        return renderIsland('QuantityInput', { product, scope });
      case 'product-checkout':
        return (
          (showVariantSelector(structuredContentOfProps(product)) ? renderIsland('VariantSelect', { product, scope }) : '') +
          renderIsland('QuantityInput', { product, scope }) +
          renderIsland('AddToCart', { product, scope, express })
        );
      case 'product-status': {
        const badge = productBadge(structuredContentOfProps(product));
        if (badge === 'sold-out') return `<div class="product-mark sold-out">${escapeHtml(commerce.SOLD_OUT)}</div>`;
        if (badge === 'sale') return `<div class="product-mark sale">${escapeHtml(commerce.SALE)}</div>`;
        return '';
      }
      case 'product-scarcity': {
        if (settings.scarcityEnabled === false) return '';
        const data = props.data;
        return renderIsland('ProductScarcity', {
          product,
          scope,
          text:
            typeof data.scarcityText === 'string' && data.scarcityText ? data.scarcityText : settings.scarcityText || DEFAULT_SCARCITY_TEXT,
          threshold: settings.scarcityThreshold ?? DEFAULT_SCARCITY_THRESHOLD,
          shownByDefault: data.scarcityShownByDefault === true,
        });
      }
      case 'product-quick-view': {
        const i = obj(props.item);
        const image = i.assetUrl ? { assetUrl: String(i.assetUrl), altText: String(i.altText ?? '') } : null;
        const label = typeof props.data.label === 'string' && props.data.label ? props.data.label : commerce.QUICK_VIEW;
        return renderIsland(
          'QuickView',
          { product, fullUrl: String(i.fullUrl ?? ''), image, label, group: String(props.data.group ?? '') },
          'span',
        );
      }
      case 'product-restock-notification':
        return restockSignUpHtml(props.item, settings);
      default:
        return undefined;
    }
  }
}

/**
 * Widget HTML kept per store item of a page context. An item's JSON (site-context/context.ts itemJson) is made
 * once per item row and content version and its `structuredContent` object is shared by every copy, so
 * it identifies the item at one version: when the version moves, new rows give new objects and these
 * entries go with the old ones (WeakMaps). Keyed first by the instalment preferences (a request state read
 * per version) and the store settings object (kept per website row), which the widgets also read; the
 * key string holds the rest. Everything else a widget reads of the item (id, title, image, address) was
 * made together with that `structuredContent`.
 */
/** What renderWidget reads of a widget's data (the rest of the data never changes its HTML). */
function dataKey(name: WidgetName, data: Obj): string {
  if (name === 'product-scarcity') return JSON.stringify([data.scarcityText ?? null, data.scarcityShownByDefault === true]);
  if (name === 'product-quick-view') return JSON.stringify([data.label ?? null, data.group ?? null]);
  return '';
}

const widgetHtml = new WeakMap<object, WeakMap<object, WeakMap<object, Map<string, string>>>>();
function widgetHtmlOf(item: unknown, settings: CommerceSettings): Map<string, string> | null {
  const state = currentInstalmentState();
  const sc = item && typeof item === 'object' ? (item as Obj).structuredContent : undefined;
  if (!state || !sc || typeof sc !== 'object' || !Array.isArray((sc as Obj).variants)) return null;
  let bySettings = widgetHtml.get(state.prefs);
  if (!bySettings) widgetHtml.set(state.prefs, (bySettings = new WeakMap()));
  let byItem = bySettings.get(settings);
  if (!byItem) bySettings.set(settings, (byItem = new WeakMap()));
  let kept = byItem.get(sc);
  if (!kept) byItem.set(sc, (kept = new Map()));
  return kept;
}

/** The /cart island: the cart with its forms, store currency, minimum subtotal and the visitor's crumb. */
export function cartPageIsland(
  cart: CartJson,
  opts: { currency: string; crumb: string; settings?: CommerceSettings; forms: Record<string, AdditionalFieldsFormProps> },
): string {
  const props: CartPageProps = {
    cart: cart as unknown as CartPageProps['cart'],
    currency: opts.currency,
    minimumOrderSubtotalCents: Math.max(0, Number(opts.settings?.minimumOrderSubtotalCents) || 0),
    crumb: opts.crumb,
    forms: opts.forms,
    instalments: { store: currentStoreInstalmentContext(opts.currency), items: cartInstalmentContexts(cart.entries, opts.currency) },
  };
  return renderIsland('CartPage', props as unknown as Record<string, unknown>);
}

/** The /cart island for a cart read by the service (loads the entries' forms). */
export async function cartPageHtml(
  carts: CartService,
  cart: CartJson,
  opts: { currency: string; crumb: string; settings?: CommerceSettings },
): Promise<string> {
  const forms = (await carts.formsFor(cart.entries.map((e) => e.itemId))) as Record<string, AdditionalFieldsFormProps>;
  return cartPageIsland(cart, { ...opts, forms });
}
