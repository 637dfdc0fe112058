/** Plain form posts (no JavaScript) on the real app, on both databases: CSRF, answers, the no-script path. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { commerce, forms as formMessages } from '../../../src/core/messages.js';
import { siteUserMessages } from '../../../src/server/platform/site-users.js';
import { NO_SCRIPT_LIMIT, NO_SCRIPT_MESSAGES } from '../../../src/server/site-page/no-script-guard.js';
import { seedForms } from '../../../src/server/forms/seed.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const SAME = { ...FORM, 'sec-fetch-site': 'same-origin' };

for (const kind of APP_KINDS) {
  describe(`plain form posts (${kind})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await testApp(kind, { RATE_LIMIT_STORE: 'memory', TRUST_PROXY: '1' });
      await seedForms(t.database, t.seed.websiteId);
    }, 60_000);
    afterAll(async () => t?.close());

    const post = (v: Visitor, url: string, fields: Record<string, string>, headers: Record<string, string> = SAME) =>
      v.send('POST', url, new URLSearchParams(fields).toString(), { crumb: false, headers });

    it('add to cart from a cached product page: same-origin without a crumb field is accepted, a cross-site post is refused in words', async () => {
      const v = new Visitor(t.app);
      await v.crumb();
      const itemId = t.seed.productIds['linen-camp-shirt']!;
      const ok = await post(v, '/api/commerce/shopping-cart/entries', {
        itemId,
        'option.Size': 'S',
        'option.Color': 'Sand',
        quantity: '2',
      });
      expect(ok.statusCode).toBe(303);
      expect(ok.headers.location).toBe('/cart');
      expect((await v.get('/api/commerce/shopping-cart')).json().totalQuantity).toBe(2);

      const missing = await post(v, '/api/commerce/shopping-cart/entries', { itemId, 'option.Size': 'S' });
      expect(missing.statusCode).toBe(400);
      expect(missing.body).toContain(commerce.UNABLE_TO_ADD_ITEM);
      expect(missing.body).toContain('Please select the Color option.');
      expect(missing.body).toContain('href="/shop/p/linen-camp-shirt"');

      const tooMany = await post(v, '/api/commerce/shopping-cart/entries', { itemId, 'option.Size': 'L', 'option.Color': 'Navy' });
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.body).toContain(commerce.NOT_ENOUGH_STOCK);

      for (const headers of [{ ...FORM, 'sec-fetch-site': 'cross-site' }, FORM, { ...FORM, origin: 'https://evil.example' }]) {
        const refused = await post(
          v,
          '/api/commerce/shopping-cart/entries',
          { itemId, 'option.Size': 'S', 'option.Color': 'Sand' },
          headers,
        );
        expect(refused.statusCode).toBe(403);
        expect(refused.headers['content-type']).toContain('text/html');
        expect(refused.body).toContain(commerce.crumbFailure(true));
      }
      // A crumb field that is present must match, same origin or not.
      expect(
        (
          await post(v, '/api/commerce/shopping-cart/entries', {
            crumb: 'x'.repeat(24),
            itemId,
            'option.Size': 'S',
            'option.Color': 'Sand',
          })
        ).statusCode,
      ).toBe(403);
      expect((await v.get('/api/commerce/shopping-cart')).json().totalQuantity).toBe(2);
    });

    it("a product's additional fields are asked on a page of their own, checked, kept on error, then added", async () => {
      const v = new Visitor(t.app);
      const crumb = await v.crumb();
      const itemId = t.seed.productIds['engraved-cutting-board']!;
      const ask = await post(v, '/api/commerce/shopping-cart/entries', { itemId, quantity: '2' });
      expect(ask.statusCode).toBe(200);
      expect(ask.body).toContain('<h1 class="page-title">Engraving</h1>');
      expect(ask.body).toMatch(/name="field.engraving-text"/);
      expect(ask.body).toContain('name="sku" value="BOARD-WALNUT"');
      expect(ask.body).toContain('name="quantity" value="2"');
      const missing = await post(
        v,
        '/api/commerce/shopping-cart/entries',
        {
          crumb,
          itemId,
          sku: 'BOARD-WALNUT',
          quantity: '2',
          fieldsStep: '1',
          'field.engraving-text': 'For Ada',
          'field.engraving-font': '',
        },
        FORM,
      );
      expect(missing.statusCode).toBe(400);
      expect(missing.body).toMatch(/class="field-error"[^>]*>Required</);
      expect(missing.body).toContain('value="For Ada"');
      expect((await v.get('/api/commerce/shopping-cart')).json().totalQuantity ?? 0).toBe(0);
      const ok = await post(
        v,
        '/api/commerce/shopping-cart/entries',
        {
          crumb,
          itemId,
          sku: 'BOARD-WALNUT',
          quantity: '2',
          fieldsStep: '1',
          'field.engraving-text': 'For Ada',
          'field.engraving-font': 'Serif',
        },
        FORM,
      );
      expect(ok.statusCode).toBe(303);
      const cart = (await v.get('/api/commerce/shopping-cart')).json();
      expect(cart.totalQuantity).toBe(2);
      expect(JSON.parse(cart.entries[0].additionalFields)).toEqual({ 'engraving-text': 'For Ada', 'engraving-font': 'Serif' });

      // A subscription product goes to its own checkout.
      const sub = await post(v, '/api/commerce/shopping-cart/entries', { itemId: t.seed.productIds['fresh-roast-coffee-subscription']! });
      expect(sub.statusCode).toBe(303);
      expect(sub.headers.location).toMatch(/^\/checkout\/subscription\?cartToken=/);
    });

    it('checkout: a plain post is checked on the server, the values kept, the messages next to the fields', async () => {
      const v = new Visitor(t.app);
      const crumb = await v.crumb();
      await post(v, '/api/commerce/shopping-cart/entries', { itemId: t.seed.productIds['ceramic-pour-over-set']!, quantity: '1' });
      const page = await v.get('/checkout');
      const key = page.body.match(/name="idempotencyKey" value="([^"]+)"/)?.[1];
      expect(key).toBeTruthy();
      expect(page.body).toMatch(
        /<form[^>]*action="\/api\/checkout\/form"[^>]*method="post"|<form[^>]*method="post"[^>]*action="\/api\/checkout\/form"/,
      );
      const res = await post(
        v,
        '/api/checkout/form',
        {
          crumb,
          idempotencyKey: key!,
          action: 'place',
          email: 'not-an-email',
          name: 'Sam',
          line1: '',
          city: 'Portland',
          country: 'US',
          cardNumber: '4242424242424242',
          cardCvc: '123',
        },
        FORM,
      );
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('Update the missing or invalid information above');
      expect(res.body).toMatch(/id="checkout-email-error"[^>]*>Please enter a valid email address|id="checkout-email-error"[^>]*>[^<]+/);
      expect(res.body).toMatch(/id="addr-line1-error"[^>]*>Required</);
      expect(res.body).toContain('value="not-an-email"');
      expect(res.body).toContain('value="Portland"');
      // Never the card number or code.
      expect(res.body).not.toContain('4242424242424242');
      // Without the crumb the checkout post is refused (it is not a cached page: the crumb is always in it).
      expect((await post(v, '/api/checkout/form', { action: 'place', email: 'a@b.co' }, FORM)).statusCode).toBe(403);
    });

    it('site users: sign up, reset and sign in as plain posts, never echoing the password', async () => {
      const v = new Visitor(t.app);
      const crumb = await v.crumb();
      const signUp = await post(
        v,
        '/api/site-users/accounts',
        { crumb, email: 'plain@example.com', password: 'plain secret 123', displayName: 'Plain' },
        FORM,
      );
      expect(signUp.statusCode).toBe(200);
      expect(signUp.body).toContain(siteUserMessages.SIGN_UP_SENT);
      expect(signUp.body).not.toContain('plain secret 123');
      const short = await post(v, '/api/site-users/accounts', { crumb, email: 'short@example.com', password: 'short' }, FORM);
      expect(short.statusCode).toBe(400);
      expect(short.body).toContain(siteUserMessages.PASSWORD_TOO_SHORT);
      expect(short.body).toContain('value="short@example.com"');
      const reset = await post(v, '/api/site-users/account/password-reset', { crumb, email: 'plain@example.com' }, FORM);
      expect(reset.statusCode).toBe(200);
      expect(reset.body).toContain(siteUserMessages.RESET_SENT);
      const wrong = await post(
        v,
        '/api/site-users/account/session',
        { crumb, email: 'plain@example.com', password: 'not it at all' },
        FORM,
      );
      expect(wrong.statusCode).toBeGreaterThanOrEqual(400);
      expect(wrong.body).not.toContain('not it at all');
      const badLink = await post(v, '/api/site-users/account/password', { crumb, token: 'nope', password: 'a new secret 456' }, FORM);
      expect(badLink.statusCode).toBe(400);
      expect(badLink.body).toContain(siteUserMessages.LINK_EXPIRED);
    });

    it("the promo popup's sign-up as a plain post: the no-script path, then the address is on the list", async () => {
      const owner = new Visitor(t.app);
      expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
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
        successText: 'Welcome aboard!',
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
      const headers = { ...SAME, 'x-forwarded-for': '10.9.8.1' };
      const bot = await post(v, '/api/engagement/newsletter', { email: 'popbot@example.com', honeypot: 'x' }, headers);
      expect(bot.statusCode).toBe(400);
      expect(bot.body).toContain(NO_SCRIPT_MESSAGES.HONEYPOT);
      const ok = await post(v, '/api/engagement/newsletter', { email: 'popup@example.com', honeypot: '' }, headers);
      // POST/redirect/GET: the thanks page is a GET of its own.
      expect(ok.statusCode).toBe(303);
      expect(ok.headers.location).toMatch(/^\/newsletter\/signed-up\?/);
      const thanks = await v.get(String(ok.headers.location));
      expect(thanks.statusCode).toBe(200);
      expect(thanks.body).toContain('Welcome aboard!');
      expect(
        (await rows(t.database.db, sql`select 1 from mailing_list_members where email_key = 'popup@example.com' and source = 'popup'`))
          .length,
      ).toBe(1);
      // The JSON call still needs its captcha.
      const json = await v.send('POST', '/api/engagement/newsletter', { email: 'json@example.com' });
      expect(json.statusCode).toBe(400);
      expect(json.json().error ?? json.json().message).toBe(formMessages.CAPTCHA_INCOMPLETE);
    });

    it('the no-script path: an empty honeypot and a limit per address; failures are said plainly', async () => {
      const productId = t.seed.productIds['linen-camp-shirt']!;
      const variant = (
        await rows<{ id: string }>(
          t.database.db,
          sql`select id from product_variants where item_id = ${productId} and qty_in_stock = 0 and not unlimited limit 1`,
        )
      )[0]!.id;
      const v = new Visitor(t.app);
      await v.crumb();
      const ip = { ...SAME, 'x-forwarded-for': '10.9.9.9' };
      const bot = await post(
        v,
        '/api/site-users/account/notifications/restock',
        { productId, variantId: variant, email: 'bot@example.com', honeypot: 'filled' },
        ip,
      );
      expect(bot.statusCode).toBe(400);
      expect(bot.body).toContain(NO_SCRIPT_MESSAGES.HONEYPOT);
      const ok = await post(
        v,
        '/api/site-users/account/notifications/restock',
        { productId, variantId: variant, email: 'waiting@example.com', honeypot: '' },
        ip,
      );
      expect(ok.statusCode).toBe(303);
      expect((await rows(t.database.db, sql`select 1 from restock_sign_ups where email = 'waiting@example.com'`)).length).toBe(1);
      const badEmail = await post(v, '/api/site-users/account/notifications/restock', { productId, variantId: variant, email: 'nope' }, ip);
      expect(badEmail.statusCode).toBe(400);
      let last = badEmail;
      for (let i = 0; i < NO_SCRIPT_LIMIT.max; i++)
        last = await post(
          v,
          `/api/form/submit/contact-form`,
          {
            crumb: await v.crumb(),
            pagePath: '/contact',
            'f.name.0': 'A',
            'f.name.1': 'B',
            'f.email': `n${i}@example.com`,
            'f.message': 'hi',
          },
          ip,
        );
      expect(last.statusCode).toBe(429);
      expect(last.body).toContain(NO_SCRIPT_MESSAGES.RATE_LIMITED);
      expect(last.body).not.toContain('Thank you');
      // Another address is not affected.
      const other = await post(
        v,
        `/api/form/submit/contact-form`,
        {
          crumb: await v.crumb(),
          pagePath: '/contact',
          'f.name.0': 'A',
          'f.name.1': 'B',
          'f.email': 'other@example.com',
          'f.message': 'hi',
        },
        { ...SAME, 'x-forwarded-for': '10.9.9.10' },
      );
      expect(other.statusCode).toBe(303);
      expect(formMessages.REQUIRED).toBe('Required');
    });
  });
}
