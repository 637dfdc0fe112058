import { describe, it, expect, afterEach } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/config.js';
import { seedDemo } from '../../../src/server/seed.js';
import { testApp, type TestApp } from '../../helpers/app.js';
import { DB_KINDS, testDatabase } from '../../helpers/db.js';

const TOKEN = 'metrics-token-0123456789abcdef';

function metricValue(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    const m = /^(\{[^}]*\})? (\S+)$/.exec(rest);
    if (!m) continue;
    const got = Object.fromEntries([...(m[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[2]);
  }
  return null;
}

for (const kind of DB_KINDS) {
  describe(`operations (${kind})`, () => {
    let t: TestApp | null = null;
    const dirs: string[] = [];
    const dataDir = () => {
      const d = mkdtempSync(join(tmpdir(), 'tessera-ops-'));
      dirs.push(d);
      return d;
    };
    afterEach(async () => {
      await t?.close();
      t = null;
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    });

    it('GET /health is alive and /ready checks the database, the migrations and storage', async () => {
      t = await testApp(kind, { DATA_DIR: dataDir() });
      const health = await t.app.inject({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'ok' });
      const ready = await t.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', storage: 'ok' } });
      expect(ready.headers['cache-control']).toBe('no-store');

      // The newest migration "not applied": not ready, and says why.
      await t.database.exec(
        `DELETE FROM drizzle.__drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM drizzle.__drizzle_migrations)`,
      );
      const stale = await t.app.inject({ method: 'GET', url: '/ready' });
      expect(stale.statusCode).toBe(503);
      expect(stale.json().checks.migrations).toBe('failed');
      expect(stale.json().reasons.join('\n')).toMatch(/^migrations: not applied up to 0\d+_/m);
    });

    it('/ready answers 503 when media storage cannot be written', async () => {
      const d = join(dataDir(), 'data');
      t = await testApp(kind, { DATA_DIR: d });
      expect((await t.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
      // The folder is gone and a file stands in its place: nothing can be stored.
      rmSync(d, { recursive: true, force: true });
      writeFileSync(d, 'x');
      const res = await t.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().status).toBe('not ready');
      expect(res.json().checks).toEqual({ database: 'ok', migrations: 'ok', storage: 'failed' });
      // Only the error's code: no paths in a public answer.
      expect(res.json().reasons).toEqual([expect.stringMatching(/^storage: failed \(E[A-Z]+\)$/)]);
      expect(res.body).not.toContain(d);
    });

    it('/metrics does not exist without METRICS_TOKEN', async () => {
      t = await testApp(kind, { DATA_DIR: dataDir() });
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('tessera_http_requests_total');
    });

    it('/metrics wants the bearer token and reports routes, the page cache, jobs, mail, analytics and the pool', async () => {
      t = await testApp(kind, { DATA_DIR: dataDir(), METRICS_TOKEN: TOKEN, RATE_LIMIT_STORE: 'memory' });
      const { app } = t;
      expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
      const wrong = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(wrong.body).not.toContain('tessera_');

      // Two product pages (one pattern), a page twice (a cache miss then a hit), a job and an email waiting.
      const products = Object.values(t.seed.productIds);
      expect(products.length).toBeGreaterThan(1);
      for (const id of products.slice(0, 2)) {
        const r = await app.inject({ method: 'GET', url: `/api/commerce/inventory/stock?itemId=${id}` });
        expect(r.statusCode).toBeLessThan(500);
      }
      expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
      await app.services.jobs.enqueue(t.database.db, 'ops-test', {}, { runAt: new Date(Date.now() + 3_600_000) });
      await t.database.exec(
        `INSERT INTO mail_outbox (kind, to_address, subject, text_body, status, next_attempt_at) VALUES ('t', 'a@example.com', 's', 'b', 'pending', now() + interval '1 hour')`,
      );

      const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.headers['cache-control']).toBe('no-store');
      const text = res.body;
      expect(
        metricValue(text, 'tessera_http_requests_total', { method: 'GET', route: '/api/commerce/inventory/stock', status: '200' }),
      ).toBe(2);
      expect(metricValue(text, 'tessera_http_requests_total', { method: 'GET', route: '/', status: '200' })).toBe(2);
      // The pattern, never the raw URL with its query.
      expect(text).not.toContain('itemId=');
      expect(metricValue(text, 'tessera_http_request_duration_seconds_count', { method: 'GET', route: '/' })).toBe(2);
      expect(metricValue(text, 'tessera_page_cache_hits_total')).toBeGreaterThanOrEqual(1);
      expect(metricValue(text, 'tessera_page_cache_misses_total')).toBeGreaterThanOrEqual(1);
      const ratio = metricValue(text, 'tessera_page_cache_hit_ratio')!;
      expect(ratio).toBeGreaterThan(0);
      expect(ratio).toBeLessThan(1);
      expect(metricValue(text, 'tessera_job_queue_depth', { status: 'pending' })).toBe(1);
      expect(metricValue(text, 'tessera_mail_outbox_backlog', { status: 'pending' })).toBe(1);
      expect(metricValue(text, 'tessera_analytics_buffered_events')).toBe(0);
      const total = metricValue(text, 'tessera_db_pool_connections', { state: 'total' })!;
      expect(total).toBeGreaterThanOrEqual(1);
      expect(metricValue(text, 'tessera_db_pool_max')).toBe(kind === 'postgres' ? 30 : 1);
      expect(metricValue(text, 'tessera_process_resident_memory_bytes')).toBeGreaterThan(0);
    });

    it('/metrics refuses a guesser after 20 wrong tokens', async () => {
      t = await testApp(kind, { DATA_DIR: dataDir(), METRICS_TOKEN: TOKEN, RATE_LIMIT_STORE: 'memory' });
      const codes: number[] = [];
      for (let i = 0; i < 21; i++)
        codes.push((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer guess-${i}` } })).statusCode);
      expect(codes.slice(0, 20).every((c) => c === 401)).toBe(true);
      expect(codes[20]).toBe(429);
      // The right token still works from there (only failures count).
      expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(200);
    });

    it('every answer carries a request id, and a 500 names it in the answer and the error log line', async () => {
      const database = await testDatabase(kind);
      await seedDemo(database);
      const lines: Array<Record<string, unknown>> = [];
      const stream = new Writable({
        write(chunk, _enc, cb) {
          for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
          cb();
        },
      });
      const app = await buildApp({ config: loadConfig({ DATA_DIR: dataDir() }), database, logger: { level: 'info', stream } });
      await app.ready();
      try {
        const given = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'lb-1234.abc' } });
        expect(given.headers['x-request-id']).toBe('lb-1234.abc');
        const odd = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'bad id\u00e9 with spaces' } });
        expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect(lines.some((l) => l.reqId === 'lb-1234.abc' && l.msg === 'request')).toBe(true);

        await database.exec('ALTER TABLE carts RENAME TO carts_gone');
        const res = await app.inject({ method: 'GET', url: '/api/commerce/shopping-cart', headers: { cookie: 'tessera_cart=abc' } });
        expect(res.statusCode).toBe(500);
        const id = res.json().requestId as string;
        expect(id).toBe(res.headers['x-request-id']);
        const error = lines.find((l) => l.msg === 'request failed');
        expect(error?.reqId).toBe(id);
        expect(error?.level).toBe(50);
      } finally {
        await app.close();
        await database.close();
      }
    });
  });
}
