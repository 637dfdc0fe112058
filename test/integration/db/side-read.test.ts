import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { PG_URL, testDatabase } from '../../helpers/db.js';
import type { Database } from '../../../src/db/index.js';
import { rows } from '../../../src/server/db-util.js';
import { SiteCache } from '../../../src/server/plugins/site-cache.js';

// PostgreSQL's content version is read on a connection of its own (db/index.ts sideRead), so a request whose
// page is kept does not queue behind the pool's statements. It must answer like the pool, survive its
// connection being cut, and still report the server's own errors.
describe('the version read on a connection of its own (PostgreSQL)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await testDatabase('postgres');
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  const sidePids = async () =>
    (
      await rows<{ pid: number }>(
        database.db,
        sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and query like 'select sum(weight)%'`,
      )
    ).map((r) => r.pid);

  it('reads the version there, with the pool busy: the read does not wait for a pool connection', async () => {
    const cache = new SiteCache(database);
    const before = await cache.version();
    // Hold every pool connection (the test database's pool has 30) until this test lets go: each waits on
    // an advisory lock that a client outside the pool holds.
    const holder = new pg.Client({ connectionString: PG_URL });
    await holder.connect();
    const LOCK = 73_012_026;
    await holder.query('select pg_advisory_lock($1)', [LOCK]);
    try {
      const held = Array.from({ length: 30 }, () => database.db.execute(sql`select pg_advisory_xact_lock_shared(${LOCK})`));
      const released = Promise.all(held).then(() => 'pool released');
      // Until the pool has handed out every connection to them.
      await expect.poll(() => database.poolStats!(), { timeout: 30_000, interval: 5 }).toMatchObject({ total: 30, idle: 0 });
      // The version is answered while every pool connection is still held (were it queued behind the pool,
      // the read would never finish and the test would time out).
      const version = cache.version();
      expect(await Promise.race([version.then(() => 'version read'), released])).toBe('version read');
      expect(await version).toBe(before);
      await holder.query('select pg_advisory_unlock($1)', [LOCK]);
      expect(await released).toBe('pool released');
    } finally {
      await holder.end();
    }
    expect((await sidePids()).length).toBe(1);
    // A write moves the version, seen by the next read.
    await database.db.execute(sql`insert into site_changes (txid, weight) values (txid_current(), 1)`);
    expect(await cache.version()).not.toBe(before);
  });

  it('answers through the pool when its connection is cut, connects again for the next read, and throws the server’s errors', async () => {
    const cache = new SiteCache(database);
    const first = await cache.version();
    const [pid] = await sidePids();
    expect(pid).toBeDefined();
    await database.db.execute(sql`select pg_terminate_backend(${pid})`);
    // The cut connection is noticed by its error event or by the failed read: either way the read answers.
    expect(await cache.version()).toBe(first);
    expect(await cache.version()).toBe(first);
    const now = await sidePids();
    expect(now.length).toBe(1);
    expect(now[0]).not.toBe(pid);
    await expect(database.sideRead!('select no_such_column from site_changes')).rejects.toMatchObject({ code: '42703' });
    expect(await cache.version()).toBe(first);
  });
});
