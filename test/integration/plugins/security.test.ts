import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { schema } from '../../../src/db/index.js';

const XSS = `<script>alert("x")</script><img src=x onerror=alert(1)>`;

describe('security defaults', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp('pglite', { TRUST_PROXY: 'true' });
    const id = t.seed.productIds['ceramic-pour-over-set']!;
    await t.database.db
      .update(schema.items)
      .set({ title: `Pour-Over ${XSS}` })
      .where(eq(schema.items.id, id));
    const post = (await t.database.db.select().from(schema.items).where(eq(schema.items.urlId, 'a-better-morning-cup')))[0]!;
    await t.database.db.insert(schema.comments).values({ id: 'c'.repeat(24), itemId: post.id, authorName: XSS, body: XSS });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('escapes a hostile product title on the list, the product page and the cart', async () => {
    const v = new Visitor(t.app);
    for (const url of ['/shop', '/shop/p/ceramic-pour-over-set']) {
      const res = await v.get(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('<script>alert("x")</script>');
      expect(res.body).not.toContain('<img src=x onerror');
      expect(res.body).toContain('&lt;script&gt;');
    }
    await v.send('POST', '/api/commerce/shopping-cart/entries', {
      itemId: t.seed.productIds['ceramic-pour-over-set'],
      sku: 'POUR-OVER',
      quantity: 1,
    });
    const cart = await v.get('/cart');
    expect(cart.body).not.toContain('<script>alert("x")</script>');
  });

  it('escapes hostile comment text', async () => {
    const res = await new Visitor(t.app).get('/journal/a-better-morning-cup');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<img src=x onerror');
  });

  it('marks session cookies HttpOnly, SameSite=Lax and Secure behind HTTPS', async () => {
    const v = new Visitor(t.app);
    const https = { 'x-forwarded-proto': 'https' };
    await v.get('/', https);
    const crumbRes = await t.app.inject({ method: 'GET', url: '/', headers: https });
    const crumb = crumbRes.cookies.find((c) => c.name === 'crumb')!;
    expect(crumb.secure).toBe(true);
    expect(crumb.sameSite).toBe('Lax');
    const login = await v.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password }, { headers: https });
    const owner = login.cookies.find((c) => c.name === 'tessera_owner')!;
    expect(owner).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
    const add = await v.send(
      'POST',
      '/api/commerce/shopping-cart/entries',
      { itemId: t.seed.productIds['houseplant-field-guide'], sku: 'EBOOK-PLANTS', quantity: 1 },
      { headers: https },
    );
    const cart = add.cookies.find((c) => c.name === 'tessera_cart')!;
    expect(cart).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax' });
  });

  it('never logs cookies or tokens', async () => {
    const { buildApp } = await import('../../../src/server/app.js');
    const { loadConfig } = await import('../../../src/server/config.js');
    const lines: string[] = [];
    const app = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'info' }),
      database: t.database,
      logger: { level: 'info', stream: { write: (l: string) => lines.push(l) } },
    });
    await app.inject({
      method: 'GET',
      url: '/health',
      headers: {
        cookie: 'tessera_owner=SECRET-OWNER-TOKEN; crumb=SECRETCRUMBVALUE123',
        'x-csrf-token': 'SECRETCRUMBVALUE123',
        authorization: 'Bearer SECRET',
      },
    });
    await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json', cookie: 'crumb=SECRETCRUMBVALUE123', 'x-csrf-token': 'SECRETCRUMBVALUE123' },
      payload: JSON.stringify({ email: 'a@b.c', password: 'SECRET-PASSWORD' }),
    });
    await app.inject({ method: 'GET', url: '/config/login/link?token=SECRET-LINK-TOKEN' });
    await app.close();
    const all = lines.join('\n');
    // One line per request, with the path but not the query.
    expect(all).toContain('"path":"/config/login/link"');
    expect(lines.length).toBeGreaterThan(1);
    expect(all).not.toContain('SECRET');
  });
});
