/**
 * The answer to a plain form post (no JavaScript) that cannot go back with a 303: a short page in the
 * site's layout that says, in the same words the island would show, what happened, with a link back.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { rows } from '../db-util.js';
import { PageType } from '../../core/enums.js';
import { sendSitePage } from './page.js';

export interface Notice {
  status: number;
  ok: boolean;
  title: string;
  message: string;
  back?: { href: string; label: string } | null;
}

/** A same-site path to go back to (never another origin), else the fallback. */
export function safePath(raw: unknown, fallback = '/'): string {
  if (typeof raw !== 'string' || raw.length > 1000) return fallback;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\') || /[\u0000-\u001f]/.test(raw)) return fallback;
  return raw;
}

/** A product's page (the way back from a plain post on it; pages send no Referer: Referrer-Policy no-referrer). */
export async function productPath(app: FastifyInstance, itemId: string): Promise<string | null> {
  if (!itemId || itemId.length > 64) return null;
  const r = await rows<{ c: string | null; i: string | null }>(
    app.database.db,
    sql`select c.url_id as c, i.url_id as i from items i left join collections c on c.id = i.collection_id where i.id = ${itemId}`,
  );
  const row = r[0];
  return row?.c && row.i ? safePath(`/${row.c}/p/${row.i}`, '/') : null;
}

/** The Referer's path when it is this site's own page, else the fallback. */
export function refererPath(req: FastifyRequest, fallback = '/'): string {
  const ref = req.headers.referer;
  if (typeof ref !== 'string' || ref.length > 2000) return fallback;
  try {
    const u = new URL(ref);
    if (u.host !== req.headers.host) return fallback;
    return safePath(u.pathname + u.search, fallback);
  } catch {
    return fallback;
  }
}

export function sendNotice(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, n: Notice) {
  return sendSitePage(app, req, reply, {
    template: 'system/notice.html',
    pageType: n.ok ? PageType.PAGE : PageType.ERROR,
    status: n.status,
    title: n.title,
    ctx: { notice: { ok: n.ok, title: n.title, message: n.message, back: n.back ?? null } },
  });
}
