import { useEffect, useState } from 'react';
import { cartStore, type CartSummary } from '../client/cart-store.js';
import { cartSpokenLabel, cartPillText, cartPillVisible } from '../../core/cart.js';

export interface CartPillProps {
  totalQuantity: number;
}

/** The floating cart pill: hidden at 0, the count (or 100+) above, linking to /cart. */
export function CartPill(props: CartPillProps) {
  const [qty, setQty] = useState(props.totalQuantity);
  useEffect(() => cartStore.subscribe((c: CartSummary) => setQty(c.totalQuantity)), []);
  const visible = cartPillVisible(qty);
  return (
    <a
      href="/cart"
      className={`cart-pill${visible ? '' : ' cart-pill--empty'}`}
      hidden={!visible}
      aria-label={cartSpokenLabel(qty)}
      data-test="cart-pill"
    >
      <svg className="cart-pill__icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        <path d="M7 18a2 2 0 1 0 0 4 2 2 0 0 0 0-4Zm10 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4ZM5.2 4l.6 3H21l-2 8H7.4L4.4 2H1v2h2.8l3 12.5A2 2 0 0 0 8.7 18H19v-2H8.8l-.4-1.9" fill="currentColor" />
      </svg>
      <span className="cart-pill__count" aria-hidden="true">{cartPillText(qty)}</span>
    </a>
  );
}
