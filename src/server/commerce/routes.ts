/**
 * The cart, inventory and subscription calls. Input is checked at the edge
 * (zod and core's quantity rule); the CartService owns the transactions. Every write needs the crumb
 * (global plugin) and is rate limited per visitor.
 */
import {
  cartAddIn,
  cartEntryParams,
  cartFieldsIn,
  cartItemId,
  cartQuantityIn,
  cartQuery,
  cartSubscriptionIn,
} from '../../core/api/cart.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CartService } from './cart-service.js';
import type { WebsiteService } from '../platform/index.js';
import { CRUMB_COOKIE } from '../../core/cookies.js';
import { HttpError, badRequest } from '../errors.js';
import { parseQuantity } from '../../core/product.js';
import { QUANTITY_MAX } from '../../core/constants.js';
import { commerce } from '../../core/messages.js';
import { subscriptionPageHtml } from './subscription-page.js';
import { siteStylesHead } from '../site-page/index.js';
import { addFromForm } from './cart-form.js';
import { cartIdent, setCartCookie } from '../visitor/index.js';
import { CART_COOKIE } from '../../core/cookies.js';

/** The largest body a cart write takes (the additional-fields answers are the only large part). */
export const CART_BODY_LIMIT = 64 * 1024;

/** Quantity: a whole number 1-9999, as a JSON number or numeric text (form posts), with core's messages. */
export function quantityOf(raw: unknown, fallback = 1): number {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'number' && typeof raw !== 'string')
    throw badRequest(commerce.QUANTITY_NOT_A_NUMBER, { quantity: commerce.QUANTITY_NOT_A_NUMBER });
  const q = parseQuantity(raw);
  if (!q.ok) throw badRequest(q.message, { quantity: q.message });
  if (q.quantity > QUANTITY_MAX) throw badRequest(commerce.NOT_ENOUGH_STOCK, { quantity: `Quantity must be ${QUANTITY_MAX} or less.` });
  return q.quantity;
}

/** additionalFields: JSON text (or nothing); answers are kept as canonical JSON text, '' when none. */
export function additionalFieldsOf(v: unknown): string {
  if (v === undefined || v === null || v === '') return '';
  if (typeof v !== 'string')
    throw badRequest('additionalFields must be JSON text.', { additionalFields: 'additionalFields must be JSON text.' });
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    throw badRequest('additionalFields must be JSON text.', { additionalFields: 'additionalFields must be JSON text.' });
  }
  if (parsed === null) return '';
  if (typeof parsed === 'object' && !Array.isArray(parsed) && Object.keys(parsed as object).length === 0) return '';
  return JSON.stringify(parsed);
}

const itemId = cartItemId;
const entryParams = cartEntryParams;
const addBody = cartAddIn;
const quantityBody = cartQuantityIn;
const fieldsBody = cartFieldsIn;
const subscriptionBody = cartSubscriptionIn;
const on = (v: string | undefined) => v === 'true' || v === '1';

const isForm = (req: FastifyRequest) => String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');

export async function commerceRoutes(app: FastifyInstance, opts: { carts: CartService; websites: WebsiteService }) {
  const { carts, websites } = opts;

  /**
   * Cart writes per visitor (crumb cookie, else cart cookie, else IP), and a wider ceiling per IP so a client
   * that changes its crumb gets no fresh allowance (many visitors may share one address): 429
   * 'Please try again in a few seconds.'
   */
  const limit = async (req: FastifyRequest) => {
    const { max, windowMs } = carts.writeLimit;
    if (max <= 0) return;
    const visitor = req.cookies[CRUMB_COOKIE] ?? req.cookies[CART_COOKIE] ?? req.ip;
    await app.services.rateLimiter.checkAll([
      { rule: { name: 'cart-write', max, windowMs, message: commerce.RATE_LIMITED }, key: visitor },
      { rule: { name: 'cart-write-ip', max: max * carts.ipLimitFactor, windowMs, message: commerce.RATE_LIMITED }, key: req.ip },
    ]);
  };
  const write = { bodyLimit: CART_BODY_LIMIT, preHandler: limit };

  app.get('/api/commerce/shopping-cart', async (req, reply) => {
    const q = cartQuery.parse(req.query ?? {});
    const site = await websites.get();
    const cart = await carts.find(cartIdent(req));
    reply.header('cache-control', 'no-store');
    if (!cart && q.mock !== undefined && !on(q.mock)) throw new HttpError(404, 'There is no shopping cart.');
    return carts.read(cart, site.currency, { calculateSubtotal: on(q.calculateSubtotal) });
  });

  app.post('/api/commerce/shopping-cart/entries', write, async (req, reply) => {
    // A plain form post (no JavaScript): the same rules and service, answered with a redirect or a page.
    if (isForm(req)) return addFromForm(app, req, reply, { carts, websites });
    const body = addBody.parse(req.body ?? {});
    const quantity = quantityOf(body.quantity);
    const additionalFields = additionalFieldsOf(body.additionalFields);
    const site = await websites.get();
    const ident = cartIdent(req);
    const multipleServices = websites.storeSettings(site).multipleQuantityAllowedForServices;
    const res = await carts.add(
      site.id,
      ident,
      { itemId: body.itemId, sku: body.sku, quantity, additionalFields, multipleServices },
      site.currency,
    );
    if (res.token && res.token !== ident.token) setCartCookie(req, reply, res.token);
    return { shoppingCart: res.cart, newlyAdded: res.newlyAdded };
  });

  const updateQuantity = async (req: FastifyRequest) => {
    const { entryId } = entryParams.parse(req.params);
    const body = quantityBody.parse(req.body ?? {});
    if (body.quantity === undefined) throw badRequest(commerce.QUANTITY_NOT_A_NUMBER, { quantity: commerce.QUANTITY_NOT_A_NUMBER });
    const quantity = quantityOf(body.quantity);
    const site = await websites.get();
    return carts.updateQuantity(cartIdent(req), entryId, quantity, site.currency, {
      multipleServices: websites.storeSettings(site).multipleQuantityAllowedForServices,
    });
  };
  const remove = async (req: FastifyRequest) => {
    const { entryId } = entryParams.parse(req.params);
    const site = await websites.get();
    return carts.remove(cartIdent(req), entryId, site.currency);
  };

  app.put('/api/commerce/shopping-cart/entries/:entryId', write, async (req) => {
    const r = await updateQuantity(req);
    return { shoppingCart: r.cart, updatedEntry: r.updatedEntry };
  });

  app.delete('/api/commerce/shopping-cart/entries/:entryId', write, async (req) => {
    const r = await remove(req);
    return { shoppingCart: r.cart, removedEntry: r.removedEntry };
  });

  // Form-encoded fallbacks of the cart page without JavaScript: change and redirect back to /cart.
  app.post('/api/commerce/shopping-cart/entries/:entryId/quantity', write, async (req, reply) => {
    await updateQuantity(req);
    return reply.redirect('/cart', 303);
  });
  app.post('/api/commerce/shopping-cart/entries/:entryId/remove', write, async (req, reply) => {
    await remove(req);
    return reply.redirect('/cart', 303);
  });

  app.put('/api/commerce/shopping-cart/entries/:entryId/additionalFields', write, async (req) => {
    const { entryId } = entryParams.parse(req.params);
    const body = fieldsBody.parse(req.body ?? {});
    const additionalFields = additionalFieldsOf(body.additionalFields);
    const site = await websites.get();
    const r = await carts.updateAdditionalFields(
      cartIdent(req),
      entryId,
      { itemId: body.itemId, sku: body.sku, additionalFields },
      site.currency,
    );
    return { shoppingCart: r.cart, updatedEntry: r.updatedEntry };
  });

  const stock = async (req: FastifyRequest, reply: FastifyReply) => {
    const q = z.object({ itemId }).parse(req.query ?? {});
    reply.header('cache-control', 'no-store');
    return { itemId: q.itemId, results: await carts.stock(q.itemId) };
  };
  app.get('/api/commerce/inventory/stock/', stock);
  app.get('/api/commerce/inventory/stock', stock);

  app.post('/api/3/commerce/cart/subscription', write, async (req) => {
    const body = subscriptionBody.parse(req.body ?? {});
    const quantity = quantityOf(body.qty);
    const additionalFields = additionalFieldsOf(body.additionalFields);
    const site = await websites.get();
    const multipleServices = websites.storeSettings(site).multipleQuantityAllowedForServices;
    return carts.createSubscription(
      site.id,
      cartIdent(req),
      { itemId: body.itemId, sku: body.sku, quantity, additionalFields, multipleServices },
      site.currency,
    );
  });

  /** The subscription checkout (the checkout area completes it): the item and its subscription price text. */
  app.get('/checkout/subscription', async (req, reply) => {
    const q = z.object({ cartToken: z.string().max(100).optional() }).parse(req.query ?? {});
    const site = await websites.get();
    const sub = q.cartToken ? await carts.findSubscription(q.cartToken) : null;
    reply.header('cache-control', 'no-store');
    return reply
      .status(sub ? 200 : 404)
      .type('text/html; charset=utf-8')
      .send(
        subscriptionPageHtml(
          site.title,
          site.currency,
          sub,
          sub && q.cartToken ? `/checkout?cartToken=${encodeURIComponent(q.cartToken)}` : undefined,
          await siteStylesHead(app, site.id),
        ),
      );
  });
}
