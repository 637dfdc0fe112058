import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { OwnerService } from '../../../src/server/platform/owners.js';
import { Role, ProductType } from '../../../src/core/enums.js';
import { STALE_EDIT } from '../../../src/server/platform/config-common.js';
import { stockChangedHooks, type StockChangedHook } from '../../../src/server/platform/stock-hooks.js';

const PW = 'team member password';

async function signedIn(t: TestApp, email: string, password = PW): Promise<Visitor> {
  const v = new Visitor(t.app);
  expect((await v.send('POST', '/api/auth/login', { email, password })).statusCode).toBe(200);
  return v;
}

function product(collectionId: string, over: Record<string, unknown> = {}) {
  return {
    collectionId,
    title: 'Canvas Tote',
    body: '<p>A sturdy tote.</p>',
    productType: ProductType.PHYSICAL,
    variantOptionOrdering: ['Color'],
    images: [{ assetUrl: '/demo-media/pour-over.svg', altText: 'A tote' }],
    variants: [
      { sku: 'TOTE-NAT', attributes: { Color: 'Natural' }, priceCents: 3200, qtyInStock: 5 },
      { sku: 'TOTE-BLK', attributes: { Color: 'Black' }, priceCents: 3400, qtyInStock: 0 },
    ],
    ...over,
  };
}

describe.each(APP_KINDS)('platform: /config data calls on %s', (kind) => {
  let t: TestApp;
  let admin: Visitor;
  let store: Visitor;
  let editor: Visitor;
  let viewer: Visitor;
  let shopId: string;
  const calls: Array<[string, number, number]> = [];
  const hook: StockChangedHook = async (_tx, variantId, before, after) => {
    calls.push([variantId, before.qtyInStock, after.qtyInStock]);
  };
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    const owners = new OwnerService(t.database);
    await owners.create({ websiteId: t.seed.websiteId, email: 'store@example.com', password: PW, role: Role.STORE_MANAGER });
    await owners.create({ websiteId: t.seed.websiteId, email: 'editor@example.com', password: PW, role: Role.EDITOR });
    await owners.create({ websiteId: t.seed.websiteId, email: 'viewer@example.com', password: PW, role: Role.VIEWER });
    admin = await signedIn(t, OWNER.email, OWNER.password);
    store = await signedIn(t, 'store@example.com');
    editor = await signedIn(t, 'editor@example.com');
    viewer = await signedIn(t, 'viewer@example.com');
    shopId = (await admin.get('/api/config/stores')).json().stores.find((s: { urlId: string }) => s.urlId === 'shop').id;
    stockChangedHooks.push(hook);
  });
  afterAll(async () => {
    stockChangedHooks.splice(stockChangedHooks.indexOf(hook), 1);
    await t?.close();
  });

  it('creates a product with variants, shows it on the public site, and refuses roles without the store', async () => {
    expect((await editor.send('POST', '/api/config/products', product(shopId))).statusCode).toBe(403);
    expect((await viewer.send('POST', '/api/config/products', product(shopId))).statusCode).toBe(403);
    expect((await new Visitor(t.app).send('POST', '/api/config/products', product(shopId))).statusCode).toBe(401);
    const res = await store.send('POST', '/api/config/products', product(shopId));
    expect(res.statusCode).toBe(201);
    const p = res.json();
    expect(p).toMatchObject({ title: 'Canvas Tote', urlId: 'canvas-tote', version: 1, productType: 1 });
    expect(p.variants.map((v: { sku: string }) => v.sku)).toEqual(['TOTE-NAT', 'TOTE-BLK']);
    const page = await new Visitor(t.app).get('/shop/p/canvas-tote');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Canvas Tote');
    expect(page.body).toContain('$32.00');
    // Viewers can read the list.
    expect((await viewer.get('/api/config/products')).json().products.some((x: { id: string }) => x.id === p.id)).toBe(true);
    const audit = await rows<{ action: string }>(t.database.db, sql`select action from audit_log where entity_id = ${p.id}`);
    expect(audit.map((a) => a.action)).toEqual(['product.create']);
  });

  it('validates products with clear messages and changes nothing', async () => {
    const dupSku = await admin.send(
      'POST',
      '/api/config/products',
      product(shopId, {
        variants: [
          { sku: 'A', attributes: { Color: 'Red' }, priceCents: 100, qtyInStock: 1 },
          { sku: 'a', attributes: { Color: 'Blue' }, priceCents: 100, qtyInStock: 1 },
        ],
      }),
    );
    expect(dupSku.statusCode).toBe(400);
    expect(dupSku.json().message).toBe('This SKU already exists');
    const sale = await admin.send(
      'POST',
      '/api/config/products',
      product(shopId, {
        variants: [{ sku: 'S', attributes: { Color: 'Red' }, priceCents: 100, salePriceCents: 150, onSale: true, qtyInStock: 1 }],
      }),
    );
    expect(sale.json().message).toBe('The sale price must be lower than the price.');
    const missing = await admin.send(
      'POST',
      '/api/config/products',
      product(shopId, {
        variants: [
          { sku: 'S', attributes: {}, priceCents: 100, qtyInStock: 1 },
          { sku: 'T', attributes: { Color: 'Red' }, priceCents: 100, qtyInStock: 1 },
        ],
      }),
    );
    expect(missing.json().message).toBe('Choose a value for every option.');
    const negative = await admin.send(
      'POST',
      '/api/config/products',
      product(shopId, { variants: [{ sku: 'S', attributes: { Color: 'Red' }, priceCents: -1, qtyInStock: 1 }] }),
    );
    expect(negative.json().message).toBe('Price cannot be negative.');
    const noTitle = await admin.send('POST', '/api/config/products', product(shopId, { title: '  ' }));
    expect(noTitle.json().message).toBe('Enter a title.');
    const digitalSub = await admin.send(
      'POST',
      '/api/config/products',
      product(shopId, {
        productType: ProductType.DIGITAL,
        isSubscribable: true,
        subscriptionPlan: { billingPeriod: { value: 1, unit: 'MONTH' }, numBillingCycles: 0 },
      }),
    );
    expect(digitalSub.json().message).toBe('Only physical and service products can be subscribed to.');
    const badForm = await admin.send('POST', '/api/config/products', product(shopId, { additionalFieldsFormId: 'no-such-form' }));
    expect(badForm.json().message).toBe('no-such-form is not one of the expected options');
    const count = await rows(t.database.db, sql`select 1 from items where title = 'Canvas Tote'`);
    expect(count.length).toBe(1);
  });

  it('edits a product: the new price shows; a stock change from 0 runs the stock hook; a stale save is refused and overwrites nothing', async () => {
    const list = (await admin.get('/api/config/products')).json().products;
    const id = list.find((x: { urlId: string }) => x.urlId === 'canvas-tote').id;
    const first = (await admin.get(`/api/config/products/${id}`)).json();
    const second = (await store.get(`/api/config/products/${id}`)).json();
    const edited = {
      ...first,
      variants: first.variants.map((v: { sku: string; qtyInStock: number; priceCents: number }) =>
        v.sku === 'TOTE-BLK' ? { ...v, qtyInStock: 4 } : { ...v, priceCents: 2900 },
      ),
    };
    const ok = await admin.send('PUT', `/api/config/products/${id}`, edited);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().version).toBe(2);
    const blk = first.variants.find((v: { sku: string }) => v.sku === 'TOTE-BLK');
    expect(calls).toContainEqual([blk.id, 0, 4]);
    const page = await new Visitor(t.app).get('/shop/p/canvas-tote');
    expect(page.body).toContain('$29.00');
    // The second owner still holds version 1.
    const stale = await store.send('PUT', `/api/config/products/${id}`, { ...second, title: 'Overwritten' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(STALE_EDIT);
    const now = (await admin.get(`/api/config/products/${id}`)).json();
    expect(now.title).toBe('Canvas Tote');
    expect(now.variants.find((v: { sku: string }) => v.sku === 'TOTE-NAT').priceCents).toBe(2900);
    // Variants can be added and removed; the subscription plan saves.
    const more = await store.send('PUT', `/api/config/products/${id}`, {
      ...now,
      isSubscribable: true,
      subscriptionPlan: { billingPeriod: { value: 1, unit: 'MONTH' }, numBillingCycles: 0 },
      variants: [
        ...now.variants.filter((v: { sku: string }) => v.sku === 'TOTE-NAT'),
        { sku: 'TOTE-RED', attributes: { Color: 'Red' }, priceCents: 3000, qtyInStock: 0, unlimited: true },
      ],
    });
    expect(more.statusCode).toBe(200);
    expect(more.json().variants.map((v: { sku: string }) => v.sku)).toEqual(['TOTE-NAT', 'TOTE-RED']);
    expect(more.json().subscriptionPlan).toEqual({ billingPeriod: { value: 1, unit: 'MONTH' }, numBillingCycles: 0 });
    const audit = await rows<{ action: string }>(t.database.db, sql`select action from audit_log where entity_id = ${id} order by id`);
    expect(audit.map((a) => a.action)).toEqual(['product.create', 'product.update', 'product.update']);
    // Deleting needs the current version too.
    expect((await admin.send('DELETE', `/api/config/products/${id}?version=1`)).statusCode).toBe(409);
    expect((await admin.send('DELETE', `/api/config/products/${id}?version=3`)).statusCode).toBe(200);
    expect((await new Visitor(t.app).get('/shop/p/canvas-tote')).statusCode).toBe(404);
  });

  it('edits a seeded product keeping its additional-fields form', async () => {
    const id = t.seed.productIds['engraved-cutting-board']!;
    const p = (await admin.get(`/api/config/products/${id}`)).json();
    expect(p.additionalFieldsFormId).toBe('engraving-form');
    const res = await admin.send('PUT', `/api/config/products/${id}`, { ...p, title: 'Engraved Walnut Board' });
    expect(res.statusCode).toBe(200);
    expect(res.json().additionalFieldsFormId).toBe('engraving-form');
  });

  it('pages and journal posts with statuses; editors may, store managers may not', async () => {
    expect((await store.send('POST', '/api/config/pages', { title: 'Shipping' })).statusCode).toBe(403);
    const page = await editor.send('POST', '/api/config/pages', { title: 'Shipping', body: '<p>We ship worldwide.</p>' });
    expect(page.statusCode).toBe(201);
    expect(page.json().urlId).toBe('shipping');
    const pub = await new Visitor(t.app).get('/shipping?format=json');
    void pub;
    const upd = await editor.send('PUT', `/api/config/pages/${page.json().id}`, {
      version: 1,
      title: 'Shipping & returns',
      body: '<p>Free returns.</p>',
    });
    expect(upd.statusCode).toBe(200);
    expect((await editor.send('PUT', `/api/config/pages/${page.json().id}`, { version: 1, title: 'Again' })).statusCode).toBe(409);
    const { journals } = (await editor.get('/api/config/posts')).json();
    const journalId = journals[0].id;
    const draft = await editor.send('POST', '/api/config/posts', {
      collectionId: journalId,
      title: 'Spring notes',
      excerpt: 'Soon.',
      status: 'draft',
    });
    expect(draft.statusCode).toBe(201);
    expect(draft.json().status).toBe('draft');
    const future = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const sched = await editor.send('PUT', `/api/config/posts/${draft.json().id}`, {
      ...(draft.json() as object),
      status: 'published',
      publishOn: future,
    });
    expect(sched.json().status).toBe('scheduled');
    const bad = await editor.send('POST', '/api/config/posts', { collectionId: journalId, title: 'X', status: 'archived' });
    expect(bad.json().message).toBe('archived is not one of the expected options');
    expect((await new Visitor(t.app).get('/journal/spring-notes')).statusCode).toBe(404);
  });

  it('store settings: currency of the 26, minimum order, quantity for services, instalments; versioned', async () => {
    const s = (await store.get('/api/config/store-settings')).json() as Record<string, unknown> & { currencies: string[]; version: number };
    expect(s.currencies).toHaveLength(26);
    const res = await store.send('PUT', '/api/config/store-settings', {
      version: s.version,
      currency: 'EUR',
      multipleQuantityAllowedForServices: false,
      minimumOrderSubtotalCents: 2000,
      instalmentsEnabled: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      currency: 'EUR',
      multipleQuantityAllowedForServices: false,
      minimumOrderSubtotalCents: 2000,
      instalmentsEnabled: true,
    });
    expect((await store.send('PUT', '/api/config/store-settings', { ...s, currency: 'USD' })).statusCode).toBe(409);
    const bad = await store.send('PUT', '/api/config/store-settings', { ...(res.json() as object), currency: 'XYZ' });
    expect(bad.json().message).toBe('XYZ is not one of the expected options');
    const page = await new Visitor(t.app).get('/shop/p/ceramic-pour-over-set');
    expect(page.body).toContain('€');
    await store.send('PUT', '/api/config/store-settings', { ...(res.json() as object), currency: 'USD' });
  });

  it('team members with roles: admin only; the last admin stays', async () => {
    expect((await store.get('/api/config/team')).statusCode).toBe(403);
    const add = await admin.send('POST', '/api/config/team', {
      email: 'new@example.com',
      displayName: 'New',
      role: Role.EDITOR,
      password: 'long enough pw',
    });
    expect(add.statusCode).toBe(201);
    expect(
      (await admin.send('POST', '/api/config/team', { email: 'NEW@example.com', role: Role.EDITOR, password: 'long enough pw' })).json()
        .message,
    ).toBe('This team member already exists');
    expect(
      (await admin.send('POST', '/api/config/team', { email: 'bad', role: Role.EDITOR, password: 'long enough pw' })).json().message,
    ).toBe('Please enter a valid email');
    const role = await admin.send('PUT', `/api/config/team/${add.json().id}`, { role: Role.WEBSITE_MANAGER });
    expect(role.json().role).toBe(Role.WEBSITE_MANAGER);
    const me = (await admin.get('/api/config/team')).json().members.find((m: { email: string }) => m.email === OWNER.email);
    const demote = await admin.send('PUT', `/api/config/team/${me.id}`, { role: Role.EDITOR });
    expect(demote.json().message).toBe('A website needs at least one admin.');
    expect((await admin.send('DELETE', `/api/config/team/${add.json().id}`)).statusCode).toBe(200);
    const log = (await admin.get('/api/config/audit?entity=account')).json().entries.map((e: { action: string }) => e.action);
    expect(log).toEqual(['team.remove', 'team.role', 'team.add']);
  });
});
