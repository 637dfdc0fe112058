/**
 * Backups and restore (issue 31). One archive format for both databases: a gzipped tar holding
 *
 *   tessera-backup.json   the manifest: version, database kind, newest migration, row counts, media list with sizes and SHA-256
 *   db/<table>.jsonl      every row of every table of the public schema, one JSON object a line
 *   media/<path>          the local media originals (DATA_DIR/uploads), byte for byte
 *
 * The rows are a logical export taken in ONE read-only REPEATABLE READ transaction: a single snapshot of
 * the whole database, so every order committed before the backup began is in it, with its lines and
 * payments, and nothing half-written is. The server keeps serving meanwhile (on PostgreSQL other
 * connections carry on; on PGlite, whose one connection is shared, requests wait for the export).
 * Generated image widths (DATA_DIR/cache) are not archived: they are made again on demand.
 *
 * Restore goes into an empty database (freshly migrated by open(), no website yet) and an empty media
 * folder, in one transaction, with foreign-key triggers held off while rows load (session_replication_role),
 * then moves every sequence past the restored ids.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, rmSync, statSync, renameSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/index.js';
import { rows } from '../db-util.js';
import { z } from 'zod';
import { TarWriter, readTar, type TarEntry } from './tar.js';
import { walkInside } from '../files-inside.js';

export const MANIFEST = 'tessera-backup.json';
const FETCH = 1000;
const INSERT_BATCH = 500;

export interface BackupManifest {
  format: 'tessera-backup';
  version: 1;
  createdAt: string;
  database: 'pglite' | 'postgres';
  /** The newest applied migration (drizzle's created_at): a restore needs the same. */
  migration: number;
  tables: Record<string, number>;
  media: Array<{ path: string; bytes: number; sha256: string }>;
}

export class BackupError extends Error {}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Where local media live (the uploads folder; storage/uploads.ts). */
export function mediaDir(dataDir: string): string {
  return resolve(dataDir, 'uploads');
}

/**
 * The media files under `dir` by relative path: regular files of the folder's real path only (files-inside.ts),
 * so a link in the media folder never puts a file from elsewhere on the server into a backup.
 */
function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return walkInside(dir).filter((p) => !p.endsWith('.partial'));
}

async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const c of createReadStream(path)) h.update(c as Buffer);
  return h.digest('hex');
}

async function newestMigration(db: Database['db'] | Tx): Promise<number> {
  const r = await rows<{ at: string | number | null }>(db, sql`SELECT max(created_at) AS at FROM drizzle.__drizzle_migrations`);
  return r[0]?.at == null ? 0 : Number(r[0].at);
}

async function publicTables(db: Database['db'] | Tx): Promise<string[]> {
  const r = await rows<{ t: string }>(db, sql`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  return r.map((x) => x.t);
}

/** Writes the rows of every table, from one snapshot, into `dir`/<table>.jsonl; returns the row counts. */
async function exportTables(database: Database, dir: string): Promise<{ tables: Record<string, number>; migration: number }> {
  return database.db.transaction(
    async (tx) => {
      // The first statement fixes the snapshot: everything committed before this point is in the backup.
      const migration = await newestMigration(tx);
      const tables: Record<string, number> = {};
      for (const t of await publicTables(tx)) {
        const out = createWriteStream(join(dir, `${t}.jsonl`));
        let n = 0;
        await tx.execute(sql.raw(`DECLARE tessera_backup NO SCROLL CURSOR FOR SELECT row_to_json(x)::text AS j FROM ${ident(t)} x`));
        for (;;) {
          const batch = await rows<{ j: string }>(tx, sql.raw(`FETCH ${FETCH} FROM tessera_backup`));
          if (batch.length === 0) break;
          n += batch.length;
          if (!out.write(batch.map((b) => b.j).join('\n') + '\n')) await new Promise<void>((r) => out.once('drain', () => r()));
        }
        await tx.execute(sql.raw('CLOSE tessera_backup'));
        await new Promise<void>((resolveEnd, reject) => {
          out.once('error', reject);
          out.end(() => resolveEnd());
        });
        tables[t] = n;
      }
      return { tables, migration };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/**
 * Writes a backup archive (gzipped tar) to `out`: the database from one snapshot, then the local media.
 * Resolves to the manifest once the archive is complete.
 */
export async function writeBackup(database: Database, dataDir: string, out: Writable): Promise<BackupManifest> {
  const work = await mkdtemp(join(tmpdir(), 'tessera-backup-'));
  try {
    const { tables, migration } = await exportTables(database, work);
    const media: BackupManifest['media'] = [];
    const root = mediaDir(dataDir);
    for (const path of listFiles(root)) {
      const file = join(root, path);
      media.push({ path, bytes: statSync(file).size, sha256: await sha256File(file) });
    }
    const manifest: BackupManifest = {
      format: 'tessera-backup',
      version: 1,
      createdAt: new Date().toISOString(),
      database: database.kind,
      migration,
      tables,
      media,
    };
    const gzip = createGzip();
    const done = pipeline(gzip, out);
    const tar = new TarWriter(gzip);
    await tar.addBuffer(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 2)));
    for (const t of Object.keys(tables)) {
      const f = join(work, `${t}.jsonl`);
      await tar.addFile(`db/${t}.jsonl`, f, statSync(f).size);
    }
    for (const m of media) await tar.addFile(`media/${m.path}`, join(root, m.path), m.bytes);
    await tar.finish();
    await done;
    return manifest;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Writes a backup to a file (via a .partial name, so a half-written archive never has the final name). */
export async function writeBackupFile(database: Database, dataDir: string, file: string): Promise<BackupManifest> {
  mkdirSync(dirname(resolve(file)), { recursive: true });
  const partial = `${file}.partial`;
  try {
    const manifest = await writeBackup(database, dataDir, createWriteStream(partial));
    renameSync(partial, file);
    return manifest;
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  }
}

/** A backup as a stream (the owner's download). Errors end the stream with an error. */
export function backupStream(database: Database, dataDir: string): { stream: Readable; done: Promise<BackupManifest> } {
  const stream = new PassThrough();
  const done = writeBackup(database, dataDir, stream);
  done.catch((e: Error) => stream.destroy(e));
  return { stream, done };
}

function safeMediaPath(p: string): boolean {
  return (
    p.length > 0 &&
    p.length < 400 &&
    !p.startsWith('/') &&
    !p.split('/').some((s) => s === '' || s === '.' || s === '..') &&
    !p.includes('\\') &&
    !p.includes('\0')
  );
}

/** A table name as the backup writes it (pg_tables of the public schema: lower-case identifiers). */
const TABLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** What a restore reads of an archive at most (an archive is not trusted: a small file can unpack to terabytes). */
export interface RestoreLimits {
  /** The manifest entry. */
  manifestBytes: number;
  /** One entry of the archive (a table's rows or a media file). */
  entryBytes: number;
  /** All entries together, unpacked. */
  totalBytes: number;
  /** One row (a line of a table's rows). */
  rowBytes: number;
}

export const RESTORE_LIMITS: RestoreLimits = {
  manifestBytes: 16 * 2 ** 20,
  entryBytes: 8 * 2 ** 30,
  totalBytes: 64 * 2 ** 30,
  rowBytes: 256 * 2 ** 20,
};

export const RESTORE_TEXT = {
  SPECIAL: (name: string) =>
    `The archive holds a link, device or other special entry (${name}): a Tessera backup holds only files and folders.`,
  UNEXPECTED: (name: string) => `The archive holds an entry a Tessera backup does not have: ${name}`,
  TWICE: (name: string) => `The archive holds ${name} twice.`,
  ENTRY_TOO_LARGE: (name: string, limit: number) =>
    `The archive entry ${name} is larger than the restore allows (${Math.round(limit / 2 ** 20)} MiB).`,
  TOTAL_TOO_LARGE: (limit: number) => `The archive unpacks to more than the restore allows (${Math.round(limit / 2 ** 20)} MiB in all).`,
  ROW_TOO_LARGE: (table: string, limit: number) =>
    `The archive is damaged: a row of table ${table} is longer than ${Math.round(limit / 2 ** 20)} MiB.`,
  BAD_ROW: (table: string, line: number) => `The archive is damaged: row ${line} of table ${table} is not a JSON object.`,
  UNLISTED_MEDIA: (path: string) => `The archive holds a media file its manifest does not list: ${path}`,
  MEDIA_SIZE: (path: string) => `The archive is damaged: media file ${path} has another size than its manifest says.`,
  NOT_BACKUP: 'This is not a Tessera backup archive.',
  BAD_MANIFEST: 'This is not a Tessera backup archive (its manifest cannot be read).',
  LOAD_FAILED: (detail: string) => `The archive's rows could not be loaded (nothing was restored): ${detail}`,
} as const;

const manifestShape = z.object({
  format: z.literal('tessera-backup'),
  version: z.literal(1),
  createdAt: z.string().max(100),
  database: z.enum(['pglite', 'postgres']),
  migration: z.number(),
  tables: z.record(z.string().regex(TABLE_NAME), z.number().int().min(0)),
  media: z.array(
    z.object({ path: z.string().refine(safeMediaPath), bytes: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  ),
});

const shown = (name: string) => JSON.stringify(name.slice(0, 80));

async function readManifest(entry: TarEntry, limits: RestoreLimits): Promise<BackupManifest> {
  if (entry.size > limits.manifestBytes) throw new BackupError(RESTORE_TEXT.ENTRY_TOO_LARGE(MANIFEST, limits.manifestBytes));
  const parts: Buffer[] = [];
  for await (const c of entry.body) parts.push(c);
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(parts).toString('utf8'));
  } catch {
    throw new BackupError(RESTORE_TEXT.BAD_MANIFEST);
  }
  if ((json as { format?: unknown } | null)?.format !== 'tessera-backup') throw new BackupError(RESTORE_TEXT.NOT_BACKUP);
  const m = manifestShape.safeParse(json);
  if (!m.success) throw new BackupError(RESTORE_TEXT.BAD_MANIFEST);
  if (new Set(m.data.media.map((x) => x.path)).size !== m.data.media.length) throw new BackupError(RESTORE_TEXT.BAD_MANIFEST);
  return m.data;
}

/** Streams a table's rows to `to`, refusing a line longer than the row limit (a reader would hold it whole). */
async function writeRows(entry: TarEntry, table: string, to: string, limits: RestoreLimits): Promise<void> {
  let run = 0;
  await pipeline(
    entry.body,
    async function* (src: AsyncIterable<Buffer>) {
      for await (const c of src) {
        let from = 0;
        for (let nl = c.indexOf(0x0a); nl !== -1; nl = c.indexOf(0x0a, from)) {
          if (run + nl - from > limits.rowBytes) throw new BackupError(RESTORE_TEXT.ROW_TOO_LARGE(table, limits.rowBytes));
          run = 0;
          from = nl + 1;
        }
        run += c.length - from;
        if (run > limits.rowBytes) throw new BackupError(RESTORE_TEXT.ROW_TOO_LARGE(table, limits.rowBytes));
        yield c;
      }
    },
    createWriteStream(to, { flags: 'wx' }),
  );
}

/** Streams a media file to `to`, answering its size and SHA-256. */
async function writeMedia(entry: TarEntry, to: string): Promise<{ bytes: number; sha256: string }> {
  mkdirSync(dirname(to), { recursive: true });
  const h = createHash('sha256');
  let bytes = 0;
  await pipeline(
    entry.body,
    async function* (src: AsyncIterable<Buffer>) {
      for await (const c of src) {
        h.update(c);
        bytes += c.length;
        yield c;
      }
    },
    createWriteStream(to, { flags: 'wx' }),
  );
  return { bytes, sha256: h.digest('hex') };
}

interface Unpacked {
  manifest: BackupManifest;
  tables: Set<string>;
  media: Map<string, { bytes: number; sha256: string }>;
}

/**
 * Reads the archive's entries into `work` (table rows) and `staged` (media), checking each before a byte of it is
 * written: only files and folders, only the names a backup has (the manifest first, db/<table>.jsonl of a table
 * the manifest lists and this version has, media/<safe path> the manifest lists with that size), each once,
 * within the size limits.
 */
async function unpack(archive: Readable, database: Database, work: string, staged: string, limits: RestoreLimits): Promise<Unpacked> {
  const gunzip = createGunzip();
  archive.on('error', (e) => gunzip.destroy(e));
  // The reader gets a gzip fault through its iterator; one the stream emits again after the refusal (data
  // already written into it) has nobody left to tell and must not end the process.
  gunzip.on('error', () => undefined);
  try {
    return await unpackEntries(readTar(archive.pipe(gunzip)), database, work, staged, limits);
  } finally {
    // A refusal stops reading at once: the file (and the gunzip stream) are let go.
    archive.destroy();
    gunzip.destroy();
  }
}

async function unpackEntries(
  entries: AsyncIterable<TarEntry>,
  database: Database,
  work: string,
  staged: string,
  limits: RestoreLimits,
): Promise<Unpacked> {
  let manifest: BackupManifest | null = null;
  const media = new Map<string, { bytes: number; sha256: string }>();
  const tables = new Set<string>();
  const here = new Set(await publicTables(database.db));
  const seen = new Set<string>();
  let total = 0;
  for await (const entry of entries) {
    const regular = entry.type === '0' || entry.type === '';
    if (!regular && entry.type !== '5') throw new BackupError(RESTORE_TEXT.SPECIAL(shown(entry.name)));
    // Sizes are the headers' (the reader yields exactly that many bytes): checked before a byte is read.
    if (entry.size > limits.entryBytes) throw new BackupError(RESTORE_TEXT.ENTRY_TOO_LARGE(shown(entry.name), limits.entryBytes));
    total += entry.size;
    if (total > limits.totalBytes) throw new BackupError(RESTORE_TEXT.TOTAL_TOO_LARGE(limits.totalBytes));
    if (!regular) {
      // A folder (tar -c writes them): names a place, holds nothing.
      if (
        entry.size !== 0 ||
        !(
          entry.name === 'db/' ||
          entry.name === 'media/' ||
          (entry.name.startsWith('media/') && safeMediaPath(entry.name.slice(6).replace(/\/$/, '')))
        )
      )
        throw new BackupError(RESTORE_TEXT.UNEXPECTED(shown(entry.name)));
      continue;
    }
    if (seen.has(entry.name)) throw new BackupError(RESTORE_TEXT.TWICE(shown(entry.name)));
    seen.add(entry.name);
    if (entry.name === MANIFEST) {
      if (manifest) throw new BackupError(RESTORE_TEXT.TWICE(MANIFEST));
      manifest = await readManifest(entry, limits);
      if (manifest.migration !== (await newestMigration(database.db)))
        throw new BackupError(
          'The archive was made by another version of Tessera (its database schema differs); restore it with the version that made it.',
        );
      continue;
    }
    if (!manifest) throw new BackupError('This is not a Tessera backup archive (no manifest first).');
    if (entry.name.startsWith('db/') && entry.name.endsWith('.jsonl')) {
      const t = entry.name.slice(3, -6);
      if (!TABLE_NAME.test(t) || !Object.hasOwn(manifest.tables, t))
        throw new BackupError(`The archive holds a table its manifest does not list: ${shown(t)}`);
      if (!here.has(t)) throw new BackupError(`The archive holds a table this version does not have: ${t}`);
      tables.add(t);
      await writeRows(entry, t, join(work, `${t}.jsonl`), limits);
    } else if (entry.name.startsWith('media/')) {
      const p = entry.name.slice(6);
      if (!safeMediaPath(p)) throw new BackupError('The archive holds a media file with an unsafe name.');
      const listed = manifest.media.find((m) => m.path === p);
      if (!listed) throw new BackupError(RESTORE_TEXT.UNLISTED_MEDIA(shown(p)));
      if (listed.bytes !== entry.size) throw new BackupError(RESTORE_TEXT.MEDIA_SIZE(shown(p)));
      media.set(p, await writeMedia(entry, join(staged, p)));
    } else throw new BackupError(RESTORE_TEXT.UNEXPECTED(shown(entry.name)));
  }
  if (!manifest) throw new BackupError(RESTORE_TEXT.NOT_BACKUP);
  return { manifest, tables, media };
}

/**
 * Restores an archive into `database` (migrated, empty) and `dataDir` (no media yet). The archive is not
 * trusted: see `unpack` for what is refused; rows are loaded as data (json_populate_recordset into this
 * version's own columns), never run as SQL. Refuses a target that holds a website or media, an archive of
 * another schema version, and a damaged archive (row counts and media checksums are checked against the
 * manifest before anything is committed). Everything it writes is under `dataDir`; on any failure the database
 * stays empty (one transaction) and the media folder untouched (files are staged, then moved in last).
 */
export async function restoreBackup(
  archive: Readable,
  database: Database,
  dataDir: string,
  limits: RestoreLimits = RESTORE_LIMITS,
): Promise<BackupManifest> {
  const existing = await rows<{ n: number | string }>(
    database.db,
    sql`SELECT (SELECT count(*) FROM websites) + (SELECT count(*) FROM system_values) AS n`,
  );
  if (Number(existing[0]?.n ?? 0) > 0)
    throw new BackupError('The target database is not empty: restore into an empty DATA_DIR or database.');
  const media = mediaDir(dataDir);
  if (listFiles(media).length > 0) throw new BackupError(`The media folder ${media} is not empty: restore into an empty DATA_DIR.`);
  mkdirSync(dataDir, { recursive: true });
  const work = join(dataDir, `.restore-rows-${randomUUID()}`);
  const staged = join(dataDir, `.restore-${randomUUID()}`);
  mkdirSync(work);
  try {
    const { manifest, tables, media: seenMedia } = await unpack(archive, database, work, staged, limits);
    for (const m of manifest.media) {
      const got = seenMedia.get(m.path);
      if (!got || got.bytes !== m.bytes || got.sha256 !== m.sha256)
        throw new BackupError(`The archive is damaged: media file ${m.path} is missing or differs.`);
    }
    const here = new Set(await publicTables(database.db));
    for (const t of Object.keys(manifest.tables)) {
      if (!tables.has(t)) throw new BackupError(`The archive is damaged: table ${t} is missing.`);
      if (!here.has(t)) throw new BackupError(`The archive holds a table this version does not have: ${t}`);
    }
    await loadTables(database, work, manifest, [...here]);
    // Media last: the rows are in; move the checked files into place.
    if (existsSync(staged)) {
      mkdirSync(dirname(media), { recursive: true });
      if (existsSync(media)) rmSync(media, { recursive: true });
      renameSync(staged, media);
    }
    return manifest;
  } catch (e) {
    // A tar or gzip fault (a truncated or corrupt archive) in words, like every other refusal.
    if (e instanceof BackupError) throw e;
    const code = (e as { code?: string }).code;
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' || /^The archive is/.test((e as Error).message ?? ''))
      throw new BackupError(
        /^The archive is/.test((e as Error).message) ? (e as Error).message : 'The archive is damaged (it is not a complete gzip file).',
      );
    throw e;
  } finally {
    await rm(work, { recursive: true, force: true });
    rmSync(staged, { recursive: true, force: true });
  }
}

async function loadTables(database: Database, dir: string, manifest: BackupManifest, all: string[]): Promise<void> {
  try {
    await loadTablesTx(database, dir, manifest, all);
  } catch (e) {
    if (e instanceof BackupError) throw e;
    // The database refused a row (a bad value for its column, broken JSON): the transaction is rolled back.
    throw new BackupError(RESTORE_TEXT.LOAD_FAILED(e instanceof Error ? e.message.split('\n')[0]!.slice(0, 200) : String(e).slice(0, 200)));
  }
}

async function loadTablesTx(database: Database, dir: string, manifest: BackupManifest, all: string[]): Promise<void> {
  await database.db.transaction(async (tx) => {
    // Rows load table by table; the foreign keys (triggers) are checked by the source database already.
    await tx.execute(sql.raw('SET LOCAL session_replication_role = replica'));
    // What the migrations themselves inserted is replaced by the archive's rows.
    await tx.execute(sql.raw(`TRUNCATE ${all.map(ident).join(', ')} RESTART IDENTITY CASCADE`));
    for (const t of Object.keys(manifest.tables)) {
      const cols = await rows<{ c: string; identity: string | null }>(
        tx,
        sql`SELECT column_name AS c, identity_generation AS identity FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ${t} AND is_generated = 'NEVER' ORDER BY ordinal_position`,
      );
      const list = cols.map((c) => ident(c.c)).join(', ');
      const overriding = cols.some((c) => c.identity === 'ALWAYS') ? ' OVERRIDING SYSTEM VALUE' : '';
      let batch: string[] = [];
      let n = 0;
      const flush = async () => {
        if (batch.length === 0) return;
        const json = `[${batch.join(',')}]`;
        await tx.execute(
          sql`${sql.raw(`INSERT INTO ${ident(t)} (${list})${overriding} SELECT ${list} FROM json_populate_recordset(NULL::${ident(t)}, `)}${json}::json)`,
        );
        n += batch.length;
        batch = [];
      };
      const lines = createInterface({ input: createReadStream(join(dir, `${t}.jsonl`)), crlfDelay: Infinity });
      let line = 0;
      for await (const text of lines) {
        line++;
        if (text === '') continue;
        // A row is a JSON object (its text goes to json_populate_recordset as a value, never as SQL).
        if (text[0] !== '{' || text[text.length - 1] !== '}') throw new BackupError(RESTORE_TEXT.BAD_ROW(t, line));
        batch.push(text);
        if (batch.length >= INSERT_BATCH) await flush();
      }
      await flush();
      if (n !== manifest.tables[t])
        throw new BackupError(`The archive is damaged: table ${t} has ${n} rows, its manifest says ${manifest.tables[t]}.`);
    }
    // Sequences (serial and identity columns) continue after the restored ids.
    const seqs = await rows<{ t: string; c: string; s: string }>(
      tx,
      sql`SELECT c.table_name AS t, c.column_name AS c, pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) AS s
          FROM information_schema.columns c WHERE c.table_schema = 'public' AND pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) IS NOT NULL`,
    );
    for (const q of seqs) {
      await tx.execute(
        sql.raw(
          `SELECT setval('${q.s.replace(/'/g, "''")}', COALESCE((SELECT max(${ident(q.c)}) FROM ${ident(q.t)}), 1), (SELECT max(${ident(q.c)}) FROM ${ident(q.t)}) IS NOT NULL)`,
        ),
      );
    }
  });
}

/** Restores an archive file. */
export async function restoreBackupFile(file: string, database: Database, dataDir: string): Promise<BackupManifest> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupError(`No archive at ${file}`);
  return restoreBackup(createReadStream(file), database, dataDir);
}
