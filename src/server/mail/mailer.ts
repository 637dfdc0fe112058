import nodemailer, { type Transporter } from 'nodemailer';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { rows } from '../db-util.js';
import { WorkerLoop } from '../worker-loop.js';

export interface OutgoingMail {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  ref?: string;
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post for one-click unsubscribe. */
  headers?: Record<string, string>;
}

export interface MailTransport {
  /** Sends one message; throws when the relay refuses or cannot be reached. */
  send(msg: { from: string; to: string; subject: string; text: string; html?: string; headers?: Record<string, string> }): Promise<void>;
}

/** SMTP through nodemailer. */
export function smtpTransport(url: string): MailTransport {
  const t: Transporter = nodemailer.createTransport(url);
  return {
    async send(msg) {
      await t.sendMail(msg);
    },
  };
}

const MAX_ATTEMPTS = 25;
const LEASE_MS = 60_000;

/** Back-off between delivery attempts: 1 s, 2 s, 4 s, ... up to 10 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(600_000, 1000 * 2 ** Math.max(0, attempts - 1));
}

interface ClaimedRow {
  id: number;
  headers: Record<string, string> | null;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  attempts: number;
}

/**
 * The mail module. `enqueue` writes to the outbox inside the caller's transaction; a worker delivers
 * due rows after the commit. With no relay configured, mail is kept in the outbox with status 'local'
 * for the owner to read in /config.
 */
export class Mailer {
  private readonly loop = new WorkerLoop(
    () => this.deliverDue(),
    (e) => this.log?.error({ err: e }, 'mail worker failed'),
  );

  constructor(
    private readonly database: Database,
    private transport: MailTransport | null,
    private from: string,
    private readonly log?: FastifyBaseLogger,
  ) {}

  get hasRelay(): boolean {
    return this.transport !== null;
  }

  /**
   * Swaps the relay while running (the SMTP settings saved in /config, server/mail/smtp-settings.ts); null keeps
   * new mail in the outbox. Mail queued before keeps its status.
   */
  setRelay(transport: MailTransport | null, from?: string): void {
    this.transport = transport;
    if (from) this.from = from;
    if (transport) this.kick();
  }

  async enqueue(db: Db | Tx, mail: OutgoingMail | OutgoingMail[]): Promise<void> {
    const list = Array.isArray(mail) ? mail : [mail];
    if (list.length === 0) return;
    const status = this.transport ? 'pending' : 'local';
    await db.insert(schema.mailOutbox).values(
      list.map((m) => ({
        kind: m.kind,
        toAddress: m.to,
        subject: m.subject,
        textBody: m.text,
        htmlBody: m.html ?? null,
        headers: m.headers ?? null,
        ref: m.ref ?? null,
        status,
      })),
    );
  }

  /** Delivers what is due now, in batches, until nothing is due. Safe to call from several instances. */
  async deliverDue(batch = 50): Promise<{ sent: number; failed: number }> {
    let sent = 0;
    let failed = 0;
    const transport = this.transport;
    if (!transport) return { sent, failed };
    for (;;) {
      const claimed = await rows<ClaimedRow>(
        this.database.db,
        // The CTE is materialized so the LIMIT holds: as a plain IN (subquery) the planner may run the
        // locking subquery again per row and claim more than a batch.
        sql`WITH picked AS MATERIALIZED (
              SELECT id FROM mail_outbox
              WHERE (status = 'pending' AND next_attempt_at <= now()) OR (status = 'sending' AND locked_until < now())
              ORDER BY id LIMIT ${batch} FOR UPDATE SKIP LOCKED)
            UPDATE mail_outbox m SET status = 'sending', attempts = m.attempts + 1, locked_until = now() + ${`${LEASE_MS} milliseconds`}::interval
            FROM picked WHERE m.id = picked.id
            RETURNING m.id, m.to_address, m.subject, m.text_body, m.html_body, m.headers, m.attempts`,
      );
      if (claimed.length === 0) break;
      await Promise.all(
        claimed.map(async (m) => {
          try {
            await transport.send({
              from: this.from,
              to: m.to_address,
              subject: m.subject,
              text: m.text_body,
              html: m.html_body ?? undefined,
              headers: m.headers ?? undefined,
            });
            await this.database.db.execute(
              sql`UPDATE mail_outbox SET status = 'sent', sent_at = now(), locked_until = NULL, last_error = NULL WHERE id = ${m.id}`,
            );
            sent++;
          } catch (e) {
            failed++;
            const give = m.attempts >= MAX_ATTEMPTS;
            const delay = retryDelayMs(m.attempts);
            await this.database.db.execute(
              sql`UPDATE mail_outbox SET status = ${give ? 'failed' : 'pending'}, locked_until = NULL, last_error = ${String((e as Error).message).slice(0, 500)},
                  next_attempt_at = now() + ${`${delay} milliseconds`}::interval WHERE id = ${m.id}`,
            );
            this.log?.warn({ mailId: m.id, attempts: m.attempts, err: (e as Error).message }, 'mail delivery failed; will retry');
          }
        }),
      );
      if (failed > 0) break;
    }
    return { sent, failed };
  }

  /** Asks the worker to run soon (after a commit that queued mail). */
  kick(): void {
    if (this.transport) this.loop.kick();
  }

  start(intervalMs = 2000): void {
    // The timer runs without a relay too (kick does nothing then): a relay saved in /config later is used.
    this.loop.start(intervalMs);
    this.kick();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }
}
