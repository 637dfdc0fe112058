import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { OwnerService } from '../../../src/server/platform/owners.js';
import { NO_RELAY } from '../../../src/server/platform/outbox-routes.js';
import { Role } from '../../../src/core/enums.js';
import { SmtpSink } from '../../helpers/smtp-sink.js';

async function signIn(t: TestApp, email: string, password: string): Promise<Visitor> {
  const v = new Visitor(t.app);
  expect((await v.send('POST', '/api/auth/login', { email, password })).statusCode).toBe(200);
  return v;
}

describe.each(APP_KINDS)('the Emails screen calls on %s', (kind) => {
  describe('without an SMTP relay', () => {
    let t: TestApp;
    let admin: Visitor;
    let store: Visitor;
    beforeAll(async () => {
      t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
      await new OwnerService(t.database).create({
        websiteId: t.seed.websiteId,
        email: 'store@example.com',
        password: 'team member password',
        role: Role.STORE_MANAGER,
      });
      admin = await signIn(t, OWNER.email, OWNER.password);
      store = await signIn(t, 'store@example.com', 'team member password');
    });
    afterAll(async () => {
      await t?.close();
    });

    it('keeps email to read: listed as kept here, opened with its text and HTML; resending says a relay is needed; admins only', async () => {
      await t.app.services.mailer.enqueue(t.database.db, {
        kind: 'test',
        to: 'new.user@example.com',
        subject: 'Confirm your account',
        text: 'Open https://shop.example/confirm?t=abc to confirm.',
        html: '<p>Open the <a href="https://shop.example/confirm?t=abc">link</a>.</p>',
      });
      const list = await admin.get('/api/admin/emails');
      expect(list.statusCode).toBe(200);
      expect(list.headers['cache-control']).toBe('no-store');
      expect(list.json().relay).toBe(false);
      const mail = list.json().emails.find((e: { subject: string }) => e.subject === 'Confirm your account');
      expect(mail).toMatchObject({ to: 'new.user@example.com', status: 'local' });
      expect((await admin.get('/api/admin/emails?status=local')).json().emails.map((e: { id: number }) => e.id)).toContain(mail.id);
      expect((await admin.get('/api/admin/emails?status=sent')).json().emails.map((e: { id: number }) => e.id)).not.toContain(mail.id);
      expect((await admin.get('/api/admin/emails?status=bogus')).statusCode).toBe(400);

      const one = await admin.get(`/api/admin/emails/${mail.id}`);
      expect(one.json().email).toMatchObject({
        text: 'Open https://shop.example/confirm?t=abc to confirm.',
        html: '<p>Open the <a href="https://shop.example/confirm?t=abc">link</a>.</p>',
      });
      expect((await admin.get('/api/admin/emails/99999999')).statusCode).toBe(404);
      expect((await admin.get('/api/admin/emails/nope')).statusCode).toBe(400);

      const resend = await admin.send('POST', `/api/admin/emails/${mail.id}/resend`);
      expect(resend.statusCode).toBe(409);
      expect(resend.json().message).toBe(NO_RELAY);

      expect((await new Visitor(t.app).get('/api/admin/emails')).statusCode).toBe(401);
      expect((await store.get('/api/admin/emails')).statusCode).toBe(403);
      expect((await store.get(`/api/admin/emails/${mail.id}`)).statusCode).toBe(403);
      expect((await store.send('POST', `/api/admin/emails/${mail.id}/resend`)).statusCode).toBe(403);
      expect((await admin.send('POST', `/api/admin/emails/${mail.id}/resend`, undefined, { crumb: false })).statusCode).toBe(403);
    });
  });

  describe('with a relay', () => {
    let t: TestApp;
    let admin: Visitor;
    let sink: SmtpSink;
    beforeAll(async () => {
      sink = await new SmtpSink().start();
      t = await testApp(kind, { RATE_LIMIT_STORE: 'memory', SMTP_URL: sink.url });
      admin = await signIn(t, OWNER.email, OWNER.password);
    });
    afterAll(async () => {
      await t?.close();
      await sink?.close();
    });

    it("a failed delivery shows the relay's error and is sent when resent; a sent one is resent as a copy", async () => {
      sink.refusing = true;
      const to = `buyer-${kind}@example.com`;
      await t.app.services.mailer.enqueue(t.database.db, { kind: 'test', to, subject: 'Your order', text: 'Thanks for your order.' });
      // The last attempt the mailer makes before it gives up.
      await t.database.db.execute(sql`update mail_outbox set attempts = 24 where to_address = ${to}`);
      await t.app.services.mailer.deliverDue();
      const failed = (await admin.get('/api/admin/emails?status=failed')).json().emails.find((e: { to: string }) => e.to === to);
      expect(failed.status).toBe('failed');
      expect(failed.lastError).toMatch(/Relay is down/);

      sink.refusing = false;
      const r = await admin.send('POST', `/api/admin/emails/${failed.id}/resend`);
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().email).toMatchObject({ id: failed.id, status: 'pending', attempts: 0, lastError: null });
      await t.app.services.mailer.deliverDue();
      await expect.poll(async () => (await admin.get(`/api/admin/emails/${failed.id}`)).json().email.status).toBe('sent');
      expect(sink.to(to)).toHaveLength(1);
      // A sent one is queued again as a new email; the first keeps its record.
      const copy = await admin.send('POST', `/api/admin/emails/${failed.id}/resend`);
      expect(copy.statusCode).toBe(200);
      expect(copy.json().email.id).not.toBe(failed.id);
      await t.app.services.mailer.deliverDue();
      await expect.poll(() => sink.to(to).length).toBe(2);
      const [n] = await rows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from mail_outbox where to_address = ${to} and status = 'sent'`,
      );
      expect(n!.n).toBe(2);
    });
  });
});
