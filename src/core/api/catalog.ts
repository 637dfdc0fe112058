/**
 * The catalogue's wire shapes: the product editor's product (request and answer), the product list, bulk
 * actions, the inventory screen and a variant's stock history. The server parses requests with these schemas;
 * the admin types its calls and forms with the inferred types.
 */
import { z } from 'zod';
import { ProductType, isEnumValue } from '../enums.js';
import { platform as platformMessages } from '../messages.js';
import { cents, CONTENT_STATUSES } from './common.js';

export const SEO_TITLE_MAX = 70;
export const SEO_DESCRIPTION_MAX = 320;

export const CATALOG_TEXT = {
  NO_PRODUCTS_CHOSEN: 'Choose at least one product.',
  NO_CHANGES: 'Change at least one variant.',
  NO_SUCH_VARIANT: 'No such variant.',
  SALE_NOT_LOWER: 'The sale price must be lower than the price.',
  NO_STOCK_OF_UNLIMITED: 'This variant has unlimited stock; turn that off in the product editor to count it.',
  NO_WEIGHT_OF_DIGITAL: 'Digital products and gift cards have no weight.',
  NOT_SAVED: 'Nothing was saved. Correct the cells marked in red and save again.',
} as const;

/** A product's states: the content states, and archived (off the storefront, kept for its orders, can come back). */
export const PRODUCT_STATUSES = [...CONTENT_STATUSES, 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];
export const productStatus = z.enum(PRODUCT_STATUSES, { error: (i) => platformMessages.notExpectedOption(String(i.input)) });

export const PAGE_SIZE_DEFAULT = 25;

// ---- The product editor: POST /api/config/products, PUT /api/config/products/:id ----

const side = (label: string) =>
  z
    .number({ error: `${label} must be a number.` })
    .min(0, `${label} cannot be negative.`)
    .max(100_000, `${label} is too large.`);

export const DIMENSION_UNITS = ['cm', 'in'] as const;
export type DimensionUnit = (typeof DIMENSION_UNITS)[number];

/** A variant's parcel dimensions (for shipping), stored as the owner gave them. */
export const variantDimensions = z.object({
  unit: z.enum(DIMENSION_UNITS, { error: 'Choose cm or in for the dimensions.' }),
  length: side('Length'),
  width: side('Width'),
  height: side('Height'),
});
export type VariantDimensions = z.infer<typeof variantDimensions>;

/** Whether a product of this type is sent as a parcel, so has a weight and dimensions (digital products and gift cards are not). */
export const shipsAsParcel = (productType: number) => productType !== ProductType.DIGITAL && productType !== ProductType.GIFT_CARD;

const stockQty = z.number({ error: 'Stock must be a number.' }).int('Stock must be a whole number.').min(0, 'Stock cannot be negative.');
const lowStockThreshold = z
  .number({ error: 'The low-stock threshold must be a number.' })
  .int('The low-stock threshold must be a whole number.')
  .min(0, 'The low-stock threshold cannot be negative.')
  .max(1_000_000);

export const variantIn = z.object({
  id: z.string().max(64).optional(),
  sku: z.string().trim().min(1, 'Every variant needs a SKU.').max(128),
  attributes: z
    .record(z.string().trim().min(1).max(100), z.string().trim().min(1, 'Choose a value for every option.').max(200))
    .optional()
    .default({}),
  priceCents: cents('Price'),
  salePriceCents: cents('Sale price').optional().default(0),
  onSale: z.boolean().optional().default(false),
  qtyInStock: stockQty.max(1_000_000),
  unlimited: z.boolean().optional().default(false),
  weightGrams: z
    .number({ error: 'Weight must be a number.' })
    .int('Weight must be in whole grams.')
    .min(0, 'Weight cannot be negative.')
    .max(10_000_000)
    .optional()
    .default(0),
  /** Parcel dimensions in cm or in; null (or absent): none. */
  dimensions: variantDimensions.nullish().transform((d) => d ?? null),
  /** The variant's own image: one of the product's image URLs, or '' for the product's first image. */
  imageUrl: z.string().trim().max(2000).optional().default(''),
  lowStockThreshold: lowStockThreshold.optional().default(0),
});

/** A variant as the server stores and answers it (the product editor sends the same fields). */
export type ProductVariant = z.output<typeof variantIn>;

const subscriptionPlan = z
  .object({
    billingPeriod: z.object({
      value: z.number().int().min(1).max(365),
      unit: z.enum(['WEEK', 'MONTH', 'YEAR'], { error: (i) => platformMessages.notExpectedOption(String(i.input)) }),
    }),
    numBillingCycles: z.number().int().min(0).max(1000),
  })
  .nullish();

const imageIn = z.object({
  assetUrl: z
    .string()
    .trim()
    .max(2000)
    .refine((s) => /^(https?:\/\/|\/)[^\s]*$/i.test(s), { message: platformMessages.notValidPageUrl('image') }),
  altText: z.string().max(500).optional().default(''),
  originalSize: z
    .string()
    .regex(/^\d{1,5}x\d{1,5}$/)
    .optional(),
  /** Where the image's subject is (0 to 1 from the left and the top); crops keep it in view. */
  mediaFocalPoint: z.object({ x: z.number().min(0).max(1), y: z.number().min(0).max(1) }).optional(),
});

export const productIn = z.object({
  version: z.number().int().optional(),
  collectionId: z.string().max(64).optional(),
  title: z.string({ error: 'Enter a title.' }).trim().min(1, 'Enter a title.').max(200),
  urlId: z.string().trim().max(200).optional(),
  body: z.string().max(200_000).optional().default(''),
  excerpt: z.string().max(2000).optional(),
  status: productStatus.optional().default('published'),
  productType: z.number().refine((n) => isEnumValue(ProductType, n), { message: 'Choose a product type.' }),
  images: z.array(imageIn).max(50).optional().default([]),
  // Tag length is checked by tagListErrors (50 characters); this bound only caps the request.
  tags: z.array(z.string().trim().min(1).max(1000)).max(100).optional().default([]),
  // Checked by categoryListErrors (25 characters). Left out, an edit keeps the stored ones.
  categories: z.array(z.string().trim().min(1).max(1000)).max(100).optional(),
  isSubscribable: z.boolean().optional().default(false),
  subscriptionPlan,
  additionalFieldsFormId: z.string().max(64).nullish(),
  variantOptionOrdering: z.array(z.string().trim().min(1).max(100)).max(6).optional().default([]),
  useCustomAddButtonText: z.boolean().optional().default(false),
  customAddButtonText: z.string().max(100).optional().default(''),
  variants: z.array(variantIn).min(1, 'A product needs at least one variant.').max(250),
  /** Search results: the page title and description (empty: the product's title and excerpt). */
  seoTitle: z.string().trim().max(SEO_TITLE_MAX, `Keep the SEO title to ${SEO_TITLE_MAX} characters.`).optional(),
  seoDescription: z.string().trim().max(SEO_DESCRIPTION_MAX, `Keep the SEO description to ${SEO_DESCRIPTION_MAX} characters.`).optional(),
  /** When a scheduled product goes live (ISO time with offset; the admin works it out in the site's time zone). */
  publishOn: z.iso.datetime({ offset: true, error: 'Choose a valid date and time.' }).optional(),
});
/** The product as the server has parsed it. */
export type ProductIn = z.infer<typeof productIn>;
/** The product as the editor sends it (defaults not yet applied). */
export type ProductInput = z.input<typeof productIn>;

// ---- GET /api/config/catalog/settings ----

export const catalogSettings = z.object({ currency: z.string(), timeZone: z.string(), websiteId: z.string().optional() });
export type CatalogSettings = z.infer<typeof catalogSettings>;

// ---- GET /api/config/catalog/products ----

export const productListQuery = z.object({
  q: z.string().trim().max(200).optional().default(''),
  collectionId: z.string().max(64).optional(),
  status: productStatus.optional(),
  type: z.coerce.number().int().min(1).max(10).optional(),
  stock: z.enum(['in', 'low', 'out']).optional(),
  sort: z.enum(['title', '-title', 'updated', '-updated', 'price', '-price', 'stock', '-stock']).optional().default('-updated'),
  page: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  pageSize: z.coerce.number().int().min(1).max(100).optional().default(PAGE_SIZE_DEFAULT),
});

export const productListRow = z.object({
  id: z.string(),
  version: z.number(),
  collectionId: z.string(),
  storeTitle: z.string(),
  title: z.string(),
  urlId: z.string(),
  status: z.string(),
  publishOn: z.string(),
  productType: z.number(),
  thumbnail: z.object({ url: z.string(), alt: z.string() }).nullable(),
  variantCount: z.number(),
  /** Total stock when every variant is tracked; null when any is unlimited. */
  stock: z.number().nullable(),
  low: z.boolean(),
  out: z.boolean(),
  minPriceCents: z.number(),
  maxPriceCents: z.number(),
  updatedAt: z.string(),
  variants: z.array(z.object({ id: z.string(), sku: z.string(), name: z.string(), qtyInStock: z.number(), unlimited: z.boolean() })),
});
export type ProductListRow = z.infer<typeof productListRow>;

export const productList = z.object({
  products: z.array(productListRow),
  total: z.number(),
  page: z.number(),
  pages: z.number(),
  pageSize: z.number(),
});
export type ProductList = z.infer<typeof productList>;

// ---- POST /api/config/catalog/products/bulk ----

export const productBulkIn = z.object({
  action: z.enum(['publish', 'unpublish', 'archive', 'unarchive', 'delete', 'move'], {
    error: 'Choose publish, unpublish, archive, unarchive, delete or move.',
  }),
  ids: z.array(z.string().min(1).max(64)).min(1, CATALOG_TEXT.NO_PRODUCTS_CHOSEN).max(500),
  /** move: the store page the products go to. */
  collectionId: z.string().max(64).optional(),
});
export type ProductBulkInput = z.input<typeof productBulkIn>;
export const productBulkOut = z.object({ ok: z.boolean(), count: z.number() });
export type ProductBulkOut = z.infer<typeof productBulkOut>;

// ---- POST /api/config/products/:id/duplicate ----

/** The copy's title (left out: "Copy of" the original's). Its slug, SKUs and stock are worked out by the server. */
export const productDuplicateIn = z.object({
  title: z.string().trim().min(1, 'Enter a title.').max(200).optional(),
});
export type ProductDuplicateInput = z.input<typeof productDuplicateIn>;
export const productDuplicateOut = z.object({ id: z.string(), title: z.string(), urlId: z.string(), status: z.string() });
export type ProductDuplicateOut = z.infer<typeof productDuplicateOut>;

// ---- GET and PUT /api/config/catalog/bulk-edit ----

export const BULK_EDIT_MAX_PRODUCTS = 100;

/** The products to edit, as the product list's selection: ids separated by commas. */
export const bulkEditQuery = z.object({
  ids: z
    .string()
    .max(BULK_EDIT_MAX_PRODUCTS * 65)
    .transform((s) => [...new Set(s.split(',').filter(Boolean))])
    .pipe(
      z
        .array(z.string().min(1).max(64))
        .min(1, CATALOG_TEXT.NO_PRODUCTS_CHOSEN)
        .max(BULK_EDIT_MAX_PRODUCTS, `Choose at most ${BULK_EDIT_MAX_PRODUCTS} products.`),
    ),
});

export const bulkEditVariant = z.object({
  id: z.string(),
  name: z.string(),
  sku: z.string(),
  priceCents: z.number(),
  /** null: not on sale. */
  salePriceCents: z.number().nullable(),
  qtyInStock: z.number(),
  unlimited: z.boolean(),
  weightGrams: z.number(),
});
export type BulkEditVariant = z.infer<typeof bulkEditVariant>;
export const bulkEditSheet = z.object({
  products: z.array(
    z.object({ id: z.string(), title: z.string(), version: z.number(), productType: z.number(), variants: z.array(bulkEditVariant) }),
  ),
});
export type BulkEditSheet = z.infer<typeof bulkEditSheet>;

/** One variant's changed cells; a cell left out keeps its value. A null sale price takes the variant off sale. */
export const bulkEditChange = z.object({
  variantId: z.string().min(1).max(64),
  sku: z.string().trim().min(1, 'Every variant needs a SKU.').max(128, 'Keep the SKU to 128 characters.').optional(),
  priceCents: cents('Price').optional(),
  salePriceCents: cents('Sale price').nullable().optional(),
  qtyInStock: stockQty.max(1_000_000, 'Stock is too large.').optional(),
  weightGrams: z
    .number({ error: 'Weight must be a number.' })
    .int('Weight must be in whole grams.')
    .min(0, 'Weight cannot be negative.')
    .max(10_000_000, 'Weight is too large.')
    .optional(),
});
export type BulkEditChange = z.input<typeof bulkEditChange>;
export const bulkEditIn = z.object({
  changes: z.array(bulkEditChange).min(1, CATALOG_TEXT.NO_CHANGES).max(5000),
  /** Each product's version as the sheet read it: a product saved since is refused (409), so nobody's edit is overwritten. */
  versions: z.record(z.string().max(64), z.number().int()).optional(),
});
export type BulkEditInput = z.input<typeof bulkEditIn>;
/** A refused save: `errors` is keyed `<variantId>.<field>`, one message per cell. */
export const bulkEditOut = z.object({ ok: z.boolean(), count: z.number() });
export type BulkEditOut = z.infer<typeof bulkEditOut>;

// ---- GET and PUT /api/config/catalog/inventory ----

export const inventoryQuery = z.object({ q: z.string().trim().max(200).optional().default(''), low: z.enum(['1', '0']).optional() });

export const inventoryRow = z.object({
  variantId: z.string(),
  productId: z.string(),
  title: z.string(),
  variant: z.string(),
  sku: z.string(),
  qtyInStock: z.number(),
  unlimited: z.boolean(),
  lowStockThreshold: z.number(),
  low: z.boolean(),
  imageUrl: z.string(),
});
export type InventoryRow = z.infer<typeof inventoryRow>;
export const inventoryList = z.object({ variants: z.array(inventoryRow) });
export type InventoryList = z.infer<typeof inventoryList>;

export const stockChange = z.object({
  variantId: z.string().min(1).max(64),
  qtyInStock: stockQty.max(1_000_000, 'Stock is too large.').optional(),
  unlimited: z.boolean().optional(),
  lowStockThreshold: lowStockThreshold.optional(),
});
export type StockChange = z.input<typeof stockChange>;
export const inventoryIn = z.object({ changes: z.array(stockChange).min(1, CATALOG_TEXT.NO_CHANGES).max(1000) });
export type InventoryInput = z.input<typeof inventoryIn>;
export const inventoryOut = z.object({
  variants: z.array(
    z.object({ variantId: z.string(), qtyInStock: z.number(), unlimited: z.boolean(), lowStockThreshold: z.number(), low: z.boolean() }),
  ),
});
export type InventoryOut = z.infer<typeof inventoryOut>;

// ---- GET /api/config/catalog/variants/:id/movements ----

export const stockMovement = z.object({
  id: z.number(),
  reason: z.string(),
  delta: z.number(),
  qtyAfter: z.number(),
  unlimited: z.boolean(),
  at: z.string(),
});
export type StockMovement = z.infer<typeof stockMovement>;
export const variantMovements = z.object({
  variant: z.object({
    id: z.string(),
    sku: z.string(),
    title: z.string(),
    variant: z.string(),
    qtyInStock: z.number(),
    unlimited: z.boolean(),
  }),
  movements: z.array(stockMovement),
});
export type VariantMovements = z.infer<typeof variantMovements>;

/** A store page as the product screens list it (GET /api/config/stores). */
export const storeSummary = z.object({ id: z.string(), title: z.string(), urlId: z.string() });
export type StoreSummary = z.infer<typeof storeSummary>;
