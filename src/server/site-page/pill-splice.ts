/**
 * A shared page with a shopper's own cart pill, in gzip and brotli, without compressing the page again for
 * each pill (issue 28: a shopper's page should cost about what an anonymous one does).
 *
 * The page splits at its empty pill into a prefix and a suffix (the pill sits near the end of the page,
 * before the footer scripts). The prefix is compressed once per page and encoding (by the render that the
 * page cache keeps, when it goes out in that encoding; else for the first shopper), ending with a flush, so
 * its bytes end on a byte boundary inside an unfinished stream; a shopper's copy is that prefix followed by
 * their pill and the suffix, which only costs copying buffers:
 * - gzip: the prefix's deflate data (sync flush), the pill as a stored block, the suffix as deflate data of
 *   its own (compressed once, final block; deflate refers back only within its own data), and the gzip
 *   trailer (CRC-32 and length of the whole page);
 * - brotli: the prefix's meta-blocks (flushed), then the pill and the suffix as uncompressed meta-blocks
 *   and an empty last meta-block (RFC 7932 section 9.2). A brotli stream cannot be restarted mid-way (its
 *   distance cache carries over), so the suffix (about 1.3 KB on the demo pages) is sent uncompressed.
 * Both decode to exactly the page with the shopper's pill in place of the empty one.
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zc, crc32, deflateRaw, deflateRawSync, gzip, gzipSync } from 'node:zlib';
import { QUICK, windowFor } from './encode.js';

const gzipAsync = promisify(gzip);
const deflateRawAsync = promisify(deflateRaw);
const brotliAsync = promisify(brotliCompress);

/** A page split at its empty cart pill (views of the page's own buffer). */
export interface PillSplit {
  prefix: Buffer;
  suffix: Buffer;
}

export interface GzipParts {
  /** gzip header and the prefix's deflate data, ended by a sync flush (no final block, no trailer). */
  head: Buffer;
  /** The suffix as raw deflate data, ending with the final block. */
  tail: Buffer;
  /** CRC-32 of the prefix. */
  crc: number;
}

export interface BrotliParts {
  /** The prefix as a brotli stream, flushed (byte-aligned, not finished). */
  head: Buffer;
}

/** The page split at its only empty pill, or null when the pill does not occur exactly once. */
export function splitAtPill(body: Buffer, empty: Buffer): PillSplit | null {
  const at = body.lastIndexOf(empty);
  if (at < 0 || body.indexOf(empty) !== at) return null;
  return { prefix: body.subarray(0, at), suffix: body.subarray(at + empty.length) };
}

const gzipHeadOptions = { level: QUICK.gzip, finishFlush: zc.Z_SYNC_FLUSH };
const gzipTailOptions = { level: QUICK.gzip };

function brotliHeadOptions(split: PillSplit, quality: number) {
  const size = split.prefix.length + split.suffix.length;
  return {
    finishFlush: zc.BROTLI_OPERATION_FLUSH,
    params: {
      [zc.BROTLI_PARAM_QUALITY]: quality,
      [zc.BROTLI_PARAM_MODE]: zc.BROTLI_MODE_TEXT,
      [zc.BROTLI_PARAM_LGWIN]: windowFor(size),
      [zc.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
}

/** gzip parts of a split page, made in zlib's thread pool (at the quick level: made per page for its shoppers, as a render's own copy is). */
export async function gzipParts(split: PillSplit): Promise<GzipParts> {
  const [head, tail] = await Promise.all([gzipAsync(split.prefix, gzipHeadOptions), deflateRawAsync(split.suffix, gzipTailOptions)]);
  return { head, tail, crc: crc32(split.prefix) };
}

/** gzip parts of a split page, on the calling thread (a render compresses its page this way when it may be kept). */
export function gzipPartsSync(split: PillSplit): GzipParts {
  return { head: gzipSync(split.prefix, gzipHeadOptions), tail: deflateRawSync(split.suffix, gzipTailOptions), crc: crc32(split.prefix) };
}

/** brotli parts of a split page, made in zlib's thread pool. */
export async function brotliParts(split: PillSplit, quality: number): Promise<BrotliParts> {
  return { head: await brotliAsync(split.prefix, brotliHeadOptions(split, quality)) };
}

/** brotli parts of a split page, on the calling thread. */
export function brotliPartsSync(split: PillSplit, quality: number): BrotliParts {
  return { head: brotliCompressSync(split.prefix, brotliHeadOptions(split, quality)) };
}

/** The largest stored block of deflate. */
const STORED_MAX = 0xffff;
/** Uncompressed brotli meta-blocks are cut at 64 KiB, so their length always takes four nibbles. */
const META_MAX = 0x10000;

/** The page with `pill` in gzip: the prefix's stream, the pill stored, the suffix's final blocks, the trailer. */
export function gzipWithPill(split: PillSplit, parts: GzipParts, pill: Buffer): Buffer {
  const out: Buffer[] = [parts.head];
  for (let at = 0; at < pill.length; at += STORED_MAX) {
    const chunk = pill.subarray(at, at + STORED_MAX);
    // BFINAL 0, BTYPE 00 (stored), padded to the byte; then LEN and its one's complement, little-endian.
    const header = Buffer.alloc(5);
    header.writeUInt16LE(chunk.length, 1);
    header.writeUInt16LE(~chunk.length & 0xffff, 3);
    out.push(header, chunk);
  }
  out.push(parts.tail);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(split.suffix, crc32(pill, parts.crc)) >>> 0, 0);
  trailer.writeUInt32LE((split.prefix.length + pill.length + split.suffix.length) % 0x100000000, 4);
  out.push(trailer);
  return Buffer.concat(out);
}

/** The page with `pill` in brotli: the prefix's stream, the pill and suffix uncompressed, the last meta-block. */
export function brotliWithPill(split: PillSplit, parts: BrotliParts, pill: Buffer): Buffer {
  // The pill and the suffix each go in meta-blocks of their own, so neither is copied before the one copy
  // into the answer.
  const out: Buffer[] = [parts.head];
  for (const part of [pill, split.suffix]) {
    for (let at = 0; at < part.length; at += META_MAX) {
      const chunk = part.subarray(at, at + META_MAX);
      // ISLAST 0, MNIBBLES 0 (four nibbles), MLEN - 1 in 16 bits, ISUNCOMPRESSED 1; bits from the lowest, then padding.
      const bits = ((chunk.length - 1) << 3) | (1 << 19);
      out.push(Buffer.from([bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff]), chunk);
    }
  }
  out.push(LAST_EMPTY);
  return Buffer.concat(out);
}

/** ISLAST 1, ISLASTEMPTY 1: brotli's closing meta-block. */
const LAST_EMPTY = Buffer.from([0x03]);
