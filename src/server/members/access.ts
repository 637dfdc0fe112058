/**
 * Who may see what: the one access check every door of the site calls (page HTML, `?format=json`,
 * `?format=ics`, search results, images and files of locked content, the lock screen hook).
 *
 *  - the site lock: a site password; the visitor unlocks it for the visit (a signed session cookie);
 *  - page passwords: one collection (a page, a blog, a video course) behind its own password;
 *  - member areas: collections only members of an area see (plus the legacy `_memberareas` navigation
 *    entries without a known area, which need a signed-in site user).
 *
 * Signed-in owners pass through everything. Unlocks name the password's nonce, so a new password ends
 * every unlock made with the old one.
 */
import { PagePermissionType } from '../../core/forms.js';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/index.js';
import { rows } from '../db-util.js';
import { isSecure } from '../visitor/index.js';
import { OWNER_COOKIE } from '../../core/cookies.js';
import type { NavLink, WebsiteRow } from '../platform/index.js';
import { MembersService, type AreaRow } from './service.js';
import { UNLOCK_COOKIE } from '../../core/cookies.js';

export const SITE_TARGET = 'site';

/** What a visitor meets instead of the content. */
export type Denial =
  { kind: 'site-lock' } | { kind: 'password'; collectionId: string } | { kind: 'members'; collectionId: string; area: AreaRow | null };

export interface LockState {
  at: number;
  /** target -> nonce of its password ('site' or a collection id). */
  passwords: Map<string, string>;
  /** collection id -> areas holding it. */
  areasByCollection: Map<string, AreaRow[]>;
  /** `_memberareas` navigation entries with no known area: any signed-in site user sees them. */
  legacyMemberCollections: Set<string>;
  areas: AreaRow[];
}

const TTL_MS = 1000;

export class Access {
  private state: LockState | null = null;
  /** path -> collections using it, for a moment (a page's images arrive together). */
  private fileUsers = new Map<string, { at: number; ids: Promise<string[]> }>();
  private secret: Buffer | null = null;
  readonly service: MembersService;

  constructor(
    private readonly app: FastifyInstance,
    private readonly database: Database,
  ) {
    this.service = new MembersService(database);
  }

  invalidate(): void {
    this.state = null;
    this.fileUsers.clear();
  }

  private usersOf(websiteId: string, path: string): Promise<string[]> {
    const now = Date.now();
    const hit = this.fileUsers.get(path);
    if (hit && now - hit.at < TTL_MS * 2) return hit.ids;
    if (this.fileUsers.size > 2000) this.fileUsers.clear();
    const ids = this.service.collectionsUsing(websiteId, path);
    this.fileUsers.set(path, { at: now, ids });
    ids.catch(() => this.fileUsers.delete(path));
    return ids;
  }

  /**
   * The locks of the site: in a page request, kept per content version (plugins/site-cache.ts; member area,
   * password and website writes move it); elsewhere read at most once a second per instance (and at once
   * after an owner's edit here).
   */
  locks(site: WebsiteRow): Promise<LockState> {
    if (this.app.siteCache.inScope()) return this.app.siteCache.get('member-locks', site.id, () => this.loadLocks(site, Date.now()));
    const now = Date.now();
    if (this.state && now - this.state.at < TTL_MS) return Promise.resolve(this.state);
    return this.loadLocks(site, now).then((state) => (this.state = state));
  }

  private async loadLocks(site: WebsiteRow, now: number): Promise<LockState> {
    const [pw, areas] = await Promise.all([this.service.passwords(site.id), this.service.areas(site.id)]);
    const areasByCollection = new Map<string, AreaRow[]>();
    const byId = new Map(areas.map((a) => [a.id, a]));
    const add = (cid: string, a: AreaRow) => {
      const list = areasByCollection.get(cid) ?? [];
      if (!list.includes(a)) list.push(a);
      areasByCollection.set(cid, list);
    };
    for (const a of areas) for (const cid of a.collectionIds) add(cid, a);
    const legacy = new Set<string>();
    const nav = (site.settings.navigation ?? {}) as Record<string, Array<NavLink & { memberAreaId?: string }>>;
    const walk = (links: Array<NavLink & { memberAreaId?: string }> = []) => {
      for (const l of links) {
        const a = l.memberAreaId ? byId.get(l.memberAreaId) : undefined;
        if (l.collectionId) {
          if (a) add(l.collectionId, a);
          else if (!areasByCollection.has(l.collectionId)) legacy.add(l.collectionId);
        }
        walk(l.children as Array<NavLink & { memberAreaId?: string }>);
      }
    };
    walk(nav._memberareas);
    for (const cid of areasByCollection.keys()) legacy.delete(cid);
    return { at: now, passwords: new Map(pw.map((p) => [p.target, p.nonce])), areasByCollection, legacyMemberCollections: legacy, areas };
  }

  // ---- The unlock cookie ------------------------------------------------------------------------

  private async key(): Promise<Buffer> {
    if (this.secret) return this.secret;
    await this.database.db.execute(
      sql`insert into system_values (key, value) values ('members_unlock_secret', ${randomBytes(32).toString('hex')}) on conflict (key) do nothing`,
    );
    const r = await rows<{ value: string }>(this.database.db, sql`select value from system_values where key = 'members_unlock_secret'`);
    this.secret = Buffer.from(r[0]!.value, 'hex');
    return this.secret;
  }

  private sign(key: Buffer, text: string): string {
    return createHmac('sha256', key).update(`unlock:${text}`).digest('base64url');
  }

  /** target -> nonce of the unlocks a request carries (only when the signature holds). */
  async unlocks(req: FastifyRequest): Promise<Map<string, string>> {
    const raw = req.cookies[UNLOCK_COOKIE];
    const out = new Map<string, string>();
    if (!raw || raw.length > 4000) return out;
    const dot = raw.lastIndexOf('.');
    if (dot < 0) return out;
    const body = raw.slice(0, dot);
    const sig = Buffer.from(raw.slice(dot + 1));
    const want = Buffer.from(this.sign(await this.key(), body));
    if (sig.length !== want.length || !timingSafeEqual(sig, want)) return out;
    for (const part of body.split('|')) {
      const [t, n] = part.split('~');
      if (t && n) out.set(t, n);
    }
    return out;
  }

  /** Adds an unlock to the visitor's cookie: a session cookie, so it lasts for the visit. */
  async addUnlock(req: FastifyRequest, reply: FastifyReply, target: string, nonce: string): Promise<void> {
    const current = await this.unlocks(req);
    current.set(target, nonce);
    const body = [...current]
      .slice(-40)
      .map(([t, n]) => `${t}~${n}`)
      .join('|');
    const value = `${body}.${this.sign(await this.key(), body)}`;
    reply.setCookie(UNLOCK_COOKIE, value, { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(req) });
  }

  // ---- The checks ---------------------------------------------------------------------------------

  async isOwner(req: FastifyRequest): Promise<boolean> {
    if (!req.cookies[OWNER_COOKIE]) return false;
    return !!(await this.app.loadOwner(req));
  }

  /** The areas the request's site user belongs to (read once per request). */
  async memberAreasOf(req: FastifyRequest): Promise<Set<string>> {
    const r = req as FastifyRequest & { membersAreas?: Promise<Set<string>> };
    const u = req.siteUser;
    if (!u) return new Set();
    r.membersAreas ??= this.service.memberOf(u.id);
    return r.membersAreas;
  }

  /** Whether the site lock stands between this request and the site (null: it does not). */
  async siteLock(req: FastifyRequest, site: WebsiteRow): Promise<Denial | null> {
    const locks = await this.locks(site);
    const nonce = locks.passwords.get(SITE_TARGET);
    if (!nonce) return null;
    if ((await this.unlocks(req)).get(SITE_TARGET) === nonce) return null;
    if (await this.isOwner(req)) return null;
    return { kind: 'site-lock' };
  }

  /**
   * THE check: may this request see this collection (and its items, files and search results)?
   * Null when it may; else what stands in the way, in order: the site lock, the collection's password,
   * its member areas.
   */
  async check(req: FastifyRequest, site: WebsiteRow, collectionId: string): Promise<Denial | null> {
    const lock = await this.siteLock(req, site);
    if (lock) return lock;
    const locks = await this.locks(site);
    const nonce = locks.passwords.get(collectionId);
    const areas = locks.areasByCollection.get(collectionId);
    const legacy = locks.legacyMemberCollections.has(collectionId);
    if (!nonce && !areas && !legacy) return null;
    if (await this.isOwner(req)) return null;
    if (nonce && (await this.unlocks(req)).get(collectionId) !== nonce) return { kind: 'password', collectionId };
    if (areas) {
      const mine = await this.memberAreasOf(req);
      if (!areas.some((a) => mine.has(a.id))) return { kind: 'members', collectionId, area: areas[0] ?? null };
    } else if (legacy && !req.siteUser) return { kind: 'members', collectionId, area: null };
    return null;
  }

  /** The page permission type of a collection (a form's pagePermissionTypeValue): public, password or members. */
  async permissionType(site: WebsiteRow, collectionId: string): Promise<number> {
    const l = await this.locks(site);
    if (l.passwords.has(collectionId)) return PagePermissionType.PASSWORD;
    if (l.areasByCollection.has(collectionId) || l.legacyMemberCollections.has(collectionId)) return PagePermissionType.MEMBERS;
    return PagePermissionType.PUBLIC;
  }

  /** The collection ids among `ids` this request may not see (for search results and lists). */
  async hidden(req: FastifyRequest, site: WebsiteRow, ids: Iterable<string>): Promise<Set<string>> {
    const out = new Set<string>();
    for (const id of new Set(ids)) if (await this.check(req, site, id)) out.add(id);
    return out;
  }

  /** Whether any collection is locked at all (files are looked up only then). */
  async anyLocked(site: WebsiteRow): Promise<boolean> {
    const l = await this.locks(site);
    return [...l.passwords.keys()].some((t) => t !== SITE_TARGET) || l.areasByCollection.size > 0 || l.legacyMemberCollections.size > 0;
  }

  /**
   * A file of the site (a media path or a member file): refused when the content that uses it is all
   * locked for this request. A file also used by open content is open (it is on an open page anyway).
   */
  async fileDenied(req: FastifyRequest, site: WebsiteRow, path: string, alwaysLocked = false): Promise<Denial | null> {
    const lock = await this.siteLock(req, site);
    if (lock) return lock;
    if (!alwaysLocked && !(await this.anyLocked(site))) return null;
    const users = await this.usersOf(site.id, path);
    if (users.length === 0) return alwaysLocked && !(await this.isOwner(req)) ? { kind: 'members', collectionId: '', area: null } : null;
    let first: Denial | null = null;
    for (const id of users) {
      const d = await this.check(req, site, id);
      if (!d) return null;
      first ??= d;
    }
    return first;
  }
}
