import { useEffect, useState } from 'react';
import { cartStore, type CartSummary } from '../client/cart-store.js';
import { cartSpokenLabel, cartPillText, cartPillVisible } from '../../core/cart.js';

export interface CartPillProps {
  totalQuantity: number;
  /** The server saw a cart for this visitor (cart cookie or a signed-in site user's cart): the pill reads it. */
  hasCart?: boolean;
}

/**
 * The floating cart pill: hidden at 0, the count (or 100+) above, linking to /cart.
 *
 * Its spoken label always names the count it shows ('One item in cart', 'N items in
 * cart', 'More than 100 items in cart'), from the server's render on, so a page without JavaScript (and a
 * shared page the page cache gives a shopper their own pill in) says what it shows.
 * Its state is carried as attributes a theme's CSS can target: `data-uninitialized`
 * until the first sync, then `data-initialized`; `data-empty` while the cart
 * holds nothing; `data-loading` (and aria-busy) while the cart is read. The first sync reads the cart when
 * the visitor has one (the cart loads for signed-in users or when a cart cookie is set),
 * otherwise it is immediate; a page restored from the back/forward cache reads it again.
 */
export function CartPill(props: CartPillProps) {
  const [qty, setQty] = useState(props.totalQuantity);
  const [initialized, setInitialized] = useState(false);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    const offCart = cartStore.subscribe((c: CartSummary) => {
      setQty(c.totalQuantity);
      setInitialized(true);
    });
    const offLoading = cartStore.onLoading(setLoading);
    const read = () =>
      cartStore.refresh().catch((err: unknown) => {
        console.warn('tessera: cart read failed', err);
      });
    if (props.hasCart) void read().finally(() => setInitialized(true));
    else setInitialized(true);
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) void read();
    };
    window.addEventListener('pageshow', onShow);
    return () => {
      offCart();
      offLoading();
      window.removeEventListener('pageshow', onShow);
    };
  }, [props.hasCart]);
  const visible = cartPillVisible(qty);
  return (
    <a
      href="/cart"
      className={`cart-pill${visible ? '' : ' cart-pill--empty'}`}
      hidden={!visible}
      aria-label={cartSpokenLabel(qty)}
      aria-busy={loading ? true : undefined}
      data-uninitialized={initialized ? undefined : ''}
      data-initialized={initialized ? '' : undefined}
      data-empty={visible ? undefined : ''}
      data-loading={loading ? '' : undefined}
      data-test="cart-pill"
    >
      <svg className="cart-pill__icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        <path
          d="M7 18a2 2 0 1 0 0 4 2 2 0 0 0 0-4Zm10 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4ZM5.2 4l.6 3H21l-2 8H7.4L4.4 2H1v2h2.8l3 12.5A2 2 0 0 0 8.7 18H19v-2H8.8l-.4-1.9"
          fill="currentColor"
        />
      </svg>
      <span className="cart-pill__count" aria-hidden="true">
        {cartPillText(qty)}
      </span>
    </a>
  );
}
