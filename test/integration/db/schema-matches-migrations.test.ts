/**
 * The database the migrations (src/db/migrations) make is the one the drizzle schema (src/db/schema) describes:
 * the same tables, columns (type, nullability, whether the database supplies a default), primary keys and
 * indexes (columns, uniqueness, method, partial or not). Drift here means queries built from the schema and
 * the tables they run on disagree, or that drizzle-kit would generate a migration nobody meant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { is, sql } from 'drizzle-orm';
import { PgTable, getTableConfig } from 'drizzle-orm/pg-core';
import { DB_KINDS, testDatabase } from '../../helpers/db.js';
import { schema, type Database } from '../../../src/db/index.js';
import { rows } from '../../../src/server/db-util.js';

/**
 * Columns only the database writes (a trigger keeps each row's search document) and reads (raw SQL search
 * queries): left out of the schema on purpose, so that whole-row selects do not carry them.
 */
const DATABASE_ONLY_COLUMNS = new Set(['collections.search_doc', 'items.search_doc']);
const DATABASE_ONLY_INDEXES = new Set(['collections_search_doc_idx', 'items_search_doc_idx']);

interface DbColumn {
  table: string;
  column: string;
  type: string;
  notNull: boolean;
  hasDefault: boolean;
}
interface DbIndex {
  table: string;
  name?: string;
  unique: boolean;
  primary: boolean;
  method: string;
  partial: boolean;
  columns: string[];
}

const COLUMNS_SQL = sql.raw(`
  select c.relname as "table", a.attname as "column", format_type(a.atttypid, a.atttypmod) as "type",
         a.attnotnull as "notNull", (d.adbin is not null) as "hasDefault"
  from pg_attribute a
  join pg_class c on c.oid = a.attrelid
  join pg_namespace n on n.oid = c.relnamespace
  left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
  where n.nspname = 'public' and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped`);

const INDEXES_SQL = sql.raw(`
  select t.relname as "table", i.relname as "name", x.indisunique as "unique", x.indisprimary as "primary",
         am.amname as "method", (x.indpred is not null) as "partial",
         array(select a.attname from unnest(x.indkey) with ordinality k(attnum, n)
               join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum order by k.n) as "columns"
  from pg_index x
  join pg_class i on i.oid = x.indexrelid
  join pg_class t on t.oid = x.indrelid
  join pg_am am on am.oid = i.relam
  join pg_namespace n on n.oid = t.relnamespace
  where n.nspname = 'public'`);

/** The schema's SQL type as PostgreSQL's format_type spells it. */
function pgType(sqlType: string): string {
  return sqlType
    .replace(/^bigserial$/, 'bigint')
    .replace(/^serial$/, 'integer')
    .replace(/^varchar/, 'character varying')
    .replace(/^timestamp \((\d)\)/, 'timestamp($1)')
    .replace(/^timestamp$/, 'timestamp without time zone')
    .replace(/, /g, ',');
}

const tables = (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable)).map((t) => getTableConfig(t));

describe.each(DB_KINDS)('the migrated database and the drizzle schema on %s', (kind) => {
  let database: Database;
  let columns: DbColumn[];
  let indexes: DbIndex[];
  beforeAll(async () => {
    database = await testDatabase(kind);
    columns = await rows<DbColumn>(database.db, COLUMNS_SQL);
    indexes = (await rows<DbIndex>(database.db, INDEXES_SQL)).map((i) => ({
      ...i,
      columns: Array.isArray(i.columns)
        ? i.columns
        : String(i.columns)
            .replace(/^\{|\}$/g, '')
            .split(','),
    }));
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  it('has the same tables', () => {
    const inDb = [...new Set(columns.map((c) => c.table))].sort();
    expect(inDb).toEqual(tables.map((t) => t.name).sort());
  });

  it('has every column of the schema with its type, nullability and database default, and no other', () => {
    const want = tables.flatMap((t) =>
      t.columns.map((c) => ({
        table: t.name,
        column: c.name,
        type: pgType(c.getSQLType()),
        notNull: c.notNull,
        // A default the database supplies: a SQL default or a serial's sequence ($defaultFn is the app's own).
        hasDefault: c.default !== undefined || /serial$/.test(c.getSQLType()),
      })),
    );
    const got = columns.filter((c) => !DATABASE_ONLY_COLUMNS.has(`${c.table}.${c.column}`));
    const key = (c: DbColumn) => `${c.table}.${c.column}`;
    expect([...got].sort((a, b) => key(a).localeCompare(key(b)))).toEqual([...want].sort((a, b) => key(a).localeCompare(key(b))));
  });

  it('has the primary keys and indexes of the schema, and no other', () => {
    const name = (c: object) => ('name' in c ? String(c.name) : '(expression)');
    const want: DbIndex[] = [];
    for (const t of tables) {
      const pk = [...t.columns.filter((c) => c.primary).map((c) => c.name), ...t.primaryKeys.flatMap((p) => p.columns.map((c) => c.name))];
      if (pk.length) want.push({ table: t.name, unique: true, primary: true, method: 'btree', partial: false, columns: pk });
      for (const i of t.indexes) {
        const c = i.config;
        want.push({
          table: t.name,
          name: c.name,
          unique: c.unique,
          primary: false,
          method: c.method ?? 'btree',
          partial: c.where !== undefined,
          columns: c.columns.map(name),
        });
      }
      for (const u of t.uniqueConstraints)
        want.push({
          table: t.name,
          name: u.getName(),
          unique: true,
          primary: false,
          method: 'btree',
          partial: false,
          columns: u.columns.map((c) => c.name),
        });
      for (const c of t.columns.filter((x) => x.isUnique))
        want.push({ table: t.name, unique: true, primary: false, method: 'btree', partial: false, columns: [c.name] });
    }
    // Primary keys and column-level unique constraints take names the schema does not give: compared without them.
    const shape = (i: DbIndex) => JSON.stringify([i.table, i.name ?? '', i.unique, i.primary, i.method, i.partial, i.columns]);
    const named = new Set(want.map((w) => w.name).filter(Boolean));
    const got = indexes
      .filter((i) => !DATABASE_ONLY_INDEXES.has(i.name!))
      .map((i) => (named.has(i.name) ? i : { ...i, name: undefined }))
      .map(shape)
      .sort();
    expect(got).toEqual(want.map(shape).sort());
  });
});
