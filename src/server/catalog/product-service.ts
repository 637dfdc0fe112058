/**
 * The product editor's service: the product shape (with variants and stock), its rules, and the reads and
 * writes of the /config product calls and the CSV import. Every write runs in the caller's transaction,
 * checks the row's `version` (a second owner saving over a first one is refused, nothing is overwritten)
 * and leaves an audit row.
 */
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { rows, variantsOfItems } from '../db-util.js';
import type { Db, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { newId } from '../../db/ids.js';
import { CollectionType, ProductType, RecordType } from '../../core/enums.js';
import { platform as platformMessages } from '../../core/messages.js';
import { slugify, nextFreeSlug } from '../../core/slug.js';
import { QUANTITY_MAX } from '../../core/constants.js';
import { categoryListErrors, collectionAddError, tagListErrors } from '../../core/content.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { audit } from '../platform/index.js';
import { stockChangedHooks } from '../platform/index.js';
import { cleanOwnerHtml, ownerPlainText } from '../content/index.js';
import { STALE_EDIT, staleEdit } from '../platform/index.js';
export { STALE_EDIT };

const { items, productVariants, collections } = schema;

// ------------------------------------------------------------------------------------------------
// Shapes
// ------------------------------------------------------------------------------------------------

import type { ProductIn } from '../../core/api/catalog.js';
export { productIn, type ProductIn } from '../../core/api/catalog.js';

export const SCHEDULED_IN_PAST = 'Choose a time in the future to schedule this product, or publish it now.';

// ------------------------------------------------------------------------------------------------
// Product rules
// ------------------------------------------------------------------------------------------------

/** Checks the variants against each other and against the options; answers the per-field errors. */
export function productErrors(p: ProductIn): Record<string, string> {
  const errors: Record<string, string> = { ...tagListErrors(p.tags), ...categoryListErrors(p.categories ?? []) };
  const skus = new Set<string>();
  const combos = new Set<string>();
  const options = p.variantOptionOrdering;
  if (new Set(options.map((o) => o.toLowerCase())).size !== options.length)
    errors.variantOptionOrdering = platformMessages.tagExists('option');
  p.variants.forEach((v, i) => {
    if (skus.has(v.sku.toLowerCase())) errors[`variants.${i}.sku`] = platformMessages.tagExists('SKU');
    skus.add(v.sku.toLowerCase());
    if (v.onSale && v.salePriceCents >= v.priceCents)
      errors[`variants.${i}.salePriceCents`] = 'The sale price must be lower than the price.';
    if (v.imageUrl && !p.images.some((img) => img.assetUrl === v.imageUrl))
      errors[`variants.${i}.imageUrl`] = "Choose one of the product's images for this variant.";
    const names = Object.keys(v.attributes);
    if (p.variants.length > 1 || options.length > 0) {
      for (const o of options) if (!v.attributes[o]) errors[`variants.${i}.attributes.${o}`] = 'Choose a value for every option.';
      for (const n of names) if (!options.includes(n)) errors[`variants.${i}.attributes.${n}`] = platformMessages.notExpectedOption(n);
      const combo = options.map((o) => v.attributes[o] ?? '').join('\u0000');
      if (options.length > 0 && combos.has(combo)) errors[`variants.${i}.attributes`] = platformMessages.tagExists('variant');
      combos.add(combo);
    }
  });
  if (p.variants.length > 1 && options.length === 0)
    errors.variantOptionOrdering = 'Add an option (such as Size) so visitors can tell the variants apart.';
  if (p.status === 'scheduled' && (!p.publishOn || new Date(p.publishOn).getTime() <= Date.now())) errors.publishOn = SCHEDULED_IN_PAST;
  if (p.isSubscribable && !p.subscriptionPlan) errors.subscriptionPlan = 'Choose how often the subscription renews.';
  if (p.isSubscribable && p.productType !== ProductType.PHYSICAL && p.productType !== ProductType.SERVICE) {
    errors.isSubscribable = 'Only physical and service products can be subscribed to.';
  }
  return errors;
}

function structuredContentOf(p: ProductIn): Record<string, unknown> {
  return {
    productType: p.productType,
    isSubscribable: p.isSubscribable,
    ...(p.isSubscribable && p.subscriptionPlan ? { subscriptionPlan: p.subscriptionPlan } : {}),
    additionalFieldsFormId: p.additionalFieldsFormId ?? undefined,
    variantOptionOrdering: p.variantOptionOrdering,
    useCustomAddButtonText: p.useCustomAddButtonText,
    customAddButtonText: p.customAddButtonText,
    // Written only when set, so a product saved without SEO text is stored exactly as before.
    seoTitle: p.seoTitle || undefined,
    seoDescription: p.seoDescription || undefined,
  };
}

function assetsOf(p: ProductIn): Record<string, unknown>[] {
  return p.images.map((i) => ({
    assetUrl: i.assetUrl,
    altText: i.altText,
    originalSize: i.originalSize ?? '1000x1000',
    mediaFocalPoint: i.mediaFocalPoint ?? { x: 0.5, y: 0.5 },
  }));
}

type VariantRow = typeof productVariants.$inferSelect;

/**
 * The product's option names: the stored ordering, else the attribute names its variants use, in first-seen
 * order. Products stored without an ordering (the demo data before issue 24, imports) would otherwise come
 * back from GET with attributes that PUT refuses ('Color is not one of the expected options').
 */
export function optionOrderingOf(stored: unknown, variants: Array<{ attributes: Record<string, string> | null }>): string[] {
  if (Array.isArray(stored) && stored.length > 0) return stored.map(String);
  const names: string[] = [];
  for (const v of variants) for (const k of Object.keys(v.attributes ?? {})) if (!names.includes(k)) names.push(k);
  return names;
}
type ItemRow = typeof items.$inferSelect;

function focalOf(v: unknown): { x: number; y: number } {
  const f = (v ?? {}) as { x?: unknown; y?: unknown };
  const clamp = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0.5);
  return { x: clamp(f.x), y: clamp(f.y) };
}

function productJson(item: ItemRow, variants: VariantRow[]) {
  const sc = item.structuredContent;
  return {
    id: item.id,
    collectionId: item.collectionId,
    version: item.version,
    title: item.title,
    urlId: item.urlId,
    body: item.body,
    excerpt: item.excerpt,
    status: item.status,
    publishOn: item.publishOn.toISOString(),
    tags: item.tags,
    categories: item.categories,
    seoTitle: String(sc.seoTitle ?? ''),
    seoDescription: String(sc.seoDescription ?? ''),
    images: item.assets.map((a) => ({
      assetUrl: String(a.assetUrl ?? ''),
      altText: String(a.altText ?? ''),
      originalSize: a.originalSize,
      mediaFocalPoint: focalOf(a.mediaFocalPoint),
    })),
    productType: Number(sc.productType ?? ProductType.PHYSICAL),
    isSubscribable: sc.isSubscribable === true,
    subscriptionPlan: (sc.subscriptionPlan as unknown) ?? null,
    additionalFieldsFormId: (sc.additionalFieldsFormId as string | undefined) ?? null,
    variantOptionOrdering: optionOrderingOf(sc.variantOptionOrdering, variants),
    useCustomAddButtonText: sc.useCustomAddButtonText === true,
    customAddButtonText: String(sc.customAddButtonText ?? ''),
    variants: variants.map((v) => ({
      id: v.id,
      sku: v.sku,
      attributes: v.attributes,
      priceCents: v.priceCents,
      salePriceCents: v.salePriceCents,
      onSale: v.onSale,
      qtyInStock: v.qtyInStock,
      unlimited: v.unlimited,
      weightGrams: v.weightGrams,
      dimensions: v.dimensions ?? null,
      imageUrl: v.imageUrl,
      lowStockThreshold: v.lowStockThreshold,
    })),
  };
}

// ---- Product reads and writes (shared by the routes and the CSV import) -------------------------

export const loadProduct = async (tx: Tx | Db, id: string, websiteId: string) => {
  const [item] = await tx
    .select()
    .from(items)
    .where(and(eq(items.id, id), eq(items.websiteId, websiteId), eq(items.recordType, RecordType.STORE_ITEM)));
  if (!item) return null;
  const variants = await tx.select().from(productVariants).where(eq(productVariants.itemId, id)).orderBy(asc(productVariants.ordering));
  return { item, variants };
};

export const storeCollection = async (tx: Tx, id: string | undefined, websiteId: string) => {
  if (!id) throw badRequest('Choose the store this product belongs to.', { collectionId: 'Choose the store this product belongs to.' });
  const [c] = await tx
    .select()
    .from(collections)
    .where(and(eq(collections.id, id), eq(collections.websiteId, websiteId)));
  if (!c || c.type !== CollectionType.PRODUCTS)
    throw badRequest('Choose the store this product belongs to.', { collectionId: 'Choose the store this product belongs to.' });
  return c;
};

/**
 * Locks the collection row, then counts its items: a product joins only while the store holds
 * fewer than 200. The lock makes two concurrent adds take turns, so
 * they cannot pass the limit together. Answers the count (the new item's ordering).
 */
export const lockRoomFor = async (tx: Tx, c: typeof collections.$inferSelect, adding = 1) => {
  await tx.select({ id: collections.id }).from(collections).where(eq(collections.id, c.id)).for('update');
  const [n] = await rows<{ n: number | string }>(tx, sql`select count(*) as n from items where collection_id = ${c.id}`);
  const count = Number(n?.n ?? 0);
  const full = collectionAddError(c, count, adding);
  if (full) throw badRequest(full, { collectionId: full });
  return count;
};

export const itemUrlId = async (tx: Tx, collectionId: string, wanted: string, title: string, selfId?: string) => {
  const base = slugify(wanted || title) || 'item';
  const rows = await tx
    .select({ urlId: items.urlId })
    .from(items)
    .where(selfId ? and(eq(items.collectionId, collectionId), ne(items.id, selfId)) : eq(items.collectionId, collectionId));
  const taken = new Set(rows.map((r) => r.urlId));
  if (wanted && taken.has(base)) throw badRequest(platformMessages.tagExists('URL'), { urlId: platformMessages.tagExists('URL') });
  return nextFreeSlug(base, taken);
};

/** Writes the variants of a product: updated in place, added, removed; stock hooks run for changed stock. */
export const saveVariants = async (tx: Tx, itemId: string, before: VariantRow[], wanted: ProductIn['variants']) => {
  const byId = new Map(before.map((v) => [v.id, v]));
  const keep = new Set(wanted.map((v) => v.id).filter((x): x is string => !!x && byId.has(x)));
  const gone = before.filter((v) => !keep.has(v.id)).map((v) => v.id);
  if (gone.length) await tx.delete(productVariants).where(inArray(productVariants.id, gone));
  // SKUs are unique per product: free the kept variants' SKUs first so two variants may swap theirs.
  for (const id of keep)
    await tx
      .update(productVariants)
      .set({ sku: `__tmp_${id}` })
      .where(eq(productVariants.id, id));
  let ordering = 0;
  for (const v of wanted) {
    const values = {
      sku: v.sku,
      attributes: v.attributes,
      priceCents: v.priceCents,
      salePriceCents: v.salePriceCents,
      onSale: v.onSale,
      qtyInStock: Math.min(v.qtyInStock, QUANTITY_MAX * 100),
      unlimited: v.unlimited,
      weightGrams: v.weightGrams,
      dimensions: v.dimensions,
      imageUrl: v.imageUrl,
      lowStockThreshold: v.lowStockThreshold,
      ordering: ordering++,
    };
    const old = v.id ? byId.get(v.id) : undefined;
    if (old) {
      await tx.update(productVariants).set(values).where(eq(productVariants.id, old.id));
      if (old.qtyInStock !== values.qtyInStock || old.unlimited !== values.unlimited) {
        for (const hook of stockChangedHooks) {
          await hook(
            tx,
            old.id,
            { qtyInStock: old.qtyInStock, unlimited: old.unlimited },
            { qtyInStock: values.qtyInStock, unlimited: values.unlimited },
          );
        }
      }
    } else {
      await tx.insert(productVariants).values({ id: newId(), itemId, ...values });
    }
  }
};

/** The additional-fields form must exist (forms area's table), unless it is the one the product has already. */
export const checkForm = async (tx: Tx, formId: string | null | undefined, current?: unknown) => {
  if (!formId || formId === current) return;
  const found = await rows<{ id: string }>(tx, sql`select id from forms where id = ${formId} limit 1`);
  if (found.length === 0)
    throw badRequest(platformMessages.notExpectedOption(formId), { additionalFieldsFormId: platformMessages.notExpectedOption(formId) });
};

/** Names the reason of the stock changes `tx` makes, for the stock_movements trigger (migration 0019). */
export async function stockReason(tx: Tx, reason: 'manual' | 'import') {
  await tx.execute(sql`select set_config('tessera.stock_reason', ${reason}, true)`);
}

export const SKU_TAKEN = (sku: string) => `The SKU ${sku} is already used by another product. Choose another one.`;

/** A SKU names one variant in the whole store: none of `variants` may use a SKU of another product of the site. */
export async function checkStoreSkus(tx: Tx, websiteId: string, variants: Array<{ sku: string }>, selfId: string | null) {
  if (variants.length === 0) return;
  const wanted = variants.map((v) => v.sku.toLowerCase());
  const taken = await rows<{ sku: string }>(
    tx,
    sql`select v.sku from product_variants v join items i on i.id = v.item_id
        where i.website_id = ${websiteId} and lower(v.sku) in (${sql.join(
          wanted.map((w) => sql`${w}`),
          sql`, `,
        )})
        ${selfId ? sql`and i.id <> ${selfId}` : sql``} limit 1`,
  );
  if (taken[0]) {
    const i = wanted.indexOf(taken[0].sku.toLowerCase());
    const message = SKU_TAKEN(taken[0].sku);
    throw badRequest(message, { [`variants.${i}.sku`]: message });
  }
}

/** Writes a new product (checked with productErrors) in `tx`; answers its JSON. Used by the editor and the CSV import. */
export async function createProductTx(tx: Tx, websiteId: string, accountId: string, p: ProductIn, reason: 'manual' | 'import' = 'manual') {
  await stockReason(tx, reason);
  const c = await storeCollection(tx, p.collectionId, websiteId);
  await checkForm(tx, p.additionalFieldsFormId);
  await checkStoreSkus(tx, websiteId, p.variants, null);
  const count = await lockRoomFor(tx, c);
  const id = newId();
  const urlId = await itemUrlId(tx, c.id, p.urlId ?? '', p.title);
  await tx.insert(items).values({
    id,
    websiteId: websiteId,
    collectionId: c.id,
    urlId,
    title: p.title,
    recordType: RecordType.STORE_ITEM,
    body: cleanOwnerHtml(p.body),
    excerpt: p.excerpt !== undefined ? ownerPlainText(p.excerpt) : ownerPlainText(p.body).slice(0, 250),
    status: p.status,
    publishOn: p.publishOn ? new Date(p.publishOn) : new Date(),
    tags: p.tags,
    categories: p.categories ?? [],
    assets: assetsOf(p),
    structuredContent: structuredContentOf(p),
    ordering: count,
  });
  await saveVariants(tx, id, [], p.variants);
  const saved = (await loadProduct(tx, id, websiteId))!;
  await audit(tx, {
    websiteId: websiteId,
    accountId: accountId,
    action: 'product.create',
    entity: 'product',
    entityId: id,
    after: productJson(saved.item, saved.variants),
  });
  return productJson(saved.item, saved.variants);
}

/** Updates product `id` (the version must match) in `tx`; answers its JSON. Used by the editor and the CSV import. */
export async function updateProductTx(
  tx: Tx,
  websiteId: string,
  accountId: string,
  id: string,
  p: ProductIn,
  reason: 'manual' | 'import' = 'manual',
) {
  await stockReason(tx, reason);
  const [locked] = await tx
    .select()
    .from(items)
    .where(and(eq(items.id, id), eq(items.websiteId, websiteId)))
    .for('update');
  if (!locked || locked.recordType !== RecordType.STORE_ITEM) throw notFound('No such product.');
  if (locked.version !== p.version) throw staleEdit(locked.version);
  const before = (await loadProduct(tx, id, websiteId))!;
  await checkForm(tx, p.additionalFieldsFormId, locked.structuredContent.additionalFieldsFormId);
  await checkStoreSkus(tx, websiteId, p.variants, id);
  const target =
    p.collectionId && p.collectionId !== locked.collectionId ? await storeCollection(tx, p.collectionId, websiteId) : undefined;
  // Moving the product into another store adds it there: the same limit applies.
  if (target) await lockRoomFor(tx, target);
  const collectionId = target?.id ?? locked.collectionId;
  const urlId =
    p.urlId && p.urlId === locked.urlId && collectionId === locked.collectionId
      ? locked.urlId
      : await itemUrlId(tx, collectionId, p.urlId ?? '', p.title, id);
  await tx
    .update(items)
    .set({
      collectionId,
      urlId,
      title: p.title,
      body: cleanOwnerHtml(p.body),
      excerpt: p.excerpt !== undefined ? ownerPlainText(p.excerpt) : locked.excerpt,
      status: p.status,
      // Publishing stamps the time it went live; scheduling keeps the chosen time.
      publishOn:
        p.status === 'scheduled' && p.publishOn
          ? new Date(p.publishOn)
          : p.status === 'published' && locked.status !== 'published'
            ? new Date()
            : locked.publishOn,
      tags: p.tags,
      categories: p.categories ?? locked.categories,
      assets: assetsOf(p),
      structuredContent: {
        ...locked.structuredContent,
        ...structuredContentOf(p),
        ...(p.isSubscribable ? {} : { subscriptionPlan: undefined }),
        // An inline form copy only stays with the form it copies.
        ...(p.additionalFieldsFormId === locked.structuredContent.additionalFieldsFormId ? {} : { additionalFieldsForm: undefined }),
      },
      version: locked.version + 1,
      updatedAt: new Date(),
    })
    .where(and(eq(items.id, id), eq(items.version, locked.version)));
  await saveVariants(tx, id, before.variants, p.variants);
  const saved = (await loadProduct(tx, id, websiteId))!;
  await audit(tx, {
    websiteId: websiteId,
    accountId: accountId,
    action: 'product.update',
    entity: 'product',
    entityId: id,
    before: productJson(before.item, before.variants),
    after: productJson(saved.item, saved.variants),
  });
  return productJson(saved.item, saved.variants);
}

/** The store pages (product collections) of a website, in navigation order. */
export async function listStores(db: Db, websiteId: string) {
  const rows = await db
    .select()
    .from(collections)
    .where(and(eq(collections.websiteId, websiteId), eq(collections.type, CollectionType.PRODUCTS)))
    .orderBy(asc(collections.ordering));
  return rows.map((c) => ({ id: c.id, title: c.title, urlId: c.urlId, enabled: c.enabled }));
}

/** The product editor's list: every product (of one store, when given) with its variant count, stock and lowest price. */
export async function listProducts(db: Db, websiteId: string, collectionId: string | undefined) {
  const where = collectionId
    ? and(eq(items.websiteId, websiteId), eq(items.recordType, RecordType.STORE_ITEM), eq(items.collectionId, collectionId))
    : and(eq(items.websiteId, websiteId), eq(items.recordType, RecordType.STORE_ITEM));
  const list = await db.select().from(items).where(where).orderBy(asc(items.ordering), asc(items.createdAt));
  const vs = await variantsOfItems(
    db,
    list.map((i) => i.id),
  );
  return list.map((i) => {
    const mine = vs.filter((v) => v.itemId === i.id);
    return {
      id: i.id,
      collectionId: i.collectionId,
      title: i.title,
      urlId: i.urlId,
      status: i.status,
      version: i.version,
      productType: Number(i.structuredContent.productType ?? 1),
      variantCount: mine.length,
      stock: mine.some((v) => v.unlimited) ? null : mine.reduce((s, v) => s + v.qtyInStock, 0),
      minPriceCents: mine.length ? Math.min(...mine.map((v) => (v.onSale ? v.salePriceCents : v.priceCents))) : 0,
    };
  });
}

/** A product's editor JSON, or null when the website has no such product. */
export async function productOf(db: Db, websiteId: string, id: string) {
  const p = await loadProduct(db, id, websiteId);
  return p ? productJson(p.item, p.variants) : null;
}

/** The product and its variants checked against each other: a 400 naming the first problem. */
export function checkedProduct(p: ProductIn): ProductIn {
  const errors = productErrors(p);
  const first = Object.values(errors)[0];
  if (first) throw badRequest(first, errors);
  return p;
}

/** Deletes product `id` (the version must match) in `tx`, with its audit row. */
export async function deleteProductTx(tx: Tx, websiteId: string, accountId: string, id: string, version: number) {
  const [locked] = await tx
    .select()
    .from(items)
    .where(and(eq(items.id, id), eq(items.websiteId, websiteId)))
    .for('update');
  if (!locked || locked.recordType !== RecordType.STORE_ITEM) throw notFound('No such product.');
  if (locked.version !== version) throw conflict(STALE_EDIT);
  const before = (await loadProduct(tx, id, websiteId))!;
  await tx.delete(items).where(eq(items.id, id));
  await audit(tx, {
    websiteId,
    accountId,
    action: 'product.delete',
    entity: 'product',
    entityId: id,
    before: productJson(before.item, before.variants),
  });
}
