/**
 * The cart calls of the browser and the messages their failures show
 * (offline, crumb failure, rate limit, server refusal). Every write carries the crumb through api().
 */
import { api, ApiError } from './api.js';
import { cart as cartMessages, commerce } from '../../core/messages.js';
import type { CartSummary } from './cart-store.js';
import type { CartAddBody } from '../../core/api/cart.js';

export type AddBody = CartAddBody;

export interface CartResponse<K extends string> {
  shoppingCart: CartSummary;
  [key: string]: unknown;
  // the entry of the call: newlyAdded, updatedEntry or removedEntry
  _?: K;
}

const ENTRIES = '/api/commerce/shopping-cart/entries';

export const cartApi = {
  add: (body: AddBody) => api<CartResponse<'newlyAdded'>>('POST', ENTRIES, body),
  updateQuantity: (entryId: string, quantity: number) =>
    api<CartResponse<'updatedEntry'>>('PUT', `${ENTRIES}/${encodeURIComponent(entryId)}`, { quantity }),
  remove: (entryId: string) => api<CartResponse<'removedEntry'>>('DELETE', `${ENTRIES}/${encodeURIComponent(entryId)}`),
  updateFields: (entryId: string, body: { itemId: string; sku: string; additionalFields: string }) =>
    api<CartResponse<'updatedEntry'>>('PUT', `${ENTRIES}/${encodeURIComponent(entryId)}/additionalFields`, body),
  subscribe: (body: { itemId: string; sku: string; qty: number; additionalFields: string | null }) =>
    api<{ cartToken: string }>('POST', '/api/3/commerce/cart/subscription', body),
  stock: (itemId: string) =>
    api<{ results: Array<{ sku: string; unlimited: boolean; qtyInStock: number }> }>(
      'GET',
      `/api/commerce/inventory/stock/?itemId=${encodeURIComponent(itemId)}`,
    ),
};

export interface ErrorEnv {
  cookiesEnabled: boolean;
  online: boolean;
}

function browserEnv(): ErrorEnv {
  if (typeof navigator === 'undefined') return { cookiesEnabled: true, online: true };
  return { cookiesEnabled: navigator.cookieEnabled !== false, online: navigator.onLine !== false };
}

/**
 * The message of a failed add: a lost connection (the browser is offline, or the call got no answer at all)
 * asks to check it, a crumb failure asks to reload (or to enable cookies), 429 asks to try again in a few
 * seconds, other server messages are shown as they are.
 */
export function addErrorMessage(err: unknown, env: ErrorEnv = browserEnv()): string {
  if (!env.online || (err instanceof ApiError && err.network) || err instanceof TypeError) return cartMessages.CHECK_INTERNET;
  if (err instanceof ApiError) {
    if (err.crumbFail) return commerce.crumbFailure(env.cookiesEnabled);
    if (err.status === 429) return commerce.RATE_LIMITED;
    return err.message;
  }
  return cartMessages.PLEASE_TRY_AGAIN;
}

/** The detail under a cart-page alert ('Unable to update quantity', ...): offline, crumb, 429 or the server's message. */
export function cartErrorDetail(err: unknown, env: ErrorEnv = browserEnv()): string {
  return addErrorMessage(err, env);
}

/** The alert title of an add: express checkout, gift card, or the default. */
export function addAlertTitle(opts: { express?: boolean; giftCard?: boolean }): string {
  if (opts.express) return commerce.UNABLE_TO_PURCHASE_ITEM;
  if (opts.giftCard) return commerce.UNABLE_TO_PURCHASE_GIFT_CARD;
  return commerce.UNABLE_TO_ADD_ITEM;
}
