/**
 * Whether checkout offers the instalment payment method: the owner's
 * 'Offer instalment payments' switch is on (server/instalments instalmentsOffered), the store's context is
 * available for the currency, and the cart qualifies (a shopping cart whose every item is physical; a
 * subscription never). The page checks the total against the limits as it changes.
 */
import type { FastifyInstance } from 'fastify';
import { isInstalmentEligibleCart } from '../../core/instalments.js';
import { DEFAULT_INSTALMENT_COUNT } from '../../core/constants.js';

export interface CheckoutInstalmentOffer {
  /** Limits in minor units: a total above min and up to max qualifies. */
  min: string;
  max: string;
  count: number;
}

export async function checkoutInstalments(
  app: FastifyInstance,
  currency: string,
  ref: { kind: string } | null,
  entries: ReadonlyArray<{ productType?: number }> | undefined,
): Promise<CheckoutInstalmentOffer | null> {
  if (!ref || ref.kind !== 'cart' || !app.hasDecorator('instalments')) return null;
  if (!isInstalmentEligibleCart(entries ?? [])) return null;
  const ctx = await app.instalments.storeContext(currency);
  if (!ctx.afterPayAvailable) return null;
  return { min: String(ctx.afterPayMin), max: String(ctx.afterPayMax), count: DEFAULT_INSTALMENT_COUNT };
}
