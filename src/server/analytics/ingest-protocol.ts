/** Messages between the ingest (main thread, ingest.ts) and its worker thread (ingest-worker.ts). */
import type { PreparedBatch } from './batch.js';
import type { IngestEvent } from './rollup.js';

export interface WorkerConfig {
  /** PostgreSQL: the worker writes on its own connection. Null (PGlite): it hands batches back. */
  databaseUrl: string | null;
  maxBuffered: number;
  batchSize: number;
  intervalMs: number;
  ownHost: string | null;
  /**
   * Where accepted events are journalled before the 202 (one append per request, no fsync: it survives a
   * killed process, not a lost machine), or null for none. Files are named after `journalKey` (which
   * database they belong to), the host and the process, so a restart replays only its own database's
   * journals left by dead processes of this host.
   */
  journalDir: string | null;
  journalKey: string;
}

/** What the route knows of a beacon's request without reading its body. */
export interface EventsContext {
  siteId: string;
  /** The signed-in owner's role, if any (the tracking rule). */
  roles: number[];
  trackingEnabled: boolean;
  /** Identifiers may be kept (cookie policy and consent). */
  consent: boolean;
  /** The visitor cookie of the request. */
  visitorCookie: string | null;
}

export type ToWorker =
  | { t: 'events'; id: number; body: unknown; ctx: EventsContext }
  | { t: 'accept'; websiteId: string; events: IngestEvent[] }
  | { t: 'ownHost'; value: string | null }
  | { t: 'written'; id: number; error?: string }
  | { t: 'drain'; id: number }
  | { t: 'close'; id: number };

export interface EventsResult {
  status: 202 | 400 | 503;
  accepted?: number;
  refused?: number;
  message?: string;
  errors?: Record<string, string>;
}

export type FromWorker =
  | ({ t: 'result'; id: number } & EventsResult)
  | { t: 'stored'; n: number; buffered: number }
  | { t: 'recovered'; n: number }
  | { t: 'failed'; message: string; events: number; refused: number }
  | { t: 'write'; id: number; batches: PreparedBatch[] }
  | { t: 'done'; id: number };
