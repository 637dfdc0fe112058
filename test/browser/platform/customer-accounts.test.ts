import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { launchBrowser, liveSite, watchConsole, hydrated, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { Visitor, OWNER } from '../../helpers/app.js';
import { ADDRESS, CARD, placeOrder, confirmed } from '../../helpers/orders.js';
import { rows } from '../../../src/server/db-util.js';
import { newId } from '../../../src/db/ids.js';
import { siteUserMessages } from '../../../src/server/platform/site-users.js';
import { expectNoAxeViolations, WCAG_AA } from '../../helpers/axe.js';

const PASSWORD = 'a long enough secret';
const SHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'tessera-accounts-shots');

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Issue 27's customer-account acceptance in a real browser at 1280 px and 390 px. */
describe('customer accounts (browser)', () => {
  let b: BrowserSession;
  let site: LiveSite;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    site = await liveSite('pglite', { RATE_LIMIT_STORE: 'memory' });
    b = await launchBrowser();
    await site.database.db.execute(
      sql`insert into shipping_options (id, website_id, name, kind, price_cents) values (${newId()}, ${site.seed.websiteId}, 'Standard', 'flat', 500)`,
    );
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  /** A confirmed customer with a shipped past order and an active subscription (set up through the real calls). */
  async function customerWithHistory(email: string): Promise<{ orderNumber: number; tracking: string }> {
    const v = new Visitor(site.app);
    expect((await v.send('POST', '/api/site-users/accounts', { email, password: PASSWORD })).statusCode).toBe(202);
    const mail = await rows<{ text_body: string }>(
      site.database.db,
      sql`select text_body from mail_outbox where to_address = ${email} order by id desc limit 1`,
    );
    const link = new URL(mail[0]!.text_body.match(/https?:\/\/\S+\/account\/confirm\S+/)![0]);
    expect((await v.get(link.pathname + link.search)).statusCode).toBe(303);
    const ids = site.seed.productIds;
    const order = await placeOrder(site.app, [{ itemId: ids['ceramic-pour-over-set']!, sku: 'POUR-OVER', quantity: 1 }], { email });
    const owner = new Visitor(site.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    const tracking = `1ZTRACK${order.orderNumber}`;
    expect(
      (
        await owner.send('POST', `/api/checkout/admin/orders/${order.id}/fulfil`, {
          lines: [{ line: 0, quantity: 1 }],
          carrier: 'ups',
          trackingNumber: tracking,
        })
      ).statusCode,
    ).toBe(200);
    const s = await v.send('POST', '/api/3/commerce/cart/subscription', {
      itemId: ids['fresh-roast-coffee-subscription'],
      sku: 'COFFEE-SUB',
      qty: 1,
    });
    const placed = await v.send(
      'POST',
      '/api/checkout/place-order',
      await confirmed(v, { cartToken: s.json().cartToken, email, shippingAddress: ADDRESS, payment: CARD, idempotencyKey: newId() }),
    );
    expect(placed.statusCode, placed.body).toBe(200);
    return { orderNumber: order.orderNumber, tracking };
  }

  for (const width of [1280, 390]) {
    it(`at ${width} px: signs in from the header, sees a past order with its tracking number, saves an address, buys again with checkout prefilled, cancels a subscription`, async () => {
      const email = `customer-${width}@example.com`;
      const past = await customerWithHistory(email);
      const ctx = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      const problems = watchConsole(page);

      // The header's account link leads to a styled sign-in page.
      await page.goto(`${site.url}/`);
      await page.getByRole('banner').getByRole('link', { name: 'Account' }).click();
      await page.waitForURL(`${site.url}/account/login`);
      await page.waitForFunction(...hydrated('AccountPage'));
      const signIn = page.getByRole('form', { name: 'Sign in' });
      // The theme's styles reach the page: the button wears the site's accent colour.
      const accent = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--accent').trim());
      const buttonBg = await signIn.getByRole('button', { name: 'Sign in' }).evaluate((el) => getComputedStyle(el).backgroundColor);
      const probe = await page.evaluate((c) => {
        const d = document.createElement('div');
        d.style.color = c;
        document.body.append(d);
        const rgb = getComputedStyle(d).color;
        d.remove();
        return rgb;
      }, accent);
      expect(buttonBg).toBe(probe);
      await expectNoAxeViolations(page, { tags: WCAG_AA });
      expect(await noSideScroll(page)).toBe(true);
      await signIn.getByLabel('Email').fill(email);
      await signIn.getByLabel('Password').fill(PASSWORD);
      await signIn.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${site.url}/account`);

      // The past order with its status and tracking number.
      await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
      const orders = page.getByRole('region', { name: 'Orders' });
      const card = orders
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: new RegExp(`Order #${past.orderNumber}`) }) });
      await card.getByText('Fulfilled').waitFor();
      expect(await card.getByRole('link', { name: new RegExp(past.tracking) }).isVisible()).toBe(true);
      const subs = page.getByRole('region', { name: 'Subscriptions' });
      expect(await subs.getByText('$18.00 every month').isVisible()).toBe(true);
      await expectNoAxeViolations(page, { tags: WCAG_AA });
      expect(await noSideScroll(page)).toBe(true);

      // A saved address (the form is open while there is none); the notice says it is saved.
      const addresses = page.getByRole('region', { name: 'Saved addresses' });
      const form = addresses.getByRole('form', { name: 'Add an address' });
      await form.getByRole('button', { name: 'Save address' }).click();
      // The browser's own required-field check keeps an empty form from being sent.
      expect(await page.evaluate(() => (document.querySelector('#address-name') as HTMLInputElement).validity.valueMissing)).toBe(true);
      await form.getByLabel('Full name').fill(`Casey Width${width}`);
      await form.getByLabel('Address', { exact: true }).fill('77 Saved Lane');
      await form.getByLabel('City').fill('Eugene');
      await form.getByLabel('State', { exact: true }).selectOption('OR');
      await form.getByLabel('ZIP code').fill('97401');
      await form.getByLabel('Country').selectOption('US');
      await form.getByRole('button', { name: 'Save address' }).click();
      await page.waitForURL(/\/account\?done=address-saved#addresses$/);
      await page.getByRole('status').filter({ hasText: 'Address saved.' }).waitFor();
      expect(await page.getByRole('region', { name: 'Saved addresses' }).getByText('Default at checkout').isVisible()).toBe(true);
      await expectNoAxeViolations(page, { tags: WCAG_AA });
      await page.screenshot({ path: join(SHOTS, `account-${width}.png`), fullPage: true });

      // Buy the past order again: checkout opens with the account's email and the saved address.
      await page
        .getByRole('region', { name: 'Orders' })
        .getByRole('button', { name: `Buy again order #${past.orderNumber}` })
        .click();
      await page.waitForURL(`${site.url}/checkout`);
      await page.waitForFunction(...hydrated('CheckoutPage'));
      expect(await page.getByLabel('Email').inputValue()).toBe(email);
      expect(await page.getByLabel('Full name').inputValue()).toBe(`Casey Width${width}`);
      expect(await page.getByLabel('Address', { exact: true }).inputValue()).toBe('77 Saved Lane');
      expect(await page.getByLabel('Country').inputValue()).toBe('US');
      await page.getByRole('radio', { name: /Standard/ }).check();
      await page.getByLabel('Name on card').fill('Casey Customer');
      await page.getByLabel('Card number').fill('4242 4242 4242 4242');
      await page.getByLabel('Expiry (MM/YY)').fill('12/40');
      await page.getByLabel('Security code (CVC)').fill('123');
      await page.getByRole('button', { name: 'Place order' }).click();
      await page.waitForURL(/\/order-confirmed\//);
      const placed = await rows<{ n: number; line1: string }>(
        site.database.db,
        sql`select order_number as n, shipping_address ->> 'line1' as line1 from orders where email = ${email} and cart_kind = 'cart' order by created desc limit 1`,
      );
      expect(placed[0]!.line1).toBe('77 Saved Lane');

      // The new order is on the account page; cancel the subscription.
      await page.goto(`${site.url}/account`);
      await page.getByRole('heading', { name: new RegExp(`Order #${placed[0]!.n}`) }).waitFor();
      await page
        .getByRole('region', { name: 'Subscriptions' })
        .getByRole('button', { name: /^Cancel subscription/ })
        .click();
      await page.waitForURL(/done=subscription-canceled/);
      await page.getByRole('status').filter({ hasText: 'Subscription canceled.' }).waitFor();
      const after = page.getByRole('region', { name: 'Subscriptions' });
      expect(await after.getByText('Canceled', { exact: true }).isVisible()).toBe(true);
      expect(await after.getByRole('button', { name: /^Cancel subscription/ }).count()).toBe(0);
      expect(problems).toEqual([]);
      await ctx.close();
    });

    it(`at ${width} px: the sign-up page states the password rule up front and shows it as the error for a short password`, async () => {
      const ctx = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      const problems = watchConsole(page);
      await page.goto(`${site.url}/account/signup`);
      await page.waitForFunction(...hydrated('AccountPage'));
      const form = page.getByRole('form', { name: 'Create an account' });
      const password = form.getByLabel('Password');
      expect(await password.getAttribute('aria-describedby')).toBe('signup-password-hint');
      expect(await form.getByText(siteUserMessages.PASSWORD_TOO_SHORT).isVisible()).toBe(true);
      await form.getByLabel('Email').fill(`new-${width}@example.com`);
      await password.fill('short');
      await form.getByRole('button', { name: 'Create account' }).click();
      expect(await password.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#signup-password-error').textContent()).toBe(siteUserMessages.PASSWORD_TOO_SHORT);
      await expectNoAxeViolations(page, { tags: WCAG_AA });
      await page.screenshot({ path: join(SHOTS, `signup-${width}.png`), fullPage: true });
      await password.fill(PASSWORD);
      expect(await password.getAttribute('aria-invalid')).toBeNull();
      await form.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('status').filter({ hasText: siteUserMessages.SIGN_UP_SENT }).waitFor();
      expect(await noSideScroll(page)).toBe(true);
      expect(problems).toEqual([]);
      await ctx.close();
    });
  }

  it('works without JavaScript: sign in, save an address, cancel a subscription, sign out', async () => {
    const email = 'nojs-customer@example.com';
    await customerWithHistory(email);
    const ctx = await b.browser.newContext({ viewport: { width: 390, height: 900 }, javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto(`${site.url}/account/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${site.url}/account`);
    const form = page.getByRole('form', { name: 'Add an address' });
    await form.getByLabel('Full name').fill('No Script');
    await form.getByLabel('Address', { exact: true }).fill('1 Plain Post');
    await form.getByLabel('City').fill('Bend');
    await form.getByLabel('State', { exact: true }).selectOption('OR');
    await form.getByLabel('ZIP code').fill('97701');
    await form.getByLabel('Country').selectOption('US');
    await form.getByRole('button', { name: 'Save address' }).click();
    await page.getByRole('status').filter({ hasText: 'Address saved.' }).waitFor();
    await page
      .getByRole('region', { name: 'Subscriptions' })
      .getByRole('button', { name: /^Cancel subscription/ })
      .click();
    await page.getByRole('status').filter({ hasText: 'Subscription canceled.' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${site.url}/account/login`);
    await ctx.close();
  });
});
