/**
 * The unsubscribe link of restock emails: /restock/unsubscribe/{signed token}.
 * GET shows a confirm page and changes nothing (mail scanners follow links); POST unsubscribes, from the
 * page's button or as an RFC 8058 one-click request (body List-Unsubscribe=One-Click) from a mail client.
 * It is not under /api: the signed token is the proof, a mail client has no crumb.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { RestockService } from './service.js';
import { escapeHtml } from '../../core/html.js';
import { sendPrivatePage } from '../private-page.js';

export const UNSUBSCRIBE_PATH = '/restock/unsubscribe';

export const UNSUBSCRIBE_TEXT = {
  TITLE: 'Unsubscribe',
  CONFIRM: 'Stop back-in-stock emails to {email}?',
  DETAIL: 'You asked {store} to tell you when {product} was back in stock.',
  BUTTON: 'Unsubscribe',
  DONE_TITLE: 'You are unsubscribed',
  DONE: '{email} will get no more back-in-stock emails from {store}.',
  INVALID_TITLE: 'Link not valid',
  INVALID: 'This unsubscribe link is not valid. Please use the link from the latest email.',
} as const;

function fill(t: string, v: Record<string, string>): string {
  return t.replace(/\{(\w+)\}/g, (m, k: string) => (k in v ? `<strong>${escapeHtml(v[k]!)}</strong>` : m));
}

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return sendPrivatePage(
    reply,
    status,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>` +
      `<style>body{font:16px/1.5 system-ui,sans-serif;color:#1d1d1f;max-width:520px;margin:12vh auto;padding:0 20px}button{font:inherit;padding:10px 16px;border:0;border-radius:6px;background:#1d1d1f;color:#fff;cursor:pointer}</style>` +
      `</head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
  );
}

export async function unsubscribeRoutes(app: FastifyInstance, opts: { service: RestockService }) {
  const { service } = opts;

  app.get<{ Params: { token: string } }>(`${UNSUBSCRIBE_PATH}/:token`, async (req, reply) => {
    const target = await service.unsubscribeTarget(req.params.token);
    if (!target) return page(reply, 400, UNSUBSCRIBE_TEXT.INVALID_TITLE, `<p>${escapeHtml(UNSUBSCRIBE_TEXT.INVALID)}</p>`);
    const v = { email: target.email, store: target.storeName, product: target.productTitle };
    return page(
      reply,
      200,
      UNSUBSCRIBE_TEXT.TITLE,
      `<p>${fill(UNSUBSCRIBE_TEXT.CONFIRM, v)}</p><p>${fill(UNSUBSCRIBE_TEXT.DETAIL, v)}</p>` +
        `<form method="post" action="${UNSUBSCRIBE_PATH}/${escapeHtml(encodeURIComponent(req.params.token))}"><button type="submit">${escapeHtml(UNSUBSCRIBE_TEXT.BUTTON)}</button></form>`,
    );
  });

  app.post<{ Params: { token: string } }>(`${UNSUBSCRIBE_PATH}/:token`, async (req, reply) => {
    const target = await service.unsubscribeTarget(req.params.token);
    const done = target ? await service.unsubscribe(req.params.token) : null;
    const body = req.body as Record<string, unknown> | undefined;
    const oneClick = body && typeof body === 'object' && body['List-Unsubscribe'] === 'One-Click';
    if (!done || !target) {
      if (oneClick) return reply.status(400).type('text/plain; charset=utf-8').send(UNSUBSCRIBE_TEXT.INVALID);
      return page(reply, 400, UNSUBSCRIBE_TEXT.INVALID_TITLE, `<p>${escapeHtml(UNSUBSCRIBE_TEXT.INVALID)}</p>`);
    }
    if (oneClick) return reply.status(200).type('text/plain; charset=utf-8').send('Unsubscribed');
    return page(
      reply,
      200,
      UNSUBSCRIBE_TEXT.DONE_TITLE,
      `<p>${fill(UNSUBSCRIBE_TEXT.DONE, { email: done.email, store: target.storeName })}</p>`,
    );
  });
}
