/**
 * A digital product's file (issue 24). The owner uploads it from the product editor; it is kept privately on
 * disk under DATA_DIR/private/digital (never under /uploads, which is public) with a random stored name, and
 * the product's structuredContent.digitalFile records { key, name, size, contentType, uploadedOn }. A buyer
 * gets it only through the signed, time-limited download link of a paid order (checkout.downloadPath), which
 * the order-download route in checkout/routes.ts answers by streaming the file (see sendDigitalFile).
 *
 * - GET    /api/config/catalog/products/:id/digital-file  the file's name, size and upload time (or null)
 * - POST   /api/config/catalog/products/:id/digital-file?name=guide.pdf  the raw bytes as the body
 * - DELETE /api/config/catalog/products/:id/digital-file
 */
import { randomBytes } from 'node:crypto';
import { openInside } from '../files-inside.js';
import { createReadStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { eq, sql } from 'drizzle-orm';
import { schema } from '../../db/index.js';
import { ProductType, RecordType } from '../../core/enums.js';
import { parseInput } from '../platform/index.js';
import { HttpError, badRequest, notFound } from '../errors.js';
import { MAX_FILE_BYTES, SUPPORTED_TYPES } from '../storage/index.js';
import { can } from '../../core/roles.js';
import { checkQuota, quotaBytes } from '../storage/index.js';

const { items } = schema;

export const DIGITAL_TEXT = {
  NOT_DIGITAL: 'Only digital products have a file to download.',
  NO_NAME: 'Give the file a name.',
  EMPTY: 'The file is empty.',
  TOO_LARGE: `The file is too large. The maximum is ${MAX_FILE_BYTES / 1_000_000} MB.`,
} as const;

export interface DigitalFile {
  key: string;
  name: string;
  size: number;
  contentType: string;
  uploadedOn: string;
}

const KEY_RE = /^[a-f0-9]{32}$/;

export function digitalDir(dataDir: string): string {
  return resolve(dataDir, 'private', 'digital');
}

/** The stored file of an order line or product, when it is one of ours (a key, not a URL). */
export function privateFileOf(value: unknown): DigitalFile | null {
  if (!value || typeof value !== 'object') return null;
  const f = value as Record<string, unknown>;
  if (typeof f.key !== 'string' || !KEY_RE.test(f.key)) return null;
  return {
    key: f.key,
    name: String(f.name ?? 'download'),
    size: Number(f.size ?? 0),
    contentType: String(f.contentType ?? 'application/octet-stream'),
    uploadedOn: String(f.uploadedOn ?? ''),
  };
}

/** Streams a private file as an attachment; false when it is missing on disk. */
export function sendDigitalFile(reply: FastifyReply, dataDir: string, file: DigitalFile): boolean {
  // A regular file of the private folder's real path (files-inside.ts), opened before any header is set.
  const opened = openInside(digitalDir(dataDir), file.key);
  if (!opened) return false;
  const ascii = file.name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store');
  void reply.send(createReadStream('', { fd: opened.fd, autoClose: true }));
  return true;
}

const idParam = z.object({ id: z.string().min(1).max(64) });
const nameQuery = z.object({ name: z.string().trim().min(1, DIGITAL_TEXT.NO_NAME).max(200, 'Keep the file name to 200 characters.') });

export async function digitalFileRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db;
  const dir = digitalDir(app.config.DATA_DIR);
  const storeRoles = { preHandler: app.requireOwner(can('digital-files', 'write')) };
  const storeRead = { preHandler: app.requireOwner(can('digital-files', 'read')) };

  async function product(id: string) {
    const [row] = await db
      .select({ id: items.id, websiteId: items.websiteId, sc: items.structuredContent, recordType: items.recordType })
      .from(items)
      .where(eq(items.id, id))
      .limit(1);
    if (!row || row.recordType !== RecordType.STORE_ITEM) throw notFound('No such product.');
    return row;
  }
  const publicJson = (f: DigitalFile | null) =>
    f ? { name: f.name, size: f.size, contentType: f.contentType, uploadedOn: f.uploadedOn } : null;

  app.get('/api/config/catalog/products/:id/digital-file', storeRead, async (req) => {
    const { id } = parseInput(idParam, req.params);
    const p = await product(id);
    return { file: publicJson(privateFileOf(p.sc.digitalFile)) };
  });

  app.delete('/api/config/catalog/products/:id/digital-file', storeRoles, async (req) => {
    const { id } = parseInput(idParam, req.params);
    await product(id);
    await db.execute(sql`update items set structured_content = structured_content - 'digitalFile', updated_at = now() where id = ${id}`);
    // The stored bytes stay: orders already placed keep their copy of the record and their link keeps working.
    return { file: null };
  });

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_FILE_BYTES + 1 }, (_req, body, done) => done(null, body));
    const declaredSize = async (req: FastifyRequest) => {
      if (Number(req.headers['content-length'] ?? 0) > MAX_FILE_BYTES) throw new HttpError(413, DIGITAL_TEXT.TOO_LARGE);
    };
    scope.post(
      '/api/config/catalog/products/:id/digital-file',
      { ...storeRoles, onRequest: declaredSize, bodyLimit: MAX_FILE_BYTES + 1 },
      async (req, reply) => {
        const { id } = parseInput(idParam, req.params);
        const { name } = parseInput(nameQuery, req.query ?? {});
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        if (body.length === 0) throw badRequest(DIGITAL_TEXT.EMPTY);
        if (body.length > MAX_FILE_BYTES) throw new HttpError(413, DIGITAL_TEXT.TOO_LARGE);
        const p = await product(id);
        if (Number(p.sc.productType ?? ProductType.PHYSICAL) !== ProductType.DIGITAL) throw badRequest(DIGITAL_TEXT.NOT_DIGITAL);
        // The file it replaces stops counting (its bytes stay for the orders that have it).
        const replaced = privateFileOf(p.sc.digitalFile)?.size ?? 0;
        await checkQuota(db, p.websiteId, Math.max(0, body.length - replaced), quotaBytes(app.config));
        mkdirSync(dir, { recursive: true });
        const key = randomBytes(16).toString('hex');
        writeFileSync(resolve(dir, key), body, { mode: 0o600 });
        const file: DigitalFile = {
          key,
          name,
          size: body.length,
          contentType: SUPPORTED_TYPES[extname(name).toLowerCase()]?.contentType ?? 'application/octet-stream',
          uploadedOn: new Date().toISOString(),
        };
        await db.execute(
          sql`update items set structured_content = structured_content || ${JSON.stringify({ digitalFile: file })}::jsonb, updated_at = now() where id = ${id}`,
        );
        return reply.status(201).send({ file: publicJson(file) });
      },
    );
  });
}

/** Removes a stored file (tests and clean-up); unknown keys are ignored. */
export function removeDigitalFile(dataDir: string, key: string): void {
  if (KEY_RE.test(key)) rmSync(resolve(digitalDir(dataDir), key), { force: true });
}
