/**
 * The checkout area's server state (coupons, shipping options, tax rules, the store's settings): the addresses,
 * the query keys, and the hooks over TanStack Query the screens read and save through.
 */
import { api } from '../../client/api.js';
import { useRecordList } from '../ui/records.js';
import type { Coupon } from './CouponsScreen.js';
import type { Option } from './ShippingScreen.js';
import type { Rule } from './TaxScreen.js';

const BASE = '/api/checkout/admin';
export const checkoutUrls = {
  coupons: `${BASE}/coupons`,
  shipping: `${BASE}/shipping-options`,
  tax: `${BASE}/tax-rules`,
  settings: `${BASE}/settings`,
} as const;

/** The query keys: each list is cached under ['records', its address] (useRecordList); the settings under their own. */
export const checkoutKeys = {
  settings: ['checkout-settings'] as const,
  coupons: ['records', checkoutUrls.coupons] as const,
  shipping: ['records', checkoutUrls.shipping] as const,
  tax: ['records', checkoutUrls.tax] as const,
};

export const useCoupons = () => useRecordList<Coupon>(checkoutUrls.coupons, 'coupons');
/** Shipping options also mark the dashboard stale: its set-up checklist counts them. */
export const useShippingOptions = () => useRecordList<Option>(checkoutUrls.shipping, 'shippingOptions', [['dashboard']]);
export const useTaxRules = () => useRecordList<Rule>(checkoutUrls.tax, 'taxRules');

/** Adds a record (no id) or replaces one; the caller reloads its list. */
export function saveRecord(url: string, id: string | null, body: unknown): Promise<unknown> {
  return id === null ? api('POST', url, body) : api('PUT', `${url}/${id}`, body);
}
