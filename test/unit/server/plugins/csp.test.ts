import { describe, expect, it } from 'vitest';
import { freshNonce } from '../../../../src/server/plugins/csp.js';

describe('CSP nonces', () => {
  it('are 128 random bits in base64, never repeated, across refills of the pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const n = freshNonce();
      expect(n).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(n, 'base64')).toHaveLength(16);
      seen.add(n);
    }
    expect(seen.size).toBe(1000);
  });
});
