/** Signed unsubscribe tokens and opaque keyset cursors of the restock lists. */
import type { Database } from '../../db/index.js';
import { badRequest } from '../errors.js';
import { installKey, signLink, verifyLink } from '../signed-links.js';

const PURPOSE = 'restock-unsubscribe';

/** The install's secret for unsubscribe links: made once, kept in system_values. */
export function unsubscribeKey(database: Database): Promise<string> {
  return installKey(database, 'restock_unsubscribe_key');
}

/** `<signUpId>.<hmac>`: names one sign-up and cannot be forged without the install's key. */
export function signUnsubscribeToken(key: string, signUpId: string): string {
  return signLink(key, PURPOSE, signUpId);
}

/** The sign-up id a token names, or null when it is malformed or its signature is wrong. */
export function verifyUnsubscribeToken(key: string, token: string): string | null {
  return verifyLink(key, PURPOSE, token);
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
