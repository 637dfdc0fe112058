import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { MIGRATIONS_DIR, open, type Database } from '../../src/db/index.js';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export type DbKind = 'pglite' | 'postgres';
export const DB_KINDS: DbKind[] = ['pglite', 'postgres'];

let template: Promise<PGlite> | null = null;

/** A migrated in-memory PGlite, made once per test process; every test database is a clone of it. */
function pgliteTemplate(): Promise<PGlite> {
  template ??= (async () => {
    const t = new PGlite();
    const d = await open({ pglite: t });
    void d;
    return t;
  })();
  return template;
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
        const old = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'tessera\_tpl\_%' AND datname <> $1`, [name]);
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

/** A fresh, migrated, empty database of the given kind. close() drops it (PostgreSQL) or frees it. */
export async function testDatabase(kind: DbKind): Promise<Database & { url?: string }> {
  if (kind === 'pglite') {
    const clone = (await (await pgliteTemplate()).clone()) as PGlite;
    return open({ pglite: clone, migrate: false });
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
  if (template) {
    const t = await template;
    template = null;
    await t.close();
  }
}
