import { onTestFinished } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { seedDemo, type SeedOptions, type SeedResult } from '../../src/server/seed.js';
import { OwnerService } from '../../src/server/platform/owners.js';
import { testDatabase, type DbKind } from './db.js';
import { open, type Database } from '../../src/db/index.js';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  seed: SeedResult;
  close(): Promise<void>;
}

export const OWNER = { email: 'owner@example.com', password: 'correct horse battery staple' };

/**
 * The real app on a fresh seeded database, with an admin account. The demo store's shipping option is left
 * out unless asked for (the checkout tests set up their own options).
 */
export async function testApp(
  kind: DbKind = 'pglite',
  env: Record<string, string> = {},
  seedOpts: SeedOptions = { shipping: false },
): Promise<TestApp> {
  const database = await testDatabase(kind);
  const seed = await seedDemo(database, new Date(), seedOpts);
  const owners = new OwnerService(database);
  await owners.ensureAdmin(seed.websiteId, OWNER.email, OWNER.password);
  const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', ...env }), database, logger: false });
  await app.ready();
  return {
    app,
    database,
    seed,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** A second instance of the app over the same database: its own caches and, on PostgreSQL, its own connection pool. */
export interface OtherInstance {
  app: FastifyInstance;
  database: Database;
  close(): Promise<void>;
}

export async function otherInstance(t: TestApp, env: Record<string, string> = {}): Promise<OtherInstance> {
  const database =
    t.database.kind === 'postgres'
      ? await open({ databaseUrl: (t.database as Database & { url?: string }).url!, migrate: false })
      : t.database;
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent', WORKERS: 'false', RATE_LIMIT_STORE: 'memory', ...env }),
    database,
    logger: false,
  });
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      if (database !== t.database) await database.close();
    },
  };
}

/** A visitor's cookie jar over inject(): keeps cookies between calls and sends the crumb on writes. */
export class Visitor {
  cookies = new Map<string, string>();
  constructor(private readonly app: FastifyInstance) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(res: LightMyRequestResponse) {
    for (const c of res.cookies as Array<{ name: string; value: string; maxAge?: number; expires?: Date }>) {
      if (c.value === '' || c.maxAge === 0) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  async get(url: string, headers: Record<string, string> = {}) {
    const res = await this.app.inject({ method: 'GET', url, headers: { cookie: this.cookieHeader(), ...headers } });
    this.keep(res);
    return res;
  }

  /** Makes sure the visitor holds a crumb, as a page visit would give them. */
  async crumb(): Promise<string> {
    if (!this.cookies.has('crumb')) await this.get('/health');
    return this.cookies.get('crumb')!;
  }

  async send(
    method: 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    opts: { crumb?: boolean; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { cookie: this.cookieHeader(), ...opts.headers };
    if (opts.crumb !== false) headers['x-csrf-token'] = await this.crumb();
    headers.cookie = this.cookieHeader();
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await this.app.inject({ method, url, headers, payload });
    this.keep(res);
    return res;
  }
}

/**
 * Pins the app's rate-limit clock to one moment until the calling test ends, so a test that makes N requests
 * counts them all in one fixed window (with the real clock a slow run can straddle two). Returns the moment.
 */
export function pinRateLimitClock(t: TestApp): number {
  const limiter = t.app.services.rateLimiter;
  const real = limiter.now;
  const moment = real();
  limiter.now = () => moment;
  onTestFinished(() => {
    limiter.now = real;
  });
  return moment;
}
