import type { PGlite } from '@electric-sql/pglite';

/**
 * Reuses PGlite instances between the tests of one process. Starting a PGlite on the migrated template costs
 * about a second (the WebAssembly Postgres boots and loads the data folder); putting a used one back to the
 * template's state costs a few milliseconds. A lease hands out a guard in front of the instance: once released,
 * every call through it fails, so late work of a finished test (a timer, an unawaited write) can never reach
 * the next test's database. On release the instance is emptied to the template's rows and sequences, its
 * session state discarded, and its schema compared with the template's: a test that changed the schema
 * (renamed a table, dropped a constraint) leaves an instance that is closed instead of reused.
 */
export interface PgliteLease {
  client: PGlite;
  release(): Promise<void>;
}

interface Template {
  tables: string[];
  /** The query naming the tables that hold a row. */
  probe: string;
  /** Rows the migrations wrote (JSON per table) and every sequence's state. */
  rows: Map<string, string>;
  sequences: Array<{ name: string; last: string | null; start: string }>;
  fingerprint: string;
}

const USER_SCHEMAS = `not in ('pg_catalog', 'information_schema', 'pg_toast') and nspname not like 'pg\\_temp\\_%' and nspname not like 'pg\\_toast\\_temp\\_%'`;

/** One line per table, column, constraint, index, function, trigger, enum label, role and extension. */
const FINGERPRINT = `
select md5(coalesce(string_agg(x, E'\\n' order by x), '')) as f from (
  select 'c ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text as x
    from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname ${USER_SCHEMAS}
  union all
  select 'a ' || a.attrelid::regclass::text || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' ||
         a.attnotnull::text || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
    from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where n.nspname ${USER_SCHEMAS} and a.attnum > 0 and not a.attisdropped
  union all
  select 'k ' || k.conrelid::regclass::text || '.' || k.conname || ' ' || pg_get_constraintdef(k.oid)
    from pg_constraint k join pg_namespace n on n.oid = k.connamespace where n.nspname ${USER_SCHEMAS}
  union all
  select 'i ' || pg_get_indexdef(i.indexrelid)
    from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace where n.nspname ${USER_SCHEMAS}
  union all
  select 'p ' || p.oid::regprocedure::text || ' ' || md5(p.prosrc)
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname ${USER_SCHEMAS}
  union all
  select 't ' || tgrelid::regclass::text || '.' || tgname || ' ' || tgenabled::text from pg_trigger where not tgisinternal
  union all
  select 'e ' || enumtypid::regtype::text || ' ' || enumlabel from pg_enum
  union all
  select 'r ' || rolname from pg_roles
  union all
  select 'x ' || extname from pg_extension
) s`;

const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

async function readTemplate(db: PGlite): Promise<Template> {
  const found = await db.query<{ name: string }>(
    `select quote_ident(schemaname) || '.' || quote_ident(tablename) as name from pg_tables
      where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
  );
  const tables = found.rows.map((r) => r.name);
  const probe = tables.map((t) => `select ${quoteLiteral(t)} as t where exists (select 1 from ${t})`).join(' union all ');
  const rows = new Map<string, string>();
  for (const { t } of (await db.query<{ t: string }>(probe)).rows) {
    const r = await db.query<{ j: string }>(`select json_agg(x)::text as j from ${t} x`);
    rows.set(t, r.rows[0]!.j);
  }
  const seqs = await db.query<{ name: string; last: string | null; start: string }>(
    `select quote_ident(schemaname) || '.' || quote_ident(sequencename) as name, last_value::text as last, start_value::text as start
       from pg_sequences`,
  );
  const fingerprint = (await db.query<{ f: string }>(FINGERPRINT)).rows[0]!.f;
  return { tables, probe, rows, sequences: seqs.rows, fingerprint };
}

/** Puts `db` back to the template's rows and sequences, with no session state left. */
async function reset(db: PGlite, tpl: Template): Promise<boolean> {
  await db.exec('ROLLBACK').catch(() => undefined); // a transaction a test left open
  await db.exec('DISCARD ALL');
  if ((await db.query<{ f: string }>(FINGERPRINT)).rows[0]!.f !== tpl.fingerprint) return false;
  const dirty = (await db.query<{ t: string }>(tpl.probe)).rows.map((r) => r.t);
  const statements = ['SET session_replication_role = replica'];
  for (const t of new Set([...dirty, ...tpl.rows.keys()])) {
    statements.push(`DELETE FROM ${t}`);
    const json = tpl.rows.get(t);
    if (json)
      statements.push(`INSERT INTO ${t} OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(null::${t}, ${quoteLiteral(json)})`);
  }
  for (const s of tpl.sequences)
    statements.push(
      s.last === null
        ? `SELECT setval(${quoteLiteral(s.name)}, ${s.start}, false)`
        : `SELECT setval(${quoteLiteral(s.name)}, ${s.last}, true)`,
    );
  statements.push('RESET session_replication_role');
  await db.transaction(async (tx) => {
    await tx.exec(statements.join(';\n'));
  });
  return true;
}

/** A guard in front of `db`: its calls pass through until `revoke`, then fail; listeners it added are tracked. */
function guard(db: PGlite) {
  let revoked = false;
  const channels = new Set<string>();
  const overlay = new Map<PropertyKey, unknown>();
  const refuse = () => {
    throw new Error('This test database was handed back; the call came after its test ended.');
  };
  const CALLS = new Set<PropertyKey>(['query', 'exec', 'transaction', 'sql', 'describeQuery', 'runExclusive', 'unlisten']);
  const client = new Proxy(db, {
    get(target, key) {
      if (overlay.has(key)) return overlay.get(key);
      if (key === 'closed') return revoked || target.closed;
      if (key === 'close') return async () => undefined; // the lease's release closes or keeps it
      if (key === 'listen')
        return (channel: string, cb: (payload: string) => void) => {
          if (revoked) refuse();
          channels.add(channel);
          return target.listen(channel, (p) => {
            if (!revoked) cb(p);
          });
        };
      const value = Reflect.get(target, key, target) as unknown;
      if (CALLS.has(key) && typeof value === 'function')
        return (...args: unknown[]) => {
          if (revoked) refuse();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
    set(_target, key, value) {
      overlay.set(key, value); // a wrapper the caller puts on its own client stays on its lease
      return true;
    },
  });
  return {
    client,
    revoke: async () => {
      revoked = true;
      for (const c of channels) await db.unlisten(c).catch(() => undefined);
    },
  };
}

export function pglitePool(start: () => Promise<PGlite>) {
  const idle: PGlite[] = [];
  const all = new Set<PGlite>();
  let template: Promise<Template> | null = null;
  return {
    async lease(): Promise<PgliteLease> {
      let db = idle.pop();
      if (!db) {
        db = await start();
        all.add(db);
        template ??= readTemplate(db);
        await template;
      }
      const instance = db;
      const g = guard(instance);
      let released: Promise<void> | null = null;
      return {
        client: g.client as PGlite,
        release: () =>
          (released ??= (async () => {
            await g.revoke();
            const reusable = await reset(instance, await template!).catch(() => false);
            if (reusable) idle.push(instance);
            else {
              all.delete(instance);
              await instance.close().catch(() => undefined);
            }
          })()),
      };
    },
    async drain(): Promise<void> {
      const open = [...all];
      idle.length = 0;
      all.clear();
      template = null;
      await Promise.all(open.map((d) => d.close().catch(() => undefined)));
    },
  };
}
