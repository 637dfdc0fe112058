import { randomBytes, createHash } from 'node:crypto';

/** 24 hex characters, the id shape the platform's records use. */
export function newId(): string {
  return randomBytes(12).toString('hex');
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
