/**
 * The two cart hand-offs of the site-user session, kept apart from the commerce cart service (which owns
 * every other cart write): on sign-in, the visitor's anonymous cart becomes the user's cart (so one cart
 * follows the user across devices); on sign-out with cloneCart, the signed-out visitor keeps a copy.
 * The commerce service finds a signed-in user's cart by site_user_id (see CartIdent.siteUserId).
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/index.js';
import { hashToken, newId, newToken } from '../../db/ids.js';
import { rows } from '../db-util.js';

/**
 * On sign-in: when the user has no open cart, the anonymous cart of `cartToken` (if any) is re-pointed to
 * the user under a new token, answered for the browser's new cart cookie (sign-out detaches it again, see
 * detachUserCart). The old token then reaches nothing: a cart cookie planted in the browser before the
 * sign-in (its value known to whoever planted it) never opens the signed-in user's cart, where their
 * checkout details go (cart fixation, as session fixation for the session cookie). When the user already
 * has a cart, the anonymous one stays the visitor's and null is answered.
 */
export async function adoptVisitorCart(tx: Tx, cartToken: string | undefined, siteUserId: string): Promise<string | null> {
  if (!cartToken || cartToken.length > 100) return null;
  const own = await rows<{ id: string }>(
    tx,
    sql`select id from carts where site_user_id = ${siteUserId} and is_purchased = false limit 1 for update`,
  );
  if (own[0]) return null;
  const token = newToken();
  const moved = await rows<{ id: string }>(
    tx,
    sql`update carts set site_user_id = ${siteUserId}, token_hash = ${hashToken(token)}, updated = now()
        where token_hash = ${hashToken(cartToken)} and is_purchased = false and site_user_id is null returning id`,
  );
  return moved.length > 0 ? token : null;
}

/**
 * On sign-out with cloneCart: a copy of the user's open cart (row and entries) under a new cookie token,
 * owned by nobody. Answers the new token, or null when the user has no open cart with entries.
 */
export async function cloneUserCart(tx: Tx, siteUserId: string): Promise<string | null> {
  const src = await rows<{ id: string }>(
    tx,
    sql`select id from carts where site_user_id = ${siteUserId} and is_purchased = false and total_quantity > 0 order by created desc limit 1 for update`,
  );
  if (!src[0]) return null;
  const token = newToken();
  const id = newId();
  await tx.execute(sql`
    insert into carts (id, website_id, token_hash, site_user_id, order_id, is_purchased, subtotal_cents, tax_cents, shipping_cost_cents,
      discount_cents, grand_total_cents, total_quantity, has_digital, purely_digital, requires_shipping, checkout, created, updated)
    select ${id}, website_id, ${hashToken(token)}, null, null, false, subtotal_cents, tax_cents, shipping_cost_cents,
      discount_cents, grand_total_cents, total_quantity, has_digital, purely_digital, requires_shipping, checkout, now(), now()
    from carts where id = ${src[0].id}`);
  const entries = await rows<{ id: string }>(tx, sql`select id from cart_entries where cart_id = ${src[0].id} order by created`);
  for (const e of entries) {
    await tx.execute(sql`
      insert into cart_entries (id, cart_id, item_id, sku, quantity, additional_fields, purchase_price_cents, created)
      select ${newId()}, ${id}, item_id, sku, quantity, additional_fields, purchase_price_cents, created
      from cart_entries where id = ${e.id}`);
  }
  return token;
}

/** On sign-out: the user's open cart gets an unguessable token hash, so no cookie of a signed-out device reaches it. */
export async function detachUserCart(tx: Tx, siteUserId: string): Promise<void> {
  await tx.execute(sql`update carts set token_hash = ${hashToken(newToken())} where site_user_id = ${siteUserId} and is_purchased = false`);
}
