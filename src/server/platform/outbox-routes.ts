/**
 * The Emails screen's calls (issue 23): the outbox (mail_outbox) as owners see it: queued, sending, sent, failed
 * with the relay's error, or kept locally when no SMTP relay is set; one email opened; a resend. Admins only:
 * the bodies hold customers' details and one-time links. Never cached; resends are rate-limited per account.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { rows } from '../db-util.js';
import { HttpError, notFound } from '../errors.js';
import { parseInput } from './validate.js';
import { can } from '../../core/roles.js';

export const NO_RELAY =
  'No SMTP relay is set, so email cannot be sent: enter one in Email settings (or set SMTP_URL). Until then every email is kept here to read.';
const RESEND_LIMIT = {
  name: 'outbox-resend',
  max: 30,
  windowMs: 60_000,
  message: 'Too many resends in a minute. Wait a moment and try again.',
};

const STATUSES = ['pending', 'sending', 'sent', 'failed', 'local'] as const;

interface OutboxRow {
  id: number | string;
  kind: string;
  to_address: string;
  subject: string;
  status: string;
  attempts: number;
  last_error: string | null;
  ref: string | null;
  created_at: string | Date;
  sent_at: string | Date | null;
  text_body?: string;
  html_body?: string | null;
}

const iso = (d: string | Date | null) => (d ? new Date(d).toISOString() : null);
const summary = (r: OutboxRow) => ({
  id: Number(r.id),
  kind: r.kind,
  to: r.to_address,
  subject: r.subject,
  status: r.status,
  attempts: Number(r.attempts),
  lastError: r.last_error,
  ref: r.ref,
  createdAt: iso(r.created_at),
  sentAt: iso(r.sent_at),
});

export async function outboxRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const mailer = app.services.mailer;
  const admin = { preHandler: app.requireOwner(can('email-delivery', 'read')) };
  const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

  app.get('/api/admin/emails', admin, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const q = parseInput(
      z.object({
        status: z.enum(STATUSES).optional(),
        before: z.coerce.number().int().positive().optional(),
        limit: z.coerce.number().int().min(1).max(100).default(50),
      }),
      req.query,
    );
    const list = await rows<OutboxRow>(
      db,
      sql`select id, kind, to_address, subject, status, attempts, last_error, ref, created_at, sent_at from mail_outbox
          where true ${q.status ? sql`and status = ${q.status}` : sql``} ${q.before ? sql`and id < ${q.before}` : sql``}
          order by id desc limit ${q.limit}`,
    );
    return {
      relay: mailer.hasRelay,
      emails: list.map(summary),
      nextBefore: list.length === q.limit ? Number(list[list.length - 1]!.id) : null,
    };
  });

  app.get('/api/admin/emails/:id', admin, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const { id } = parseInput(idParam, req.params);
    const [r] = await rows<OutboxRow>(db, sql`select * from mail_outbox where id = ${id}`);
    if (!r) throw notFound('That email does not exist.');
    return { relay: mailer.hasRelay, email: { ...summary(r), text: r.text_body ?? '', html: r.html_body ?? null } };
  });

  /**
   * Sends an email again: a failed one goes back in the queue as it is (its attempts start over); a sent or kept
   * one is queued as a new copy, so the record of the first stays.
   */
  app.post(
    '/api/admin/emails/:id/resend',
    {
      preHandler: [
        app.requireOwner(can('email-delivery', 'write')),
        app.services.rateLimiter.guard({ ...RESEND_LIMIT, key: (r) => `acct:${r.owner?.id ?? r.ip}` }),
      ],
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const { id } = parseInput(idParam, req.params);
      if (!mailer.hasRelay) throw new HttpError(409, NO_RELAY);
      const [r] = await rows<OutboxRow>(db, sql`select id, status from mail_outbox where id = ${id}`);
      if (!r) throw notFound('That email does not exist.');
      let queued: OutboxRow | undefined;
      if (r.status === 'failed') {
        [queued] = await rows<OutboxRow>(
          db,
          sql`update mail_outbox set status = 'pending', attempts = 0, last_error = null, next_attempt_at = now(), locked_until = null where id = ${id} and status = 'failed'
            returning id, kind, to_address, subject, status, attempts, last_error, ref, created_at, sent_at`,
        );
      } else if (r.status === 'pending' || r.status === 'sending') {
        throw new HttpError(409, 'This email is already waiting to be sent.');
      } else {
        [queued] = await rows<OutboxRow>(
          db,
          sql`insert into mail_outbox (kind, to_address, subject, text_body, html_body, headers, ref, status)
            select kind, to_address, subject, text_body, html_body, headers, ref, 'pending' from mail_outbox where id = ${id}
            returning id, kind, to_address, subject, status, attempts, last_error, ref, created_at, sent_at`,
        );
      }
      if (!queued) throw new HttpError(409, 'This email is already waiting to be sent.');
      mailer.kick();
      return { email: summary(queued) };
    },
  );
}
