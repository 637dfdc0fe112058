import type { Tx } from '../../db/index.js';
import type { OrderRow } from '../../core/orders.js';

/**
 * Called inside the transaction that marks an order fulfilled (delivered), so work that follows a
 * delivery (the reviews area's review request) is queued with the status change or not at all.
 * Areas push their hook once; checkout knows nothing else about them.
 */
export type OrderFulfilledHook = (tx: Tx, order: OrderRow) => Promise<void>;

export const orderFulfilledHooks: OrderFulfilledHook[] = [];

/**
 * Called inside the transaction that places an order (after its stock is taken and its confirmation queued), so
 * the owner's new-order and low-stock notifications are queued with the order or not at all. Kept per database,
 * so apps sharing this module (tests, several sites in one process) each run only their own.
 */
export type OrderPlacedHook = (tx: Tx, order: OrderRow) => Promise<void>;

const placedHooks = new WeakMap<object, OrderPlacedHook[]>();

export function onOrderPlaced(database: object, hook: OrderPlacedHook): void {
  const list = placedHooks.get(database) ?? [];
  if (!list.includes(hook)) list.push(hook);
  placedHooks.set(database, list);
}

export function orderPlacedHooks(database: object): readonly OrderPlacedHook[] {
  return placedHooks.get(database) ?? [];
}
