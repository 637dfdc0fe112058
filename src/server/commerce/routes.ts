import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CartService } from './cart-service.js';
import type { WebsiteService } from '../platform/websites.js';
import { isSecure } from '../plugins/crumb.js';
import { badRequest } from '../errors.js';

export const CART_COOKIE = 'tessera_cart';
const CART_DAYS = 30;

const quantity = z.preprocess(
  (v) => v,
  z
    .number({ error: 'Quantity must be a number.' })
    .refine((n) => Number.isInteger(n), 'Quantity must be a whole number.')
    .refine((n) => n >= 1 && n <= 9999, 'Quantity must be between 1 and 9999.'),
);

const addBody = z.object({
  itemId: z.string({ error: 'itemId is required.' }).min(1, 'itemId is required.').max(64),
  sku: z.string({ error: 'sku is required.' }).min(1, 'sku is required.').max(128),
  quantity: quantity.default(1),
  additionalFields: z.union([z.string().max(32_000), z.null()]).optional(),
});

function normaliseFields(v: string | null | undefined): string {
  if (v === undefined || v === null || v === '' || v === 'null') return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    throw badRequest('additionalFields must be JSON text.');
  }
  return JSON.stringify(parsed);
}

export function setCartCookie(req: FastifyRequest, reply: FastifyReply, token: string) {
  reply.setCookie(CART_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(req), maxAge: CART_DAYS * 86400 });
}

export async function commerceRoutes(app: FastifyInstance, opts: { carts: CartService; websites: WebsiteService }) {
  const { carts, websites } = opts;

  app.get('/api/commerce/shopping-cart', async (req) => {
    const site = await websites.get();
    const cart = await carts.findByToken(req.cookies[CART_COOKIE]);
    return carts.read(cart, site.currency);
  });

  app.post('/api/commerce/shopping-cart/entries', { bodyLimit: 64 * 1024 }, async (req, reply) => {
    const body = addBody.parse(req.body ?? {});
    const site = await websites.get();
    const token = req.cookies[CART_COOKIE];
    const res = await carts.add(site.id, token, { itemId: body.itemId, sku: body.sku, quantity: body.quantity, additionalFields: normaliseFields(body.additionalFields) }, site.currency);
    if (res.token !== token) setCartCookie(req, reply, res.token);
    return { shoppingCart: res.cart, newlyAdded: res.newlyAdded };
  });
}
