/** Signed unsubscribe tokens and opaque keyset cursors of the restock lists. */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { rows } from '../db-util.js';
import { badRequest } from '../errors.js';

const KEY_NAME = 'restock_unsubscribe_key';
const keys = new WeakMap<Database, Promise<string>>();

/** The install's secret for unsubscribe links: made once, kept in system_values. */
export function unsubscribeKey(database: Database): Promise<string> {
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

function mac(key: string, signUpId: string): string {
  return createHmac('sha256', key).update(`restock-unsubscribe:${signUpId}`).digest('base64url');
}

/** `<signUpId>.<hmac>`: names one sign-up and cannot be forged without the install's key. */
export function signUnsubscribeToken(key: string, signUpId: string): string {
  return `${signUpId}.${mac(key, signUpId)}`;
}

/** The sign-up id a token names, or null when it is malformed or its signature is wrong. */
export function verifyUnsubscribeToken(key: string, token: string): string | null {
  if (typeof token !== 'string' || token.length > 200) return null;
  const m = /^([0-9a-f]{24})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const expected = Buffer.from(mac(key, m[1]!));
  const given = Buffer.from(m[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given) ? m[1]! : null;
}

export interface Keyset {
  created: Date;
  id: string;
}

export const BAD_CURSOR = 'The cursor is not valid.';

/** An opaque cursor for the row after which the next page starts. */
export function encodeCursor(k: Keyset): string {
  return Buffer.from(`${k.created.getTime()}:${k.id}`, 'utf8').toString('base64url');
}

/** Decodes a cursor; undefined when none was given; a 400 when it cannot be read. */
export function decodeCursor(cursor: string | undefined): Keyset | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const m = /^(\d{1,15}):([A-Za-z0-9_-]{1,64})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw badRequest(BAD_CURSOR);
  return { created: new Date(Number(m[1])), id: m[2]! };
}
