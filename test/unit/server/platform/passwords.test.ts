import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_COST, hashPassword, setPasswordHashCost, verifyPassword } from '../../../../src/server/platform/passwords';

describe('password hashes', () => {
  afterEach(() => setPasswordHashCost(DEFAULT_COST));

  it('are scrypt at cost 2^14 by default, salted, and check only the right password', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$16384\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct hors', a)).toBe(false);
  });

  it('keep the cost they were made with, so a hash made at another cost still checks', async () => {
    setPasswordHashCost(1024);
    const cheap = await hashPassword('pässword');
    expect(cheap.startsWith('scrypt$1024$')).toBe(true);
    setPasswordHashCost(DEFAULT_COST);
    expect(await verifyPassword('pässword', cheap)).toBe(true);
    // The same password in another Unicode normal form is the same password.
    expect(await verifyPassword('pa\u0308ssword', cheap)).toBe(true);
  });

  it('refuse a cost that is not a power of two of at least 1024', () => {
    for (const bad of [0, 512, 1000, 3000, 1.5, Number.NaN]) expect(() => setPasswordHashCost(bad)).toThrow(/power of two/);
  });

  it('answer false, never throw, for no hash or a hash of another form', async () => {
    for (const stored of [null, undefined, '', 'bcrypt$x$y$z', 'scrypt$$$']) expect(await verifyPassword('x', stored)).toBe(false);
  });
});
