/**
 * One cart state per page, shared by every island that shows the cart (pill, cart page, add buttons),
 * and kept in step across the visitor's open tabs through a BroadcastChannel. While the cart is read
 * (refresh) the store's loading flag is set ; islands show it as aria-busy and a data-loading marker.
 */
import { api } from './api.js';

export interface CartSummary {
  id?: string;
  totalQuantity: number;
  [key: string]: unknown;
}

type Listener = (cart: CartSummary) => void;
type LoadingListener = (loading: boolean) => void;
const listeners = new Set<Listener>();
const loadingListeners = new Set<LoadingListener>();
let current: CartSummary | null = null;
let channel: BroadcastChannel | null = null;
let reads = 0;
let pending: Promise<CartSummary> | null = null;

function getChannel(): BroadcastChannel | null {
  if (channel || typeof BroadcastChannel === 'undefined') return channel;
  channel = new BroadcastChannel('tessera-cart');
  channel.onmessage = (e: MessageEvent<CartSummary>) => apply(e.data, false);
  return channel;
}

function apply(cart: CartSummary, broadcast: boolean) {
  current = cart;
  for (const l of listeners) l(cart);
  if (broadcast) getChannel()?.postMessage(cart);
}

function setReads(delta: number) {
  const was = reads > 0;
  reads += delta;
  const now = reads > 0;
  if (was !== now) for (const l of loadingListeners) l(now);
}

export const cartStore = {
  get: () => current,
  /** True while a cart read is under way. */
  get loading(): boolean {
    return reads > 0;
  },
  /** Called with the cart an API call returned. */
  set: (cart: CartSummary) => apply(cart, true),
  subscribe(l: Listener): () => void {
    getChannel();
    listeners.add(l);
    return () => listeners.delete(l);
  },
  /**
   * Told the loading flag at once and then whenever it changes, so an island that hydrates while another
   * island's read is already under way still shows it.
   */
  onLoading(l: LoadingListener): () => void {
    loadingListeners.add(l);
    l(reads > 0);
    return () => loadingListeners.delete(l);
  },
  /** Reads the visitor's cart (one read at a time; callers during a read share it). */
  refresh(): Promise<CartSummary> {
    if (pending) return pending;
    setReads(1);
    pending = api<CartSummary>('GET', '/api/commerce/shopping-cart')
      .then((cart) => {
        apply(cart, false);
        return cart;
      })
      .finally(() => {
        pending = null;
        setReads(-1);
      });
    return pending;
  },
};
