import { z } from 'zod';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

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
  /** Trust X-Forwarded-* from a reverse proxy (needed for Secure cookies behind TLS). */
  TRUST_PROXY: bool.default(false),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8000),
  DEV: bool.default(false),
  SEED_DEMO: bool.default(true),
  /** smtp://user:pass@host:587 or smtps://...; unset keeps mail in the local outbox, readable in /config. */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().min(3).default('Tessera <no-reply@localhost>'),
  /** Where rate-limit counters live: the database (shared by every instance) or this process's memory. */
  RATE_LIMIT_STORE: z.enum(['database', 'memory', 'redis']).default('database'),
  /** redis://host:6379: rate-limit counters in Redis (RATE_LIMIT_STORE defaults to redis when set). */
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').optional(),
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
  /** Internal and staging hosts, comma-separated globs (`*` any text, `#` digits); experiment overrides work only there. Unset: the defaults of core/experiments.ts. */
  INTERNAL_HOST_PATTERNS: z.string().max(2000).optional(),
  /** The analytics client's source environment: dev, qa (staging) or prod; an invalid one is warned about and means prod. */
  ANALYTICS_SOURCE_ENV: z.string().max(40).optional(),
  /** The events service URL per source environment (unset: this site). */
  ANALYTICS_SERVICE_URL_DEV: z.url().optional(),
  ANALYTICS_SERVICE_URL_QA: z.url().optional(),
  ANALYTICS_SERVICE_URL_PROD: z.url().optional(),
  /** The analytics client's options (platform.md: fire events on, logging off, beacon on, validate off). */
  ANALYTICS_FIRE_EVENTS: bool.default(true),
  ANALYTICS_LOGGING: bool.default(false),
  ANALYTICS_BEACON: bool.default(true),
  ANALYTICS_VALIDATE: bool.default(false),
  /** A session recorder: its id and script URL. Unset (the default): no recorder, no third-party script. */
  SESSION_RECORDER_ID: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an id').optional(),
  SESSION_RECORDER_SCRIPT_URL: z.url().optional(),
});

export type Config = z.infer<typeof schema>;

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
    const lines = res.error.issues.map((i) => `  ${String(i.path[0])}=${JSON.stringify(picked[String(i.path[0])] ?? '')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (res.data.RATE_LIMIT_STORE === 'redis' && !res.data.REDIS_URL) {
    throw new ConfigError('Invalid configuration:\n  RATE_LIMIT_STORE="redis": needs REDIS_URL');
  }
  return res.data;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);

/**
 * The origin written into emailed links. PUBLIC_URL when set; otherwise the request's own origin only
 * when it names this machine (local use and tests), else the configured HOST:PORT, so a forged Host
 * header can never put a stranger's address into a password-reset or unsubscribe link.
 */
export function publicOrigin(config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>, req?: { protocol: string; host: string }): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, '');
  const fallback = `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT}`;
  if (!req) return fallback;
  const hostname = req.host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return LOOPBACK.has(hostname) || hostname === config.HOST ? `${req.protocol}://${req.host}` : fallback;
}
