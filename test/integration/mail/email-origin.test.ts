/**
 * Issue 21 item 4: every emailed link starts with the configured origin (PUBLIC_URL, else the owner's saved
 * site address, else this server's own address), never with the Host header a visitor or owner request sent.
 * Each case sends its requests with a hostile Host (and X-Forwarded-Host) and reads the links from the outbox.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { configureForms } from '../../../src/server/forms/service.js';
import { loadConfig } from '../../../src/server/config.js';
import { emailOriginWarning } from '../../../src/server/email-origin.js';
import { restockServiceOf } from '../../../src/server/restock/index.js';
import { Role } from '../../../src/core/enums.js';
import { confirmed } from '../../helpers/orders.js';

const EVIL = { host: 'evil.example', 'x-forwarded-host': 'evil.example' };
const CARD = { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Buyer' };
const ADDRESS = { name: 'Ada Buyer', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };
const PASSWORD = 'a long enough secret';

/** A visitor every one of whose requests carries the hostile Host. */
class HostileVisitor extends Visitor {
  override get(url: string, headers: Record<string, string> = {}) {
    return super.get(url, { ...EVIL, ...headers });
  }
  override send(
    method: 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    opts: { crumb?: boolean; headers?: Record<string, string> } = {},
  ) {
    return super.send(method, url, body, { ...opts, headers: { ...EVIL, ...opts.headers } });
  }
}

/** Every http(s) link of the mails of a kind (or of every kind) sent to an address. */
async function links(t: TestApp, to: string, kind?: string): Promise<string[]> {
  const mails = await rows<{ text_body: string; html_body: string | null; headers: unknown }>(
    t.database.db,
    kind
      ? sql`select * from mail_outbox where to_address = ${to} and kind = ${kind}`
      : sql`select * from mail_outbox where to_address = ${to}`,
  );
  expect(mails.length, `mail to ${to}${kind ? ` (${kind})` : ''}`).toBeGreaterThan(0);
  return mails.flatMap(
    (m) => `${m.text_body}\n${m.html_body ?? ''}\n${JSON.stringify(m.headers ?? '')}`.match(/https?:\/\/[^\s"'<>)]+/g) ?? [],
  );
}

/** Sends one of every kind of emailed link with hostile Host headers; answers the addresses used. */
async function sendEveryMail(t: TestApp, tag: string): Promise<Record<string, { to: string; kind?: string }>> {
  const owner = new HostileVisitor(t.app);
  expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
  const visitor = new HostileVisitor(t.app);
  const out: Record<string, { to: string; kind?: string }> = {};

  // Site-user sign-up confirmation, "you already have an account", and the reset link.
  const su = `su-${tag}@example.com`;
  expect((await visitor.send('POST', '/api/site-users/accounts', { email: su, password: PASSWORD, displayName: 'Ada' })).statusCode).toBe(
    202,
  );
  // Confirmed in the browser that signed up (a second sign-up for a still pending address replaces it instead).
  const confirmLink = new URL((await links(t, su, 'site-user-confirm')).find((l) => l.includes('/account/confirm'))!);
  expect((await visitor.get(confirmLink.pathname + confirmLink.search)).statusCode).toBe(303);
  expect((await visitor.send('POST', '/api/site-users/accounts', { email: su, password: PASSWORD, displayName: 'Ada' })).statusCode).toBe(
    202,
  );
  expect((await visitor.send('POST', '/api/site-users/account/password-reset', { email: su })).statusCode).toBe(202);
  out.confirm = { to: su, kind: 'site-user-confirm' };
  out.exists = { to: su, kind: 'site-user-exists' };
  out.reset = { to: su, kind: 'site-user-reset' };

  // Order confirmation (with the order status link).
  const buyer = new HostileVisitor(t.app);
  const order = `buyer-${tag}@example.com`;
  expect(
    (
      await buyer.send('POST', '/api/commerce/shopping-cart/entries', {
        itemId: t.seed.productIds['ceramic-pour-over-set'],
        sku: 'POUR-OVER',
        quantity: 1,
      })
    ).statusCode,
  ).toBe(200);
  const placed = await buyer.send(
    'POST',
    '/api/checkout/place-order',
    await confirmed(buyer, { email: order, shippingAddress: ADDRESS, payment: CARD, idempotencyKey: `origin-${tag}` }),
  );
  expect(placed.statusCode, placed.body).toBe(200);
  out.order = { to: order };

  // The review request after delivery (a job: no request at all when it runs).
  expect((await owner.send('POST', `/api/checkout/admin/orders/${placed.json().purchaseConfirmation.id}/fulfil`)).statusCode).toBe(200);
  await t.database.db.execute(sql`update jobs set run_at = now() where kind = 'reviews:request'`);
  await t.app.services.jobs.runDue();
  out.review = { to: order, kind: 'review-request' };

  // A newsletter form joining a double opt-in list: the confirmation link.
  const list = await owner.send('POST', '/api/config/engagement/lists', { name: `Double ${tag}`, doubleOptIn: true });
  expect(list.statusCode).toBe(201);
  const formId = `news-${tag}`;
  const form = {
    id: formId,
    name: `Newsletter ${tag}`,
    kind: 'newsletter',
    fields: [{ id: 'email', type: 'email', title: 'Email', required: true }],
    submitButtonText: 'Join',
    captcha: { enabled: false },
    storage: { notify: false, listId: list.json().list.id },
  };
  expect((await owner.send('POST', '/api/config/forms', form)).statusCode).toBe(200);
  const reader = `reader-${tag}@example.com`;
  const key = (await visitor.send('POST', '/api/form/FormSubmissionKey')).json().key;
  expect(
    (await visitor.send('POST', '/api/form/SaveFormSubmission', { formId, key, form: JSON.stringify({ email: reader }) })).statusCode,
  ).toBe(200);
  out.newsletter = { to: reader };

  // A back-in-stock email sent by the owner (product link and unsubscribe link, also in List-Unsubscribe).
  const waiter = `waiter-${tag}@example.com`;
  const productId = t.seed.productIds['merino-wool-throw']!;
  const variantId = t.seed.variantIds['THROW-OAT']!;
  await t.database.db.execute(sql`update product_variants set qty_in_stock = 0, unlimited = false where id = ${variantId}`);
  await restockServiceOf(t.app).signUp({ productId, variantId, email: waiter, isJoinMailingList: false });
  await t.database.db.execute(sql`update product_variants set qty_in_stock = 5, unlimited = false where id = ${variantId}`);
  const send = await owner.send('POST', '/api/site-users/account/notifications/restock/send', { productId, variantId });
  expect(send.statusCode, send.body).toBe(200);
  // The send is a job: made due at once (the database's clock is the queue's) and run until the email is queued.
  await vi.waitFor(
    async () => {
      await t.database.db.execute(sql`update jobs set run_at = now() where run_at > now()`);
      await t.app.services.jobs.runDue();
      expect(await rows(t.database.db, sql`select 1 from mail_outbox where to_address = ${waiter}`)).not.toHaveLength(0);
    },
    { timeout: 10_000, interval: 50 },
  );
  out.restock = { to: waiter };
  return out;
}

describe.each(APP_KINDS)('emailed links never come from the Host header (%s)', (kind) => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const a of apps) await a.close();
  });
  const start = async (env: Record<string, string> = {}) => {
    const t = await testApp(kind, { RATE_LIMIT_STORE: 'memory', ...env });
    configureForms(t.app, { perIp: { max: 1000, windowMs: 60_000 }, perForm: { max: 1000, windowMs: 60_000 } });
    await new Visitor(t.app).send('POST', '/api/auth/login', OWNER);
    const owner = new Visitor(t.app);
    await owner.send('POST', '/api/auth/login', OWNER);
    expect(
      (await owner.send('POST', '/api/checkout/admin/shipping-options', { name: 'Standard', kind: 'flat', priceCents: 500 })).statusCode,
    ).toBe(200);
    apps.push(t);
    return t;
  };

  const expectAll = async (t: TestApp, sent: Record<string, { to: string; kind?: string }>, origin: string) => {
    for (const [name, { to, kind: k }] of Object.entries(sent)) {
      const found = await links(t, to, k);
      expect(found.length, `${name}: links`).toBeGreaterThan(0);
      for (const l of found) expect(l.startsWith(`${origin}/`), `${name}: ${l}`).toBe(true);
    }
  };

  it('with PUBLIC_URL: every link starts with it', async () => {
    const t = await start({ PUBLIC_URL: 'https://shop.example.com' });
    await expectAll(t, await sendEveryMail(t, 'pub'), 'https://shop.example.com');
  });

  it('without PUBLIC_URL: the site address saved in /config; before it is saved, the server itself', async () => {
    const t = await start();
    const owner = new HostileVisitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
    // Nothing saved: this server's own configured address, not evil.example.
    const before = (await owner.get('/api/config/site-address')).json();
    expect(before).toMatchObject({ siteAddress: '', publicUrl: null, linksStartWith: 'http://127.0.0.1:3000' });
    await expectAll(t, await sendEveryMail(t, 'none'), 'http://127.0.0.1:3000');

    const bad = await owner.send('PUT', '/api/config/site-address', { siteAddress: 'javascript:alert(1)' });
    expect(bad.statusCode).toBe(400);
    const saved = await owner.send('PUT', '/api/config/site-address', { siteAddress: 'https://www.my-shop.example/' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ siteAddress: 'https://www.my-shop.example', linksStartWith: 'https://www.my-shop.example' });
    await expectAll(t, await sendEveryMail(t, 'saved'), 'https://www.my-shop.example');
  });

  it('only an admin may change the site address', async () => {
    const t = apps[0] ?? (await start());
    const admin = new Visitor(t.app);
    expect((await admin.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
    const made = await admin.send('POST', '/api/config/team', {
      email: `wm-${kind}@example.com`,
      role: Role.WEBSITE_MANAGER,
      password: 'website manager pw',
    });
    expect(made.statusCode, made.body).toBeLessThan(300);
    const wm = new Visitor(t.app);
    expect((await wm.send('POST', '/api/auth/login', { email: `wm-${kind}@example.com`, password: 'website manager pw' })).statusCode).toBe(
      200,
    );
    expect((await wm.get('/api/config/site-address')).statusCode).toBe(200);
    expect((await wm.send('PUT', '/api/config/site-address', { siteAddress: 'https://attacker.example' })).statusCode).toBe(403);
  });

  it('warns at start in production when neither PUBLIC_URL nor a site address is set', async () => {
    const t = apps[0]!;
    const config = loadConfig({});
    await t.database.db.execute(sql`update websites set settings = settings - 'siteAddress'`);
    expect(await emailOriginWarning(config, t.database.db, { NODE_ENV: 'production' })).toMatch(/PUBLIC_URL/);
    expect(await emailOriginWarning(config, t.database.db, { NODE_ENV: 'development' })).toBeNull();
    expect(
      await emailOriginWarning(loadConfig({ PUBLIC_URL: 'https://shop.example.com' }), t.database.db, { NODE_ENV: 'production' }),
    ).toBeNull();
    await t.database.db.execute(sql`update websites set settings = settings || '{"siteAddress":"https://www.my-shop.example"}'::jsonb`);
    expect(await emailOriginWarning(config, t.database.db, { NODE_ENV: 'production' })).toBeNull();
  });
});
