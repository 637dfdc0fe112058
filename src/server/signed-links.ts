/**
 * Signed links: `<id>.<hmac>` tokens that name one row for one purpose (an unsubscribe link, a review
 * request, a receipt) and cannot be forged without the install's key for them. Keys are made once per
 * install and kept in system_values, so every instance signs and checks alike.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { rows } from './db-util.js';

const keys = new WeakMap<Database, Map<string, Promise<string>>>();

/** The install's secret named `name`: made on first use (one winner across instances), then read. */
export function installKey(database: Database, name: string): Promise<string> {
  let byName = keys.get(database);
  if (!byName) keys.set(database, (byName = new Map()));
  let p = byName.get(name);
  if (!p) {
    p = (async () => {
      await database.db.execute(
        sql`INSERT INTO system_values (key, value) VALUES (${name}, ${randomBytes(32).toString('hex')}) ON CONFLICT (key) DO NOTHING`,
      );
      const r = await rows<{ value: string }>(database.db, sql`SELECT value FROM system_values WHERE key = ${name}`);
      return r[0]!.value;
    })();
    const made = p;
    made.catch(() => byName.delete(name));
    byName.set(name, made);
  }
  return p;
}

/** The install's secret for review request and donation receipt links (one key for both, as before). */
export function linkKey(database: Database): Promise<string> {
  return installKey(database, 'reviews_link_key');
}

function mac(key: string, purpose: string, id: string): string {
  return createHmac('sha256', key).update(`${purpose}:${id}`).digest('base64url');
}

/** `<id>.<hmac>` for `id` (24 hex digits) and `purpose`. */
export function signLink(key: string, purpose: string, id: string): string {
  return `${id}.${mac(key, purpose, id)}`;
}

/** The id a token names, or null when it is malformed or its signature is not this purpose's. */
export function verifyLink(key: string, purpose: string, token: unknown): string | null {
  if (typeof token !== 'string' || token.length > 200) return null;
  const m = /^([0-9a-f]{24})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const expected = Buffer.from(mac(key, purpose, m[1]!));
  const given = Buffer.from(m[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? m[1]! : null;
}
