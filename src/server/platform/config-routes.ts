/**
 * The data calls of the /config admin: products (with variants and stock), collections, pages and journal
 * posts, store settings, team members and the audit log. Every write is one transaction, checks the
 * row's `version` (a second owner saving over a first one is refused, nothing is overwritten) and leaves an
 * audit row.
 */
import { isEmailAddress } from '../../core/email.js';
import { parseInput } from './validate.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { rows } from '../db-util.js';
import { z } from 'zod';
import type { Db, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { productIn, type ProductIn } from '../../core/api/catalog.js';
import { CONTENT_STATUSES as STATUSES, cents, contentStatus as status } from '../../core/api/common.js';
import { newId } from '../../db/ids.js';
import { CollectionType, ProductType, RecordType, Role, isEnumValue } from '../../core/enums.js';
import { platform as platformMessages, pageEditor as pageEditorMessages } from '../../core/messages.js';
import { slugify, nextFreeSlug } from '../../core/slug.js';
import { SUPPORTED_CURRENCIES } from '../../core/money.js';
import { QUANTITY_MAX } from '../../core/constants.js';
import { categoryListErrors, collectionAddError, tagListErrors } from '../../core/content.js';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../errors.js';
import { postCover } from '../editor/posts.js';
import { hashPassword } from './passwords.js';
import { audit } from './audit.js';
import { appReservedUrlIds, changeSettings } from './settings.js';
import { stockChangedHooks } from './stock-hooks.js';
import { cleanOwnerHtml, ownerPlainText } from '../content/owner-html.js';
import { can } from '../../core/roles.js';

export const STALE_EDIT = 'Someone else saved this since you opened it. Reload to see their changes: nothing was overwritten.';

const { items, productVariants, collections, accounts, auditLog } = schema;

// ------------------------------------------------------------------------------------------------
// Shapes
// ------------------------------------------------------------------------------------------------

// The product editor's request shapes are the contract's (core/api/catalog.ts).
export { SEO_TITLE_MAX, SEO_DESCRIPTION_MAX, productIn, type ProductIn } from '../../core/api/catalog.js';

export const SCHEDULED_IN_PAST = 'Choose a time in the future to schedule this product, or publish it now.';

const idParam = z.object({ id: z.string().min(1).max(64) });
const versionQuery = z.object({ version: z.coerce.number().int() });

// ------------------------------------------------------------------------------------------------
// Product rules
// ------------------------------------------------------------------------------------------------

/** Checks the variants against each other and against the options; answers the per-field errors. */
export function productErrors(p: ProductIn): Record<string, string> {
  const errors: Record<string, string> = { ...tagListErrors(p.tags), ...categoryListErrors(p.categories ?? []) };
  const skus = new Set<string>();
  const combos = new Set<string>();
  const options = p.variantOptionOrdering;
  if (new Set(options.map((o) => o.toLowerCase())).size !== options.length) errors.variantOptionOrdering = platformMessages.tagExists('option');
  p.variants.forEach((v, i) => {
    if (skus.has(v.sku.toLowerCase())) errors[`variants.${i}.sku`] = platformMessages.tagExists('SKU');
    skus.add(v.sku.toLowerCase());
    if (v.onSale && v.salePriceCents >= v.priceCents) errors[`variants.${i}.salePriceCents`] = 'The sale price must be lower than the price.';
    if (v.imageUrl && !p.images.some((img) => img.assetUrl === v.imageUrl)) errors[`variants.${i}.imageUrl`] = 'Choose one of the product\'s images for this variant.';
    const names = Object.keys(v.attributes);
    if (p.variants.length > 1 || options.length > 0) {
      for (const o of options) if (!v.attributes[o]) errors[`variants.${i}.attributes.${o}`] = 'Choose a value for every option.';
      for (const n of names) if (!options.includes(n)) errors[`variants.${i}.attributes.${n}`] = platformMessages.notExpectedOption(n);
      const combo = options.map((o) => v.attributes[o] ?? '').join('\u0000');
      if (options.length > 0 && combos.has(combo)) errors[`variants.${i}.attributes`] = platformMessages.tagExists('variant');
      combos.add(combo);
    }
  });
  if (p.variants.length > 1 && options.length === 0) errors.variantOptionOrdering = 'Add an option (such as Size) so visitors can tell the variants apart.';
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
  return p.images.map((i) => ({ assetUrl: i.assetUrl, altText: i.altText, originalSize: i.originalSize ?? '1000x1000', mediaFocalPoint: i.mediaFocalPoint ?? { x: 0.5, y: 0.5 } }));
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
    images: item.assets.map((a) => ({ assetUrl: String(a.assetUrl ?? ''), altText: String(a.altText ?? ''), originalSize: a.originalSize, mediaFocalPoint: focalOf(a.mediaFocalPoint) })),
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

// ------------------------------------------------------------------------------------------------
// Routes
// ------------------------------------------------------------------------------------------------

// ---- Product writes (shared by the routes and the CSV import) -----------------------------------

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
  const [c] = await tx.select().from(collections).where(and(eq(collections.id, id), eq(collections.websiteId, websiteId)));
  if (!c || c.type !== CollectionType.PRODUCTS) throw badRequest('Choose the store this product belongs to.', { collectionId: 'Choose the store this product belongs to.' });
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
  for (const id of keep) await tx.update(productVariants).set({ sku: `__tmp_${id}` }).where(eq(productVariants.id, id));
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
          await hook(tx, old.id, { qtyInStock: old.qtyInStock, unlimited: old.unlimited }, { qtyInStock: values.qtyInStock, unlimited: values.unlimited });
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
  if (found.length === 0) throw badRequest(platformMessages.notExpectedOption(formId), { additionalFieldsFormId: platformMessages.notExpectedOption(formId) });
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
        where i.website_id = ${websiteId} and lower(v.sku) in (${sql.join(wanted.map((w) => sql`${w}`), sql`, `)})
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
  await audit(tx, { websiteId: websiteId, accountId: accountId, action: 'product.create', entity: 'product', entityId: id, after: productJson(saved.item, saved.variants) });
  return productJson(saved.item, saved.variants);
}

/** Updates product `id` (the version must match) in `tx`; answers its JSON. Used by the editor and the CSV import. */
export async function updateProductTx(tx: Tx, websiteId: string, accountId: string, id: string, p: ProductIn, reason: 'manual' | 'import' = 'manual') {
  await stockReason(tx, reason);
  const [locked] = await tx.select().from(items).where(and(eq(items.id, id), eq(items.websiteId, websiteId))).for('update');
  if (!locked || locked.recordType !== RecordType.STORE_ITEM) throw notFound('No such product.');
  if (locked.version !== p.version) throw new HttpError(409, STALE_EDIT, undefined, { currentVersion: locked.version });
  const before = (await loadProduct(tx, id, websiteId))!;
  await checkForm(tx, p.additionalFieldsFormId, locked.structuredContent.additionalFieldsFormId);
  await checkStoreSkus(tx, websiteId, p.variants, id);
  const target = p.collectionId && p.collectionId !== locked.collectionId ? await storeCollection(tx, p.collectionId, websiteId) : undefined;
  // Moving the product into another store adds it there: the same limit applies.
  if (target) await lockRoomFor(tx, target);
  const collectionId = target?.id ?? locked.collectionId;
  const urlId = p.urlId && p.urlId === locked.urlId && collectionId === locked.collectionId ? locked.urlId : await itemUrlId(tx, collectionId, p.urlId ?? '', p.title, id);
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
      publishOn: p.status === 'scheduled' && p.publishOn ? new Date(p.publishOn) : p.status === 'published' && locked.status !== 'published' ? new Date() : locked.publishOn,
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

export async function configRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const websites = app.services.websites;
  const storeRoles = { preHandler: app.requireOwner(can('products', 'write')) };
  const contentRoles = { preHandler: app.requireOwner(can('pages', 'write')) };
  const settingsRoles = { preHandler: app.requireOwner(can('navigation', 'write')) };
  const readRoles = { preHandler: app.requireOwner(can('products', 'read')) };
  const navigationRead = { preHandler: app.requireOwner(can('navigation', 'read')) };
  const pagesRead = { preHandler: app.requireOwner(can('pages', 'read')) };
  const storeSettingsRead = { preHandler: app.requireOwner(can('store-settings', 'read')) };
  const storeSettings = { preHandler: app.requireOwner(can('store-settings', 'write')) };
  const teamRead = { preHandler: app.requireOwner(can('team', 'read')) };
  const adminOnly = { preHandler: app.requireOwner(can('team', 'write')) };
  const siteOf = async (req: FastifyRequest) => {
    const site = await websites.get();
    if (req.owner!.websiteId !== site.id) throw notFound('No such website.');
    return site;
  };

  // ---- Stores and products ----------------------------------------------------------------------
  app.get('/api/config/stores', navigationRead, async (req) => {
    const site = await siteOf(req);
    const rows = await db
      .select()
      .from(collections)
      .where(and(eq(collections.websiteId, site.id), eq(collections.type, CollectionType.PRODUCTS)))
      .orderBy(asc(collections.ordering));
    return { stores: rows.map((c) => ({ id: c.id, title: c.title, urlId: c.urlId, enabled: c.enabled })) };
  });

  app.get('/api/config/products', readRoles, async (req) => {
    const site = await siteOf(req);
    const q = z.object({ collectionId: z.string().max(64).optional() }).parse(req.query ?? {});
    const where = q.collectionId
      ? and(eq(items.websiteId, site.id), eq(items.recordType, RecordType.STORE_ITEM), eq(items.collectionId, q.collectionId))
      : and(eq(items.websiteId, site.id), eq(items.recordType, RecordType.STORE_ITEM));
    const list = await db.select().from(items).where(where).orderBy(asc(items.ordering), asc(items.createdAt));
    const vs = list.length ? await db.select().from(productVariants).where(inArray(productVariants.itemId, list.map((i) => i.id))) : [];
    return {
      products: list.map((i) => {
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
      }),
    };
  });

  app.get('/api/config/products/:id', readRoles, async (req, reply) => {
    const { id } = parseInput(idParam, req.params);
    const site = await siteOf(req);
    const p = await loadProduct(db, id, site.id);
    if (!p) throw notFound('No such product.');
    reply.header('cache-control', 'no-store');
    return productJson(p.item, p.variants);
  });

  const checkedProduct = (body: unknown): ProductIn => {
    const p = parseInput(productIn, body);
    const errors = productErrors(p);
    const first = Object.values(errors)[0];
    if (first) throw badRequest(first, errors);
    return p;
  };

  app.post('/api/config/products', storeRoles, async (req, reply) => {
    const p = checkedProduct(req.body);
    const site = await siteOf(req);
    const out = await db.transaction((tx) => createProductTx(tx, site.id, req.owner!.id, p));
    return reply.status(201).send(out);
  });

  app.put('/api/config/products/:id', storeRoles, async (req) => {
    const { id } = parseInput(idParam, req.params);
    const p = checkedProduct(req.body);
    if (p.version === undefined) throw badRequest('version is required.', { version: 'version is required.' });
    const site = await siteOf(req);
    return db.transaction((tx) => updateProductTx(tx, site.id, req.owner!.id, id, p));
  });

  app.delete('/api/config/products/:id', storeRoles, async (req) => {
    const { id } = parseInput(idParam, req.params);
    const { version } = parseInput(versionQuery, req.query);
    const site = await siteOf(req);
    await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(items).where(and(eq(items.id, id), eq(items.websiteId, site.id))).for('update');
      if (!locked || locked.recordType !== RecordType.STORE_ITEM) throw notFound('No such product.');
      if (locked.version !== version) throw conflict(STALE_EDIT);
      const before = (await loadProduct(tx, id, site.id))!;
      await tx.delete(items).where(eq(items.id, id));
      await audit(tx, { websiteId: site.id, accountId: req.owner!.id, action: 'product.delete', entity: 'product', entityId: id, before: productJson(before.item, before.variants) });
    });
    return { ok: true };
  });

  // ---- Collections (and navigation titles) --------------------------------------------------------
  const collectionIn = z.object({
    version: z.number().int(),
    title: z.string().trim().min(1, 'Enter a title.').max(200),
    navigationTitle: z.string().trim().max(200).optional(),
    urlId: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(10_000).optional(),
    enabled: z.boolean().optional(),
    /** Keep search engines away: the page is tagged noindex and left out of the sitemap and feeds (server/seo). */
    noindex: z.boolean().optional(),
  });
  const collectionJson = (c: typeof collections.$inferSelect) => ({
    id: c.id,
    title: c.title,
    navigationTitle: c.navigationTitle,
    urlId: c.urlId,
    description: c.description,
    enabled: c.enabled,
    type: c.type,
    typeName: c.typeName,
    version: c.version,
    body: typeof c.settings.body === 'string' ? c.settings.body : undefined,
    noindex: c.settings.noindex === true,
  });
  app.get('/api/config/collections', navigationRead, async (req) => {
    const site = await siteOf(req);
    const rows = await db.select().from(collections).where(eq(collections.websiteId, site.id)).orderBy(asc(collections.ordering));
    return { collections: rows.map(collectionJson) };
  });

  /** Saves a collection's fields with the version check; shared by collections and pages. */
  const saveCollection = async (req: FastifyRequest, id: string, body: z.infer<typeof collectionIn>, extra: Record<string, unknown> = {}, onlyPages = false) => {
    const site = await siteOf(req);
    return db.transaction(async (tx) => {
      const [c] = await tx.select().from(collections).where(and(eq(collections.id, id), eq(collections.websiteId, site.id))).for('update');
      if (!c || (onlyPages && c.typeName !== 'page')) throw notFound('No such page.');
      if (c.version !== body.version) throw new HttpError(409, STALE_EDIT, undefined, { currentVersion: c.version });
      let urlId = c.urlId;
      if (body.urlId !== undefined && slugify(body.urlId) !== c.urlId) {
        urlId = slugify(body.urlId);
        if (!urlId) throw badRequest(platformMessages.notValidPageUrl(body.urlId), { urlId: platformMessages.notValidPageUrl(body.urlId) });
        const taken = await tx.select({ id: collections.id }).from(collections).where(and(eq(collections.websiteId, site.id), eq(collections.urlId, urlId)));
        if (taken.length || appReservedUrlIds(app).has(urlId)) throw badRequest(platformMessages.tagExists('URL'), { urlId: platformMessages.tagExists('URL') });
      }
      const [updated] = await tx
        .update(collections)
        .set({
          title: body.title,
          navigationTitle: body.navigationTitle ?? c.navigationTitle,
          urlId,
          description: body.description ?? c.description,
          enabled: body.enabled ?? c.enabled,
          settings: { ...c.settings, ...extra, ...(body.noindex === undefined ? {} : { noindex: body.noindex }) },
          version: c.version + 1,
          updatedAt: new Date(),
        })
        .where(eq(collections.id, id))
        .returning();
      await audit(tx, { websiteId: site.id, accountId: req.owner!.id, action: onlyPages ? 'page.update' : 'collection.update', entity: 'collection', entityId: id, before: collectionJson(c), after: collectionJson(updated!) });
      return collectionJson(updated!);
    });
  };

  app.put('/api/config/collections/:id', settingsRoles, async (req) => {
    const { id } = parseInput(idParam, req.params);
    return saveCollection(req, id, parseInput(collectionIn, req.body));
  });

  // ---- Pages --------------------------------------------------------------------------------------
  const pageIn = collectionIn.extend({ body: z.string().max(500_000).optional().default('') });
  const newPageIn = pageIn.omit({ version: true });
  app.get('/api/config/pages', pagesRead, async (req) => {
    const site = await siteOf(req);
    const rows = await db
      .select()
      .from(collections)
      .where(and(eq(collections.websiteId, site.id), eq(collections.typeName, 'page')))
      .orderBy(asc(collections.ordering));
    return { pages: rows.map(collectionJson) };
  });
  app.post('/api/config/pages', contentRoles, async (req, reply) => {
    const body = parseInput(newPageIn, req.body);
    const site = await siteOf(req);
    const out = await db.transaction(async (tx) => {
      const taken = await tx.select({ urlId: collections.urlId }).from(collections).where(eq(collections.websiteId, site.id));
      const reserved = appReservedUrlIds(app);
      const asked = body.urlId === undefined ? '' : slugify(body.urlId);
      // A reserved url id the owner typed is refused; one made from the title skips to the next free suffix.
      if (reserved.has(asked)) throw badRequest(platformMessages.tagExists('URL'), { urlId: platformMessages.tagExists('URL') });
      const all = new Set([...taken.map((t) => t.urlId), ...reserved]);
      const urlId = nextFreeSlug((body.urlId === undefined ? slugify(body.title) : asked) || 'page', all);
      const [row] = await tx
        .insert(collections)
        .values({
          id: newId(),
          websiteId: site.id,
          urlId,
          title: body.title,
          navigationTitle: body.navigationTitle ?? body.title,
          description: body.description ?? '',
          enabled: body.enabled ?? true,
          type: CollectionType.PAGE,
          typeName: 'page',
          ordering: taken.length,
          settings: { body: cleanOwnerHtml(body.body) },
        })
        .returning();
      await audit(tx, { websiteId: site.id, accountId: req.owner!.id, action: 'page.create', entity: 'collection', entityId: row!.id, after: collectionJson(row!) });
      return collectionJson(row!);
    });
    return reply.status(201).send(out);
  });
  app.put('/api/config/pages/:id', contentRoles, async (req) => {
    const { id } = parseInput(idParam, req.params);
    const body = parseInput(pageIn, req.body);
    return saveCollection(req, id, body, { body: cleanOwnerHtml(body.body) }, true);
  });

  // ---- Journal posts ------------------------------------------------------------------------------
  const postIn = z.object({
    version: z.number().int().optional(),
    collectionId: z.string().max(64).optional(),
    title: z.string({ error: 'Enter a title.' }).trim().min(1, 'Enter a title.').max(300),
    urlId: z.string().trim().max(200).optional(),
    /** The classic HTML body (raw HTML: an admin's, see rawBodyGuard). Left out, an edit keeps the stored body (the editor writes it as blocks). */
    body: z.string().max(500_000).optional(),
    excerpt: z.string().max(2000).optional().default(''),
    /** Left out, a new post is by the signed-in staff member (their display name) and an edit keeps the stored author. */
    author: z.string().max(200).optional(),
    /** The cover image (an uploaded image), null to remove it; left out, an edit keeps it. */
    cover: z
      .object({
        assetUrl: z.string().max(300).regex(/^\/uploads\/[A-Za-z0-9._-]+$/, 'Choose an uploaded image.'),
        altText: z.string().max(250).optional().default(''),
        originalSize: z.string().max(20).regex(/^\d{1,6}x\d{1,6}$/).nullable().optional(),
      })
      .nullable()
      .optional(),
    // Lengths checked by postLimits (tag 50, category 25 characters). Left out, an edit keeps the stored ones.
    tags: z.array(z.string().trim().min(1).max(1000)).max(100).optional(),
    categories: z.array(z.string().trim().min(1).max(1000)).max(100).optional(),
    status,
    publishOn: z.iso.datetime({ offset: true, error: 'Choose a valid date and time.' }).optional(),
    /** 1 opens the post's comments, 0 closes them. Left out, a new post follows the site's comments setting and an edit keeps the stored state. */
    commentState: z.union([z.literal(0), z.literal(1)], { error: (i) => platformMessages.notExpectedOption(String(i.input)) }).optional(),
  });
  const postJson = (i: ItemRow) => ({
    id: i.id,
    collectionId: i.collectionId,
    title: i.title,
    urlId: i.urlId,
    body: i.body,
    /** Whether the body is a layout of the editor (published or a draft), not only the classic HTML. */
    hasLayout: i.layout !== null || i.layoutDraft !== null,
    cover: postCover(i),
    excerpt: i.excerpt,
    author: i.author,
    tags: i.tags,
    categories: i.categories,
    status: i.status,
    publishOn: i.publishOn.toISOString(),
    commentState: i.commentState,
    version: i.version,
  });
  app.get('/api/config/posts', pagesRead, async (req) => {
    const site = await siteOf(req);
    const journals = await db
      .select()
      .from(collections)
      .where(and(eq(collections.websiteId, site.id), eq(collections.typeName, 'blog')));
    const ids = journals.map((j) => j.id);
    const list = ids.length ? await db.select().from(items).where(inArray(items.collectionId, ids)).orderBy(desc(items.publishOn)) : [];
    // commentsDefault: the comment state a new post starts with (the site's comments-enabled setting).
    return { journals: journals.map((j) => ({ id: j.id, title: j.title, urlId: j.urlId })), posts: list.map(postJson), commentsDefault: site.settings.commentsEnabled === false ? 0 : 1, timeZone: site.timeZone };
  });
  const journalOf = async (tx: Tx, id: string | undefined, websiteId: string) => {
    const [j] = id ? await tx.select().from(collections).where(and(eq(collections.id, id), eq(collections.websiteId, websiteId))) : [];
    if (!j || j.typeName !== 'blog') throw badRequest('Choose the journal for this post.', { collectionId: 'Choose the journal for this post.' });
    return j;
  };
  /** A scheduled post needs a future date; anything else published in the future is scheduled. */
  const statusAt = (s: (typeof STATUSES)[number], publishOn: Date) => (s === 'published' && publishOn.getTime() > Date.now() ? 'scheduled' : s);
  /** A post's tags and categories within their lengths (tag 50, category 25), or a 400 naming the first that is not. */
  const postLimits = (body: z.infer<typeof postIn>) => {
    const errors = { ...tagListErrors(body.tags ?? []), ...categoryListErrors(body.categories ?? []) };
    const first = Object.values(errors)[0];
    if (first) throw badRequest(first, errors);
    return body;
  };
  /**
   * A post body written as HTML is raw HTML mode, an admin's (issue 27): other staff write the body in the editor's
   * blocks. They may send the stored body back unchanged. Whoever writes it, it is cleaned with the one allow-list.
   */
  const rawBodyGuard = (req: FastifyRequest, html: string | undefined, stored = '') => {
    if (html === undefined || req.owner!.role === Role.ADMIN) return;
    const clean = cleanOwnerHtml(html);
    if (clean !== '' && clean !== stored) throw forbidden(pageEditorMessages.RAW_HTML_ADMIN_ONLY);
  };
  const coverAssets = (cover: z.infer<typeof postIn>['cover'], stored: ItemRow['assets']) =>
    cover === undefined ? stored : cover === null ? [] : [{ assetUrl: cover.assetUrl, altText: ownerPlainText(cover.altText), ...(cover.originalSize ? { originalSize: cover.originalSize } : {}) }];
  app.post('/api/config/posts', contentRoles, async (req, reply) => {
    const body = postLimits(parseInput(postIn, req.body));
    rawBodyGuard(req, body.body);
    const site = await siteOf(req);
    const out = await db.transaction(async (tx) => {
      const j = await journalOf(tx, body.collectionId, site.id);
      const urlId = await itemUrlId(tx, j.id, body.urlId ?? '', body.title);
      const publishOn = body.publishOn ? new Date(body.publishOn) : new Date();
      const [row] = await tx
        .insert(items)
        .values({
          id: newId(),
          websiteId: site.id,
          collectionId: j.id,
          urlId,
          title: body.title,
          recordType: RecordType.TEXT,
          body: cleanOwnerHtml(body.body ?? ''),
          excerpt: ownerPlainText(body.excerpt),
          author: body.author ?? req.owner!.displayName ?? '',
          assets: coverAssets(body.cover, []),
          tags: body.tags ?? [],
          categories: body.categories ?? [],
          status: statusAt(body.status, publishOn),
          publishOn,
          // A new post's comment state follows the site's comments-enabled setting.
          commentState: body.commentState ?? (site.settings.commentsEnabled === false ? 0 : 1),
        })
        .returning();
      await audit(tx, { websiteId: site.id, accountId: req.owner!.id, action: 'post.create', entity: 'post', entityId: row!.id, after: postJson(row!) });
      return postJson(row!);
    });
    return reply.status(201).send(out);
  });
  app.put('/api/config/posts/:id', contentRoles, async (req) => {
    const { id } = parseInput(idParam, req.params);
    const body = postLimits(parseInput(postIn, req.body));
    if (body.version === undefined) throw badRequest('version is required.');
    const site = await siteOf(req);
    return db.transaction(async (tx) => {
      const [row] = await tx.select().from(items).where(and(eq(items.id, id), eq(items.websiteId, site.id))).for('update');
      if (!row || row.recordType !== RecordType.TEXT) throw notFound('No such post.');
      if (row.version !== body.version) throw new HttpError(409, STALE_EDIT, undefined, { currentVersion: row.version });
      rawBodyGuard(req, body.body, row.body);
      const urlId = body.urlId && body.urlId !== row.urlId ? await itemUrlId(tx, row.collectionId, body.urlId, body.title, id) : row.urlId;
      const publishOn = body.publishOn ? new Date(body.publishOn) : row.publishOn;
      const [updated] = await tx
        .update(items)
        .set({ title: body.title, urlId, body: body.body === undefined ? row.body : cleanOwnerHtml(body.body), assets: coverAssets(body.cover, row.assets), excerpt: ownerPlainText(body.excerpt), author: body.author ?? row.author, tags: body.tags ?? row.tags, categories: body.categories ?? row.categories, status: statusAt(body.status, publishOn), publishOn, commentState: body.commentState ?? row.commentState, version: row.version + 1, updatedAt: new Date() })
        .where(eq(items.id, id))
        .returning();
      await audit(tx, { websiteId: site.id, accountId: req.owner!.id, action: 'post.update', entity: 'post', entityId: id, before: postJson(row), after: postJson(updated!) });
      return postJson(updated!);
    });
  });

  // ---- Store settings (currency, instalments, minimum order, quantity for services) ---------------
  const storeSettingsIn = z.object({
    version: z.number().int(),
    currency: z.enum(SUPPORTED_CURRENCIES as unknown as [string, ...string[]], { error: (i) => platformMessages.notExpectedOption(String(i.input)) }),
    multipleQuantityAllowedForServices: z.boolean(),
    minimumOrderSubtotalCents: cents('Minimum order'),
    instalmentsEnabled: z.boolean(),
  });
  const storeSettingsJson = (site: Awaited<ReturnType<typeof websites.get>>) => {
    const s = websites.storeSettings(site);
    return {
      version: site.version,
      currency: site.currency,
      currencies: SUPPORTED_CURRENCIES,
      multipleQuantityAllowedForServices: s.multipleQuantityAllowedForServices,
      minimumOrderSubtotalCents: Number(s.minimumOrderSubtotalCents ?? 0) || 0,
      instalmentsEnabled: s.instalmentsEnabled === true,
    };
  };
  app.get('/api/config/store-settings', storeSettingsRead, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return storeSettingsJson(await siteOf(req));
  });
  app.put('/api/config/store-settings', storeSettings, async (req) => {
    const body = parseInput(storeSettingsIn, req.body);
    const site = await siteOf(req);
    const updated = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(schema.websites).where(eq(schema.websites.id, site.id)).for('update');
      if (row!.version !== body.version) throw new HttpError(409, STALE_EDIT, undefined, { currentVersion: row!.version });
      if (row!.currency !== body.currency) {
        await tx.update(schema.websites).set({ currency: body.currency }).where(eq(schema.websites.id, site.id));
      }
      return changeSettings(tx, site.id, req.owner!.id, 'store-settings.update', (s) => ({
        ...s,
        storeSettings: {
          ...((s.storeSettings ?? {}) as Record<string, unknown>),
          multipleQuantityAllowedForServices: body.multipleQuantityAllowedForServices,
          minimumOrderSubtotalCents: body.minimumOrderSubtotalCents,
          instalmentsEnabled: body.instalmentsEnabled,
        },
      }));
    });
    websites.invalidate();
    return storeSettingsJson(updated);
  });

  // ---- Team members -------------------------------------------------------------------------------
  const roleCode = z.number().refine((n) => isEnumValue(Role, n) && n !== Role.NONE, { message: 'Choose a role.' });
  const memberIn = z.object({
    email: z.string().trim().max(320).refine((s) => isEmailAddress(s), platformMessages.ENTER_VALID_EMAIL),
    displayName: z.string().trim().max(100).optional().default(''),
    role: roleCode,
    password: z.string().min(8, 'Use at least 8 characters for the password.').max(1024),
  });
  const memberJson = (a: typeof accounts.$inferSelect) => ({ id: a.id, email: a.email, displayName: a.displayName, role: a.role });
  app.get('/api/config/team', teamRead, async (req) => {
    const site = await siteOf(req);
    const rows = await db.select().from(accounts).where(eq(accounts.websiteId, site.id)).orderBy(asc(accounts.createdAt));
    return { members: rows.map(memberJson) };
  });
  app.post('/api/config/team', adminOnly, async (req, reply) => {
    const body = parseInput(memberIn, req.body);
    const site = await siteOf(req);
    const passwordHash = await hashPassword(body.password);
    const out = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(accounts)
        .values({ id: newId(), websiteId: site.id, email: body.email.toLowerCase(), displayName: body.displayName, role: body.role, passwordHash })
        .onConflictDoNothing()
        .returning();
      if (!row) throw badRequest(platformMessages.tagExists('team member'), { email: platformMessages.tagExists('team member') });
      await audit(tx, { websiteId: site.id, accountId: req.owner!.id, action: 'team.add', entity: 'account', entityId: row.id, after: memberJson(row) });
      return memberJson(row);
    });
    return reply.status(201).send(out);
  });
  /** Changes to the admins keep at least one admin. */
  const lastAdminGuard = async (tx: Tx, websiteId: string, id: string) => {
    const admins = await tx.select({ id: accounts.id }).from(accounts).where(and(eq(accounts.websiteId, websiteId), eq(accounts.role, Role.ADMIN))).for('update');
    if (admins.length === 1 && admins[0]!.id === id) throw badRequest('A website needs at least one admin.');
  };
  app.put('/api/config/team/:id', adminOnly, async (req) => {
    const { id } = parseInput(idParam, req.params);
    const { role } = parseInput(z.object({ role: roleCode }), req.body);
    const site = await siteOf(req);
    return db.transaction(async (tx) => {
      const [row] = await tx.select().from(accounts).where(and(eq(accounts.id, id), eq(accounts.websiteId, site.id))).for('update');
      if (!row) throw notFound('No such team member.');
      if (row.role === Role.ADMIN && role !== Role.ADMIN) await lastAdminGuard(tx, site.id, id);
      const [updated] = await tx.update(accounts).set({ role }).where(eq(accounts.id, id)).returning();
      await audit(tx, { websiteId: site.id, accountId: req.owner!.id, action: 'team.role', entity: 'account', entityId: id, before: { role: row.role }, after: { role } });
      return memberJson(updated!);
    });
  });
  app.delete('/api/config/team/:id', adminOnly, async (req) => {
    const { id } = parseInput(idParam, req.params);
    const site = await siteOf(req);
    if (id === req.owner!.id) throw badRequest('You cannot remove yourself.');
    await db.transaction(async (tx) => {
      const [row] = await tx.select().from(accounts).where(and(eq(accounts.id, id), eq(accounts.websiteId, site.id))).for('update');
      if (!row) throw notFound('No such team member.');
      if (row.role === Role.ADMIN) await lastAdminGuard(tx, site.id, id);
      await tx.delete(accounts).where(eq(accounts.id, id));
      await audit(tx, { websiteId: site.id, accountId: req.owner!.id, action: 'team.remove', entity: 'account', entityId: id, before: memberJson(row) });
    });
    return { ok: true };
  });

  // ---- Audit log ----------------------------------------------------------------------------------
  app.get('/api/config/audit', teamRead, async (req) => {
    const site = await siteOf(req);
    const q = z.object({ entity: z.string().max(50).optional(), entityId: z.string().max(64).optional(), limit: z.coerce.number().int().min(1).max(200).optional().default(50) }).parse(req.query ?? {});
    const conds = [eq(auditLog.websiteId, site.id)];
    if (q.entity) conds.push(eq(auditLog.entity, q.entity));
    if (q.entityId) conds.push(eq(auditLog.entityId, q.entityId));
    const rows = await db.select().from(auditLog).where(and(...conds)).orderBy(desc(auditLog.id)).limit(q.limit);
    return { entries: rows.map((r) => ({ ...r, at: r.at.toISOString() })) };
  });
}
