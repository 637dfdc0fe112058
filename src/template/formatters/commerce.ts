/** Commerce formatters: prices, cart, product widgets (through the injected renderer when present). */
import type { Context } from '../context';
import type { FormatterFn } from '../types';
import { asBoolean, asNumber, asString, emitString, escapeAttr, isTruthy, path, step } from '../util';
import * as cu from './commerce-util';
import { execTemplate, widget } from './exec';
import { formatMoney, formatMoneyAmount, isSupportedCurrency } from '../../core/money';

const nf2 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const nf0 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 0 });

const zeroDecimal = (currency: string) => currency.toUpperCase() === 'JPY';

/** Minor units of a supported currency go through core's one money formatter (exact to 15 places). */
const MINOR_UNITS = /^-?\d{1,17}$/;

/** Amount text of a money value: platform decimals as given, minor units by the currency's decimals. */
export function moneyText(money: unknown): string {
  const raw = asString(step(money, 'value')).trim();
  const currency = cu.moneyCurrency(money);
  if (raw.indexOf('.') !== -1 || !raw) return nf2.format((parseFloat(raw) || 0));
  if (MINOR_UNITS.test(raw) && isSupportedCurrency(currency || 'USD')) {
    try {
      return formatMoneyAmount(raw, currency || 'USD');
    } catch {
      /* over 15 integer places: fall through to the plain rendering */
    }
  }
  const minor = Number(raw);
  if (!isFinite(minor)) return nf2.format(0);
  return zeroDecimal(currency) ? nf0.format(minor) : nf2.format(minor / 100);
}

/** A money value formatted with its currency for the render locale. */
export function moneyCurrencyText(money: unknown, locale: string): string {
  const currency = cu.moneyCurrency(money) || 'USD';
  const raw = asString(step(money, 'value')).trim();
  if (MINOR_UNITS.test(raw) && isSupportedCurrency(currency) && locale.toLowerCase().startsWith('en')) {
    try {
      return formatMoney(raw, currency);
    } catch {
      /* fall through */
    }
  }
  const major = raw.indexOf('.') !== -1 ? parseFloat(raw) || 0 : (Number(raw) || 0) / (zeroDecimal(currency) ? 1 : 100);
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(major);
  } catch {
    return nf2.format(major);
  }
}

export function moneyString(money: unknown, ctx: Context): string {
  if (isTruthy(ctx.resolve(P_CLDR))) return moneyCurrencyText(money, ctx.locale);
  return `<span class="sqs-money-native">${moneyText(money)}</span>`;
}

/** Legacy price: minor units as a string (platform decimals are moved two places). */
function legacyPrice(money: unknown): string {
  return String(cu.moneyMinor(money));
}

export const ADD_TO_CART = `{.var @content structuredContent}
{.var @fieldsFormId @content.additionalFieldsFormId}
{.var @fieldsForm @content.additionalFieldsForm}
{.var @useCustom @content.useCustomAddButtonText}
{.var @customButton @content.customAddButtonText}
{.var @productType @content.productType}
{.var @addToCartText localizedStrings.productAddToCartText}
{.var @subscribeText localizedStrings.productSubscribeText}
{.var @isSubscribable @content.isSubscribable}
{.var @subsOptions structuredContent.productSubscriptionOptions}
{.var @subsOptionsCount structuredContent.productSubscriptionOptions|count}
{.if @subsOptionsCount && @isSubscribable}{.var @subsOption @subsOptions.0}{.end}

<div class="sqs-add-to-cart-button-wrapper" data-animation-role="button">
  <div class="sqs-add-to-cart-button sqs-suppress-edit-mode sqs-editable-button sqs-button-element--primary {.if @fieldsFormId && @fieldsForm}use-form{.end}" role="button" tabindex="0" data-dynamic-strings data-collection-id="{collectionId}" data-item-id="{id}" data-product-type="{@productType}" data-use-custom-label="{@useCustom}" {.if @isSubscribable}data-is-subscription="{@isSubscribable}" {.end}data-original-label="{.if @useCustom && @customButton}{@customButton|htmlattr}{.or}{.if @isSubscribable}{.if @subscribeText}{@subscribeText|htmlattr}{.or}Subscribe{.end}{.or}{.if @addToCartText}{@addToCartText|htmlattr}{.or}Add To Cart{.end}{.end}{.end}" {.if @fieldsFormId && @fieldsForm}data-form="{@fieldsForm|json|htmlattr}"{.end}{.if @subsOption}data-subscription-option-id="{@subsOption.id}"{.end}>
    <div class="sqs-add-to-cart-button-inner">{.if @useCustom && @customButton}{@customButton|htmltag}{.or}{.if @isSubscribable}{.if @subscribeText}{@subscribeText|htmltag}{.or}Subscribe{.end}{.or}{.if @addToCartText}{@addToCartText|htmltag}{.or}Add To Cart{.end}{.end}{.end}</div>
  </div>
</div>`;

export const QUANTITY_INPUT = `{.var @quantityLabel localizedStrings.productQuantityInputLabel}


<div class="product-quantity-input" data-item-id="{id}" data-animation-role="content">
  <div class="quantity-label">{.if @quantityLabel}{@quantityLabel}{.or}Quantity{.end}:</div>
  <input aria-label="{.if @quantityLabel}{@quantityLabel}{.or}Quantity{.end}" size="4" max="9999" min="1" value="1" type="number" step="1"></input>
</div>`;

const VARIANTS_SELECT = `{.if options}
  {.var @content item.structuredContent}
  {.var @variants @content.variants}
  {.var @isSubscribable @content.isSubscribable}
  {.var @subscriptionPlan @content.subscriptionPlan}

  <div class="product-variants" data-item-id="{item.id}" data-variants="{@variants|json|htmltag}"{.if @isSubscribable} data-is-subscribable="true" data-subscription-plan="{@subscriptionPlan|json|htmltag}"{.end} data-animation-role="content">{.repeated section options}
    <div class="variant-option">
    <div class="variant-option-title">{displayText|message name:name|htmltag}: </div>
    <div class="variant-select-wrapper">
      <select aria-label="{selectText|message variantName:name}" data-variant-option-name="{name|htmltag}">
        <option value="">{selectText|message variantName:name|htmltag}</option>
        {.repeated section values}<option value="{@|htmltag}">{@|htmltag}</option>{.end}
      </select>
    </div>
    <div class="variant-radiobtn-wrapper" data-variant-option-name="{name|htmltag}">{.repeated section values}
      <input type="radio" class="variant-radiobtn" value="{@|htmltag}" name="variant-option-{name|htmltag}" id="variant-option-{name|htmltag}-{@|htmltag}"/>
      <label class="sqs-button-element--secondary" role="button" tabindex="0" for="variant-option-{name|htmltag}-{@|htmltag}">{@|htmltag}</label>{.end}
    </div>
    </div>{.end}
  </div>
{.end}`;

const RESTOCK = `{.var @productId product.id}
{.var @buttonText messages.buttonText}
{.var @CTAText messages.CTAText}
{.var @placeholderText messages.placeholderText}
{.var @mailingListDescription messages.mailingListDescription}

{.repeated section views}
<div class="product-restock-notification" data-product-id="{@productId}" data-variant-id="{variantId}"{.if hiddenByDefault} hidden{.end}>
  <span class="product-restock-cta">{@CTAText|htmltag}</span>
  <form class="product-restock-form" action="#">
    <input type="text" x-autocompletetype="email" spellcheck="false" name="email" placeholder="{@placeholderText|htmlattr}">
    <input class="sqs-editable-button" type="submit" value="{@buttonText|htmlattr}">
  </form>
{.if mailingListSignUpEnabled}  <label class="product-restock-mailing-list"><input type="checkbox" name="isJoinMailingList"{.if mailingListOptInByDefault} checked{.end}>{@mailingListDescription|htmltag}</label>{.end}
{.if captchaSiteKey}  <div class="captcha-container"></div>{.end}
</div>
{.end}`;

const SCARCITY = `{.repeated section scarcityTemplateViews}
  <div class="product-scarcity"{.if attributes} data-variant-attributes="{attributes|json|htmltag}" hidden{.end}>
    {scarcityText|message qtyInStock:qtyInStock|htmltag}
  </div>
{.end}`;

const SUBSCRIPTION_PRICE = `{.var @originalPriceText localizedStrings.originalPriceText}
{.var @salePriceText localizedStrings.salePriceText}

<div class="subscription-price">
{.if formattedFromPrice}{fromText|message fromPrice:formattedFromPrice}
{.or}{.if formattedSubscriptionSalePrice}<span class="visually-hidden v6-visually-hidden">{.if @salePriceText}{@salePriceText|htmltag}{.or}Sale Price:{.end}</span>{formattedSubscriptionSalePriceText|message price:formattedSubscriptionSalePrice}{.space}<span class="visually-hidden v6-visually-hidden">{.if @originalPriceText}{@originalPriceText|htmltag}{.or}Original Price:{.end}</span><span class="original-price">{formattedNormalSubscriptionPriceText|message price:formattedNormalSubscriptionPrice}</span>
{.or}{.if formattedNormalSubscriptionPrice}{formattedNormalSubscriptionPriceText|message price:formattedNormalSubscriptionPrice}{.end}{.end}{.end}
</div>`;

const FIELD_TEMPLATES: Record<string, string> = {
  address: `<div style="padding-left:5px;">
  <div>{values.Line1}</div>{.if values.Line2}
  <div>{values.Line2}</div>{.end}
  <div>{values.City}, {values.State} {values.Zip} {values.Country}</div>
</div>`,
  checkbox: `{.if values}{.repeated section values}{.greaterThan? @index 1}, {.end}{@}{.end}
{.or}{.if value}{value}{.end}{.end}`,
  date: '{values.Month}/{values.Day}/{values.Year}',
  likert: `<div style="padding-left:5px;">{.repeated section @}
  <div><span style="font-weight:bold;">{question}:</span> {answer}</div>{.end}
</div>`,
  name: '{values.First} {values.Last}',
  phone: '{.if values.Country}+{values.Country} {.end}{values.Areacode}-{values.Prefix}-{values.Line}',
  time: '{.if values.Hour}{values.Hour}{.or}00{.end}:{.if values.Minute}{values.Minute}{.or}00{.end}:{.if values.Second}{values.Second}{.or}00{.end} {values.Ampm}',
};

const LIKERT_DEFAULTS: Array<[string, string, string]> = [
  ['-2', 'StronglyDisagree', 'Strongly Disagree'],
  ['-1', 'Disagree', 'Disagree'],
  ['0', 'Neutral', 'Neutral'],
  ['1', 'Agree', 'Agree'],
  ['2', 'StronglyAgree', 'Strongly Agree'],
];

const stringPaths = new Map<string, string[]>();
/** A single-segment or `localizedStrings.<key>` path, allocated once per name. */
function onePath(cache: Map<string, string[]>, a: string, b?: string): string[] {
  const k = b === undefined ? a : b;
  let p = cache.get(k);
  if (p === undefined) {
    p = b === undefined ? [a] : [a, b];
    cache.set(k, p);
  }
  return p;
}
const groupPaths = new Map<string, string[]>();

function str(ctx: Context, key: string): string {
  return asString(ctx.resolve(onePath(stringPaths, 'localizedStrings', key)));
}

/** What a `{name}` tag appends for a value. */
const emit = (x: unknown): string => (typeof x === 'string' ? x : emitString(x));
/** The `count` formatter. */
const countOf = (x: unknown): number =>
  x !== null && typeof x === 'object' ? (Array.isArray(x) ? x.length : Object.keys(x).length) : typeof x === 'string' ? x.length : 0;

/**
 * The add-to-cart button, built by string concatenation. Output is exactly
 * what the ADD_TO_CART template gives (kept above as the readable spec of the
 * markup; the spec suite and the benchmark's identity check hold the two equal).
 */
function addToCartHtml(v: unknown, ctx: Context): string {
  const saved = ctx.pushValue(v);
  try {
    const content = ctx.resolve(P_CONTENT);
    const fieldsFormId = step(content, 'additionalFieldsFormId');
    const fieldsForm = step(content, 'additionalFieldsForm');
    const useCustom = step(content, 'useCustomAddButtonText');
    const customButton = step(content, 'customAddButtonText');
    const productType = step(content, 'productType');
    const addToCartText = ctx.resolve(P_ADD_TEXT);
    const subscribeText = ctx.resolve(P_SUBSCRIBE_TEXT);
    const isSubscribable = step(content, 'isSubscribable');
    const subsOptions = ctx.resolve(P_SUBS_OPTIONS);
    const subsOption = isTruthy(countOf(subsOptions)) && isTruthy(isSubscribable) ? step(subsOptions, 0) : undefined;
    const withForm = isTruthy(fieldsFormId) && isTruthy(fieldsForm);
    let label: string;
    if (isTruthy(useCustom) && isTruthy(customButton)) label = escapeAttr(asString(customButton));
    else if (isTruthy(isSubscribable)) label = isTruthy(subscribeText) ? escapeAttr(asString(subscribeText)) : 'Subscribe';
    else label = isTruthy(addToCartText) ? escapeAttr(asString(addToCartText)) : 'Add To Cart';
    let h =
      '\n\n\n\n\n\n\n\n\n\n\n\n\n<div class="sqs-add-to-cart-button-wrapper" data-animation-role="button">\n' +
      '  <div class="sqs-add-to-cart-button sqs-suppress-edit-mode sqs-editable-button sqs-button-element--primary ' +
      (withForm ? 'use-form' : '') +
      '" role="button" tabindex="0" data-dynamic-strings data-collection-id="' +
      emit(ctx.resolve(P_COLLECTION_ID)) +
      '" data-item-id="' +
      emit(ctx.resolve(P_ID)) +
      '" data-product-type="' +
      emit(productType) +
      '" data-use-custom-label="' +
      emit(useCustom) +
      '" ';
    if (isTruthy(isSubscribable)) h += 'data-is-subscription="' + emit(isSubscribable) + '" ';
    h += 'data-original-label="' + label + '" ';
    if (withForm) h += 'data-form="' + escapeAttr(fieldsForm === undefined ? '' : JSON.stringify(fieldsForm).split('</').join('<\\/')) + '"';
    if (isTruthy(subsOption)) h += 'data-subscription-option-id="' + emit(step(subsOption, 'id')) + '"';
    return h + '>\n    <div class="sqs-add-to-cart-button-inner">' + label + '</div>\n  </div>\n</div>';
  } finally {
    ctx.frame = saved;
  }
}
const P_CONTENT = ['structuredContent'];
const P_CLDR = ['featureFlags', 'useCLDRMoneyFormat'];
const P_WEBSITE_SETTINGS = ['websiteSettings'];
const P_MERCH = ['productMerchandisingContext'];
const P_QUICK_VIEW_TEXT = ['localizedStrings', 'productQuickViewText'];
const P_ADD_TEXT = ['localizedStrings', 'productAddToCartText'];
const P_SUBSCRIBE_TEXT = ['localizedStrings', 'productSubscribeText'];
const P_SUBS_OPTIONS = ['structuredContent', 'productSubscriptionOptions'];
const P_COLLECTION_ID = ['collectionId'];
const P_ID = ['id'];
const P_QTY_LABEL = ['localizedStrings', 'productQuantityInputLabel'];

function addToCart(v: unknown, args: string[], ctx: Context): string {
  const html = addToCartHtml(v, ctx);
  return widget(ctx, 'add-to-cart-btn', v, args, html, { label: cu.isSubscribable(v) ? 'Subscribe' : 'Add To Cart' });
}

/** The quantity input markup (QUANTITY_INPUT above), by concatenation. */
function quantityInputHtml(v: unknown, ctx: Context): string {
  const saved = ctx.pushValue(v);
  try {
    const q = ctx.resolve(P_QTY_LABEL);
    const label = isTruthy(q) ? emit(q) : 'Quantity';
    return (
      '\n\n\n<div class="product-quantity-input" data-item-id="' +
      emit(ctx.resolve(P_ID)) +
      '" data-animation-role="content">\n  <div class="quantity-label">' +
      label +
      ':</div>\n  <input aria-label="' +
      label +
      '" size="4" max="9999" min="1" value="1" type="number" step="1"></input>\n</div>'
    );
  } finally {
    ctx.frame = saved;
  }
}

function quantityInput(v: unknown, args: string[], ctx: Context): unknown {
  const t = cu.productType(v);
  const settings = ctx.resolve(P_WEBSITE_SETTINGS);
  const allowed =
    (t === cu.ProductType.PHYSICAL || (t === cu.ProductType.SERVICE && cu.multipleQuantityAllowedForServices(settings))) &&
    !cu.isSubscribable(v);
  if (!allowed || cu.totalStock(v) <= 1) return undefined;
  return widget(ctx, 'quantity-input', v, args, quantityInputHtml(v, ctx), { min: 1, max: 9999, step: 1, value: 1 });
}

function variantsSelect(v: unknown, args: string[], ctx: Context): unknown {
  const options = cu.variantOptions(v);
  if (options.length === 0) return undefined;
  const gift = cu.productType(v) === cu.ProductType.GIFT_CARD;
  const selectText = (gift ? str(ctx, 'giftCardVariantSelectText') : str(ctx, 'productVariantSelectText')) || (gift ? 'Select Value' : 'Select {variantName}');
  const displayText = (gift ? str(ctx, 'giftCardValueDisplayText') : '') || (gift ? 'Value' : '{name}');
  const node = { item: v, options, selectText, displayText };
  return widget(ctx, 'variants-select', v, args, execTemplate(ctx, VARIANTS_SELECT, node, false), { options, selectText, displayText });
}

export const COMMERCE_FORMATTERS: Record<string, FormatterFn> = {
  'add-to-cart-btn': (v, args, ctx: Context) => addToCart(v, args, ctx),
  'bookkeeper-money-format': (v, _args, ctx: Context) => {
    const n = parseFloat(asString(v));
    const cents = isFinite(n) ? n : 0;
    const region = (ctx.locale.split(/[-_]/)[1] || 'US').toUpperCase();
    const currency = REGION_CURRENCY[region] ?? 'USD';
    try {
      return new Intl.NumberFormat(ctx.locale, { style: 'currency', currency }).format(cents / 100);
    } catch {
      return nf2.format(cents / 100);
    }
  },
  'cart-quantity': (v) => {
    let count = 0;
    const entries = step(v, 'entries');
    if (Array.isArray(entries)) for (const e of entries) count += asNumber(step(e, 'quantity'));
    return `<span class="sqs-cart-quantity">${count}</span>`;
  },
  'cart-subtotal': () => 'deprecated, do not use',
  'cart-url': () => '/cart',
  'from-price': (v) => legacyPrice(cu.fromPrice(v)),
  'normal-price': (v) => legacyPrice(cu.normalPrice(v)),
  'sale-price': (v) => legacyPrice(cu.salePrice(v)),
  'percentage-format': (v, args, ctx: Context) => {
    const trim = args.includes('trim');
    const n = parseFloat(asString(v));
    return new Intl.NumberFormat(ctx.locale, { minimumFractionDigits: trim ? 0 : 2, maximumFractionDigits: 3 }).format(isFinite(n) ? n : 0);
  },
  'product-checkout': (v, args, ctx: Context) => {
    const html =
      asString(variantsSelect(v, args, ctx)) + asString(quantityInput(v, args, ctx)) + asString(addToCart(v, args, ctx));
    return widget(ctx, 'product-checkout', v, args, html);
  },
  'product-price': () => 'not yet implemented',
  'subscription-price': (v, _args, ctx: Context) => {
    const data: Record<string, unknown> = {};
    const options = lowestVariantPricingOptions(v);
    if (Array.isArray(options) && options.length > 0) {
      const first = options[0];
      if (cu.hasVariedPrices(v)) {
        const m = isTruthy(step(first, 'onSale')) ? step(first, 'salePriceMoney') : step(first, 'priceMoney');
        const from = ctx.resolve(['localizedStrings', 'productPriceFromText']);
        data.fromText = from !== undefined ? asString(from) : 'from {fromPrice}';
        data.formattedFromPrice = moneyString(m, ctx);
      }
      if (isTruthy(step(first, 'onSale'))) {
        data.formattedSubscriptionSalePriceText = '{price}';
        data.formattedSubscriptionSalePrice = moneyString(step(first, 'salePriceMoney'), ctx);
      }
      data.formattedNormalSubscriptionPriceText = '{price}';
      data.formattedNormalSubscriptionPrice = moneyString(step(first, 'priceMoney'), ctx);
    }
    return execTemplate(ctx, SUBSCRIPTION_PRICE, data, true);
  },
  'product-quick-view': (v, args, ctx: Context) => {
    const id = asString(step(v, 'id'));
    let group = args[0] || '';
    const own = step(v, group);
    if (own !== undefined) group = asString(own);
    else {
      const g = ctx.resolve(onePath(groupPaths, group));
      if (g !== undefined) group = asString(g);
    }
    const text = ctx.resolve(P_QUICK_VIEW_TEXT);
    const label = text === undefined ? 'Quick View' : asString(text);
    const html = `<span class="sqs-product-quick-view-button" role="button" tabindex="0" data-id="${id}" data-group="${group}">${label}</span>`;
    return widget(ctx, 'product-quick-view', v, args, html, { id, group, label });
  },
  'product-restock-notification': (v, args, ctx: Context) => {
    const website = ctx.resolve(['website']);
    const merch = ctx.resolve(P_MERCH);
    const product = step(merch, asString(step(v, 'id')));
    const data = {
      product: v,
      views: step(product, 'restockNotificationViews'),
      messages: step(product, 'restockNotificationMessages'),
      mailingListSignUpEnabled: step(product, 'mailingListSignUpEnabled'),
      mailingListOptInByDefault: step(product, 'mailingListOptInByDefault'),
      captchaSiteKey: path(website, ['captchaSettings', 'siteKey']),
    };
    return widget(ctx, 'product-restock-notification', v, args, execTemplate(ctx, RESTOCK, data, false), data);
  },
  'product-scarcity': (v, args, ctx: Context) => {
    const merch = ctx.resolve(P_MERCH);
    if (merch === undefined) return v;
    const p = step(merch, asString(step(v, 'id')));
    if (p === undefined || !asBoolean(step(p, 'scarcityEnabled'))) return v;
    const data = {
      scarcityTemplateViews: step(p, 'scarcityTemplateViews'),
      scarcityText: step(p, 'scarcityText'),
      scarcityShownByDefault: step(p, 'scarcityShownByDefault'),
    };
    return widget(ctx, 'product-scarcity', v, args, execTemplate(ctx, SCARCITY, data, false), data);
  },
  'product-status': (v, args, ctx: Context) => {
    const id = asString(step(v, 'id'));
    const merch = ctx.resolve(P_MERCH);
    const custom = id && merch !== undefined ? asString(path(merch, [id, 'customSoldOutText'])) : '';
    let html: string | undefined;
    let state: string | null = null;
    if (cu.isSoldOut(v)) {
      state = 'sold-out';
      html = `<div class="product-mark sold-out">${escapeAttr(custom || str(ctx, 'productSoldOutText') || 'sold out')}</div>`;
    } else if (cu.isOnSale(v)) {
      state = 'sale';
      html = `<div class="product-mark sale">${str(ctx, 'productSaleText') || 'sale'}</div>`;
    }
    if (html === undefined) return undefined;
    return widget(ctx, 'product-status', v, args, html, { state });
  },
  'quantity-input': (v, args, ctx: Context) => quantityInput(v, args, ctx),
  'summary-form-field': (v, _args, ctx: Context) => {
    const strings = ctx.resolve(['localizedStrings']);
    const type = asString(step(v, 'type'));
    const tpl = Object.prototype.hasOwnProperty.call(FIELD_TEMPLATES, type) ? FIELD_TEMPLATES[type] : undefined;
    let value: string;
    if (tpl === undefined) value = asString(step(v, 'value'));
    else {
      let node: unknown = v;
      if (type === 'likert') {
        const answers: Record<string, string> = {};
        for (const [k, key, def] of LIKERT_DEFAULTS) {
          const s = step(strings, 'productAnswerMap' + key);
          answers[k] = typeof s === 'string' ? s : def;
        }
        const values = step(v, 'values');
        const list: Array<{ question: string; answer: string }> = [];
        if (values !== null && typeof values === 'object') {
          for (const q of Object.keys(values)) list.push({ question: q, answer: answers[asString((values as Record<string, unknown>)[q])] || answers['0'] });
        }
        node = list;
      }
      value = execTemplate(ctx, tpl, node, true);
    }
    let out = '<div style="font-size:11px; margin-top:3px">\n  <span style="font-weight:bold;">';
    out += asString(step(v, 'rawTitle')) + ':</span> ';
    if (value !== '') out += value;
    else {
      const t = asString(step(strings, 'productSummaryFormNoAnswerText')).trim();
      out += t === '' ? 'N/A' : t;
    }
    return out + '\n</div>';
  },
  'variant-descriptor': (v) => cu.variantDescriptor(v),
  'variants-select': (v, args, ctx: Context) => variantsSelect(v, args, ctx),
};

function lowestVariantPricingOptions(item: unknown): unknown {
  const t = cu.productType(item);
  if (t !== cu.ProductType.PHYSICAL && t !== cu.ProductType.SERVICE) return null;
  const vs = path(item, ['structuredContent', 'variants']);
  if (!Array.isArray(vs) || vs.length === 0) return null;
  const price = (x: unknown) => cu.moneyMinor(isTruthy(step(x, 'onSale')) ? step(x, 'salePriceMoney') : step(x, 'priceMoney'));
  let best = vs[0];
  let p = price(best);
  for (let i = 1; i < vs.length; i++) {
    const q = price(vs[i]);
    if (q < p) {
      p = q;
      best = vs[i];
    }
  }
  return step(best, 'pricingOptions');
}

const REGION_CURRENCY: Record<string, string> = {
  US: 'USD', GB: 'GBP', CA: 'CAD', AU: 'AUD', NZ: 'NZD', JP: 'JPY', CH: 'CHF', SE: 'SEK', DK: 'DKK', NO: 'NOK',
  CZ: 'CZK', HU: 'HUF', PL: 'PLN', IL: 'ILS', MX: 'MXN', BR: 'BRL', AR: 'ARS', CO: 'COP', HK: 'HKD', SG: 'SGD',
  IN: 'INR', MY: 'MYR', PH: 'PHP', TH: 'THB', ZA: 'ZAR', FR: 'EUR', DE: 'EUR', ES: 'EUR', IT: 'EUR', NL: 'EUR',
  IE: 'EUR', PT: 'EUR', AT: 'EUR', BE: 'EUR', FI: 'EUR',
};
