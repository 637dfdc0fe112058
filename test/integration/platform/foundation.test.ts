import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';

describe.each(APP_KINDS)('foundation on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves the demo home page with the shop and a hidden cart pill', async () => {
    const v = new Visitor(t.app);
    const res = await v.get('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('Fernhill Supply Co.');
    expect(res.body).toContain('Linen Camp Shirt');
    expect(res.body).toMatch(/data-island="CartPill"/);
    expect(res.body).toMatch(/<a[^>]*class="cart-pill cart-pill--empty"[^>]*hidden/);
    expect(v.cookies.get('crumb')).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
  });

  it('renders a product page and answers ?format=json with its context', async () => {
    const v = new Visitor(t.app);
    const html = await v.get('/shop/p/ceramic-pour-over-set');
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('Ceramic Pour-Over Set');
    expect(html.body).toContain('$39.00');
    const json = await v.get('/shop/p/ceramic-pour-over-set?format=json');
    expect(json.statusCode).toBe(200);
    const ctx = json.json();
    expect(ctx.item.title).toBe('Ceramic Pour-Over Set');
    expect(ctx.item.structuredContent.onSale).toBe(true);
    expect(ctx.pageType).toBe(50);
    expect(ctx.website.siteTitle).toBe('Fernhill Supply Co.');
  });

  it('answers an unknown path with the not-found page (404, page type 100)', async () => {
    const v = new Visitor(t.app);
    const res = await v.get('/no-such-page');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('Page not found');
    expect((await v.get('/no-such-page?format=json')).json().pageType).toBe(100);
    expect((await v.get('/shop/p/no-such-product')).statusCode).toBe(404);
  });

  it('refuses a POST without the crumb with 403 {crumbFail: true} and changes nothing', async () => {
    const v = new Visitor(t.app);
    const body = { itemId: t.seed.productIds['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 };
    const res = await v.send('POST', '/api/commerce/shopping-cart/entries', body, { crumb: false });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ crumbFail: true });
    const wrong = await v.send('POST', '/api/commerce/shopping-cart/entries', body, {
      crumb: false,
      headers: { 'x-csrf-token': 'x'.repeat(24) },
    });
    expect(wrong.statusCode).toBe(403);
    expect(v.cookies.has('tessera_cart')).toBe(false);
    expect((await v.get('/api/commerce/shopping-cart')).json().totalQuantity).toBe(0);
  });

  it('adds to cart with the crumb, and the pill then shows 1 (its spoken label follows the first sync)', async () => {
    const v = new Visitor(t.app);
    const res = await v.send('POST', '/api/commerce/shopping-cart/entries', {
      itemId: t.seed.productIds['ceramic-pour-over-set'],
      sku: 'POUR-OVER',
      quantity: 1,
    });
    expect(res.statusCode).toBe(200);
    const { shoppingCart, newlyAdded } = res.json();
    expect(shoppingCart.totalQuantity).toBe(1);
    expect(shoppingCart.subtotalCents).toBe(3900);
    expect(newlyAdded.chosenVariant.sku).toBe('POUR-OVER');
    const page = await v.get('/');
    // The pill shows the count at once (its spoken label names it too); it is marked uninitialized until
    // the browser's first sync, which the browser tests follow.
    expect(page.body).toMatch(/cart-pill__count[^>]*>1</);
    expect(page.body).toContain('data-uninitialized');
  });

  it('signs an owner in, refuses a wrong password, and guards /config', async () => {
    const v = new Visitor(t.app);
    const guarded = await v.get('/config');
    expect(guarded.statusCode).toBe(303);
    expect(guarded.headers.location).toBe('/config/login?next=%2Fconfig');
    const wrong = await v.send('POST', '/api/auth/login', { email: OWNER.email, password: 'nope' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('That email and password do not match an account.');
    const ok = await v.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password });
    expect(ok.statusCode).toBe(200);
    const session = ok.cookies.find((c) => c.name === 'tessera_owner');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    expect((await v.get('/config')).statusCode).toBe(200);
    expect((await v.get('/api/auth/me')).json().role).toBe(1);
  });

  it('answers health and sets security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // Helmet's set (built once in app.ts) on a page, an API answer, a not-found page and a refused post alike.
    const v = new Visitor(t.app);
    for (const r of [
      await v.get('/'),
      await v.get('/api/commerce/shopping-cart'),
      await v.get('/no-such-page'),
      await t.app.inject({ method: 'POST', url: '/api/commerce/shopping-cart/entries' }),
    ]) {
      expect(r.headers).toMatchObject({
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-site',
        'origin-agent-cluster': '?1',
        'referrer-policy': 'no-referrer',
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'x-content-type-options': 'nosniff',
        'x-dns-prefetch-control': 'off',
        'x-download-options': 'noopen',
        'x-permitted-cross-domain-policies': 'none',
        'x-xss-protection': '0',
      });
      expect(r.headers['x-powered-by']).toBeUndefined();
      expect(r.headers['cross-origin-embedder-policy']).toBeUndefined();
    }
  });

  it('rejects malformed JSON and oversized bodies with 4xx, not 500', async () => {
    const v = new Visitor(t.app);
    const bad = await v.send('POST', '/api/commerce/shopping-cart/entries', '{"itemId":', {});
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('The request body is not valid JSON.');
    const huge = await v.send(
      'POST',
      '/api/commerce/shopping-cart/entries',
      JSON.stringify({ itemId: 'x', sku: 'y', additionalFields: 'a'.repeat(70_000) }),
    );
    expect(huge.statusCode).toBe(413);
  });
});
