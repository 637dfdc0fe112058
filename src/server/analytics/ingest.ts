/**
 * The ingest: requests hand events over and answer 202 at once; a worker thread (ingest-worker.ts) keeps
 * the buffer and writes it in batches, each one transaction: raw rows appended, per-day roll-ups upserted
 * additively, new distinct visitors counted, error groups updated (batch.ts).
 *
 * The page-serving thread does as little as possible per event: the event beacons (the bulk of the
 * traffic) are parsed and validated in the worker too (`submitEvents`), and on PostgreSQL the worker
 * writes on its own connection, so a burst of beacons neither holds this thread nor the pool connections
 * pages use. On PGlite (embedded in this thread) the worker prepares the batches and this thread only runs
 * their few statements.
 *
 * A full buffer refuses (503) rather than growing without bound; a clean shutdown drains everything first.
 * Durability: accepted events reach the database within `intervalMs` (250 ms by default) plus one write.
 * With a journal (the app sets one in DATA_DIR), each request's events are appended to a file before the
 * 202 and replayed by the next start after a crash (kill -9), at least once (journal.ts). Without one, a
 * crash loses what was accepted in that window.
 */
import { Worker } from 'node:worker_threads';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Database } from '../../db/index.js';
import { writeBatches, type PreparedBatch } from './batch.js';
import type { EventsContext, EventsResult, FromWorker, ToWorker, WorkerConfig } from './ingest-protocol.js';
import type { IngestEvent } from './rollup.js';
import { hasOrphans } from './journal.js';

export interface IngestOptions {
  /** Events kept waiting at most; beyond it `accept` refuses. */
  maxBuffered?: number;
  /** Events per write transaction. */
  batchSize?: number;
  /** How often the writer wakes up when the buffer is below a batch. */
  intervalMs?: number;
  log?: { warn: (obj: unknown, msg?: string) => void };
  /** Journal accepted events in this folder under this key (see journal.ts); none when unset. */
  journal?: { dir: string; key: string } | null;
}

export interface IngestStats {
  accepted: number;
  stored: number;
  refused: number;
  failedBatches: number;
  buffered: number;
}

// Compiled (dist/server, npm start): the worker's own JavaScript; from the sources: a boot file that registers tsx.
const BOOT = import.meta.url.endsWith('.js')
  ? new URL('./ingest-worker.js', import.meta.url)
  : new URL('./ingest-worker-boot.mjs', import.meta.url);

export class AnalyticsIngest {
  private worker: Worker | null = null;
  private seq = 0;
  private readonly calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly maxBuffered: number;
  private readonly batchSize: number;
  private readonly intervalMs: number;
  private closed = false;
  /** Events handed to the worker and not yet stored or dropped. */
  private outstanding = 0;
  private host: string | null = null;
  readonly stats: IngestStats = { accepted: 0, stored: 0, refused: 0, failedBatches: 0, buffered: 0 };

  constructor(
    private readonly database: Database,
    private readonly opts: IngestOptions = {},
  ) {
    this.maxBuffered = opts.maxBuffered ?? 100_000;
    this.batchSize = opts.batchSize ?? 2000;
    this.intervalMs = opts.intervalMs ?? 250;
  }

  /** The site's own host, so internal navigation is not counted as a referrer. */
  get ownHost(): string | null {
    return this.host;
  }
  set ownHost(value: string | null) {
    this.host = value;
    this.worker?.postMessage({ t: 'ownHost', value } satisfies ToWorker);
  }

  /** The worker starts on the first event, or now when a killed process left journalled events to replay. */
  start(): void {
    const j = this.opts.journal;
    if (!this.closed && j && hasOrphans(j.dir, j.key)) this.ensureWorker();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const config: WorkerConfig = {
      databaseUrl: this.database.kind === 'postgres' ? (this.database.url ?? null) : null,
      maxBuffered: this.maxBuffered,
      batchSize: this.batchSize,
      intervalMs: this.intervalMs,
      ownHost: this.host,
      journalDir: this.opts.journal?.dir ?? null,
      journalKey: this.opts.journal?.key ?? '',
    };
    const w = new Worker(BOOT, { workerData: config });
    w.unref();
    w.on('message', (m: FromWorker) => void this.onMessage(m));
    const gone = (err: Error) => {
      if (this.worker !== w) return;
      this.worker = null;
      this.opts.log?.warn({ err: err.message, lost: this.outstanding }, 'analytics worker stopped');
      this.stats.refused += this.outstanding;
      this.outstanding = 0;
      this.stats.buffered = 0;
      for (const c of this.calls.values()) c.reject(err);
      this.calls.clear();
    };
    w.on('error', gone);
    w.on('exit', (code) => gone(new Error(`analytics worker exited with code ${code}`)));
    this.worker = w;
    return w;
  }

  private async onMessage(m: FromWorker): Promise<void> {
    switch (m.t) {
      case 'result':
      case 'done': {
        const c = this.calls.get(m.id);
        this.calls.delete(m.id);
        c?.resolve(m);
        return;
      }
      case 'recovered':
        this.outstanding += m.n;
        this.stats.buffered = this.outstanding;
        return;
      case 'stored':
        this.stats.stored += m.n;
        this.outstanding -= m.n;
        this.stats.buffered = m.buffered;
        return;
      case 'failed':
        this.stats.failedBatches += 1;
        this.stats.refused += m.refused;
        this.outstanding -= m.refused;
        this.opts.log?.warn({ err: m.message, events: m.events }, 'analytics batch failed');
        return;
      case 'write': {
        // PGlite: the worker prepared the batches; this thread owns the embedded database.
        let error: string | undefined;
        try {
          await this.writeHere(m.batches);
        } catch (e) {
          error = (e as Error).message || 'write failed';
        }
        this.worker?.postMessage({ t: 'written', id: m.id, ...(error ? { error } : {}) } satisfies ToWorker);
        return;
      }
    }
  }

  private async writeHere(batches: PreparedBatch[]): Promise<void> {
    const client = (this.database.db as unknown as { $client: PGlite }).$client;
    await client.transaction(async (tx: Transaction) => {
      await writeBatches((text, params) => tx.query(text, params), batches);
    });
  }

  private call<T>(msg: (id: number) => ToWorker): Promise<T> {
    const w = this.ensureWorker();
    const id = ++this.seq;
    return new Promise<T>((resolve, reject) => {
      this.calls.set(id, { resolve: resolve as (v: unknown) => void, reject });
      w.postMessage(msg(id));
    });
  }

  /** Appends events built on this thread (census calls, server-side events); false (nothing taken) when the buffer cannot hold them all. */
  accept(websiteId: string, events: IngestEvent[]): boolean {
    if (events.length === 0) return true;
    if (this.closed || this.outstanding + events.length > this.maxBuffered) {
      this.stats.refused += events.length;
      return false;
    }
    this.ensureWorker().postMessage({ t: 'accept', websiteId, events } satisfies ToWorker);
    this.outstanding += events.length;
    this.stats.accepted += events.length;
    this.stats.buffered = this.outstanding;
    return true;
  }

  /**
   * An event beacon (POST /api/v1/events) as it came: the worker parses, validates and buffers it.
   * 202 with the number taken, 400 with the message and per-field errors, or 503 when the buffer is full.
   */
  async submitEvents(body: unknown, ctx: EventsContext): Promise<EventsResult> {
    if (this.closed) return { status: 503, accepted: 0 };
    const r = await this.call<EventsResult>((id) => ({ t: 'events', id, body, ctx }));
    if (r.status === 202 && r.accepted) {
      this.outstanding += r.accepted;
      this.stats.accepted += r.accepted;
      this.stats.buffered = this.outstanding;
    } else if (r.status === 503) this.stats.refused += r.refused ?? 0;
    return r;
  }

  get pending(): number {
    return this.outstanding;
  }

  /** Writes everything buffered so far. */
  async drain(): Promise<void> {
    if (!this.worker) return;
    await this.call((id) => ({ t: 'drain', id }));
  }

  /** Writes everything still buffered and stops the worker (the app's onClose hook). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const w = this.worker;
    if (!w) return;
    try {
      await this.call((id) => ({ t: 'close', id }));
    } finally {
      this.worker = null;
      await w.terminate();
    }
  }
}
