import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { OwnerService } from '../../../src/server/platform/owners.js';
import { Role } from '../../../src/core/enums.js';
import { confirmed } from '../../helpers/orders.js';
import { customerMessages } from '../../../src/core/messages.js';

const ADD = '/api/commerce/shopping-cart/entries';
const PLACE = '/api/checkout/place-order';
const CARD = { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Buyer' };
const ADDRESS = { name: 'Ada Buyer', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };

describe.each(APP_KINDS)('one customer and the CSV export on %s', (kind) => {
  let t: TestApp;
  let admin: Visitor;
  let editor: Visitor;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    admin = new Visitor(t.app);
    expect((await admin.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    await new OwnerService(t.database).create({
      websiteId: t.seed.websiteId,
      email: 'ed@example.com',
      password: 'team member password',
      role: Role.EDITOR,
    });
    editor = new Visitor(t.app);
    expect((await editor.send('POST', '/api/auth/login', { email: 'ed@example.com', password: 'team member password' })).statusCode).toBe(
      200,
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it("shows a customer's orders, spend, account, mailing lists and restock sign-ups; exports the list as CSV without formulas", async () => {
    expect(
      (await admin.send('POST', '/api/checkout/admin/shipping-options', { name: 'Standard', kind: 'flat', priceCents: 500 })).statusCode,
    ).toBe(200);
    const buyer = new Visitor(t.app);
    expect(
      (await buyer.send('POST', ADD, { itemId: t.seed.productIds['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 })).statusCode,
    ).toBe(200);
    const placed = await buyer.send(
      'POST',
      PLACE,
      await confirmed(buyer, { email: 'Ada@Example.com', shippingAddress: ADDRESS, payment: CARD }),
      { headers: { 'idempotency-key': `cust-${kind}-${Date.now()}` } },
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const order = placed.json().purchaseConfirmation;
    const total = Math.round(Number(order.grandTotal.decimalValue) * 100);
    await t.database.db.execute(
      sql`insert into mailing_lists (id, website_id, name) values ('list-news', ${t.seed.websiteId}, 'Newsletter')`,
    );
    const [list] = await rows<{ id: string; name: string }>(t.database.db, sql`select id, name from mailing_lists where id = 'list-news'`);
    await t.database.db.execute(
      sql`insert into mailing_list_members (id, list_id, website_id, email, email_key, status, source) values ('m-ada', ${list!.id}, ${t.seed.websiteId}, 'ada@example.com', 'ada@example.com', 'subscribed', 'owner')`,
    );

    const d = await admin.get('/api/admin/customers/detail?email=ADA@example.com');
    expect(d.statusCode, d.body).toBe(200);
    expect(d.headers['cache-control']).toBe('no-store');
    const c = d.json().customer;
    expect(c).toMatchObject({ email: 'Ada@Example.com', spendCents: total, account: null });
    expect(c.orders).toEqual([expect.objectContaining({ id: order.id, status: 'paid', grandTotalCents: total })]);
    expect(c.mailingLists).toEqual([expect.objectContaining({ name: list!.name, status: 'subscribed' })]);
    expect(c.restockSignUps).toEqual([]);
    expect((await admin.get('/api/admin/customers/detail?email=nobody@example.com')).statusCode).toBe(404);
    expect((await admin.get(`/api/admin/customers/detail?email=${'a'.repeat(400)}`)).statusCode).toBe(400);
    expect((await editor.get('/api/admin/customers/detail?email=ada@example.com')).statusCode).toBe(403);
    expect((await editor.get('/api/admin/customers.csv')).statusCode).toBe(403);

    // A signed-up address whose text a spreadsheet would run as a formula.
    await t.database.db.execute(sql`insert into restock_sign_ups (id, website_id, product_id, variant_id, email, email_key)
      select 'r-evil', ${t.seed.websiteId}, item_id, id, '=cmd@example.com', '=cmd@example.com' from product_variants where sku = 'POUR-OVER'`);
    const csv = await admin.get('/api/admin/customers.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="customers.csv"');
    const table = parse(csv.body) as string[][];
    expect(table[0]).toEqual([
      'Email',
      'Name',
      'Phone',
      'Address',
      'Accepts marketing',
      'Tags',
      'Orders',
      'Spend',
      'Currency',
      'Site account',
      'Mailing lists',
      'Restock sign-ups',
      'Last seen',
    ]);
    const ada = table.find((r) => r[0] === 'Ada@Example.com')!;
    expect(ada.slice(1, 10)).toEqual([
      'Ada Buyer',
      '',
      'Ada Buyer, 1 Main St, Portland, OR 97201, United States',
      'yes',
      '',
      '1',
      (total / 100).toFixed(2),
      'USD',
      'no',
    ]);
    expect(table.some((r) => r[0] === "'=cmd@example.com")).toBe(true);
    const searched = parse((await admin.get('/api/admin/customers.csv?q=ada')).body) as string[][];
    expect(searched.map((r) => r[0])).toEqual(['Email', 'Ada@Example.com']);
  });

  it("keeps the owner's name, phone, tags and note for a customer; finds them by name; refuses bad input whole", async () => {
    const key = 'Ada@Example.com';
    const detail = async () => (await admin.get(`/api/admin/customers/detail?email=${encodeURIComponent(key)}`)).json().customer;
    const before = await detail();
    expect(before.name).toBe('Ada Buyer'); // from her order until the owner types one
    expect(before.acceptsMarketing).toBe(true);
    expect(before.addresses).toEqual([{ lines: ['Ada Buyer', '1 Main St', 'Portland, OR 97201', 'United States'], from: 'order' }]);

    const save = (body: Record<string, unknown>, who = admin) => who.send('PUT', '/api/admin/customers/profile', { email: key, ...body });
    const ok = await save({
      name: 'Ada Lovelace',
      phone: '+44 20 7946 0000',
      tags: ['wholesale', 'VIP', 'wholesale'],
      note: 'Prefers email.',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toBe(customerMessages.SAVED);
    const after = await detail();
    expect(after.name).toBe('Ada Lovelace');
    expect(after.profile).toEqual({ name: 'Ada Lovelace', phone: '+44 20 7946 0000', tags: ['wholesale', 'VIP'], note: 'Prefers email.' });

    // Bad input: a clear message on its field, and nothing of the body saved.
    const badPhone = await save({ name: 'Changed', phone: 'call me =1+1' });
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.body).toContain(customerMessages.PHONE_INVALID);
    const manyTags = await save({ name: 'Changed', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) });
    expect(manyTags.statusCode).toBe(400);
    expect(manyTags.body).toContain(customerMessages.TOO_MANY_TAGS);
    expect((await save({ name: 'Changed', note: 'x'.repeat(5001) })).statusCode).toBe(400);
    expect((await save({ name: 42 })).statusCode).toBe(400);
    expect((await detail()).profile.name).toBe('Ada Lovelace');
    // An editor may not read customers, let alone change them.
    expect((await save({ name: 'Editor was here' }, editor)).statusCode).toBe(403);

    const list = (await admin.get('/api/admin/customers?q=lovelace')).json().customers;
    expect(list.map((c: { email: string; name: string; tags: string[] }) => [c.email, c.name, c.tags])).toEqual([
      ['Ada@Example.com', 'Ada Lovelace', ['wholesale', 'VIP']],
    ]);
    // The name on her order finds her too, and % in a search is a character, not a wildcard.
    expect((await admin.get('/api/admin/customers?q=buyer')).json().customers.map((c: { email: string }) => c.email)).toEqual([
      'Ada@Example.com',
    ]);
    expect((await admin.get('/api/admin/customers?q=%25')).json().customers).toEqual([]);
    const table = parse((await admin.get('/api/admin/customers.csv?q=ada')).body) as string[][];
    expect(table[1]!.slice(0, 6)).toEqual([
      'Ada@Example.com',
      'Ada Lovelace',
      "'+44 20 7946 0000",
      'Ada Buyer, 1 Main St, Portland, OR 97201, United States',
      'yes',
      'wholesale; VIP',
    ]);
  });
});
