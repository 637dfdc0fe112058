import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { OwnerService } from '../../../src/server/platform/owners.js';
import { TEST_SUBJECT } from '../../../src/server/platform/email-settings-routes.js';
import { SMTP_MESSAGES } from '../../../src/server/mail/smtp-settings.js';
import { Role } from '../../../src/core/enums.js';
import { SmtpSink } from '../../helpers/smtp-sink.js';
import { confirmed } from '../../helpers/orders.js';

const ADD = '/api/commerce/shopping-cart/entries';
const PLACE = '/api/checkout/place-order';
const CARD = { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Buyer' };
const ADDRESS = { name: 'Ada Buyer', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };
const SECRET = 'relay-secret-Pa55word';

async function signIn(t: TestApp, email: string, password: string): Promise<Visitor> {
  const v = new Visitor(t.app);
  expect((await v.send('POST', '/api/auth/login', { email, password })).statusCode).toBe(200);
  return v;
}

describe.each(APP_KINDS)('email settings and owner notifications on %s', (kind) => {
  let t: TestApp;
  let admin: Visitor;
  let store: Visitor;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await new SmtpSink().start();
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
    await sink?.close();
  });

  const relay = () => ({
    host: '127.0.0.1',
    port: sink.port,
    security: 'none',
    username: 'shop',
    password: SECRET,
    fromAddress: 'Fernhill <shop@fernhill.example>',
  });

  it("saves the relay from /config: the password is never returned nor audited, mail then leaves through it, and a test email reports the relay's answer", async () => {
    const first = await admin.get('/api/admin/email-settings');
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.json()).toMatchObject({
      source: 'none',
      smtp: null,
      notifications: { newOrder: true, formSubmission: true, lowStock: true },
      notifyTo: OWNER.email,
    });
    expect(t.app.services.mailer.hasRelay).toBe(false);
    // Without a relay there is nothing to test.
    expect((await admin.send('POST', '/api/admin/email-settings/test', {})).statusCode).toBe(409);

    // Bad fields are refused on their fields.
    const bad = await admin.send('PUT', '/api/admin/email-settings/smtp', {
      host: 'smtp example.com',
      port: 70000,
      security: 'none',
      fromAddress: 'nobody',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({ host: SMTP_MESSAGES.HOST, port: SMTP_MESSAGES.PORT, fromAddress: SMTP_MESSAGES.FROM });
    expect(
      (await admin.send('PUT', '/api/admin/email-settings/smtp', { host: 'x'.repeat(100_000), port: 25, security: 'none' })).statusCode,
    ).toBe(400);
    // Admins only; the crumb is needed.
    expect((await store.get('/api/admin/email-settings')).statusCode).toBe(403);
    expect((await store.send('PUT', '/api/admin/email-settings/smtp', relay())).statusCode).toBe(403);
    expect((await admin.send('PUT', '/api/admin/email-settings/smtp', relay(), { crumb: false })).statusCode).toBe(403);

    const saved = await admin.send('PUT', '/api/admin/email-settings/smtp', relay());
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.body).not.toContain(SECRET);
    expect(saved.json().smtp).toEqual({
      host: '127.0.0.1',
      port: sink.port,
      security: 'none',
      username: 'shop',
      passwordSet: true,
      fromAddress: 'Fernhill <shop@fernhill.example>',
    });
    const read = await admin.get('/api/admin/email-settings');
    expect(read.body).not.toContain(SECRET);
    expect(read.json()).toMatchObject({ source: 'settings', smtp: { passwordSet: true } });
    const audit = await rows<{ before: unknown; after: unknown }>(
      t.database.db,
      sql`select before, after from audit_log where action like 'email.smtp%'`,
    );
    expect(audit.length).toBe(1);
    expect(JSON.stringify(audit)).not.toContain(SECRET);
    // The site's settings (which feed the theme) never hold the relay.
    const [site] = await rows<{ settings: unknown }>(t.database.db, sql`select settings from websites where id = ${t.seed.websiteId}`);
    expect(JSON.stringify(site!.settings)).not.toContain('127.0.0.1');

    // Saved again with an empty password field, the stored password stays.
    expect((await admin.send('PUT', '/api/admin/email-settings/smtp', { ...relay(), password: '' })).json().smtp.passwordSet).toBe(true);
    const [stored] = await rows<{ password: string }>(t.database.db, sql`select password from smtp_settings`);
    expect(stored!.password).toBe(SECRET);

    // The mailer uses it at once: new mail is queued and delivered, from the saved sender.
    expect(t.app.services.mailer.hasRelay).toBe(true);
    expect((await admin.get('/api/admin/dashboard')).json().checklist.find((c: { key: string }) => c.key === 'email').done).toBe(true);
    await t.app.services.mailer.enqueue(t.database.db, { kind: 'test', to: 'reader@example.com', subject: 'Hello', text: 'Hi.' });
    t.app.services.mailer.kick();
    await expect.poll(() => sink.to('reader@example.com').length, { timeout: 10_000 }).toBe(1);
    expect(sink.to('reader@example.com')[0]!.from).toBe('shop@fernhill.example');
    expect(sink.logins.at(-1)).toEqual({ username: 'shop', password: SECRET });

    // Send test email: to the signed-in owner unless told otherwise.
    const ok = await admin.send('POST', '/api/admin/email-settings/test', {});
    expect(ok.json()).toEqual({ ok: true, to: OWNER.email });
    expect(sink.to(OWNER.email).some((m) => m.raw.includes(TEST_SUBJECT))).toBe(true);
    expect((await admin.send('POST', '/api/admin/email-settings/test', { to: 'not an address' })).statusCode).toBe(400);
    sink.refusing = true;
    const failed = await admin.send('POST', '/api/admin/email-settings/test', { to: 'ops@example.com' });
    sink.refusing = false;
    expect(failed.statusCode).toBe(200);
    expect(failed.json()).toMatchObject({ ok: false, to: 'ops@example.com' });
    expect(failed.json().error).toMatch(/Relay is down/);

    // Forgotten, new mail is kept in the outbox again.
    expect((await admin.send('DELETE', '/api/admin/email-settings/smtp')).statusCode).toBe(200);
    expect(t.app.services.mailer.hasRelay).toBe(false);
    expect((await admin.get('/api/admin/email-settings')).json()).toMatchObject({ source: 'none', smtp: null });
  });

  it('a new order emails the owner (and the low-stock email when it takes a variant low); each switch silences its email', async () => {
    await admin.send('PUT', '/api/admin/site-settings', {
      ...(await admin.get('/api/admin/site-settings')).json().settings,
      contactEmail: 'orders@fernhill.example',
    });
    expect(
      (await admin.send('POST', '/api/checkout/admin/shipping-options', { name: 'Standard', kind: 'flat', priceCents: 500 })).statusCode,
    ).toBe(200);
    await t.database.db.execute(sql`update product_variants set qty_in_stock = 5, unlimited = false where sku = 'POUR-OVER'`);
    const buy = async (qty: number, tag: string) => {
      const buyer = new Visitor(t.app);
      expect(
        (await buyer.send('POST', ADD, { itemId: t.seed.productIds['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: qty })).statusCode,
      ).toBe(200);
      const placed = await buyer.send(
        'POST',
        PLACE,
        await confirmed(buyer, { email: 'ada@example.com', shippingAddress: ADDRESS, payment: CARD }),
        { headers: { 'idempotency-key': `notify-${kind}-${tag}-${Date.now()}` } },
      );
      expect(placed.statusCode, placed.body).toBe(200);
      return placed.json().purchaseConfirmation as { id: string; orderNumber: number };
    };
    const mailTo = (to: string, kindName: string) =>
      rows<{ subject: string; text_body: string; ref: string }>(
        t.database.db,
        sql`select subject, text_body, ref from mail_outbox where to_address = ${to} and kind = ${kindName} order by id`,
      );

    const o1 = await buy(2, 'a'); // 5 -> 3: now low
    const orders = await mailTo('orders@fernhill.example', 'owner-new-order');
    expect(orders.length).toBe(1);
    expect(orders[0]!.ref).toBe(`owner-new-order:${o1.id}`);
    expect(orders[0]!.subject).toMatch(/^New order #\d+: /);
    expect(orders[0]!.text_body).toContain('ada@example.com');
    expect(orders[0]!.text_body).toContain(`/config/orders/${o1.id}`);
    const low = await mailTo('orders@fernhill.example', 'owner-low-stock');
    expect(low.map((m) => m.subject)).toEqual(['Low stock: Ceramic Pour-Over Set, 3 left']);

    await buy(1, 'b'); // 3 -> 2: already low, no second low-stock email
    expect((await mailTo('orders@fernhill.example', 'owner-new-order')).length).toBe(2);
    expect((await mailTo('orders@fernhill.example', 'owner-low-stock')).length).toBe(1);

    // Switched off: no new-order email; bad input refused.
    expect((await admin.send('PUT', '/api/admin/email-settings/notifications', { newOrder: 'yes' })).statusCode).toBe(400);
    expect(
      (await store.send('PUT', '/api/admin/email-settings/notifications', { newOrder: false, formSubmission: true, lowStock: true }))
        .statusCode,
    ).toBe(403);
    const off = await admin.send('PUT', '/api/admin/email-settings/notifications', {
      newOrder: false,
      formSubmission: false,
      lowStock: true,
    });
    expect(off.statusCode).toBe(200);
    expect((await admin.get('/api/admin/email-settings')).json().notifications).toEqual({
      newOrder: false,
      formSubmission: false,
      lowStock: true,
    });
    await buy(1, 'c');
    expect((await mailTo('orders@fernhill.example', 'owner-new-order')).length).toBe(2);
  });
});
