import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { schema } from '../../../src/db/index.js';
import { newId } from '../../../src/db/ids.js';
import { CollectionType } from '../../../src/core/enums.js';
import { slugify } from '../../../src/core/slug.js';
import { platform as pm } from '../../../src/core/messages.js';
import { RESERVED_URL_IDS, reservedUrlIdsOf } from '../../../src/server/platform/settings.js';

/** Url ids taken by a route that the hand-kept list never named. */
const ROUTE_ONLY = ['forms', 'members', 'order-confirmed', 'newsletter', 'uploads'];

describe.each(APP_KINDS)('reserved url ids on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  let stores: string;
  /** Every url id the app's routes reserve beyond the hand-kept list, as the running app has them. */
  let fromRoutes: string[];

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
    stores = `/api/content-service/product/1.1/websites/${t.seed.websiteId}/products`;
    fromRoutes = [...reservedUrlIdsOf(t.app.routeTable)].filter((id) => !RESERVED_URL_IDS.includes(id) && slugify(id) === id);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const urlIdsOf = async () =>
    (await owner.get('/api/config/collections')).json().collections.map((c: { urlId: string }) => c.urlId) as string[];

  it("takes the reserved set from the app's own route table", () => {
    for (const id of ROUTE_ONLY) expect(fromRoutes).toContain(id);
    expect(fromRoutes.some((id) => id.startsWith(':') || id.includes('*'))).toBe(false);
  });

  it('store creation: a reserved url id sent is refused, one from the title takes the next free suffix', async () => {
    const forms = await owner.send('POST', stores, { title: 'Forms' });
    expect(forms.statusCode).toBe(201);
    expect(forms.json()).toMatchObject({ urlId: 'forms-1', fullUrl: '/forms-1' });
    // The demo already has a 'members' collection (the member area's page), so its suffix is taken from there.
    expect((await owner.send('POST', stores, { title: 'Members' })).json().urlId).toBe('members-1');
    expect((await owner.send('POST', stores, { title: 'Order confirmed' })).json().urlId).toBe('order-confirmed-1');
    for (const urlId of ['forms', 'members', 'Order Confirmed', ...fromRoutes]) {
      const res = await owner.send('POST', stores, { title: 'A store', urlId });
      expect(res.statusCode, urlId).toBe(400);
      expect(res.json().message).toBe(pm.tagExists('URL'));
      expect(res.json().errors).toEqual({ urlId: pm.tagExists('URL') });
    }
    for (const id of fromRoutes) expect((await owner.send('POST', stores, { title: id })).json().urlId).toMatch(new RegExp(`^${id}-\\d+$`));
    const ids = await urlIdsOf();
    expect(ids.filter((id) => id === 'forms' || id === 'order-confirmed')).toEqual([]);
    expect(ids.filter((id) => id === 'members')).toHaveLength(1);
  });

  it('page creation (settings): a reserved url id sent is refused, one from the title takes the next free suffix', async () => {
    const made = await owner.send('POST', '/api/config/pages', { title: 'Forms' });
    expect(made.statusCode).toBe(201);
    expect(made.json().urlId).toMatch(/^forms-\d+$/);
    expect((await owner.send('POST', '/api/config/pages', { title: 'Members' })).json().urlId).toMatch(/^members-\d+$/);
    expect((await owner.send('POST', '/api/config/pages', { title: 'Order confirmed' })).json().urlId).toMatch(/^order-confirmed-\d+$/);
    for (const urlId of ['forms', 'Members', 'order-confirmed', ...fromRoutes]) {
      const res = await owner.send('POST', '/api/config/pages', { title: 'A page', urlId });
      expect(res.statusCode, urlId).toBe(400);
      expect(res.json().message).toBe(pm.tagExists('URL'));
      expect(res.json().errors).toEqual({ urlId: pm.tagExists('URL') });
    }
    for (const id of fromRoutes)
      expect((await owner.send('POST', '/api/config/pages', { title: id })).json().urlId).toMatch(new RegExp(`^${id}-\\d+$`));
    // A free url id sent is kept as sent.
    expect((await owner.send('POST', '/api/config/pages', { title: 'A page', urlId: 'forms-and-more' })).json().urlId).toBe(
      'forms-and-more',
    );
  });

  it('page creation (editor): a reserved url id sent is refused (409), one from the title takes the next free suffix', async () => {
    const made = await owner.send('POST', '/api/editor/pages', { title: 'Forms' });
    expect(made.statusCode).toBe(201);
    expect(made.json().page.urlId).toMatch(/^forms-\d+$/);
    expect((await owner.send('POST', '/api/editor/pages', { title: 'Members' })).json().page.urlId).toMatch(/^members-\d+$/);
    expect((await owner.send('POST', '/api/editor/pages', { title: 'Order confirmed' })).json().page.urlId).toMatch(
      /^order-confirmed-\d+$/,
    );
    for (const urlId of ['forms', 'members', 'order-confirmed', '/newsletter', ...fromRoutes]) {
      const res = await owner.send('POST', '/api/editor/pages', { title: 'A page', urlId });
      expect(res.statusCode, urlId).toBe(409);
      expect(res.json().message).toBe(pm.tagExists('page'));
    }
    for (const id of fromRoutes)
      expect((await owner.send('POST', '/api/editor/pages', { title: id })).json().page.urlId).toMatch(new RegExp(`^${id}-\\d+$`));
  });

  it('course creation (members): a reserved url id, sent or from the title, is refused like a taken one (409)', async () => {
    for (const body of [
      { title: 'Forms' },
      { title: 'A course', urlId: 'members' },
      { title: 'A course', urlId: 'order-confirmed' },
      ...fromRoutes.filter((id) => /^[a-z0-9][a-z0-9-]*$/.test(id)).map((urlId) => ({ title: 'A course', urlId })),
    ]) {
      const res = await owner.send('POST', '/api/members/courses', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(409);
      expect(res.json().errors).toEqual({ urlId: 'That address is already used by another page.' });
    }
    const ok = await owner.send('POST', '/api/members/courses', { title: 'Forms of joinery' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().urlId).toBe('forms-of-joinery');
  });

  it('changing a collection or page url id to a reserved one is refused', async () => {
    const page = (await owner.send('POST', '/api/config/pages', { title: 'Renamed later' })).json();
    const collection = (await owner.send('POST', stores, { title: 'Renamed store' })).json();
    const [row] = await t.database.db.select().from(schema.collections).where(eq(schema.collections.id, collection.id));
    for (const urlId of ['forms', 'members', 'order-confirmed', ...fromRoutes]) {
      const viaPages = await owner.send('PUT', `/api/config/pages/${page.id}`, { version: page.version, title: 'Renamed later', urlId });
      expect(viaPages.statusCode, urlId).toBe(400);
      expect(viaPages.json().message).toBe(pm.tagExists('URL'));
      expect(viaPages.json().errors).toEqual({ urlId: pm.tagExists('URL') });
      const viaCollections = await owner.send('PUT', `/api/config/collections/${collection.id}`, {
        version: row!.version,
        title: 'Renamed store',
        urlId,
      });
      expect(viaCollections.statusCode, urlId).toBe(400);
      expect(viaCollections.json().message).toBe(pm.tagExists('URL'));
    }
    // Nothing changed, and a free url id still goes through.
    const ok = await owner.send('PUT', `/api/config/pages/${page.id}`, {
      version: page.version,
      title: 'Renamed later',
      urlId: 'forms-page',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().urlId).toBe('forms-page');
    const [after] = await t.database.db.select().from(schema.collections).where(eq(schema.collections.id, collection.id));
    expect(after!.urlId).toBe(collection.urlId);
    expect(after!.version).toBe(row!.version);
  });

  it('existing collections that already hold a reserved url id are left alone and keep working', async () => {
    // Data from before a route existed: a page at /forms and the demo's member-area page at /members.
    const id = newId();
    await t.database.db.insert(schema.collections).values({
      id,
      websiteId: t.seed.websiteId,
      urlId: 'forms',
      title: 'Old forms page',
      type: CollectionType.PAGE,
      typeName: 'page',
      ordering: 90,
      settings: { body: '<p>Old.</p>' },
    });
    const [members] = await t.database.db.select().from(schema.collections).where(eq(schema.collections.urlId, 'members'));
    expect(members).toBeDefined();

    const list = await owner.get('/api/config/collections');
    expect(list.statusCode).toBe(200);
    expect(list.json().collections.filter((c: { urlId: string }) => c.urlId === 'forms' || c.urlId === 'members')).toHaveLength(2);
    expect((await owner.get('/api/config/pages')).statusCode).toBe(200);
    expect((await owner.get('/api/editor/pages')).statusCode).toBe(200);

    // Saving them with their url id unchanged (sent or not) works and keeps it.
    const [old] = await t.database.db.select().from(schema.collections).where(eq(schema.collections.id, id));
    const saved = await owner.send('PUT', `/api/config/pages/${id}`, {
      version: old!.version,
      title: 'Old forms page, edited',
      urlId: 'forms',
      body: '<p>Edited.</p>',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ urlId: 'forms', title: 'Old forms page, edited' });
    const again = await owner.send('PUT', `/api/config/collections/${id}`, { version: saved.json().version, title: 'Old forms page' });
    expect(again.statusCode).toBe(200);
    expect(again.json().urlId).toBe('forms');
    const m = await owner.send('PUT', `/api/config/collections/${members!.id}`, {
      version: members!.version,
      title: members!.title,
      urlId: 'members',
    });
    expect(m.statusCode).toBe(200);
    expect(m.json().urlId).toBe('members');

    // A new page from the same title still skips both the taken and the reserved ids.
    const next = await owner.send('POST', '/api/config/pages', { title: 'Forms' });
    expect(next.statusCode).toBe(201);
    expect(next.json().urlId).not.toBe('forms');

    // The public paths answer without a server error, the routes' own pages included.
    const visitor = new Visitor(t.app);
    for (const path of [
      '/forms',
      '/members',
      '/forms/no-such-form',
      '/members/join/no-such-area',
      '/order-confirmed/nope',
      '/newsletter/unsubscribe/nope',
    ]) {
      expect((await visitor.get(path)).statusCode, path).toBeLessThan(500);
    }
  });
});
