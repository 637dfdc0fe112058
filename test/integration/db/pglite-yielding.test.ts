/**
 * PGlite's one connection and the event loop (issue 24, the product import): `Database.pending()` counts the callers
 * waiting for the connection, and a transaction run under `Database.yielding` gives the event loop a turn before
 * each statement, so requests are read while a long import batch runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testDatabase } from '../../helpers/db.js';
import type { Database } from '../../../src/db/index.js';

describe('PGlite: pending callers and yielding transactions', () => {
  let d: Database;
  beforeAll(async () => {
    d = await testDatabase('pglite');
  });
  afterAll(async () => {
    await d?.close();
  });

  it('a query made while a transaction holds the connection counts as pending until it is answered', async () => {
    expect(d.pending?.()).toBe(0);
    let outside: Promise<unknown> | null = null;
    let seen = -1;
    await d.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      outside = d.db.execute(sql`select 2`).then((r) => r);
      await tx.execute(sql`select 3`);
      seen = d.pending!();
    });
    expect(seen).toBe(2);
    await outside;
    expect(d.pending!()).toBe(0);
  });

  it('under yielding, a transaction lets the event loop run between its statements; without, it does not', async () => {
    const ranBetween = async (wrap: <T>(fn: () => Promise<T>) => Promise<T>) => {
      let ran = false;
      let between = false;
      await wrap(() =>
        d.db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          setImmediate(() => (ran = true));
          await tx.execute(sql`select 2`);
          between = ran;
        }),
      );
      return between;
    };
    expect(await ranBetween((fn) => d.yielding!(fn))).toBe(true);
    expect(await ranBetween((fn) => fn())).toBe(false);
  });
});
