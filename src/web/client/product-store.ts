/**
 * The visitor's choices on one product (selected options, quantity text, the last add-to-cart error),
 * shared by the islands of that product: the variant selector, the quantity input, the add button, the
 * scarcity text and the price. A product page and a quick view of the same product use different scopes.
 * Server render and hydration both see the initial state, so the first client render matches the HTML.
 */
import { useSyncExternalStore } from 'react';

export interface AlertState {
  title: string;
  message: string;
  /** The control the message is about ('quantity': the quantity input is marked invalid and described by it). */
  field?: 'quantity';
}

export interface ProductChoice {
  attributes: Record<string, string>;
  quantityText: string;
  error: AlertState | null;
}

const INITIAL: ProductChoice = Object.freeze({ attributes: Object.freeze({}) as Record<string, string>, quantityText: '1', error: null });

type Listener = () => void;
const states = new Map<string, ProductChoice>();
const listeners = new Map<string, Set<Listener>>();

export const productStore = {
  get(scope: string): ProductChoice {
    return states.get(scope) ?? INITIAL;
  },
  update(scope: string, patch: Partial<ProductChoice>) {
    states.set(scope, { ...productStore.get(scope), ...patch });
    for (const l of listeners.get(scope) ?? []) l();
  },
  select(scope: string, option: string, value: string) {
    const attributes = { ...productStore.get(scope).attributes };
    if (value === '') delete attributes[option];
    else attributes[option] = value;
    productStore.update(scope, { attributes, error: null });
  },
  subscribe(scope: string, l: Listener): () => void {
    let set = listeners.get(scope);
    if (!set) listeners.set(scope, (set = new Set()));
    set.add(l);
    return () => set!.delete(l);
  },
  /** Forgets every scope (tests). */
  reset() {
    states.clear();
  },
};

export function useProductChoice(scope: string): ProductChoice {
  return useSyncExternalStore(
    (l) => productStore.subscribe(scope, l),
    () => productStore.get(scope),
    () => INITIAL,
  );
}
