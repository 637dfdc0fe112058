/**
 * Every form is a real form first (issue 26): the storefront journeys with JavaScript turned off, and the
 * same journeys with it on (the islands enhance the same forms and call the same services).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser, liveSite, hydrated, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { OWNER, Visitor } from '../../helpers/app.js';
import { rows } from '../../../src/server/db-util.js';
import { seedForms } from '../../../src/server/forms/seed.js';
import { configureCaptcha } from '../../../src/server/captcha/index.js';
import { forms as formMessages } from '../../../src/core/messages.js';
import { siteUserMessages } from '../../../src/server/platform/site-users.js';
import { CONFIRM_TITLE } from '../../../src/web/islands/AccountPage.js';

const PASSWORD = 'no script needed 123';

describe('the storefront with and without JavaScript', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
    await seedForms(site.database, site.seed.websiteId);
    configureCaptcha(site.app, { altchaMaxNumber: 3000 });
    const owner = new Visitor(site.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    for (const [url, body] of [
      ['/api/checkout/admin/shipping-options', { name: 'Standard', kind: 'flat', priceCents: 599 }],
      ['/api/checkout/admin/coupons', { code: 'SAVE10', kind: 'percent', percentBasisPoints: 1000 }],
    ] as const) {
      const r = await owner.send('POST', url, body);
      expect(r.statusCode, r.body).toBe(200);
    }
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  for (const js of [false, true]) {
    const mode = js ? 'with JavaScript' : 'without JavaScript';
    const tag = js ? 'js' : 'nojs';
    const newContext = () => b.browser.newContext({ javaScriptEnabled: js });
    /** Every address the page navigated to (documents only): what the history holds. */
    const navigations = (page: Page) => {
      const urls: string[] = [];
      page.on('request', (r) => {
        if (r.isNavigationRequest()) urls.push(r.url());
      });
      page.on('framenavigated', (f) => urls.push(f.url()));
      return urls;
    };
    const ready = async (page: Page, island: string) => {
      if (js) await page.waitForFunction(...hydrated(island));
    };

    it(`${mode}: finds a product, picks its variants, adds to cart, changes the quantity, applies a coupon and pays with the test card`, async () => {
      // Each journey buys 3 of the variant: both find it in stock.
      await site.database.db.execute(sql`update product_variants set qty_in_stock = 10 where sku = 'SHIRT-S-SAND'`);
      const context: BrowserContext = await newContext();
      const page = await context.newPage();
      await page.goto(`${site.url}/shop`);
      await page
        .getByRole('link', { name: /Linen Camp Shirt/ })
        .first()
        .click();
      await page.waitForURL(`${site.url}/shop/p/linen-camp-shirt`);
      await ready(page, 'AddToCart');
      await ready(page, 'VariantSelect');

      const article = page.getByRole('article');
      // A missing choice is refused with the island's words.
      await page.getByRole('combobox', { name: 'Select Size' }).selectOption('S');
      await article.getByRole('button', { name: 'Add To Cart' }).click();
      if (!js) await page.waitForURL(`${site.url}/api/commerce/shopping-cart/entries`);
      await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('Please select the Color option.');
      if (!js) await page.getByRole('link', { name: 'Back to the product' }).click();
      await ready(page, 'VariantSelect');

      await page.getByRole('combobox', { name: 'Select Size' }).selectOption('S');
      await page.getByRole('combobox', { name: 'Select Color' }).selectOption('Sand');
      await page.getByRole('textbox', { name: 'Quantity' }).fill('2');
      await article.getByRole('button', { name: 'Add To Cart' }).click();
      if (js) {
        await expect.poll(() => page.getByRole('link', { name: '2 items in cart' }).isVisible(), { timeout: 5000 }).toBe(true);
        await page.goto(`${site.url}/cart`);
      }
      await page.waitForURL(`${site.url}/cart`);
      await ready(page, 'CartPage');
      expect(await page.getByText('Size: S').isVisible()).toBe(true);
      expect(await page.locator('.cart-row__total').textContent()).toBe('$136.00');

      await page.getByRole('textbox', { name: 'Quantity of Linen Camp Shirt' }).fill('3');
      await page.getByRole('button', { name: 'Update quantity of Linen Camp Shirt' }).click();
      await expect.poll(() => page.locator('.cart-row__total').textContent()).toBe('$204.00');

      await page
        .getByRole('link', { name: /checkout/i })
        .first()
        .click();
      await page.waitForURL(`${site.url}/checkout`);
      await ready(page, 'CheckoutPage');

      // Place order with nothing filled in: the server's messages next to the fields.
      await page.getByRole('button', { name: 'Place order' }).click();
      await expect.poll(() => page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#checkout-email-error').textContent()).toBe(formMessages.REQUIRED);
      expect(await page.getByRole('alert').first().textContent()).toContain('Update the missing or invalid information above');

      await page.getByLabel('Email').fill(`shopper-${tag}@example.com`);
      await page.getByLabel('Full name').fill('Sam Shopper');
      await page.getByLabel('Address', { exact: true }).fill('12 Pine Street');
      await page.getByLabel('City').fill('Portland');
      await page.getByLabel('State', { exact: true }).selectOption('OR');
      await page.getByLabel('ZIP code').fill('97201');
      await page.getByLabel('Country').selectOption('US');
      await page.getByLabel('Coupon code').fill('save10');
      await page.getByRole('button', { name: 'Apply coupon' }).click();
      await expect.poll(() => page.getByRole('list', { name: 'Applied coupons' }).textContent()).toContain('SAVE10');
      // What was entered is kept.
      expect(await page.getByLabel('Email').inputValue()).toBe(`shopper-${tag}@example.com`);
      expect(await page.getByLabel('City').inputValue()).toBe('Portland');
      const totals = page.getByRole('table', { name: 'Totals' });
      expect(await totals.locator('[data-test=discount]').textContent()).toBe('-$20.40');

      await page.getByRole('radio', { name: /Standard/ }).check();
      await page.getByLabel('Name on card').fill('Sam Shopper');
      await page.getByLabel('Card number').fill('4242 4242 4242 4242');
      await page.getByLabel('Expiry (MM/YY)').fill('12/34');
      await page.getByLabel('Security code (CVC)').fill('123');
      await page.getByRole('button', { name: 'Place order' }).click();
      await page.waitForURL(/\/order-confirmed\//, { timeout: 15_000 });
      expect(await page.getByText(`shopper-${tag}@example.com`).first().isVisible()).toBe(true);
      const orders = await rows<{ grand_total_cents: number; coupons: unknown }>(
        site.database.db,
        sql`select grand_total_cents, coupons from orders where email = ${`shopper-${tag}@example.com`}`,
      );
      expect(orders).toHaveLength(1);
      // $204.00 - 10% + $5.99 shipping.
      expect(Number(orders[0]!.grand_total_cents)).toBe(20400 - 2040 + 599);
      await context.close();
    }, 90_000);

    it(`${mode}: signs up, confirms by the emailed link, signs in; the password is never in an address`, async () => {
      const email = `member-${tag}@example.com`;
      const context = await newContext();
      const page = await context.newPage();
      const urls = navigations(page);
      await page.goto(`${site.url}/account/signup`);
      await ready(page, 'AccountPage');
      const signUp = page.getByRole('form', { name: 'Create an account' });
      await signUp.getByLabel('Name').fill('Nora');
      await signUp.getByLabel('Email').fill(email);
      await signUp.getByLabel('Password').fill(PASSWORD);
      await signUp.getByRole('button', { name: 'Create account' }).click();
      await page.getByText(siteUserMessages.SIGN_UP_SENT).waitFor();

      const mail = await rows<{ text_body: string }>(
        site.database.db,
        sql`select text_body from mail_outbox where to_address = ${email} order by id desc`,
      );
      const link = mail.map((m) => m.text_body.match(/https?:\/\/\S+\/account\/confirm\?\S+/)?.[0]).find(Boolean);
      expect(link).toBeTruthy();
      const u = new URL(link!);
      await page.goto(`${site.url}${u.pathname}${u.search}`);
      await page.waitForURL(`${site.url}/account`);
      expect(await page.getByText(`Signed in as Nora (${email}).`).isVisible()).toBe(true);

      // A fresh browser signs in: a wrong password first (the message, the email kept), then the right one.
      const other = await newContext();
      const p2 = await other.newPage();
      const urls2 = navigations(p2);
      await p2.goto(`${site.url}/account/login`);
      await ready(p2, 'AccountPage');
      const form = () => p2.getByRole('form', { name: 'Sign in' });
      await form().getByLabel('Email').fill(email);
      await form().getByLabel('Password').fill('wrong password 999');
      await form().getByRole('button', { name: 'Sign in' }).click();
      await p2.getByText(siteUserMessages.SIGN_IN_FAILED).waitFor();
      expect(await form().getByLabel('Email').inputValue()).toBe(email);
      await ready(p2, 'AccountPage');
      await form().getByLabel('Password').fill(PASSWORD);
      await form().getByRole('button', { name: 'Sign in' }).click();
      await p2.waitForURL(`${site.url}/account`);
      expect(await p2.getByText(`Signed in as Nora (${email}).`).isVisible()).toBe(true);

      for (const url of [...urls, ...urls2]) {
        expect(url).not.toContain(encodeURIComponent(PASSWORD));
        expect(url).not.toContain(PASSWORD.replace(/ /g, '+'));
        expect(url).not.toContain('password=');
        expect(url).not.toContain('wrong');
      }
      expect(urls2.length).toBeGreaterThan(1);
      await context.close();
      await other.close();
    }, 90_000);

    it(`${mode}: a link opened away from the browser that signed up asks for the password, then signs in (issue 38)`, async () => {
      const email = `elsewhere-${tag}@example.com`;
      // Somebody else signs up with this address; its owner follows the link in their own browser.
      expect(
        (await new Visitor(site.app).send('POST', '/api/site-users/accounts', { email, password: 'not the owner of the address' }))
          .statusCode,
      ).toBe(202);
      const mail = await rows<{ text_body: string }>(
        site.database.db,
        sql`select text_body from mail_outbox where to_address = ${email} order by id desc`,
      );
      const u = new URL(mail.map((m) => m.text_body.match(/https?:\/\/\S+\/account\/confirm\?\S+/)?.[0]).find(Boolean)!);
      const context = await newContext();
      const page = await context.newPage();
      const urls = navigations(page);
      await page.goto(`${site.url}${u.pathname}${u.search}`);
      await ready(page, 'AccountPage');
      const form = page.getByRole('form', { name: CONFIRM_TITLE });
      await form.getByLabel('Password').fill(PASSWORD);
      await form.getByRole('button', { name: 'Save password and sign in' }).click();
      await page.waitForURL(`${site.url}/account`);
      expect(await page.getByText(`Signed in as ${email}.`).isVisible()).toBe(true);
      expect(
        (await new Visitor(site.app).send('POST', '/api/site-users/account/session', { email, password: 'not the owner of the address' }))
          .statusCode,
      ).toBe(401);
      for (const url of urls) expect(url).not.toContain('password=');
      await context.close();
    }, 90_000);

    it(`${mode}: a contact message reaches the owner's inbox and a newsletter sign-up the mailing list`, async () => {
      const context = await newContext();
      const page = await context.newPage();
      const text = `Hello from a visitor ${mode}`;
      await page.goto(`${site.url}/contact`);
      await ready(page, 'Form');
      await page.getByRole('textbox', { name: /First Name/ }).fill('Nora');
      await page.getByRole('textbox', { name: /Last Name/ }).fill('Visitor');
      await page.getByRole('textbox', { name: /Email/ }).fill(`contact-${tag}@example.com`);
      await page.getByRole('textbox', { name: /Message/ }).fill(text);
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByText('Thank you! We will get back to you soon.').waitFor({ timeout: 15_000 });
      const subs = await rows<{ spam: boolean; data: Record<string, unknown> }>(
        site.database.db,
        sql`select spam, data from form_submissions where form_id = 'contact-form' order by created_at`,
      );
      expect(subs.find((s) => s.data.message === text)).toMatchObject({ spam: false });
      const mails = await rows<{ text_body: string }>(
        site.database.db,
        sql`select text_body from mail_outbox where to_address = ${OWNER.email} order by id desc`,
      );
      expect(mails.some((m) => m.text_body.includes(text))).toBe(true);

      await page.goto(`${site.url}/forms/newsletter-form`);
      await ready(page, 'Form');
      await page.getByRole('textbox', { name: /Email Address/ }).fill(`reader-${tag}@example.com`);
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await page.getByText('Thank you for signing up!').waitFor({ timeout: 15_000 });
      const members = await rows<{ email: string }>(
        site.database.db,
        sql`select email from mailing_list_members where email_key = ${`reader-${tag}@example.com`}`,
      );
      expect(members).toHaveLength(1);
      await context.close();
    }, 90_000);

    it(`${mode}: signs up for a restock notice of a sold-out variant`, async () => {
      const context = await newContext();
      const page = await context.newPage();
      const email = `waiting-${tag}@example.com`;
      await page.goto(`${site.url}/shop/p/linen-camp-shirt`);
      await ready(page, 'RestockSignUp');
      if (js) {
        await page.getByRole('combobox', { name: 'Select Size' }).selectOption('L');
        await page.getByRole('combobox', { name: 'Select Color' }).selectOption('Navy');
      }
      const region = page.locator('.product-restock-notification:visible');
      await region.getByRole('textbox', { name: 'Email Address' }).fill(email);
      await region.getByRole('button', { name: 'Sign Up' }).click();
      await page
        .getByText('Thanks! We will email you when this item is back in stock.')
        .or(page.locator('.product-restock-success, .form-submission-text'))
        .first()
        .waitFor({ timeout: 15_000 });
      const signUps = await rows<{ email: string; status: string }>(
        site.database.db,
        sql`select email, status from restock_sign_ups where email = ${email}`,
      );
      expect(signUps).toHaveLength(1);
      expect(signUps[0]!.status).toBe('pending');
      await context.close();
    }, 90_000);
  }

  it('without JavaScript a message with the honeypot filled in is refused in plain words, never thanked', async () => {
    const v = new Visitor(site.app);
    const crumb = await v.crumb();
    const r = await v.send(
      'POST',
      '/api/form/submit/contact-form',
      new URLSearchParams({
        crumb,
        pagePath: '/contact',
        'f.name.0': 'Bot',
        'f.name.1': 'X',
        'f.email': 'bot@example.com',
        'f.message': 'spam',
        honeypot: 'gotcha',
      }).toString(),
      {
        crumb: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
    );
    expect(r.statusCode).toBe(400);
    expect(r.body).toContain('Your message could not be accepted.');
    expect(r.body).not.toContain('Thank you!');
  });
});
