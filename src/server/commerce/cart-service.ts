import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { hashToken, newId, newToken } from '../../db/ids.js';
import { loadProducts, productType, unitPrice, type ProductRecord } from './products.js';
import { HttpError } from '../errors.js';

const { carts, cartEntries } = schema;
export type CartRow = typeof carts.$inferSelect;
export type EntryRow = typeof cartEntries.$inferSelect;

export interface AddInput {
  itemId: string;
  sku: string;
  quantity: number;
  additionalFields: string;
}

/** The shopping cart as the API answers it (storefront.md section 3). */
export function cartJson(cart: CartRow | null, entries: EntryRow[], products: Map<string, ProductRecord>, currency: string) {
  return {
    id: cart?.id ?? null,
    websiteId: cart?.websiteId ?? null,
    orderId: cart?.orderId ?? null,
    created: cart?.created.getTime() ?? null,
    isPurchased: cart?.isPurchased ?? false,
    entries: entries.map((e) => entryJson(e, products.get(e.itemId), currency)),
    shippingOptions: [],
    selectedShippingOption: null,
    shippingLocation: null,
    applicableTaxRules: [],
    coupons: [],
    validCoupons: [],
    invalidCoupons: [],
    subtotalCents: cart?.subtotalCents ?? 0,
    taxCents: cart?.taxCents ?? 0,
    shippingCostCents: cart?.shippingCostCents ?? 0,
    discountCents: cart?.discountCents ?? 0,
    grandTotalCents: cart?.grandTotalCents ?? 0,
    totalQuantity: cart?.totalQuantity ?? 0,
    hasDigital: cart?.hasDigital ?? false,
    purelyDigital: cart?.purelyDigital ?? false,
    requiresShipping: cart?.requiresShipping ?? false,
    subtotal: { currency, value: String(cart?.subtotalCents ?? 0) },
  };
}

export type CartJson = ReturnType<typeof cartJson>;

function entryJson(e: EntryRow, p: ProductRecord | undefined, currency: string) {
  const variant = p?.variants.find((v) => v.sku === e.sku);
  return {
    id: e.id,
    itemId: e.itemId,
    chosenVariant: { sku: e.sku, attributes: variant?.attributes ?? {} },
    quantity: e.quantity,
    title: p?.item.title ?? '',
    purchasePriceCents: e.purchasePriceCents,
    subTotal: { currency, value: String(e.purchasePriceCents * e.quantity) },
    subTotalCents: e.purchasePriceCents * e.quantity,
    additionalFields: e.additionalFields,
    productType: p ? productType(p.item) : 1,
    urlId: p?.item.urlId ?? '',
    image: (p?.item.assets[0] as Record<string, unknown> | undefined) ?? null,
  };
}

/** Totals of a cart from its entries. */
function totals(entries: EntryRow[], products: Map<string, ProductRecord>) {
  let subtotalCents = 0;
  let totalQuantity = 0;
  let digital = 0;
  let shippable = 0;
  for (const e of entries) {
    subtotalCents += e.purchasePriceCents * e.quantity;
    totalQuantity += e.quantity;
    const t = products.get(e.itemId) ? productType(products.get(e.itemId)!.item) : 1;
    if (t === 2) digital++;
    if (t === 1) shippable++;
  }
  return {
    subtotalCents,
    totalQuantity,
    hasDigital: digital > 0,
    purelyDigital: entries.length > 0 && digital === entries.length,
    requiresShipping: shippable > 0,
  };
}

export class CartService {
  constructor(private readonly database: Database) {}

  /** Finds the visitor's cart by its cookie token. */
  async findByToken(token: string | undefined): Promise<CartRow | null> {
    if (!token || token.length > 100) return null;
    const rows = await this.database.db.select().from(carts).where(eq(carts.tokenHash, hashToken(token))).limit(1);
    const cart = rows[0];
    return cart && !cart.isPurchased ? cart : null;
  }

  async read(cart: CartRow | null, currency: string): Promise<CartJson> {
    if (!cart) return cartJson(null, [], new Map(), currency);
    const entries = await this.database.db.select().from(cartEntries).where(eq(cartEntries.cartId, cart.id)).orderBy(asc(cartEntries.created), asc(cartEntries.id));
    const products = await loadProducts(this.database.db, [...new Set(entries.map((e) => e.itemId))]);
    return cartJson(cart, entries, products, currency);
  }

  /**
   * Adds a variant to the visitor's cart in one transaction with the cart row locked, creating the cart
   * (and its cookie token) on the first add.
   */
  async add(
    websiteId: string,
    token: string | undefined,
    input: AddInput,
    currency: string,
  ): Promise<{ token: string; cart: CartJson; newlyAdded: ReturnType<typeof entryJson> }> {
    return this.database.db.transaction(async (tx) => {
      const product = (await loadProducts(tx, [input.itemId])).get(input.itemId);
      if (!product || product.item.recordType !== 11) throw new HttpError(404, 'This product is no longer available.');
      const variant = product.variants.find((v) => v.sku === input.sku);
      if (!variant) throw new HttpError(400, 'Sorry, that item variant is unavailable. Please select another variant.');

      let cart = token ? await this.lockByToken(tx, token) : null;
      let cartToken = token;
      if (!cart) {
        cartToken = newToken();
        const inserted = await tx.insert(carts).values({ id: newId(), websiteId, tokenHash: hashToken(cartToken) }).returning();
        cart = inserted[0]!;
      }
      const entries = await tx.select().from(cartEntries).where(eq(cartEntries.cartId, cart.id)).orderBy(asc(cartEntries.created), asc(cartEntries.id));
      const inCart = entries.filter((e) => e.itemId === input.itemId && e.sku === input.sku).reduce((n, e) => n + e.quantity, 0);
      const t = productType(product.item);
      const tracked = t === 1 || t === 3;
      if (tracked && !variant.unlimited && variant.qtyInStock < inCart + input.quantity) {
        throw new HttpError(400, 'Sorry, we do not have enough of that item available.');
      }
      const same = entries.find((e) => e.itemId === input.itemId && e.sku === input.sku && e.additionalFields === input.additionalFields);
      let entry: EntryRow;
      if (same) {
        const updated = await tx
          .update(cartEntries)
          .set({ quantity: sql`${cartEntries.quantity} + ${input.quantity}` })
          .where(eq(cartEntries.id, same.id))
          .returning();
        entry = updated[0]!;
        entries[entries.indexOf(same)] = entry;
      } else {
        const inserted = await tx
          .insert(cartEntries)
          .values({ id: newId(), cartId: cart.id, itemId: input.itemId, sku: input.sku, quantity: input.quantity, additionalFields: input.additionalFields, purchasePriceCents: unitPrice(variant) })
          .returning();
        entry = inserted[0]!;
        entries.push(entry);
      }
      const products = await loadProducts(tx, [...new Set(entries.map((e) => e.itemId))]);
      const sums = totals(entries, products);
      const grandTotalCents = Math.max(0, sums.subtotalCents - cart.discountCents + cart.shippingCostCents + cart.taxCents);
      const saved = await tx
        .update(carts)
        .set({ ...sums, grandTotalCents, updated: new Date() })
        .where(eq(carts.id, cart.id))
        .returning();
      return { token: cartToken!, cart: cartJson(saved[0]!, entries, products, currency), newlyAdded: entryJson(entry, products.get(entry.itemId), currency) };
    });
  }

  private async lockByToken(tx: Tx, token: string): Promise<CartRow | null> {
    const rows = await tx
      .select()
      .from(carts)
      .where(and(eq(carts.tokenHash, hashToken(token)), eq(carts.isPurchased, false)))
      .for('update')
      .limit(1);
    return rows[0] ?? null;
  }
}
