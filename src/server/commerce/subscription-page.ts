/**
 * A simple subscription checkout page: the subscribed item and its subscription price text. The checkout
 * area replaces it with the full checkout; the cart it reads stays the same.
 */
import { formatMoney } from '../../core/money.js';
import { subscriptionPriceText } from '../../core/subscription.js';
import type { SubscriptionPlan } from '../../core/product.js';
import type { VariantInfo } from './cart-service.js';
import { unitPriceCents } from './cart-service.js';
import { escapeHtml } from '../../core/html.js';

export function subscriptionPageHtml(
  siteTitle: string,
  currency: string,
  sub: { quantity: number; variant: VariantInfo } | null,
  checkoutUrl?: string,
  /** The site styles' <head> part (server/editor siteStylesHead). */
  stylesHead = '',
): string {
  let main: string;
  if (!sub) {
    main =
      '<h1>Subscription not found</h1><p>This subscription checkout has expired or does not exist. <a href="/">Back to the shop</a></p>';
  } else {
    const v = sub.variant;
    const price = formatMoney(unitPriceCents(v), currency);
    const plan = (v.structuredContent.subscriptionPlan ?? null) as SubscriptionPlan | null;
    const attrs = Object.entries(v.attributes)
      .map(([k, x]) => `${escapeHtml(k)}: ${escapeHtml(x)}`)
      .join(', ');
    main =
      `<h1>Subscription checkout</h1>` +
      `<div class="subscription-checkout__item" data-item-id="${escapeHtml(v.itemId)}">` +
      (v.image && typeof v.image.assetUrl === 'string'
        ? `<img src="${escapeHtml(v.image.assetUrl)}" alt="${escapeHtml(String(v.image.altText ?? v.title))}" width="120" height="120">`
        : '') +
      `<h2 class="subscription-checkout__title">${escapeHtml(v.title)}</h2>` +
      (attrs ? `<p class="subscription-checkout__variant">${attrs}</p>` : '') +
      `<p class="subscription-checkout__quantity">Quantity: ${sub.quantity}</p>` +
      `<p class="subscription-price">${escapeHtml(subscriptionPriceText(price, plan))}</p>` +
      (checkoutUrl
        ? `<p><a class="subscription-checkout__continue cart-checkout-button" href="${escapeHtml(checkoutUrl)}">Continue to checkout</a></p>`
        : '') +
      `</div>`;
  }
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>Subscription checkout — ${escapeHtml(siteTitle)}</title><link rel="stylesheet" href="/theme/site.css">${stylesHead}</head>` +
    `<body class="tessera page-type-201"><main id="content" class="site-main subscription-checkout">${main}</main></body></html>`
  );
}
