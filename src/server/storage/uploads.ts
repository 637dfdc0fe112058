/**
 * Owner uploads: images and files stored on disk under DATA_DIR/uploads with a row in `uploads`.
 *
 * An upload is checked before anything is stored: a name, a supported type (by extension, and for
 * images by their first bytes), a size under the kind's maximum ('file too large' with the maximum).
 * The row is written as 'processing'; images are then decoded with sharp (their size read and a
 * first size variant made through the shared ImageVariants code) and the row becomes 'ready', or
 * 'failed' with 'File processing failed' when the image cannot be read. Files are ready at once.
 * The upload call waits for that processing up to a budget (UPLOAD_PROCESSING_WAIT_MS); past it, the
 * answer is 202 with the 'processing' row and the editor polls `GET /api/editor/uploads/{id}` (the
 * processing job's status). A row still 'processing' long after its last change (its instance stopped
 * mid-way) is settled as 'failed' with 'File processing failed to complete' when it is next read.
 * `GET /uploads/{stored name}` serves them; images take the `?format=NNNw` size variants.
 *
 * With an S3 media store (S3_BUCKET), the original is written to the bucket as `uploads/<stored name>`
 * and each size variant, made once by whichever instance is asked first, as
 * `uploads/variants/<stored name>/<width>.<ext>`; every instance reads both from there. Deleting an
 * upload deletes its variants (on disk: the cached widths; in a bucket: the variants prefix).
 */
import type { Upload } from '../../core/api/editor.js';
import { randomBytes } from 'node:crypto';
import { resolveInside } from '../files-inside.js';
import { createReadStream, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import sharp from 'sharp';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { newId } from '../../db/ids.js';
import { editor as edm, platform as pm, pageEditor as em } from '../../core/messages.js';
import { bytesToMegabytes } from '../../core/time.js';
import { HttpError, badRequest, notFound } from '../errors.js';
import { FORMAT_WIDTHS, ImageVariantError, ImageVariants, renderVariant, variantContentType } from '../images/index.js';
import { readAll, type MediaStore, type StoredObject } from './media-store.js';
import { rows } from '../db-util.js';
import { checkQuota } from './quota.js';
import { uploadKey, uploadsDir } from './keys.js';

const { uploads } = schema;
export type UploadRow = typeof uploads.$inferSelect;

/** Maximum sizes (a megabyte here is 1,000,000 bytes). */
export const MAX_IMAGE_BYTES = 10 * 1_000_000;
export const MAX_FILE_BYTES = 20 * 1_000_000;
export const MAX_NAME_LENGTH = 200;
export const UPLOADS_PREFIX = '/uploads/';
/** Processing that has not finished this long after the row's last change never will: its instance stopped. */
export const STALE_PROCESSING_MS = 2 * 60_000;

interface FileType {
  kind: 'image' | 'file';
  contentType: string;
}

/** Supported extensions. SVG is not taken: it can carry scripts and would be served from the site's origin. */
export const SUPPORTED_TYPES: Readonly<Record<string, FileType>> = Object.freeze({
  '.jpg': { kind: 'image', contentType: 'image/jpeg' },
  '.jpeg': { kind: 'image', contentType: 'image/jpeg' },
  '.png': { kind: 'image', contentType: 'image/png' },
  '.webp': { kind: 'image', contentType: 'image/webp' },
  '.gif': { kind: 'image', contentType: 'image/gif' },
  '.pdf': { kind: 'file', contentType: 'application/pdf' },
  '.txt': { kind: 'file', contentType: 'text/plain; charset=utf-8' },
  '.csv': { kind: 'file', contentType: 'text/csv; charset=utf-8' },
  '.zip': { kind: 'file', contentType: 'application/zip' },
  '.mp3': { kind: 'file', contentType: 'audio/mpeg' },
  '.m4a': { kind: 'file', contentType: 'audio/mp4' },
  '.wav': { kind: 'file', contentType: 'audio/wav' },
  '.ogg': { kind: 'file', contentType: 'audio/ogg' },
  '.mp4': { kind: 'file', contentType: 'video/mp4' },
  '.webm': { kind: 'file', contentType: 'video/webm' },
  '.mov': { kind: 'file', contentType: 'video/quicktime' },
});

export function maxBytesFor(kind: 'image' | 'file'): number {
  return kind === 'image' ? MAX_IMAGE_BYTES : MAX_FILE_BYTES;
}

/** 'file too large' with the maximum size, in megabytes of 1,000,000 bytes. */
export function tooLarge(kind: 'image' | 'file'): HttpError {
  return new HttpError(413, pm.fileTooLarge(`${bytesToMegabytes(maxBytesFor(kind))} MB`));
}

const notSupported = () => new HttpError(415, pm.FILE_NOT_SUPPORTED);

/** The type of a file name, or a 415. */
export function typeOfName(name: string): FileType {
  const t = SUPPORTED_TYPES[extname(name).toLowerCase()];
  if (!t) throw notSupported();
  return t;
}

/** Whether the first bytes are those of the image format the extension names. */
export function looksLikeImage(bytes: Buffer, contentType: string): boolean {
  const b = bytes;
  if (contentType === 'image/jpeg') return b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
  if (contentType === 'image/png')
    return b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  if (contentType === 'image/gif')
    return b.length > 6 && (b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a');
  if (contentType === 'image/webp')
    return b.length > 12 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP';
  return false;
}

/** A name an owner gives: trimmed, no path separators or control characters, at most 200 characters. */
export function cleanName(name: unknown): string {
  const n = typeof name === 'string' ? name.replace(/[\\/\u0000-\u001f\u007f]/g, ' ').trim() : '';
  if (n === '') throw badRequest(pm.ENTER_FILE_NAME, { name: pm.ENTER_FILE_NAME });
  if (n.length > MAX_NAME_LENGTH) throw badRequest(em.tooLong(MAX_NAME_LENGTH), { name: em.tooLong(MAX_NAME_LENGTH) });
  return n;
}

/** An upload as the contract's `Upload`. */
export function uploadJson(u: UploadRow): Upload {
  return {
    id: u.id,
    name: u.name,
    // Stored as text; only these values are ever written.
    kind: u.kind as Upload['kind'],
    contentType: u.contentType,
    bytes: u.bytes,
    status: u.status as Upload['status'],
    error: u.error,
    url: `${UPLOADS_PREFIX}${u.storedName}`,
    originalSize: u.originalSize,
    createdAt: u.createdAt.toISOString(),
  };
}

/** The prefix of an upload's size variants (its original's key is storage's uploadKey). */
export const variantsPrefix = (storedName: string) => `uploads/variants/${storedName}/`;

export class UploadService {
  readonly dir: string;
  readonly variants: ImageVariants;
  /** The bucket media live in, or null for local disk (the default: files under DATA_DIR/uploads). */
  readonly store: MediaStore | null;
  private readonly inflight = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly db: Db,
    dataDir: string,
    store?: MediaStore,
    /** The site's storage quota in bytes (storage/quota.ts), 0 for none. */
    private readonly quota = 0,
  ) {
    this.store = store && store.kind !== 'local' ? store : null;
    this.dir = uploadsDir(dataDir);
    mkdirSync(this.dir, { recursive: true });
    this.variants = new ImageVariants({ [UPLOADS_PREFIX]: this.dir }, resolve(dataDir, 'cache', 'images'));
  }

  async list(websiteId: string) {
    const rows = await this.db.select().from(uploads).where(eq(uploads.websiteId, websiteId)).orderBy(desc(uploads.createdAt)).limit(500);
    return (await Promise.all(rows.map((r) => this.settled(r)))).map(uploadJson);
  }

  /** One upload (the processing job's status), or null. */
  async get(websiteId: string, id: string): Promise<UploadRow | null> {
    const [row] = await this.db
      .select()
      .from(uploads)
      .where(and(eq(uploads.id, id), eq(uploads.websiteId, websiteId)));
    return row ? this.settled(row) : null;
  }

  /** A row left 'processing' past STALE_PROCESSING_MS becomes 'failed': 'File processing failed to complete'. */
  private async settled(row: UploadRow): Promise<UploadRow> {
    if (row.status !== 'processing' || Date.now() - row.updatedAt.getTime() < STALE_PROCESSING_MS) return row;
    const [updated] = await this.db
      .update(uploads)
      .set({ status: 'failed', error: edm.FILE_PROCESSING_INCOMPLETE, updatedAt: new Date() })
      .where(and(eq(uploads.id, row.id), eq(uploads.status, 'processing')))
      .returning();
    return updated ?? row;
  }

  /**
   * Stores one upload. Throws 400/413/415 before anything is written (413 also past the site's storage quota); answers the row, whose status
   * is 'ready', or 'failed' (with the processing message) when an image cannot be decoded. With
   * `waitMs`, an image still being processed after that long is answered as 'processing' (the work goes on).
   */
  async create(websiteId: string, rawName: unknown, body: Buffer, opts: { waitMs?: number } = {}): Promise<UploadRow> {
    const name = cleanName(rawName);
    const type = typeOfName(name);
    if (body.length > maxBytesFor(type.kind)) throw tooLarge(type.kind);
    if (body.length === 0) throw badRequest(edm.FILE_UPLOAD_INCOMPLETE);
    if (type.kind === 'image' && !looksLikeImage(body, type.contentType)) throw notSupported();
    await checkQuota(this.db, websiteId, body.length, this.quota);

    const id = newId();
    const storedName = `${id}${extname(name).toLowerCase()}`;
    const file = join(this.dir, storedName);
    if (this.store) {
      await this.store.put(uploadKey(storedName), body, type.contentType);
    } else {
      const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
      writeFileSync(tmp, body);
      renameSync(tmp, file);
    }
    let row: UploadRow;
    try {
      [row] = await this.db
        .insert(uploads)
        .values({
          id,
          websiteId,
          kind: type.kind,
          name,
          storedName,
          contentType: type.contentType,
          bytes: body.length,
          status: type.kind === 'image' ? 'processing' : 'ready',
        })
        .returning();
    } catch (err) {
      if (this.store) await this.store.delete([uploadKey(storedName)]).catch(() => undefined);
      else rmSync(file, { force: true });
      throw err;
    }
    if (type.kind !== 'image') return row!;
    const processing = this.process(id, storedName, body);
    if (opts.waitMs === undefined) return processing;
    const waiting = row!;
    if (opts.waitMs <= 0) {
      processing.catch(() => undefined);
      return waiting;
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<UploadRow>((done) => {
      timer = setTimeout(() => done(waiting), opts.waitMs);
    });
    processing.catch(() => undefined);
    try {
      return await Promise.race([processing, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Reads an image's size and makes its first variant; the row becomes 'ready', or 'failed' with 'File processing failed'. */
  private async process(id: string, storedName: string, body: Buffer): Promise<UploadRow> {
    let update: Partial<UploadRow>;
    try {
      const meta = await sharp(body, { limitInputPixels: 100_000_000 }).metadata();
      if (!meta.width || !meta.height) throw new Error('no dimensions');
      // Orientation 5-8 swaps width and height once the image is rotated upright (as the variants are).
      const swap = (meta.orientation ?? 1) >= 5;
      const originalSize = swap ? `${meta.height}x${meta.width}` : `${meta.width}x${meta.height}`;
      if (this.store) await this.storedVariant(storedName, body, '300w', undefined);
      else await this.variants.variant(`${UPLOADS_PREFIX}${storedName}`, '300w');
      update = { status: 'ready', originalSize, error: null };
    } catch {
      update = { status: 'failed', error: edm.FILE_PROCESSING_FAILED };
    }
    const [row] = await this.db
      .update(uploads)
      .set({ ...update, updatedAt: new Date() })
      .where(eq(uploads.id, id))
      .returning();
    return row!;
  }

  async rename(websiteId: string, id: string, rawName: unknown) {
    const name = cleanName(rawName);
    const [row] = await this.db
      .select()
      .from(uploads)
      .where(and(eq(uploads.id, id), eq(uploads.websiteId, websiteId)));
    if (!row) throw new HttpError(404, edm.RENAME_PROBLEM, undefined, { title: edm.RENAME_TITLE });
    // The extension decides how the file is served: a new name keeps the stored type.
    if (
      extname(name).toLowerCase() !== extname(row.name).toLowerCase() &&
      SUPPORTED_TYPES[extname(name).toLowerCase()]?.contentType !== row.contentType
    ) {
      throw new HttpError(400, edm.RENAME_PROBLEM, { name: pm.FILE_NOT_SUPPORTED }, { title: edm.RENAME_TITLE });
    }
    const [updated] = await this.db.update(uploads).set({ name, updatedAt: new Date() }).where(eq(uploads.id, id)).returning();
    return uploadJson(updated!);
  }

  /**
   * Whether something visitors see names the upload's address: a published page layout, a post or product
   * that is not a draft (its layout, body, pictures, content), a collection's or the site's settings, or the
   * site styles. The stored name is 24 random hex digits and an extension, so a plain substring test is exact.
   * An unknown id is not in use (the rename or delete answers its own 404).
   */
  async usedByPublished(websiteId: string, id: string): Promise<boolean> {
    const [row] = await this.db
      .select({ storedName: uploads.storedName })
      .from(uploads)
      .where(and(eq(uploads.id, id), eq(uploads.websiteId, websiteId)));
    if (!row) return false;
    const needle = `${UPLOADS_PREFIX}${row.storedName}`;
    const found = await rows<{ used: boolean }>(
      this.db,
      sql`select (
        exists (select 1 from page_layouts where website_id = ${websiteId} and position(${needle} in coalesce(published, '')) > 0)
        or exists (select 1 from items where website_id = ${websiteId} and status <> 'draft'
          and position(${needle} in coalesce(layout, '') || body || assets::text || structured_content::text) > 0)
        or exists (select 1 from collections where website_id = ${websiteId} and position(${needle} in settings::text) > 0)
        or exists (select 1 from websites where id = ${websiteId} and position(${needle} in settings::text) > 0)
        or exists (select 1 from site_styles where website_id = ${websiteId} and position(${needle} in styles) > 0)
      ) as used`,
    );
    return found[0]?.used === true;
  }

  async remove(websiteId: string, id: string) {
    const [row] = await this.db
      .delete(uploads)
      .where(and(eq(uploads.id, id), eq(uploads.websiteId, websiteId)))
      .returning();
    if (!row) throw notFound(em.UPLOAD_NOT_FOUND);
    if (this.store) {
      await this.store.delete([uploadKey(row.storedName), ...(await this.store.list(variantsPrefix(row.storedName)))]);
      return;
    }
    this.variants.forget(`${UPLOADS_PREFIX}${row.storedName}`);
    rmSync(join(this.dir, row.storedName), { force: true });
  }

  /** A ready upload's row by its public name, or null (the bucket is read when the bytes are sent). */
  async readyRow(storedName: string): Promise<UploadRow | null> {
    if (!/^[0-9a-f]{24}\.[a-z0-9]{2,5}$/.test(storedName)) return null;
    const [row] = await this.db.select().from(uploads).where(eq(uploads.storedName, storedName));
    return row && row.status === 'ready' ? row : null;
  }

  /** The original from the bucket. */
  async openStored(row: UploadRow): Promise<StoredObject | null> {
    return this.store ? this.store.get(uploadKey(row.storedName)) : null;
  }

  /**
   * A size variant kept in the bucket: read when an instance made it before, else made from the original
   * (one at a time per key in this process) and written once. `original` saves a read when the caller has it.
   */
  async storedVariant(
    storedName: string,
    original: Buffer | undefined,
    format: string,
    accept: string | undefined,
  ): Promise<{ body: Buffer | StoredObject['body']; bytes: number; contentType: string }> {
    const store = this.store;
    if (!store) throw new Error('No media store');
    if (!FORMAT_WIDTHS.has(format))
      throw new ImageVariantError(400, `Unknown image format "${format}". Use one of ${[...FORMAT_WIDTHS].join(', ')}.`);
    const width = Number.parseInt(format, 10);
    const out = ImageVariants.formatFor(storedName, accept);
    const key = `${variantsPrefix(storedName)}${width}.${out === 'jpeg' ? 'jpg' : out}`;
    const contentType = variantContentType(out);
    const existing = await store.get(key);
    if (existing) return { body: existing.body, bytes: existing.bytes, contentType };
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = (async () => {
        let input = original;
        if (!input) {
          const o = await store.get(uploadKey(storedName));
          if (!o) throw new ImageVariantError(404, 'Not found');
          input = await readAll(o.body);
        }
        const buf = await renderVariant(input, false, width, out);
        await store.put(key, buf, contentType);
        return buf;
      })().finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    const buf = await pending;
    return { body: buf, bytes: buf.length, contentType };
  }

  /** The stored file of a public URL's name, or null (unknown names, traversal, failed uploads). */
  async served(storedName: string): Promise<{ file: string; row: UploadRow } | null> {
    if (!/^[0-9a-f]{24}\.[a-z0-9]{2,5}$/.test(storedName)) return null;
    const [row] = await this.db.select().from(uploads).where(eq(uploads.storedName, storedName));
    if (!row || row.status !== 'ready') return null;
    // A regular file of the uploads folder's real path, links followed only inside it (files-inside.ts).
    const file = resolveInside(this.dir, storedName);
    if (!file) return null;
    return { file, row };
  }

  stream(file: string) {
    return createReadStream(file);
  }
}
