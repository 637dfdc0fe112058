import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { Writable } from 'node:stream';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS, testDatabase } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { OwnerService } from '../../../src/server/platform/owners.js';
import { Role } from '../../../src/core/enums.js';
import { platform as platformMessages } from '../../../src/core/messages.js';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/config.js';
import { seedDemo } from '../../../src/server/seed.js';
import { createStore } from '../../../src/web/admin/catalog/store-creation.js';
import type { PlacesProvider } from '../../../src/server/platform/places.js';

const PW = 'team member password';

async function ownerVisitor(t: TestApp, email: string, password = PW): Promise<Visitor> {
  const v = new Visitor(t.app);
  const res = await v.send('POST', '/api/auth/login', { email, password });
  expect(res.statusCode).toBe(200);
  return v;
}

/**
 * Asks until `ok` holds (every 100 ms, for up to 4 seconds) and gives the last answer either way, for the
 * caller's assertion to judge. The public pages keep the collection list per content version (pages/cache.ts),
 * which an owner's write moves, so the first ask normally already answers.
 */
async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  let v = await fn();
  if (ok(v)) return v;
  await vi
    .waitUntil(
      async () => {
        v = await fn();
        return ok(v);
      },
      { timeout: 4000, interval: 100 },
    )
    .catch(() => undefined);
  return v;
}

/** An api() for the admin's store-creation flow over inject. */
function injectApi(v: Visitor) {
  return async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const res = method === 'GET' ? await v.get(url) : await v.send(method as 'POST', url, body);
    if (res.statusCode >= 400) throw new Error(res.json().message);
    return res.json() as T;
  };
}

describe.each(APP_KINDS)('platform: owner settings on %s', (kind) => {
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
      billing: Role.BILLING,
    })) {
      await owners.create({ websiteId: t.seed.websiteId, email: `${name}@example.com`, password: PW, role });
      as[name] = await ownerVisitor(t, `${name}@example.com`);
    }
    admin = await ownerVisitor(t, OWNER.email, OWNER.password);
    as.admin = admin;
  });
  afterAll(async () => {
    await t?.close();
  });

  const auditCount = async () => Number((await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from audit_log`))[0]!.n);

  it('header/footer: admin and website manager read, only the admin writes (issue 21); the code reaches every public page; others refused', async () => {
    expect((await new Visitor(t.app).get('/api/site-header-footer')).statusCode).toBe(401);
    for (const who of ['editor', 'store', 'viewer', 'billing']) {
      expect((await as[who]!.get('/api/site-header-footer')).statusCode).toBe(403);
      expect((await as[who]!.send('PUT', '/api/site-header-footer', { header: 'x', footer: 'y' })).statusCode).toBe(403);
    }
    expect((await admin.get('/api/site-header-footer')).json()).toEqual({ header: '', footer: '' });
    const refused = await as.manager!.send('PUT', '/api/site-header-footer', {
      header: '<meta name="x-test" content="head">',
      footer: '<script>window.__footer=1</script>',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(platformMessages.CODE_INJECTION_ADMIN_ONLY);
    expect((await as.manager!.get('/api/site-header-footer')).statusCode).toBe(200);
    const before = await auditCount();
    const put = await admin.send('PUT', '/api/site-header-footer', {
      header: '<meta name="x-test" content="head">',
      footer: '<script>window.__footer=1</script>',
    });
    expect(put.statusCode).toBe(200);
    expect(await auditCount()).toBe(before + 1);
    expect((await admin.get('/api/site-header-footer')).json().header).toBe('<meta name="x-test" content="head">');
    const page = await new Visitor(t.app).get('/about');
    expect(page.body).toContain('<meta name="x-test" content="head">');
    // The admin's script carries the page's CSP nonce (plugins/csp.ts).
    const nonce = /'nonce-([^']+)'/.exec(String(page.headers['content-security-policy']))![1]!;
    expect(page.body).toContain(`<script nonce="${nonce}">window.__footer=1</script>`);
    const bad = await admin.send('PUT', '/api/site-header-footer', { header: 5, footer: '' });
    expect(bad.statusCode).toBe(400);
    expect((await admin.send('PUT', '/api/site-header-footer', { header: '', footer: '' }, { crumb: false })).statusCode).toBe(403);
  });

  it('multilingual: settings, status, languages, save and disconnect; roles enforced', async () => {
    expect((await admin.get('/api/multilingual/status')).json()).toMatchObject({ connected: false });
    const put = await admin.send('PUT', '/api/multilingual/languages', { languages: ['en-US', { code: 'fr', customCoded: true }, 'de'] });
    expect(put.statusCode).toBe(200);
    expect((await admin.get('/api/multilingual/languages')).json().languages).toEqual([
      { code: 'en-US', customCoded: false },
      { code: 'fr', customCoded: true },
      { code: 'de', customCoded: false },
    ]);
    expect((await admin.get('/api/multilingual/settings')).json()).toMatchObject({ primaryLanguage: 'en-US', connected: true });
    expect((await admin.get('/api/multilingual/status')).json()).toMatchObject({ connected: true, languageCount: 3 });
    const dup = await admin.send('PUT', '/api/multilingual/languages', { languages: ['fr', 'FR'] });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().message).toBe('This language already exists');
    const bad = await admin.send('PUT', '/api/multilingual/languages', { languages: ['not a language'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('not a language is not one of the expected options');
    expect((await as.editor!.send('PUT', '/api/multilingual/languages', { languages: ['fr'] })).statusCode).toBe(403);
    expect((await as.viewer!.get('/api/multilingual/settings')).statusCode).toBe(403);
    expect((await as.manager!.send('DELETE', '/api/multilingual/connection')).statusCode).toBe(200);
    expect((await admin.get('/api/multilingual/status')).json()).toMatchObject({ connected: false, languageCount: 0 });
  });

  it('commerce preferences: websiteId stripped, empty values filtered, written only when a value differs', async () => {
    expect((await admin.get('/api/v1/commerce-preferences/checkout')).json()).toEqual({});
    const first = await as.store!.send('PUT', '/api/v1/commerce-preferences/checkout', {
      websiteId: 'someone-else',
      guestCheckout: true,
      note: '',
      tipPercent: 15,
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ guestCheckout: true, tipPercent: 15 });
    expect(first.headers['x-preferences-written']).toBe('true');
    const read = (await admin.get('/api/v1/commerce-preferences/checkout')).json();
    expect(read).toEqual({ guestCheckout: true, tipPercent: 15 });
    const before = await auditCount();
    const same = await admin.send('PUT', '/api/v1/commerce-preferences/checkout', { guestCheckout: true, tipPercent: 15, websiteId: 'x' });
    expect(same.headers['x-preferences-written']).toBe('false');
    expect(await auditCount()).toBe(before);
    const [{ version: v1 }] = await rows<{ version: number }>(
      t.database.db,
      sql`select version from commerce_preferences where namespace = 'checkout'`,
    );
    const changed = await admin.send('PUT', '/api/v1/commerce-preferences/checkout', { tipPercent: 20 });
    expect(changed.json()).toEqual({ guestCheckout: true, tipPercent: 20 });
    expect(changed.headers['x-preferences-written']).toBe('true');
    const [{ version: v2 }] = await rows<{ version: number }>(
      t.database.db,
      sql`select version from commerce_preferences where namespace = 'checkout'`,
    );
    expect(v2).toBe(v1 + 1);
    expect(await auditCount()).toBe(before + 1);
    // Another namespace is separate; a bad namespace or a non-object is refused.
    expect((await admin.get('/api/v1/commerce-preferences/shipping')).json()).toEqual({});
    expect((await admin.get('/api/v1/commerce-preferences/bad%20name')).statusCode).toBe(400);
    expect((await admin.send('PUT', '/api/v1/commerce-preferences/checkout', [1, 2])).statusCode).toBe(400);
    expect((await as.editor!.get('/api/v1/commerce-preferences/checkout')).statusCode).toBe(403);
    expect((await as.viewer!.send('PUT', '/api/v1/commerce-preferences/checkout', { a: 1 })).statusCode).toBe(403);
  });

  it('creates stores with url ids from the title: collisions take the next free suffix, short titles the fallback', async () => {
    const url = `/api/content-service/product/1.1/websites/${t.seed.websiteId}/products`;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await admin.send('POST', url, { title: 'Market', navigationTitle: 'Market', description: '', enabled: true });
      expect(res.statusCode).toBe(201);
      ids.push(res.json().urlId);
      expect(res.json().id).toMatch(/^[0-9a-f]{24}$/);
    }
    expect(ids).toEqual(['market', 'market-1', 'market-2']);
    // The demo already has 'shop', so a new 'Shop' is shop-1, then shop-2.
    const shop = await as.store!.send('POST', url, { title: 'Shop' });
    expect(shop.json().urlId).toBe('shop-1');
    expect((await as.manager!.send('POST', url, { title: 'Shop' })).json().urlId).toBe('shop-2');
    expect((await admin.send('POST', url, { title: 'X' })).json().urlId).toBe('store');
    expect((await admin.send('POST', url, { title: '!!' })).json().urlId).toBe('store-1');
    // Reserved paths are never taken.
    expect((await admin.send('POST', url, { title: 'Cart' })).json().urlId).toBe('cart-1');
    expect((await admin.send('POST', url, { title: '' })).statusCode).toBe(400);
    expect((await as.editor!.send('POST', url, { title: 'Nope' })).statusCode).toBe(403);
    expect((await admin.send('POST', `/api/content-service/product/1.1/websites/other/products`, { title: 'Nope' })).statusCode).toBe(404);
    // The root category.
    const cat = await admin.send('POST', `${url}/${shop.json().id}/categories`, {
      displayName: 'Shop',
      parentCategoryId: null,
      type: 'ROOT',
      pageRendering: 'LIST_VIEW',
      displayIndex: 1,
    });
    expect(cat.statusCode).toBe(201);
    expect(cat.json()).toMatchObject({
      displayName: 'Shop',
      parentCategoryId: null,
      type: 'ROOT',
      pageRendering: 'LIST_VIEW',
      displayIndex: 1,
    });
    const twice = await admin.send('POST', `${url}/${shop.json().id}/categories`, { displayName: 'Again', type: 'ROOT' });
    expect(twice.statusCode).toBe(400);
    const badType = await admin.send('POST', `${url}/${shop.json().id}/categories`, { displayName: 'Again', type: 'LEAF' });
    expect(badType.json().message).toBe('LEAF is not one of the expected options');
    // The new store's page exists.
    const page = await eventually(
      () => new Visitor(t.app).get('/shop-1'),
      (r) => r.statusCode === 200,
    );
    expect(page.statusCode, page.body.slice(0, 300)).toBe(200);
  });

  it('site layout and navigation update; a new store goes first in the main navigation', async () => {
    const layout = (await as.editor!.get('/api/commondata/GetSiteLayout')).json();
    const titles = layout[0].links.map((l: { title: string }) => l.title);
    expect(layout[0].identifier).toBe('mainNav');
    expect(layout[0].links[0]).toEqual({
      title: 'Shop',
      collectionId: expect.any(String),
      externalLink: null,
      memberAreaId: null,
      children: [],
    });
    const created = await createStore(injectApi(admin), { websiteId: t.seed.websiteId, title: 'Outlet', addToNavigation: true });
    expect(created.urlId).toBe('outlet');
    const after = (await admin.get('/api/commondata/GetSiteLayout')).json();
    expect(after[0].links.map((l: { title: string }) => l.title)).toEqual(['Outlet', ...titles]);
    const home = await eventually(
      () => new Visitor(t.app).get('/'),
      (r) => r.body.includes('href="/outlet"'),
    );
    expect(home.body).toMatch(/<a href="\/outlet"[^>]*>Outlet<\/a>/);
    const badLink = await admin.send('POST', '/api/widget/UpdateNavigation', {
      fieldName: 'mainNav',
      templateId: 'default',
      navigation: { items: [{ title: 'Bad', externalLink: 'javascript:alert(1)' }] },
    });
    expect(badLink.statusCode).toBe(400);
    expect(badLink.json().message).toBe('Links must be formatted as example.com or https://example.com');
    const unknown = await admin.send('POST', '/api/widget/UpdateNavigation', {
      fieldName: 'mainNav',
      navigation: { items: [{ title: 'Gone', collectionId: 'nope' }] },
    });
    expect(unknown.json().message).toBe('nope is not a valid page URL');
    expect(
      (await as.store!.send('POST', '/api/widget/UpdateNavigation', { fieldName: 'mainNav', navigation: { items: [] } })).statusCode,
    ).toBe(403);
    // With no main navigation, store creation stops before adding the link.
    const empty = await admin.send('POST', '/api/widget/UpdateNavigation', {
      fieldName: 'secondaryNav',
      navigation: { items: [{ title: 'Ext', externalLink: 'https://example.com' }] },
    });
    expect(empty.statusCode).toBe(200);
    const saved = (await admin.get('/api/commondata/GetSiteLayout')).json();
    expect(saved.find((e: { identifier: string }) => e.identifier === 'secondaryNav').links[0].externalLink).toBe('https://example.com');
    const noNav = async <T>(method: string, url: string, body?: unknown): Promise<T> =>
      (url.endsWith('GetSiteLayout') ? [] : await injectApi(admin)(method, url, body)) as T;
    await expect(createStore(noNav, { websiteId: t.seed.websiteId, title: 'Lonely', addToNavigation: true })).rejects.toThrow(
      'Unable to find site main navigation',
    );
  });

  it('places: not configured without a key; with a provider it answers, and details without a tracking context logs the spec message', async () => {
    const res = await admin.get('/api/google-maps/places/autocomplete?input=1%20Main');
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe('Address lookup is not configured: set GOOGLE_MAPS_API_KEY to turn it on.');
    expect((await new Visitor(t.app).get('/api/google-maps/places/autocomplete?input=x')).statusCode).toBe(401);

    // A separate app with a log we can read, and a local stand-in for the provider.
    const lines: string[] = [];
    const stream = new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) });
    const database = await testDatabase(kind);
    const seed = await seedDemo(database);
    await new OwnerService(database).ensureAdmin(seed.websiteId, OWNER.email, OWNER.password);
    const app = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'warn', RATE_LIMIT_STORE: 'memory' }),
      database,
      logger: { level: 'warn', stream } as unknown as Record<string, unknown>,
    });
    void pino;
    await app.ready();
    try {
      const stub: PlacesProvider = {
        autocomplete: async ({ input }) => ({ predictions: [{ placeId: 'p1', description: `${input}, Portland` }] }),
        details: async ({ placeId }) => ({
          placeId,
          formattedAddress: '1 Main St',
          addressLine1: '1 Main St',
          addressLine2: '',
          city: 'Portland',
          region: 'OR',
          postalCode: '97201',
          country: 'US',
          mapLat: 45.5,
          mapLng: -122.6,
        }),
      };
      app.places.provider = stub;
      const v = new Visitor(app);
      expect((await v.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
      expect((await v.get('/api/google-maps/places/autocomplete?input=1%20Main')).json()).toEqual({
        predictions: [{ placeId: 'p1', description: '1 Main, Portland' }],
      });
      expect((await v.get('/api/google-maps/places/details?placeId=p1&productPage=pdp&productSection=address')).json().city).toBe(
        'Portland',
      );
      expect(lines.join('')).not.toContain('Please provide a tracking context');
      expect((await v.get('/api/google-maps/places/details?placeId=p1')).statusCode).toBe(200);
      expect(lines.join('')).toContain('Please provide a tracking context when using Google Places API details to track cost');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
