/**
 * The bulk editor's calls: a sheet of the chosen products' variants (price, sale price, stock, SKU, weight), and
 * its save. The save is one transaction: every cell is checked first, against the variant's other cells and
 * against the whole store's SKUs; one refused cell refuses the whole save, with each message keyed
 * `<variantId>.<field>`, so the sheet shows it on its cell and nothing is written.
 */
import type { FastifyInstance } from 'fastify';
import { and, eq, inArray } from 'drizzle-orm';
import { schema, type Tx } from '../../db/index.js';
import { RecordType } from '../../core/enums.js';
import { platform as platformMessages } from '../../core/messages.js';
import { QUANTITY_MAX } from '../../core/constants.js';
import { can } from '../../core/roles.js';
import { variantsOfItems } from '../db-util.js';
import { badRequest, notFound } from '../errors.js';
import { audit, parseInput, staleEdit, stockChangedHooks } from '../platform/index.js';
import { SKU_TAKEN, stockReason } from './product-service.js';
import { CATALOG_TEXT, bulkEditIn, bulkEditQuery, shipsAsParcel, type BulkEditOut, type BulkEditSheet } from '../../core/api/catalog.js';

const { items, productVariants } = schema;
type VariantRow = typeof productVariants.$inferSelect;
type BulkEditBody = ReturnType<typeof bulkEditIn.parse>;
type Change = BulkEditBody['changes'][number];

/** The body checked by its schema; a refused cell is keyed by its variant's id, not its place in the list. */
function parseChanges(body: unknown): BulkEditBody {
  const parsed = bulkEditIn.safeParse(body);
  if (parsed.success) return parsed.data;
  const raw = (body as { changes?: unknown } | null)?.changes;
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const [top, index, field] = issue.path;
    const variantId = Array.isArray(raw) && typeof index === 'number' ? (raw[index] as { variantId?: unknown })?.variantId : undefined;
    const key =
      top === 'changes' && typeof variantId === 'string' && field !== undefined ? `${variantId}.${String(field)}` : issue.path.join('.');
    errors[key || '_'] ??= issue.message;
  }
  const only = Object.keys(errors).length === 1 && (errors.changes || errors._);
  throw badRequest(only || CATALOG_TEXT.NOT_SAVED, errors);
}

/** The variant after its change, and the messages of the cells it refuses. */
function applyChange(v: VariantRow, c: Change, productType: number) {
  const next = {
    sku: c.sku ?? v.sku,
    priceCents: c.priceCents ?? v.priceCents,
    salePriceCents: c.salePriceCents === null ? v.salePriceCents : (c.salePriceCents ?? v.salePriceCents),
    onSale: c.salePriceCents === null ? false : c.salePriceCents !== undefined ? true : v.onSale,
    qtyInStock: Math.min(c.qtyInStock ?? v.qtyInStock, QUANTITY_MAX * 100),
    weightGrams: c.weightGrams ?? v.weightGrams,
  };
  const errors: Record<string, string> = {};
  if (next.onSale && next.salePriceCents >= next.priceCents)
    errors[`${v.id}.${c.salePriceCents !== undefined ? 'salePriceCents' : 'priceCents'}`] = CATALOG_TEXT.SALE_NOT_LOWER;
  if (c.qtyInStock !== undefined && c.qtyInStock !== v.qtyInStock && v.unlimited)
    errors[`${v.id}.qtyInStock`] = CATALOG_TEXT.NO_STOCK_OF_UNLIMITED;
  if (c.weightGrams !== undefined && c.weightGrams !== v.weightGrams && !shipsAsParcel(productType))
    errors[`${v.id}.weightGrams`] = CATALOG_TEXT.NO_WEIGHT_OF_DIGITAL;
  return { next, errors };
}

/** A SKU names one variant in the store: the messages of the changed SKUs another variant (after the save) also has. */
function skuErrors(all: VariantRow[], finalSku: Map<string, string>, changed: Set<string>): Record<string, string> {
  const bySku = new Map<string, VariantRow[]>();
  for (const v of all) {
    const key = (finalSku.get(v.id) ?? v.sku).toLowerCase();
    bySku.set(key, [...(bySku.get(key) ?? []), v]);
  }
  const errors: Record<string, string> = {};
  for (const same of bySku.values()) {
    if (same.length < 2) continue;
    for (const v of same) {
      if (!changed.has(v.id)) continue;
      const sku = finalSku.get(v.id)!;
      const elsewhere = same.some((o) => o.id !== v.id && o.itemId !== v.itemId);
      errors[`${v.id}.sku`] = elsewhere ? SKU_TAKEN(sku) : platformMessages.tagExists('SKU');
    }
  }
  return errors;
}

/** Checks and writes `changes` in `tx`; a refused cell throws before anything is written. Answers how many variants changed. */
export async function bulkEditTx(tx: Tx, websiteId: string, accountId: string, { changes, versions }: BulkEditBody): Promise<number> {
  await stockReason(tx, 'manual');
  const ids = [...new Set(changes.map((c) => c.variantId))];
  const owned = await tx
    .select({ itemId: productVariants.itemId })
    .from(productVariants)
    .innerJoin(items, eq(items.id, productVariants.itemId))
    .where(and(eq(items.websiteId, websiteId), eq(items.recordType, RecordType.STORE_ITEM), inArray(productVariants.id, ids)));
  const itemIds = [...new Set(owned.map((r) => r.itemId))];
  // The products are locked first, so a product editor's save and this one take turns.
  const locked = itemIds.length ? await tx.select().from(items).where(inArray(items.id, itemIds)).orderBy(items.id).for('update') : [];
  for (const item of locked) {
    const seen = versions?.[item.id];
    if (seen !== undefined && seen !== item.version) throw staleEdit(item.version);
  }
  const typeOf = new Map(locked.map((i) => [i.id, Number(i.structuredContent.productType ?? 1)]));
  const all = await siteVariants(tx, websiteId);
  const byId = new Map(all.map((v) => [v.id, v]));
  const errors: Record<string, string> = {};
  const planned: Array<{ old: VariantRow; next: ReturnType<typeof applyChange>['next'] }> = [];
  for (const c of changes) {
    const old = byId.get(c.variantId);
    if (!old || !typeOf.has(old.itemId)) {
      errors[`${c.variantId}._`] = CATALOG_TEXT.NO_SUCH_VARIANT;
      continue;
    }
    const { next, errors: cell } = applyChange(old, c, typeOf.get(old.itemId)!);
    Object.assign(errors, cell);
    planned.push({ old, next });
  }
  const finalSku = new Map(planned.map((p) => [p.old.id, p.next.sku]));
  const skuChanged = new Set(planned.filter((p) => p.next.sku !== p.old.sku).map((p) => p.old.id));
  Object.assign(errors, skuErrors(all, finalSku, skuChanged));
  if (Object.keys(errors).length) throw badRequest(CATALOG_TEXT.NOT_SAVED, errors);

  // SKUs are unique per product: free the changed ones first so two variants may swap theirs.
  for (const id of skuChanged)
    await tx
      .update(productVariants)
      .set({ sku: `__tmp_${id}` })
      .where(eq(productVariants.id, id));
  for (const { old, next } of planned) {
    await tx.update(productVariants).set(next).where(eq(productVariants.id, old.id));
    if (old.qtyInStock !== next.qtyInStock)
      for (const hook of stockChangedHooks)
        await hook(
          tx,
          old.id,
          { qtyInStock: old.qtyInStock, unlimited: old.unlimited },
          { qtyInStock: next.qtyInStock, unlimited: old.unlimited },
        );
  }
  for (const item of locked)
    await tx
      .update(items)
      .set({ version: item.version + 1, updatedAt: new Date() })
      .where(eq(items.id, item.id));
  await audit(tx, {
    websiteId,
    accountId,
    action: 'product.bulk-edit',
    entity: 'product',
    entityId: itemIds.join(',').slice(0, 200),
    before: Object.fromEntries(planned.map((p) => [p.old.id, pick(p.old)])),
    after: Object.fromEntries(planned.map((p) => [p.old.id, p.next])),
  });
  return planned.length;
}

const pick = (v: VariantRow) => ({
  sku: v.sku,
  priceCents: v.priceCents,
  salePriceCents: v.salePriceCents,
  onSale: v.onSale,
  qtyInStock: v.qtyInStock,
  weightGrams: v.weightGrams,
});

/** Every variant of the website's products (the SKU check looks at all of them). */
async function siteVariants(tx: Tx, websiteId: string): Promise<VariantRow[]> {
  const list = await tx
    .select({ v: productVariants })
    .from(productVariants)
    .innerJoin(items, eq(items.id, productVariants.itemId))
    .where(eq(items.websiteId, websiteId));
  return list.map((r) => r.v);
}

export async function bulkEditRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const readRoles = { preHandler: app.requireOwner(can('products', 'read')) };
  const storeRoles = { preHandler: app.requireOwner(can('products', 'write')) };

  app.get('/api/config/catalog/bulk-edit', readRoles, async (req, reply): Promise<BulkEditSheet> => {
    const { ids } = parseInput(bulkEditQuery, req.query ?? {});
    const websiteId = req.owner!.websiteId;
    const found = await db
      .select()
      .from(items)
      .where(and(eq(items.websiteId, websiteId), eq(items.recordType, RecordType.STORE_ITEM), inArray(items.id, ids)));
    if (found.length !== ids.length) throw notFound('No such product.');
    const variants = await variantsOfItems(
      db,
      found.map((i) => i.id),
    );
    const order = new Map(ids.map((id, n) => [id, n]));
    found.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    reply.header('cache-control', 'no-store');
    return {
      products: found.map((i) => ({
        id: i.id,
        title: i.title,
        version: i.version,
        productType: Number(i.structuredContent.productType ?? 1),
        variants: variants
          .filter((v) => v.itemId === i.id)
          .map((v) => ({
            id: v.id,
            name: Object.values(v.attributes).join(' / '),
            sku: v.sku,
            priceCents: v.priceCents,
            salePriceCents: v.onSale ? v.salePriceCents : null,
            qtyInStock: v.qtyInStock,
            unlimited: v.unlimited,
            weightGrams: v.weightGrams,
          })),
      })),
    };
  });

  app.put('/api/config/catalog/bulk-edit', storeRoles, async (req): Promise<BulkEditOut> => {
    const body = parseChanges(req.body);
    const count = await db.transaction((tx) => bulkEditTx(tx, req.owner!.websiteId, req.owner!.id, body));
    return { ok: true, count };
  });
}
