/**
 * Duplicating a product, as Shopify does: the copy has everything of the original (description, images, options,
 * variants with their prices, weights and dimensions, tags, type, SEO text, form) except what must differ or would
 * mislead. It starts as a draft titled "Copy of …", its slug is the original's with "-copy" (made unique in its
 * store), each SKU gets "-copy" too (SKUs are unique in the store), and its stock starts at 0: stock counts things
 * on a shelf, and the shelf holds the original's. Unlimited stock stays unlimited (a rule, not a count).
 */
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { newId } from '../../db/ids.js';
import { RecordType } from '../../core/enums.js';
import { nextFreeSlug } from '../../core/slug.js';
import { rows } from '../db-util.js';
import { notFound } from '../errors.js';
import { audit } from '../platform/index.js';
import { loadProduct, lockRoomFor, stockReason, storeCollection } from './product-service.js';
import type { ProductDuplicateOut } from '../../core/api/catalog.js';

const { items, productVariants } = schema;

export const COPY_TITLE = (title: string) => `Copy of ${title}`.slice(0, 200);

/** `wanted` with "-copy" (then "-copy-1", "-copy-2"…) until no variant of the site uses it, case-insensitively. */
function freeSkus(originals: string[], taken: Set<string>): string[] {
  return originals.map((sku) => {
    const base = `${sku.slice(0, 120)}-copy`;
    let candidate = base;
    for (let i = 1; taken.has(candidate.toLowerCase()); i++) candidate = `${base}-${i}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

/** Copies product `id` of the website in `tx` as a new draft; answers the copy's id, title and slug. */
export async function duplicateProductTx(
  tx: Tx,
  websiteId: string,
  accountId: string,
  id: string,
  title: string | undefined,
): Promise<ProductDuplicateOut> {
  await stockReason(tx, 'manual');
  const original = await loadProduct(tx, id, websiteId);
  if (!original) throw notFound('No such product.');
  const c = await storeCollection(tx, original.item.collectionId, websiteId);
  const count = await lockRoomFor(tx, c);
  const slugs = await tx.select({ urlId: items.urlId }).from(items).where(eq(items.collectionId, c.id));
  const urlId = nextFreeSlug(`${original.item.urlId.slice(0, 190)}-copy`, new Set(slugs.map((r) => r.urlId)));
  const skuRows = await rows<{ sku: string }>(
    tx,
    sql`select lower(v.sku) as sku from product_variants v join items i on i.id = v.item_id where i.website_id = ${websiteId}`,
  );
  const skus = freeSkus(
    original.variants.map((v) => v.sku),
    new Set(skuRows.map((r) => r.sku)),
  );
  const copyId = newId();
  const copyTitle = title ?? COPY_TITLE(original.item.title);
  const { id: _id, createdAt: _c, updatedAt: _u, version: _v, layoutDraft: _ld, layout: _l, layoutText: _lt, ...rest } = original.item;
  const [saved] = await tx
    .insert(items)
    .values({
      ...rest,
      id: copyId,
      urlId,
      title: copyTitle,
      recordType: RecordType.STORE_ITEM,
      status: 'draft',
      publishOn: new Date(),
      ordering: count,
    })
    .returning({ id: items.id, title: items.title, urlId: items.urlId, status: items.status });
  await tx.insert(productVariants).values(
    original.variants.map((v, i) => ({
      ...v,
      id: newId(),
      itemId: copyId,
      sku: skus[i]!,
      qtyInStock: 0,
    })),
  );
  await audit(tx, {
    websiteId,
    accountId,
    action: 'product.create',
    entity: 'product',
    entityId: copyId,
    after: { duplicateOf: id, title: copyTitle, urlId, skus },
  });
  return saved!;
}
