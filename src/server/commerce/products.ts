import { asc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { variantsOfItems } from '../db-util.js';

export type ItemRow = typeof schema.items.$inferSelect;
export type VariantRow = typeof schema.productVariants.$inferSelect;

export interface ProductRecord {
  item: ItemRow;
  variants: VariantRow[];
}

/** Loads store items with their variants (ordered as the owner arranged them). */
export async function loadProducts(db: Db | Tx, itemIds: string[]): Promise<Map<string, ProductRecord>> {
  const out = new Map<string, ProductRecord>();
  if (itemIds.length === 0) return out;
  const rows = await db.select().from(schema.items).where(inArray(schema.items.id, itemIds));
  for (const item of rows) out.set(item.id, { item, variants: [] });
  if (rows.length === 0) return out;
  const variants = await variantsOfItems(
    db,
    rows.map((r) => r.id),
  );
  for (const v of variants) out.get(v.itemId)?.variants.push(v);
  return out;
}

export async function loadProduct(db: Db | Tx, itemId: string): Promise<ProductRecord | null> {
  return (await loadProducts(db, [itemId])).get(itemId) ?? null;
}

export async function variantsOfItem(db: Db | Tx, itemId: string): Promise<VariantRow[]> {
  return db
    .select()
    .from(schema.productVariants)
    .where(eq(schema.productVariants.itemId, itemId))
    .orderBy(asc(schema.productVariants.ordering));
}

export function productType(item: ItemRow): number {
  const t = Number(item.structuredContent.productType);
  return Number.isInteger(t) && t > 0 ? t : 1;
}

/** The price a buyer pays for one unit of a variant, in minor units. */
export function unitPrice(v: VariantRow): number {
  return v.onSale ? v.salePriceCents : v.priceCents;
}

/** The variant JSON, as templates and the API show it. */
export function variantJson(v: VariantRow, currency: string) {
  return {
    id: v.id,
    sku: v.sku,
    attributes: v.attributes,
    optionValues: Object.entries(v.attributes).map(([optionName, value]) => ({ optionName, value })),
    price: v.priceCents,
    salePrice: v.salePriceCents,
    priceMoney: { currency, value: String(v.priceCents) },
    salePriceMoney: { currency, value: String(v.salePriceCents) },
    onSale: v.onSale,
    qtyInStock: v.qtyInStock,
    unlimited: v.unlimited,
    /** The variant's own image ('' when it shows the product's images). */
    imageUrl: v.imageUrl,
  };
}
