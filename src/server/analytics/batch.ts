/**
 * One ingest batch, in two halves so the CPU work and the database work can run where they cost least:
 *
 * - `prepareBatch` (pure CPU, runs in the ingest worker thread): the raw rows, the per-day roll-ups, the
 *   distinct-visitor candidates and the error groups of a batch, each already serialised as the JSON text
 *   that `jsonb_to_recordset` reads, so the statements carry a few text parameters and no per-row SQL.
 * - `writeBatch` (database only): a handful of set-based statements inside the caller's transaction. The
 *   same SQL runs on PostgreSQL (from the worker's own connection) and on PGlite (in the main thread,
 *   which owns the embedded database).
 *
 * Roll-ups are additive upserts in a sorted order, so two instances writing at once take row locks in one
 * order. New distinct visitors per (day, metric) become a 'uniq:<metric>' roll-up in the same statement
 * that records them, so the dashboard never counts distinct rows over a range.
 */
import { rollup, type IngestEvent } from './rollup.js';

/** Rows per statement (one JSON parameter each). */
const CHUNK = 1000;

export interface PreparedBatch {
  websiteId: string;
  /** Number of events in the batch. */
  events: number;
  raw: string[];
  uniques: string[];
  daily: string[];
  errors: string | null;
}

/** The query function of a transaction: PGlite's `tx.query` and node-postgres' `client.query` both fit. */
export type Query = (text: string, params: unknown[]) => Promise<unknown>;

function chunks<T>(list: readonly T[], map: (x: T) => unknown): string[] {
  const out: string[] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(JSON.stringify(list.slice(i, i + CHUNK).map(map)));
  return out;
}

export function prepareBatch(websiteId: string, events: readonly IngestEvent[], ownHost: string | null): PreparedBatch {
  const r = rollup(events, ownHost);
  return {
    websiteId,
    events: events.length,
    raw: chunks(events, (e) => ({
      at: e.at.toISOString(),
      so: e.source,
      n: e.name,
      v: e.visitorId,
      s: e.sessionId,
      p: e.path,
      i: e.itemId,
      d: e.data,
    })),
    uniques: chunks(r.uniques, (x) => ({ d: x.day, m: x.metric, v: x.visitor })),
    daily: chunks(r.daily, (c) => ({ d: c.day, m: c.metric, k: c.dim, c: c.count, t: c.total })),
    errors:
      r.errors.length > 0
        ? JSON.stringify(
            r.errors.map((x) => ({
              f: x.fingerprint,
              m: x.message,
              s: x.stack,
              u: x.url,
              b: x.browser,
              c: x.count,
              a: x.first.toISOString(),
              z: x.last.toISOString(),
            })),
          )
        : null,
  };
}

const INSERT_RAW = `insert into analytics_events (website_id, received_at, source, name, visitor_id, session_id, path, item_id, data)
  select $1, r.at, r.so, r.n, r.v, r.s, r.p, r.i, coalesce(r.d, '{}'::jsonb)
  from jsonb_to_recordset($2::jsonb) as r(at timestamptz, so text, n text, v text, s text, p text, i text, d jsonb)`;

const UPSERT_DAILY = `insert into analytics_daily (website_id, day, metric, dim, count, total)
  select $1, r.d, r.m, r.k, r.c, r.t from jsonb_to_recordset($2::jsonb) as r(d date, m text, k text, c bigint, t double precision)
  order by r.d, r.m, r.k
  on conflict (website_id, day, metric, dim) do update set count = analytics_daily.count + excluded.count, total = analytics_daily.total + excluded.total`;

const UPSERT_UNIQUES = `with ins as (
    insert into analytics_daily_uniques (website_id, day, metric, visitor)
    select $1, r.d, r.m, r.v from jsonb_to_recordset($2::jsonb) as r(d date, m text, v text)
    on conflict do nothing
    returning day, metric)
  insert into analytics_daily (website_id, day, metric, dim, count, total)
  select $1, day, 'uniq:' || metric, '', count(*), 0 from ins group by day, metric order by day, 'uniq:' || metric
  on conflict (website_id, day, metric, dim) do update set count = analytics_daily.count + excluded.count`;

const UPSERT_ERRORS = `insert into analytics_error_groups (website_id, fingerprint, message, last_stack, last_url, last_browser, count, first_seen, last_seen)
  select $1, r.f, r.m, r.s, r.u, r.b, r.c, r.a, r.z
  from jsonb_to_recordset($2::jsonb) as r(f text, m text, s text, u text, b text, c bigint, a timestamptz, z timestamptz)
  order by r.f
  on conflict (website_id, fingerprint) do update set
    count = analytics_error_groups.count + excluded.count, message = excluded.message, last_stack = excluded.last_stack,
    last_url = excluded.last_url, last_browser = excluded.last_browser,
    last_seen = greatest(analytics_error_groups.last_seen, excluded.last_seen),
    first_seen = least(analytics_error_groups.first_seen, excluded.first_seen)`;

/** Writes prepared batches inside the caller's transaction. */
export async function writeBatches(query: Query, batches: readonly PreparedBatch[]): Promise<void> {
  for (const b of batches) {
    for (const json of b.raw) await query(INSERT_RAW, [b.websiteId, json]);
    // Roll-ups in one order across writers: the plain cells (sorted), then the distinct-visitor cells.
    for (const json of b.daily) await query(UPSERT_DAILY, [b.websiteId, json]);
    for (const json of b.uniques) await query(UPSERT_UNIQUES, [b.websiteId, json]);
    if (b.errors) await query(UPSERT_ERRORS, [b.websiteId, b.errors]);
  }
}
