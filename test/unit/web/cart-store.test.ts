import { afterEach, describe, expect, it, vi } from 'vitest';
import { cartStore } from '../../../src/web/client/cart-store.js';

describe('cart store loading flag', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('tells a listener that joins during a read that the cart is loading, then when it is done', async () => {
    let answer!: (r: Response) => void;
    vi.stubGlobal('fetch', () => new Promise<Response>((r) => (answer = r)));
    const read = cartStore.refresh();
    // An island hydrating after the read began (the cart page after the pill) still sees it.
    const seen: boolean[] = [];
    const off = cartStore.onLoading((v) => seen.push(v));
    expect(seen).toEqual([true]);
    answer(new Response(JSON.stringify({ totalQuantity: 2 }), { status: 200, headers: { 'content-type': 'application/json' } }));
    await read;
    expect(seen).toEqual([true, false]);
    expect(cartStore.get()?.totalQuantity).toBe(2);
    off();
  });

  it('tells a listener that joins when nothing is being read that the cart is not loading', () => {
    const seen: boolean[] = [];
    cartStore.onLoading((v) => seen.push(v))();
    expect(seen).toEqual([false]);
  });
});
