/**
 * Where media bytes live: one interface, two stores. `LocalMediaStore` keeps objects as files under a
 * folder (DATA_DIR, the default and what Tessera always did); `S3MediaStore` keeps them in any
 * S3-compatible bucket (AWS S3, R2, MinIO, B2) through the official SDK, so every instance reads what
 * any instance wrote. Keys are relative paths such as `uploads/<stored name>`; private objects (member
 * files) are handed out only through short-lived presigned URLs, after Tessera's own access check.
 * Credentials stay inside the SDK client: nothing here logs them or puts them in an error message.
 */
import { openInside, resolveInside } from '../files-inside.js';
import { createReadStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config } from '../config.js';

export interface StoredObject {
  body: Readable;
  bytes: number;
}

export interface SignOptions {
  /** The file name the browser saves it under. */
  filename: string;
  contentType: string;
  /** For tests: sign as of this moment (the URL expires `expiresSeconds` after it). */
  signingDate?: Date;
}

export interface MediaStore {
  readonly kind: 'local' | 's3';
  /** Writes an object (a stream is streamed, never held whole in memory); it replaces any object of that key. */
  put(key: string, body: Buffer | Readable, contentType: string): Promise<void>;
  /** The object, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** The object's size in bytes, or null when there is none. */
  size(key: string): Promise<number | null>;
  /** Every key under a prefix (`uploads/variants/x/`). */
  list(prefix: string): Promise<string[]>;
  /** Deletes these keys (missing ones are fine). */
  delete(keys: string[]): Promise<void>;
  /** A short-lived URL that serves a private object, or null when the store cannot sign (local disk: Tessera streams it). */
  signedUrl(key: string, opts: SignOptions): Promise<string | null>;
  /** Throws when the store cannot be reached (readiness). */
  check(): Promise<void>;
  /** Lets go of connections (a command-line program ends after it). */
  close(): void;
}

/** A key is a relative path of safe segments; anything else is refused before it reaches a disk or bucket. */
export function assertKey(key: string): void {
  if (
    key.length === 0 ||
    key.length > 500 ||
    key.startsWith('/') ||
    key.includes('\0') ||
    key.split('/').some((p) => p === '' || p === '.' || p === '..')
  ) {
    throw new Error('Invalid media key');
  }
}

export class LocalMediaStore implements MediaStore {
  readonly kind = 'local' as const;
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The file of a key, inside the root. */
  file(key: string): string {
    assertKey(key);
    const f = resolve(this.root, key);
    if (!f.startsWith(this.root + sep)) throw new Error('Invalid media key');
    return f;
  }

  async put(key: string, body: Buffer | Readable, _contentType: string): Promise<void> {
    const file = this.file(key);
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      if (Buffer.isBuffer(body)) writeFileSync(tmp, body);
      else await pipeline(body, createWriteStream(tmp));
      renameSync(tmp, file);
    } finally {
      rmSync(tmp, { force: true });
    }
  }

  /** Reads only regular files of the root's real path (files-inside.ts): a link in the folder leads nowhere else. */
  async get(key: string): Promise<StoredObject | null> {
    assertKey(key);
    const opened = openInside(this.root, key);
    if (!opened) return null;
    return { body: createReadStream('', { fd: opened.fd, autoClose: true }), bytes: opened.size };
  }

  async size(key: string): Promise<number | null> {
    assertKey(key);
    const file = resolveInside(this.root, key);
    return file ? statSync(file).size : null;
  }

  async list(prefix: string): Promise<string[]> {
    const dir = resolve(this.root, prefix);
    if (!dir.startsWith(this.root + sep) || !existsSync(dir)) return [];
    const out: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.isFile() && !e.name.endsWith('.tmp'))
          out.push(
            p
              .slice(this.root.length + 1)
              .split(sep)
              .join('/'),
          );
      }
    };
    walk(dir);
    return out.sort();
  }

  async delete(keys: string[]): Promise<void> {
    for (const k of keys) rmSync(this.file(k), { force: true });
  }

  async signedUrl(): Promise<string | null> {
    return null;
  }

  async check(): Promise<void> {
    mkdirSync(this.root, { recursive: true });
  }

  close(): void {}
}

export interface S3Options {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Lifetime of a presigned URL, in seconds. */
  signedUrlSeconds: number;
}

export class S3MediaStore implements MediaStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;

  constructor(readonly opts: S3Options) {
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint,
      forcePathStyle: opts.forcePathStyle,
      credentials:
        opts.accessKeyId && opts.secretAccessKey ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } : undefined,
      // S3-compatible stores (R2, MinIO, B2, s3rver) do not all take the newer default checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<void> {
    assertKey(key);
    // lib-storage sends a stream in parts (multipart above 5 MB), so no upload is held whole in memory.
    await new Upload({ client: this.client, params: { Bucket: this.opts.bucket, Key: key, Body: body, ContentType: contentType } }).done();
  }

  async get(key: string): Promise<StoredObject | null> {
    assertKey(key);
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.opts.bucket, Key: key }));
      return { body: r.Body as Readable, bytes: Number(r.ContentLength ?? 0) };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async size(key: string): Promise<number | null> {
    assertKey(key);
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.opts.bucket, Key: key }));
      return Number(r.ContentLength ?? 0);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async list(prefix: string): Promise<string[]> {
    const out: string[] = [];
    let token: string | undefined;
    do {
      const r = await this.client.send(new ListObjectsV2Command({ Bucket: this.opts.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const o of r.Contents ?? []) if (o.Key) out.push(o.Key);
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
    return out.sort();
  }

  async delete(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      batch.forEach(assertKey);
      if (batch.length)
        await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.opts.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
        );
    }
  }

  async signedUrl(key: string, o: SignOptions): Promise<string> {
    assertKey(key);
    const cmd = new GetObjectCommand({
      Bucket: this.opts.bucket,
      Key: key,
      ResponseContentType: o.contentType,
      ResponseContentDisposition: `inline; filename="${o.filename.replace(/[^\w.-]/g, '_')}"`,
      ResponseCacheControl: 'private, no-store',
    });
    return getSignedUrl(this.client, cmd, { expiresIn: this.opts.signedUrlSeconds, signingDate: o.signingDate });
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.opts.bucket }));
  }

  close(): void {
    this.client.destroy();
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** The S3 options of a configuration, or null when S3_BUCKET is unset (local disk). */
export function s3OptionsOf(config: Config): S3Options | null {
  if (!config.S3_BUCKET) return null;
  return {
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    signedUrlSeconds: config.MEDIA_SIGNED_URL_SECONDS,
  };
}

const stores = new WeakMap<Config, MediaStore>();

/** The media store a configuration names (one per configuration object, so one S3 client per app). */
export function mediaStoreFor(config: Config): MediaStore {
  let s = stores.get(config);
  if (!s) {
    const o = s3OptionsOf(config);
    s = o ? new S3MediaStore(o) : new LocalMediaStore(config.DATA_DIR);
    stores.set(config, s);
  }
  return s;
}

/** Reads a whole stored object (for sharp, which needs the original's bytes). */
export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

export { Readable };
