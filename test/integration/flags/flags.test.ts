import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, ne, sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { schema } from '../../../src/db/index.js';
import { FEATURES } from '../../../src/core/features.js';
import { MASKED_PASSWORD_PLACEHOLDER, UPGRADE_DESTINATIONS } from '../../../src/core/preview.js';
import { PREVIEW_COOKIE, SAFE_MODE_COOKIE } from '../../../src/core/cookies.js';
import { SESSION_RECORDER_MOCK_ID } from '../../../src/core/session-recording.js';
import { createVisitorCookie } from '../../../src/core/cookies.js';
import { featureFlags } from '../../../src/core/messages.js';
import { FLAGS_DATA_ID } from '../../../src/server/flags/page.js';
import { confirmed } from '../../helpers/orders.js';

const CARD_PAYMENT = { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Gift Buyer' };

const INJECTED_HEADER = '<script id="owner-injected-head">window.__injected = 1;</script>';
const INJECTED_FOOTER = '<div id="owner-injected-footer">Injected footer</div>';

/** The flags data island of a rendered page. */
function island(html: string): {
  internal: boolean;
  experiments: Array<{ name: string; key: string; variant: string | null; source: string; store: unknown }>;
  analytics: Record<string, unknown>;
  recording: Record<string, unknown>;
} {
  const m = new RegExp(`<script type="application/json" id="${FLAGS_DATA_ID}">([^<]*)</script>`).exec(html);
  expect(m, 'the page carries the flags island').not.toBeNull();
  return JSON.parse(m![1]!);
}

const setCookieNames = (res: { headers: Record<string, unknown> }): string[] => {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return list.map((c) => String(c).split('=')[0]!);
};

/** Asks until `ok` holds (every 100 ms, for up to 4 seconds) and gives the last answer either way. */
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

describe.each(APP_KINDS)('flags: features, experiments, preview and safe mode on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  const switches = async (features: Record<string, boolean>) => {
    const res = await owner.send('PUT', '/api/flags/features', { features });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().features as Array<{ key: string; enabled: boolean }>;
  };
  const itemId = async (urlId: string) =>
    (await t.database.db.select({ id: schema.items.id }).from(schema.items).where(eq(schema.items.urlId, urlId)))[0]!.id;

  // A themes folder with the live theme and a second one the owner can preview.
  const themes = mkdtempSync(join(tmpdir(), 'tessera-themes-'));
  beforeAll(async () => {
    cpSync('themes/default', join(themes, 'live'), { recursive: true });
    cpSync('themes/default', join(themes, 'autumn'), { recursive: true });
    const region = join(themes, 'autumn', 'site.region');
    writeFileSync(region, readFileSync(region, 'utf8').replace(/(<body[^>]*>)/, '$1<p id="autumn-theme">Autumn theme preview</p>'));
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory', THEME_DIR: join(themes, 'live') });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
    expect((await owner.send('PUT', '/api/site-header-footer', { header: INJECTED_HEADER, footer: INJECTED_FOOTER })).statusCode).toBe(200);
    await t.database.db
      .update(schema.collections)
      .set({ settings: { body: '<p>About us</p>' } })
      .where(eq(schema.collections.urlId, 'about'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(themes, { recursive: true, force: true });
  });

  it('lists every feature for the owner and refuses bad switches and visitors', async () => {
    const list = (await owner.get('/api/flags/features')).json().features as Array<{ key: string; code: number }>;
    expect(list.map((f) => f.code)).toEqual(FEATURES.map((f) => f.code));
    const unknown = await owner.send('PUT', '/api/flags/features', { features: { teleport: true } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('teleport is not one of the expected options');
    const notBool = await owner.send('PUT', '/api/flags/features', { features: { giftCards: 'off' } });
    expect(notBool.statusCode).toBe(400);
    expect(notBool.json().message).toBe('Each switch is on (true) or off (false).');
    const visitor = new Visitor(t.app);
    expect((await visitor.send('PUT', '/api/flags/features', { features: { giftCards: false } })).statusCode).toBe(401);
    expect((await visitor.get('/api/flags/features')).statusCode).toBe(401);
  });

  it('a switched-off feature hides its routes (404), and the templates see the same switch', async () => {
    const visitor = new Visitor(t.app);
    const giftCard = await itemId('gift-card');
    const coffee = await itemId('fresh-roast-coffee-subscription');
    const coffeeSku = (
      await t.database.db
        .select({ sku: schema.productVariants.sku })
        .from(schema.productVariants)
        .where(eq(schema.productVariants.itemId, coffee))
    )[0]!.sku;

    // All on (the defaults): the routes answer and the blocks render.
    expect((await visitor.get('/shop/p/gift-card')).statusCode).toBe(200);
    expect((await visitor.get('/shop')).body).toContain('/shop/p/gift-card');
    expect((await visitor.get('/members')).statusCode).toBe(403);
    expect((await visitor.get('/api/instalments/modal/de_DE')).statusCode).toBe(400);
    expect((await visitor.get('/shop/p/linen-camp-shirt')).body).toContain('instalment-pill');
    const about = await eventually(
      () => visitor.get('/about'),
      (r) => r.body.includes('About us'),
    );
    expect(about.statusCode).toBe(200);
    expect((await visitor.get('/shop?format=json')).json().features).toMatchObject({
      giftCards: true,
      subscriptions: true,
      memberAreas: true,
      donationBlock: true,
    });

    // A shopper puts a gift card in the cart while gift cards are on (checkout refuses it once they are off).
    const giftSkuOn = (
      await t.database.db
        .select({ sku: schema.productVariants.sku })
        .from(schema.productVariants)
        .where(eq(schema.productVariants.itemId, giftCard))
    )[0]!.sku;
    const holder = new Visitor(t.app);
    const added = await holder.send('POST', '/api/commerce/shopping-cart/entries', { itemId: giftCard, sku: giftSkuOn, quantity: 1 });
    expect(added.statusCode, added.body).toBeLessThan(300);
    expect((await holder.send('POST', '/api/checkout/quote', {})).statusCode).toBe(200);

    // The US merchant's brand off: no pill; the routes stay while the other brand is on.
    await switches({ instalmentsAfterpay: false });
    const noPill = await visitor.get('/shop/p/linen-camp-shirt');
    expect(noPill.body).not.toContain('instalment-pill');
    expect((await visitor.get('/api/instalments/modal/en_GB')).statusCode).not.toBe(404);
    const states = await switches({
      giftCards: false,
      subscriptions: false,
      instalmentsClearpay: false,
      memberAreas: false,
      donationBlock: false,
    });
    expect(states.find((f) => f.key === 'giftCards')!.enabled).toBe(false);

    // Gift cards: the page, the card in the list and adding one to a cart.
    expect((await visitor.get('/shop/p/gift-card')).statusCode).toBe(404);
    expect((await visitor.get('/shop')).body).not.toContain('/shop/p/gift-card');
    const giftSku = (
      await t.database.db
        .select({ sku: schema.productVariants.sku })
        .from(schema.productVariants)
        .where(eq(schema.productVariants.itemId, giftCard))
    )[0]!.sku;
    expect(
      (await visitor.send('POST', '/api/commerce/shopping-cart/entries', { itemId: giftCard, sku: giftSku, quantity: 1 })).statusCode,
    ).toBe(404);
    const code = await visitor.send('POST', '/api/checkout/quote', { giftCardCode: 'GIFT-CODE-1' });
    expect(code.statusCode).toBe(400);
    expect(code.json().message).toBe('That gift card code is not valid.');
    // The gift card already in a cart cannot be checked out: quote and place order say why; nothing is placed.
    const quoteOff = await holder.send('POST', '/api/checkout/quote', {});
    expect(quoteOff.statusCode).toBe(400);
    expect(quoteOff.json().message).toBe(featureFlags.GIFT_CARDS_OFF);
    const ordersBefore = (await t.database.db.select({ id: schema.orders.id }).from(schema.orders)).length;
    const placeOff = await holder.send(
      'POST',
      '/api/checkout/place-order',
      await confirmed(holder, { email: 'gift@example.com', payment: CARD_PAYMENT }),
      { headers: { 'idempotency-key': 'flags-gift-off-1' } },
    );
    expect(placeOff.statusCode).toBe(400);
    expect(placeOff.json().message).toBe(featureFlags.GIFT_CARDS_OFF);
    expect((await t.database.db.select({ id: schema.orders.id }).from(schema.orders)).length).toBe(ordersBefore);
    // A cart without a gift card checks out as before.
    const shopper = new Visitor(t.app);
    const shirtId = await itemId('linen-camp-shirt');
    expect(
      (await shopper.send('POST', '/api/commerce/shopping-cart/entries', { itemId: shirtId, sku: 'SHIRT-S-NAVY', quantity: 1 })).statusCode,
    ).toBeLessThan(300);
    expect((await shopper.send('POST', '/api/checkout/quote', {})).statusCode).toBe(200);
    // Subscriptions: the cart subscription call and its page.
    expect((await visitor.send('POST', '/api/3/commerce/cart/subscription', { itemId: coffee, sku: coffeeSku, qty: 1 })).statusCode).toBe(
      404,
    );
    expect((await visitor.get('/checkout/subscription')).statusCode).toBe(404);
    // Instalments, both brands off: the area's routes and the pill.
    expect((await visitor.get('/api/instalments/modal/en_US')).statusCode).toBe(404);
    const shirt = await visitor.get('/shop/p/linen-camp-shirt');
    expect(shirt.statusCode).toBe(200);
    expect(shirt.body).not.toContain('instalment-pill');
    // Member areas: the member-area page is not found rather than access-denied.
    expect((await visitor.get('/members')).statusCode).toBe(404);
    // Beta blocks (the donation block) follow their switch in the page editor's layouts: donation-block.test.ts.
    // Page bodies are rich text (cleaned: no block markup or script), so they carry no blocks to hide.
    // The templates read the same source of truth.
    expect((await visitor.get('/shop?format=json')).json().features).toMatchObject({
      giftCards: false,
      subscriptions: false,
      instalmentsAfterpay: false,
      memberAreas: false,
      donationBlock: false,
      commerce: true,
    });

    // Switched back on, everything returns.
    await switches({
      giftCards: true,
      subscriptions: true,
      instalmentsAfterpay: true,
      instalmentsClearpay: true,
      memberAreas: true,
      donationBlock: true,
    });
    expect((await visitor.get('/shop/p/linen-camp-shirt')).body).toContain('instalment-pill');
    expect((await visitor.get('/shop/p/gift-card')).statusCode).toBe(200);
    expect((await holder.send('POST', '/api/checkout/quote', {})).statusCode).toBe(200);
    expect((await visitor.send('POST', '/api/3/commerce/cart/subscription', { itemId: coffee, sku: coffeeSku, qty: 1 })).statusCode).toBe(
      200,
    );
    expect((await visitor.get('/members')).statusCode).toBe(403);
  });

  it('an experiment override on a staging host sets the variant; on a production host it is ignored', async () => {
    const bad = await owner.send('PUT', '/api/flags/experiments', {
      experiments: [{ name: 'hero', variants: [{ name: 'a', weight: 50 }] }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('An experiment needs at least two variants.');
    const dup = await owner.send('PUT', '/api/flags/experiments', {
      experiments: [
        {
          name: 'hero',
          variants: [
            { name: 'a', weight: 50 },
            { name: 'a', weight: 50 },
          ],
        },
      ],
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().message).toBe('This variant already exists');
    const saved = await owner.send('PUT', '/api/flags/experiments', {
      experiments: [
        {
          name: 'hero',
          variants: [
            { name: 'control', weight: 100 },
            { name: 'bold', weight: 0 },
          ],
        },
        {
          name: 'session-recording',
          variants: [
            { name: 'true', weight: 0 },
            { name: 'false', weight: 100 },
          ],
        },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const cookie = `ss_cvr=${encodeURIComponent(createVisitorCookie(Date.now(), Math.random))}`;

    // Staging host: the override sets the variant (templates and the island), and the island says to store it.
    const staging = await t.app.inject({
      method: 'GET',
      url: '/shop?experiment.hero=bold',
      headers: { host: 'stage.fernhill.example', cookie },
    });
    expect(staging.statusCode).toBe(200);
    const si = island(staging.body);
    expect(si.internal).toBe(true);
    expect(si.experiments.find((e) => e.name === 'hero')).toMatchObject({
      key: 'tessera.experiment.hero',
      variant: 'bold',
      source: 'override',
      store: { kind: 'set', variant: 'bold' },
    });
    const sjson = await t.app.inject({
      method: 'GET',
      url: '/shop?format=json&experiment.hero=bold',
      headers: { host: 'qa2.fernhill.example', cookie },
    });
    expect(sjson.json().experiments.hero).toBe('bold');
    // A reset on a staging host removes the stored override and goes back to the stable assignment.
    const reset = island(
      (await t.app.inject({ method: 'GET', url: '/shop?experiment.hero=reset', headers: { host: 'stage.fernhill.example', cookie } })).body,
    );
    expect(reset.experiments.find((e) => e.name === 'hero')).toMatchObject({
      variant: 'control',
      source: 'hash',
      store: { kind: 'remove' },
    });

    // Production host: the same override is ignored; the stable assignment stands (weight 0 is never assigned).
    const prod = await t.app.inject({
      method: 'GET',
      url: '/shop?experiment.hero=bold',
      headers: { host: 'www.fernhill.example', cookie },
    });
    const pi = island(prod.body);
    expect(pi.internal).toBe(false);
    expect(pi.experiments.find((e) => e.name === 'hero')).toMatchObject({ variant: 'control', source: 'hash', store: null });
    const pjson = await t.app.inject({
      method: 'GET',
      url: '/shop?format=json&experiment.hero=bold',
      headers: { host: 'www.fernhill.example', cookie },
    });
    expect(pjson.json().experiments.hero).toBe('control');
    // The island also carries the analytics options (the defaults) and the recording facts.
    expect(pi.analytics).toEqual({
      fireEvents: true,
      logging: false,
      beacon: true,
      validate: false,
      sourceEnvironment: 'prod',
      serviceUrl: '',
    });
    expect(pi.recording).toEqual({ country: 'US', timeZone: 'America/New_York', toggle: false });
  });

  it('a visitor never receives the preview cookie, and a forged one shows nothing unpublished', async () => {
    await t.database.db
      .update(schema.items)
      .set({ status: 'draft', title: 'Secret draft post' })
      .where(eq(schema.items.urlId, 'caring-for-walnut'));
    const visitor = new Visitor(t.app);
    for (const path of ['/', '/shop', '/shop/p/linen-camp-shirt', '/journal', '/cart', '/about', '/journal/caring-for-walnut']) {
      const res = await visitor.get(path);
      expect(setCookieNames(res), path).not.toContain(PREVIEW_COOKIE);
    }
    const asked = await visitor.send('POST', '/api/flags/preview', { drafts: true });
    expect(asked.statusCode).toBe(401);
    expect(setCookieNames(asked)).not.toContain(PREVIEW_COOKIE);
    expect((await visitor.get('/journal/caring-for-walnut')).statusCode).toBe(404);
    // A visitor who forges the cookie still sees only published content.
    visitor.cookies.set(PREVIEW_COOKIE, 'v1|drafts|');
    const forged = await visitor.get('/journal/caring-for-walnut');
    expect(forged.statusCode).toBe(404);
    expect(forged.body).not.toContain('Secret draft post');

    // The owner turns preview on and sees the draft; turning it off hides it again.
    const on = await owner.send('POST', '/api/flags/preview', { drafts: true });
    expect(on.statusCode).toBe(200);
    expect(setCookieNames(on)).toContain(PREVIEW_COOKIE);
    const seen = await owner.get('/journal/caring-for-walnut');
    expect(seen.statusCode).toBe(200);
    expect(seen.body).toContain('Secret draft post');
    expect(seen.body).toContain('only you see this');
    // Lists too: the journal list (and its JSON view) holds the draft and a scheduled post for the owner only.
    const [scheduled] = await t.database.db
      .select({ urlId: schema.items.urlId, collectionId: schema.items.collectionId })
      .from(schema.items)
      .where(
        and(
          eq(schema.items.status, 'published'),
          ne(schema.items.urlId, 'caring-for-walnut'),
          eq(schema.items.collectionId, sql`(select collection_id from items where url_id = 'caring-for-walnut' limit 1)`),
        ),
      )
      .limit(1);
    expect(scheduled).toBeTruthy();
    await t.database.db
      .update(schema.items)
      .set({ status: 'scheduled', title: 'Scheduled spring post' })
      .where(eq(schema.items.urlId, scheduled!.urlId));
    const ownerList = await owner.get('/journal');
    expect(ownerList.statusCode).toBe(200);
    expect(ownerList.body).toContain('Secret draft post');
    expect(ownerList.body).toContain('Scheduled spring post');
    const ownerJson = (await owner.get('/journal?format=json')).json() as { items: Array<{ title: string }> };
    expect(ownerJson.items.map((i) => i.title)).toEqual(expect.arrayContaining(['Secret draft post', 'Scheduled spring post']));
    for (const v of [visitor, new Visitor(t.app)]) {
      const list = await v.get('/journal');
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain('Secret draft post');
      expect(list.body).not.toContain('Scheduled spring post');
      expect((await v.get('/journal?format=json')).body).not.toContain('Secret draft post');
    }
    const badTheme = await owner.send('POST', '/api/flags/preview', { drafts: true, theme: 'no-such-theme' });
    expect(badTheme.statusCode).toBe(400);
    // Another theme folder: the owner sees the site in it; a visitor still gets the live theme.
    expect((await owner.get('/api/flags/preview')).json()).toMatchObject({ active: true, drafts: true, themes: ['autumn', 'live'] });
    expect((await owner.send('POST', '/api/flags/preview', { drafts: false, theme: 'autumn' })).statusCode).toBe(200);
    expect((await owner.get('/shop')).body).toContain('Autumn theme preview');
    expect((await owner.get('/journal/caring-for-walnut')).statusCode).toBe(404);
    expect((await visitor.get('/shop')).body).not.toContain('Autumn theme preview');
    expect((await owner.send('DELETE', '/api/flags/preview')).statusCode).toBe(200);
    expect((await owner.get('/journal/caring-for-walnut')).statusCode).toBe(404);
    // Preview off: the owner's list is the visitors' again.
    const after = await owner.get('/journal');
    expect(after.body).not.toContain('Secret draft post');
    expect(after.body).not.toContain('Scheduled spring post');
    await t.database.db.update(schema.items).set({ status: 'published' }).where(eq(schema.items.urlId, scheduled!.urlId));
  });

  it('safe mode removes injected header and footer code from the page for the owner only', async () => {
    const visitor = new Visitor(t.app);
    const plain = await visitor.get('/about');
    expect(plain.body).toContain('owner-injected-head');
    expect(plain.body).toContain('owner-injected-footer');
    // A visitor asking for safe mode (query or cookie) changes nothing.
    expect((await visitor.get('/about?safe-mode=1')).body).toContain('owner-injected-head');
    visitor.cookies.set(SAFE_MODE_COOKIE, '1');
    const forged = await visitor.get('/about');
    expect(forged.body).toContain('owner-injected-head');
    expect((await visitor.send('PUT', '/api/flags/safe-mode', { enabled: true })).statusCode).toBe(401);

    // The owner: by query parameter...
    const q = await owner.get('/about?safe-mode=1');
    expect(q.statusCode).toBe(200);
    expect(q.body).not.toContain('owner-injected-head');
    expect(q.body).not.toContain('owner-injected-footer');
    expect(q.body).toContain('About us');
    expect(q.body).toContain('Safe mode');
    // ... and by the cookie the owner's switch sets.
    const on = await owner.send('PUT', '/api/flags/safe-mode', { enabled: true });
    expect(setCookieNames(on)).toContain(SAFE_MODE_COOKIE);
    expect((await owner.get('/about')).body).not.toContain('owner-injected-head');
    expect((await owner.get('/about?safe-mode=0')).body).toContain('owner-injected-head');
    const off = await owner.send('PUT', '/api/flags/safe-mode', { enabled: false });
    expect(off.statusCode).toBe(200);
    expect((await owner.get('/about')).body).toContain('owner-injected-head');
    const bad = await owner.send('PUT', '/api/flags/safe-mode', { enabled: 'yes' });
    expect(bad.statusCode).toBe(400);
  });

  it('masked password placeholders never carry the secret, and saving the placeholder keeps it', async () => {
    const put = await owner.send('PUT', '/api/config/captcha', {
      kind: 'recaptcha-v2',
      siteKey: 'site-key-1',
      secretKey: 'real-secret-value',
    });
    expect(put.statusCode, put.body).toBe(200);
    const got = await owner.get('/api/config/captcha');
    expect(got.body).not.toContain('real-secret-value');
    expect(got.json().captcha.secretKey).toBe(MASKED_PASSWORD_PLACEHOLDER);
    expect(
      (
        await owner.send('PUT', '/api/config/captcha', {
          kind: 'recaptcha-v2',
          siteKey: 'site-key-2',
          secretKey: MASKED_PASSWORD_PLACEHOLDER,
        })
      ).statusCode,
    ).toBe(200);
    const [site] = await t.database.db.select().from(schema.websites);
    expect((site!.settings.captcha as { secretKey: string }).secretKey).toBe('real-secret-value');
    await owner.send('PUT', '/api/config/captcha', { kind: 'altcha' });
  });

  it('billing shows the self-hosted plan and the upgrade destinations resolve', async () => {
    const b = await owner.get('/api/flags/billing');
    expect(b.statusCode).toBe(200);
    expect(b.json().plan).toMatchObject({ name: 'Self-hosted', selfHosted: true });
    const urls = (b.json().destinations as Array<{ url: string }>).map((d) => d.url);
    expect(urls).toEqual([UPGRADE_DESTINATIONS.trialUpgrade, UPGRADE_DESTINATIONS.upgrade]);
    for (const u of ['/config/settings/billing', ...urls]) expect((await owner.get(u)).statusCode, u).toBe(200);
  });

  it('getId answers the mock id (skip) without a recorder, and the schema endpoint validates events', async () => {
    const id = await new Visitor(t.app).get('/api/commerce/fullstory/getId');
    expect(id.headers['content-type']).toMatch(/^application\/json/);
    expect(id.json()).toBe(SESSION_RECORDER_MOCK_ID);
    expect(id.headers['x-recorder-script']).toBeUndefined();
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/v1/schemas/add_to_cart',
      payload: { eventContent: JSON.stringify({ cart_value: 1200, currency_code: 'USD' }) },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ schemaName: 'add_to_cart', valid: true });
    const bad = await t.app.inject({ method: 'POST', url: '/api/v1/schemas/add_to_cart', payload: { cart_value: -5 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ valid: false });
    expect(Object.keys(bad.json().errors)).toContain('cart_value');
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/v1/schemas/add_to_cart',
      headers: { 'content-type': 'text/plain' },
      payload: '{nope',
    });
    expect(notJson.statusCode).toBe(400);
  });

  it('splits the shop funnel by the variant the events carry', async () => {
    const send = async (visitorId: string, variant: string, names: string[]) => {
      const cookie = `ss_cvr=${visitorId}|1700000000000|1700000000000|1700000000000|1`;
      const events = names.map((n) => ({
        eventSchemaName: n,
        eventContent: JSON.stringify({ page_path: '/shop', experiments: [`hero:${variant}`, 'session-recording:false'] }),
      }));
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/events',
        headers: { cookie, 'content-type': 'application/json' },
        payload: JSON.stringify(events),
      });
      expect(res.statusCode, res.body).toBe(202);
    };
    await send('visitor-a1', 'control', ['product_page_visit', 'add_to_cart']);
    await send('visitor-a2', 'control', ['product_page_visit']);
    await send('visitor-b1', 'bold', ['product_page_visit', 'add_to_cart', 'view_cart']);
    await t.app.analytics.ingest.drain();
    const today = new Date().toISOString().slice(0, 10);
    const res = await owner.get(`/api/flags/experiments/hero/funnel?from=${today}&to=${today}`);
    expect(res.statusCode, res.body).toBe(200);
    const byVariant = Object.fromEntries(
      (res.json().variants as Array<{ variant: string; visitors: number; steps: Array<{ step: string; visitors: number }> }>).map((v) => [
        v.variant,
        v,
      ]),
    );
    expect(byVariant.control!.visitors).toBe(2);
    expect(byVariant.control!.steps.map((s) => s.visitors)).toEqual([2, 1, 0, 0, 0]);
    expect(byVariant.bold!.visitors).toBe(1);
    expect(byVariant.bold!.steps.map((s) => s.visitors)).toEqual([1, 1, 1, 0, 0]);
    expect((await owner.get(`/api/flags/experiments/hero/funnel?from=${today}&to=2000-01-01`)).statusCode).toBe(400);
    expect((await owner.get(`/api/flags/experiments/nope/funnel?from=${today}&to=${today}`)).statusCode).toBe(404);

    // The same split is the analytics dashboard's "by variant" view (the owner's analytics query).
    type Dash = {
      experiments: string[];
      byVariant: {
        experiment: string;
        variants: Array<{ variant: string; visitors: number; steps: Array<{ step: string; visitors: number }> }>;
      } | null;
      funnel: unknown[];
    };
    const dash = await owner.get(`/api/analytics/dashboard?from=${today}&to=${today}&experiment=hero`);
    expect(dash.statusCode, dash.body).toBe(200);
    const d = dash.json() as Dash;
    expect(d.experiments).toContain('hero');
    expect(d.funnel.length).toBe(5); // the whole funnel is still there
    expect(d.byVariant!.experiment).toBe('hero');
    const dv = Object.fromEntries(d.byVariant!.variants.map((v) => [v.variant, v]));
    expect(dv.control!.steps.map((s) => s.visitors)).toEqual([2, 1, 0, 0, 0]);
    expect(dv.bold!.steps.map((s) => s.visitors)).toEqual([1, 1, 1, 0, 0]);
    expect(d.byVariant!.variants.map((v) => v.variant)).toEqual(res.json().variants.map((v: { variant: string }) => v.variant));
    // Without a name, the first experiment is shown; an unknown name is refused in words; visitors get nothing.
    const first = (await owner.get(`/api/analytics/dashboard?from=${today}&to=${today}`)).json() as Dash;
    expect(first.byVariant!.experiment).toBe(first.experiments[0]);
    const unknown = await owner.get(`/api/analytics/dashboard?from=${today}&to=${today}&experiment=nope`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('No such experiment.');
    expect((await new Visitor(t.app).get(`/api/analytics/dashboard?from=${today}&to=${today}&experiment=hero`)).statusCode).toBe(401);
  });
});
