/** Tar archives made by hand for the restore tests: any entry type, link or claimed size (tests only). */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { readTar } from '../../src/server/backup/tar.js';

export interface RawEntry {
  name: string;
  data?: Buffer;
  /** ustar type flag ('0' file, '1' hard link, '2' symlink, '3' char device, '5' folder, '6' FIFO, 'x' pax). */
  type?: string;
  link?: string;
  /** The size the header claims (default: the data's). */
  size?: number;
}

/** A ustar header written here field by field (so a test can claim any type, link or size). */
function rawHeader(e: RawEntry, size: number): Buffer {
  const h = Buffer.alloc(512, 0);
  h.write(e.name, 0, 100, 'utf8');
  h.write('0000644\0', 100, 'ascii');
  h.write('0000000\0', 108, 'ascii');
  h.write('0000000\0', 116, 'ascii');
  h.write(size.toString(8).padStart(11, '0') + '\0', 124, 'ascii');
  h.write('00000000000\0', 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write(e.type ?? '0', 156, 'ascii');
  if (e.link) h.write(e.link, 157, 100, 'utf8');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii');
  return h;
}

export function tarOf(entries: RawEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const data = e.data ?? Buffer.alloc(0);
    parts.push(rawHeader(e, e.size ?? data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512, 0));
  }
  parts.push(Buffer.alloc(1024, 0));
  return gzipSync(Buffer.concat(parts));
}

/** The entries of a real backup archive, in memory. */
export async function entriesOf(archive: Buffer): Promise<RawEntry[]> {
  const out: RawEntry[] = [];
  for await (const e of readTar(Readable.from([gunzipSync(archive)]))) {
    const parts: Buffer[] = [];
    for await (const c of e.body) parts.push(c);
    out.push({ name: e.name, data: Buffer.concat(parts), type: e.type || '0' });
  }
  return out;
}

/** Every file and folder under `dir` (relative paths), to see what a restore left. */
export function tree(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    const rel = p.slice(base.length + 1);
    return d.isDirectory() ? [rel + '/', ...tree(p, base)] : [rel];
  });
}
