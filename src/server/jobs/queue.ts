import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { rows } from '../db-util.js';
import { WorkerLoop } from '../worker-loop.js';

export type JobHandler = (payload: Record<string, unknown>, job: { id: number; attempts: number }) => Promise<void>;

const LEASE_MS = 120_000;

/**
 * Background work on the database (restock sending, roll-ups, clean-ups). Jobs are claimed with
 * FOR UPDATE SKIP LOCKED under a lease, so each runs once across instances; a crashed run is picked
 * up again when its lease ends; failures retry with back-off up to maxAttempts.
 */
export class JobQueue {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly loop = new WorkerLoop(
    () => this.runDue(),
    (e) => this.log?.error({ err: e }, 'job worker failed'),
  );

  constructor(
    private readonly database: Database,
    private readonly log?: FastifyBaseLogger,
  ) {}

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  async enqueue(
    db: Db | Tx,
    kind: string,
    payload: Record<string, unknown>,
    opts: { runAt?: Date; maxAttempts?: number } = {},
  ): Promise<number> {
    const r = await db
      .insert(schema.jobs)
      .values({ kind, payload, runAt: opts.runAt ?? new Date(), maxAttempts: opts.maxAttempts ?? 5 })
      .returning({ id: schema.jobs.id });
    return r[0]!.id;
  }

  /** Runs due jobs until none is due; returns how many ran. */
  async runDue(batch = 10): Promise<number> {
    let ran = 0;
    for (;;) {
      const kinds = [...this.handlers.keys()];
      if (kinds.length === 0) return ran;
      const claimed = await rows<{ id: number; kind: string; payload: Record<string, unknown>; attempts: number; max_attempts: number }>(
        this.database.db,
        // Materialized so the LIMIT holds (see the mailer's claim).
        sql`WITH picked AS MATERIALIZED (
              SELECT id FROM jobs
              WHERE ((status = 'pending' AND run_at <= now()) OR (status = 'running' AND locked_until < now()))
                AND kind IN (${sql.join(
                  kinds.map((k) => sql`${k}`),
                  sql`, `,
                )})
              ORDER BY run_at, id LIMIT ${batch} FOR UPDATE SKIP LOCKED)
            UPDATE jobs j SET status = 'running', attempts = j.attempts + 1, locked_until = now() + ${`${LEASE_MS} milliseconds`}::interval
            FROM picked WHERE j.id = picked.id
            RETURNING j.id, j.kind, j.payload, j.attempts, j.max_attempts`,
      );
      if (claimed.length === 0) return ran;
      for (const j of claimed) {
        const handler = this.handlers.get(j.kind)!;
        try {
          await handler(j.payload, { id: j.id, attempts: j.attempts });
          await this.database.db.execute(sql`UPDATE jobs SET status = 'done', finished_at = now(), locked_until = NULL WHERE id = ${j.id}`);
        } catch (e) {
          const give = j.attempts >= j.max_attempts;
          const delay = Math.min(600_000, 1000 * 2 ** j.attempts);
          await this.database.db.execute(
            sql`UPDATE jobs SET status = ${give ? 'failed' : 'pending'}, locked_until = NULL, last_error = ${String((e as Error).message).slice(0, 500)},
                run_at = now() + ${`${delay} milliseconds`}::interval WHERE id = ${j.id}`,
          );
          this.log?.warn({ jobId: j.id, kind: j.kind, err: (e as Error).message }, 'job failed');
        }
        ran++;
      }
    }
  }

  kick(): void {
    this.loop.kick();
  }

  start(intervalMs = 1000): void {
    this.loop.start(intervalMs);
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }
}
