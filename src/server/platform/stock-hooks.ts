import type { Tx } from '../../db/index.js';

/** A variant's stock as the product save sees it, before and after the change. */
export interface StockLevel {
  qtyInStock: number;
  unlimited: boolean;
}

/**
 * Called inside the product-save transaction for every variant whose stock changed, so a restock
 * sending can start in the same transaction. The restock area's onStockChanged is registered in
 * ./index.ts; nothing else needs to know about it.
 */
export type StockChangedHook = (tx: Tx, variantId: string, before: StockLevel, after: StockLevel) => Promise<void>;

export const stockChangedHooks: StockChangedHook[] = [];

/** Whether a change takes a variant from sold out (0, not unlimited) to in stock. */
export function backInStock(before: StockLevel, after: StockLevel): boolean {
  return !before.unlimited && before.qtyInStock <= 0 && (after.unlimited || after.qtyInStock > 0);
}
