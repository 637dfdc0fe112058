import type { Tx } from '../../db/index.js';
import type { OrderRow } from './service.js';

/**
 * Called inside the transaction that marks an order fulfilled (delivered), so work that follows a
 * delivery (the reviews area's review request) is queued with the status change or not at all.
 * Areas push their hook once; checkout knows nothing else about them.
 */
export type OrderFulfilledHook = (tx: Tx, order: OrderRow) => Promise<void>;

export const orderFulfilledHooks: OrderFulfilledHook[] = [];
