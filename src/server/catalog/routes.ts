/**
 * The catalogue's owner calls (issue 24), beside the product editor's own (product-routes.ts):
 *
 * - GET  /api/config/catalog/products: the product list with search, filters (store, type, status, stock), sort
 *   and pages; each row has its thumbnail and its variants' stock.
 * - POST /api/config/catalog/products/bulk: publish, unpublish, archive, unarchive, delete or move (to another
 *   store page) several products at once. Archived products leave the storefront and keep their orders.
 * - GET  /api/config/catalog/inventory: every variant's stock and low-stock threshold.
 * - PUT  /api/config/catalog/inventory: changes stock, unlimited and threshold of one or several variants
 *   (the list's inline stock edit and the inventory screen's bulk edit); restock hooks run as on a product save.
 * - GET  /api/config/catalog/variants/:id/movements: a variant's stock history (sale, refund, manual, import).
 *
 * Scheduled products go live when their time comes: a sweep every SCHEDULE_SWEEP_MS (and on each list read)
 * publishes the ones whose publishOn has passed.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { variantsOfItems } from '../db-util.js';
import { schema, type Db } from '../../db/index.js';
import { RecordType } from '../../core/enums.js';
import { parseInput } from '../platform/index.js';
import { badRequest, notFound } from '../errors.js';
import { audit } from '../platform/index.js';
import { stockChangedHooks } from '../platform/index.js';
import { publishScheduled } from '../content/index.js';
import { itemUrlId, lockRoomFor, stockReason, storeCollection } from './product-service.js';
import { QUANTITY_MAX } from '../../core/constants.js';
import { can } from '../../core/roles.js';
import {
  CATALOG_TEXT,
  inventoryIn,
  inventoryQuery,
  productBulkIn,
  productListQuery,
  type CatalogSettings,
  type InventoryList,
  type InventoryOut,
  type ProductBulkOut,
  type ProductList,
  type VariantMovements,
} from '../../core/api/catalog.js';

const { items, productVariants, collections, stockMovements } = schema;

export const SCHEDULE_SWEEP_MS = 30_000;

type VariantRow = typeof productVariants.$inferSelect;

/** Whether a variant counts as low on stock (tracked, and at or under its threshold, or sold out). */
export function isLow(v: Pick<VariantRow, 'unlimited' | 'qtyInStock' | 'lowStockThreshold'>): boolean {
  return !v.unlimited && (v.qtyInStock <= 0 || (v.lowStockThreshold > 0 && v.qtyInStock <= v.lowStockThreshold));
}

/** Publishes the scheduled products whose time has come. */
export async function publishDueProducts(db: Db): Promise<number> {
  return publishScheduled(db, RecordType.STORE_ITEM, sql`${items.publishOn} <= now()`, new Date());
}

const unitPrice = (v: VariantRow) => (v.onSale ? v.salePriceCents : v.priceCents);
const variantName = (a: Record<string, string>) => Object.values(a).join(' / ');

export async function catalogRoutes(app: FastifyInstance) {
  const ctx = catalogRoutesCtx(app);
  await catalogListRoutes(app, ctx);
  await inventoryRoutes(app, ctx);
}

type CatalogRoutesCtx = ReturnType<typeof catalogRoutesCtx>;

/** What the calls of catalogRoutes share. */
function catalogRoutesCtx(app: FastifyInstance) {
  const db = app.database.db;
  const readRoles = { preHandler: app.requireOwner(can('products', 'read')) };
  const storeRoles = { preHandler: app.requireOwner(can('products', 'write')) };
  const siteId = (req: FastifyRequest) => req.owner!.websiteId;

  const timer = setInterval(
    () => void publishDueProducts(db).catch((e: unknown) => app.log.warn({ err: e }, 'scheduled products sweep failed')),
    SCHEDULE_SWEEP_MS,
  );
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));

  /** The site's products with their variants (ordered), and the store titles. */
  const allProducts = async (websiteId: string) => {
    const list = await db
      .select()
      .from(items)
      .where(and(eq(items.websiteId, websiteId), eq(items.recordType, RecordType.STORE_ITEM)));
    const vs = await variantsOfItems(
      db,
      list.map((i) => i.id),
    );
    const byItem = new Map<string, VariantRow[]>();
    for (const v of vs) byItem.set(v.itemId, [...(byItem.get(v.itemId) ?? []), v]);
    const stores = await db
      .select({ id: collections.id, title: collections.title })
      .from(collections)
      .where(eq(collections.websiteId, websiteId));
    const storeTitle = new Map(stores.map((s) => [s.id, s.title]));
    return list.map((item) => ({ item, variants: byItem.get(item.id) ?? [], storeTitle: storeTitle.get(item.collectionId) ?? '' }));
  };

  return { db, readRoles, storeRoles, siteId, timer, allProducts };
}

/** The catalogue settings, the product list and its bulk actions. */
async function catalogListRoutes(app: FastifyInstance, ctx: CatalogRoutesCtx) {
  const { db, readRoles, storeRoles, siteId, allProducts } = ctx;
  /** What the catalogue screens need of the site: its currency (minor units) and time zone (scheduling). */
  app.get('/api/config/catalog/settings', readRoles, async (req, reply): Promise<CatalogSettings> => {
    const site = await app.services.websites.get();
    reply.header('cache-control', 'no-store');
    return { currency: site.currency, timeZone: site.timeZone, websiteId: siteId(req) };
  });

  app.get('/api/config/catalog/products', readRoles, async (req, reply): Promise<ProductList> => {
    const q = parseInput(productListQuery, req.query ?? {});
    await publishDueProducts(db);
    const needle = q.q.toLowerCase();
    const rows = (await allProducts(siteId(req))).map(({ item, variants, storeTitle }) => {
      const tracked = variants.filter((v) => !v.unlimited);
      const stock = variants.length && tracked.length === variants.length ? tracked.reduce((s, v) => s + v.qtyInStock, 0) : null;
      const first = item.assets[0];
      return {
        id: item.id,
        version: item.version,
        collectionId: item.collectionId,
        storeTitle,
        title: item.title,
        urlId: item.urlId,
        status: item.status,
        publishOn: item.publishOn.toISOString(),
        productType: Number(item.structuredContent.productType ?? 1),
        thumbnail: first ? { url: String(first.assetUrl ?? ''), alt: String(first.altText ?? '') } : null,
        variantCount: variants.length,
        stock,
        low: variants.some(isLow),
        out: variants.length > 0 && variants.every((v) => !v.unlimited && v.qtyInStock <= 0),
        minPriceCents: variants.length ? Math.min(...variants.map(unitPrice)) : 0,
        maxPriceCents: variants.length ? Math.max(...variants.map(unitPrice)) : 0,
        updatedAt: item.updatedAt.toISOString(),
        skus: variants.map((v) => v.sku),
        tags: item.tags,
        variants: variants.map((v) => ({
          id: v.id,
          sku: v.sku,
          name: variantName(v.attributes),
          qtyInStock: v.qtyInStock,
          unlimited: v.unlimited,
        })),
      };
    });
    const filtered = rows.filter(
      (r) =>
        (!needle ||
          r.title.toLowerCase().includes(needle) ||
          r.skus.some((s) => s.toLowerCase().includes(needle)) ||
          r.tags.some((t) => t.toLowerCase().includes(needle))) &&
        (!q.collectionId || r.collectionId === q.collectionId) &&
        (!q.status || r.status === q.status) &&
        (!q.type || r.productType === q.type) &&
        (!q.stock || (q.stock === 'out' ? r.out : q.stock === 'low' ? r.low && !r.out : !r.out)),
    );
    const dir = q.sort.startsWith('-') ? -1 : 1;
    const key = q.sort.replace(/^-/, '');
    const value = (r: (typeof rows)[number]): string | number =>
      key === 'title'
        ? r.title.toLowerCase()
        : key === 'price'
          ? r.minPriceCents
          : key === 'stock'
            ? (r.stock ?? Number.MAX_SAFE_INTEGER)
            : r.updatedAt;
    filtered.sort((a, b) => {
      const x = value(a);
      const y = value(b);
      return (x < y ? -1 : x > y ? 1 : a.title.localeCompare(b.title)) * dir;
    });
    const total = filtered.length;
    const pages = Math.max(1, Math.ceil(total / q.pageSize));
    const page = Math.min(q.page, pages);
    reply.header('cache-control', 'no-store');
    return {
      products: filtered.slice((page - 1) * q.pageSize, page * q.pageSize).map(({ skus: _s, tags: _t, ...r }) => r),
      total,
      page,
      pages,
      pageSize: q.pageSize,
    };
  });

  app.post('/api/config/catalog/products/bulk', storeRoles, async (req): Promise<ProductBulkOut> => {
    const body = parseInput(productBulkIn, req.body);
    const websiteId = siteId(req);
    const ids = [...new Set(body.ids)];
    return db.transaction(async (tx) => {
      const auditProduct = (action: string, entityId: string, before: Record<string, unknown>, after?: Record<string, unknown>) =>
        audit(tx, { websiteId, accountId: req.owner!.id, action, entity: 'product', entityId, before, after });
      const found = await tx
        .select()
        .from(items)
        .where(and(eq(items.websiteId, websiteId), eq(items.recordType, RecordType.STORE_ITEM), inArray(items.id, ids)))
        .for('update');
      if (found.length !== ids.length) throw notFound('No such product.');
      if (body.action === 'move') {
        // Into another store page: the page's 200-product limit counts every product that arrives; each keeps its
        // slug unless the page already has it (then the next free one, as the editor does).
        const target = await storeCollection(tx, body.collectionId, websiteId);
        const arriving = found.filter((i) => i.collectionId !== target.id);
        const count = await lockRoomFor(tx, target, arriving.length);
        let ordering = count;
        for (const item of arriving) {
          const urlId = await itemUrlId(tx, target.id, '', item.urlId);
          await tx
            .update(items)
            .set({ collectionId: target.id, urlId, ordering: ordering++, version: item.version + 1, updatedAt: new Date() })
            .where(eq(items.id, item.id));
          await auditProduct(
            'product.update',
            item.id,
            { collectionId: item.collectionId, urlId: item.urlId },
            { collectionId: target.id, urlId },
          );
        }
        return { ok: true, count: arriving.length };
      }
      for (const item of found) {
        if (body.action === 'delete') {
          await tx.delete(items).where(eq(items.id, item.id));
          await auditProduct('product.delete', item.id, { title: item.title, status: item.status });
          continue;
        }
        // Unarchived products come back as drafts (as in Shopify), to be checked before they go live again.
        const status = body.action === 'publish' ? 'published' : body.action === 'archive' ? 'archived' : 'draft';
        if (item.status === status || (body.action === 'unarchive' && item.status !== 'archived')) continue;
        await tx
          .update(items)
          .set({ status, ...(status === 'published' ? { publishOn: new Date() } : {}), version: item.version + 1, updatedAt: new Date() })
          .where(eq(items.id, item.id));
        await auditProduct('product.update', item.id, { status: item.status }, { status });
      }
      return { ok: true, count: found.length };
    });
  });
}

/** Stock: the inventory, its edits and a variant's stock history. */
async function inventoryRoutes(app: FastifyInstance, ctx: CatalogRoutesCtx) {
  const { db, readRoles, storeRoles, siteId, allProducts } = ctx;
  app.get('/api/config/catalog/inventory', readRoles, async (req, reply): Promise<InventoryList> => {
    const q = parseInput(inventoryQuery, req.query ?? {});
    const needle = q.q.toLowerCase();
    const out = [];
    for (const { item, variants } of await allProducts(siteId(req))) {
      for (const v of variants) {
        const name = variantName(v.attributes);
        if (needle && !`${item.title} ${name} ${v.sku}`.toLowerCase().includes(needle)) continue;
        if (q.low === '1' && !isLow(v)) continue;
        out.push({
          variantId: v.id,
          productId: item.id,
          title: item.title,
          variant: name,
          sku: v.sku,
          qtyInStock: v.qtyInStock,
          unlimited: v.unlimited,
          lowStockThreshold: v.lowStockThreshold,
          low: isLow(v),
          imageUrl: v.imageUrl || String(item.assets[0]?.assetUrl ?? ''),
        });
      }
    }
    out.sort((a, b) => a.title.localeCompare(b.title) || a.variant.localeCompare(b.variant));
    reply.header('cache-control', 'no-store');
    return { variants: out };
  });

  app.put('/api/config/catalog/inventory', storeRoles, async (req): Promise<InventoryOut> => {
    const body = parseInput(inventoryIn, req.body);
    const websiteId = siteId(req);
    return db.transaction(async (tx) => {
      await stockReason(tx, 'manual');
      const ids = [...new Set(body.changes.map((c) => c.variantId))];
      const found = await tx
        .select({ v: productVariants })
        .from(productVariants)
        .innerJoin(items, eq(items.id, productVariants.itemId))
        .where(and(eq(items.websiteId, websiteId), inArray(productVariants.id, ids)))
        .for('update');
      const byId = new Map(found.map((r) => [r.v.id, r.v]));
      const updated = [];
      for (const c of body.changes) {
        const old = byId.get(c.variantId);
        if (!old) throw badRequest(CATALOG_TEXT.NO_SUCH_VARIANT, { [c.variantId]: CATALOG_TEXT.NO_SUCH_VARIANT });
        const next = {
          qtyInStock: Math.min(c.qtyInStock ?? old.qtyInStock, QUANTITY_MAX * 100),
          unlimited: c.unlimited ?? old.unlimited,
          lowStockThreshold: c.lowStockThreshold ?? old.lowStockThreshold,
        };
        await tx.update(productVariants).set(next).where(eq(productVariants.id, old.id));
        if (old.qtyInStock !== next.qtyInStock || old.unlimited !== next.unlimited) {
          for (const hook of stockChangedHooks) await hook(tx, old.id, { qtyInStock: old.qtyInStock, unlimited: old.unlimited }, next);
        }
        byId.set(old.id, { ...old, ...next });
        updated.push({ variantId: old.id, ...next, low: isLow({ ...old, ...next }) });
      }
      await audit(tx, {
        websiteId,
        accountId: req.owner!.id,
        action: 'inventory.update',
        entity: 'inventory',
        entityId: ids.join(',').slice(0, 200),
        after: { changes: body.changes },
      });
      return { variants: updated };
    });
  });

  app.get('/api/config/catalog/variants/:id/movements', readRoles, async (req, reply): Promise<VariantMovements> => {
    const { id } = parseInput(z.object({ id: z.string().min(1).max(64) }), req.params);
    const [v] = await db
      .select({ v: productVariants, title: items.title })
      .from(productVariants)
      .innerJoin(items, eq(items.id, productVariants.itemId))
      .where(and(eq(productVariants.id, id), eq(items.websiteId, siteId(req))));
    if (!v) throw notFound(CATALOG_TEXT.NO_SUCH_VARIANT);
    const list = await db.select().from(stockMovements).where(eq(stockMovements.variantId, id)).orderBy(desc(stockMovements.id)).limit(200);
    reply.header('cache-control', 'no-store');
    return {
      variant: {
        id: v.v.id,
        sku: v.v.sku,
        title: v.title,
        variant: variantName(v.v.attributes),
        qtyInStock: v.v.qtyInStock,
        unlimited: v.v.unlimited,
      },
      movements: list.map((m) => ({
        id: m.id,
        reason: m.reason,
        delta: m.delta,
        qtyAfter: m.qtyAfter,
        unlimited: m.unlimitedAfter,
        at: m.created.toISOString(),
      })),
    };
  });
}
