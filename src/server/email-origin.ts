/**
 * The origin of every link Tessera emails (order confirmations, newsletter and restock mails, review
 * requests, site-user confirmation and reset links, member join confirmations). It is never taken from a
 * request: a visitor chooses the Host header, and a link to their host in the shop's own email is phishing.
 *
 * In order: PUBLIC_URL; else the site address the owner saved in /config (settings.siteAddress on the
 * website row); else the address this process listens on (a local install). In production (NODE_ENV=
 * production) with neither of the first two set, main.ts warns at start.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db, Tx } from '../db/index.js';
import { rows } from './db-util.js';
import type { Config } from './config.js';

/** The longest site address accepted (a URL with room for a path). */
export const SITE_ADDRESS_MAX = 300;

/** An http(s) URL's origin and path, without a trailing slash, query or fragment; null for anything else. */
export function linkBase(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > SITE_ADDRESS_MAX) return null;
  let u: URL;
  try {
    u = new URL(value.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (u.username || u.password) return null;
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

/** The address this process serves on: where it listens, else HOST:PORT of the configuration. */
export function listeningOrigin(app: Pick<FastifyInstance, 'config' | 'server'>): string {
  const { HOST, PORT } = app.config;
  const addr = app.server?.address?.();
  const port = addr && typeof addr === 'object' ? addr.port : PORT;
  const host = HOST === '0.0.0.0' || HOST === '::' ? 'localhost' : HOST.includes(':') ? `[${HOST}]` : HOST;
  return `http://${host}:${port}`;
}

/** Reads the owner's saved site address; `db` lets a caller inside a transaction read through it. */
export async function savedSiteAddress(db: Db | Tx): Promise<string | null> {
  const r = await rows<{ a: string | null }>(db, sql`select settings->>'siteAddress' as a from websites order by created_at limit 1`);
  return linkBase(r[0]?.a ?? null);
}

export type EmailOrigin = (db?: Db | Tx) => Promise<string>;

/** The resolver of an app. Pass the transaction when calling from inside one (PGlite has one connection). */
export function emailOriginOf(app: Pick<FastifyInstance, 'config' | 'server' | 'database'>): EmailOrigin {
  return async (db) => linkBase(app.config.PUBLIC_URL) ?? (await savedSiteAddress(db ?? app.database.db)) ?? listeningOrigin(app);
}

/** Start-up check: in production, links need PUBLIC_URL or a saved site address. Answers the warning, or null. */
export async function emailOriginWarning(
  config: Config,
  db: Db,
  env: Record<string, string | undefined> = process.env,
): Promise<string | null> {
  if (env.NODE_ENV !== 'production' || linkBase(config.PUBLIC_URL)) return null;
  if (await savedSiteAddress(db).catch(() => null)) return null;
  return "Neither PUBLIC_URL nor a site address (/config/site-address) is set: emailed links will point at this machine's own address. Set PUBLIC_URL to the address visitors use.";
}
