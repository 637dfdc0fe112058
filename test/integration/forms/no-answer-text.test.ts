/**
 * Form summaries on multilingual sites ('N/A' unless a localized no-answer text
 * exists), on both databases: a submission sent in one of the site's languages keeps that language, and
 * the owner's notification email, the inbox answer and the CSV export show that language's no-answer text
 * for a question left empty; English, a language the site does not offer, or a site with one language keep 'N/A'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';

const FIELDS = [
  { id: 'name', type: 'text', title: 'Name', required: true },
  { id: 'notes', type: 'textarea', title: 'Notes', required: false },
];

describe.each(APP_KINDS)('localized no-answer text on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    const made = await owner.send('POST', '/api/config/forms', { id: 'rsvp', name: 'RSVP', fields: FIELDS, captcha: { enabled: false } });
    expect(made.statusCode, made.body).toBeLessThan(300);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function submit(name: string, language?: string): Promise<string> {
    const v = new Visitor(t.app);
    const key = (await v.send('POST', '/api/form/FormSubmissionKey')).json().key;
    const r = await v.send('POST', '/api/form/SaveFormSubmission', {
      formId: 'rsvp',
      key,
      form: JSON.stringify({ name, notes: '' }),
      pageTitle: 'RSVP',
      pagePath: '/rsvp',
      ...(language ? { language } : {}),
    });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().submissionId;
  }
  async function mailText(id: string): Promise<string> {
    const res = (await t.database.db.execute(
      `SELECT text_body FROM mail_outbox WHERE ref = 'form-submission:${id}'` as never,
    )) as unknown as { rows: Array<{ text_body: string }> };
    expect(res.rows).toHaveLength(1);
    return res.rows[0]!.text_body;
  }

  it('shows the submission language’s no-answer text in the email, the inbox and the CSV', async () => {
    // One language only: a language sent with the submission is not kept, and the summary says N/A.
    const single = await submit('Ana', 'fr');
    expect(await mailText(single)).toContain('Notes: N/A');

    const langs = await owner.send('PUT', '/api/multilingual/languages', {
      languages: [
        { code: 'en-US', customCoded: false },
        { code: 'fr', customCoded: false },
        { code: 'de-DE', customCoded: false },
      ],
    });
    expect(langs.statusCode, langs.body).toBe(200);
    const fr = await submit('Béatrice', 'fr');
    const de = await submit('Dieter', 'de-de');
    const en = await submit('Edna', 'en-US');
    const es = await submit('Sofía', 'es');
    expect(await mailText(fr)).toContain('Notes: Pas de réponse');
    expect(await mailText(de)).toContain('Notes: Keine Antwort');
    expect(await mailText(en)).toContain('Notes: N/A');
    // Spanish has a text, but the site does not offer Spanish: not kept, so N/A.
    expect(await mailText(es)).toContain('Notes: N/A');

    const inbox = (await owner.get('/api/config/forms/rsvp/submissions')).json().submissions as Array<{
      id: string;
      page: { language?: string };
    }>;
    const langOf = (id: string) => inbox.find((s) => s.id === id)!.page.language;
    expect([langOf(fr), langOf(de), langOf(en), langOf(es), langOf(single)]).toEqual(['fr', 'de-DE', 'en-US', undefined, undefined]);

    const csv = (await owner.get('/api/config/forms/rsvp/export.csv')).body;
    const row = (name: string) => csv.split('\r\n').find((l) => l.includes(name))!;
    expect(row('Béatrice')).toMatch(/,Pas de réponse$/);
    expect(row('Dieter')).toMatch(/,Keine Antwort$/);
    expect(row('Edna')).toMatch(/,N\/A$/);
    expect(row('Ana')).toMatch(/,N\/A$/);
  });
});
