import { scrypt, randomBytes, timingSafeEqual } from 'node:crypto';

/** scrypt's cost for new hashes: 2^14, 16 MiB and tens of milliseconds a check. */
export const DEFAULT_COST = 16384;
const KEYLEN = 64;
let N = DEFAULT_COST;

/**
 * Sets the cost of hashes made from now on (a power of two, 1024 or more). Existing hashes keep the cost
 * written in them. Only test setup lowers it, so a suite that signs in thousands of times stays quick.
 */
export function setPasswordHashCost(cost: number): void {
  if (!Number.isInteger(cost) || cost < 1024 || (cost & (cost - 1)) !== 0)
    throw new Error(`scrypt cost must be a power of two >= 1024, not ${cost}`);
  N = cost;
}

function derive(password: string, salt: Buffer, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEYLEN, { N: n, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** scrypt with a random salt; the stored form names its parameters so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N);
  return `scrypt$${N}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const [scheme, n, salt, key] = (stored ?? '').split('$');
  if (scheme !== 'scrypt' || !n || !salt || !key) {
    // No account, an account without a password (an invitation not yet accepted) or a hash of another form:
    // spend the same time as a real check, so none of them can be told apart from a wrong password by timing.
    await derive(password, randomBytes(16), N);
    return false;
  }
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
