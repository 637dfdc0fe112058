/**
 * Image size variants: `GET /demo-media/linen-shirt.jpg?format=500w` answers the image scaled to
 * 500 px wide (never wider than the original, except vector art, which is drawn at that width).
 * A variant is made on first request with sharp, written to a disk cache under
 * DATA_DIR/cache/images (or the system temp folder), and served from there afterwards.
 * Browsers that accept WebP get WebP (Vary: Accept). Paths outside the media folders are refused.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import sharp from 'sharp';
import { SRCSET_WIDTHS } from '../../core/constants.js';
import { resolveInside } from '../files-inside.js';

export const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.webp', '.gif', '.svg']);
/** The widths of the format query: 100w ... 2500w. */
export const FORMAT_WIDTHS = new Set(SRCSET_WIDTHS.map((w) => `${w}w`));

export type VariantFormat = 'jpeg' | 'png' | 'webp';

export interface VariantResult {
  file: string;
  contentType: string;
  bytes: number;
}

export class ImageVariantError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function defaultCacheDir(): string {
  return process.env.DATA_DIR ? resolve(process.env.DATA_DIR, 'cache', 'images') : join(tmpdir(), 'tessera-image-cache');
}

const CONTENT_TYPES: Record<VariantFormat, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

export class ImageVariants {
  private readonly roots: Array<{ prefix: string; dir: string }>;
  private readonly inflight = new Map<string, Promise<VariantResult>>();
  /** Made variants by key, so a hot image costs one Map lookup and no stat. */
  private readonly known = new Map<string, VariantResult>();

  constructor(
    roots: Record<string, string>,
    readonly cacheDir: string = defaultCacheDir(),
  ) {
    this.roots = Object.entries(roots).map(([prefix, dir]) => ({ prefix, dir: resolve(dir) }));
    mkdirSync(this.cacheDir, { recursive: true });
  }

  /** Whether a request path sits under one of the media prefixes. */
  handles(path: string): boolean {
    return this.roots.some((r) => path.startsWith(r.prefix));
  }

  /** Resolves a request path to a file inside its media folder; throws 404 for anything else (traversal included). */
  resolveSource(path: string): string {
    const root = this.roots.find((r) => path.startsWith(r.prefix));
    if (!root) throw new ImageVariantError(404, 'Not found');
    let rel: string;
    try {
      rel = decodeURIComponent(path.slice(root.prefix.length));
    } catch {
      throw new ImageVariantError(400, 'The image path is not valid.');
    }
    if (!IMAGE_EXTENSIONS.has(extname(rel).toLowerCase())) throw new ImageVariantError(404, 'Not found');
    // Inside the media folder's real path, links followed, a regular file (files-inside.ts): else not found.
    const file = resolveInside(root.dir, rel);
    if (!file || !IMAGE_EXTENSIONS.has(extname(file).toLowerCase())) throw new ImageVariantError(404, 'Not found');
    return file;
  }

  /** The output format: WebP when the browser takes it, else the source's own (vector art becomes PNG). */
  static formatFor(source: string, accept: string | undefined): VariantFormat {
    if (accept && accept.includes('image/webp')) return 'webp';
    const ext = extname(source).toLowerCase();
    return ext === '.jpg' || ext === '.jpeg' ? 'jpeg' : ext === '.webp' ? 'webp' : 'png';
  }

  /** Deletes every cached variant of a request path (before its source is deleted: the cache key needs its stat). */
  forget(path: string): void {
    let source: string;
    try {
      source = this.resolveSource(path);
    } catch {
      return;
    }
    const stat = statSync(source);
    for (const format of FORMAT_WIDTHS) {
      const width = Number.parseInt(format, 10);
      for (const out of ['jpeg', 'png', 'webp'] as const) {
        const key = createHash('sha1').update(`${source}\0${stat.mtimeMs}\0${stat.size}\0${width}\0${out}`).digest('hex');
        this.known.delete(key);
        rmSync(join(this.cacheDir, `${key}.${out === 'jpeg' ? 'jpg' : out}`), { force: true });
      }
    }
  }

  /** Makes (or finds in the cache) the variant of a request path at a format such as '500w'. */
  async variant(path: string, format: string, accept?: string): Promise<VariantResult> {
    if (!FORMAT_WIDTHS.has(format))
      throw new ImageVariantError(400, `Unknown image format "${format}". Use one of ${[...FORMAT_WIDTHS].join(', ')}.`);
    const width = Number.parseInt(format, 10);
    const source = this.resolveSource(path);
    const out = ImageVariants.formatFor(source, accept);
    const stat = statSync(source);
    const key = createHash('sha1').update(`${source}\0${stat.mtimeMs}\0${stat.size}\0${width}\0${out}`).digest('hex');
    const hit = this.known.get(key);
    if (hit) return hit;
    const file = join(this.cacheDir, `${key}.${out === 'jpeg' ? 'jpg' : out}`);
    if (existsSync(file)) {
      const r = { file, contentType: CONTENT_TYPES[out], bytes: statSync(file).size };
      this.known.set(key, r);
      return r;
    }
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.make(source, file, width, out).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    const r = await pending;
    this.known.set(key, r);
    return r;
  }

  private async make(source: string, file: string, width: number, out: VariantFormat): Promise<VariantResult> {
    const buf = await renderVariant(readFileSync(source), extname(source).toLowerCase() === '.svg', width, out);
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(tmp, buf);
    renameSync(tmp, file);
    return { file, contentType: CONTENT_TYPES[out], bytes: buf.length };
  }
}

/** The bytes of one size variant of an image: `width` px wide (never enlarged, except vector art), upright, in `out`. */
export async function renderVariant(input: Buffer, isVector: boolean, width: number, out: VariantFormat): Promise<Buffer> {
  let img = sharp(input, { animated: false, limitInputPixels: 100_000_000 });
  if (isVector) {
    const meta = await img.metadata();
    const density = Math.min(2400, Math.max(1, (72 * width) / Math.max(1, meta.width ?? width)));
    img = sharp(input, { density }).resize({ width });
  } else {
    img = img.rotate().resize({ width, withoutEnlargement: true });
  }
  return out === 'webp'
    ? img.webp({ quality: 78 }).toBuffer()
    : out === 'jpeg'
      ? img.jpeg({ quality: 80, mozjpeg: true, progressive: true }).toBuffer()
      : img.png({ compressionLevel: 8 }).toBuffer();
}

export function variantContentType(out: VariantFormat): string {
  return CONTENT_TYPES[out];
}
