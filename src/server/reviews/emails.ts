/** The review request email: sent some time after an order is delivered, with the reviews request page's link. */
import { DEFAULT_EMAIL_LOOK, type EmailLook } from '../../core/site-styles.js';
import { escapeHtml } from '../../core/html.js';

export interface ReviewRequestEmailInput {
  storeName: string;
  buyerName: string;
  orderNumber: number;
  productTitles: string[];
  reviewUrl: string;
  /** The site's email look from its site styles (server/mail/email-look.ts); the default look when absent. */
  look?: EmailLook;
}

export const REVIEW_EMAIL_TEXT = {
  subject: 'How was your order from {store}?',
  greeting: 'Hi {name},',
  greetingNoName: 'Hi,',
  intro: 'Thank you for your order #{order}. We hope you are enjoying it. Would you tell other shoppers what you think?',
  cta: 'Write a review',
  why: 'You are receiving this email because you bought from {store}. The link works only for your order.',
} as const;

function fill(t: string, v: Record<string, string>): string {
  return t.replace(/\{(\w+)\}/g, (m, k: string) => (k in v ? v[k]! : m));
}

export function reviewRequestEmail(input: ReviewRequestEmailInput): { subject: string; text: string; html: string } {
  const look = input.look ?? DEFAULT_EMAIL_LOOK;
  const t = REVIEW_EMAIL_TEXT;
  const plain = { store: input.storeName, name: input.buyerName, order: String(input.orderNumber) };
  const html = { store: escapeHtml(input.storeName), name: escapeHtml(input.buyerName), order: String(input.orderNumber) };
  const subject = fill(t.subject, plain).replace(/[\r\n]+/g, ' ');
  const greeting = input.buyerName ? t.greeting : t.greetingNoName;
  const text = [
    fill(greeting, plain),
    '',
    fill(t.intro, plain),
    '',
    ...input.productTitles.map((p) => `- ${p}`),
    '',
    `${t.cta}: ${input.reviewUrl}`,
    '',
    '--',
    fill(t.why, plain),
    '',
  ].join('\n');
  const body =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="${look.body}">` +
    `<p>${fill(greeting, html)}</p><p>${fill(t.intro, html)}</p>` +
    `<ul>${input.productTitles.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul>` +
    `<p><a href="${escapeHtml(input.reviewUrl)}" style="${look.button}">${escapeHtml(t.cta)}</a></p>` +
    `<hr><p style="font-size:13px;color:#555">${fill(t.why, html)}</p>` +
    `</body></html>`;
  return { subject, text, html: body };
}
