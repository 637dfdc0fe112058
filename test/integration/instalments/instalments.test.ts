import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { schema } from '../../../src/db/index.js';
import { seedInstalmentPreferences } from '../../../src/server/instalments/index.js';
import { HttpModalSource, ModalService } from '../../../src/server/instalments/modal.js';
import {
  INSTALMENTS_PROVIDER,
  INSTALMENT_TEST_TOKENS,
  instalmentDeclineMessages,
} from '../../../src/server/payments/instalments-provider.js';

const ADD = '/api/commerce/shopping-cart/entries';
const PREFS = '/api/v1/commerce-preferences/instalments';

describe.each(APP_KINDS)('instalments on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  const setPrefs = async (value: Record<string, unknown>) => {
    const res = await owner.send('PUT', PREFS, value);
    expect(res.statusCode, res.body).toBe(200);
  };
  const merch = async (path: string) =>
    (await new Visitor(t.app).get(`${path}?format=json`)).json().productMerchandisingContext as Record<string, Record<string, unknown>>;
  const itemId = async (urlId: string) =>
    (await t.database.db.select({ id: schema.items.id }).from(schema.items).where(eq(schema.items.urlId, urlId)))[0]!.id;

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('seeds the demo preferences with the store and serves the per-item context with the product', async () => {
    expect(await seedInstalmentPreferences(t.database.db, t.seed.websiteId), 'the demo seed wrote them already').toBe(false);
    const shirt = await itemId('linen-camp-shirt');
    const ctx = (await merch('/shop/p/linen-camp-shirt'))[shirt]!;
    expect(ctx).toMatchObject({
      afterPayAvailable: true,
      afterPayMin: '100',
      afterPayMax: '200000',
      shopperLanguage: 'en-US',
      stripeAccountCountry: 'US',
    });
    // The scarcity context stays beside it.
    expect(ctx.scarcityEnabled).toBe(true);
    // Product lists serve it for every product.
    const list = await merch('/shop');
    expect(list[shirt]!.afterPayAvailable).toBe(true);
    expect(list[await itemId('houseplant-field-guide')]!.afterPayAvailable).toBe(false);
    expect(list[await itemId('fresh-roast-coffee-subscription')]!.afterPayAvailable).toBe(false);
    // The owner reads them through the platform's preferences call.
    expect((await owner.get(PREFS)).json()).toMatchObject({
      available: true,
      merchantCountry: 'US',
      limits: { USD: { min: 100, max: 200000 } },
    });
  });

  it('shows no pill and serves an unavailable context when the owner has no preferences or turns them off', async () => {
    await t.database.db.delete(schema.commercePreferences).where(eq(schema.commercePreferences.namespace, 'instalments'));
    const page = await new Visitor(t.app).get('/shop/p/linen-camp-shirt');
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('instalment-pill');
    expect((await merch('/shop/p/linen-camp-shirt'))[await itemId('linen-camp-shirt')]!.afterPayAvailable).toBe(false);
    expect(await seedInstalmentPreferences(t.database.db, t.seed.websiteId)).toBe(true);
    await setPrefs({ available: false });
    expect((await new Visitor(t.app).get('/shop/p/linen-camp-shirt')).body).not.toContain('instalment-pill');
    await setPrefs({ available: true });
    expect((await new Visitor(t.app).get('/shop/p/linen-camp-shirt')).body).toContain('instalment-pill');
  });

  it('draws the pill on the server for an eligible product, with the amounts in the store currency', async () => {
    const body = (await new Visitor(t.app).get('/shop/p/linen-camp-shirt')).body;
    // The lowest price ($68.00) before a variant is chosen: 4 x $17.00.
    expect(body).toContain('or 4 interest-free payments of $17.00 with');
    expect(body).toContain('role="img" aria-label="Afterpay"');
    expect(body).toMatch(/<button type="button" class="instalment-pill__info" aria-haspopup="dialog"[^>]*>more information<\/button>/);
    expect(body).toContain('data-instalment-locale="en_US"');
    // Not for digital products, services, gift cards or subscriptions.
    for (const p of ['houseplant-field-guide', 'bike-tune-up', 'gift-card', 'fresh-roast-coffee-subscription']) {
      expect((await new Visitor(t.app).get(`/shop/p/${p}`)).body, p).not.toContain('instalment-pill');
    }
  });

  it('follows the owner: out-of-range texts, other locales and brands, and nothing for unsupported countries', async () => {
    await setPrefs({ limits: { USD: { min: 100, max: 7000 } } });
    const pour = (await new Visitor(t.app).get('/shop/p/engraved-cutting-board')).body; // $95.00
    expect(pour).toContain('available for orders up to $70.00');
    expect(pour).not.toContain('interest-free payments');
    await setPrefs({ limits: { USD: { min: 9500, max: 20000 } } });
    expect((await new Visitor(t.app).get('/shop/p/engraved-cutting-board')).body).toContain('available for orders over $95.00');
    await setPrefs({ limits: { USD: { min: 9499, max: 20000 } } });
    expect((await new Visitor(t.app).get('/shop/p/engraved-cutting-board')).body).toContain('or 4 interest-free payments of $23.75 with');

    await setPrefs({ merchantCountry: 'GB' });
    const gb = (await new Visitor(t.app).get('/shop/p/engraved-cutting-board')).body;
    expect(gb).toContain('aria-label="Clearpay"');
    expect(gb).toContain('data-instalment-locale="en_GB"');
    await setPrefs({ merchantCountry: 'DE' });
    expect((await new Visitor(t.app).get('/shop/p/engraved-cutting-board')).body).not.toContain('instalment-pill');
    await setPrefs({ merchantCountry: 'US', limits: { EUR: { min: 100, max: 200000 } } });
    expect((await new Visitor(t.app).get('/shop/p/engraved-cutting-board')).body, 'no limits for the store currency').not.toContain(
      'instalment-pill',
    );
    await setPrefs({ limits: { USD: { min: 100, max: 'lots' } } });
    const bad = await new Visitor(t.app).get('/shop/p/engraved-cutting-board');
    expect(bad.statusCode, 'malformed preferences never break a page').toBe(200);
    expect(bad.body).not.toContain('instalment-pill');
    await setPrefs({ available: false, limits: { USD: { min: 100, max: 200000 } } });
    expect((await new Visitor(t.app).get('/shop/p/engraved-cutting-board')).body).not.toContain('instalment-pill');
    await setPrefs({ available: true });
  });

  it('shows the cart pill for the subtotal only when every item is physical, and serves the per-item context with the cart', async () => {
    const v = new Visitor(t.app);
    await v.get('/shop/p/linen-camp-shirt');
    const shirt = await itemId('linen-camp-shirt');
    expect((await v.send('POST', ADD, { itemId: shirt, sku: 'SHIRT-M-SAND', quantity: 2, additionalFields: null })).statusCode).toBe(200);
    const cart = await v.get('/cart');
    // $136.00 in 4: 'or {installment} with'.
    expect(cart.body).toContain('or 4 interest-free payments of $34.00 with');
    const json = (await v.get('/cart?format=json')).json();
    expect(json.productMerchandisingContext[shirt]).toMatchObject({
      afterPayAvailable: true,
      afterPayMax: '200000',
      stripeAccountCountry: 'US',
    });

    const ebook = await itemId('houseplant-field-guide');
    expect((await v.send('POST', ADD, { itemId: ebook, sku: 'EBOOK-PLANTS', quantity: 1, additionalFields: null })).statusCode).toBe(200);
    expect((await v.get('/cart')).body, 'a mixed cart does not qualify').not.toContain('instalment-pill');
    expect((await v.get('/cart?format=json')).json().productMerchandisingContext[ebook].afterPayAvailable).toBe(false);
  });

  it('answers the local version when the provider modal cannot be loaded, and logs it', async () => {
    const warnings: Array<Record<string, unknown>> = [];
    const offline = { load: () => Promise.reject(new Error('getaddrinfo ENOTFOUND static.afterpay.com')) };
    const service = new ModalService(offline, { warn: (o) => warnings.push(o) });
    t.app.instalments.modal.useSource(offline);
    const res = await new Visitor(t.app).get('/api/instalments/modal/fr_CA');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ locale: 'fr_CA', brand: 'afterpay', source: 'local' });
    const unknown = await new Visitor(t.app).get('/api/instalments/modal/de_DE');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Unknown instalment locale.');
    // The service logs the failure once and remembers it.
    expect((await service.modal('en_GB')).source).toBe('local');
    expect((await service.modal('en_GB')).source).toBe('local');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ event: 'instalment-modal-load-failed', locale: 'en_GB', brand: 'clearpay' });
  });

  it('fetches the provider modal over HTTP through the route, with a time-out', async () => {
    const seen: string[] = [];
    // The slow provider answers only when the test ends, long after the route's time-out.
    const late: Array<() => void> = [];
    const server: Server = createServer((req, res) => {
      seen.push(req.url ?? '');
      if (req.url === '/slow/en_US.html') return void late.push(() => res.end('<p>late</p>'));
      if (req.url?.startsWith('/missing/')) {
        res.statusCode = 404;
        return res.end('not here');
      }
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<h1>Provider modal ${req.url}</h1>`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      t.app.instalments.modal.useSource(new HttpModalSource((locale) => `${base}/ok/${locale}.html`));
      const ok = await new Visitor(t.app).get('/api/instalments/modal/en_AU');
      expect(ok.json()).toEqual({ locale: 'en_AU', brand: 'afterpay', source: 'provider', html: '<h1>Provider modal /ok/en_AU.html</h1>' });
      await new Visitor(t.app).get('/api/instalments/modal/en_AU');
      expect(
        seen.filter((u) => u === '/ok/en_AU.html'),
        'remembered',
      ).toHaveLength(1);

      t.app.instalments.modal.useSource(new HttpModalSource((locale) => `${base}/missing/${locale}.html`));
      expect((await new Visitor(t.app).get('/api/instalments/modal/en_NZ')).json().source).toBe('local');
      t.app.instalments.modal.useSource(new HttpModalSource((locale) => `${base}/slow/${locale}.html`, 200));
      expect((await new Visitor(t.app).get('/api/instalments/modal/en_US')).json().source).toBe('local');
    } finally {
      for (const answer of late) answer();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('is a test-mode payment method of the checkout provider interface, within the owner limits', async () => {
    const provider = t.app.checkout.payments.get(INSTALMENTS_PROVIDER)!;
    expect(provider).toBeDefined();
    expect(provider.testMode).toBe(true);
    const method = (token: string) => ({ type: 'token' as const, provider: INSTALMENTS_PROVIDER, token });
    expect(t.app.checkout.payments.forMethod(method('x'))).toBe(provider);
    const base = { currency: 'USD', description: 'Order', now: Date.now() };
    const ok = await provider.charge({
      ...base,
      amountCents: 13600,
      method: method(INSTALMENT_TEST_TOKENS.APPROVED),
      idempotencyKey: `${kind}-a`,
    });
    expect(ok).toMatchObject({ status: 'succeeded', brand: 'afterpay', last4: '' });
    const again = await provider.charge({
      ...base,
      amountCents: 13600,
      method: method(INSTALMENT_TEST_TOKENS.APPROVED),
      idempotencyKey: `${kind}-a`,
    });
    expect(again.status === 'succeeded' && ok.status === 'succeeded' && again.paymentId === ok.paymentId).toBe(true);
    expect(
      await provider.charge({ ...base, amountCents: 13600, method: method(INSTALMENT_TEST_TOKENS.DECLINED), idempotencyKey: `${kind}-b` }),
    ).toEqual({
      status: 'declined',
      message: instalmentDeclineMessages.DECLINED,
    });
    expect(
      await provider.charge({ ...base, amountCents: 200001, method: method(INSTALMENT_TEST_TOKENS.APPROVED), idempotencyKey: `${kind}-c` }),
    ).toEqual({
      status: 'declined',
      message: instalmentDeclineMessages.NOT_AVAILABLE,
    });
    expect(
      await provider.charge({ ...base, amountCents: 100, method: method(INSTALMENT_TEST_TOKENS.APPROVED), idempotencyKey: `${kind}-d` }),
    ).toMatchObject({ status: 'declined' });
    if (ok.status === 'succeeded') expect(await provider.refund(ok.paymentId, 3400)).toEqual({ refundedCents: 3400 });
  });
});
