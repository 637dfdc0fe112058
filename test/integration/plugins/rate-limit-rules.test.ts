import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DB_KINDS, testDatabase } from '../../helpers/db.js';
import { SmtpSink } from '../../helpers/smtp-sink.js';
import { Mailer, smtpTransport, retryDelayMs } from '../../../src/server/mail/mailer.js';
import { JobQueue } from '../../../src/server/jobs/queue.js';
import { DatabaseRateLimitStore, RateLimiter } from '../../../src/server/plugins/rate-limit.js';
import { HttpError } from '../../../src/server/errors.js';
import type { Database } from '../../../src/db/index.js';
import { rows } from '../../../src/server/db-util.js';

describe.each(DB_KINDS)('shared infrastructure on %s', (kind) => {
  let database: Database;
  let sink: SmtpSink;
  beforeAll(async () => {
    database = await testDatabase(kind);
    sink = await new SmtpSink().start();
  });
  afterAll(async () => {
    await sink?.close();
    await database?.close();
  });

  it('keeps queued mail while the relay refuses, and delivers each message once when it accepts', async () => {
    const mailer = new Mailer(database, smtpTransport(sink.url), 'Shop <shop@example.com>');
    await database.db.transaction(async (tx) => {
      await mailer.enqueue(
        tx,
        Array.from({ length: 12 }, (_, i) => ({ kind: 'test', to: `buyer${i}@example.com`, subject: `Order ${i}`, text: `Thanks ${i}` })),
      );
    });
    sink.refusing = true;
    const down = await mailer.deliverDue();
    expect(down.sent).toBe(0);
    expect(sink.messages).toHaveLength(0);
    const pending = await rows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM mail_outbox WHERE status = 'pending' AND last_error IS NOT NULL`,
    );
    expect(pending[0]!.n).toBe(12);

    sink.refusing = false;
    // Not due yet: back-off holds the retries.
    expect((await mailer.deliverDue()).sent).toBe(0);
    await database.exec(`UPDATE mail_outbox SET next_attempt_at = now()`);
    const [a, b] = await Promise.all([mailer.deliverDue(), mailer.deliverDue()]);
    expect(a.sent + b.sent).toBe(12);
    expect(sink.messages).toHaveLength(12);
    expect(new Set(sink.messages.map((m) => m.to[0])).size).toBe(12);
    expect((await mailer.deliverDue()).sent).toBe(0);
  });

  it('delivers extra headers (one-click unsubscribe) and claims no more than a batch', async () => {
    const mailer = new Mailer(database, smtpTransport(sink.url), 'Shop <shop@example.com>');
    const before = sink.messages.length;
    await mailer.enqueue(database.db, [
      {
        kind: 'hdr',
        to: 'h1@example.com',
        subject: 'Back in stock',
        text: 'Hi',
        headers: { 'List-Unsubscribe': '<https://shop.example/u/1>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      },
      { kind: 'hdr', to: 'h2@example.com', subject: 'Back in stock', text: 'Hi' },
      { kind: 'hdr', to: 'h3@example.com', subject: 'Back in stock', text: 'Hi' },
    ]);
    const first = await rows<{ id: number }>(
      database.db,
      sql`WITH picked AS MATERIALIZED (SELECT id FROM mail_outbox WHERE kind = 'hdr' ORDER BY id LIMIT 2 FOR UPDATE SKIP LOCKED) SELECT id FROM picked`,
    );
    expect(first).toHaveLength(2);
    const r = await mailer.deliverDue(1);
    expect(r.sent).toBe(3);
    const msg = sink.messages.slice(before).find((m) => m.to.includes('h1@example.com'))!;
    expect(msg.raw).toMatch(/List-Unsubscribe: <https:\/\/shop\.example\/u\/1>/);
    expect(msg.raw).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
  });

  it('keeps mail in the local outbox when no relay is configured', async () => {
    const mailer = new Mailer(database, null, 'Shop <shop@example.com>');
    await mailer.enqueue(database.db, { kind: 'local-test', to: 'owner@example.com', subject: 'Hi', text: 'Hello' });
    const r = await rows<{ status: string }>(database.db, sql`SELECT status FROM mail_outbox WHERE kind = 'local-test'`);
    expect(r.map((x) => x.status)).toEqual(['local']);
    expect(retryDelayMs(1)).toBe(1000);
    expect(retryDelayMs(30)).toBe(600_000);
  });

  it('runs each job once across two workers and retries a failing one', async () => {
    const a = new JobQueue(database);
    const b = new JobQueue(database);
    const seen: number[] = [];
    let failures = 0;
    for (const q of [a, b]) {
      q.register('count', async (p) => {
        seen.push(Number(p.n));
      });
      q.register('flaky', async () => {
        if (failures++ === 0) throw new Error('first try fails');
      });
    }
    for (let n = 0; n < 40; n++) await a.enqueue(database.db, 'count', { n });
    await a.enqueue(database.db, 'flaky', {});
    await Promise.all([a.runDue(), b.runDue()]);
    expect(seen.sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    await database.exec(`UPDATE jobs SET run_at = now() WHERE kind = 'flaky'`);
    await a.runDue();
    const flaky = await rows<{ status: string; attempts: number }>(
      database.db,
      sql`SELECT status, attempts FROM jobs WHERE kind = 'flaky'`,
    );
    expect(flaky[0]).toEqual({ status: 'done', attempts: 2 });
  });

  it('rate-limits per key and window on the database, then lets the caller through in the next window', async () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(new DatabaseRateLimitStore(database), () => now);
    const rule = { name: 'test', max: 3, windowMs: 10_000 };
    for (let i = 0; i < 3; i++) await limiter.check(rule, 'visitor-a');
    const err = await limiter.check(rule, 'visitor-a').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(429);
    expect((err as HttpError).message).toBe('Please try again in a few seconds.');
    await limiter.check(rule, 'visitor-b');
    now += 10_000;
    await limiter.check(rule, 'visitor-a');
  });
});

describe('rate limits in Redis', () => {
  it('counts per key and window across two stores on one Redis, then resets in the next window', async () => {
    const { Redis } = await import('ioredis');
    const { RedisRateLimitStore } = await import('../../../src/server/plugins/rate-limit.js');
    const a = new Redis('redis://127.0.0.1:6379');
    const b = new Redis('redis://127.0.0.1:6379');
    try {
      let now = Date.now();
      const key = `test-${process.pid}-${Math.random()}`;
      const l1 = new RateLimiter(new RedisRateLimitStore(a), () => now);
      const l2 = new RateLimiter(new RedisRateLimitStore(b), () => now);
      const rule = { name: 'redis-test', max: 4, windowMs: 60_000 };
      await l1.check(rule, key);
      await l2.check(rule, key);
      await l1.check(rule, key);
      await l2.check(rule, key);
      const err = await l1.check(rule, key).catch((e: unknown) => e);
      expect((err as HttpError).status).toBe(429);
      now += 60_000;
      await l2.check(rule, key);
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });
});

describe.each(DB_KINDS)('several rate-limit rules at once on %s', (kind) => {
  it('counts a visitor rule and an IP rule in one call, refusing when either is over', async () => {
    const database = await testDatabase(kind);
    try {
      const limiter = new RateLimiter(new DatabaseRateLimitStore(database), () => 5_000_000);
      const visitor = { name: 'v', max: 2, windowMs: 10_000 };
      const ip = { name: 'ip', max: 3, windowMs: 10_000 };
      await limiter.checkAll([
        { rule: visitor, key: 'a' },
        { rule: ip, key: '1.2.3.4' },
      ]);
      await limiter.checkAll([
        { rule: visitor, key: 'b' },
        { rule: ip, key: '1.2.3.4' },
      ]);
      await limiter.checkAll([
        { rule: visitor, key: 'c' },
        { rule: ip, key: '1.2.3.4' },
      ]);
      // A fresh visitor key, but the address is over its ceiling.
      const err = await limiter
        .checkAll([
          { rule: visitor, key: 'd' },
          { rule: ip, key: '1.2.3.4' },
        ])
        .catch((e: unknown) => e);
      expect((err as HttpError).status).toBe(429);
      await limiter.checkAll([
        { rule: visitor, key: 'e' },
        { rule: ip, key: '5.6.7.8' },
      ]);
    } finally {
      await database.close();
    }
  });
});
