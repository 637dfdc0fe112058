/**
 * One cart state per page, shared by every island that shows the cart (pill, cart page, add buttons),
 * and kept in step across the visitor's open tabs through a BroadcastChannel.
 */
import { api } from './api.js';

export interface CartSummary {
  id?: string;
  totalQuantity: number;
  [key: string]: unknown;
}

type Listener = (cart: CartSummary) => void;
const listeners = new Set<Listener>();
let current: CartSummary | null = null;
let channel: BroadcastChannel | null = null;

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

export const cartStore = {
  get: () => current,
  /** Called with the cart an API call returned. */
  set: (cart: CartSummary) => apply(cart, true),
  subscribe(l: Listener): () => void {
    getChannel();
    listeners.add(l);
    return () => listeners.delete(l);
  },
  async refresh(): Promise<CartSummary> {
    const cart = await api<CartSummary>('GET', '/api/commerce/shopping-cart');
    apply(cart, false);
    return cart;
  },
};
