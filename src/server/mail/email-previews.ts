/**
 * The commerce email preview (page type 301): every email Tessera sends, rendered with sample data by
 * the same function that renders it for real, for owners at /config/emails. The registry lives in the
mail area so any area can add its emails; the engagement area serves the list and the previews.
 *
 * HOW TO ADD YOUR EMAIL (any area; e.g. the product reviews' review-request email):
 *
 *   import { registerEmailPreview } from '../mail/index.js';
 *
 *   registerEmailPreview('review-request', {
 *     label: 'Review request',
 *     render: async (ctx) => reviewRequestEmail({ storeName: ctx.storeName, ... sample data ... }),
 *   });
 *
 * - Call it once at module level of your area (or in your area plugin); registering a name again
 *   replaces the earlier entry, so a plugin registered twice (tests) is harmless.
 * - `render` gets `{ app, storeName, origin, currency, now }` and returns `{ subject, text, html? }`:
 *   call your real email function with sample data (never a copy of its markup). Do not write to the
 *   database from it; it runs on every preview request.
 * - The screen lists entries in registration order; the API is GET /api/config/engagement/emails
 *   (list) and GET /api/config/engagement/emails/:name (one rendered email).
 */
import type { FastifyInstance } from 'fastify';
import type { EmailLook } from '../../core/site-styles.js';

export interface EmailPreviewContext {
  app: FastifyInstance;
  storeName: string;
  /** The site's origin as the owner sees it (links in the sample emails). */
  origin: string;
  currency: string;
  now: number;
  /** The look of the site's emails from its saved site styles (issue #27). */
  look?: EmailLook;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html?: string;
}

export interface EmailPreview {
  label: string;
  render(ctx: EmailPreviewContext): RenderedEmail | Promise<RenderedEmail>;
}

const previews = new Map<string, EmailPreview>();

/** Adds (or replaces) an email in the preview list. Names: lower-case letters, digits and '-'. */
export function registerEmailPreview(name: string, preview: EmailPreview): void {
  if (!/^[a-z0-9-]{1,64}$/.test(name)) throw new Error(`Email preview name not valid: ${name}`);
  previews.set(name, preview);
}

export function emailPreviewNames(): Array<{ name: string; label: string }> {
  return [...previews].map(([name, p]) => ({ name, label: p.label }));
}

export function emailPreview(name: string): EmailPreview | undefined {
  return previews.get(name);
}
