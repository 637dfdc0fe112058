/**
 * The backup archive's container: a gzipped POSIX (ustar) tar, readable by any `tar -xzf`. Only what the
 * backup needs: regular files and folders, names up to 255 bytes (prefix + name), sizes under 8 GiB.
 */
import { createReadStream } from 'node:fs';
import type { Readable, Writable } from 'node:stream';

const BLOCK = 512;

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, mtime: Date): Buffer {
  const h = Buffer.alloc(BLOCK, 0);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100) throw new Error(`archive name too long: ${name.slice(0, 80)}`);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  if (size >= 8 ** 11) throw new Error(`file too large for the archive: ${name}`);
  h.write(base, 0, 100, 'utf8');
  h.write(octal(0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148, 'ascii');
  return h;
}

async function write(out: Writable, chunk: Buffer): Promise<void> {
  if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
}

/** Writes tar entries to `out` (a gzip stream, typically). */
export class TarWriter {
  constructor(private readonly out: Writable) {}

  async addBuffer(name: string, data: Buffer, mtime = new Date()): Promise<void> {
    await write(this.out, header(name, data.length, mtime));
    await write(this.out, data);
    const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
    if (pad) await write(this.out, Buffer.alloc(pad, 0));
  }

  /** Streams a file of known size into the archive (never whole in memory). */
  async addFile(name: string, path: string, size: number, mtime = new Date()): Promise<void> {
    await write(this.out, header(name, size, mtime));
    let n = 0;
    for await (const chunk of createReadStream(path)) {
      n += (chunk as Buffer).length;
      if (n > size) throw new Error(`${name} grew while it was archived`);
      await write(this.out, chunk as Buffer);
    }
    if (n !== size) throw new Error(`${name} changed size while it was archived`);
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (pad) await write(this.out, Buffer.alloc(pad, 0));
  }

  async finish(): Promise<void> {
    await write(this.out, Buffer.alloc(BLOCK * 2, 0));
    await new Promise<void>((resolve, reject) => {
      this.out.once('error', reject);
      this.out.end(() => resolve());
    });
  }
}

export interface TarEntry {
  name: string;
  size: number;
  /** The ustar type flag: '0' (or '' / NUL) a file, '5' a folder, '1' a hard link, '2' a symlink, '3'/'4' devices, 'x'/'g'/'L' extended headers... */
  type: string;
  /** The entry's bytes as a stream; must be consumed (or drained) before the next entry. */
  body: AsyncIterable<Buffer>;
}

/**
 * Reads the entries of an (already gunzipped) tar stream, one at a time, of every type (the caller decides what
 * it accepts). A header whose checksum does not hold is refused.
 */
export async function* readTar(input: Readable): AsyncGenerator<TarEntry> {
  const it = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let buf: Buffer = Buffer.alloc(0);
  let done = false;
  const fill = async (n: number): Promise<boolean> => {
    while (buf.length < n && !done) {
      const r = await it.next();
      if (r.done) done = true;
      else buf = buf.length === 0 ? r.value : Buffer.concat([buf, r.value]);
    }
    return buf.length >= n;
  };
  for (;;) {
    if (!(await fill(BLOCK))) return;
    const h = buf.subarray(0, BLOCK);
    buf = buf.subarray(BLOCK);
    if (h.every((b) => b === 0)) return;
    const str = (from: number, len: number) => {
      const s = h.subarray(from, from + len);
      const z = s.indexOf(0);
      return s.subarray(0, z === -1 ? len : z).toString('utf8');
    };
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
    if (Number.parseInt(str(148, 8).trim() || '-1', 8) !== sum) throw new Error('The archive is damaged (a bad entry header).');
    const sizeText = str(124, 12).trim();
    if (!/^[0-7]{0,12}$/.test(sizeText)) throw new Error('The archive is damaged (a bad entry size).');
    const size = Number.parseInt(sizeText || '0', 8);
    if (!Number.isSafeInteger(size) || size < 0) throw new Error('The archive is damaged (a bad entry size).');
    const prefix = str(345, 155);
    const name = prefix ? `${prefix}/${str(0, 100)}` : str(0, 100);
    const type = str(156, 1);
    let left = size;
    let consumed = false;
    const body = (async function* () {
      while (left > 0) {
        if (buf.length === 0 && !(await fill(1))) throw new Error('The archive is truncated.');
        const take = Math.min(left, buf.length);
        const part = buf.subarray(0, take);
        buf = buf.subarray(take);
        left -= take;
        yield part;
      }
      consumed = true;
    })();
    yield { name, size, type, body };
    if (!consumed) for await (const _ of body) void _;
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (pad) {
      if (!(await fill(pad))) throw new Error('The archive is truncated.');
      buf = buf.subarray(pad);
    }
  }
}
