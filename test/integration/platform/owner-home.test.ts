import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { OwnerService } from '../../../src/server/platform/owners.js';
import { startOfDay } from '../../../src/server/platform/owner-home.js';
import { Role } from '../../../src/core/enums.js';
import { confirmed } from '../../helpers/orders.js';

const PW = 'team member password';
const ADD = '/api/commerce/shopping-cart/entries';
const PLACE = '/api/checkout/place-order';
const CARD = { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Buyer' };
const ADDRESS = { name: 'Ada Buyer', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };

describe('startOfDay', () => {
  it('answers the instant midnight falls in the zone, across daylight saving', () => {
    // 2026-07-04 15:00 UTC is 08:00 in Los Angeles (PDT, UTC-7): the day began at 07:00 UTC.
    expect(new Date(startOfDay(Date.UTC(2026, 6, 4, 15), 'America/Los_Angeles')).toISOString()).toBe('2026-07-04T07:00:00.000Z');
    // 2026-01-10 03:00 UTC is still 9 January in Los Angeles (PST, UTC-8): that day began at 08:00 UTC.
    expect(new Date(startOfDay(Date.UTC(2026, 0, 10, 3), 'America/Los_Angeles')).toISOString()).toBe('2026-01-09T08:00:00.000Z');
    expect(new Date(startOfDay(Date.UTC(2026, 0, 10, 3, 30), 'Asia/Tokyo')).toISOString()).toBe('2026-01-09T15:00:00.000Z');
  });
});

describe.each(APP_KINDS)('owner home, customers and site settings on %s', (kind) => {
  let t: TestApp;
  let admin: Visitor;
  const as: Record<string, Visitor> = {};

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    const owners = new OwnerService(t.database);
    for (const [name, role] of Object.entries({
      manager: Role.WEBSITE_MANAGER,
      store: Role.STORE_MANAGER,
      editor: Role.EDITOR,
      viewer: Role.VIEWER,
    })) {
      await owners.create({ websiteId: t.seed.websiteId, email: `${name}@example.com`, password: PW, role });
      const v = new Visitor(t.app);
      expect((await v.send('POST', '/api/auth/login', { email: `${name}@example.com`, password: PW })).statusCode).toBe(200);
      as[name] = v;
    }
    admin = new Visitor(t.app);
    expect((await admin.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  const dashboard = async () => {
    const r = await admin.get('/api/admin/dashboard');
    expect(r.statusCode, r.body).toBe(200);
    return r.json();
  };
  const step = (d: { checklist: Array<{ key: string; done: boolean }> }, key: string) => d.checklist.find((c) => c.key === key)!.done;

  it('is for signed-in owners of the right roles only, and never cached', async () => {
    const anon = new Visitor(t.app);
    for (const url of ['/api/admin/dashboard', '/api/admin/customers', '/api/admin/site-settings', '/api/admin/shell'])
      expect((await anon.get(url)).statusCode, url).toBe(401);
    for (const who of ['editor', 'viewer']) {
      expect((await as[who]!.get('/api/admin/dashboard')).statusCode).toBe(403);
      expect((await as[who]!.get('/api/admin/customers')).statusCode).toBe(403);
      expect((await as[who]!.get('/api/admin/site-settings')).statusCode).toBe(403);
      // Every owner gets the top bar's facts.
      expect((await as[who]!.get('/api/admin/shell')).json()).toMatchObject({
        siteTitle: 'Fernhill Supply Co.',
        email: `${who}@example.com`,
      });
    }
    expect((await as.store!.get('/api/admin/dashboard')).statusCode).toBe(200);
    expect((await as.store!.get('/api/admin/site-settings')).statusCode).toBe(403);
    expect((await as.store!.send('PUT', '/api/admin/site-settings', {})).statusCode).toBe(403);
    expect((await as.manager!.get('/api/admin/site-settings')).statusCode).toBe(200);
    for (const url of ['/api/admin/dashboard', '/api/admin/customers', '/api/admin/site-settings', '/api/admin/shell']) {
      expect((await admin.get(url)).headers['cache-control'], url).toBe('no-store');
    }
    // Writes need the CSRF crumb like every other owner call.
    expect((await admin.send('PUT', '/api/admin/site-settings', {}, { crumb: false })).statusCode).toBe(403);
  });

  it('dashboard: an order moves sales, orders, the fulfilment queue and customers; stock and visitors show; the checklist ticks shipping', async () => {
    const d0 = await dashboard();
    expect(d0.periods.map((p: { days: number }) => p.days)).toEqual([1, 7, 30]);
    expect(d0.periods[0].current).toEqual({ salesCents: 0, orders: 0, visitors: 0 });
    expect(step(d0, 'shipping')).toBe(false);
    expect(step(d0, 'product')).toBe(true);
    expect(step(d0, 'payments')).toBe(false); // only the test provider
    expect(step(d0, 'address')).toBe(false);
    expect(step(d0, 'email')).toBe(false);

    expect(
      (await admin.send('POST', '/api/checkout/admin/shipping-options', { name: 'Standard', kind: 'flat', priceCents: 500 })).statusCode,
    ).toBe(200);
    expect(step(await dashboard(), 'shipping')).toBe(true);
    // The site address ticks once the owner saves one in /config/site-address.
    expect((await admin.send('PUT', '/api/config/site-address', { siteAddress: 'https://shop.example' })).statusCode).toBe(200);
    expect(step(await dashboard(), 'address')).toBe(true);

    const buyer = new Visitor(t.app);
    expect(
      (await buyer.send('POST', ADD, { itemId: t.seed.productIds['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 })).statusCode,
    ).toBe(200);
    const placed = await buyer.send(
      'POST',
      PLACE,
      await confirmed(buyer, { email: 'Ada.Buyer@example.com', shippingAddress: ADDRESS, payment: CARD }),
      { headers: { 'idempotency-key': `home-${kind}-${Date.now()}` } },
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const order = placed.json().purchaseConfirmation;
    const total = Math.round(Number(order.grandTotal.decimalValue) * 100);

    // Two visitors today and one yesterday (UTC days, as the analytics roll-ups count them).
    const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
    for (const [d, v] of [
      [day(0), 'v1'],
      [day(0), 'v2'],
      [day(1), 'v3'],
    ] as const) {
      await t.database.db.execute(
        sql`insert into analytics_daily_uniques (website_id, day, metric, visitor) values (${t.seed.websiteId}, ${d}, 'visitor', ${v})`,
      );
    }
    await t.database.db.execute(sql`update product_variants set qty_in_stock = 2, unlimited = false where sku = 'POUR-OVER'`);

    const d1 = await dashboard();
    expect(d1.periods[0].current).toEqual({ salesCents: total, orders: 1, visitors: 2 });
    expect(d1.periods[0].previous).toEqual({ salesCents: 0, orders: 0, visitors: 1 });
    expect(d1.periods[1].current).toEqual({ salesCents: total, orders: 1, visitors: 3 });
    expect(d1.periods[2].current.orders).toBe(1);
    expect(d1.toFulfil.count).toBe(1);
    expect(d1.toFulfil.orders[0]).toMatchObject({ id: order.id, email: 'Ada.Buyer@example.com', grandTotalCents: total });
    expect(d1.lowStock.find((v: { sku: string }) => v.sku === 'POUR-OVER')).toMatchObject({
      title: 'Ceramic Pour-Over Set',
      qtyInStock: 2,
    });

    const c = await admin.get('/api/admin/customers?q=ada.buyer');
    expect(c.statusCode).toBe(200);
    expect(c.json().customers).toEqual([
      expect.objectContaining({ email: 'Ada.Buyer@example.com', orders: 1, spendCents: total, account: false }),
    ]);
    // A search's % and _ are matched as themselves.
    expect((await admin.get('/api/admin/customers?q=%25')).json().customers).toEqual([]);
    expect((await admin.get(`/api/admin/customers?q=${'x'.repeat(201)}`)).statusCode).toBe(400);

    // Fulfilled, it leaves the queue; refunded, it leaves the sales but stays an order.
    expect((await admin.send('POST', `/api/checkout/admin/orders/${order.id}/fulfil`)).statusCode).toBe(200);
    expect((await dashboard()).toFulfil.count).toBe(0);
    expect((await admin.send('POST', `/api/checkout/admin/orders/${order.id}/refund`)).statusCode).toBe(200);
    expect((await dashboard()).periods[0].current).toMatchObject({ salesCents: 0, orders: 1 });
  });

  it('dashboard: restock sign-ups and form submissions are listed newest first', async () => {
    const [variant] = await rows<{ id: string; item_id: string }>(
      t.database.db,
      sql`select id, item_id from product_variants where sku = 'POUR-OVER'`,
    );
    const [form] = await rows<{ id: string; name: string }>(t.database.db, sql`select id, name from forms order by id limit 1`);
    expect(form).toBeDefined();
    for (const [id, email, at] of [
      ['r1', 'first@example.com', '2026-01-01T10:00:00Z'],
      ['r2', 'second@example.com', '2026-01-02T10:00:00Z'],
    ] as const) {
      await t.database.db.execute(
        sql`insert into restock_sign_ups (id, website_id, product_id, variant_id, email, email_key, created) values (${id}, ${t.seed.websiteId}, ${variant!.item_id}, ${variant!.id}, ${email}, ${email}, ${at})`,
      );
    }
    await t.database.db.execute(
      sql`insert into form_submissions (id, website_id, form_id, created_at) values ('s1', ${t.seed.websiteId}, ${form!.id}, '2026-01-01T10:00:00Z'), ('s2', ${t.seed.websiteId}, ${form!.id}, '2026-01-03T10:00:00Z')`,
    );
    await t.database.db.execute(
      sql`insert into form_submissions (id, website_id, form_id, spam, created_at) values ('s3', ${t.seed.websiteId}, ${form!.id}, true, '2026-01-04T10:00:00Z')`,
    );
    const d = await dashboard();
    expect(d.restockSignUps.map((r: { email: string }) => r.email)).toEqual(['second@example.com', 'first@example.com']);
    expect(d.restockSignUps[0]).toMatchObject({ product: 'Ceramic Pour-Over Set' });
    // Spam stays out.
    expect(d.submissions.map((x: { id: string }) => x.id)).toEqual(['s2', 's1']);
    expect(d.submissions[0]).toMatchObject({ formId: form!.id, formName: form!.name });
    // Restock sign-ups make customers too.
    expect((await admin.get('/api/admin/customers?q=second@')).json().customers).toEqual([
      expect.objectContaining({ email: 'second@example.com', orders: 0, restockSignUps: 1 }),
    ]);
  });

  it('site settings: read, refused with per-field messages, version-checked, saved into the website row and the public pages', async () => {
    const got = await admin.get('/api/admin/site-settings');
    const s = got.json().settings;
    expect(s).toMatchObject({ title: 'Fernhill Supply Co.', timeZone: 'America/New_York', locale: 'en-US', currency: 'USD', tagline: '' });

    const bad = await admin.send('PUT', '/api/admin/site-settings', {
      ...s,
      title: ' ',
      timeZone: 'Mars/Olympus',
      locale: 'not a locale!',
      currency: 'XXX',
      contactEmail: 'nope',
      logoImageUrl: 'https://elsewhere.example/logo.png',
      socialAccounts: [{ serviceName: 'Instagram', profileUrl: 'javascript:alert(1)' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({
      title: 'Enter the site title.',
      timeZone: 'Choose a time zone from the list.',
      locale: 'Enter a language and region such as en-US.',
      currency: 'Choose a currency from the list.',
      contactEmail: 'Emails must be formatted as name@example.com',
      logoImageUrl: 'Upload an image for the logo.',
      'socialAccounts.0.profileUrl': 'Enter the profile address, starting with https://.',
    });
    expect(
      (await admin.send('PUT', '/api/admin/site-settings', 'not json', { headers: { 'content-type': 'application/json' } })).statusCode,
    ).toBe(400);

    const next = {
      ...s,
      title: 'Fernhill & Co.',
      tagline: 'Goods for <slow> mornings',
      timeZone: 'America/Los_Angeles',
      locale: 'en-GB',
      contactEmail: 'hello@fernhill.example',
      contactPhoneNumber: '+1 (503) 555-0100',
      location: {
        addressTitle: 'Fernhill',
        line1: '12 Alder St',
        line2: '',
        city: 'Portland',
        region: 'OR',
        postalCode: '97201',
        country: 'US',
      },
      businessHours: { ...s.businessHours, monday: '9am–5pm', sunday: 'Closed' },
      socialAccounts: [{ serviceName: 'Instagram', profileUrl: 'https://instagram.com/fernhill' }],
    };
    const auditBefore = Number(
      (await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from audit_log where action = 'site.settings'`))[0]!.n,
    );
    // The business address is checked against its country's format: nothing is saved with a wrong part.
    const badAddress = await as.manager!.send('PUT', '/api/admin/site-settings', {
      ...next,
      location: { ...next.location, region: 'ZZ', postalCode: '9720' },
    });
    expect(badAddress.statusCode).toBe(400);
    expect(badAddress.json().errors).toEqual({
      'location.region': 'Choose a state from the list.',
      'location.postalCode': 'Enter a valid ZIP code, for example 95014.',
    });
    expect((await admin.get('/api/admin/site-settings')).json().settings.version).toBe(s.version);
    const ok = await as.manager!.send('PUT', '/api/admin/site-settings', next);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().settings).toMatchObject({ ...next, version: s.version + 1 });
    expect(
      Number(
        (await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from audit_log where action = 'site.settings'`))[0]!.n,
      ),
    ).toBe(auditBefore + 1);
    const [row] = await rows<{ title: string; time_zone: string; locale: string }>(
      t.database.db,
      sql`select title, time_zone, locale from websites`,
    );
    expect(row).toEqual({ title: 'Fernhill & Co.', time_zone: 'America/Los_Angeles', locale: 'en-GB' });
    // Templates read website.location's lines, written from the parts in the country's format.
    const [stored] = await rows<{ location: Record<string, string> }>(
      t.database.db,
      sql`select settings -> 'location' as location from websites`,
    );
    expect(stored!.location).toMatchObject({
      addressLine1: '12 Alder St',
      addressLine2: 'Portland, OR 97201',
      addressCountry: 'United States',
      country: 'US',
      region: 'OR',
    });

    // A second save from the same (now old) version is refused; nothing is overwritten.
    const stale = await admin.send('PUT', '/api/admin/site-settings', { ...next, title: 'Overwritten' });
    expect(stale.statusCode).toBe(409);
    expect((await admin.get('/api/admin/site-settings')).json().settings.title).toBe('Fernhill & Co.');

    // The public pages read them (website.siteTagLine, websiteSettings.contactEmail ...), escaped.
    const home = await vi.waitFor(
      async () => {
        const body = (await new Visitor(t.app).get('/')).body;
        expect(body).toContain('Goods for');
        return body;
      },
      { timeout: 4000, interval: 100 },
    );
    expect(home).toContain('Goods for &lt;slow&gt; mornings');
    expect(home).toContain('hello@fernhill.example');
    expect(home).toContain('Fernhill &amp; Co.');
    expect(home).toContain('<html lang="en-GB"');
  });
});
