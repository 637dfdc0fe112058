/**
 * Compression of HTML pages (issue 28), in one place for a rendered page and for the page cache.
 *
 * A page rendered for one request is compressed once, synchronously, at the cheap levels: on a long tail
 * most rendered pages are read once, and brotli's cost is mostly setting up its window and hash tables,
 * which `windowFor` sizes to the page (a 40 KB page gets a 64 KB window instead of the default 4 MB: the
 * same output, a fraction of the memory to set up). The page cache keeps that same encoding as the
 * page's first copy, and re-encodes a page at the kept levels, off the event loop (zlib's thread pool),
 * once it is asked for again: bytes matter for the pages many visitors read, not for the one-off ones.
 *
 * Measured on a 38 KB product page (CPU per call, this machine): brotli 1 with a fitted window 0.08 ms
 * (6.8 KB) against 0.25 ms for brotli 3 with the default window (6.2 KB); brotli 5 0.48 ms (5.4 KB);
 * gzip 1 0.14 ms (7.0 KB), gzip 6 0.35 ms (6.0 KB).
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zc, gzip, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

export type PageEncoding = 'br' | 'gzip';

/** Levels for a page compressed while its request waits (brotli quality, gzip level). */
export const QUICK: Readonly<Record<PageEncoding, number>> = { br: 1, gzip: 1 };
/** Levels for a page the cache serves again. */
export const KEPT: Readonly<Record<PageEncoding, number>> = { br: 5, gzip: 6 };
/** Bodies smaller than this are sent as they are (as the compression plugin's threshold). */
export const MIN_BYTES = 1024;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The smallest brotli window (log2 of bytes, 10..24) that holds the whole body: nothing is lost by it. */
export function windowFor(size: number): number {
  let bits = 10;
  while (bits < 24 && 1 << bits < size + 16) bits++;
  return bits;
}

function brotliOptions(body: Buffer, quality: number) {
  return {
    params: {
      [zc.BROTLI_PARAM_QUALITY]: quality,
      [zc.BROTLI_PARAM_MODE]: zc.BROTLI_MODE_TEXT,
      [zc.BROTLI_PARAM_LGWIN]: windowFor(body.length),
      [zc.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  };
}

/** `body` in `encoding` at `level`, on the calling thread. */
export function encodeSync(body: Buffer, encoding: PageEncoding, level: number): Buffer {
  return encoding === 'br' ? brotliCompressSync(body, brotliOptions(body, level)) : gzipSync(body, { level });
}

/** `body` in `encoding` at `level`, in zlib's thread pool. */
export function encodeAsync(body: Buffer, encoding: PageEncoding, level: number): Promise<Buffer> {
  return encoding === 'br' ? brotliAsync(body, brotliOptions(body, level)) : gzipAsync(body, { level });
}

/** The encoding to answer with: brotli, gzip or none, by the request's Accept-Encoding. */
export function pickEncoding(header: string | string[] | undefined): PageEncoding | null {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  if (!text) return null;
  const q = new Map<string, number>();
  for (const part of text.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qp ? Number(qp.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const weight = (name: string) => q.get(name) ?? q.get('*') ?? 0;
  const br = weight('br');
  const gz = weight('gzip');
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return null;
}

/** The encoding a request's page goes out in (null: as it is), by the request and the response so far. */
export function responseEncoding(req: FastifyRequest): PageEncoding | null {
  if (req.headers['x-no-compression'] !== undefined) return null;
  return pickEncoding(req.headers['accept-encoding']);
}

/** Adds Accept-Encoding to the response's Vary header (once). */
export function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!/\baccept-encoding\b/i.test(String(vary)) && String(vary).trim() !== '*')
    reply.header('vary', `${String(vary)}, accept-encoding`);
}

/** The length of a text payload, or of a page in parts (late-insert.ts); -1 for anything else. */
function textLength(payload: unknown): number {
  if (typeof payload === 'string') return payload.length;
  if (!Array.isArray(payload)) return -1;
  let n = 0;
  for (const p of payload as unknown[]) {
    if (typeof p !== 'string') return -1;
    n += p.length;
  }
  return n;
}

/**
 * The encoding a rendered HTML page goes out in, at the quick levels: null when the response is not such a
 * page, is small, is already encoded, is partial, or the request takes neither brotli nor gzip (then the
 * compression plugin, which comes after, does what it always did, deflate included).
 */
export function pageEncoding(req: FastifyRequest, reply: FastifyReply, payload: unknown): PageEncoding | null {
  if (textLength(payload) < MIN_BYTES) return null;
  const type = reply.getHeader('content-type');
  if (typeof type !== 'string' || !type.startsWith('text/html')) return null;
  const current = reply.getHeader('content-encoding');
  if ((current !== undefined && current !== 'identity') || reply.statusCode === 206 || reply.getHeader('content-range') !== undefined)
    return null;
  return responseEncoding(req);
}

/** Marks the response as sent in `encoding` (the compression plugin then leaves it alone). */
export function markEncoded(reply: FastifyReply, encoding: PageEncoding, length: number): void {
  varyOnEncoding(reply);
  reply.header('content-encoding', encoding);
  reply.header('content-length', length);
}

/** Pages up to this many UTF-16 units are encoded through the scratch buffer (3 bytes per unit at most). */
const SCRATCH_UNITS = 1 << 20;
let scratch: Buffer | null = null;

/**
 * The UTF-8 bytes of `text` in a buffer shared by every call: valid only until the next call, so for
 * synchronous use (a one-shot compression). `Buffer.from(text)` measures the text's UTF-8 length in a
 * pass of its own before writing it; writing into room sized for the worst case (3 bytes per UTF-16
 * unit) is one pass, about half the time on a 38 KB page that is not all Latin-1.
 */
export function utf8Scratch(text: string | readonly string[]): Buffer {
  const parts = typeof text === 'string' ? [text] : text;
  let units = 0;
  for (const p of parts) units += p.length;
  if (units > SCRATCH_UNITS) return Buffer.from(parts.join(''));
  const room = units * 3;
  if (!scratch || scratch.length < room) scratch = Buffer.allocUnsafeSlow(Math.max(room, 64 * 1024));
  // Parts are written one after the other: a page and the text put into it never become one string. (A
  // part boundary inside a surrogate pair would write two U+FFFD: callers split at an ASCII character.)
  let n = 0;
  for (const p of parts) n += scratch.write(p, n, 'utf8');
  return scratch.subarray(0, n);
}

/** The UTF-8 bytes of `text` (or its parts, in order) in a buffer of their own (through the scratch buffer: faster than Buffer.from). */
export function utf8Bytes(text: string | readonly string[]): Buffer {
  return Buffer.from(utf8Scratch(text));
}

/**
 * Compresses a rendered HTML page for its request once, at the quick levels (null: see pageEncoding).
 * `body` (the page's bytes) only when asked for: a page nobody keeps is encoded from the scratch buffer.
 */
export function compressPage(
  req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  wantBody = false,
): { body: Buffer | null; encoding: PageEncoding; encoded: Buffer } | null {
  const encoding = pageEncoding(req, reply, payload);
  if (!encoding) return null;
  const bytes = utf8Scratch(payload as string | string[]);
  const encoded = encodeSync(bytes, encoding, QUICK[encoding]);
  markEncoded(reply, encoding, encoded.length);
  return { body: wantBody ? Buffer.from(bytes) : null, encoding, encoded };
}
