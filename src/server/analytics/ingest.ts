/**
 * The ingest buffer: requests only validate and append here (answering 202 at once); a single writer
 * drains the buffer in batches, each one transaction: raw rows appended, per-day roll-ups upserted
 * additively, new distinct visitors counted, error groups updated. A full buffer refuses (503) rather
 * than growing without bound; a clean shutdown drains everything first.
 */
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { rows } from '../db-util.js';
import { rollup, type DailyCell, type IngestEvent } from './rollup.js';

export interface IngestOptions {
  /** Events kept waiting at most; beyond it `accept` refuses. */
  maxBuffered?: number;
  /** Events per write transaction. */
  batchSize?: number;
  /** How often the writer wakes up when the buffer is below a batch. */
  intervalMs?: number;
  log?: { warn: (obj: unknown, msg?: string) => void };
}

export interface IngestStats {
  accepted: number;
  stored: number;
  refused: number;
  failedBatches: number;
  buffered: number;
}

const RAW_CHUNK = 1000;

export class AnalyticsIngest {
  private buf: Array<{ websiteId: string; e: IngestEvent }> = [];
  private writing: Promise<void> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly maxBuffered: number;
  private readonly batchSize: number;
  private readonly intervalMs: number;
  private stopped = false;
  readonly stats: IngestStats = { accepted: 0, stored: 0, refused: 0, failedBatches: 0, buffered: 0 };
  /** The site's own host, so internal navigation is not counted as a referrer. */
  ownHost: string | null = null;

  constructor(
    private readonly database: Database,
    private readonly opts: IngestOptions = {},
  ) {
    this.maxBuffered = opts.maxBuffered ?? 100_000;
    this.batchSize = opts.batchSize ?? 2000;
    this.intervalMs = opts.intervalMs ?? 250;
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.drain(), this.intervalMs);
    this.timer.unref?.();
  }

  /** Appends events; false (nothing taken) when the buffer cannot hold them all. */
  accept(websiteId: string, events: IngestEvent[]): boolean {
    if (events.length === 0) return true;
    if (this.buf.length + events.length > this.maxBuffered) {
      this.stats.refused += events.length;
      return false;
    }
    for (const e of events) this.buf.push({ websiteId, e });
    this.stats.accepted += events.length;
    this.stats.buffered = this.buf.length;
    if (this.buf.length >= this.batchSize) void this.drain();
    return true;
  }

  get pending(): number {
    return this.buf.length;
  }

  /** Writes what is buffered, one batch after another; concurrent callers share the same run. */
  drain(): Promise<void> {
    if (this.writing) return this.writing;
    if (this.buf.length === 0) return Promise.resolve();
    this.writing = (async () => {
      try {
        while (this.buf.length > 0) {
          const batch = this.buf.splice(0, this.batchSize);
          this.stats.buffered = this.buf.length;
          try {
            await this.write(batch);
            this.stats.stored += batch.length;
          } catch (err) {
            this.stats.failedBatches += 1;
            this.opts.log?.warn({ err: (err as Error).message, events: batch.length }, 'analytics batch failed');
            // Put the batch back (if there is room) and retry on the next tick rather than spinning.
            if (!this.stopped && this.buf.length + batch.length <= this.maxBuffered) this.buf.unshift(...batch);
            else this.stats.refused += batch.length;
            break;
          }
        }
      } finally {
        this.writing = null;
      }
    })();
    return this.writing;
  }

  /** Stops the timer and writes everything still buffered (the app's onClose hook). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (let i = 0; i < 5 && (this.buf.length > 0 || this.writing); i++) {
      await this.drain();
      if (this.writing) await this.writing;
    }
    this.stopped = true;
  }

  private async write(batch: Array<{ websiteId: string; e: IngestEvent }>): Promise<void> {
    const bySite = new Map<string, IngestEvent[]>();
    for (const { websiteId, e } of batch) {
      const list = bySite.get(websiteId);
      if (list) list.push(e);
      else bySite.set(websiteId, [e]);
    }
    await this.database.db.transaction(async (tx) => {
      for (const [websiteId, events] of bySite) await writeSite(tx, websiteId, events, this.ownHost);
    });
  }
}

/**
 * One batch of one website, in three set-based statements whose rows travel as a single JSON
 * parameter (jsonb_to_recordset): the same SQL on PGlite and PostgreSQL, and no per-row SQL text.
 */
async function writeSite(tx: Tx, websiteId: string, events: IngestEvent[], ownHost: string | null): Promise<void> {
  for (let i = 0; i < events.length; i += RAW_CHUNK) {
    const batch = events.slice(i, i + RAW_CHUNK).map((e) => ({ at: e.at.toISOString(), so: e.source, n: e.name, v: e.visitorId, s: e.sessionId, p: e.path, i: e.itemId, d: e.data }));
    await tx.execute(sql`insert into analytics_events (website_id, received_at, source, name, visitor_id, session_id, path, item_id, data)
      select ${websiteId}, r.at, r.so, r.n, r.v, r.s, r.p, r.i, coalesce(r.d, '{}'::jsonb)
      from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as r(at timestamptz, so text, n text, v text, s text, p text, i text, d jsonb)`);
  }
  const r = rollup(events, ownHost);
  const daily: DailyCell[] = [...r.daily];

  if (r.uniques.length > 0) {
    // New distinct visitors per (day, metric) become a 'uniq:<metric>' roll-up, so the dashboard
    // never counts distinct rows over a range.
    const fresh = new Map<string, DailyCell>();
    for (let i = 0; i < r.uniques.length; i += RAW_CHUNK) {
      const batch = r.uniques.slice(i, i + RAW_CHUNK).map((x) => ({ d: x.day, m: x.metric, v: x.visitor }));
      const inserted = await rows<{ day: string; metric: string; n: number | string }>(
        tx,
        sql`with ins as (
              insert into analytics_daily_uniques (website_id, day, metric, visitor)
              select ${websiteId}, r.d, r.m, r.v from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as r(d date, m text, v text)
              on conflict do nothing
              returning day, metric)
            select day::text as day, metric, count(*) as n from ins group by day, metric`,
      );
      for (const row of inserted) {
        const key = `${row.day}\u0000${row.metric}`;
        const cell = fresh.get(key);
        if (cell) cell.count += Number(row.n);
        else fresh.set(key, { day: row.day, metric: `uniq:${row.metric}`, dim: '', count: Number(row.n), total: 0 });
      }
    }
    daily.push(...fresh.values());
  }

  if (daily.length > 0) {
    daily.sort((a, b) => {
      const ka = `${a.day}\u0000${a.metric}\u0000${a.dim}`;
      const kb = `${b.day}\u0000${b.metric}\u0000${b.dim}`;
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
    for (let i = 0; i < daily.length; i += RAW_CHUNK) {
      const batch = daily.slice(i, i + RAW_CHUNK).map((c) => ({ d: c.day, m: c.metric, k: c.dim, c: c.count, t: c.total }));
      await tx.execute(sql`insert into analytics_daily (website_id, day, metric, dim, count, total)
        select ${websiteId}, r.d, r.m, r.k, r.c, r.t from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as r(d date, m text, k text, c bigint, t double precision)
        order by r.d, r.m, r.k
        on conflict (website_id, day, metric, dim) do update set count = analytics_daily.count + excluded.count, total = analytics_daily.total + excluded.total`);
    }
  }

  if (r.errors.length > 0) {
    const g = schema.analyticsErrorGroups;
    await tx
      .insert(g)
      .values(
        r.errors.map((x) => ({
          websiteId,
          fingerprint: x.fingerprint,
          message: x.message,
          lastStack: x.stack,
          lastUrl: x.url,
          lastBrowser: x.browser,
          count: x.count,
          firstSeen: x.first,
          lastSeen: x.last,
        })),
      )
      .onConflictDoUpdate({
        target: [g.websiteId, g.fingerprint],
        set: {
          count: sql`${g.count} + excluded.count`,
          message: sql`excluded.message`,
          lastStack: sql`excluded.last_stack`,
          lastUrl: sql`excluded.last_url`,
          lastBrowser: sql`excluded.last_browser`,
          lastSeen: sql`greatest(${g.lastSeen}, excluded.last_seen)`,
          firstSeen: sql`least(${g.firstSeen}, excluded.first_seen)`,
        },
      });
  }
}
