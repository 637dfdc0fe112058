import { randomBytes, createHash } from 'node:crypto';

/** 24 hex characters, the id shape the platform's records use. */
export function newId(): string {
  return randomBytes(12).toString('hex');
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Hashes of tokens seen lately (a shopper's cart token is hashed on every page they open): bounded, and
 * emptied when full, so made-up tokens cannot grow it. Only this process's memory holds it, as it holds the
 * tokens themselves while their requests run.
 */
const recentHashes = new Map<string, string>();
const RECENT_HASHES = 10_000;

export function hashToken(token: string): string {
  let hash = recentHashes.get(token);
  if (hash === undefined) {
    hash = createHash('sha256').update(token).digest('hex');
    if (token.length <= 200) {
      if (recentHashes.size >= RECENT_HASHES) recentHashes.clear();
      recentHashes.set(token, hash);
    }
  }
  return hash;
}
