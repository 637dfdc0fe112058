import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { DB_KINDS } from '../../helpers/db.js';
import { SmtpSink } from '../../helpers/smtp-sink.js';
import { rows } from '../../../src/server/db-util.js';
import { seedForms } from '../../../src/server/forms/seed.js';
import { configureForms } from '../../../src/server/forms/service.js';

const N = 100;

describe.each(DB_KINDS)('form submissions survive a relay outage on %s', (kind) => {
  let t: TestApp;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    sink.refusing = true;
    t = await testApp(kind, { SMTP_URL: sink.url, WORKERS: '0' });
    await seedForms(t.database, t.seed.websiteId);
    configureForms(t.app, {
      perIp: { max: 10_000, windowMs: 60_000 },
      perForm: { max: 10_000, windowMs: 60_000 },
      keysPerIp: { max: 10_000, windowMs: 60_000 },
    });
    // A form without a captcha, so the test is about storage and mail only.
    await t.database.db.execute(sql`UPDATE forms SET captcha = '{"enabled": false}'::jsonb WHERE id = 'contact-form'`);
  }, 60_000);

  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it(`stores all ${N} submissions while the relay refuses, and delivers all ${N} emails once it accepts`, async () => {
    const v = new Visitor(t.app);
    for (let i = 0; i < N; i++) {
      const key = (await v.send('POST', '/api/form/FormSubmissionKey')).json().key as string;
      const r = await v.send('POST', '/api/form/SaveFormSubmission', {
        formId: 'contact-form',
        key,
        form: JSON.stringify({ name: ['Visitor', String(i)], email: `v${i}@example.com`, message: `Message ${i}` }),
      });
      expect(r.statusCode).toBe(200);
    }
    // The relay is down: try delivery anyway (as the worker would), nothing is lost.
    const refused = await t.app.services.mailer.deliverDue();
    expect(refused).toMatchObject({ sent: 0 });
    expect(refused.failed).toBeGreaterThan(0);
    expect(sink.messages).toHaveLength(0);
    const stored = await rows<{ n: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS n FROM form_submissions WHERE form_id = 'contact-form' AND NOT spam`,
    );
    expect(stored[0]!.n).toBe(N);
    const queued = await rows<{ n: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS n FROM mail_outbox WHERE kind = 'form-submission' AND status <> 'sent'`,
    );
    expect(queued[0]!.n).toBe(N);

    sink.refusing = false;
    // The refused ones wait out a back-off on the database's clock: it is passed by moving their next attempt
    // to now, rather than by waiting for it. The delivery step then runs until all have gone and are marked
    // sent (a batch the mailer's own loop claimed is left to it, which marks its rows once the relay took them).
    const sent = async () =>
      (
        await rows<{ n: number }>(
          t.database.db,
          sql`SELECT count(*)::int AS n FROM mail_outbox WHERE kind = 'form-submission' AND status = 'sent'`,
        )
      )[0]!.n;
    await vi.waitFor(
      async () => {
        await t.database.db.execute(sql`UPDATE mail_outbox SET next_attempt_at = now() WHERE status = 'pending'`);
        expect((await t.app.services.mailer.deliverDue()).failed).toBe(0);
        expect(sink.messages).toHaveLength(N);
        expect(await sent()).toBe(N);
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(sink.messages).toHaveLength(N);
    const subjects = new Set(sink.messages.map((m) => /Message (\d+)/.exec(m.raw)?.[1]));
    expect(subjects.size).toBe(N);
    expect(await sent()).toBe(N);
  }, 120_000);
});
