/**
 * The forms service: one-time submission keys, the server-side validation (core's rules plus the
 * value shape of every field type), storing a submission in one transaction with its notification
 * email, spam keeping, and the owner's inbox and CSV export.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database, Db, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { newId, newToken, hashToken } from '../../db/ids.js';
import { ownerNotificationsOf } from '../platform/index.js';
import { rows } from '../db-util.js';
import { HttpError } from '../errors.js';
import { RateLimiter } from '../plugins/index.js';
import { captchaFor, type CaptchaAction } from '../captcha/index.js';
import { forms as m } from '../../core/messages.js';
import {
  formLanguage,
  noAnswerText,
  shapeFieldValue,
  summaryAnswer,
  validateForm,
  type FieldValue,
  type FormField,
  type PageFields,
} from '../../core/forms.js';
import { multilingualOf } from '../platform/index.js';
import { cleanOwnerHtml } from '../content/index.js';
import { csvText } from '../../core/csv.js';
import type { PublicForm } from '../../core/api/forms.js';
export type { PublicForm };
import { escapeHtml } from '../../core/html.js';

export type FormRow = typeof schema.forms.$inferSelect;
export type SubmissionRow = typeof schema.formSubmissions.$inferSelect;

export interface FormsOptions {
  now: () => number;
  /** Submissions per IP per window. */
  perIp: { max: number; windowMs: number };
  /** Submissions per form per window (all visitors). */
  perForm: { max: number; windowMs: number };
  /** Keys per IP per window. */
  keysPerIp: { max: number; windowMs: number };
  /** Field validation calls (POST /api/rest/forms/validate/{formId}) per IP per window. */
  validatePerIp?: { max: number; windowMs: number };
  keyTtlMs: number;
}

export const DEFAULT_FORMS_OPTIONS: FormsOptions = {
  now: Date.now,
  perIp: { max: 10, windowMs: 60_000 },
  perForm: { max: 300, windowMs: 3_600_000 },
  keysPerIp: { max: 60, windowMs: 60_000 },
  validatePerIp: { max: 60, windowMs: 60_000 },
  keyTtlMs: 2 * 3_600_000,
};

const optionsByDatabase = new WeakMap<Database, FormsOptions>();

export function formsOptions(database: Database): FormsOptions {
  let o = optionsByDatabase.get(database);
  if (!o) {
    o = { ...DEFAULT_FORMS_OPTIONS };
    optionsByDatabase.set(database, o);
  }
  return o;
}

/** Tunes the rate limits, key lifetime and clock of an app's forms (tests, small installs). */
export function configureForms(app: FastifyInstance | Database, patch: Partial<FormsOptions>): void {
  const database = 'database' in app ? (app as FastifyInstance).database : (app as Database);
  Object.assign(formsOptions(database), patch);
}

export function publicForm(f: FormRow): PublicForm {
  return {
    id: f.id,
    name: f.name,
    kind: f.kind === 'newsletter' ? 'newsletter' : 'form',
    fields: f.fields as FormField[],
    submitButtonText: f.submitButtonText,
    submissionMessage: f.submissionMessage,
    // Owner HTML, cleaned again when shown (rows saved before the rule; server/content/owner-html.ts).
    postSubmissionHtml: cleanOwnerHtml(f.postSubmissionHtml),
    successRedirect: f.successRedirect,
    disclaimer: f.disclaimer,
    captcha: f.captcha.enabled !== false,
    lightbox: f.advanced.lightbox === true,
    lightboxButtonText: typeof f.advanced.lightboxButtonText === 'string' ? f.advanced.lightboxButtonText : 'Open form',
  };
}

export function captchaActionOf(f: Pick<FormRow, 'kind'>): CaptchaAction {
  return f.kind === 'newsletter' ? 'newsletter-block' : 'form-block';
}

// ---- Value shapes --------------------------------------------------------------------------------

const isStr = (v: unknown): v is string => typeof v === 'string';
const MAX_VALUE = 20_000;

/**
 * Checks that a submitted value has its field type's shape and normalizes it (core's shapes):
 * address/name/date/time arrays of text; phone an array of 3 or 4 parts (3 gets the empty first
 * element); checkbox an array of offered choices; radio/select one offered choice; likert a map of
 * statement to answer; hidden and the rest text. Returns null when the shape is wrong.
 */
export function checkShape(field: FormField, raw: unknown): { value: FieldValue } | null {
  if (raw === undefined || raw === null) return { value: shapeFieldValue(field, undefined) };
  const options = field.options ?? [];
  switch (field.type) {
    case 'section':
      return { value: undefined };
    case 'address':
    case 'name':
    case 'date':
    case 'time':
      if (!Array.isArray(raw) || raw.length > 8 || !raw.every(isStr) || raw.some((p) => p.length > 1000)) return null;
      return { value: shapeFieldValue(field, raw) };
    case 'phone':
      if (
        !Array.isArray(raw) ||
        (raw.length !== 3 && raw.length !== 4 && raw.length !== 0) ||
        !raw.every(isStr) ||
        raw.some((p) => p.length > 40)
      )
        return null;
      return { value: shapeFieldValue(field, raw) };
    case 'checkbox':
      if (!Array.isArray(raw) || !raw.every(isStr) || raw.some((v) => v !== '' && !options.includes(v))) return null;
      return { value: shapeFieldValue(field, raw) };
    case 'radio':
    case 'select':
      if (!isStr(raw) || (raw !== '' && !options.includes(raw))) return null;
      return { value: raw };
    case 'likert': {
      if (typeof raw !== 'object' || Array.isArray(raw)) return null;
      for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
        if (!options.includes(k)) return null;
        if (!isStr(v) || (v !== '' && !/^[1-5]$/.test(v))) return null;
      }
      return { value: shapeFieldValue(field, raw) };
    }
    default:
      if (!isStr(raw) || raw.length > MAX_VALUE) return null;
      return { value: raw };
  }
}

/**
 * The server's validation: shape first (field id -> 'One or more fields is invalid...'), then core's
 * rules (Required, character limit, email). Unknown field ids are ignored; sections are skipped.
 */
export function validateSubmission(
  fields: FormField[],
  values: Record<string, unknown>,
): { errors: Record<string, string>; data: Record<string, FieldValue> } {
  const errors: Record<string, string> = {};
  const data: Record<string, FieldValue> = {};
  for (const f of fields) {
    if (f.type === 'section') continue;
    const shaped = checkShape(f, values[f.id]);
    if (!shaped) {
      errors[f.id] = m.FIELDS_INVALID;
      continue;
    }
    data[f.id] = f.type === 'hidden' && shaped.value === '' && values[f.id] === undefined ? (f.value ?? '') : shaped.value;
  }
  const rules = validateForm(
    fields.filter((f) => !errors[f.id]),
    data,
  );
  Object.assign(errors, rules);
  return { errors, data };
}

// ---- CSV -----------------------------------------------------------------------------------------

/** Column names of the parts of multi-part fields. */
export const PART_LABELS: Record<string, string[]> = {
  name: ['First Name', 'Last Name'],
  address: ['Address Line 1', 'Address Line 2', 'City', 'State/Province', 'Zip/Postal Code', 'Country'],
  date: ['Month', 'Day', 'Year'],
  time: ['Hour', 'Minute', 'Second', 'AM/PM'],
  phone: ['Country Code', 'Area Code', 'Prefix', 'Line'],
};

interface Column {
  title: string;
  get(data: Record<string, unknown>): unknown;
}

function columnsFor(fields: FormField[]): Column[] {
  const cols: Column[] = [];
  for (const f of fields) {
    if (f.type === 'section') continue;
    const title = f.title || f.id;
    const parts = PART_LABELS[f.type];
    if (parts) {
      parts.forEach((p, i) =>
        cols.push({ title: `${title} - ${p}`, get: (d) => (Array.isArray(d[f.id]) ? (d[f.id] as unknown[])[i] : undefined) }),
      );
    } else if (f.type === 'likert') {
      for (const q of f.options ?? []) cols.push({ title: `${title} - ${q}`, get: (d) => ((d[f.id] ?? {}) as Record<string, unknown>)[q] });
    } else cols.push({ title, get: (d) => d[f.id] });
  }
  return cols;
}

/** CSV of submissions: Submitted On, then one column per field (multi-part values expanded), N/A (or the submission language's no-answer text) when unanswered. */
export function submissionsCsv(
  fields: FormField[],
  subs: Array<Pick<SubmissionRow, 'data' | 'createdAt' | 'fields'> & { page?: Record<string, unknown> }>,
): string {
  const all = [...fields];
  const seen = new Set(fields.map((f) => f.id));
  for (const s of subs) {
    for (const f of s.fields as FormField[]) {
      if (seen.has(f.id)) continue;
      seen.add(f.id);
      all.push(f);
    }
  }
  const cols = columnsFor(all);
  const lines: unknown[][] = [['Submitted On', ...cols.map((c) => c.title)]];
  for (const s of subs) {
    const none = noAnswerText(s.page?.language);
    const cells = [s.createdAt.toISOString(), ...cols.map((c) => summaryAnswer(c.get(s.data), none))];
    lines.push(cells);
  }
  return csvText(lines);
}

// ---- The service ---------------------------------------------------------------------------------

export interface SubmitInput {
  formId: string;
  key: string | undefined;
  /** JSON text (API) or an already-parsed map (plain form post). */
  form: string | Record<string, unknown> | undefined;
  captchaKey?: string;
  honeypot?: string;
  page: PageFields;
  visitorCookie?: string;
  ip: string;
  /** A plain form post without JavaScript: no key or captcha can be produced; the caller has checked it with checkNoScriptPost. */
  noScript?: boolean;
  /** The request's origin (links in emails that hooks queue). */
  origin?: string;
}

/** Runs inside the transaction of every kept (not spam) submission; the engagement area joins newsletter sign-ups to its mailing lists. */
export type FormSubmittedHook = (
  tx: Tx,
  s: { database: Database; form: FormRow; data: Record<string, FieldValue>; origin?: string },
) => Promise<void>;
export const formSubmittedHooks: FormSubmittedHook[] = [];

/**
 * Checks of a form's settings that another area owns, run before the owner's form is created or saved;
 * a check throws an HttpError to refuse it (the engagement area checks that a newsletter form's mailing
 * list, `storage.listId`, is one of the site's lists).
 */
export type FormSaveCheck = (s: {
  database: Database;
  websiteId: string;
  form: { kind: string; storage: Record<string, unknown> };
}) => Promise<void>;
export const formSaveChecks: FormSaveCheck[] = [];

export type SubmitResult = { ok: true; submissionId: string; spam: boolean; form: FormRow };

export class FormsService {
  private readonly limiter: RateLimiter;

  constructor(private readonly app: FastifyInstance) {
    this.limiter = new RateLimiter(app.services.rateLimiter.store, () => this.options.now());
  }

  private get database(): Database {
    return this.app.database;
  }
  private get db(): Db {
    return this.app.database.db;
  }
  get options(): FormsOptions {
    return formsOptions(this.database);
  }

  async website(): Promise<{ id: string; settings: Record<string, unknown> }> {
    const r = await rows<{ id: string; settings: Record<string, unknown> }>(
      this.db,
      sql`SELECT id, settings FROM websites ORDER BY created_at LIMIT 1`,
    );
    if (!r[0]) throw new HttpError(500, m.STATUS_500);
    return r[0];
  }

  async getForm(formId: string): Promise<FormRow | null> {
    if (!formId || formId.length > 64) return null;
    const r = await this.db.select().from(schema.forms).where(eq(schema.forms.id, formId)).limit(1);
    return r[0] ?? null;
  }

  async requireForm(formId: string): Promise<FormRow> {
    const f = await this.getForm(formId);
    if (!f || (f.fields as unknown[]).length === 0) throw new HttpError(404, m.STATUS_404);
    return f;
  }

  async rateLimitKeys(ip: string): Promise<void> {
    const o = this.options.keysPerIp;
    await this.limiter.check({ name: 'form-key', ...o, message: m.STATUS_429 }, ip);
  }

  async issueKey(): Promise<string> {
    const key = newToken();
    await this.db
      .insert(schema.formSubmissionKeys)
      .values({ keyHash: hashToken(key), expiresAt: new Date(this.options.now() + this.options.keyTtlMs) });
    if (Math.random() < 0.02)
      void this.db.execute(sql`DELETE FROM form_submission_keys WHERE expires_at < now() - interval '1 day'`).catch(() => undefined);
    return key;
  }

  /** Spends a key inside the caller's transaction; false when unknown, used or expired. */
  private async spendKey(tx: Tx, key: string): Promise<boolean> {
    const r = await rows<{ key_hash: string }>(
      tx,
      sql`UPDATE form_submission_keys SET used_at = ${new Date(this.options.now())}
          WHERE key_hash = ${hashToken(key)} AND used_at IS NULL AND expires_at > ${new Date(this.options.now())} RETURNING key_hash`,
    );
    return r.length === 1;
  }

  private async keyUsable(key: string): Promise<boolean> {
    const r = await rows<{ key_hash: string }>(
      this.db,
      sql`SELECT key_hash FROM form_submission_keys WHERE key_hash = ${hashToken(key)} AND used_at IS NULL AND expires_at > ${new Date(this.options.now())}`,
    );
    return r.length === 1;
  }

  async rateLimitValidation(ip: string): Promise<void> {
    const o = this.options.validatePerIp ?? DEFAULT_FORMS_OPTIONS.validatePerIp!;
    await this.limiter.check({ name: 'form-validate-ip', ...o, message: m.STATUS_429 }, ip);
  }

  async rateLimitSubmission(formId: string, ip: string): Promise<void> {
    const o = this.options;
    await this.limiter.check({ name: 'form-submit-ip', ...o.perIp, message: m.STATUS_429 }, ip);
    await this.limiter.check({ name: 'form-submit-form', ...o.perForm, message: m.STATUS_429 }, formId);
  }

  /** Parses the `form` field: JSON text of an object (API), or a map (plain post). */
  parseValues(form: SubmitInput['form']): Record<string, unknown> {
    if (form && typeof form === 'object' && !Array.isArray(form)) return form;
    if (typeof form !== 'string') throw new HttpError(400, m.PARSE_FIELDS_FAILED);
    let v: unknown;
    try {
      v = JSON.parse(form);
    } catch {
      throw new HttpError(400, m.PARSE_FIELDS_FAILED);
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new HttpError(400, m.PARSE_FIELDS_FAILED);
    return v as Record<string, unknown>;
  }

  /** POST /api/rest/forms/validate/{formId}. */
  async validate(formId: string, values: Record<string, unknown>): Promise<Record<string, string>> {
    const f = await this.requireForm(formId);
    return validateSubmission(f.fields as FormField[], values).errors;
  }

  /**
   * SaveFormSubmission: rate limits (429), form (404), key (401), fields (400 data.errors), captcha
   * (400, kept as spam), honeypot (kept as spam, answered as a success). Stored in one transaction
   * with the key spent and the owner's email queued; the email goes out after the commit.
   */
  async submit(input: SubmitInput): Promise<SubmitResult> {
    await this.rateLimitSubmission(input.formId, input.ip);
    const form = await this.requireForm(input.formId);
    if (!input.noScript) {
      if (!input.key || typeof input.key !== 'string' || input.key.length > 200 || !(await this.keyUsable(input.key)))
        throw new HttpError(401, m.STATUS_401);
    }
    const values = this.parseValues(input.form);
    const fields = form.fields as FormField[];
    const { errors, data } = validateSubmission(fields, values);
    if (Object.keys(errors).length > 0) throw new HttpError(400, m.FIELDS_INVALID, errors);

    let spamReason: string | null = null;
    if (typeof input.honeypot === 'string' && input.honeypot.trim() !== '') spamReason = 'honeypot';
    let captchaFailed = false;
    // A plain post (no JavaScript) cannot carry a captcha token: the route has passed it through the
    // no-script path instead (site-page/no-script-guard.ts: honeypot and a tight rate limit per IP).
    if (!spamReason && form.captcha.enabled !== false && !input.noScript) {
      const site = await this.website();
      const verdict = await captchaFor(this.app, site.settings).verify(input.captchaKey, captchaActionOf(form), input.ip);
      if (!verdict.ok) {
        spamReason = `captcha: ${verdict.reason ?? 'failed'}`;
        captchaFailed = true;
      }
    }

    const id = newId();
    const owner = spamReason ? null : await this.notificationAddress(form);
    // The submission's language is kept only on a multilingual site, and only as one of the site's languages.
    const page: PageFields = { ...input.page };
    delete page.language;
    const asked = formLanguage(input.page.language);
    if (asked) {
      const languages = multilingualOf({ settings: (await this.website()).settings } as Parameters<typeof multilingualOf>[0]).languages;
      const match = languages.find((l) => typeof l?.code === 'string' && l.code.toLowerCase() === asked.toLowerCase());
      if (match) page.language = match.code;
    }
    await this.db.transaction(async (tx) => {
      if (!input.noScript && !(await this.spendKey(tx, input.key!))) throw new HttpError(401, m.STATUS_401);
      await tx.insert(schema.formSubmissions).values({
        id,
        websiteId: form.websiteId,
        formId: form.id,
        data: data as Record<string, unknown>,
        fields,
        page: pageOf(page),
        visitorCookie: typeof input.visitorCookie === 'string' ? input.visitorCookie.slice(0, 200) : null,
        spam: spamReason !== null,
        spamReason,
        searchText: searchTextOf(fields, data),
        createdAt: new Date(this.options.now()),
      });
      if (owner) await this.app.services.mailer.enqueue(tx, notificationMail(form, fields, data, owner, id, page));
      if (!spamReason) for (const hook of formSubmittedHooks) await hook(tx, { database: this.database, form, data, origin: input.origin });
    });
    if (owner) this.app.services.mailer.kick();
    if (captchaFailed) throw new HttpError(400, m.RECAPTCHA_FAILED);
    return { ok: true, submissionId: id, spam: spamReason !== null, form };
  }

  private async notificationAddress(form: FormRow): Promise<string | null> {
    if (form.storage.notify === false) return null;
    // The site-wide switch of /config's owner notifications (platform/owner-notifications.ts).
    if (!ownerNotificationsOf((await this.website()).settings).formSubmission) return null;
    const email = typeof form.storage.email === 'string' && form.storage.email.trim() !== '' ? form.storage.email.trim() : null;
    if (email) return email;
    const r = await rows<{ email: string }>(
      this.db,
      sql`SELECT email FROM accounts WHERE website_id = ${form.websiteId} AND role = 1 ORDER BY created_at LIMIT 1`,
    );
    return r[0]?.email ?? null;
  }

  // ---- Owner side --------------------------------------------------------------------------------

  async listForms(websiteId: string) {
    const list = await this.db.select().from(schema.forms).where(eq(schema.forms.websiteId, websiteId)).orderBy(schema.forms.createdAt);
    const counts = await rows<{ form_id: string; inbox: number; spam: number }>(
      this.db,
      sql`SELECT form_id, count(*) FILTER (WHERE NOT spam)::int AS inbox, count(*) FILTER (WHERE spam)::int AS spam FROM form_submissions WHERE website_id = ${websiteId} GROUP BY form_id`,
    );
    const byId = new Map(counts.map((c) => [c.form_id, c]));
    return list.map((f) => ({ ...f, inboxCount: Number(byId.get(f.id)?.inbox ?? 0), spamCount: Number(byId.get(f.id)?.spam ?? 0) }));
  }

  async submissions(formId: string, opts: { spam: boolean; q?: string; limit: number; offset: number }) {
    const conds = [eq(schema.formSubmissions.formId, formId), eq(schema.formSubmissions.spam, opts.spam)];
    if (opts.q && opts.q.trim() !== '') {
      const needle = `%${opts.q
        .trim()
        .toLowerCase()
        .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      conds.push(sql`${schema.formSubmissions.searchText} LIKE ${needle}`);
    }
    return this.db
      .select()
      .from(schema.formSubmissions)
      .where(and(...conds))
      .orderBy(desc(schema.formSubmissions.createdAt), desc(schema.formSubmissions.id))
      .limit(opts.limit)
      .offset(opts.offset);
  }

  /** Moves a submission out of (or into) the spam folder. Marking 'not spam' sends the owner's email then. */
  async setSpam(formId: string, submissionId: string, spam: boolean): Promise<boolean> {
    const form = await this.getForm(formId);
    if (!form) return false;
    const owner = spam ? null : await this.notificationAddress(form);
    let found = false;
    await this.db.transaction(async (tx) => {
      const r = await tx
        .update(schema.formSubmissions)
        .set({ spam, spamReason: spam ? 'marked by owner' : null })
        .where(
          and(
            eq(schema.formSubmissions.id, submissionId),
            eq(schema.formSubmissions.formId, formId),
            eq(schema.formSubmissions.spam, !spam),
          ),
        )
        .returning();
      found = r.length === 1;
      if (found && owner && r[0]) {
        await this.app.services.mailer.enqueue(
          tx,
          notificationMail(
            form,
            r[0].fields as FormField[],
            r[0].data as Record<string, FieldValue>,
            owner,
            r[0].id,
            r[0].page as PageFields,
          ),
        );
      }
    });
    if (found && owner) this.app.services.mailer.kick();
    return found;
  }

  async csv(formId: string, spam = false): Promise<string> {
    const form = await this.getForm(formId);
    if (!form) throw new HttpError(404, m.STATUS_404);
    const subs = await this.db
      .select()
      .from(schema.formSubmissions)
      .where(and(eq(schema.formSubmissions.formId, formId), eq(schema.formSubmissions.spam, spam)))
      .orderBy(desc(schema.formSubmissions.createdAt), desc(schema.formSubmissions.id));
    return submissionsCsv(form.fields as FormField[], subs);
  }
}

function pageOf(p: PageFields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof p.pageTitle === 'string') out.pageTitle = p.pageTitle.slice(0, 500);
  if (typeof p.pageId === 'string') out.pageId = p.pageId.slice(0, 64);
  if (p.contentSource === 'i' || p.contentSource === 'c') out.contentSource = p.contentSource;
  if (typeof p.pagePath === 'string') out.pagePath = p.pagePath.slice(0, 1000);
  if (typeof p.pagePermissionTypeValue === 'number' || typeof p.pagePermissionTypeValue === 'string')
    out.pagePermissionTypeValue = String(p.pagePermissionTypeValue).slice(0, 20);
  const language = formLanguage(p.language);
  if (language) out.language = language;
  return out;
}

function searchTextOf(fields: FormField[], data: Record<string, FieldValue>): string {
  return fields
    .filter((f) => f.type !== 'section')
    .map((f) => {
      const v = data[f.id];
      return v && typeof v === 'object' && !Array.isArray(v) ? Object.values(v).join(' ') : Array.isArray(v) ? v.join(' ') : (v ?? '');
    })
    .join(' \u0001 ')
    .toLowerCase()
    .slice(0, 50_000);
}

/** The owner's notification: one line per answered field, N/A (or the submission language's no-answer text) when unanswered. */
export function notificationMail(
  form: FormRow,
  fields: FormField[],
  data: Record<string, FieldValue>,
  to: string,
  submissionId: string,
  page: PageFields,
) {
  const none = noAnswerText(page.language);
  const lines = fields
    .filter((f) => f.type !== 'section')
    .map((f) => ({ title: f.title || f.id, answer: summaryAnswer(data[f.id], none) }));
  const where = page.pagePath ? `\n\nSent from ${page.pageTitle ?? ''} (${page.pagePath})` : '';
  return {
    kind: 'form-submission',
    to,
    subject: `Form Submission - ${form.name}`,
    text: `${lines.map((l) => `${l.title}: ${l.answer}`).join('\n')}${where}\n`,
    html: `<table>${lines.map((l) => `<tr><th align="left">${escapeHtml(l.title)}</th><td>${escapeHtml(l.answer)}</td></tr>`).join('')}</table>`,
    ref: `form-submission:${submissionId}`,
  };
}
