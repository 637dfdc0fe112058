import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { PagePermissionType } from '../../../src/core/forms.js';
import { createServer, type Server } from 'node:http';
import { solveChallenge } from 'altcha-lib/v1';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { seedForms, CONTACT_FORM_ID, NEWSLETTER_FORM_ID } from '../../../src/server/forms/seed.js';
import { configureForms, DEFAULT_FORMS_OPTIONS } from '../../../src/server/forms/service.js';
import { configureCaptcha, RECAPTCHA_VERIFY_URL, RECAPTCHA_ENTERPRISE_URL } from '../../../src/server/captcha/index.js';
import { forms as m } from '../../../src/core/messages.js';

const ALL_FIELDS = [
  { id: 'sec', type: 'section', title: 'About you', underline: true },
  { id: 'txt', type: 'text', title: 'Text' },
  { id: 'area', type: 'textarea', title: 'Area', maxLength: 10 },
  { id: 'mail', type: 'email', title: 'Mail', required: true },
  { id: 'num', type: 'number', title: 'Number' },
  { id: 'web', type: 'website', title: 'Website' },
  { id: 'cur', type: 'currency', title: 'Amount', currencySymbol: '€' },
  { id: 'pw', type: 'password', title: 'Password' },
  { id: 'tw', type: 'twitter', title: 'Twitter' },
  { id: 'date', type: 'date', title: 'Date', required: true },
  { id: 'time', type: 'time', title: 'Time' },
  { id: 'name', type: 'name', title: 'Name', required: true },
  { id: 'addr', type: 'address', title: 'Address' },
  { id: 'phone', type: 'phone', title: 'Phone' },
  { id: 'radio', type: 'radio', title: 'Radio', options: ['A', 'B'], required: true },
  { id: 'check', type: 'checkbox', title: 'Check', options: ['X', 'Y', 'Z'], required: true },
  { id: 'sel', type: 'select', title: 'Select', options: ['S1', 'S2'], required: true },
  { id: 'lik', type: 'likert', title: 'Likert', options: ['Fast', 'Friendly'] },
  { id: 'hid', type: 'hidden', key: 'utm', value: 'none' },
];

const GOOD = {
  txt: 'hello',
  area: 'short',
  mail: 'a@example.com',
  num: '3',
  web: 'https://example.com',
  cur: '9.50',
  pw: 'secret',
  tw: '@me',
  date: ['01', '02', '2030'],
  time: ['10', '30', '00', 'AM'],
  name: ['Ada', 'Lovelace'],
  addr: ['1 Road', '', 'Town', 'ST', '12345', 'UK'],
  phone: ['555', '123', '4567'],
  radio: 'B',
  check: ['X', 'Z'],
  sel: 'S2',
  lik: { Fast: '5', Friendly: '4' },
  hid: 'newsletter',
};

/** Solves an altcha challenge the way the browser island does. */
async function altchaToken(v: Visitor, action = 'form-block'): Promise<string> {
  const res = await v.get(`/api/captcha/challenge?action=${action}`);
  expect(res.statusCode).toBe(200);
  const ch = res.json() as { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string };
  const sol = await solveChallenge(ch.challenge, ch.salt, ch.algorithm, ch.maxnumber).promise;
  return Buffer.from(
    JSON.stringify({ algorithm: ch.algorithm, challenge: ch.challenge, number: sol!.number, salt: ch.salt, signature: ch.signature }),
  ).toString('base64');
}

async function key(v: Visitor): Promise<string> {
  const r = await v.send('POST', '/api/form/FormSubmissionKey');
  expect(r.statusCode).toBe(200);
  return (r.json() as { key: string }).key;
}

describe.each(APP_KINDS)('forms on %s', (kind) => {
  let t: TestApp;
  let clock = Date.now();
  let owner: Visitor;
  let standIn: Server;
  let standInUrl = '';
  const vendorCalls: Array<{ url: string; body: string }> = [];
  let vendorAnswer: unknown = {};

  beforeAll(async () => {
    t = await testApp(kind);
    await seedForms(t.database, t.seed.websiteId);
    configureForms(t.app, {
      ...DEFAULT_FORMS_OPTIONS,
      now: () => clock,
      perIp: { max: 1000, windowMs: 60_000 },
      keysPerIp: { max: 100_000, windowMs: 60_000 },
    });
    standIn = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        vendorCalls.push({ url: req.url ?? '', body });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(vendorAnswer));
      });
    });
    await new Promise<void>((r) => standIn.listen(0, '127.0.0.1', () => r()));
    standInUrl = `http://127.0.0.1:${(standIn.address() as { port: number }).port}`;
    // The vendor is outside this machine: its calls go to the stand-in on loopback.
    configureCaptcha(t.app, {
      altchaMaxNumber: 2000,
      http: (url, init) =>
        fetch(
          url.replace(RECAPTCHA_VERIFY_URL, `${standInUrl}/siteverify`).replace(RECAPTCHA_ENTERPRISE_URL, `${standInUrl}/enterprise`),
          init,
        ),
    });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    const created = await owner.send('POST', '/api/config/forms', {
      id: 'all-fields',
      name: 'Every field',
      fields: ALL_FIELDS,
      captcha: { enabled: false },
    });
    expect(created.statusCode).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await new Promise((r) => standIn.close(r));
    await t.close();
  });

  it('GetTemplateSchema gives the form block schema; an unknown type is a 400', async () => {
    const v = new Visitor(t.app);
    const r = await v.get('/api/template/GetTemplateSchema?type=form');
    expect(r.statusCode).toBe(200);
    const s = r.json();
    expect(s.type).toBe('form');
    expect(s.tabs).toEqual({ build: 1, storage: 2, advanced: 3, captcha: 4, disclaimer: 5 });
    expect(s.fieldTypes.hidden).toEqual(['key', 'value']);
    expect((await v.get('/api/template/GetTemplateSchema?type=nope')).statusCode).toBe(400);
  });

  it('validate answers errors keyed by field id, 404 for an unknown form, and needs the crumb', async () => {
    const v = new Visitor(t.app);
    const bad = await v.send('POST', '/api/rest/forms/validate/all-fields', {
      ...GOOD,
      mail: 'nope',
      area: 'x'.repeat(11),
      name: ['', ''],
      check: [],
      radio: '',
      sel: '',
      date: [],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      mail: m.INVALID_EMAIL,
      area: m.CHARACTER_LIMIT,
      name: m.REQUIRED,
      check: m.REQUIRED,
      radio: m.REQUIRED,
      sel: m.REQUIRED,
      date: m.REQUIRED,
    });
    expect((await v.send('POST', '/api/rest/forms/validate/all-fields', GOOD)).json()).toEqual({ valid: true });
    const missing = await v.send('POST', '/api/rest/forms/validate/nope', GOOD);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe(m.STATUS_404);
    expect((await v.send('POST', '/api/rest/forms/validate/all-fields', GOOD, { crumb: false })).statusCode).toBe(403);
  });

  it('stores every field shape (phone with 3 parts gets the empty first part), section skipped, hidden kept', async () => {
    const v = new Visitor(t.app);
    const r = await v.send('POST', '/api/form/SaveFormSubmission', {
      formId: 'all-fields',
      key: await key(v),
      form: JSON.stringify(GOOD),
      pageTitle: 'Contact',
      pageId: 'p1',
      contentSource: 'c',
      pagePath: '/contact',
      pagePermissionTypeValue: 1,
      visitorCookie: 'v|1|2|3|4',
    });
    expect(r.statusCode).toBe(200);
    const id = r.json().submissionId as string;
    const list = await owner.get('/api/config/forms/all-fields/submissions');
    const sub = (list.json().submissions as Array<{ id: string; data: Record<string, unknown>; page: Record<string, unknown> }>).find(
      (s) => s.id === id,
    )!;
    expect(sub.data.phone).toEqual(['', '555', '123', '4567']);
    expect(sub.data.check).toEqual(['X', 'Z']);
    expect(sub.data.lik).toEqual({ Fast: '5', Friendly: '4' });
    expect(sub.data.radio).toBe('B');
    expect(sub.data.hid).toBe('newsletter');
    expect('sec' in sub.data).toBe(false);
    expect(sub.page).toEqual({
      pageTitle: 'Contact',
      pageId: 'p1',
      contentSource: 'c',
      pagePath: '/contact',
      pagePermissionTypeValue: '1',
    });
  });

  it('refuses wrong value shapes with a message per field, and unparseable form text', async () => {
    const v = new Visitor(t.app);
    const wrong = {
      ...GOOD,
      date: '2030-01-02',
      name: 'Ada',
      phone: ['1', '2'],
      check: 'X',
      radio: ['A'],
      sel: 'S9',
      lik: { Slow: '5' },
      txt: 42,
      hid: ['a'],
    };
    const r = await v.send('POST', '/api/form/SaveFormSubmission', {
      formId: 'all-fields',
      key: await key(v),
      form: JSON.stringify(wrong),
    });
    expect(r.statusCode).toBe(400);
    const errors = r.json().errors as Record<string, string>;
    for (const f of ['date', 'name', 'phone', 'check', 'radio', 'sel', 'lik', 'txt', 'hid']) expect(errors[f]).toBe(m.FIELDS_INVALID);
    const k = await key(v);
    const p = await v.send('POST', '/api/form/SaveFormSubmission', { formId: 'all-fields', key: k, form: '{not json' });
    expect(p.statusCode).toBe(400);
    expect(p.json().error).toBe(m.PARSE_FIELDS_FAILED);
    // A refused submission does not spend the key.
    expect(
      (await v.send('POST', '/api/form/SaveFormSubmission', { formId: 'all-fields', key: k, form: JSON.stringify(GOOD) })).statusCode,
    ).toBe(200);
  });

  it('a key works once and expires: replay, unknown and missing keys are 401', async () => {
    const v = new Visitor(t.app);
    const k = await key(v);
    const body = { formId: 'all-fields', key: k, form: JSON.stringify(GOOD) };
    expect((await v.send('POST', '/api/form/SaveFormSubmission', body)).statusCode).toBe(200);
    const replay = await v.send('POST', '/api/form/SaveFormSubmission', body);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe(m.STATUS_401);
    expect((await v.send('POST', '/api/form/SaveFormSubmission', { ...body, key: 'made-up' })).statusCode).toBe(401);
    expect((await v.send('POST', '/api/form/SaveFormSubmission', { formId: 'all-fields', form: JSON.stringify(GOOD) })).statusCode).toBe(
      401,
    );
    const old = await key(v);
    clock += DEFAULT_FORMS_OPTIONS.keyTtlMs + 1000;
    try {
      expect((await v.send('POST', '/api/form/SaveFormSubmission', { ...body, key: old })).statusCode).toBe(401);
    } finally {
      clock -= DEFAULT_FORMS_OPTIONS.keyTtlMs + 1000;
    }
  });

  it('404 for an unknown form, with the spec message', async () => {
    const v = new Visitor(t.app);
    const r = await v.send('POST', '/api/form/SaveFormSubmission', { formId: 'nope', key: await key(v), form: '{}' });
    expect(r.statusCode).toBe(404);
    expect(r.json().error).toBe(m.STATUS_404);
  });

  it("the owner's form-submission notification can be switched off site-wide in Email settings (the submission is still kept)", async () => {
    const v = new Visitor(t.app);
    const form = JSON.stringify({ name: ['Bo', 'K'], email: 'bo@example.com', topic: 'Order', message: 'Quiet please' });
    const switches = (formSubmission: boolean) =>
      owner.send('PUT', '/api/admin/email-settings/notifications', { newOrder: true, formSubmission, lowStock: true });
    expect((await switches(false)).statusCode).toBe(200);
    try {
      const r = await v.send('POST', '/api/form/SaveFormSubmission', {
        formId: CONTACT_FORM_ID,
        key: await key(v),
        form,
        captchaKey: await altchaToken(v),
      });
      expect(r.statusCode).toBe(200);
      const mails = (await t.database.db.execute(
        `SELECT count(*)::int AS n FROM mail_outbox WHERE ref = 'form-submission:${r.json().submissionId}'` as never,
      )) as unknown as { rows: Array<{ n: number }> };
      expect(Number(mails.rows[0]!.n)).toBe(0);
      const inbox = await owner.get(`/api/config/forms/${CONTACT_FORM_ID}/submissions?folder=inbox`);
      expect((inbox.json().submissions as Array<{ id: string }>).map((s) => s.id)).toContain(r.json().submissionId);
    } finally {
      expect((await switches(true)).statusCode).toBe(200);
    }
  });

  it('contact form: altcha token accepted once; a failed captcha is 400 and kept as spam; the owner gets an email', async () => {
    const v = new Visitor(t.app);
    const form = JSON.stringify({
      name: ['Ada', 'L'],
      email: 'ada@example.com',
      topic: 'Order',
      message: 'Where is my order?',
      source: 'ad',
    });
    const token = await altchaToken(v);
    const ok = await v.send('POST', '/api/form/SaveFormSubmission', {
      formId: CONTACT_FORM_ID,
      key: await key(v),
      form,
      captchaKey: token,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().submissionMessage).toBe('Thank you! We will get back to you soon.');
    const mail = await t.database.db.execute(
      `SELECT to_address, subject, text_body, status FROM mail_outbox WHERE ref = 'form-submission:${ok.json().submissionId}'` as never,
    );
    const rowsOf = (x: unknown) => (x as { rows: Array<Record<string, string>> }).rows;
    expect(rowsOf(mail)).toHaveLength(1);
    expect(rowsOf(mail)[0]).toMatchObject({ to_address: OWNER.email, subject: 'Form Submission - Contact us', status: 'local' });
    expect(rowsOf(mail)[0]!.text_body).toContain('Message: Where is my order?');

    for (const bad of [token, 'garbage', undefined]) {
      const r = await v.send('POST', '/api/form/SaveFormSubmission', { formId: CONTACT_FORM_ID, key: await key(v), form, captchaKey: bad });
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe(m.RECAPTCHA_FAILED);
    }
    const spam = await owner.get(`/api/config/forms/${CONTACT_FORM_ID}/submissions?folder=spam`);
    const reasons = (spam.json().submissions as Array<{ spamReason: string }>).map((s) => s.spamReason);
    expect(reasons).toEqual(expect.arrayContaining(['captcha: replayed', 'captcha: invalid', 'captcha: missing']));
    // A newsletter token is not valid for a form block.
    const nl = await altchaToken(v, 'newsletter-block');
    const wrongAction = await v.send('POST', '/api/form/SaveFormSubmission', {
      formId: CONTACT_FORM_ID,
      key: await key(v),
      form,
      captchaKey: nl,
    });
    expect(wrongAction.statusCode).toBe(400);
    const nlOk = await v.send('POST', '/api/form/SaveFormSubmission', {
      formId: NEWSLETTER_FORM_ID,
      key: await key(v),
      form: JSON.stringify({ email: 'n@example.com' }),
      captchaKey: await altchaToken(v, 'newsletter-block'),
    });
    expect(nlOk.statusCode).toBe(200);
  });

  it('the honeypot keeps the submission in the spam folder, answers success, and sends no email', async () => {
    const v = new Visitor(t.app);
    const r = await v.send('POST', '/api/form/SaveFormSubmission', {
      formId: 'all-fields',
      key: await key(v),
      form: JSON.stringify({ ...GOOD, txt: 'bot-was-here' }),
      honeypot: 'http://spam.example',
    });
    expect(r.statusCode).toBe(200);
    const id = r.json().submissionId;
    const spam = await owner.get('/api/config/forms/all-fields/submissions?folder=spam');
    expect((spam.json().submissions as Array<{ id: string; spamReason: string }>).find((s) => s.id === id)?.spamReason).toBe('honeypot');
    const mails = (await t.database.db.execute(
      `SELECT count(*)::int AS n FROM mail_outbox WHERE ref = 'form-submission:${id}'` as never,
    )) as unknown as { rows: Array<{ n: number }> };
    expect(mails.rows[0]!.n).toBe(0);
    // 'not spam' moves it to the inbox and sends the email then.
    expect((await owner.send('POST', `/api/config/forms/all-fields/submissions/${id}/not-spam`)).statusCode).toBe(200);
    const inbox = await owner.get('/api/config/forms/all-fields/submissions?q=bot-was-here');
    expect((inbox.json().submissions as Array<{ id: string }>).map((s) => s.id)).toEqual([id]);
    const after = (await t.database.db.execute(
      `SELECT count(*)::int AS n FROM mail_outbox WHERE ref = 'form-submission:${id}'` as never,
    )) as unknown as { rows: Array<{ n: number }> };
    expect(after.rows[0]!.n).toBe(1);
    expect((await owner.send('POST', `/api/config/forms/all-fields/submissions/${id}/not-spam`)).statusCode).toBe(404);
  });

  it('rate limits: 429 per IP after the limit, accepted again after the window; per form too', async () => {
    configureForms(t.app, { perIp: { max: 3, windowMs: 60_000 } });
    clock = Math.ceil(clock / 60_000) * 60_000 + 120_000;
    try {
      const v = new Visitor(t.app);
      const send = async () =>
        v.send(
          'POST',
          '/api/form/SaveFormSubmission',
          { formId: 'all-fields', key: await key(v), form: JSON.stringify(GOOD) },
          { headers: { 'x-forwarded-for': '10.0.0.1' } },
        );
      for (let i = 0; i < 3; i++) expect((await send()).statusCode).toBe(200);
      const limited = await send();
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toBe(m.STATUS_429);
      clock += 60_000;
      expect((await send()).statusCode).toBe(200);
      configureForms(t.app, { perIp: { max: 1000, windowMs: 60_000 }, perForm: { max: 2, windowMs: 3_600_000 } });
      clock += 3_600_000;
      expect((await send()).statusCode).toBe(200);
      expect((await send()).statusCode).toBe(200);
      expect((await send()).statusCode).toBe(429);
    } finally {
      configureForms(t.app, { perIp: { max: 1000, windowMs: 60_000 }, perForm: DEFAULT_FORMS_OPTIONS.perForm });
      clock += 3_600_000;
    }
  });

  it('reCAPTCHA v3 and Enterprise: verified through the vendor client, action and score checked', async () => {
    const v = new Visitor(t.app);
    const form = JSON.stringify({ name: ['Ada', 'L'], email: 'ada@example.com', message: 'hi' });
    const put = await owner.send('PUT', '/api/config/captcha', {
      kind: 'recaptcha-v3',
      siteKey: 'site-k',
      secretKey: 'secret-k',
      minScore: 0.5,
    });
    expect(put.statusCode).toBe(200);
    t.app.services.websites.invalidate();
    const cfg = await owner.get('/api/config/captcha');
    expect(cfg.json().captcha).toMatchObject({ kind: 'recaptcha-v3', siteKey: 'site-k', hasSecretKey: true });
    expect(JSON.stringify(cfg.json())).not.toContain('secret-k');
    // No proof-of-work challenge while reCAPTCHA is on.
    expect((await v.get('/api/captcha/challenge?action=form-block')).statusCode).toBe(404);

    vendorAnswer = { success: true, score: 0.9, action: 'form_block' };
    const ok = await v.send(
      'POST',
      '/api/form/SaveFormSubmission',
      { formId: CONTACT_FORM_ID, key: await key(v), form, captchaKey: 'tok-1' },
      { headers: { 'x-forwarded-for': '10.9.9.9' } },
    );
    expect(ok.statusCode).toBe(200);
    const call = vendorCalls.at(-1)!;
    expect(call.url).toBe('/siteverify');
    expect(new URLSearchParams(call.body).get('secret')).toBe('secret-k');
    expect(new URLSearchParams(call.body).get('response')).toBe('tok-1');

    vendorAnswer = { success: true, score: 0.1, action: 'form_block' };
    expect(
      (await v.send('POST', '/api/form/SaveFormSubmission', { formId: CONTACT_FORM_ID, key: await key(v), form, captchaKey: 'tok-2' }))
        .statusCode,
    ).toBe(400);
    vendorAnswer = { success: true, score: 0.9, action: 'promo_popup' };
    expect(
      (await v.send('POST', '/api/form/SaveFormSubmission', { formId: CONTACT_FORM_ID, key: await key(v), form, captchaKey: 'tok-3' }))
        .statusCode,
    ).toBe(400);

    await owner.send('PUT', '/api/config/captcha', {
      kind: 'recaptcha-enterprise',
      siteKey: 'ent-site',
      projectId: 'proj',
      apiKey: 'api-k',
    });
    vendorAnswer = { tokenProperties: { valid: true, action: 'form_block' }, riskAnalysis: { score: 0.8 } };
    const ent = await v.send('POST', '/api/form/SaveFormSubmission', {
      formId: CONTACT_FORM_ID,
      key: await key(v),
      form,
      captchaKey: 'ent-tok',
    });
    expect(ent.statusCode).toBe(200);
    expect(vendorCalls.at(-1)!.url).toBe('/enterprise/proj/assessments?key=api-k');
    expect(JSON.parse(vendorCalls.at(-1)!.body).event).toMatchObject({
      token: 'ent-tok',
      siteKey: 'ent-site',
      expectedAction: 'form_block',
    });
    vendorAnswer = { tokenProperties: { valid: false, invalidReason: 'EXPIRED' } };
    const bad = await v.send('POST', '/api/form/SaveFormSubmission', {
      formId: CONTACT_FORM_ID,
      key: await key(v),
      form,
      captchaKey: 'ent-tok',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(m.RECAPTCHA_FAILED);
    await owner.send('PUT', '/api/config/captcha', { kind: 'altcha' });
  });

  it('a plain form post (no JavaScript) answers a server-rendered success or error page', async () => {
    const v = new Visitor(t.app);
    const crumb = await v.crumb();
    const post = (fields: Record<string, string>) =>
      v.send('POST', `/api/form/submit/${CONTACT_FORM_ID}`, new URLSearchParams({ crumb, pagePath: '/contact', ...fields }).toString(), {
        crumb: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const bad = await post({ 'f.name.0': 'Ada', 'f.name.1': '', 'f.email': 'nope', 'f.message': '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('text/html');
    expect(bad.body).toContain(m.PROBLEM_ABOVE);
    expect(bad.body).toContain(m.INVALID_EMAIL);
    expect(bad.body).toContain(`<strong>Message</strong>: ${m.REQUIRED}`);
    const ok = await post({
      'f.name.0': 'Ada',
      'f.name.1': 'L',
      'f.email': 'ada@example.com',
      'f.message': 'No script here',
      'f.topic': 'Order',
    });
    // POST/redirect/GET: the thanks page is a GET of its own.
    expect(ok.statusCode).toBe(303);
    const thanks = await v.get(String(ok.headers.location));
    expect(thanks.statusCode).toBe(200);
    expect(thanks.body).toContain('Thank you! We will get back to you soon.');
    expect(thanks.body).toContain('href="/contact"');
    // Without the crumb the post is refused.
    const nocrumb = await v.send('POST', `/api/form/submit/${CONTACT_FORM_ID}`, 'f.email=a%40b.co', {
      crumb: false,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(nocrumb.statusCode).toBe(403);
  });

  it('a form page carries its page fields (pageId, contentSource, pagePermissionTypeValue) into the island and the stored submission', async () => {
    const v = new Visitor(t.app);
    const page = await v.get('/contact');
    expect(page.statusCode).toBe(200);
    const contactId = t.seed.collectionIds.contact!;
    const hidden = (name: string) => new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(page.body)?.[1];
    expect(hidden('pageId')).toBe(contactId);
    expect(hidden('contentSource')).toBe('c');
    expect(hidden('pagePermissionTypeValue')).toBe(String(PagePermissionType.PUBLIC));
    const crumb = await v.crumb();
    const fields = {
      crumb,
      pagePath: hidden('pagePath') ?? '',
      pageTitle: 'Contact',
      pageId: hidden('pageId')!,
      contentSource: hidden('contentSource')!,
      pagePermissionTypeValue: hidden('pagePermissionTypeValue')!,
    };
    const ok = await v.send(
      'POST',
      `/api/form/submit/${CONTACT_FORM_ID}`,
      new URLSearchParams({
        ...fields,
        'f.name.0': 'Page',
        'f.name.1': 'Fields',
        'f.email': 'page-fields@example.com',
        'f.message': 'Which page?',
        'f.topic': 'Order',
      }).toString(),
      {
        crumb: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
    );
    expect(ok.statusCode).toBe(303);
    const list = await owner.get(`/api/config/forms/${CONTACT_FORM_ID}/submissions`);
    const sub = (list.json().submissions as Array<{ data: Record<string, unknown>; page: Record<string, unknown> }>).find((x) =>
      JSON.stringify(x.data).includes('page-fields@example.com'),
    )!;
    expect(sub.page).toMatchObject({ pageId: contactId, contentSource: 'c', pagePermissionTypeValue: String(PagePermissionType.PUBLIC) });
  });

  it('owner: inbox newest first, search, CSV with one column per part and N/A; visitors are refused', async () => {
    const v = new Visitor(t.app);
    expect((await v.get('/api/config/forms')).statusCode).toBe(401);
    expect((await v.get('/api/config/forms/all-fields/export.csv')).statusCode).toBe(401);
    const list = await owner.get('/api/config/forms');
    const forms = list.json().forms as Array<{ id: string; inboxCount: number }>;
    expect(forms.map((f) => f.id)).toEqual(expect.arrayContaining([CONTACT_FORM_ID, NEWSLETTER_FORM_ID, 'all-fields']));
    clock += 1000;
    const r = await v.send('POST', '/api/form/SaveFormSubmission', {
      formId: 'all-fields',
      key: await key(v),
      form: JSON.stringify({ mail: 'last@example.com', date: ['1', '2', '2031'], name: ['Zed', ''], radio: 'A', check: ['Y'], sel: 'S1' }),
    });
    expect(r.statusCode).toBe(200);
    const inbox = (await owner.get('/api/config/forms/all-fields/submissions')).json().submissions as Array<{
      id: string;
      createdAt: string;
    }>;
    expect(inbox[0]!.id).toBe(r.json().submissionId);
    const times = inbox.map((s) => s.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(((await owner.get('/api/config/forms/all-fields/submissions?q=LAST@example')).json().submissions as unknown[]).length).toBe(1);

    const csv = await owner.get('/api/config/forms/all-fields/export.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const head = lines[0]!.split(',');
    expect(head[0]).toBe('Submitted On');
    expect(head).toEqual(
      expect.arrayContaining([
        'Name - First Name',
        'Name - Last Name',
        'Date - Month',
        'Phone - Country Code',
        'Address - Country',
        'Likert - Fast',
        'Check',
        'hid',
      ]),
    );
    expect(head).not.toContain('About you');
    const newest = lines[1]!.split(',');
    const col = (t: string) => newest[head.indexOf(t)];
    expect(col('Mail')).toBe('last@example.com');
    expect(col('Name - First Name')).toBe('Zed');
    expect(col('Name - Last Name')).toBe('N/A');
    expect(col('Text')).toBe('N/A');
    expect(col('Likert - Fast')).toBe('N/A');
    expect(col('hid')).toBe('none');
  });

  it('form builder: invalid input is a clear 400, duplicates refused, update bumps the version', async () => {
    const bad = await owner.send('POST', '/api/config/forms', { name: '', fields: [] });
    expect(bad.statusCode).toBe(400);
    const dup = await owner.send('POST', '/api/config/forms', {
      name: 'Dup',
      fields: [
        { id: 'a', type: 'text' },
        { id: 'a', type: 'email' },
      ],
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().error).toBe('Two fields share the id a.');
    const badType = await owner.send('POST', '/api/config/forms', { name: 'T', fields: [{ id: 'a', type: 'rocket' }] });
    expect(badType.statusCode).toBe(400);
    const c = await owner.send('POST', '/api/config/forms', {
      name: 'Tmp',
      fields: [{ id: 'a', type: 'text', title: 'A' }],
      successRedirect: '/thanks',
    });
    expect(c.statusCode).toBe(200);
    const id = c.json().form.id as string;
    const u = await owner.send('PUT', `/api/config/forms/${id}`, {
      name: 'Tmp 2',
      fields: [{ id: 'a', type: 'textarea', title: 'A', maxLength: 20 }],
      submitButtonText: 'Go',
      disclaimer: 'Fine print',
    });
    expect(u.statusCode).toBe(200);
    expect(u.json().form).toMatchObject({ name: 'Tmp 2', version: 2, submitButtonText: 'Go', disclaimer: 'Fine print' });
    expect(
      (await owner.send('POST', '/api/config/forms', { name: 'X', fields: [], successRedirect: 'javascript:alert(1)' })).statusCode,
    ).toBe(400);
    expect((await owner.send('DELETE', `/api/config/forms/${id}`)).statusCode).toBe(200);
    expect((await owner.get(`/api/config/forms/${id}`)).statusCode).toBe(404);
  });
});
