/** Signed links: the reviews request page's token (and the donation receipt's), made with one install key. */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { rows } from '../db-util.js';

const KEY_NAME = 'reviews_link_key';
const keys = new WeakMap<Database, Promise<string>>();

/** The install's secret for review and receipt links: made once, kept in system_values. */
export function linkKey(database: Database): Promise<string> {
  let p = keys.get(database);
  if (!p) {
    p = (async () => {
      await database.db.execute(sql`INSERT INTO system_values (key, value) VALUES (${KEY_NAME}, ${randomBytes(32).toString('hex')}) ON CONFLICT (key) DO NOTHING`);
      const r = await rows<{ value: string }>(database.db, sql`SELECT value FROM system_values WHERE key = ${KEY_NAME}`);
      return r[0]!.value;
    })();
    p.catch(() => keys.delete(database));
    keys.set(database, p);
  }
  return p;
}

function mac(key: string, purpose: string, id: string): string {
  return createHmac('sha256', key).update(`${purpose}:${id}`).digest('base64url');
}

/** `<id>.<hmac>`: names one row for one purpose and cannot be forged without the install's key. */
export function signLink(key: string, purpose: string, id: string): string {
  return `${id}.${mac(key, purpose, id)}`;
}

/** The id a token names, or null when it is malformed or its signature is wrong. */
export function verifyLink(key: string, purpose: string, token: unknown): string | null {
  if (typeof token !== 'string' || token.length > 200) return null;
  const m = /^([0-9a-f]{24})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const expected = Buffer.from(mac(key, purpose, m[1]!));
  const given = Buffer.from(m[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? m[1]! : null;
}
