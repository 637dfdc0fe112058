import type { FastifyInstance } from 'fastify';
import { Visitor } from './app.js';

export const CARD = { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Buyer' };
export const ADDRESS = { name: 'Ada Buyer', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };

let seq = 0;

/**
 * A place-order body with the total the shopper confirmed (place-order requires it, issue 38): the visitor's
 * quote for the same checkout state gives it, as the checkout page does. A body that names its own
 * expectedTotalCents keeps it; when the quote is refused (a test of bad input) the body goes as it is, and
 * place-order answers the same refusal.
 */
export async function confirmed<T extends Record<string, unknown>>(v: Visitor, body: T): Promise<T & { expectedTotalCents?: number }> {
  if ('expectedTotalCents' in body) return body;
  const state: Record<string, unknown> = {};
  for (const k of ['cartToken', 'email', 'shippingAddress', 'selectedShippingOptionId', 'coupons', 'giftCardCode'])
    if (body[k] !== undefined) state[k] = body[k];
  const q = await v.send('POST', '/api/checkout/quote', state);
  if (q.statusCode !== 200) return body;
  return { ...body, expectedTotalCents: q.json().cart.grandTotalCents as number };
}

/** A shopper's order through the real cart and checkout calls (test-mode card); answers the purchase confirmation. */
export async function placeOrder(
  app: FastifyInstance,
  lines: Array<{ itemId: string; sku: string; quantity: number }>,
  opts: { email?: string; address?: Record<string, string> } = {},
): Promise<{ id: string; orderNumber: number; grandTotal: { value: string } }> {
  const v = new Visitor(app);
  for (const l of lines) {
    const r = await v.send('POST', '/api/commerce/shopping-cart/entries', l);
    if (r.statusCode !== 200) throw new Error(`add to cart: ${r.body}`);
  }
  const r = await v.send(
    'POST',
    '/api/checkout/place-order',
    await confirmed(v, {
      email: opts.email ?? 'ada@example.com',
      shippingAddress: opts.address ?? ADDRESS,
      payment: CARD,
      idempotencyKey: `order-desk-${Date.now()}-${++seq}-${Math.random().toString(36).slice(2, 8)}`,
    }),
  );
  if (r.statusCode !== 200) throw new Error(`place order: ${r.body}`);
  return r.json().purchaseConfirmation;
}
