/**
 * Spam protection behind one interface. Two providers:
 * - altcha: a self-hosted proof-of-work captcha (the default; nothing leaves this machine);
 * - reCAPTCHA v2, v3 and Enterprise, when the owner configures keys in the site settings
 *   (`settings.captcha`). The vendor's verify call goes through an injectable HTTP client.
 *
 * Other areas call `captchaFor(app, websiteSettings)` and then `verify(token, action, ip)`.
 */
import { randomBytes, createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { createChallenge, verifySolution } from 'altcha-lib/v1';
import type { Database } from '../../db/index.js';
import { rows } from '../db-util.js';
import { badRequest } from '../errors.js';
import { platform } from '../../core/messages.js';

import { CAPTCHA_ACTIONS, CAPTCHA_KINDS, type CaptchaAction, type CaptchaKind, type CaptchaPublicConfig } from '../../core/api/captcha.js';
export { CAPTCHA_ACTIONS, CAPTCHA_KINDS, type CaptchaAction, type CaptchaKind, type CaptchaPublicConfig };

export interface CaptchaVerdict {
  ok: boolean;
  /** Why it failed: 'missing', 'invalid', 'expired', 'replayed', 'action', 'score', 'vendor-unreachable', ... */
  reason?: string;
}

export interface CaptchaProvider {
  kind: CaptchaKind;
  publicConfig(action: CaptchaAction): CaptchaPublicConfig;
  verify(token: string | undefined, action: CaptchaAction, ip?: string): Promise<CaptchaVerdict>;
}

/** The owner's captcha settings, kept in the website settings under `captcha`. */
export interface CaptchaSettings {
  kind?: CaptchaKind;
  /** reCAPTCHA site key (public). */
  siteKey?: string;
  /** reCAPTCHA v2/v3 secret key. */
  secretKey?: string;
  /** reCAPTCHA Enterprise: Google Cloud project id and API key. */
  projectId?: string;
  apiKey?: string;
  /** v3 and Enterprise: the lowest score accepted (0-1); default 0.5. */
  minScore?: number;
  theme?: 'light' | 'dark';
  size?: 'normal' | 'compact' | 'invisible';
}

/** The HTTP client of the vendor calls; tests inject one that points at a stand-in on loopback. */
export type CaptchaHttpClient = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string },
) => Promise<{ status: number; json(): Promise<unknown> }>;

export const RECAPTCHA_VERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';
export const RECAPTCHA_ENTERPRISE_URL = 'https://recaptchaenterprise.googleapis.com/v1/projects';

/** Proof-of-work difficulty: the largest number to try. The browser hashes with WebCrypto, ~10k hashes/s on a slow phone: about 0.3 s on average, 0.6 s at worst. */
export const ALTCHA_MAX_NUMBER = 6_000;
/** How long a challenge stays valid. */
export const ALTCHA_EXPIRES_MS = 20 * 60_000;
export const CHALLENGE_PATH = '/api/captcha/challenge';

/** reCAPTCHA action names: only letters, slashes and underscores are allowed. */
export function vendorAction(action: CaptchaAction): string {
  return action.replace(/-/g, '_');
}

interface CaptchaDeps {
  http: CaptchaHttpClient;
  /** Overrides ALTCHA_MAX_NUMBER (benchmarks). */
  altchaMaxNumber?: number;
  now: () => number;
}

const depsByDatabase = new WeakMap<Database, CaptchaDeps>();
const hmacKeys = new WeakMap<Database, Promise<string>>();

const defaultHttp: CaptchaHttpClient = (url, init) => fetch(url, { ...init, signal: AbortSignal.timeout(5000) });

function depsOf(database: Database): CaptchaDeps {
  let d = depsByDatabase.get(database);
  if (!d) {
    d = { http: defaultHttp, now: Date.now };
    depsByDatabase.set(database, d);
  }
  return d;
}

/** Injects the vendor HTTP client (tests: a loopback stand-in) and the proof-of-work difficulty for an app. */
export function configureCaptcha(app: FastifyInstance | Database, deps: Partial<CaptchaDeps>): void {
  const database = 'database' in app ? (app as FastifyInstance).database : (app as Database);
  Object.assign(depsOf(database), deps);
}

/** The install's secret for signing challenges: made once, kept in system_values. */
function hmacKey(database: Database): Promise<string> {
  let p = hmacKeys.get(database);
  if (!p) {
    p = (async () => {
      const fresh = randomBytes(32).toString('hex');
      await database.db.execute(
        sql`INSERT INTO system_values (key, value) VALUES ('captcha_hmac_key', ${fresh}) ON CONFLICT (key) DO NOTHING`,
      );
      const r = await rows<{ value: string }>(database.db, sql`SELECT value FROM system_values WHERE key = 'captcha_hmac_key'`);
      return r[0]!.value;
    })();
    p.catch(() => hmacKeys.delete(database));
    hmacKeys.set(database, p);
  }
  return p;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

// ---- altcha --------------------------------------------------------------------------------------

/** The self-hosted proof-of-work captcha. A solution (the token) is accepted once, before it expires. */
export class AltchaProvider implements CaptchaProvider {
  readonly kind = 'altcha' as const;
  constructor(
    private readonly database: Database,
    private readonly settings: CaptchaSettings = {},
  ) {}

  publicConfig(action: CaptchaAction): CaptchaPublicConfig {
    return {
      kind: 'altcha',
      action,
      vendorAction: vendorAction(action),
      challengeUrl: `${CHALLENGE_PATH}?action=${action}`,
      theme: this.settings.theme ?? 'light',
      size: 'normal',
    };
  }

  /** A fresh signed challenge for the browser to solve. */
  async challenge(action: CaptchaAction): Promise<Record<string, unknown>> {
    const deps = depsOf(this.database);
    const expires = new Date(deps.now() + ALTCHA_EXPIRES_MS);
    return createChallenge({
      hmacKey: await hmacKey(this.database),
      maxNumber: deps.altchaMaxNumber ?? ALTCHA_MAX_NUMBER,
      expires,
      params: { action },
    }) as unknown as Record<string, unknown>;
  }

  async verify(token: string | undefined, action: CaptchaAction): Promise<CaptchaVerdict> {
    if (!token || typeof token !== 'string') return { ok: false, reason: 'missing' };
    if (token.length > 4000) return { ok: false, reason: 'invalid' };
    let payload: { salt?: unknown; challenge?: unknown };
    try {
      payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as typeof payload;
    } catch {
      return { ok: false, reason: 'invalid' };
    }
    if (!payload || typeof payload !== 'object' || typeof payload.salt !== 'string' || typeof payload.challenge !== 'string')
      return { ok: false, reason: 'invalid' };
    let valid = false;
    try {
      valid = await verifySolution(token, await hmacKey(this.database), true);
    } catch {
      valid = false;
    }
    if (!valid) return { ok: false, reason: 'invalid' };
    const params = new URLSearchParams(payload.salt.split('?')[1] ?? '');
    if (params.get('action') && params.get('action') !== action) return { ok: false, reason: 'action' };
    const expiresSec = Number(params.get('expires') ?? 0);
    const expiresAt = new Date(expiresSec > 0 ? expiresSec * 1000 : depsOf(this.database).now() + ALTCHA_EXPIRES_MS);
    // Spend the solution: a second use of the same challenge is a replay.
    const spent = await rows<{ token_hash: string }>(
      this.database.db,
      sql`INSERT INTO captcha_spent (token_hash, expires_at) VALUES (${sha256(payload.challenge)}, ${expiresAt}) ON CONFLICT (token_hash) DO NOTHING RETURNING token_hash`,
    );
    if (spent.length === 0) return { ok: false, reason: 'replayed' };
    if (Math.random() < 0.01) void this.database.db.execute(sql`DELETE FROM captcha_spent WHERE expires_at < now()`).catch(() => undefined);
    return { ok: true };
  }
}

// ---- reCAPTCHA -----------------------------------------------------------------------------------

/** What the browser needs for a reCAPTCHA kind: the site key, the theme and the widget's size. */
function recaptchaPublicConfig(
  kind: CaptchaKind,
  settings: CaptchaSettings,
  action: CaptchaAction,
  size: CaptchaPublicConfig['size'],
): CaptchaPublicConfig {
  return { kind, action, vendorAction: vendorAction(action), siteKey: settings.siteKey ?? '', theme: settings.theme ?? 'light', size };
}

/** Posts a verify call to the vendor: its JSON answer, or undefined when it could not be reached or did not answer 200. */
async function vendorPost<T>(http: CaptchaHttpClient, url: string, contentType: string, body: string): Promise<T | undefined> {
  try {
    const res = await http(url, { method: 'POST', headers: { 'content-type': contentType }, body });
    if (res.status !== 200) return undefined;
    return (await res.json()) as T;
  } catch {
    return undefined;
  }
}

/** reCAPTCHA v2 (checkbox) and v3 (score per action) through the siteverify call. */
export class RecaptchaProvider implements CaptchaProvider {
  constructor(
    readonly kind: 'recaptcha-v2' | 'recaptcha-v3',
    private readonly settings: CaptchaSettings,
    private readonly http: CaptchaHttpClient,
  ) {}

  publicConfig(action: CaptchaAction): CaptchaPublicConfig {
    return recaptchaPublicConfig(
      this.kind,
      this.settings,
      action,
      this.kind === 'recaptcha-v3' ? 'invisible' : (this.settings.size ?? 'normal'),
    );
  }

  async verify(token: string | undefined, action: CaptchaAction, ip?: string): Promise<CaptchaVerdict> {
    if (!token) return { ok: false, reason: 'missing' };
    const body = new URLSearchParams({ secret: this.settings.secretKey ?? '', response: token });
    if (ip) body.set('remoteip', ip);
    const data = await vendorPost<{ success?: boolean; score?: number; action?: string; 'error-codes'?: string[] }>(
      this.http,
      RECAPTCHA_VERIFY_URL,
      'application/x-www-form-urlencoded',
      body.toString(),
    );
    if (data === undefined) return { ok: false, reason: 'vendor-unreachable' };
    if (!data || data.success !== true) return { ok: false, reason: (data?.['error-codes'] ?? ['invalid']).join(',') || 'invalid' };
    if (this.kind === 'recaptcha-v3') {
      if (data.action !== vendorAction(action)) return { ok: false, reason: 'action' };
      if (typeof data.score !== 'number' || data.score < (this.settings.minScore ?? 0.5)) return { ok: false, reason: 'score' };
    }
    return { ok: true };
  }
}

/** reCAPTCHA Enterprise: an assessment per token, checked for validity, action and score. */
export class RecaptchaEnterpriseProvider implements CaptchaProvider {
  readonly kind = 'recaptcha-enterprise' as const;
  constructor(
    private readonly settings: CaptchaSettings,
    private readonly http: CaptchaHttpClient,
  ) {}

  publicConfig(action: CaptchaAction): CaptchaPublicConfig {
    return recaptchaPublicConfig(this.kind, this.settings, action, 'invisible');
  }

  async verify(token: string | undefined, action: CaptchaAction, ip?: string): Promise<CaptchaVerdict> {
    if (!token) return { ok: false, reason: 'missing' };
    const url = `${RECAPTCHA_ENTERPRISE_URL}/${encodeURIComponent(this.settings.projectId ?? '')}/assessments?key=${encodeURIComponent(this.settings.apiKey ?? '')}`;
    const event: Record<string, string> = { token, siteKey: this.settings.siteKey ?? '', expectedAction: vendorAction(action) };
    if (ip) event.userIpAddress = ip;
    const data = await vendorPost<{
      tokenProperties?: { valid?: boolean; action?: string; invalidReason?: string };
      riskAnalysis?: { score?: number };
    }>(this.http, url, 'application/json', JSON.stringify({ event }));
    if (data === undefined) return { ok: false, reason: 'vendor-unreachable' };
    if (!data?.tokenProperties?.valid) return { ok: false, reason: data?.tokenProperties?.invalidReason ?? 'invalid' };
    if (data.tokenProperties.action !== vendorAction(action)) return { ok: false, reason: 'action' };
    const score = data.riskAnalysis?.score;
    if (typeof score !== 'number' || score < (this.settings.minScore ?? 0.5)) return { ok: false, reason: 'score' };
    return { ok: true };
  }
}

// ---- Choosing a provider -------------------------------------------------------------------------

/** Reads the owner's captcha settings out of website settings (or takes them as they are). */
export function captchaSettingsOf(settings: Record<string, unknown> | CaptchaSettings | null | undefined): CaptchaSettings {
  if (!settings) return {};
  const inner = (settings as Record<string, unknown>).captcha;
  const s = (inner && typeof inner === 'object' ? inner : settings) as CaptchaSettings;
  return s;
}

/** Whether reCAPTCHA keys are complete for the configured kind; otherwise altcha is used. */
function recaptchaReady(s: CaptchaSettings): boolean {
  if (s.kind === 'recaptcha-enterprise') return Boolean(s.siteKey && s.projectId && s.apiKey);
  if (s.kind === 'recaptcha-v2' || s.kind === 'recaptcha-v3') return Boolean(s.siteKey && s.secretKey);
  return false;
}

/**
 * The captcha of a site. `settings` is the website's settings (with `captcha`) or the captcha
 * settings themselves. Altcha unless reCAPTCHA keys are configured.
 */
export function captchaFor(app: FastifyInstance | Database, settings?: Record<string, unknown> | CaptchaSettings | null): CaptchaProvider {
  const database = 'database' in app ? (app as FastifyInstance).database : (app as Database);
  const s = captchaSettingsOf(settings);
  const deps = depsOf(database);
  if (recaptchaReady(s)) {
    if (s.kind === 'recaptcha-enterprise') return new RecaptchaEnterpriseProvider(s, deps.http);
    return new RecaptchaProvider(s.kind as 'recaptcha-v2' | 'recaptcha-v3', s, deps.http);
  }
  return new AltchaProvider(database, s);
}

/** Loads the first website's settings (Tessera serves one website per install). */
export async function siteCaptcha(app: FastifyInstance, websiteId?: string): Promise<CaptchaProvider> {
  const r = websiteId
    ? await rows<{ settings: Record<string, unknown> }>(app.database.db, sql`SELECT settings FROM websites WHERE id = ${websiteId}`)
    : await rows<{ settings: Record<string, unknown> }>(app.database.db, sql`SELECT settings FROM websites ORDER BY created_at LIMIT 1`);
  return captchaFor(app, r[0]?.settings ?? {});
}

/**
 * GET /api/captcha/challenge?action=: a fresh proof-of-work challenge (only with the altcha provider).
 * Any other action than the four types is refused (400 '{action} is not one of the expected options').
 */
export async function captchaRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: { action?: string } }>(CHALLENGE_PATH, async (req, reply) => {
    // A light per-IP limit keeps challenge minting cheap.
    await app.services.rateLimiter.check({ name: 'captcha-challenge', max: 120, windowMs: 60_000 }, req.ip);
    // Only the four action types (form block, newsletter block, product waitlist, promo popup).
    const raw = typeof req.query.action === 'string' ? req.query.action.slice(0, 100) : '';
    if (!(CAPTCHA_ACTIONS as readonly string[]).includes(raw)) throw badRequest(platform.notExpectedOption(raw === '' ? 'action' : raw));
    const action = raw as CaptchaAction;
    const provider = await siteCaptcha(app);
    reply.header('cache-control', 'no-store');
    if (!(provider instanceof AltchaProvider))
      return reply.code(404).send({ error: 'Not Found', message: 'The site uses another captcha.' });
    return provider.challenge(action);
  });
}
