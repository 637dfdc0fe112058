/** The jobs area's door: what other areas use of it. */
export { PaymentReconciler } from './payment-reconciler.js';
export type { JobQueue } from './queue.js';
