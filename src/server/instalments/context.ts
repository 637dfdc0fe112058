/**
 * The instalment context per item: afterPayAvailable, afterPayMin, afterPayMax,
 * shopperLanguage, stripeAccountCountry. Pages read the owner's preferences once per request (a hook of
 * the instalments plugin) and the commerce context code, which is synchronous, asks for an item's context
 * here. Outside a page request (or before preferences are read) every item is unavailable.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ProductType } from '../../core/enums.js';
import { isSupportedInstalmentCountry, type InstalmentContext } from '../../core/instalments.js';
import { isSupportedCurrency, normalizeCurrency } from '../../core/money.js';
import { NO_INSTALMENTS, type InstalmentPreferences } from './preferences.js';

export interface InstalmentRequestState {
  prefs: InstalmentPreferences;
  /** The website's language (e.g. 'en-US'), the shopper language the provider sees. */
  language: string;
}

const requestState = new AsyncLocalStorage<InstalmentRequestState>();

/** Runs `fn` with a request's instalment state (the plugin's hook wraps the rest of the request). */
export function withInstalmentState<T>(state: InstalmentRequestState, fn: () => T): T {
  return requestState.run(state, fn);
}

/** The current request's instalment state, if a page request read it. */
export function currentInstalmentState(): InstalmentRequestState | undefined {
  return requestState.getStore();
}

/** What an item needs to say about itself: its product type and whether it is a subscription. */
export interface InstalmentItem {
  productType?: number;
  isSubscribable?: boolean;
}

/**
 * The store-wide context for a currency (what a cart uses): available when the owner turned instalments
 * on, the account country is supported and the currency has limits.
 */
export function storeInstalmentContext(prefs: InstalmentPreferences, currency: string, language: string): InstalmentContext {
  const code = isSupportedCurrency(currency) ? normalizeCurrency(currency) : null;
  const limits = code ? prefs.limits[code] : undefined;
  const available = prefs.available && !!limits && isSupportedInstalmentCountry(prefs.merchantCountry);
  return {
    afterPayAvailable: available,
    afterPayMin: limits?.min ?? '0',
    afterPayMax: limits?.max ?? '0',
    shopperLanguage: language,
    stripeAccountCountry: prefs.merchantCountry,
  };
}

/** An item's context: only physical, non-subscription products can be paid in instalments. */
export function itemInstalmentContext(
  item: InstalmentItem,
  prefs: InstalmentPreferences,
  currency: string,
  language: string,
): InstalmentContext {
  const store = storeInstalmentContext(prefs, currency, language);
  const type = Number(item.productType) || ProductType.PHYSICAL;
  return { ...store, afterPayAvailable: store.afterPayAvailable && type === ProductType.PHYSICAL && item.isSubscribable !== true };
}

/** An item's context for the current request (unavailable outside a page request). */
export function instalmentContextFor(item: InstalmentItem, currency: string): InstalmentContext {
  const state = currentInstalmentState();
  return itemInstalmentContext(item, state?.prefs ?? NO_INSTALMENTS, currency, state?.language ?? 'en-US');
}

/** The store-wide context for the current request (unavailable outside a page request). */
export function currentStoreInstalmentContext(currency: string): InstalmentContext {
  const state = currentInstalmentState();
  return storeInstalmentContext(state?.prefs ?? NO_INSTALMENTS, currency, state?.language ?? 'en-US');
}

/**
 * The per-item contexts of a cart's entries, by item id (served with the cart data). Entries carry their
 * product type; a cart entry is never a subscription.
 */
export function cartInstalmentContexts(
  entries: readonly { itemId: string; productType?: number }[],
  currency: string,
): Record<string, InstalmentContext> {
  const out: Record<string, InstalmentContext> = {};
  for (const e of entries) out[e.itemId] = instalmentContextFor({ productType: e.productType }, currency);
  return out;
}
