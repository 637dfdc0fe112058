/**
 * The ingest buffer: requests only validate and append here (answering 202 at once); a single writer
 * drains the buffer in batches, each one transaction: raw rows appended, per-day roll-ups upserted
 * additively, new distinct visitors counted, error groups updated. A full buffer refuses (503) rather
 * than growing without bound; a clean shutdown drains everything first.
 */
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
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

async function writeSite(tx: Tx, websiteId: string, events: IngestEvent[], ownHost: string | null): Promise<void> {
  const t = schema.analyticsEvents;
  for (let i = 0; i < events.length; i += RAW_CHUNK) {
    await tx.insert(t).values(
      events.slice(i, i + RAW_CHUNK).map((e) => ({
        websiteId,
        receivedAt: e.at,
        source: e.source,
        name: e.name,
        visitorId: e.visitorId,
        sessionId: e.sessionId,
        path: e.path,
        itemId: e.itemId,
        data: e.data,
      })),
    );
  }
  const r = rollup(events, ownHost);
  const daily: DailyCell[] = [...r.daily];

  if (r.uniques.length > 0) {
    // New distinct visitors per (day, metric) become a 'uniq:<metric>' roll-up, so the dashboard
    // never counts distinct rows over a range.
    const u = schema.analyticsDailyUniques;
    const fresh = new Map<string, DailyCell>();
    for (let i = 0; i < r.uniques.length; i += RAW_CHUNK) {
      const inserted = await tx
        .insert(u)
        .values(r.uniques.slice(i, i + RAW_CHUNK).map((x) => ({ websiteId, day: x.day, metric: x.metric, visitor: x.visitor })))
        .onConflictDoNothing()
        .returning({ day: u.day, metric: u.metric });
      for (const row of inserted) {
        const key = `${row.day}\u0000${row.metric}`;
        const cell = fresh.get(key);
        if (cell) cell.count += 1;
        else fresh.set(key, { day: row.day, metric: `uniq:${row.metric}`, dim: '', count: 1, total: 0 });
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
    const d = schema.analyticsDaily;
    for (let i = 0; i < daily.length; i += RAW_CHUNK) {
      await tx
        .insert(d)
        .values(daily.slice(i, i + RAW_CHUNK).map((c) => ({ websiteId, day: c.day, metric: c.metric, dim: c.dim, count: c.count, total: c.total })))
        .onConflictDoUpdate({
          target: [d.websiteId, d.day, d.metric, d.dim],
          set: { count: sql`${d.count} + excluded.count`, total: sql`${d.total} + excluded.total` },
        });
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
