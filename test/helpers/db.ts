import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { MIGRATIONS_DIR, open, type Database } from '../../src/db/index.js';
import { pglitePool } from './pglite-pool.js';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export type DbKind = 'pglite' | 'postgres';
/**
 * Both databases: for tests whose behaviour depends on the database (storage, SQL, transactions, locking,
 * migrations, concurrency), which PGlite (one connection, statements in turn) and PostgreSQL do differently.
 */
export const DB_KINDS: DbKind[] = ['pglite', 'postgres'];
/** PGlite alone: for tests of HTTP-level behaviour, which is the same over either database. */
export const APP_KINDS: DbKind[] = ['pglite'];

let template: Promise<PGlite> | null = null;

/** The installed PGlite's version (its package.json is not among its exports: found from its entry point). */
function pgliteVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (;;) {
    const p = join(dir, 'package.json');
    if (existsSync(p)) {
      const pkg = JSON.parse(readFileSync(p, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@electric-sql/pglite') return pkg.version ?? 'unknown';
    }
    if (dirname(dir) === dir) return 'unknown';
    dir = dirname(dir);
  }
}
const PGLITE_TEMPLATE_PREFIX = 'tessera-pglite-tpl-';

/** The migrated, empty PGlite data folder (a tarball) for this set of migrations and this PGlite, as the global setup leaves it. */
export function pgliteTemplateFile(): string {
  return join(tmpdir(), `${PGLITE_TEMPLATE_PREFIX}${migrationsDigest()}-${pgliteVersion()}.tar`);
}

/**
 * Makes the migrated, empty PGlite data folder once for the whole run (the global setup calls this), so that a
 * test process loads it instead of starting an empty PGlite (initdb) and migrating it again: each test database
 * is still a clone of a freshly migrated one. Written whole or not at all (a rename); tarballs of other
 * migration sets or PGlite versions that no run has used for a day are removed.
 */
export async function writePgliteTemplate(): Promise<string> {
  const file = pgliteTemplateFile();
  // Another checkout's run may still be reading its own: only those unused for a day go.
  for (const name of readdirSync(tmpdir())) {
    const other = join(tmpdir(), name);
    if (!name.startsWith(PGLITE_TEMPLATE_PREFIX) || other === file) continue;
    try {
      if (Date.now() - statSync(other).mtimeMs > 86_400_000) rmSync(other, { force: true });
    } catch {
      // gone already
    }
  }
  if (existsSync(file)) {
    const now = new Date();
    utimesSync(file, now, now); // in use again
    return file;
  }
  const t = new PGlite();
  try {
    await open({ pglite: t });
    const dump = await t.dumpDataDir('none');
    const part = `${file}.${process.pid}.part`;
    writeFileSync(part, Buffer.from(await dump.arrayBuffer()));
    renameSync(part, file);
  } finally {
    await t.close();
  }
  return file;
}

let templateDump: Promise<Blob> | null = null;

/**
 * The data folder of a migrated, empty PGlite, read once per test process; every test database is a PGlite
 * started on a copy of it (as PGlite's clone() does). The global setup's when there is one, else a PGlite
 * migrated here and dumped.
 */
function pgliteTemplateDump(): Promise<Blob> {
  templateDump ??= (async () => {
    let saved: Blob | null = null;
    try {
      saved = new Blob([readFileSync(pgliteTemplateFile())]);
    } catch {
      saved = null; // no global setup ran (or its file was removed): migrate here
    }
    if (saved) return saved;
    template ??= (async () => {
      const t = new PGlite();
      await open({ pglite: t });
      return t;
    })();
    return (await template).dumpDataDir('none');
  })();
  return templateDump;
}

function withDb(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A digest of every migration file (SQL and journal): a template database is good for one set of them. */
function migrationsDigest(): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else h.update(name).update(readFileSync(p));
    }
  };
  walk(MIGRATIONS_DIR);
  return h.digest('hex').slice(0, 16);
}

let pgTemplate: Promise<string> | null = null;

/**
 * PostgreSQL: a migrated, empty database to copy (CREATE DATABASE ... TEMPLATE), made once for a set of
 * migrations by whichever test process gets there first (an advisory lock keeps the others waiting), so
 * each test database is a file copy instead of running every migration again.
 */
function postgresTemplate(): Promise<string> {
  pgTemplate ??= (async () => {
    const name = `tessera_tpl_${migrationsDigest()}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      await admin.query('SELECT pg_advisory_lock(7274381)');
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) {
        const building = `${name}_build`;
        await admin.query(`DROP DATABASE IF EXISTS ${building}`);
        await admin.query(`CREATE DATABASE ${building}`);
        const built = await open({ databaseUrl: withDb(PG_URL, building), poolSize: 1 });
        await built.close();
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
        // Templates of older migration sets are left by earlier checkouts: dropped when unused.
        const old = await admin.query<{ datname: string }>(
          `SELECT datname FROM pg_database WHERE datname LIKE 'tessera\_tpl\_%' AND datname <> $1`,
          [name],
        );
        for (const r of old.rows) await admin.query(`DROP DATABASE IF EXISTS ${r.datname}`).catch(() => undefined);
      }
    } finally {
      await admin.query('SELECT pg_advisory_unlock(7274381)').catch(() => undefined);
      await admin.end();
    }
    return name;
  })();
  pgTemplate.catch(() => {
    pgTemplate = null;
  });
  return pgTemplate;
}

/** The process's PGlite instances, each started once on the template and reset between the tests that lease it. */
const pool = pglitePool(async () => PGlite.create({ loadDataDir: await pgliteTemplateDump() }));

/** A fresh, migrated, empty database of the given kind. close() drops it (PostgreSQL) or hands it back (PGlite). */
export async function testDatabase(kind: DbKind): Promise<Database & { url?: string }> {
  if (kind === 'pglite') {
    const lease = await pool.lease();
    const database = await open({ pglite: lease.client, migrate: false });
    return { ...database, close: () => lease.release() };
  }
  const name = `tessera_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const template = await postgresTemplate();
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  const url = withDb(PG_URL, name);
  // Migrated already (the template): the migrator only confirms there is nothing to apply.
  const database = await open({ databaseUrl: url, poolSize: 30 });
  return {
    ...database,
    url,
    close: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function closeTemplate(): Promise<void> {
  templateDump = null;
  await pool.drain();
  if (template) {
    const t = await template;
    template = null;
    await t.close();
  }
}
