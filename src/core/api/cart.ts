/**
 * The shopping cart: the entry calls' bodies, the cart query, and the cart and its entries as the server
 * answers them.
 */
import { z } from 'zod';
import type { CartTotals } from '../cart.js';

export const cartItemId = z.string({ error: 'itemId is required.' }).trim().min(1, 'itemId is required.').max(64, 'itemId is too long.');
export const cartSku = z.string({ error: 'sku is required.' }).trim().min(1, 'sku is required.').max(128, 'sku is too long.');
export const cartEntryParams = z.object({ entryId: z.string().min(1).max(64) });

/** POST /api/commerce/shopping-cart/entries (quantity and fields are checked with the cart's own messages). */
export const cartAddIn = z.object(
  { itemId: cartItemId, sku: cartSku, quantity: z.unknown().optional(), additionalFields: z.unknown().optional() },
  { error: 'The request body must be a JSON object.' },
);
/** PUT .../entries/:entryId. */
export const cartQuantityIn = z.object({ quantity: z.unknown().optional() }, { error: 'The request body must be a JSON object.' });
/** PUT .../entries/:entryId/additionalFields. */
export const cartFieldsIn = z.object(
  { itemId: cartItemId, sku: cartSku, additionalFields: z.unknown() },
  { error: 'The request body must be a JSON object.' },
);
/** POST /api/3/commerce/cart/subscription. */
export const cartSubscriptionIn = z.object(
  { itemId: cartItemId, sku: cartSku, qty: z.unknown().optional(), additionalFields: z.unknown().optional() },
  { error: 'The request body must be a JSON object.' },
);
const flag = z.enum(['true', 'false', '1', '0']).optional();
/** GET of the cart. */
export const cartQuery = z.object({
  mock: flag,
  timecode: z
    .string()
    .regex(/^\d{1,20}$/, 'timecode must be a number.')
    .optional(),
  calculateSubtotal: flag,
});

/** What the browser sends to add an entry. */
export interface CartAddBody {
  itemId: string;
  sku: string;
  quantity: number;
  additionalFields: string | null;
}

export interface CartEntryJson {
  id: string;
  itemId: string;
  chosenVariant: { sku: string; attributes: Record<string, string> };
  quantity: number;
  title: string;
  purchasePriceCents: number;
  purchasePriceMoney: { value: string; currency: string };
  subTotal: { value: string; currency: string };
  subTotalCents: number;
  additionalFields: string;
  productType: number;
  urlId: string;
  fullUrl: string;
  image: Record<string, unknown> | null;
}

export interface CartJson extends CartTotals {
  id: string | null;
  websiteId: string | null;
  orderId: string | null;
  created: number | null;
  isPurchased: boolean;
  entries: CartEntryJson[];
  shippingOptions: unknown[];
  selectedShippingOption: unknown;
  shippingLocation: unknown;
  applicableTaxRules: unknown[];
  coupons: unknown[];
  validCoupons: unknown[];
  invalidCoupons: unknown[];
  /** The subtotal amount: subtotalCents with the store currency. */
  subtotal: { value: string; currency: string };
}
