/**
 * What search engines and browsers get from the storefront's HTTP answers (issue 42): soft 404s answered
 * 404, trailing-slash and letter-case addresses sent to the page's own (and never to another host), the
 * favicon and missing files answered without the HTML page, ETag and 304 for anonymous pages (none for a
 * visitor with a cart), POST/redirect/GET for plain form posts, and noindex on private pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { seedForms } from '../../../src/server/forms/seed.js';
import { ADDRESS, CARD, confirmed } from '../../helpers/orders.js';

const ORIGIN = 'https://shop.example';
const FORM = { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' };
const NOINDEX_META = '<meta name="robots" content="noindex">';

describe.each(APP_KINDS)('HTTP for search engines and browsers on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory', PUBLIC_URL: ORIGIN, TRUST_PROXY: '1' });
    await seedForms(t.database, t.seed.websiteId);
  }, 90_000);
  afterAll(async () => t?.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const post = (v: Visitor, url: string, fields: Record<string, string>, ip: string) =>
    v.send('POST', url, new URLSearchParams(fields).toString(), { crumb: false, headers: { ...FORM, 'x-forwarded-for': ip } });

  /** The site's 404 page: status, noindex header and tag, and not a self-canonical indexable page. */
  const isNotFoundPage = (res: Awaited<ReturnType<typeof get>>) => {
    expect(res.statusCode, res.body.slice(0, 200)).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.body).toContain(NOINDEX_META);
    expect(res.body).toContain('Page not found');
  };

  describe('soft 404s', () => {
    it('an unknown tag or category on a list, and a page past the last, answer the 404 page', async () => {
      for (const url of ['/journal?tag=no-such-tag', '/journal?category=Nothing', '/journal?page=2', '/shop?page=3', '/shop?tag=zzz']) {
        isNotFoundPage(await get(url));
      }
    });

    it('a known tag and category with posts stay 200 and indexable', async () => {
      for (const [url, title] of [
        ['/journal?tag=linen', 'How we choose our linen'],
        ['/journal?category=Guides', 'A better morning cup'],
      ] as const) {
        const res = await get(url);
        expect(res.statusCode).toBe(200);
        expect(res.body).toContain(title);
        expect(res.body).not.toContain(NOINDEX_META);
      }
      expect((await get('/journal')).statusCode).toBe(200);
      expect((await get('/shop?page=1')).statusCode).toBe(200);
    });
  });

  describe('trailing slashes and letter case', () => {
    it('answer a 301 to the page’s own address, the query kept', async () => {
      const cases: Array<[string, string]> = [
        ['/shop/', '/shop'],
        ['/Shop', '/shop'],
        ['/SHOP/?page=1&utm_source=x', '/shop?page=1&utm_source=x'],
        ['/shop/p/linen-camp-shirt/', '/shop/p/linen-camp-shirt'],
        ['/Shop/P/Linen-Camp-Shirt', '/shop/p/linen-camp-shirt'],
        ['/journal/how-we-choose-our-linen/', '/journal/how-we-choose-our-linen'],
        ['/Journal/How-We-Choose-Our-Linen', '/journal/how-we-choose-our-linen'],
        ['/Cart', '/cart'],
        ['/search/?q=linen', '/search?q=linen'],
      ];
      for (const [from, to] of cases) {
        const res = await get(from);
        expect(res.statusCode, from).toBe(301);
        expect(res.headers.location, from).toBe(to);
        // The address it names is the page itself.
        expect((await get(to)).statusCode, to).toBe(200);
      }
    });

    it('an address that names no page stays a 404 (no redirect to a guess)', async () => {
      for (const url of ['/no-such-page/', '/Nope', '/shop/p/no-such-product/', '/shop/linen-camp-shirt/']) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.headers.location).toBeUndefined();
      }
    });

    it('never redirects to another host (//host paths, backslashes, encoded slashes)', async () => {
      for (const url of [
        '//evil.example/',
        '//evil.example',
        '///evil.example/',
        '//evil.example/shop/',
        '/%2F%2Fevil.example/',
        '/\\evil.example/',
        '//Shop',
      ]) {
        const res = await t.app.inject({ method: 'GET', url, headers: { host: 'shop.example' } });
        const location = res.headers.location;
        if (location !== undefined) {
          expect(String(location), url).toMatch(/^\/(?![/\\])/);
          expect(String(location)).not.toContain('evil.example');
        }
        expect([301, 302, 303, 307, 308].includes(res.statusCode) && !String(location ?? '').startsWith('/'), url).toBe(false);
      }
    });

    it('a POST to a non-canonical address is not redirected', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/Shop/', payload: {} });
      expect(res.statusCode).not.toBe(301);
    });
  });

  describe('favicon and missing files', () => {
    it('/favicon.ico answers the site’s icon, not the HTML 404', async () => {
      const res = await get('/favicon.ico');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^image\//);
      expect(res.body).toContain('<svg');
      expect(res.body).not.toContain('Page not found');
      expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
    });

    it('the owner’s own favicon is where /favicon.ico goes', async () => {
      const db = t.database.db;
      await db.execute(sql`update websites set settings = settings || '{"faviconUrl":"/uploads/icon.png"}'::jsonb`);
      try {
        const res = await get('/favicon.ico');
        expect(res.statusCode).toBe(302);
        expect(res.headers.location).toBe('/uploads/icon.png');
      } finally {
        await db.execute(sql`update websites set settings = settings - 'faviconUrl'`);
      }
      expect((await get('/favicon.ico')).statusCode).toBe(200);
    });

    it('a missing static file gets a short plain 404', async () => {
      for (const url of [
        '/assets/no-such-bundle.js',
        '/static/site.css',
        '/theme/missing.png',
        '/logo.png',
        '/journal/missing.jpg',
        '/wp-login.php',
      ]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type'], url).toMatch(/^text\/plain/);
        expect(res.body.length, url).toBeLessThan(100);
        expect(res.body).not.toContain('<html');
      }
    });
  });

  describe('ETag, 304 and the back/forward cache', () => {
    it('an anonymous page is revalidatable: no-cache with a strong ETag, 304 on a match without a new policy', async () => {
      for (const encoding of ['br', 'gzip', 'identity']) {
        t.app.pageCache.clear();
        const headers = { 'accept-encoding': encoding };
        const first = await get('/shop/p/linen-camp-shirt', headers);
        expect(first.statusCode).toBe(200);
        const cc = String(first.headers['cache-control']);
        expect(cc).toContain('no-cache');
        expect(cc).not.toContain('no-store');
        const etag = String(first.headers.etag);
        expect(etag).toMatch(/^"[^"]+"$/);
        // A fresh render (the page cache emptied) has a new nonce but the same tag: the tag leaves the nonce out.
        t.app.pageCache.clear();
        const second = await get('/shop/p/linen-camp-shirt', headers);
        expect(second.headers['content-security-policy']).not.toBe(first.headers['content-security-policy']);
        expect(second.headers.etag).toBe(etag);
        // From the render and from the page cache alike.
        for (let i = 0; i < 2; i++) {
          const again = await get('/shop/p/linen-camp-shirt', { ...headers, 'if-none-match': etag });
          expect(again.statusCode).toBe(304);
          expect(again.body).toBe('');
          expect(again.headers.etag).toBe(etag);
          expect(again.headers['content-security-policy']).toBeUndefined();
          expect(String(again.headers['cache-control'])).toContain('no-cache');
        }
        // Another tag (a changed page) gets the whole page.
        const changed = await get('/shop/p/linen-camp-shirt', { ...headers, 'if-none-match': '"something-else"' });
        expect(changed.statusCode).toBe(200);
        expect(changed.rawPayload.length).toBeGreaterThan(1000);
      }
    });

    it('a HEAD carries the same tag and is answered 304 on a match', async () => {
      const etag = String((await get('/journal')).headers.etag);
      const head = await t.app.inject({ method: 'HEAD', url: '/journal', headers: { 'if-none-match': etag } });
      expect(head.statusCode).toBe(304);
      expect(head.headers.etag).toBe(etag);
    });

    it('the tag follows the content: an edit gives a new tag', async () => {
      const before = String((await get('/journal')).headers.etag);
      await t.database.db.execute(sql`update collections set title = 'Journal of makers' where url_id = 'journal'`);
      const after = await get('/journal', { 'if-none-match': before });
      expect(after.statusCode).toBe(200);
      expect(after.headers.etag).not.toBe(before);
      await t.database.db.execute(sql`update collections set title = 'Journal' where url_id = 'journal'`);
    });

    it('a page carrying a visitor’s cart is private, no-store, with no ETag and no 304', async () => {
      const v = new Visitor(t.app);
      await v.crumb();
      const etag = String((await get('/shop/p/linen-camp-shirt')).headers.etag);
      const added = await post(
        v,
        '/api/commerce/shopping-cart/entries',
        { itemId: t.seed.productIds['linen-camp-shirt']!, 'option.Size': 'S', 'option.Color': 'Sand', quantity: '1' },
        '10.42.0.1',
      );
      expect(added.statusCode).toBe(303);
      for (const url of ['/shop/p/linen-camp-shirt', '/shop', '/cart']) {
        const res = await v.get(url, { 'if-none-match': etag });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['cache-control'], url).toMatch(/no-store/);
        expect(res.headers.etag, url).toBeUndefined();
      }
    });

    it('an owner’s pages are never kept', async () => {
      const owner = new Visitor(t.app);
      expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
      const res = await owner.get('/journal');
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toMatch(/no-store/);
      expect(res.headers.etag).toBeUndefined();
    });
  });

  describe('POST/redirect/GET for plain form posts', () => {
    it('a contact form post answers 303 to a thanks page; reloading that sends nothing again', async () => {
      const v = new Visitor(t.app);
      const crumb = await v.crumb();
      const count = async () =>
        Number((await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from form_submissions`))[0]!.n);
      const before = await count();
      const res = await post(
        v,
        '/api/form/submit/contact-form',
        { crumb, pagePath: '/contact', 'f.name.0': 'Ada', 'f.name.1': 'L', 'f.email': 'ada@example.com', 'f.message': 'Hello' },
        '10.42.1.1',
      );
      expect(res.statusCode, res.body).toBe(303);
      const location = String(res.headers.location);
      expect(location).toMatch(/^\/forms\/contact-form\/sent\?back=/);
      expect(await count()).toBe(before + 1);
      for (let i = 0; i < 2; i++) {
        const thanks = await v.get(location);
        expect(thanks.statusCode).toBe(200);
        expect(thanks.body).toContain('Thank you! We will get back to you soon.');
        expect(thanks.body).toContain('href="/contact"');
        expect(thanks.body).toContain(NOINDEX_META);
      }
      expect(await count()).toBe(before + 1);
      // The way back is a path on this site only.
      const elsewhere = await v.get('/forms/contact-form/sent?back=//evil.example/');
      expect(elsewhere.body).not.toContain('evil.example');
    });

    it('a plain restock sign-up answers 303 to a thanks page', async () => {
      const productId = t.seed.productIds['linen-camp-shirt']!;
      const variant = (
        await rows<{ id: string }>(
          t.database.db,
          sql`select id from product_variants where item_id = ${productId} and qty_in_stock = 0 and not unlimited limit 1`,
        )
      )[0]!.id;
      const v = new Visitor(t.app);
      await v.crumb();
      const res = await post(
        v,
        '/api/site-users/account/notifications/restock',
        { productId, variantId: variant, email: 'prg-restock@example.com', honeypot: '' },
        '10.42.2.1',
      );
      expect(res.statusCode, res.body).toBe(303);
      const location = String(res.headers.location);
      expect(location.startsWith('/restock/signed-up?')).toBe(true);
      const thanks = await v.get(location);
      expect(thanks.statusCode).toBe(200);
      expect(thanks.body).toContain('href="/shop/p/linen-camp-shirt"');
      expect(thanks.body).toContain(NOINDEX_META);
      expect((await rows(t.database.db, sql`select 1 from restock_sign_ups where email = 'prg-restock@example.com'`)).length).toBe(1);
    });

    it('the popup’s plain newsletter sign-up answers 303 to a thanks page', async () => {
      const owner = new Visitor(t.app);
      expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
      const popup = {
        enabled: true,
        title: 'Ten percent off',
        text: 'Join the list.',
        imageUrl: '',
        imageAlt: '',
        action: 'newsletter',
        buttonText: 'Sign Up',
        buttonUrl: '',
        placeholder: 'Email Address',
        successText: 'Glad you are here!',
        listId: null,
        anchor: 'bottom-right',
        trigger: 'delay',
        delaySeconds: 0,
        scrollPercent: 50,
        pages: 'all',
        showAgainDays: 0,
        captcha: true,
      };
      expect((await owner.send('PUT', '/api/config/engagement/popup', popup)).statusCode).toBe(200);
      const v = new Visitor(t.app);
      await v.crumb();
      const res = await v.send(
        'POST',
        '/api/engagement/newsletter',
        new URLSearchParams({ email: 'prg-news@example.com', honeypot: '' }).toString(),
        {
          crumb: false,
          headers: { ...FORM, 'x-forwarded-for': '10.42.3.1', referer: 'http://localhost/journal' },
        },
      );
      expect(res.statusCode, res.body).toBe(303);
      const location = String(res.headers.location);
      expect(location.startsWith('/newsletter/signed-up?')).toBe(true);
      const thanks = await v.get(location);
      expect(thanks.statusCode).toBe(200);
      expect(thanks.body).toContain('Glad you are here!');
      expect(thanks.body).toContain('href="/journal"');
    });
  });

  describe('descriptions', () => {
    it('a page without a description of its own is described by its own words, not the site description', async () => {
      const siteDescription = (await rows<{ d: string }>(t.database.db, sql`select settings->>'siteDescription' as d from websites`))[0]!.d;
      const description = (html: string) => /<meta name="description" content="([^"]*)"/.exec(html)?.[1];
      const faq = description((await get('/faq')).body);
      expect(faq).toContain('How long does shipping take?');
      expect(faq).not.toBe(siteDescription);
      expect(description((await get('/about')).body)).toContain('Fernhill Supply Co. is a small shop in Portland');
      // The home page keeps the site's description.
      expect(description((await get('/')).body)).toBe(siteDescription);
    });
  });

  describe('private pages', () => {
    it('checkout, the cart, order status and account pages say noindex and carry no empty canonical or og:url', async () => {
      for (const url of ['/checkout', '/cart', '/account', '/account/login', '/order-status', '/order-confirmed/no-such-order']) {
        const res = await get(url);
        expect(res.statusCode, url).toBeLessThan(500);
        if (!String(res.headers['content-type']).startsWith('text/html')) continue;
        expect(res.headers['x-robots-tag'], url).toBe('noindex');
        expect(res.body, url).toContain(NOINDEX_META);
        expect(res.body, url).not.toMatch(/<link rel="canonical" href="">|<meta property="og:url" content="">/);
        const canonical = /<link rel="canonical" href="([^"]*)">/.exec(res.body)?.[1];
        if (canonical !== undefined) expect(canonical, url).toMatch(/^https:\/\/shop\.example\//);
      }
    });

    it('an order confirmation says noindex and names no canonical address', async () => {
      const v = new Visitor(t.app);
      const line = { itemId: t.seed.productIds['houseplant-field-guide']!, sku: 'EBOOK-PLANTS', quantity: 1 };
      expect((await v.send('POST', '/api/commerce/shopping-cart/entries', line)).statusCode).toBe(200);
      const placed = await v.send(
        'POST',
        '/api/checkout/place-order',
        await confirmed(v, { email: 'ada@example.com', shippingAddress: ADDRESS, payment: CARD, idempotencyKey: `http-seo-${Date.now()}` }),
      );
      expect(placed.statusCode, placed.body).toBe(200);
      const order = placed.json() as { confirmationUrl?: string };
      expect(order.confirmationUrl).toMatch(/^\/order-confirmed\//);
      const res = await get(order.confirmationUrl!);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('Order confirmed');
      expect(res.body).toContain(NOINDEX_META);
      expect(res.body).not.toContain('rel="canonical"');
      expect(res.body).not.toContain('property="og:url"');
      expect(res.headers['cache-control']).toMatch(/no-store/);
      expect(res.headers.etag).toBeUndefined();
    });
  });
});
