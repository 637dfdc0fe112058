/**
 * The SMTP relay as the owner sets it in /config (issue 23), beside SMTP_URL in the environment. The environment
 * wins when set (an operator's choice is not overridden from the browser); otherwise the saved row of
 * smtp_settings is the relay. The password is write-only: it is stored for the relay's login, and never sent
 * back, logged, put in the audit log or shown in an error (relay errors are scrubbed of it).
 */
import nodemailer from 'nodemailer';
import { eq } from 'drizzle-orm';
import type { Database, Db, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { type SmtpInput, type SmtpSecurity, SMTP_SECURITY } from '../../core/smtp.js';

export { SMTP_MESSAGES, SMTP_SECURITY, smtpInputSchema, addressOf, type SmtpInput, type SmtpSecurity } from '../../core/smtp.js';
import type { MailTransport } from './mailer.js';

export interface SmtpRow {
  host: string;
  port: number;
  security: SmtpSecurity;
  username: string;
  password: string;
  fromAddress: string;
}

import type { SmtpPublic } from '../../core/api/email.js';
export type { SmtpPublic };

const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/** A nodemailer transport for a saved relay. */
export function nodemailerFor(row: SmtpRow) {
  return nodemailer.createTransport({
    host: row.host,
    port: row.port,
    secure: row.security === 'tls',
    requireTLS: row.security === 'starttls',
    ignoreTLS: row.security === 'none',
    auth: row.username ? { user: row.username, pass: row.password } : undefined,
    ...TIMEOUTS,
  });
}

/** A relay error as the owner may read it: never with the password in it. */
export function scrubbed(message: string, password: string): string {
  let m = message.slice(0, 500);
  if (password.length >= 1) m = m.split(password).join('••••••');
  return m;
}

export function transportFor(row: SmtpRow): MailTransport {
  const t = nodemailerFor(row);
  return {
    async send(msg) {
      try {
        await t.sendMail(msg);
      } catch (e) {
        throw new Error(scrubbed((e as Error).message, row.password));
      }
    },
  };
}

export const publicOf = (r: SmtpRow): SmtpPublic => ({
  host: r.host,
  port: r.port,
  security: r.security,
  username: r.username,
  passwordSet: r.password !== '',
  fromAddress: r.fromAddress,
});

export class SmtpSettingsStore {
  constructor(private readonly database: Database) {}

  async get(websiteId: string, db: Db | Tx = this.database.db): Promise<SmtpRow | null> {
    const [r] = await db.select().from(schema.smtpSettings).where(eq(schema.smtpSettings.websiteId, websiteId)).limit(1);
    if (!r) return null;
    const security = (SMTP_SECURITY as readonly string[]).includes(r.security) ? (r.security as SmtpSecurity) : 'starttls';
    return { host: r.host, port: r.port, security, username: r.username, password: r.password, fromAddress: r.fromAddress };
  }

  /** Saves the relay; an empty password keeps the saved one unless the user name is cleared too. */
  async save(websiteId: string, input: SmtpInput, db: Db | Tx = this.database.db): Promise<SmtpRow> {
    const before = await this.get(websiteId, db);
    const password = input.username === '' ? '' : input.password !== '' ? input.password : (before?.password ?? '');
    const row: SmtpRow = {
      host: input.host,
      port: input.port,
      security: input.security,
      username: input.username,
      password,
      fromAddress: input.fromAddress,
    };
    await db
      .insert(schema.smtpSettings)
      .values({ websiteId, ...row, updated: new Date() })
      .onConflictDoUpdate({ target: schema.smtpSettings.websiteId, set: { ...row, updated: new Date() } });
    return row;
  }

  async remove(websiteId: string, db: Db | Tx = this.database.db): Promise<void> {
    await db.delete(schema.smtpSettings).where(eq(schema.smtpSettings.websiteId, websiteId));
  }
}
