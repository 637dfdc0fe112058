/**
 * Stripe's keys and the SDK client built from them. Keys come from the environment (STRIPE_SECRET_KEY,
 * STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET), which wins key by key, or from Settings → Payments in /config
 * (kept in system_values on the server). The secret key and the webhook signing secret never leave the server:
 * answers carry them masked (the last 4 characters), they are never logged, and the browser gets only the
 * publishable key.
 */
import Stripe from 'stripe';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { rows } from '../db-util.js';

/** The API version Tessera is written against (pinned: a Stripe account's default never changes our wire format). */
export const STRIPE_API_VERSION = '2026-10-28.endive' as const;

export interface StripeKeys {
  publishableKey: string;
  secretKey: string;
  webhookSecret: string;
}

export type KeySource = 'environment' | 'settings' | 'none';

export const stripeMessages = {
  SECRET_KEY: 'Enter a Stripe secret key: it starts with sk_test_ or sk_live_ (or rk_ for a restricted key).',
  PUBLISHABLE_KEY: 'Enter a Stripe publishable key: it starts with pk_test_ or pk_live_.',
  WEBHOOK_SECRET: 'Enter the webhook signing secret from Stripe: it starts with whsec_.',
  MODE_MISMATCH: 'The publishable key and the secret key must both be test keys or both be live keys.',
  FROM_ENVIRONMENT: 'This key is set by the server environment and cannot be changed here.',
  NOT_CONFIGURED: 'Stripe is not connected: enter your secret key first.',
  CARD_NUMBERS_REFUSED: 'Please enter your card in the secure card form.',
  UNREACHABLE: 'Stripe could not be reached. No money was taken. Please try again in a moment.',
  UNKNOWN_PAYMENT: 'That payment could not be found. Please try again.',
  AMOUNT_CHANGED: 'The order total changed. Please review your order and pay again.',
  DECLINED: 'Your card was declined.',
  CANCELED: 'This payment was cancelled. Please try again.',
  METHOD_NOT_ALLOWED: 'That payment method is not available for this order. Please choose another.',
} as const;

export const SECRET_KEY_RE = /^(sk|rk)_(test|live)_[A-Za-z0-9_]{4,250}$/;
export const PUBLISHABLE_KEY_RE = /^pk_(test|live)_[A-Za-z0-9_]{4,250}$/;
export const WEBHOOK_SECRET_RE = /^whsec_[A-Za-z0-9_]{4,250}$/;

const SETTINGS_KEY = 'stripe_settings';
const CHECK_KEY = 'stripe_connection_check';
const keyDigest = (secretKey: string) => createHash('sha256').update(secretKey).digest('hex');

/** A secret as the owner sees it: its kind and last 4 characters. */
export function maskSecret(v: string): string {
  if (!v) return '';
  const prefix = /^(sk_test_|sk_live_|rk_test_|rk_live_|whsec_)/.exec(v)?.[1] ?? '';
  return `${prefix}…${v.slice(-4)}`;
}

export const isLiveKey = (secretKey: string) => /^(sk|rk)_live_/.test(secretKey);

export interface StripeEnv {
  STRIPE_SECRET_KEY?: string;
  STRIPE_PUBLISHABLE_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_URL?: string;
}

/** The install's Stripe keys and client: read from the environment and system_values, cached until saved. */
export class StripeSettings {
  private cached: { keys: StripeKeys; sources: Record<keyof StripeKeys, KeySource> } | null = null;
  private client: { key: string; stripe: Stripe } | null = null;
  private lastSecret = '';

  constructor(
    private readonly database: Database,
    private readonly env: StripeEnv,
  ) {}

  async load(): Promise<{ keys: StripeKeys; sources: Record<keyof StripeKeys, KeySource> }> {
    if (this.cached) return this.cached;
    const stored = await this.storedKeys();
    const pick = (envValue: string | undefined, storedValue: string | undefined): [string, KeySource] =>
      envValue ? [envValue, 'environment'] : storedValue ? [storedValue, 'settings'] : ['', 'none'];
    const [secretKey, s1] = pick(this.env.STRIPE_SECRET_KEY, stored.secretKey);
    const [publishableKey, s2] = pick(this.env.STRIPE_PUBLISHABLE_KEY, stored.publishableKey);
    const [webhookSecret, s3] = pick(this.env.STRIPE_WEBHOOK_SECRET, stored.webhookSecret);
    this.cached = { keys: { secretKey, publishableKey, webhookSecret }, sources: { secretKey: s1, publishableKey: s2, webhookSecret: s3 } };
    this.lastSecret = secretKey;
    return this.cached;
  }

  /** The keys saved in the settings ({} when none are, or the saved value is not JSON). */
  private async storedKeys(): Promise<Partial<StripeKeys>> {
    const r = await rows<{ value: string }>(this.database.db, sql`select value from system_values where key = ${SETTINGS_KEY}`);
    try {
      return r[0] ? (JSON.parse(r[0].value) as Partial<StripeKeys>) : {};
    } catch {
      return {};
    }
  }

  /** Whether the key last read is a live key (sync, for the provider's testMode). */
  get live(): boolean {
    return isLiveKey(this.lastSecret);
  }

  /** Forget the cached keys (after a save, or another process's save: reads are cheap). */
  invalidate(): void {
    this.cached = null;
    this.country = undefined;
  }

  /** Saves the owner's keys; an empty string removes one, undefined keeps it. */
  async save(patch: Partial<StripeKeys>): Promise<void> {
    const stored = await this.storedKeys();
    const next = { ...stored };
    for (const k of ['secretKey', 'publishableKey', 'webhookSecret'] as const) {
      if (patch[k] === undefined) continue;
      if (patch[k] === '') delete next[k];
      else next[k] = patch[k];
    }
    const value = JSON.stringify(next);
    await this.database.db.execute(
      sql`insert into system_values (key, value) values (${SETTINGS_KEY}, ${value}) on conflict (key) do update set value = excluded.value`,
    );
    this.invalidate();
  }

  /**
   * Remembers the outcome of the last Check connection for the current secret key (a SHA-256 of the key, never
   * the key): the dashboard's "Take payments" step ticks when the saved key passed with charges enabled.
   */
  async recordCheck(passed: boolean, country: string | null = null): Promise<void> {
    const { keys } = await this.load();
    const digest = keyDigest(keys.secretKey);
    // The account's country (Afterpay/Clearpay eligibility follows it): this check's, else the last one's for this key.
    const prior = await this.lastCheck();
    const kept = country ?? (prior.key === digest ? (prior.country ?? null) : null);
    const value = JSON.stringify({ key: digest, passed, at: new Date().toISOString(), ...(kept ? { country: kept.toUpperCase() } : {}) });
    await this.database.db.execute(
      sql`insert into system_values (key, value) values (${CHECK_KEY}, ${value}) on conflict (key) do update set value = excluded.value`,
    );
    this.country = undefined;
  }

  private async lastCheck(): Promise<{ key?: string; passed?: boolean; country?: string }> {
    const r = await rows<{ value: string }>(this.database.db, sql`select value from system_values where key = ${CHECK_KEY}`);
    try {
      return r[0] ? (JSON.parse(r[0].value) as { key?: string; passed?: boolean; country?: string }) : {};
    } catch {
      return {};
    }
  }

  private country: string | null | undefined = undefined;
  /**
   * The connected account's country as Check connection retrieved it for the current secret key (null when it
   * was never checked, or the key changed since). Kept in memory until the next check or save.
   */
  async accountCountry(): Promise<string | null> {
    if (this.country !== undefined) return this.country;
    const { keys } = await this.load();
    const v = await this.lastCheck();
    this.country =
      keys.secretKey && v.key === keyDigest(keys.secretKey) && typeof v.country === 'string' && /^[A-Z]{2}$/.test(v.country)
        ? v.country
        : null;
    return this.country;
  }

  /** Whether the current secret key passed its last connection check (false after the key changes). */
  async checkPassed(): Promise<boolean> {
    const { keys } = await this.load();
    if (!keys.secretKey) return false;
    const r = await rows<{ value: string }>(this.database.db, sql`select value from system_values where key = ${CHECK_KEY}`);
    try {
      const v = r[0] ? (JSON.parse(r[0].value) as { key?: string; passed?: boolean }) : {};
      return v.passed === true && v.key === keyDigest(keys.secretKey);
    } catch {
      return false;
    }
  }

  /** Whether Stripe takes the payments (a secret key is set). */
  async configured(): Promise<boolean> {
    return (await this.load()).keys.secretKey !== '';
  }

  /** The SDK client for the current secret key (null without one). */
  async stripe(): Promise<Stripe | null> {
    const { keys } = await this.load();
    if (!keys.secretKey) return null;
    if (this.client?.key === keys.secretKey) return this.client.stripe;
    const stripe = stripeClient(keys.secretKey, this.env.STRIPE_API_URL);
    this.client = { key: keys.secretKey, stripe };
    return stripe;
  }
}

/** An SDK client; `apiUrl` (STRIPE_API_URL) points it at another host through the SDK's host, port and protocol options. */
export function stripeClient(secretKey: string, apiUrl?: string): Stripe {
  const opts: Stripe.StripeConfig = {
    apiVersion: STRIPE_API_VERSION as Stripe.StripeConfig['apiVersion'],
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  };
  if (apiUrl) {
    const u = new URL(apiUrl);
    opts.host = u.hostname;
    opts.protocol = u.protocol === 'http:' ? 'http' : 'https';
    opts.port = u.port ? Number(u.port) : u.protocol === 'http:' ? 80 : 443;
  }
  return new Stripe(secretKey, opts);
}
