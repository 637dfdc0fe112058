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
import { TarWriter, readTar } from './tar.js';
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

/** Where local media live (the uploads folder; editor/uploads.ts). */
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
    const manifest: BackupManifest = { format: 'tessera-backup', version: 1, createdAt: new Date().toISOString(), database: database.kind, migration, tables, media };
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

const TABLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function safeMediaPath(p: string): boolean {
  return p.length > 0 && p.length < 400 && !p.startsWith('/') && !p.split('/').some((s) => s === '' || s === '.' || s === '..') && !p.includes('\\') && !p.includes('\0');
}

/**
 * Restores an archive into `database` (migrated, empty) and `dataDir` (no media yet). Refuses a target
 * that holds a website or media, an archive of another schema version, and a damaged archive (row counts
 * and media checksums are checked against the manifest before anything is committed).
 */
export async function restoreBackup(archive: Readable, database: Database, dataDir: string): Promise<BackupManifest> {
  const existing = await rows<{ n: number | string }>(database.db, sql`SELECT (SELECT count(*) FROM websites) + (SELECT count(*) FROM system_values) AS n`);
  if (Number(existing[0]?.n ?? 0) > 0) throw new BackupError('The target database is not empty: restore into an empty DATA_DIR or database.');
  const media = mediaDir(dataDir);
  if (listFiles(media).length > 0) throw new BackupError(`The media folder ${media} is not empty: restore into an empty DATA_DIR.`);
  const work = await mkdtemp(join(tmpdir(), 'tessera-restore-'));
  const staged = join(dataDir, `.restore-${randomUUID()}`);
  try {
    let manifest: BackupManifest | null = null;
    const seenMedia = new Map<string, { bytes: number; sha256: string }>();
    const tables = new Set<string>();
    for await (const entry of readTar(archive.pipe(createGunzip()))) {
      if (entry.name === MANIFEST) {
        let text = '';
        for await (const c of entry.body) text += c.toString('utf8');
        manifest = JSON.parse(text) as BackupManifest;
        if (manifest.format !== 'tessera-backup' || manifest.version !== 1) throw new BackupError('This is not a Tessera backup archive.');
        const here = await newestMigration(database.db);
        if (manifest.migration !== here) throw new BackupError('The archive was made by another version of Tessera (its database schema differs); restore it with the version that made it.');
        continue;
      }
      if (!manifest) throw new BackupError('This is not a Tessera backup archive (no manifest first).');
      if (entry.name.startsWith('db/') && entry.name.endsWith('.jsonl')) {
        const t = entry.name.slice(3, -6);
        // A table's name becomes a file name in the work folder: a table name, never a path.
        if (!TABLE_NAME.test(t)) throw new BackupError('The archive holds a table with an unsafe name.');
        if (!Object.hasOwn(manifest.tables, t)) throw new BackupError(`The archive holds a table its manifest does not list: ${t.slice(0, 60)}`);
        tables.add(t);
        await pipeline(entry.body, createWriteStream(join(work, `${t}.jsonl`)));
      } else if (entry.name.startsWith('media/')) {
        const p = entry.name.slice(6);
        if (!safeMediaPath(p)) throw new BackupError('The archive holds a media file with an unsafe name.');
        const to = join(staged, p);
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
          createWriteStream(to),
        );
        seenMedia.set(p, { bytes, sha256: h.digest('hex') });
      }
    }
    if (!manifest) throw new BackupError('This is not a Tessera backup archive.');
    for (const m of manifest.media) {
      const got = seenMedia.get(m.path);
      if (!got || got.bytes !== m.bytes || got.sha256 !== m.sha256) throw new BackupError(`The archive is damaged: media file ${m.path} is missing or differs.`);
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
  } finally {
    await rm(work, { recursive: true, force: true });
    rmSync(staged, { recursive: true, force: true });
  }
}

async function loadTables(database: Database, dir: string, manifest: BackupManifest, all: string[]): Promise<void> {
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
        await tx.execute(sql`${sql.raw(`INSERT INTO ${ident(t)} (${list})${overriding} SELECT ${list} FROM json_populate_recordset(NULL::${ident(t)}, `)}${json}::json)`);
        n += batch.length;
        batch = [];
      };
      const lines = createInterface({ input: createReadStream(join(dir, `${t}.jsonl`)), crlfDelay: Infinity });
      for await (const line of lines) {
        if (line === '') continue;
        batch.push(line);
        if (batch.length >= INSERT_BATCH) await flush();
      }
      await flush();
      if (n !== manifest.tables[t]) throw new BackupError(`The archive is damaged: table ${t} has ${n} rows, its manifest says ${manifest.tables[t]}.`);
    }
    // Sequences (serial and identity columns) continue after the restored ids.
    const seqs = await rows<{ t: string; c: string; s: string }>(
      tx,
      sql`SELECT c.table_name AS t, c.column_name AS c, pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) AS s
          FROM information_schema.columns c WHERE c.table_schema = 'public' AND pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) IS NOT NULL`,
    );
    for (const q of seqs) {
      await tx.execute(sql.raw(`SELECT setval('${q.s.replace(/'/g, "''")}', COALESCE((SELECT max(${ident(q.c)}) FROM ${ident(q.t)}), 1), (SELECT max(${ident(q.c)}) FROM ${ident(q.t)}) IS NOT NULL)`));
    }
  });
}

/** Restores an archive file. */
export async function restoreBackupFile(file: string, database: Database, dataDir: string): Promise<BackupManifest> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupError(`No archive at ${file}`);
  return restoreBackup(createReadStream(file), database, dataDir);
}
