import { pgTable, text, integer, timestamp } from 'drizzle-orm/pg-core';
import { websites } from './platform.js';

/**
 * The SMTP relay the owner set in /config (issue 23), used when SMTP_URL is not set. One row per website.
 * The password is never sent back to the browser, logged or written to the audit log (docs/SECURITY.md).
 */
export const smtpSettings = pgTable('smtp_settings', {
  websiteId: text('website_id')
    .primaryKey()
    .references(() => websites.id, { onDelete: 'cascade' }),
  host: text('host').notNull(),
  port: integer('port').notNull(),
  /** 'tls' (implicit TLS, usually 465), 'starttls' (upgrade, usually 587) or 'none' (a relay on this machine). */
  security: text('security').notNull().default('starttls'),
  username: text('username').notNull().default(''),
  password: text('password').notNull().default(''),
  fromAddress: text('from_address').notNull().default(''),
  updated: timestamp('updated', { withTimezone: true }).notNull().defaultNow(),
});
