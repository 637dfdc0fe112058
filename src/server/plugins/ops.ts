/**
 * Operations (issue 31): request ids, liveness and readiness probes, and Prometheus metrics.
 *
 * - Every request gets an id (a caller's X-Request-Id when it is short and plain, else a random UUID). It is
 *   the `reqId` of every log line the request writes, the X-Request-Id response header, and the
 *   `requestId` of a 500 answer, so a user's error report leads to its log lines.
 * - GET /health: the process is alive (and its database answers).
 * - GET /ready: the database answers, every migration is applied and media storage is writable; 503 with
 *   the reasons otherwise (a load balancer takes the instance out until it is ready).
 * - GET /metrics: Prometheus text, only when METRICS_TOKEN is set and only with `Authorization: Bearer
 *   <METRICS_TOKEN>`; without the variable the route does not exist (a 404 like any unknown page).
 */
import { randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { access, mkdir, writeFile, unlink } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join, resolve } from 'node:path';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { MIGRATIONS_DIR } from '../../db/index.js';
import { rows } from '../db-util.js';
import type { RateLimitRule } from './rate-limit.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Fastify's genReqId: the caller's X-Request-Id when it is plain (a proxy's or load balancer's id), else a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  if (typeof given === 'string' && given.length <= 64 && REQUEST_ID.test(given)) return given;
  return randomUUID();
}

/** Wrong metrics tokens allowed per address in a window; beyond it, 429. */
export const METRICS_AUTH_LIMIT: RateLimitRule = {
  name: 'metrics-auth',
  max: 20,
  windowMs: 15 * 60_000,
  message: 'Too many attempts. Please try again later.',
};

/** The newest migration in the journal: `when` is what drizzle's migrator records as created_at. */
function newestMigration(): { tag: string; when: number } | null {
  try {
    const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
      entries: Array<{ tag: string; when: number }>;
    };
    return journal.entries.reduce<{ tag: string; when: number } | null>((a, e) => (a && a.when >= e.when ? a : e), null);
  } catch {
    return null;
  }
}

/** A readiness failure whose message is safe to show in the public /ready answer. */
export class ReadyFailure extends Error {}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new ReadyFailure(`did not answer within ${ms} ms`)), ms);
      timer.unref();
    }),
  ]);
}

/** Extra readiness checks other parts add (media storage in a bucket): a name and a probe that throws when not ready. */
export type ReadyCheck = { name: string; probe: () => Promise<void> };

declare module 'fastify' {
  interface FastifyInstance {
    /** Readiness checks /ready runs besides the database, migrations and local storage. */
    readyChecks: ReadyCheck[];
    /** This instance's Prometheus registry (its own, so several apps in one process never mix). */
    metrics: Registry;
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();

export const opsPlugin = fp(async (app: FastifyInstance) => {
  const { database, config } = app;
  app.decorate('readyChecks', [] as ReadyCheck[]);

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });

  app.get('/health', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    await withTimeout(database.exec('select 1'), 5000);
    return { status: 'ok' };
  });

  const newest = newestMigration();
  app.get('/ready', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    const reasons: string[] = [];
    const checks: Record<string, 'ok' | 'failed'> = {};
    const run = async (name: string, probe: () => Promise<void>) => {
      try {
        await withTimeout(probe(), 3000);
        checks[name] = 'ok';
      } catch (e) {
        checks[name] = 'failed';
        // The answer is public: our own messages as they are, anything else only by its code (the log has the rest).
        const err = e as Error & { code?: unknown };
        const said =
          e instanceof ReadyFailure
            ? err.message
            : typeof err.code === 'string' && /^[A-Z0-9_]{1,40}$/.test(err.code)
              ? `failed (${err.code})`
              : 'failed';
        if (!(e instanceof ReadyFailure)) app.log.warn({ err, check: name }, 'readiness check failed');
        reasons.push(`${name}: ${said}`);
      }
    };
    await run('database', () => database.exec('select 1'));
    await run('migrations', async () => {
      if (checks.database !== 'ok') throw new ReadyFailure('not checked (the database is unreachable)');
      if (!newest) throw new ReadyFailure('the migration journal is missing');
      let applied: number | null = null;
      try {
        const r = await rows<{ at: string | number | null }>(
          database.db,
          sql`SELECT max(created_at) AS at FROM drizzle.__drizzle_migrations`,
        );
        applied = r[0]?.at == null ? null : Number(r[0].at);
      } catch {
        applied = null;
      }
      if (applied === null || applied < newest.when) throw new ReadyFailure(`not applied up to ${newest.tag}`);
    });
    await run('storage', async () => {
      const dir = resolve(config.DATA_DIR);
      await mkdir(dir, { recursive: true });
      await access(dir, constants.W_OK);
      const probe = join(dir, `.ready-${process.pid}-${randomUUID()}`);
      await writeFile(probe, 'ok');
      await unlink(probe);
    });
    for (const c of app.readyChecks) await run(c.name, c.probe);
    if (reasons.length > 0) return reply.status(503).send({ status: 'not ready', checks, reasons });
    return { status: 'ready', checks };
  });

  metricsRoutes(app);
});

/** This app's Prometheus registry: request counters and latency, the page cache, the pools, the outbox; and /metrics. */
/** A gauge of a shared table's rows by status, over `statuses` only (each shown, 0 when it has none). */
function statusGauge(
  registry: Registry,
  database: FastifyInstance['database'],
  name: string,
  help: string,
  table: string,
  statuses: string[],
) {
  return new Gauge({
    name,
    help,
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const r = await rows<{ status: string; n: number | string }>(
        database.db,
        sql`SELECT status, count(*) AS n FROM ${sql.identifier(table)} WHERE status IN (${sql.join(
          statuses.map((x) => sql`${x}`),
          sql`, `,
        )}) GROUP BY status`,
      );
      this.reset();
      for (const x of statuses) this.set({ status: x }, 0);
      for (const x of r) this.set({ status: x.status }, Number(x.n));
    },
  });
}

function metricsRoutes(app: FastifyInstance) {
  const { database, config } = app;
  // Metrics: this app's own registry. Collected on every request; the gauges read their sources at scrape time.
  const registry = new Registry();
  app.decorate('metrics', registry);
  collectDefaultMetrics({ register: registry, prefix: 'tessera_' });
  const routeOf = (req: FastifyRequest) => req.routeOptions.url ?? 'unmatched';
  const requests = new Counter({
    name: 'tessera_http_requests_total',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'tessera_http_request_duration_seconds',
    help: 'HTTP request latency by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (req, reply) => {
    const route = routeOf(req);
    requests.inc({ method: req.method, route, status: String(reply.statusCode) });
    latency.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });

  const pageCacheStats = () => (app.hasDecorator('pageCache') ? app.pageCache.stats : { hits: 0, misses: 0 });
  new Counter({
    name: 'tessera_page_cache_hits_total',
    help: 'Pages answered from the shared page cache',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(pageCacheStats().hits);
    },
  });
  new Counter({
    name: 'tessera_page_cache_misses_total',
    help: 'Cacheable pages rendered because the page cache had no fresh copy',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(pageCacheStats().misses);
    },
  });
  new Gauge({
    name: 'tessera_page_cache_hit_ratio',
    help: 'Share of cacheable page requests answered from the page cache since start',
    registers: [registry],
    collect() {
      const s = pageCacheStats();
      this.set(s.hits + s.misses === 0 ? 0 : s.hits / (s.hits + s.misses));
    },
  });
  statusGauge(
    registry,
    database,
    'tessera_job_queue_depth',
    'Background jobs waiting or running, by status (shared by every instance)',
    'jobs',
    ['pending', 'running'],
  );
  statusGauge(
    registry,
    database,
    'tessera_mail_outbox_backlog',
    'Emails waiting to be delivered or being delivered (shared by every instance)',
    'mail_outbox',
    ['pending', 'sending'],
  );
  new Gauge({
    name: 'tessera_analytics_buffered_events',
    help: 'Analytics events accepted by this instance and not yet written to the database',
    registers: [registry],
    collect() {
      const a = (app as unknown as { analytics?: { ingest: { stats: { buffered: number } } } }).analytics;
      this.set(a ? a.ingest.stats.buffered : 0);
    },
  });
  new Gauge({
    name: 'tessera_db_pool_connections',
    help: 'Database connections of this instance by state (PGlite: one in-process connection)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const p = database.poolStats?.() ?? { total: 1, idle: 0, waiting: 0 };
      this.set({ state: 'total' }, p.total);
      this.set({ state: 'idle' }, p.idle);
      this.set({ state: 'in_use' }, p.total - p.idle);
      this.set({ state: 'waiting' }, p.waiting);
    },
  });
  new Gauge({
    name: 'tessera_db_pool_max',
    help: 'The most connections this instance opens to the database',
    registers: [registry],
    collect() {
      this.set(database.poolStats?.().max ?? 1);
    },
  });

  const token = config.METRICS_TOKEN;
  if (token) {
    const expected = digest(`Bearer ${token}`);
    app.get('/metrics', async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const given = req.headers.authorization ?? '';
      if (!timingSafeEqual(digest(given), expected)) {
        const n = await app.services.rateLimiter.hit(METRICS_AUTH_LIMIT, req.ip);
        if (n > METRICS_AUTH_LIMIT.max)
          return reply.status(429).send({ error: METRICS_AUTH_LIMIT.message, message: METRICS_AUTH_LIMIT.message });
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .send({ error: 'A valid metrics token is required.', message: 'A valid metrics token is required.' });
      }
      reply.type(registry.contentType);
      return registry.metrics();
    });
  }
}
