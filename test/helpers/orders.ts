import type { FastifyInstance } from 'fastify';
import { Visitor } from './app.js';

export const CARD = { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Buyer' };
export const ADDRESS = { name: 'Ada Buyer', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };

let seq = 0;

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
  const r = await v.send('POST', '/api/checkout/place-order', {
    email: opts.email ?? 'ada@example.com',
    shippingAddress: opts.address ?? ADDRESS,
    payment: CARD,
    idempotencyKey: `order-desk-${Date.now()}-${++seq}-${Math.random().toString(36).slice(2, 8)}`,
  });
  if (r.statusCode !== 200) throw new Error(`place order: ${r.body}`);
  return r.json().purchaseConfirmation;
}
