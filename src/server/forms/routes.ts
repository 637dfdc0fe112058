/**
 * The public form calls (schema, validate, submission key, save), the plain (no-JavaScript) form post, and the owner's
 * form builder and inbox under /api/config/forms.
 */
import { keepSecret, maskSecret } from '../../core/preview.js';
import { checkNoScriptPost } from '../site-page/index.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { and, eq } from 'drizzle-orm';
import { schema } from '../../db/index.js';
import { newId } from '../../db/ids.js';
import { HttpError, badRequest } from '../errors.js';
import { forms as m } from '../../core/messages.js';
import { formListId, type FormField, type PageFields } from '../../core/forms.js';
import { FormsService, formSaveChecks, publicForm } from './service.js';
import { formSchema } from './template-schema.js';
import { renderFormPage, renderResultPage } from './render.js';
import { CAPTCHA_KINDS, captchaSettingsOf } from '../captcha/index.js';
import { cleanOwnerHtml } from '../content/index.js';
import { can } from '../../core/roles.js';
import { formIn, formSubmissionIn } from '../../core/api/forms.js';

const str = (max: number) => z.string().max(max);
const saveBody = formSubmissionIn;
const formBody = formIn;

/** The body's settings as stored: a blank mailing list is the default list (null). */
/** The saved shape of a form: the list id normalised, the post-submission HTML cleaned (owner HTML). */
function normalized<T extends { storage: { listId?: string | null }; postSubmissionHtml: string }>(b: T): T {
  const clean = { ...b, postSubmissionHtml: cleanOwnerHtml(b.postSubmissionHtml) };
  if (clean.storage.listId === undefined) return clean;
  return { ...clean, storage: { ...clean.storage, listId: formListId(clean.storage) } };
}

function uniqueIds(fields: FormField[]): void {
  const seen = new Set<string>();
  for (const f of fields) {
    if (seen.has(f.id)) throw badRequest(`Two fields share the id ${f.id}.`, { fields: `Two fields share the id ${f.id}.` });
    seen.add(f.id);
  }
}

/** Values of a plain form post: f.<id> (text, radio, select, hidden), f.<id> repeated (checkbox), f.<id>.<n> (parts, likert). */
export function valuesFromPlainPost(fields: FormField[], body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const one = (v: unknown) => (Array.isArray(v) ? String(v[0] ?? '') : v === undefined ? undefined : String(v));
  for (const f of fields) {
    const k = `f.${f.id}`;
    switch (f.type) {
      case 'section':
        break;
      case 'address':
      case 'name':
      case 'date':
      case 'time':
      case 'phone': {
        const parts: string[] = [];
        for (let i = 0; i < 8 && body[`${k}.${i}`] !== undefined; i++) parts.push(one(body[`${k}.${i}`]) ?? '');
        if (parts.length) out[f.id] = parts;
        break;
      }
      case 'checkbox': {
        const v = body[k];
        out[f.id] = v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)];
        break;
      }
      case 'likert': {
        const map: Record<string, string> = {};
        (f.options ?? []).forEach((q, i) => {
          const v = one(body[`${k}.${i}`]);
          if (v) map[q] = v;
        });
        out[f.id] = map;
        break;
      }
      default: {
        const v = one(body[k]);
        if (v !== undefined) out[f.id] = v;
      }
    }
  }
  return out;
}

export async function formRoutes(app: FastifyInstance) {
  const ctx = formRoutesCtx(app);
  await visitorFormRoutes(app, ctx);
  await ownerFormRoutes(app, ctx);
  await captchaRoutes(app, ctx);
}

type FormRoutesCtx = ReturnType<typeof formRoutesCtx>;

/** What the calls of formRoutes share. */
function formRoutesCtx(app: FastifyInstance) {
  const service = new FormsService(app);

  const owner = { preHandler: app.requireOwner(can('forms', 'write')) };
  const reader = { preHandler: app.requireOwner(can('forms', 'read')) };
  const formSettings = { preHandler: app.requireOwner(can('form-settings', 'write')) };
  const siteId = async () => (await service.website()).id;
  return { service, owner, reader, formSettings, siteId };
}

async function visitorFormRoutes(app: FastifyInstance, ctx: FormRoutesCtx) {
  const { service } = ctx;
  // ---- Visitor calls ---------------------------------------------------------------------------

  app.get('/api/template/GetTemplateSchema', async (req) => {
    const type = String((req.query as Record<string, unknown>).type ?? '');
    const s = formSchema(type);
    if (!s) throw badRequest(`Unknown template type ${type.slice(0, 40)}.`);
    return s;
  });

  app.post<{ Params: { formId: string } }>('/api/rest/forms/validate/:formId', async (req) => {
    await service.rateLimitValidation(req.ip);
    const body = req.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, m.PARSE_FIELDS_FAILED);
    const values =
      'form' in (body as object) && typeof (body as { form: unknown }).form === 'string'
        ? service.parseValues((body as { form: string }).form)
        : (body as Record<string, unknown>);
    const errors = await service.validate(req.params.formId, values);
    if (Object.keys(errors).length) throw new HttpError(400, m.FIELDS_INVALID, errors);
    return { valid: true };
  });

  app.post('/api/form/FormSubmissionKey', async (req) => {
    await service.rateLimitKeys(req.ip);
    return { key: await service.issueKey() };
  });

  app.post('/api/form/SaveFormSubmission', { bodyLimit: 256 * 1024 }, async (req) => {
    const b = saveBody.parse(req.body ?? {});
    const formId = b.formId ?? String((req.query as Record<string, unknown>).formId ?? '');
    const form =
      typeof b.form === 'string' || (b.form && typeof b.form === 'object') ? (b.form as string | Record<string, unknown>) : undefined;
    const res = await service.submit({
      formId,
      key: b.key,
      form,
      captchaKey: b.captchaKey,
      honeypot: b.honeypot,
      visitorCookie: b.visitorCookie,
      page: pick(b),
      ip: req.ip,
      origin: await app.emailOrigin(),
    });
    const f = publicForm(res.form);
    return {
      success: true,
      submissionId: res.submissionId,
      submissionMessage: f.submissionMessage,
      successRedirect: f.successRedirect || undefined,
    };
  });

  /** The plain form post (no JavaScript): answers a server-rendered success or error page. */
  app.post<{ Params: { formId: string } }>('/api/form/submit/:formId', { bodyLimit: 256 * 1024 }, async (req, reply) => {
    const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
    const one = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined);
    const back = safeBack(one(body.pagePath));
    try {
      const form = await service.requireForm(req.params.formId);
      await checkNoScriptPost(app, req, body.honeypot);
      const values = valuesFromPlainPost(form.fields as FormField[], body);
      const page: PageFields = { pageTitle: one(body.pageTitle), pageId: one(body.pageId), pagePath: back };
      const cs = one(body.contentSource);
      if (cs === 'i' || cs === 'c') page.contentSource = cs;
      const perm = one(body.pagePermissionTypeValue);
      if (perm !== undefined) page.pagePermissionTypeValue = perm;
      const res = await service.submit({
        formId: form.id,
        key: undefined,
        form: values,
        honeypot: one(body.honeypot),
        page,
        ip: req.ip,
        noScript: true,
        origin: await app.emailOrigin(),
      });
      const f = publicForm(res.form);
      if (f.successRedirect) return reply.redirect(f.successRedirect, 303);
      // POST/redirect/GET: the thanks page is a GET of its own, so reloading it sends nothing again.
      return reply.redirect(`${sentPath(form.id)}?back=${encodeURIComponent(back)}`, 303);
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      const status = e.status;
      const message = status === 400 && e.errors ? m.PROBLEM_ABOVE : e.message;
      const form = await service.getForm(req.params.formId);
      const errors = e.errors
        ? Object.entries(e.errors).map(([id, msg]) => ({
            field: (form?.fields as FormField[] | undefined)?.find((x) => x.id === id)?.title ?? id,
            message: msg,
          }))
        : [];
      return renderResultPage(app, reply, { status, ok: false, title: form?.name ?? 'Form', message, errors, back });
    }
  });

  app.get<{ Params: { formId: string } }>('/forms/:formId', async (req, reply) => renderFormPage(app, req, reply, req.params.formId));
  /** Where a plain form post that went through lands (POST/redirect/GET): the form's submission message. */
  app.get<{ Params: { formId: string } }>('/forms/:formId/sent', async (req, reply) => {
    const form = await service.getForm(req.params.formId);
    if (!form) return reply.callNotFound();
    const f = publicForm(form);
    const back = safeBack(
      typeof (req.query as Record<string, unknown>).back === 'string' ? String((req.query as Record<string, unknown>).back) : undefined,
    );
    return renderResultPage(app, reply, { status: 200, ok: true, title: f.name, message: f.submissionMessage, back });
  });
}

async function ownerFormRoutes(app: FastifyInstance, ctx: FormRoutesCtx) {
  const { service, owner, reader, formSettings, siteId } = ctx;
  // ---- Owner calls -----------------------------------------------------------------------------

  app.get('/api/config/forms', reader, async () => ({ forms: await service.listForms(await siteId()) }));

  app.get<{ Params: { id: string } }>('/api/config/forms/:id', reader, async (req) => {
    const f = await service.getForm(req.params.id);
    if (!f) throw new HttpError(404, m.STATUS_404);
    return { form: f };
  });

  /** Other areas' checks of the settings they own (the newsletter's mailing list). */
  const checkSettings = async (websiteId: string, b: z.infer<typeof formBody>) => {
    for (const check of formSaveChecks) await check({ database: app.database, websiteId, form: { kind: b.kind, storage: b.storage } });
  };

  app.post('/api/config/forms', owner, async (req) => {
    const b = normalized(formBody.parse(req.body));
    uniqueIds(b.fields as FormField[]);
    const websiteId = await siteId();
    await checkSettings(websiteId, b);
    const id = b.id ?? newId();
    const r = await app.database.db
      .insert(schema.forms)
      .values({ ...b, id, websiteId })
      .onConflictDoNothing()
      .returning();
    if (!r[0]) throw new HttpError(409, `A form with the id ${id} already exists.`);
    return { form: r[0] };
  });

  app.put<{ Params: { id: string } }>('/api/config/forms/:id', owner, async (req) => {
    const b = normalized(formBody.parse(req.body));
    uniqueIds(b.fields as FormField[]);
    const websiteId = await siteId();
    await checkSettings(websiteId, b);
    const { id: _ignored, ...rest } = b;
    void _ignored;
    const r = await app.database.db.transaction(async (tx) => {
      const cur = await tx
        .select()
        .from(schema.forms)
        .where(and(eq(schema.forms.id, req.params.id), eq(schema.forms.websiteId, websiteId)))
        .for('update');
      if (!cur[0]) throw new HttpError(404, m.STATUS_404);
      return tx
        .update(schema.forms)
        .set({ ...rest, version: cur[0].version + 1, updatedAt: new Date() })
        .where(eq(schema.forms.id, req.params.id))
        .returning();
    });
    return { form: r[0] };
  });

  app.delete<{ Params: { id: string } }>('/api/config/forms/:id', formSettings, async (req) => {
    const r = await app.database.db.delete(schema.forms).where(eq(schema.forms.id, req.params.id)).returning({ id: schema.forms.id });
    if (!r[0]) throw new HttpError(404, m.STATUS_404);
    return { deleted: true };
  });

  const listQuery = z.object({
    folder: z.enum(['inbox', 'spam']).default('inbox'),
    q: z.string().max(200).optional(),
    page: z.coerce.number().int().min(1).max(100_000).default(1),
  });
  app.get<{ Params: { id: string } }>('/api/config/forms/:id/submissions', reader, async (req) => {
    const q = listQuery.parse(req.query);
    const f = await service.getForm(req.params.id);
    if (!f) throw new HttpError(404, m.STATUS_404);
    const size = 50;
    const list = await service.submissions(f.id, { spam: q.folder === 'spam', q: q.q, limit: size + 1, offset: (q.page - 1) * size });
    return {
      form: publicForm(f),
      submissions: list.slice(0, size).map((s) => ({
        id: s.id,
        data: s.data,
        fields: s.fields,
        page: s.page,
        spam: s.spam,
        spamReason: s.spamReason,
        createdAt: s.createdAt.toISOString(),
      })),
      hasNextPage: list.length > size,
    };
  });

  app.post<{ Params: { id: string; sid: string } }>('/api/config/forms/:id/submissions/:sid/not-spam', owner, async (req) => {
    if (!(await service.setSpam(req.params.id, req.params.sid, false)))
      throw new HttpError(404, 'That submission is not in the spam folder.');
    return { ok: true };
  });
  app.post<{ Params: { id: string; sid: string } }>('/api/config/forms/:id/submissions/:sid/spam', owner, async (req) => {
    if (!(await service.setSpam(req.params.id, req.params.sid, true))) throw new HttpError(404, 'That submission is not in the inbox.');
    return { ok: true };
  });

  app.get<{ Params: { id: string } }>('/api/config/forms/:id/export.csv', reader, async (req, reply) => {
    const folder = (req.query as Record<string, unknown>).folder === 'spam';
    const f = await service.getForm(req.params.id);
    if (!f) throw new HttpError(404, m.STATUS_404);
    const csv = await service.csv(f.id, folder);
    const name =
      f.name
        .replace(/[^A-Za-z0-9 _-]/g, '')
        .trim()
        .replace(/\s+/g, '-') || 'form';
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}-submissions.csv"`)
      .header('cache-control', 'no-store')
      .send('\uFEFF' + csv);
  });
}

async function captchaRoutes(app: FastifyInstance, ctx: FormRoutesCtx) {
  const { service, reader, formSettings } = ctx;
  // Captcha settings (site-wide): secrets are write-only.
  const captchaBody = z.object({
    kind: z.enum(CAPTCHA_KINDS as unknown as [string, ...string[]]),
    siteKey: str(200).optional(),
    secretKey: str(200).optional(),
    projectId: str(200).optional(),
    apiKey: str(200).optional(),
    minScore: z.number().min(0).max(1).optional(),
    theme: z.enum(['light', 'dark']).optional(),
    /** The checkbox's size (reCAPTCHA v2); it is compact anyway in a container narrower than 320 px. */
    size: z.enum(['normal', 'compact']).optional(),
  });
  app.get('/api/config/captcha', reader, async () => {
    const s = captchaSettingsOf((await service.website()).settings);
    return {
      captcha: {
        kind: s.kind ?? 'altcha',
        siteKey: s.siteKey ?? '',
        projectId: s.projectId ?? '',
        minScore: s.minScore ?? 0.5,
        theme: s.theme ?? 'light',
        size: s.size === 'compact' ? 'compact' : 'normal',
        hasSecretKey: Boolean(s.secretKey),
        hasApiKey: Boolean(s.apiKey),
        secretKey: maskSecret(s.secretKey),
        apiKey: maskSecret(s.apiKey),
      },
    };
  });
  app.put('/api/config/captcha', formSettings, async (req) => {
    const b = captchaBody.parse(req.body);
    const site = await service.website();
    const cur = captchaSettingsOf(site.settings);
    const next = { ...cur, ...b, secretKey: keepSecret(b.secretKey, cur.secretKey), apiKey: keepSecret(b.apiKey, cur.apiKey) };
    await app.services.websites.updateSettings(site.id, { captcha: next });
    return { ok: true };
  });
}

function pick(b: z.infer<typeof saveBody>): PageFields {
  const p: PageFields = {};
  if (b.pageTitle !== undefined) p.pageTitle = b.pageTitle;
  if (b.pageId !== undefined) p.pageId = b.pageId;
  if (b.contentSource !== undefined) p.contentSource = b.contentSource;
  if (b.pagePath !== undefined) p.pagePath = b.pagePath;
  if (b.pagePermissionTypeValue !== undefined) p.pagePermissionTypeValue = b.pagePermissionTypeValue;
  if (b.language !== undefined) p.language = b.language;
  return p;
}

/** Only a same-site path can be the 'back' link of the result page. */
/** The thanks page of a form's plain post. */
export function sentPath(formId: string): string {
  return `/forms/${encodeURIComponent(formId)}/sent`;
}

function safeBack(p: string | undefined): string {
  return p && /^\/(?!\/)[^\s\\]*$/.test(p) && p.length < 1000 ? p : '/';
}
