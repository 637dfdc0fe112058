/**
 * Sign-in limits that count failed sign-ins only (issue 38, item 4), shared by owner sign-in (/config) and
 * site-user sign-in.
 *
 * Three counters per attempt:
 * - per address, across accounts: past its ceiling the address is refused whatever account it tries;
 * - per (account, address), a short and a day-long tier: past either the address is refused for that
 *   account, so a guesser is stopped without locking the account for anyone else;
 * - per account, across addresses, a higher ceiling: past it every password check for the account waits
 *   a moment first (slowed, never refused), so guessing from many addresses costs time while the owner,
 *   from an address with no failures, still signs in with the right password.
 *
 * A hit is counted before the password is checked (so a burst of concurrent requests cannot all pass on
 * a count of zero) and taken back when the sign-in succeeds; a success also clears its (account, address)
 * failures. The per-address counter is not cleared by a success: signing in to an account of one's own
 * must not buy fresh guesses at others.
 */
import { isIPv6 } from 'node:net';
import type { RateLimitStore } from '../plugins/index.js';

/**
 * The address a sign-in counts against: an IPv4 address as it is, an IPv6 address by its /64 (one
 * subscriber's network holds 2^64 addresses, each of which would otherwise get its own allowance).
 */
export function addressKey(ip: string): string {
  const bare = ip.split('%')[0]!.toLowerCase();
  if (!isIPv6(bare)) return ip;
  if (bare.startsWith('::ffff:') && bare.includes('.')) return bare.slice(7);
  const gap = bare.indexOf('::');
  const head = (gap === -1 ? bare : bare.slice(0, gap)).split(':').filter(Boolean);
  const tail =
    gap === -1
      ? []
      : bare
          .slice(gap + 2)
          .split(':')
          .filter(Boolean);
  const groups = gap === -1 ? head : [...head, ...Array<string>(Math.max(0, 8 - head.length - tail.length)).fill('0'), ...tail];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

export interface SignInTier {
  max: number;
  windowMs: number;
}

export interface SignInPolicy {
  /** Keeps the counters of owner and site-user sign-in apart. */
  name: string;
  /** Failures per address, across accounts. */
  address: SignInTier;
  /** Failures per (account, address): the short tier. */
  account: SignInTier;
  /** Failures per (account, address): the day-long tier. */
  accountDay: SignInTier;
  /** Failures per account across addresses past which every check of the account is slowed. */
  slowAbove: SignInTier;
  /** How long a slowed check waits before the password is checked. */
  slowMs: number;
}

/** The clock and the wait of the limits; tests inject both (no real waiting). */
export interface SignInClock {
  now(): number;
  wait(ms: number): Promise<void>;
}

export const realClock: SignInClock = {
  now: Date.now,
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** An attempt the limits let through to the password check. */
export interface SignInAttempt {
  /** The account's failures across addresses in the current window, this attempt included. */
  accountFailures: number;
  /** The check waited first (the account is past its across-addresses ceiling). */
  slowed: boolean;
  /** Call when the password was right: this attempt is taken back and the address's failures on the account cleared. */
  succeeded(): Promise<void>;
}

/**
 * The attempt may go on, or was refused ('address' or 'account': which ceiling) before any password hash;
 * `first` when this refusal is the first of its (account, address) tier's window (for a lock notice).
 */
export type SignInVerdict = { refused: false; attempt: SignInAttempt } | { refused: 'address' | 'account'; first: boolean };

export class SignInLimits {
  clock: SignInClock = realClock;
  /** Work started after a sign-in's answer, not yet done. */
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly store: RateLimitStore) {}

  /**
   * Runs `task` after the answer instead of before it (a lock notice, a confirmation link sent again), so
   * what it writes does not make the answer about an existing account slower than about an unknown one.
   * A failure is handed to `onError` (logged), never to the visitor.
   */
  later(task: () => Promise<void>, onError: (err: Error) => void): void {
    const p: Promise<void> = task()
      .catch(onError)
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  /** Resolves when the work started by `later` so far is done (the app waits for it as it closes; tests too). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Counts the attempt and decides; a slowed attempt has waited when this returns. */
  async begin(policy: SignInPolicy, account: string, ip: string): Promise<SignInVerdict> {
    const now = this.clock.now();
    const address = addressKey(ip);
    const keys = {
      address: `${policy.name}-address:${address}`,
      account: `${policy.name}-account:${account}|${address}`,
      accountDay: `${policy.name}-account-day:${account}|${address}`,
      wide: `${policy.name}-account-wide:${account}`,
    };
    // Per address first: a request over it costs no further counter and no password hash.
    if ((await this.store.hit(keys.address, policy.address.windowMs, now)) > policy.address.max)
      return { refused: 'address', first: false };
    const [short, day] = await this.hitBoth(keys.account, policy.account, keys.accountDay, policy.accountDay, now);
    if (short > policy.account.max || day > policy.accountDay.max)
      return { refused: 'account', first: short === policy.account.max + 1 || day === policy.accountDay.max + 1 };
    // Only attempts that reach the password check count for the account as a whole: one address refused
    // above cannot push the account past its ceiling.
    const accountFailures = await this.store.hit(keys.wide, policy.slowAbove.windowMs, now);
    const slowed = accountFailures > policy.slowAbove.max;
    if (slowed) await this.clock.wait(policy.slowMs);
    const succeeded = async () => {
      await Promise.all([
        this.store.unhit(keys.address, policy.address.windowMs, now),
        this.store.reset(keys.account, policy.account.windowMs, now),
        this.store.reset(keys.accountDay, policy.accountDay.windowMs, now),
        this.store.unhit(keys.wide, policy.slowAbove.windowMs, now),
      ]);
    };
    return { refused: false, attempt: { accountFailures, slowed, succeeded } };
  }

  private async hitBoth(a: string, ta: SignInTier, b: string, tb: SignInTier, now: number): Promise<number[]> {
    const hits = [
      { key: a, windowMs: ta.windowMs },
      { key: b, windowMs: tb.windowMs },
    ];
    return this.store.hitMany ? this.store.hitMany(hits, now) : Promise.all(hits.map((h) => this.store.hit(h.key, h.windowMs, now)));
  }
}
