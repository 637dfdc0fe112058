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

/** The frozen starting state with these options chosen (INITIAL for none), one object per choice. */
const starts = new Map<string, ProductChoice>();
function startOf(initial: Record<string, string> | undefined): ProductChoice {
  if (!initial || Object.keys(initial).length === 0) return INITIAL;
  const key = JSON.stringify(initial);
  let start = starts.get(key);
  if (!start) {
    start = Object.freeze({ ...INITIAL, attributes: Object.freeze({ ...initial }) });
    if (starts.size < 100) starts.set(key, start);
  }
  return start;
}

/**
 * The visitor's choices on one product. `initial` is what the page opened with (a variant's address):
 * the server renders with it, and in the browser the first island of the product seeds the scope with
 * it, so the other islands and every later change start from it.
 */
export function useProductChoice(scope: string, initial?: Record<string, string>): ProductChoice {
  const start = startOf(initial);
  if (start !== INITIAL && typeof window !== 'undefined' && !states.has(scope)) states.set(scope, start);
  return useSyncExternalStore(
    (l) => productStore.subscribe(scope, l),
    () => states.get(scope) ?? start,
    () => start,
  );
}
