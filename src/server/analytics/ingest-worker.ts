/**
 * The ingest worker thread: everything heavy about analytics events happens here, off the thread that
 * serves pages. It parses and validates event beacons (JSON, zod), applies the tracking rule and the
 * consent rule, keeps the buffer, rolls batches up and serialises them, and on PostgreSQL writes them
 * itself on its own connection (so page requests never wait for a pool connection held by the ingest).
 * On PGlite, which lives in the main thread, it hands the prepared batches back for writing.
 *
 * Messages are defined in ingest-protocol.ts. Started by ingest.ts through ingest-worker-boot.mjs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import { ZodError } from 'zod';
import { parseVisitorCookie, shouldTrack } from '../../core/cookies.js';
import { prepareBatch, writeBatches, type PreparedBatch } from './batch.js';
import { Journal } from './journal.js';
import { pathOf, type IngestEvent } from './rollup.js';
import { eventContent, eventsBody, jsonField } from '../../core/api/analytics.js';
import type { EventsContext, FromWorker, ToWorker, WorkerConfig } from './ingest-protocol.js';

const config = workerData as WorkerConfig;
const port = parentPort!;
const send = (m: FromWorker) => port.postMessage(m);

let ownHost: string | null = config.ownHost;
let buf: Array<{ websiteId: string; e: IngestEvent }> = [];
let writing: Promise<void> | null = null;
let stopped = false;
const pool = config.databaseUrl ? new pg.Pool({ connectionString: config.databaseUrl, max: 1 }) : null;
pool?.on('error', () => {
  /* an idle connection dropped; the pool opens another */
});
const journal = config.journalDir ? new Journal(config.journalDir, config.journalKey) : null;
{
  // What a killed process acknowledged and did not store goes first.
  const recovered = journal?.recover() ?? [];
  if (recovered.length > 0) {
    buf = recovered;
    send({ t: 'recovered', n: recovered.length });
  }
}

// ---- Validation ----------------------------------------------------------------------------------

class BadRequest extends Error {
  constructor(
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
  }
}

/** The same answer the errors plugin gives a ZodError. */
function badFromZod(err: ZodError): BadRequest {
  const errors: Record<string, string> = {};
  for (const i of err.issues) errors[i.path.join('.') || '_'] = i.message;
  const first = err.issues[0];
  return new BadRequest(first ? `${first.path.join('.') || 'body'}: ${first.message}` : 'Invalid request', errors);
}

const CONSENT_FIELDS = ['analytics_id', 'session_id', 'visitor_cookie', 'marketing_id', 'user_id', 'member_account_id'];

/** POST /api/v1/events: what the route did inline, now here. Answers the events to buffer, or throws BadRequest. */
function eventsOf(body: unknown, ctx: EventsContext): IngestEvent[] {
  let raw = body;
  if (typeof raw === 'string') raw = jsonField('body', raw);
  else if (raw === undefined || raw === null) throw new BadRequest('body: a JSON body is required');
  const parsed = eventsBody.parse(raw);
  const list = Array.isArray(parsed) ? parsed : 'events' in parsed ? parsed.events : [parsed];
  const contents = list.map((env, i) => {
    const c = typeof env.eventContent === 'string' ? jsonField(`${i}.eventContent`, env.eventContent) : env.eventContent;
    const r = eventContent.safeParse(c);
    if (!r.success) {
      const issue = r.error.issues[0];
      throw new BadRequest(`${i}.eventContent.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
    }
    return { name: env.eventSchemaName, c: r.data };
  });
  const path = pathOf(contents[0]?.c.page_path ?? null);
  for (const { c } of contents)
    if (c.context_website_id && c.context_website_id !== ctx.siteId) throw new BadRequest('websiteId: unknown website');
  if (!shouldTrack({ roles: ctx.roles, path: path ?? '/', trackingEnabled: ctx.trackingEnabled })) return [];
  const cookieVisitor = parseVisitorCookie(ctx.visitorCookie)?.visitorId ?? null;
  const at = new Date();
  const events: IngestEvent[] = [];
  for (const { name, c } of contents) {
    const p = pathOf(c.page_path ?? null);
    if (p && !shouldTrack({ path: p, trackingEnabled: true })) continue;
    const stored: Record<string, unknown> = { ...c };
    if (!ctx.consent) for (const k of CONSENT_FIELDS) delete stored[k];
    events.push({
      source: 'event',
      name,
      at,
      visitorId: ctx.consent ? (cookieVisitor ?? parseVisitorCookie(c.visitor_cookie)?.visitorId ?? c.analytics_id ?? null) : null,
      sessionId: ctx.consent ? (c.session_id ?? null) : null,
      path: p,
      itemId: c.item_id ?? c.content_item_id ?? null,
      data: stored,
      facts: {
        value: c.cart_value ?? null,
        currency: c.currency_code ?? null,
        formId: c.form_id ?? null,
        userAgent: c.enduser_user_agent ?? null,
        locale: c.resolved_locale ?? null,
      },
    });
  }
  return events;
}

// ---- Buffer and writer ---------------------------------------------------------------------------

function take(websiteId: string, events: IngestEvent[]): boolean {
  if (buf.length + events.length > config.maxBuffered) return false;
  if (journal) {
    try {
      journal.append(websiteId, events);
    } catch {
      return false; // not journalled, so not acknowledged
    }
  }
  for (const e of events) buf.push({ websiteId, e });
  if (buf.length >= config.batchSize) void drain();
  return true;
}

let writeSeq = 0;
const writes = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();

async function write(batches: PreparedBatch[]): Promise<void> {
  if (pool) {
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      await writeBatches((text, params) => client.query(text, params), batches);
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw e;
    } finally {
      client.release(broken || undefined);
    }
    return;
  }
  const id = ++writeSeq;
  await new Promise<void>((resolve, reject) => {
    writes.set(id, { resolve, reject });
    send({ t: 'write', id, batches });
  });
}

function prepare(batch: Array<{ websiteId: string; e: IngestEvent }>): PreparedBatch[] {
  const bySite = new Map<string, IngestEvent[]>();
  for (const { websiteId, e } of batch) {
    const list = bySite.get(websiteId);
    if (list) list.push(e);
    else bySite.set(websiteId, [e]);
  }
  return [...bySite].map(([websiteId, events]) => prepareBatch(websiteId, events, ownHost));
}

/** Writes what is buffered, batch after batch; concurrent callers share the run. A failed batch goes back and waits for the next tick. */
function drain(): Promise<void> {
  if (writing) return writing;
  if (buf.length === 0) return Promise.resolve();
  journal?.seal();
  writing = (async () => {
    try {
      while (buf.length > 0) {
        const batch = buf.splice(0, config.batchSize);
        try {
          await write(prepare(batch));
          journal?.done(batch.length);
          send({ t: 'stored', n: batch.length, buffered: buf.length });
        } catch (err) {
          let refused = 0;
          if (!stopped && buf.length + batch.length <= config.maxBuffered) buf = batch.concat(buf);
          else {
            refused = batch.length;
            journal?.done(refused);
          }
          send({ t: 'failed', message: (err as Error).message, events: batch.length, refused });
          break;
        }
      }
    } finally {
      writing = null;
    }
  })();
  return writing;
}

/** Drains until the buffer is empty (a few rounds, in case a batch failed). */
async function drainAll(rounds: number): Promise<void> {
  for (let i = 0; i < rounds && (buf.length > 0 || writing); i++) {
    await drain();
    if (writing) await writing;
  }
}

const timer = setInterval(() => void drain(), config.intervalMs);

port.on('message', (m: ToWorker) => {
  switch (m.t) {
    case 'events': {
      let events: IngestEvent[];
      try {
        events = eventsOf(m.body, m.ctx);
      } catch (err) {
        const bad = err instanceof ZodError ? badFromZod(err) : err instanceof BadRequest ? err : new BadRequest('Invalid request');
        send({ t: 'result', id: m.id, status: 400, message: bad.message, ...(bad.errors ? { errors: bad.errors } : {}) });
        return;
      }
      if (events.length === 0) send({ t: 'result', id: m.id, status: 202, accepted: 0 });
      else if (take(m.ctx.siteId, events)) send({ t: 'result', id: m.id, status: 202, accepted: events.length });
      else send({ t: 'result', id: m.id, status: 503, accepted: 0, refused: events.length });
      return;
    }
    case 'accept':
      if (!take(m.websiteId, m.events)) send({ t: 'failed', message: 'buffer full', events: m.events.length, refused: m.events.length });
      return;
    case 'ownHost':
      ownHost = m.value;
      return;
    case 'written': {
      const w = writes.get(m.id);
      writes.delete(m.id);
      if (m.error) w?.reject(new Error(m.error));
      else w?.resolve();
      return;
    }
    case 'drain':
      void drainAll(1).then(() => send({ t: 'done', id: m.id }));
      return;
    case 'close':
      clearInterval(timer);
      void drainAll(5).then(async () => {
        stopped = true;
        journal?.close();
        await pool?.end().catch(() => {});
        send({ t: 'done', id: m.id });
      });
      return;
  }
});
