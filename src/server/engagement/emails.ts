/** The newsletter double opt-in email (the one email of this area). */
import { DEFAULT_EMAIL_LOOK, type EmailLook } from '../../core/site-styles.js';
import { escapeHtml } from '../../core/html.js';

export interface ConfirmationEmailInput {
  storeName: string;
  listName: string;
  confirmUrl: string;
  /** The site's email look from its site styles (server/mail/email-look.ts); the default look when absent. */
  look?: EmailLook;
}

export function newsletterConfirmationEmail(input: ConfirmationEmailInput): { subject: string; text: string; html: string } {
  const look = input.look ?? DEFAULT_EMAIL_LOOK;
  const subject = `Confirm your subscription to ${input.storeName}`.replace(/[\r\n]+/g, ' ');
  const intro = `Thanks for signing up for ${input.listName} from ${input.storeName}. Please confirm that you want to receive it.`;
  const ignore = 'If you did not sign up, ignore this email: you will not be subscribed.';
  const text = [intro, '', `Confirm subscription: ${input.confirmUrl}`, '', ignore, ''].join('\n');
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="${look.body}">` +
    `<p>${escapeHtml(intro)}</p>` +
    `<p><a href="${escapeHtml(input.confirmUrl)}" style="${look.button}">Confirm subscription</a></p>` +
    `<p style="font-size:13px;color:#555">${escapeHtml(ignore)}</p></body></html>`;
  return { subject, text, html };
}
