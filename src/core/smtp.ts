/**
 * The SMTP relay form's fields and messages (issue 23), shared by /config's Email settings screen and the server
 * that checks them (server/mail/smtp-settings.ts). No backtracking patterns: the host is checked character by
 * character after its length.
 */
import { z } from 'zod';
import { isEmailAddress } from './email.js';

export const SMTP_SECURITY = ['starttls', 'tls', 'none'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];

const HOST_MAX = 253;

/** A host name or an IP address: letters, digits, dots, hyphens, colons (IPv6); checked by length first. */
function isHost(s: string): boolean {
  if (s.length === 0 || s.length > HOST_MAX) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '.' || c === '-' || c === ':')) return false;
  }
  return true;
}

/** The address inside "Name <addr>" or the text itself. */
export function addressOf(from: string): string {
  const lt = from.lastIndexOf('<');
  return lt >= 0 && from.endsWith('>') ? from.slice(lt + 1, -1).trim() : from.trim();
}

export const SMTP_MESSAGES = {
  HOST: "Enter the relay's host name, such as smtp.example.com.",
  PORT: 'Enter a port from 1 to 65535 (usually 587, or 465 for TLS).',
  FROM: 'Enter a sender address such as Fernhill <shop@example.com>, or leave it empty.',
  USERNAME: 'Use at most 320 characters for the user name.',
  PASSWORD: 'Use at most 1024 characters for the password.',
  ENV: 'Email delivery is set by SMTP_URL in the environment; change it there.',
} as const;

/** The form's fields. An empty password keeps the saved one (the browser never has it to send back). */
export const smtpInputSchema = z.object({
  host: z.string().trim().refine(isHost, SMTP_MESSAGES.HOST),
  port: z.coerce.number({ message: SMTP_MESSAGES.PORT }).int(SMTP_MESSAGES.PORT).min(1, SMTP_MESSAGES.PORT).max(65535, SMTP_MESSAGES.PORT),
  security: z.enum(SMTP_SECURITY),
  username: z.string().trim().max(320, SMTP_MESSAGES.USERNAME).default(''),
  password: z.string().max(1024, SMTP_MESSAGES.PASSWORD).default(''),
  fromAddress: z
    .string()
    .trim()
    .max(400, SMTP_MESSAGES.FROM)
    .refine((s) => s === '' || isEmailAddress(addressOf(s)), SMTP_MESSAGES.FROM)
    .default(''),
});
export type SmtpInput = z.infer<typeof smtpInputSchema>;
