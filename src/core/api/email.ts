/**
 * Email settings: the SMTP relay form (its schema lives in core/smtp.ts, which the server also checks
 * with), the relay as the browser sees it, the owner notifications' switches and the screen's answer.
 */
import { z } from 'zod';
import type { SmtpSecurity } from '../smtp.js';

export { smtpInputSchema, type SmtpInput, type SmtpSecurity } from '../smtp.js';

/** What the browser sees of the saved relay: everything but the password, which is only said to be set. */
export interface SmtpPublic {
  host: string;
  port: number;
  security: SmtpSecurity;
  username: string;
  passwordSet: boolean;
  fromAddress: string;
}

export const OWNER_NOTIFICATIONS = ['newOrder', 'formSubmission', 'lowStock'] as const;
export type OwnerNotificationKey = (typeof OWNER_NOTIFICATIONS)[number];
export type OwnerNotifications = Record<OwnerNotificationKey, boolean>;

/** PUT /api/admin/email-settings/notifications. */
export const ownerNotificationsSchema = z.object({ newOrder: z.boolean(), formSubmission: z.boolean(), lowStock: z.boolean() });

/** POST /api/admin/email-settings/test. */
export const testMailIn = z.object({ to: z.string().trim().max(320).optional() });
export interface TestMailAnswer {
  ok: boolean;
  to: string;
  error?: string;
}

/** GET /api/admin/email-settings. */
export interface EmailSettings {
  source: 'environment' | 'settings' | 'none';
  smtp: SmtpPublic | null;
  notifications: OwnerNotifications;
  notifyTo: string | null;
  signedIn: string;
}
