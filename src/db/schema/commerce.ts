import { pgTable, text, integer, bigint, timestamp, jsonb, boolean, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { websites } from './platform.js';
import { items } from './content.js';

/** Product variants. Prices are integer minor units of the store currency. */
export const productVariants = pgTable(
  'product_variants',
  {
    id: text('id').primaryKey(),
    itemId: text('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    sku: text('sku').notNull(),
    attributes: jsonb('attributes').$type<Record<string, string>>().notNull().default({}),
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    salePriceCents: bigint('sale_price_cents', { mode: 'number' }).notNull().default(0),
    onSale: boolean('on_sale').notNull().default(false),
    qtyInStock: integer('qty_in_stock').notNull().default(0),
    unlimited: boolean('unlimited').notNull().default(false),
    weightGrams: integer('weight_grams').notNull().default(0),
    /** Parcel dimensions as the owner gave them (null: none). */
    dimensions: jsonb('dimensions').$type<{ unit: 'cm' | 'in'; length: number; width: number; height: number }>(),
    ordering: integer('ordering').notNull().default(0),
    /** The variant's own image (one of the product's image URLs); '' shows the product's first image. */
    imageUrl: text('image_url').notNull().default(''),
    /** The inventory screen flags the variant when its stock is at or under this (0: never). */
    lowStockThreshold: integer('low_stock_threshold').notNull().default(0),
  },
  (t) => [uniqueIndex('product_variants_sku_uq').on(t.itemId, t.sku), index('product_variants_item_idx').on(t.itemId)],
);

export const carts = pgTable(
  'carts',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    /** Hash of the cart cookie token; the id itself is not a bearer secret. */
    tokenHash: text('token_hash').notNull(),
    siteUserId: text('site_user_id'),
    orderId: text('order_id'),
    isPurchased: boolean('is_purchased').notNull().default(false),
    subtotalCents: bigint('subtotal_cents', { mode: 'number' }).notNull().default(0),
    taxCents: bigint('tax_cents', { mode: 'number' }).notNull().default(0),
    shippingCostCents: bigint('shipping_cost_cents', { mode: 'number' }).notNull().default(0),
    discountCents: bigint('discount_cents', { mode: 'number' }).notNull().default(0),
    grandTotalCents: bigint('grand_total_cents', { mode: 'number' }).notNull().default(0),
    totalQuantity: integer('total_quantity').notNull().default(0),
    hasDigital: boolean('has_digital').notNull().default(false),
    purelyDigital: boolean('purely_digital').notNull().default(false),
    requiresShipping: boolean('requires_shipping').notNull().default(false),
    /** Checkout state: shippingLocation, selectedShippingOption, coupons, ... */
    checkout: jsonb('checkout').$type<Record<string, unknown>>().notNull().default({}),
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updated: timestamp('updated', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('carts_token_uq').on(t.tokenHash), index('carts_site_user_idx').on(t.siteUserId)],
);

export const cartEntries = pgTable(
  'cart_entries',
  {
    id: text('id').primaryKey(),
    cartId: text('cart_id')
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
    itemId: text('item_id').notNull(),
    sku: text('sku').notNull(),
    quantity: integer('quantity').notNull(),
    /** The additional-fields form answers, as the JSON text the visitor sent ('' when none). */
    additionalFields: text('additional_fields').notNull().default(''),
    purchasePriceCents: bigint('purchase_price_cents', { mode: 'number' }).notNull(),
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('cart_entries_cart_idx').on(t.cartId, t.itemId, t.sku)],
);

/**
 * A single-item cart for a subscription purchase (POST /api/3/commerce/cart/subscription), kept apart
 * from the visitor's shopping cart. The subscription checkout finds it by the cartToken it answered.
 */
export const subscriptionCarts = pgTable(
  'subscription_carts',
  {
    id: text('id').primaryKey(),
    websiteId: text('website_id')
      .notNull()
      .references(() => websites.id),
    /** Hash of the cartToken handed to the visitor. */
    tokenHash: text('token_hash').notNull(),
    siteUserId: text('site_user_id'),
    itemId: text('item_id').notNull(),
    sku: text('sku').notNull(),
    quantity: integer('quantity').notNull(),
    additionalFields: text('additional_fields').notNull().default(''),
    purchasePriceCents: bigint('purchase_price_cents', { mode: 'number' }).notNull(),
    isPurchased: boolean('is_purchased').notNull().default(false),
    created: timestamp('created', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('subscription_carts_token_uq').on(t.tokenHash)],
);
