import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { open, type Database } from '../../src/db/index.js';

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

/** A fresh, migrated, empty database of the given kind. close() drops it (PostgreSQL) or frees it. */
export async function testDatabase(kind: DbKind): Promise<Database & { url?: string }> {
  if (kind === 'pglite') {
    const clone = (await (await pgliteTemplate()).clone()) as PGlite;
    return open({ pglite: clone, migrate: false });
  }
  const name = `tessera_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDb(PG_URL, name);
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
