/**
 * Add to cart as a plain form post (no JavaScript). The product page's controls are one real form: the
 * AddToCart island draws `<form method="post" action="/api/commerce/shopping-cart/entries">` with the item
 * id, and the variant selects and the quantity input join it (`form="..."`) with the names `option.<Name>`
 * and `quantity`. The server does what the island does in the browser, with the same core rule
 * (checkAddToCart) and messages, then calls the same CartService.add:
 * - a choice that core refuses answers a page with the island's alert title and message and a link back;
 * - a product with an additional-fields form answers that form, drawn on the server as a plain form post
 *   carrying the chosen sku and quantity; its answers are checked with core's validateForm and the
 *   errors shown next to each field, the answers kept;
 * - a subscription product makes a subscription cart and goes to its checkout;
 * - otherwise 303 to /cart (express checkout: /checkout): POST/redirect/GET.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { checkAddToCart, findVariant, showVariantSelector } from '../../core/product.js';
import { validateForm, type FormField } from '../../core/forms.js';
import { commerce } from '../../core/messages.js';
import { PageType, ProductType } from '../../core/enums.js';
import { rows } from '../db-util.js';
import { HttpError } from '../errors.js';
import { additionalFieldsFormOf, type CartService } from './cart-service.js';
import type { WebsiteService } from '../platform/index.js';
import { cartIdent, setCartCookie } from '../visitor/index.js';
import { renderPlainFieldsForm } from '../../web/ssr.js';
import { sendSitePage } from '../site-page/index.js';
import { productPath, refererPath, safePath, sendNotice } from '../site-page/index.js';

export const ADD_ACTION = '/api/commerce/shopping-cart/entries';

type Body = Record<string, unknown>;
const one = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;

interface VariantRow {
  sku: string;
  attributes: Record<string, string>;
  qtyInStock: number;
  unlimited: boolean;
  priceCents: number;
}
interface ItemRow {
  id: string;
  title: string;
  sc: Record<string, unknown> | string | null;
  variants: VariantRow[] | string | null;
}

async function loadProduct(app: FastifyInstance, itemId: string) {
  const r = await rows<ItemRow>(
    app.database.db,
    sql`select i.id, i.title, i.structured_content as sc,
      (select json_agg(json_build_object('sku', v.sku, 'attributes', v.attributes, 'qtyInStock', v.qty_in_stock, 'unlimited', v.unlimited, 'priceCents', v.price_cents) order by v.ordering, v.sku)
         from product_variants v where v.item_id = i.id) as variants
      from items i where i.id = ${itemId} and i.status = 'published'`,
  );
  const row = r[0];
  if (!row) return null;
  const sc = (typeof row.sc === 'string' ? JSON.parse(row.sc) : (row.sc ?? {})) as Record<string, unknown>;
  const variants = (typeof row.variants === 'string' ? JSON.parse(row.variants) : (row.variants ?? [])) as VariantRow[];
  return { id: row.id, title: row.title, sc: { ...sc, variants } as Record<string, unknown> & { variants: VariantRow[] } };
}

export async function addFromForm(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  deps: { carts: CartService; websites: WebsiteService },
) {
  const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Body;
  const express = one(body.express) === '1';
  const itemId = (one(body.itemId) ?? '').trim().slice(0, 64);
  const product = itemId ? await loadProduct(app, itemId) : null;
  const back = safePath(one(body.back), (product ? await productPath(app, product.id) : null) ?? refererPath(req, '/'));
  const gift = product ? Number(product.sc.productType) === ProductType.GIFT_CARD : false;
  const title = express ? commerce.UNABLE_TO_PURCHASE_ITEM : gift ? commerce.UNABLE_TO_PURCHASE_GIFT_CARD : commerce.UNABLE_TO_ADD_ITEM;
  const refuse = (message: string, status = 400) =>
    sendNotice(app, req, reply, { status, ok: false, title, message, back: { href: back, label: 'Back to the product' } });
  if (!product) return refuse(commerce.VARIANT_UNAVAILABLE, 404);

  // The choice: a sku (single variant, gift card value, or the second step with the fields form), else the options.
  const attrs: Record<string, string> = {};
  for (const [k, v] of Object.entries(body))
    if (k.startsWith('option.') && k.length <= 200) attrs[k.slice(7)] = (one(v) ?? '').slice(0, 200);
  const sku = one(body.sku)?.slice(0, 128);
  const bySku = sku ? product.sc.variants.find((v) => v.sku === sku) : undefined;
  if (bySku) Object.assign(attrs, bySku.attributes);
  const chosen = findVariant(product.sc as never, attrs);
  const site = await deps.websites.get();
  const settings = deps.websites.storeSettings(site) as { multipleQuantityAllowedForServices?: boolean };
  const check = checkAddToCart({
    product: product.sc as never,
    selectedAttributes: attrs,
    quantityText: one(body.quantity) ?? '1',
    giftCardDenomination: gift
      ? (bySku?.sku ?? (showVariantSelector(product.sc as never) ? (chosen?.sku ?? '') : (product.sc.variants[0]?.sku ?? '')))
      : undefined,
    settings: { multipleQuantityAllowedForServices: settings.multipleQuantityAllowedForServices ?? true },
  });
  if (check.message !== null || !check.variant?.sku) return refuse(check.message ?? commerce.VARIANT_UNAVAILABLE);
  const variantSku = check.variant.sku;
  const quantity = check.quantity ?? 1;

  // The product's additional fields: asked on a page of their own, then checked like the island checks them.
  let additionalFields = '';
  const form = additionalFieldsFormOf(product.sc);
  if (form) {
    const values: Record<string, string> = {};
    for (const f of form.fields) {
      const v = one(body[`field.${f.id}`]);
      if (v !== undefined) values[f.id] = v.slice(0, 10_000);
    }
    const asked = one(body.fieldsStep) === '1';
    const errors = asked ? validateForm(form.fields as FormField[], values) : {};
    if (!asked || Object.keys(errors).length > 0) {
      const hidden: Record<string, string> = {
        crumb: req.crumb,
        itemId: product.id,
        sku: variantSku,
        quantity: String(quantity),
        fieldsStep: '1',
        back,
      };
      if (express) hidden.express = '1';
      const html = renderPlainFieldsForm({
        form: form as never,
        scope: `${product.id}-plain`,
        initial: values,
        submitLabel: express ? 'Purchase' : 'Add To Cart',
        plainPost: { action: ADD_ACTION, hidden, errors },
      });
      return sendSitePage(app, req, reply, {
        template: 'system/product-fields.html',
        pageType: PageType.PAGE,
        status: asked ? 400 : 200,
        title: form.name || product.title,
        ctx: { fields: { title: form.name || product.title, product: product.title, html, back } },
      });
    }
    additionalFields = JSON.stringify(values);
  }

  const ident = cartIdent(req);
  try {
    if (product.sc.isSubscribable === true && Number(product.sc.productType) !== ProductType.GIFT_CARD) {
      const { cartToken } = await deps.carts.createSubscription(
        site.id,
        ident,
        { itemId: product.id, sku: variantSku, quantity, additionalFields },
        site.currency,
      );
      return reply.redirect(`/checkout/subscription?cartToken=${encodeURIComponent(cartToken)}`, 303);
    }
    const res = await deps.carts.add(site.id, ident, { itemId: product.id, sku: variantSku, quantity, additionalFields }, site.currency);
    if (res.token && res.token !== ident.token) setCartCookie(req, reply, res.token);
  } catch (e) {
    if (e instanceof HttpError && e.status < 500 && e.status !== 429) return refuse(e.message, e.status);
    throw e;
  }
  return reply.redirect(express ? '/checkout' : '/cart', 303);
}
