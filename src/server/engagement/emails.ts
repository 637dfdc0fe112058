/** The newsletter double opt-in email (the one email of this area). */

export interface ConfirmationEmailInput {
  storeName: string;
  listName: string;
  confirmUrl: string;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export function newsletterConfirmationEmail(input: ConfirmationEmailInput): { subject: string; text: string; html: string } {
  const subject = `Confirm your subscription to ${input.storeName}`.replace(/[\r\n]+/g, ' ');
  const intro = `Thanks for signing up for ${input.listName} from ${input.storeName}. Please confirm that you want to receive it.`;
  const ignore = 'If you did not sign up, ignore this email: you will not be subscribed.';
  const text = [intro, '', `Confirm subscription: ${input.confirmUrl}`, '', ignore, ''].join('\n');
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(subject)}</title></head>` +
    `<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1d1d1f">` +
    `<p>${esc(intro)}</p>` +
    `<p><a href="${esc(input.confirmUrl)}" style="display:inline-block;padding:10px 16px;background:#1d1d1f;color:#fff;text-decoration:none;border-radius:6px">Confirm subscription</a></p>` +
    `<p style="font-size:13px;color:#555">${esc(ignore)}</p></body></html>`;
  return { subject, text, html };
}
