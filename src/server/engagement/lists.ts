/**
 * Mailing lists: sign-ups from newsletter forms, the promo popup and the restock opt-in, the optional
 * double opt-in (a confirmation email through the outbox, in the sign-up's transaction), the signed
 * one-click unsubscribe and confirm links, and the owner's list and CSV export.
 *
 * Links carry `<memberId>.<hmac>` with a purpose in the MAC ('confirm' or 'unsubscribe'), keyed by the
 * install's secret: nothing is stored, a link cannot be forged, and one kind cannot stand for the other.
 */
import type { ListJson, MemberJson } from '../../core/api/engagement.js';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, Db, Tx } from '../../db/index.js';
import { newId } from '../../db/ids.js';
import { rows } from '../db-util.js';
import { badRequest, HttpError } from '../errors.js';
import type { Mailer } from '../mail/index.js';
import type { EmailOrigin } from '../email-origin.js';
import { unsubscribeKey } from '../restock/index.js';
import { signLink, verifyLink } from '../signed-links.js';
import { sortableId } from '../restock/index.js';
import { isValidEmail } from '../../core/forms.js';
import { EMAIL_MAX_LENGTH, EMAIL_MIN_LENGTH } from '../../core/constants.js';
import { engagement as m, forms as fm } from '../../core/messages.js';
import { newsletterConfirmationEmail } from './emails.js';
import { emailLookFor } from '../mail/index.js';
import { csvText } from '../../core/csv.js';

export const UNSUBSCRIBE_PATH = '/newsletter/unsubscribe';
export const CONFIRM_PATH = '/newsletter/confirm';
export const CONFIRM_MAIL_KIND = 'newsletter-confirmation';
/** The install's link secret in system_values (made by whichever area needs it first). */
const KEY_NAME = 'restock_unsubscribe_key';

export type MemberSource = 'form' | 'popup' | 'restock' | 'owner' | 'account';
export type Purpose = 'confirm' | 'unsubscribe';
export type { ListJson, MemberJson };

interface MemberRow {
  id: string;
  list_id: string;
  website_id: string;
  email: string;
  status: string;
  source: string;
  created: Date;
  confirmed_at: Date | null;
  unsubscribed_at: Date | null;
}

const iso = (d: Date | string | null | undefined): string | null => (d == null ? null : new Date(d).toISOString());

export function signMemberToken(key: string, purpose: Purpose, memberId: string): string {
  return signLink(key, `newsletter-${purpose}`, memberId);
}

/** The member id a link names, or null when malformed or not signed for this purpose. */
export function verifyMemberToken(key: string, purpose: Purpose, token: unknown): string | null {
  return verifyLink(key, `newsletter-${purpose}`, token);
}

/** 'Email cannot be blank' / the forms' invalid-email text, or null when the address is usable. */
export function emailProblem(email: unknown): string | null {
  const t = typeof email === 'string' ? email.trim() : '';
  if (t === '') return m.EMAIL_REQUIRED;
  if (t.length < EMAIL_MIN_LENGTH || t.length > EMAIL_MAX_LENGTH || !isValidEmail(t)) return fm.INVALID_EMAIL;
  return null;
}

export interface SubscribeInput {
  websiteId: string;
  email: string;
  source: MemberSource;
  sourceRef?: string | null;
  /** A list of this website; undefined or null: the default list. */
  listId?: string | null;
  /** When `listId` names no list of this website (deleted since it was chosen): the default list instead of a 404. */
  fallbackToDefault?: boolean;
}

export type SubscribeResult = { memberId: string; status: 'subscribed' | 'pending'; confirmationSent: boolean; listId: string };

export class MailingLists {
  constructor(
    private readonly database: Database,
    private readonly mailer: Mailer,
    /** The origin of emailed links (app.emailOrigin); never a request's. */
    private readonly origin: EmailOrigin,
  ) {}

  private get db(): Db {
    return this.database.db;
  }

  private cachedKey: string | null = null;

  /** The install's link secret (shared with restock's unsubscribe links; MACs differ by purpose). */
  async key(): Promise<string> {
    this.cachedKey ??= await unsubscribeKey(this.database);
    return this.cachedKey;
  }

  /**
   * The same secret read through the caller's transaction: on PGlite (one connection) a query outside
   * an open transaction would wait for it forever.
   */
  private async keyIn(tx: Db | Tx): Promise<string> {
    if (this.cachedKey) return this.cachedKey;
    await tx.execute(
      sql`INSERT INTO system_values (key, value) VALUES (${KEY_NAME}, ${randomBytes(32).toString('hex')}) ON CONFLICT (key) DO NOTHING`,
    );
    const r = await rows<{ value: string }>(tx, sql`SELECT value FROM system_values WHERE key = ${KEY_NAME}`);
    return r[0]!.value;
  }

  /** The website's default list, made on first use (one per website, safe under concurrency). */
  async defaultList(db: Db | Tx, websiteId: string): Promise<{ id: string; name: string; double_opt_in: boolean }> {
    const find = () =>
      rows<{ id: string; name: string; double_opt_in: boolean }>(
        db,
        sql`SELECT id, name, double_opt_in FROM mailing_lists WHERE website_id = ${websiteId} AND is_default ORDER BY created, id LIMIT 1`,
      );
    const found = await find();
    if (found[0]) return found[0];
    // Serialize first-use creation on the website row, so two sign-ups make one default list.
    await db.execute(sql`SELECT id FROM websites WHERE id = ${websiteId} FOR UPDATE`);
    const again = await find();
    if (again[0]) return again[0];
    const id = newId();
    await db.execute(sql`INSERT INTO mailing_lists (id, website_id, name, is_default) VALUES (${id}, ${websiteId}, 'Newsletter', true)`);
    return { id, name: 'Newsletter', double_opt_in: false };
  }

  async lists(websiteId: string): Promise<ListJson[]> {
    await this.db.transaction(async (tx) => void (await this.defaultList(tx, websiteId)));
    const r = await rows<{
      id: string;
      name: string;
      double_opt_in: boolean;
      is_default: boolean;
      created: Date;
      subscribed: number;
      pending: number;
      unsub: number;
    }>(
      this.db,
      sql`SELECT l.id, l.name, l.double_opt_in, l.is_default, l.created,
            count(mm.id) FILTER (WHERE mm.status = 'subscribed')::int AS subscribed,
            count(mm.id) FILTER (WHERE mm.status = 'pending')::int AS pending,
            count(mm.id) FILTER (WHERE mm.status = 'unsubscribed')::int AS unsub
          FROM mailing_lists l LEFT JOIN mailing_list_members mm ON mm.list_id = l.id
          WHERE l.website_id = ${websiteId} GROUP BY l.id ORDER BY l.is_default DESC, l.created, l.id`,
    );
    return r.map((l) => ({
      id: l.id,
      name: l.name,
      doubleOptIn: l.double_opt_in,
      isDefault: l.is_default,
      subscribedCount: Number(l.subscribed),
      pendingCount: Number(l.pending),
      unsubscribedCount: Number(l.unsub),
      created: iso(l.created)!,
    }));
  }

  async requireList(websiteId: string, listId: string): Promise<{ id: string; name: string; double_opt_in: boolean }> {
    const r = await rows<{ id: string; name: string; double_opt_in: boolean }>(
      this.db,
      sql`SELECT id, name, double_opt_in FROM mailing_lists WHERE id = ${listId} AND website_id = ${websiteId}`,
    );
    if (!r[0]) throw new HttpError(404, m.LIST_NOT_FOUND);
    return r[0];
  }

  /** Whether a list of this website has this id. */
  async hasList(websiteId: string, listId: string): Promise<boolean> {
    const r = await rows<{ id: string }>(this.db, sql`SELECT id FROM mailing_lists WHERE id = ${listId} AND website_id = ${websiteId}`);
    return r.length === 1;
  }

  async createList(websiteId: string, input: { name: string; doubleOptIn: boolean }): Promise<ListJson> {
    const id = newId();
    await this.db.execute(
      sql`INSERT INTO mailing_lists (id, website_id, name, double_opt_in) VALUES (${id}, ${websiteId}, ${input.name}, ${input.doubleOptIn})`,
    );
    return (await this.lists(websiteId)).find((l) => l.id === id)!;
  }

  async updateList(websiteId: string, listId: string, patch: { name?: string; doubleOptIn?: boolean }): Promise<ListJson> {
    await this.requireList(websiteId, listId);
    if (patch.name !== undefined) await this.db.execute(sql`UPDATE mailing_lists SET name = ${patch.name} WHERE id = ${listId}`);
    if (patch.doubleOptIn !== undefined)
      await this.db.execute(sql`UPDATE mailing_lists SET double_opt_in = ${patch.doubleOptIn} WHERE id = ${listId}`);
    return (await this.lists(websiteId)).find((l) => l.id === listId)!;
  }

  /**
   * Adds an address to a list, in the caller's transaction. A new address on a double opt-in list is
   * pending and gets the confirmation email (queued in the same transaction); an address already
   * subscribed stays so; one that unsubscribed signs up again (and confirms again when the list asks).
   */
  async subscribe(tx: Db | Tx, input: SubscribeInput): Promise<SubscribeResult> {
    const problem = emailProblem(input.email);
    if (problem) throw badRequest(problem, { email: problem });
    let list = input.listId
      ? (
          await rows<{ id: string; name: string; double_opt_in: boolean }>(
            tx,
            sql`SELECT id, name, double_opt_in FROM mailing_lists WHERE id = ${input.listId} AND website_id = ${input.websiteId}`,
          )
        )[0]
      : undefined;
    if (!list && (!input.listId || input.fallbackToDefault)) list = await this.defaultList(tx, input.websiteId);
    if (!list) throw new HttpError(404, m.LIST_NOT_FOUND);
    const email = input.email.trim();
    const emailKey = email.toLowerCase();
    const status = list.double_opt_in ? 'pending' : 'subscribed';
    const fresh = sortableId();
    const r = await rows<{ id: string; status: string }>(
      tx,
      sql`INSERT INTO mailing_list_members AS mm (id, created, list_id, website_id, email, email_key, status, source, source_ref, confirmed_at)
          VALUES (${fresh.id}, ${fresh.created}, ${list.id}, ${input.websiteId}, ${email}, ${emailKey}, ${status}, ${input.source}, ${input.sourceRef ?? null}, ${status === 'subscribed' ? fresh.created : null})
          ON CONFLICT (list_id, email_key) DO UPDATE SET
            status = CASE WHEN mm.status = 'subscribed' THEN 'subscribed' ELSE EXCLUDED.status END,
            unsubscribed_at = CASE WHEN mm.status = 'subscribed' THEN mm.unsubscribed_at ELSE NULL END,
            confirmed_at = CASE WHEN mm.status = 'subscribed' THEN mm.confirmed_at ELSE EXCLUDED.confirmed_at END
          RETURNING mm.id, mm.status`,
    );
    const row = r[0]!;
    let confirmationSent = false;
    // One confirmation per sign-up attempt of an address that is not subscribed yet.
    if (row.status === 'pending') {
      const site = await rows<{ title: string }>(tx, sql`SELECT title FROM websites WHERE id = ${input.websiteId}`);
      const base = await this.origin(tx);
      const token = signMemberToken(await this.keyIn(tx), 'confirm', row.id);
      const mail = newsletterConfirmationEmail({
        storeName: site[0]?.title ?? '',
        listName: list.name,
        confirmUrl: `${base}${CONFIRM_PATH}/${token}`,
        look: await emailLookFor(tx, input.websiteId),
      });
      await this.mailer.enqueue(tx, { kind: CONFIRM_MAIL_KIND, to: email, ...mail, ref: `newsletter-confirm:${row.id}` });
      confirmationSent = true;
    }
    return { memberId: row.id, status: row.status === 'pending' ? 'pending' : 'subscribed', confirmationSent, listId: list.id };
  }

  /** The member a signed link names (with its store's name), or null. */
  async target(token: unknown, purpose: Purpose): Promise<{ member: MemberRow; storeName: string; listName: string } | null> {
    const id = verifyMemberToken(await this.key(), purpose, token);
    if (!id) return null;
    const r = await rows<MemberRow & { title: string; list_name: string }>(
      this.db,
      sql`SELECT mm.*, w.title, l.name AS list_name FROM mailing_list_members mm JOIN websites w ON w.id = mm.website_id JOIN mailing_lists l ON l.id = mm.list_id WHERE mm.id = ${id}`,
    );
    return r[0] ? { member: r[0], storeName: r[0].title, listName: r[0].list_name } : null;
  }

  /** Confirms a pending member (double opt-in). Idempotent; null when the link is not valid. */
  async confirm(token: unknown): Promise<MemberRow | null> {
    const id = verifyMemberToken(await this.key(), 'confirm', token);
    if (!id) return null;
    const r = await rows<MemberRow>(
      this.db,
      sql`UPDATE mailing_list_members SET status = 'subscribed', confirmed_at = COALESCE(confirmed_at, now()) WHERE id = ${id} AND status IN ('pending', 'subscribed') RETURNING *`,
    );
    return r[0] ?? null;
  }

  /** Unsubscribes the member a link names. Idempotent; null when the link is not valid. */
  async unsubscribe(token: unknown): Promise<MemberRow | null> {
    const id = verifyMemberToken(await this.key(), 'unsubscribe', token);
    if (!id) return null;
    const r = await rows<MemberRow>(
      this.db,
      sql`UPDATE mailing_list_members SET status = 'unsubscribed', unsubscribed_at = COALESCE(unsubscribed_at, now()) WHERE id = ${id} RETURNING *`,
    );
    return r[0] ?? null;
  }

  /** The signed unsubscribe link of a member (for newsletters sent to the list, and the owner's view). */
  async unsubscribeUrl(memberId: string): Promise<string> {
    return `${await this.origin()}${UNSUBSCRIBE_PATH}/${signMemberToken(await this.key(), 'unsubscribe', memberId)}`;
  }

  async members(
    websiteId: string,
    listId: string,
    opts: { status?: string; limit: number; offset: number },
  ): Promise<{ members: MemberJson[]; total: number }> {
    await this.requireList(websiteId, listId);
    const filter = opts.status ? sql`AND status = ${opts.status}` : sql``;
    const r = await rows<MemberRow>(
      this.db,
      sql`SELECT * FROM mailing_list_members WHERE list_id = ${listId} ${filter} ORDER BY created DESC, id DESC LIMIT ${opts.limit} OFFSET ${opts.offset}`,
    );
    const c = await rows<{ n: number }>(
      this.db,
      sql`SELECT count(*)::int AS n FROM mailing_list_members WHERE list_id = ${listId} ${filter}`,
    );
    return { members: r.map(memberJson), total: Number(c[0]?.n ?? 0) };
  }

  /**
   * CSV of a list: Email, Status, Source, Signed Up, Confirmed, Unsubscribed, and each member's signed
   * one-click unsubscribe link (for emails the owner sends with another tool); formulas neutralised.
   */
  async csv(websiteId: string, listId: string): Promise<{ name: string; csv: string }> {
    const list = await this.requireList(websiteId, listId);
    const r = await rows<MemberRow>(this.db, sql`SELECT * FROM mailing_list_members WHERE list_id = ${listId} ORDER BY created, id`);
    const key = await this.key();
    const base = await this.origin();
    const lines: unknown[][] = [['Email', 'Status', 'Source', 'Signed Up', 'Confirmed', 'Unsubscribed', 'Unsubscribe Link']];
    for (const x of r.map(memberJson)) {
      const link = x.status === 'unsubscribed' ? '' : `${base}${UNSUBSCRIBE_PATH}/${signMemberToken(key, 'unsubscribe', x.id)}`;
      lines.push([x.email, x.status, x.source, x.created, x.confirmedAt ?? '', x.unsubscribedAt ?? '', link]);
    }
    return { name: list.name, csv: csvText(lines) };
  }
}

function memberJson(r: MemberRow): MemberJson {
  return {
    id: r.id,
    email: r.email,
    status: r.status,
    source: r.source,
    created: iso(r.created)!,
    confirmedAt: iso(r.confirmed_at),
    unsubscribedAt: iso(r.unsubscribed_at),
  };
}
