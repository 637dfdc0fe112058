import { z } from 'zod';
import { isIP } from 'node:net';
import { MAX_IMAGE_HOSTS } from '../core/constants.js';

const bool = z.enum(['1', '0', 'true', 'false', 'yes', 'no', '']).transform((v) => v === '1' || v === 'true' || v === 'yes');

/** A comma-separated setting's entries, trimmed, empty ones dropped. */
const commaList = (v: string): string[] =>
  v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  THEME_DIR: z.string().min(1).optional(),
  /** Public origin, used in emails and sign-in links. */
  PUBLIC_URL: z.url().optional(),
  OWNER_EMAIL: z.email().optional(),
  OWNER_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  /**
   * Which reverse proxies to believe about X-Forwarded-For/-Proto (needed for Secure cookies and per-IP
   * limits behind TLS): false (none), a hop count (1 = the one proxy in front), or a comma list of proxy
   * addresses/CIDRs (or proxy-addr's names loopback, linklocal, uniquelocal). `true` means 1 hop, never
   * "trust every hop", which would let a client choose its own address by sending X-Forwarded-For.
   */
  TRUST_PROXY: z
    .string()
    .max(2000)
    .transform((v, ctx) => {
      const s = v.trim().toLowerCase();
      if (s === '' || s === '0' || s === 'false' || s === 'no') return false as const;
      if (s === 'true' || s === 'yes') return 1;
      if (/^\d{1,2}$/.test(s)) return Number(s);
      const list = commaList(s);
      const bad = list.find((x) => !isProxyAddress(x));
      if (list.length === 0 || bad !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `must be false, a hop count, or a comma list of proxy addresses or CIDRs${bad ? ` (not one: ${bad.slice(0, 60)})` : ''}`,
        });
        return z.NEVER;
      }
      return list;
    })
    .default(false),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8000),
  DEV: bool.default(false),
  SEED_DEMO: bool.default(true),
  /** smtp://user:pass@host:587 or smtps://...; unset keeps mail in the local outbox, readable in /config. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Tessera <no-reply@localhost>'),
  /** Where rate-limit counters live: the database (shared by every instance) or this process's memory. */
  RATE_LIMIT_STORE: z.enum(['database', 'memory', 'redis']).default('database'),
  /** redis://host:6379: rate-limit counters in Redis (RATE_LIMIT_STORE defaults to redis when set). */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  /** Days raw analytics events are kept (daily roll-ups are kept for good). */
  ANALYTICS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** Analytics events held in memory awaiting their batch write; beyond it collection answers 503. */
  ANALYTICS_MAX_BUFFERED: z.coerce.number().int().min(100).max(10_000_000).default(200_000),
  /** Longest life, in seconds, of a rendered page shared by visitors (server/pages/page-cache.ts); 0 renders every page per request. */
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
  /** Memory for those pages, in MiB (their HTML and its gzip and brotli encodings). */
  PAGE_CACHE_MB: z.coerce.number().int().min(1).max(4096).default(64),
  /** Run the background workers (mail delivery, jobs) in this process. */
  WORKERS: bool.default(true),
  /** Payment attempts left open this long (a crash between charge and order) are settled by the reconciler. */
  PAYMENT_RECONCILE_AFTER_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /** How often the payment reconciler runs (it also runs once at start). */
  PAYMENT_RECONCILE_EVERY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** Stripe keys (docs/PAYMENTS.md); when set they win over Settings → Payments. Unset: the test-mode provider. */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]{4,250}$/, 'must be a Stripe secret key (sk_test_…, sk_live_…)')
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_[A-Za-z0-9_]{4,250}$/, 'must be a Stripe publishable key (pk_test_…, pk_live_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9_]{4,250}$/, 'must be a Stripe webhook signing secret (whsec_…)')
    .optional(),
  /** Where Stripe's API is (tests point it at a local stand-in); default https://api.stripe.com. */
  STRIPE_API_URL: z.url().optional(),
  /** Stripe.js for the Payment Element; default https://js.stripe.com/endive/stripe.js (the pinned API version's release). */
  STRIPE_JS_URL: z.url().default('https://js.stripe.com/endive/stripe.js'),
  /** How long an upload call waits for an image's processing before answering 202 'processing' (the editor then polls). */
  UPLOAD_PROCESSING_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
  /** Each site's storage quota for uploaded files, in MiB (server/storage/quota.ts); 0: no quota. */
  UPLOAD_QUOTA_MB: z.coerce.number().int().min(0).max(100_000_000).default(10_240),
  /**
   * Vimeo's oEmbed endpoint: a video block's Vimeo address is checked there when the page is saved, and an
   * answer naming a Basic account (or refusing the embed, 403) is refused with 'Vimeo Basic accounts are
   * unsupported'. Tests point it at a local stand-in. Unreachable: the address is taken unchecked.
   */
  VIMEO_OEMBED_URL: z
    .url()
    .regex(/^https?:\/\//, 'must start with http:// or https://')
    .default('https://vimeo.com/api/oembed.json'),
  /**
   * IP addresses the server may fetch images from although they are internal (outbound.ts refuses loopback,
   * private and link-local addresses): comma-separated, e.g. a LAN image server. Unset: none.
   */
  FETCH_ALLOW_ADDRESSES: z
    .string()
    .max(2000)
    .optional()
    .transform((v, ctx) => {
      const list = commaList(v ?? '');
      for (const x of list) if (!isIP(x)) ctx.addIssue({ code: 'custom', message: `${x.slice(0, 60)} is not an IP address` });
      return list;
    }),
  /** Internal and staging hosts, comma-separated globs (`*` any text, `#` digits); experiment overrides work only there. Unset: the defaults of core/experiments.ts. */
  INTERNAL_HOST_PATTERNS: z.string().max(2000).optional(),
  /** The analytics client's source environment: dev, qa (staging) or prod; an invalid one is warned about and means prod. */
  ANALYTICS_SOURCE_ENV: z.string().max(40).optional(),
  /** The events service URL per source environment (unset: this site). */
  ANALYTICS_SERVICE_URL_DEV: z.url().optional(),
  ANALYTICS_SERVICE_URL_QA: z.url().optional(),
  ANALYTICS_SERVICE_URL_PROD: z.url().optional(),
  /** The analytics client's options (defaults: fire events on, logging off, beacon on, validate off). */
  ANALYTICS_FIRE_EVENTS: bool.default(true),
  ANALYTICS_LOGGING: bool.default(false),
  ANALYTICS_BEACON: bool.default(true),
  ANALYTICS_VALIDATE: bool.default(false),
  /** A session recorder: its id and script URL. Unset (the default): no recorder, no third-party script. */
  SESSION_RECORDER_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an id')
    .optional(),
  SESSION_RECORDER_SCRIPT_URL: z.url().optional(),
  /** Media in an S3-compatible bucket (storage/media-store.ts); unset, media stay on local disk under DATA_DIR. */
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3-63 lower-case letters, digits, dots, hyphens)')
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, 'must be a region name such as us-east-1 or auto')
    .default('us-east-1'),
  /** The store's endpoint for non-AWS stores (R2, MinIO, B2): https://… */
  S3_ENDPOINT: z
    .url()
    .regex(/^https?:\/\//, 'must start with http:// or https://')
    .optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).max(256).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).max(512).optional(),
  /** Path-style addressing (endpoint/bucket/key), which MinIO and most self-hosted stores need. */
  S3_FORCE_PATH_STYLE: bool.default(false),
  /**
   * The media CDN origins (comma-separated, at most two, e.g. a CDN in front of this server or the
   * bucket's public base) whose images answer the `?format=` size query. With PUBLIC_URL they form the
   * fixed list of image hosts that get the platform srcset; images on any other
   * host are drawn without one.
   */
  MEDIA_CDN_URLS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const list = commaList(v ?? '');
      if (list.length > MAX_IMAGE_HOSTS - 1) ctx.addIssue({ code: 'custom', message: `must list at most ${MAX_IMAGE_HOSTS - 1} origins` });
      const origins: string[] = [];
      for (const x of list) {
        let u: URL | null = null;
        try {
          u = new URL(x);
        } catch {
          /* reported below */
        }
        if (!u || !/^https?:$/.test(u.protocol)) ctx.addIssue({ code: 'custom', message: `${x.slice(0, 100)} is not an http(s) origin` });
        else origins.push(u.origin);
      }
      return origins;
    }),
  /** Lifetime, in seconds, of the presigned URLs member files are served through (S3 only). */
  MEDIA_SIGNED_URL_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),
  /** The bearer token Prometheus sends to GET /metrics; unset, there is no /metrics (plugins/ops.ts). */
  METRICS_TOKEN: z
    .string()
    .min(24, 'must be at least 24 characters (use `openssl rand -hex 32`)')
    .max(512)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
});

export type Config = z.infer<typeof schema>;

/**
 * Variables whose values are secrets, or addresses that may carry a password (user:password@host): a
 * configuration error names them but never prints their value (secrets are never logged).
 */
export const SECRET_VARIABLES: ReadonlySet<string> = new Set([
  'DATABASE_URL',
  'OWNER_PASSWORD',
  'SMTP_URL',
  'REDIS_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'METRICS_TOKEN',
]);

export class ConfigError extends Error {}

/** Parses configuration from the environment; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') picked[key] = v;
  }
  if (picked.REDIS_URL && !picked.RATE_LIMIT_STORE) picked.RATE_LIMIT_STORE = 'redis';
  const res = schema.safeParse(picked);
  if (!res.success) {
    // Object-storage credentials are never echoed back (the message goes to logs and terminals).
    const shown = (k: string) => (SECRET_VARIABLES.has(k) ? '"(hidden)"' : JSON.stringify(picked[k] ?? ''));
    const lines = res.error.issues.map((i) => `  ${String(i.path[0])}=${shown(String(i.path[0]))}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (res.data.S3_BUCKET && !res.data.S3_ACCESS_KEY_ID !== !res.data.S3_SECRET_ACCESS_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both, or neither (the SDK then finds credentials itself)',
    );
  }
  if (!res.data.S3_BUCKET && (res.data.S3_ENDPOINT || res.data.S3_ACCESS_KEY_ID)) {
    throw new ConfigError('Invalid configuration:\n  S3_BUCKET: needed when S3_ENDPOINT or S3_ACCESS_KEY_ID is set');
  }
  if (res.data.RATE_LIMIT_STORE === 'redis' && !res.data.REDIS_URL) {
    throw new ConfigError('Invalid configuration:\n  RATE_LIMIT_STORE="redis": needs REDIS_URL');
  }
  return res.data;
}

/** An address, a CIDR, or one of proxy-addr's names: what a TRUST_PROXY list may hold. */
function isProxyAddress(x: string): boolean {
  if (x === 'loopback' || x === 'linklocal' || x === 'uniquelocal') return true;
  const slash = x.indexOf('/');
  const addr = slash === -1 ? x : x.slice(0, slash);
  const v = isIP(addr);
  if (v === 0) return false;
  if (slash === -1) return true;
  const bits = x.slice(slash + 1);
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (v === 4 ? 32 : 128);
}

/** The fixed list of image hosts (the site's public origin, then the media CDN origins): at most MAX_IMAGE_HOSTS. */
export function imageHosts(config: Pick<Config, 'PUBLIC_URL' | 'MEDIA_CDN_URLS'>): string[] {
  const own = config.PUBLIC_URL ? [new URL(config.PUBLIC_URL).origin] : [];
  return [...new Set([...own, ...config.MEDIA_CDN_URLS])].slice(0, MAX_IMAGE_HOSTS);
}

/**
 * The origin main.ts prints at start: PUBLIC_URL when set, else the configured HOST:PORT. Emailed links
 * use app.emailOrigin (email-origin.ts), which also knows the owner's saved site address.
 */
export function publicOrigin(config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, '');
  return `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT}`;
}
