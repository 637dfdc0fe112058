import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashToken } from '../../../src/db/ids.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('hashToken', () => {
  it('answers the SHA-256 of the token every time, whether it was seen before or not, past the bound of kept hashes', () => {
    const tokens = Array.from({ length: 25_000 }, (_, i) => `token-${i}-${(i * 7919) % 1000}`);
    for (const t of tokens) expect(hashToken(t)).toBe(sha256(t));
    // Again, in another order: some are kept, most were dropped when the map filled.
    for (const t of tokens.slice().reverse()) expect(hashToken(t)).toBe(sha256(t));
    const long = 'x'.repeat(5000);
    expect(hashToken(long)).toBe(sha256(long));
    expect(hashToken(long)).toBe(sha256(long));
    expect(hashToken('')).toBe(sha256(''));
  });
});
