/** The mail area's door: what other areas use of it. */
export type { Mailer, OutgoingMail } from './mailer.js';
export {
  nodemailerFor,
  publicOf,
  scrubbed,
  SMTP_MESSAGES,
  smtpInputSchema,
  type SmtpRow,
  SmtpSettingsStore,
  transportFor,
} from './smtp-settings.js';
export { emailLookFor } from './email-look.js';
export {
  emailPreview,
  type EmailPreview,
  type EmailPreviewContext,
  emailPreviewNames,
  registerEmailPreview,
  type RenderedEmail,
} from './email-previews.js';
