import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../core/html.js';

/**
 * Sends a page reached by a link with a secret in it (a sign-in, invite or unsubscribe link): never
 * cached, never indexed, and the address is not sent on as a referrer.
 */
export function sendPrivatePage(reply: FastifyReply, status: number, html: string) {
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(html);
}

/** A stand-alone page in the admin's look (admin.css), the body inside the sign-in card's <main>. */
export function adminCardPage(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)} — Tessera</title><link rel="icon" href="/theme/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="/admin.css"></head>` +
    `<body><main class="admin-login">${body}</main></body></html>`
  );
}
