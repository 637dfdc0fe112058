/**
 * Product CSV import and export (issue 24); the calls are import.ts's:
 *
 * - POST /api/config/catalog/import {csv, format?, collectionId?, dryRun}: reads the file (csv.ts) and plans every
 *   product: a product whose SKUs (or Squarespace Product ID) match an existing product updates it, any other is
 *   created in the chosen store. The plan is checked with the product editor's own rules (shape, productErrors,
 *   store-wide SKUs, the store's 200-product limit). A dry run answers the plan and each row's errors and writes
 *   nothing; a real run with any error is refused (400, the same errors) and writes nothing; otherwise it starts a
 *   job and answers its id.
 * - GET /api/config/catalog/import/:id: the job's progress (total, done, created, updated, state, warnings).
 * - GET /api/config/catalog/export?format=squarespace|shopify: the catalogue as CSV in that layout.
 *
 * A job writes the products in batches, each in its own transaction of at most about a second (stock movements
 * named 'import'), that give the event loop a turn between statements, end early when a request waits for the
 * database, and give way to the requests in flight between them, so pages keep being served (see `run`).
 * Images named by URL are fetched (http/https, 10 MB, 15 s, at most 3
 * redirects) and stored through the uploads pipeline (sharp); an image that cannot be fetched is left out and
 * named in the job's warnings.
 */
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { schema, type Tx } from '../../db/index.js';
import { newId } from '../../db/ids.js';
import { CollectionType, RecordType } from '../../core/enums.js';
import { collectionAddError } from '../../core/content.js';
import { parseInput } from '../platform/index.js';
import { HttpError, notFound } from '../errors.js';
import { createProductTx, loadProduct, productErrors, productIn, updateProductTx, type ProductIn } from './product-service.js';
import { suggestSku } from '../../core/product.js';
import { Outbound } from '../outbound.js';
import { exportProductCsv, parseProductCsv, type CsvFormat, type ParsedProduct, type RowError } from './csv.js';

const { items, productVariants, collections, catalogImportJobs } = schema;

export const IMPORT_TEXT = {
  HAS_ERRORS: (n: number) =>
    `${n} row${n === 1 ? ' has an error' : 's have errors'}: nothing was imported. Fix ${n === 1 ? 'it' : 'them'} and try again.`,
  NO_STORE: 'Create a store first: imported products go into a store.',
  STORE_FULL: (title: string, max: number) => `The store ${title} can hold ${max} products: this product would pass the limit.`,
  SKU_ELSEWHERE: (sku: string) => `The SKU ${sku} belongs to another product than the other SKUs of this product.`,
  IMAGE_FAILED: (row: number, url: string, why: string) =>
    `Row ${row}: the image ${url} could not be fetched (${why}); the product was imported without it.`,
} as const;

interface PlannedProduct {
  parsed: ParsedProduct;
  /** The product this one updates, or null for a new product. */
  existingId: string | null;
  collectionId: string;
}

interface Plan {
  format: CsvFormat;
  products: PlannedProduct[];
  errors: RowError[];
}

const IMAGE_BYTES = 10 * 1_000_000;
/** A batch of the import job: its transaction takes in products while it has been open less than this long. */
const IMPORT_BATCH_MS = 1000;
/** At most this many products in one batch. */
const IMPORT_BATCH_MAX = 100;
/** Image hosts asked at the same time. */
const IMAGE_FETCHES = 4;
/** Between batches the job waits for requests in flight to end, this long at most, */
const IMPORT_GIVE_WAY_MS = 1000;
/** until none has been served for this long. */
const IMPORT_CALM_MS = 20;
const FETCH_MS = 15_000;
const IMAGE_REDIRECTS = 3;

/**
 * The site-relative address of an upload (or demo picture) of this site named by its absolute URL (our own export
 * writes images so),
 * or null. Such an image is already stored: it is taken as it is, never fetched over the network.
 */
export function ownUpload(url: string, origin: string): string | null {
  try {
    const u = new URL(url);
    if (u.origin !== new URL(origin).origin || u.search || u.hash) return null;
    return /^\/(uploads|demo-media)\/[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/.test(u.pathname) && !u.pathname.includes('..') ? u.pathname : null;
  } catch {
    return null;
  }
}

/** An image as the uploads pipeline takes it: a file name (with the extension its type says) and the bytes. */
async function fetchImage(outbound: Outbound, url: string): Promise<{ name: string; body: Buffer }> {
  const got = await outbound.get(url);
  const type = got.contentType.split(';')[0]!.trim();
  const path = new URL(got.url).pathname;
  const ext =
    { 'image/jpeg': '.jpg', 'image/png': '.png', 'image/webp': '.webp', 'image/gif': '.gif' }[type] ??
    /\.(jpe?g|png|webp|gif)$/i.exec(path)?.[0] ??
    '.jpg';
  let base = 'image';
  try {
    base = decodeURIComponent(path.split('/').pop() ?? 'image');
  } catch {
    /* a bad escape: the plain name */
  }
  base =
    base
      .replace(/\.[a-z0-9]+$/i, '')
      .replace(/[^\w.-]+/g, '-')
      .slice(0, 80) || 'image';
  return { name: `${base}${ext}`, body: got.body };
}

/** One turn of the event loop (its I/O phase included). */
const turn = () => new Promise<void>((r) => setImmediate(r));

/** What an import needs of the app: its database, config and uploads, and the outbound fetcher for images. */
export interface ImportCtx {
  app: FastifyInstance;
  outbound: Outbound;
}

export function importCtx(app: FastifyInstance): ImportCtx {
  return {
    app,
    outbound: new Outbound({
      allow: app.config.FETCH_ALLOW_ADDRESSES,
      maxBytes: IMAGE_BYTES,
      timeoutMs: FETCH_MS,
      maxRedirects: IMAGE_REDIRECTS,
    }),
  };
}

/** The product the editor would save for `p` (images as given: URLs, or uploads after fetching). */
const productOf = (
  p: PlannedProduct,
  images: Array<{ url: string; alt: string }>,
  existing?: { version: number; body: unknown },
): ProductIn => {
  const variants = p.parsed.variants.map((v) => ({
    sku: v.sku || suggestSku(p.parsed.title, v.attributes),
    attributes: v.attributes,
    priceCents: v.priceCents,
    salePriceCents: v.salePriceCents,
    onSale: v.onSale,
    qtyInStock: v.qtyInStock,
    unlimited: v.unlimited,
    weightGrams: v.weightGrams,
    ...(v.dimensions !== undefined ? { dimensions: v.dimensions } : {}),
    imageUrl: v.imageUrl ? (images.find((i, k) => p.parsed.images[k]?.url === v.imageUrl)?.url ?? '') : '',
  }));
  return parseInput(productIn, {
    ...(existing ? { version: existing.version } : {}),
    collectionId: p.collectionId,
    title: p.parsed.title,
    urlId: p.parsed.urlId || undefined,
    body: p.parsed.body,
    status: p.parsed.status,
    productType: p.parsed.productType,
    images: images.map((i) => ({ assetUrl: i.url, altText: i.alt })),
    tags: p.parsed.tags,
    categories: p.parsed.categories,
    variantOptionOrdering: p.parsed.options,
    variants,
    seoTitle: p.parsed.seoTitle,
    seoDescription: p.parsed.seoDescription,
  });
};

/** Reads and checks a file against the site: every problem as a row error; nothing is written. */
export const plan = async (
  ctx: ImportCtx,
  websiteId: string,
  csv: string,
  format: CsvFormat | undefined,
  collectionId: string | undefined,
  currency: string,
): Promise<Plan> => {
  const { app, outbound } = ctx;
  const db = app.database.db;
  const origin = await app.emailOrigin();
  const parsed = await parseProductCsv(csv, currency, format, (url) => (ownUpload(url, origin) ? null : outbound.refusal(url)));
  const errors = [...parsed.errors];
  const stores = await db
    .select()
    .from(collections)
    .where(and(eq(collections.websiteId, websiteId), eq(collections.type, CollectionType.PRODUCTS)));
  const chosen = stores.find((s) => s.id === collectionId) ?? stores[0];
  if (!chosen) return { format: parsed.format, products: [], errors: [{ row: 1, message: IMPORT_TEXT.NO_STORE }] };
  // Existing variants by SKU, and product ids, across the site.
  const skus = parsed.products.flatMap((p) => p.variants.map((v) => v.sku.toLowerCase()).filter(Boolean));
  const found = skus.length
    ? await db
        .select({ sku: productVariants.sku, itemId: productVariants.itemId })
        .from(productVariants)
        .innerJoin(items, eq(items.id, productVariants.itemId))
        .where(and(eq(items.websiteId, websiteId), inArray(sql`lower(${productVariants.sku})`, skus)))
    : [];
  const owner = new Map(found.map((f) => [f.sku.toLowerCase(), f.itemId]));
  const ids = parsed.products.map((p) => p.productId).filter(Boolean);
  const known = new Map(
    (ids.length
      ? await db
          .select({ id: items.id, collectionId: items.collectionId })
          .from(items)
          .where(and(eq(items.websiteId, websiteId), eq(items.recordType, RecordType.STORE_ITEM), inArray(items.id, ids)))
      : []
    ).map((r) => [r.id, r.collectionId]),
  );
  const counts = new Map<string, number>();
  for (const s of stores) {
    const [n] = await db
      .select({ n: sql<number>`count(*)` })
      .from(items)
      .where(eq(items.collectionId, s.id));
    counts.set(s.id, Number(n?.n ?? 0));
  }
  const products: PlannedProduct[] = [];
  const existingOf = new Map<string, string>();
  for (const [k, p] of parsed.products.entries()) {
    // Checking a product is work on the event loop: a turn now and then lets requests through.
    if (k % 25 === 24) await turn();
    const matches = new Set(p.variants.map((v) => owner.get(v.sku.toLowerCase())).filter((x): x is string => !!x));
    let existingId: string | null = known.has(p.productId) ? p.productId : null;
    if (!existingId && matches.size === 1) existingId = [...matches][0]!;
    if (matches.size > 1 || (existingId && [...matches].some((m) => m !== existingId))) {
      const v = p.variants.find(
        (x) => owner.get(x.sku.toLowerCase()) && owner.get(x.sku.toLowerCase()) !== (existingId ?? [...matches][0]),
      );
      errors.push({ row: v?.row ?? p.row, message: IMPORT_TEXT.SKU_ELSEWHERE(v?.sku ?? '') });
      continue;
    }
    if (existingId && existingOf.has(existingId)) {
      errors.push({ row: p.row, message: IMPORT_TEXT.SKU_ELSEWHERE(p.variants[0]?.sku ?? '') });
      continue;
    }
    if (existingId) existingOf.set(existingId, p.productId);
    const store = stores.find((s) => s.urlId === p.storeUrlId) ?? chosen;
    const collection = existingId
      ? (known.get(existingId) ??
        (await db.select({ c: items.collectionId }).from(items).where(eq(items.id, existingId)))[0]?.c ??
        store.id)
      : store.id;
    if (!existingId) {
      const n = counts.get(store.id) ?? 0;
      const full = collectionAddError(store, n);
      if (full) {
        errors.push({ row: p.row, message: full });
        continue;
      }
      counts.set(store.id, n + 1);
    }
    const planned: PlannedProduct = { parsed: p, existingId, collectionId: collection };
    products.push(planned);
    // The editor's own checks on the product as it would be saved (once its rows read cleanly).
    const rowsOf = new Set([p.row, ...p.variants.map((v) => v.row)]);
    if (errors.some((e) => rowsOf.has(e.row))) continue;
    try {
      const input = productOf(planned, p.images, existingId ? { version: 0, body: '' } : undefined);
      const fieldErrors = productErrors(input);
      for (const [field, message] of Object.entries(fieldErrors)) {
        const m = /^variants\.(\d+)\./.exec(field);
        errors.push({ row: m ? (p.variants[Number(m[1])]?.row ?? p.row) : p.row, message });
      }
    } catch (e) {
      const details = e instanceof HttpError && e.errors ? Object.entries(e.errors) : [['', e instanceof Error ? e.message : String(e)]];
      for (const [field, message] of details) {
        const m = /^variants\.(\d+)\./.exec(field ?? '');
        errors.push({ row: m ? (p.variants[Number(m[1])]?.row ?? p.row) : p.row, message: String(message) });
      }
    }
  }
  // A SKU of this file used by a product the file does not update.
  for (const p of products) {
    for (const v of p.parsed.variants) {
      const o = owner.get(v.sku.toLowerCase());
      if (o && o !== p.existingId) errors.push({ row: v.row, message: IMPORT_TEXT.SKU_ELSEWHERE(v.sku) });
    }
  }
  const seen = new Set<string>();
  const unique = errors.filter((e) => {
    const k = `${e.row}\u0000${e.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  unique.sort((a, b) => a.row - b.row);
  return { format: parsed.format, products, errors: unique };
};

export const summary = (p: Plan) => ({
  format: p.format,
  products: p.products.length,
  variants: p.products.reduce((n, x) => n + x.parsed.variants.length, 0),
  creates: p.products.filter((x) => !x.existingId).length,
  updates: p.products.filter((x) => x.existingId).length,
  preview: p.products.slice(0, 50).map((x) => ({
    row: x.parsed.row,
    title: x.parsed.title,
    variants: x.parsed.variants.length,
    action: x.existingId ? 'update' : 'create',
  })),
  errors: p.errors,
});

/** The images of `p`, fetched and stored (outside any transaction); one that fails keeps its place with no URL. */
const imagesOf = async (ctx: ImportCtx, websiteId: string, origin: string, p: PlannedProduct, warnings: string[]) => {
  const { app, outbound } = ctx;
  const images: Array<{ url: string; alt: string }> = [];
  for (const img of p.parsed.images) {
    const own = ownUpload(img.url, origin);
    if (own) {
      images.push({ url: own, alt: img.alt });
      continue;
    }
    try {
      const got = await fetchImage(outbound, img.url);
      const row = await app.services.uploads.create(websiteId, got.name, got.body);
      if (row.status !== 'ready') throw new Error(row.error ?? 'File processing failed');
      images.push({ url: `/uploads/${row.storedName}`, alt: img.alt });
    } catch (e) {
      warnings.push(IMPORT_TEXT.IMAGE_FAILED(p.parsed.row, img.url, e instanceof Error ? e.message : String(e)));
      images.push({ url: '', alt: '' });
    }
  }
  return images;
};

/** Writes one planned product in `tx` (images already fetched); true when it updated an existing product. */
const write = async (tx: Tx, websiteId: string, accountId: string, p: PlannedProduct, images: Array<{ url: string; alt: string }>) => {
  if (p.existingId) {
    const current = await loadProduct(tx, p.existingId, websiteId);
    if (!current) throw notFound('No such product.');
    const input = productOf(p, images, { version: current.item.version, body: current.item.body });
    // Images that failed keep their place while variant images are matched, then drop out.
    input.images = input.images.filter((i) => i.assetUrl);
    // Variants keep their ids (and so their stock history and carts) where the SKU is the same.
    // What the file's layout has no column for (dimensions in Shopify's, the low-stock threshold) stays as it was.
    const bySku = new Map(current.variants.map((v) => [v.sku.toLowerCase(), v]));
    input.variants = input.variants.map((v, i) => {
      const old = bySku.get(v.sku.toLowerCase());
      if (!old) return v;
      return {
        ...v,
        id: old.id,
        lowStockThreshold: old.lowStockThreshold,
        ...(p.parsed.variants[i]?.dimensions === undefined ? { dimensions: old.dimensions ?? null } : {}),
      };
    });
    await updateProductTx(tx, websiteId, accountId, p.existingId, input, 'import');
    return true;
  }
  const input = productOf(p, images);
  input.images = input.images.filter((i) => i.assetUrl);
  await createProductTx(tx, websiteId, accountId, input, 'import');
  return false;
};

/**
 * Runs an import job to the end (in the background of the request that started it).
 *
 * Each batch is one transaction of the next products and the job's progress, open at most IMPORT_BATCH_MS
 * (at most IMPORT_BATCH_MAX products), because every commit makes the shared pages render again. On PGlite
 * each statement first yields (`Database.yielding`) and the batch commits early when another caller waits
 * (`Database.pending`); after a commit the job gives way to requests (`giveWay`).
 * Why: docs/decisions/0009-csv-import-dry-run.md.
 */
export const run = async (ctx: ImportCtx, jobId: string, websiteId: string, accountId: string, planned: Plan) => {
  const { app } = ctx;
  const db = app.database.db;
  const warnings: string[] = [];
  const origin = await app.emailOrigin();
  const single = app.database.kind === 'pglite';
  const yielding = <T>(fn: () => Promise<T>) => (app.database.yielding ? app.database.yielding(fn) : fn());
  let created = 0;
  let updated = 0;
  let done = 0;
  let failedAt = 0;
  await db.update(catalogImportJobs).set({ state: 'running', updated: new Date() }).where(eq(catalogImportJobs.id, jobId));
  const list = planned.products;
  /** Products whose images are fetched, in file order, waiting for a batch. */
  const ready: Array<{ p: PlannedProduct; images: Array<{ url: string; alt: string }> }> = [];
  let prepared = 0;
  /** Fetches the images of the next products (a few hosts at a time), outside any transaction. */
  const prepare = async () => {
    const slice = list.slice(prepared, prepared + IMPORT_BATCH_MAX);
    prepared += slice.length;
    const out: Array<{ p: PlannedProduct; images: Array<{ url: string; alt: string }>; warnings: string[] }> = slice.map((p) => ({
      p,
      images: [],
      warnings: [],
    }));
    let k = 0;
    await Promise.all(
      Array.from({ length: IMAGE_FETCHES }, async () => {
        while (k < out.length) {
          const o = out[k++]!;
          if (o.p.parsed.images.length) o.images = await imagesOf(ctx, websiteId, origin, o.p, o.warnings);
        }
      }),
    );
    for (const o of out) {
      warnings.push(...o.warnings);
      ready.push({ p: o.p, images: o.images });
    }
  };
  /**
   * After a commit: waits until no request has been served (nor a query waited for the connection) for
   * IMPORT_CALM_MS, so the pages the commit made stale render before the next batch opens (at most
   * IMPORT_GIVE_WAY_MS, so a steady stream of requests does not stop the job).
   */
  const giveWay = async () => {
    const until = performance.now() + IMPORT_GIVE_WAY_MS;
    let calm = performance.now();
    // How late the event loop answers a short timer: on a busy machine visitors come back more slowly, so the
    // quiet moment that means "the pages have rendered again" is longer.
    let lag = 0;
    for (;;) {
      const now = performance.now();
      if (now >= until) break;
      if (app.foreground.size > 0) {
        await app.foreground.quiet(until - now);
        calm = performance.now();
      } else if ((app.database.pending?.() ?? 0) > 0) calm = now;
      else if (now - calm >= Math.max(IMPORT_CALM_MS, 8 * lag)) break;
      const t = performance.now();
      await new Promise((r) => setTimeout(r, 2));
      lag = Math.max(lag, performance.now() - t - 2);
    }
  };
  try {
    while (done < list.length) {
      await giveWay();
      if (ready.length === 0) await prepare();
      const counts = await yielding(() =>
        db.transaction(async (tx: Tx) => {
          const t0 = performance.now();
          let c = 0;
          let u = 0;
          let n = 0;
          for (const { p, images } of ready) {
            if (n > 0) {
              if (n >= IMPORT_BATCH_MAX || performance.now() - t0 > IMPORT_BATCH_MS) break;
              if (single) {
                await turn();
                if ((app.database.pending?.() ?? 0) > 1) break;
              }
            }
            failedAt = done + n;
            if (await write(tx, websiteId, accountId, p, images)) u++;
            else c++;
            n++;
          }
          await tx
            .update(catalogImportJobs)
            .set({ done: done + n, createdCount: created + c, updatedCount: updated + u, updated: new Date() })
            .where(eq(catalogImportJobs.id, jobId));
          return { c, u, n };
        }),
      );
      ready.splice(0, counts.n);
      created += counts.c;
      updated += counts.u;
      done += counts.n;
    }
    await db
      .update(catalogImportJobs)
      .set({
        state: 'done',
        done,
        createdCount: created,
        updatedCount: updated,
        error: warnings.length ? warnings.join('\n') : null,
        updated: new Date(),
      })
      .where(eq(catalogImportJobs.id, jobId));
  } catch (e) {
    app.log.error({ err: e, jobId }, 'product import failed');
    const why = e instanceof Error ? e.message : String(e);
    await db
      .update(catalogImportJobs)
      .set({
        state: 'failed',
        done,
        createdCount: created,
        updatedCount: updated,
        error: [...warnings, `Product ${failedAt + 1} of ${list.length}: ${why}`].join('\n'),
        updated: new Date(),
      })
      .where(eq(catalogImportJobs.id, jobId));
  }
};
/** The website's catalogue as CSV in the layout of `format`. */
export async function exportCsv(app: FastifyInstance, websiteId: string, format: CsvFormat) {
  const db = app.database.db;
  const site = await app.services.websites.get();
  const list = await db
    .select()
    .from(items)
    .where(and(eq(items.websiteId, websiteId), eq(items.recordType, RecordType.STORE_ITEM)))
    .orderBy(items.collectionId, items.ordering);
  const stores = new Map((await db.select().from(collections).where(eq(collections.websiteId, websiteId))).map((c) => [c.id, c.urlId]));
  const vs = list.length
    ? await db
        .select()
        .from(productVariants)
        .where(
          inArray(
            productVariants.itemId,
            list.map((i) => i.id),
          ),
        )
        .orderBy(productVariants.ordering)
    : [];
  const products = list.map((i) => ({
    id: i.id,
    storeUrlId: stores.get(i.collectionId) ?? '',
    title: i.title,
    urlId: i.urlId,
    body: i.body,
    status: i.status,
    productType: Number(i.structuredContent.productType ?? 1),
    tags: i.tags,
    categories: i.categories,
    seoTitle: String(i.structuredContent.seoTitle ?? ''),
    seoDescription: String(i.structuredContent.seoDescription ?? ''),
    options: (i.structuredContent.variantOptionOrdering as string[] | undefined) ?? [],
    images: i.assets.map((a) => ({ url: String(a.assetUrl ?? ''), alt: String(a.altText ?? '') })),
    variants: vs.filter((v) => v.itemId === i.id),
  }));
  return exportProductCsv(products, format, site.currency, await app.emailOrigin());
}

/** Records a new import job of plan `p`; answers its id. */
export async function startJob(app: FastifyInstance, websiteId: string, p: Plan) {
  const id = newId();
  await app.database.db.insert(catalogImportJobs).values({ id, websiteId, format: p.format, total: p.products.length });
  return id;
}

/** An import job's progress, or null when the website has no such job. */
export async function importJob(app: FastifyInstance, websiteId: string, id: string) {
  const [job] = await app.database.db
    .select()
    .from(catalogImportJobs)
    .where(and(eq(catalogImportJobs.id, id), eq(catalogImportJobs.websiteId, websiteId)));
  if (!job) return null;
  return {
    id: job.id,
    format: job.format,
    state: job.state,
    total: job.total,
    done: job.done,
    created: job.createdCount,
    updated: job.updatedCount,
    warnings: job.error ? job.error.split('\n') : [],
  };
}
