import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { SmtpSink } from '../../helpers/smtp-sink.js';
import { rows } from '../../../src/server/db-util.js';
import { Role } from '../../../src/core/enums.js';
import { describeRole } from '../../../src/core/roles.js';
import { launchBrowser, liveSite, signInAsOwner, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { expectNoAxeViolations, WCAG_AA_BEST_PRACTICE } from '../../helpers/axe.js';

const noSideScroll = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth <= document.scrollingElement!.clientWidth);
const settled = async (page: Page) => {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.locator('[aria-busy="true"]').waitFor({ state: 'detached' });
};

describe("the owner's everyday screens in Chromium", () => {
  let site: LiveSite;
  let b: BrowserSession;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await new SmtpSink().start();
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
    await sink?.close();
  });

  for (const width of [1280, 390]) {
    it(`Email settings at ${width} px: the relay is saved with its password kept hidden, and Send test email shows the result or the relay's error`, async () => {
      const ctx = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      await signInAsOwner(page, site, '/config/email-settings');
      await settled(page);
      await expectNoAxeViolations(page, { tags: WCAG_AA_BEST_PRACTICE });
      expect(await noSideScroll(page)).toBe(true);
      const relay = page.getByRole('form', { name: 'SMTP relay' });
      await relay.getByLabel('SMTP host').fill('127.0.0.1');
      await relay.getByLabel('Port').fill(String(sink.port));
      await relay.getByLabel('Security').selectOption('none');
      await relay.getByLabel('User name').fill('shop');
      await relay.getByLabel('Password').fill(`secret-${width}`);
      await relay.getByRole('button', { name: 'Save SMTP settings' }).click();
      await page.getByRole('status').filter({ hasText: 'SMTP settings saved.' }).first().waitFor();
      await page.reload();
      await settled(page);
      // The password never comes back to the browser; the screen says one is saved.
      expect(await page.getByRole('form', { name: 'SMTP relay' }).getByLabel('Password').inputValue()).toBe('');
      expect(await page.getByText('A password is saved. Leave this empty to keep it.').isVisible()).toBe(true);
      expect(await page.content()).not.toContain(`secret-${width}`);

      const test = page.getByRole('form', { name: 'Send a test email' });
      await test.getByLabel('Send to').fill(`check-${width}@example.com`);
      await test.getByRole('button', { name: 'Send test email' }).click();
      await page.getByText(`Test email sent to check-${width}@example.com.`).waitFor();
      expect(sink.to(`check-${width}@example.com`).length).toBe(1);
      sink.refusing = true;
      await test.getByRole('button', { name: 'Send test email' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: /The relay refused the test email: .*Relay is down/ })
        .waitFor();
      sink.refusing = false;
      await expectNoAxeViolations(page, { tags: WCAG_AA_BEST_PRACTICE });
      expect(await noSideScroll(page)).toBe(true);
      await ctx.close();
    });
  }

  it('after a checkout the customer appears with their order, and the owner is notified of the new order', async () => {
    const shop = await b.browser.newContext();
    const page = await shop.newPage();
    await page.goto(`${site.url}/shop/p/houseplant-field-guide`);
    await page.waitForFunction(() => document.querySelector('[data-island="AddToCart"]')?.getAttribute('data-hydrated') === '1');
    await page.getByRole('article').getByRole('button', { name: 'Add To Cart' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'One item in cart' }).isVisible(), { timeout: 5000 }).toBe(true);
    await page.goto(`${site.url}/checkout`);
    await page.waitForFunction(() => document.querySelector('[data-island="CheckoutPage"]')?.getAttribute('data-hydrated') === '1');
    await page.getByLabel('Email').fill('maya.reader@example.com');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/40');
    await page.getByLabel('Security code (CVC)').fill('123');
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/order-confirmed\//);
    await shop.close();
    const [order] = await rows<{ order_number: number }>(
      site.database.db,
      sql`select order_number from orders where email = 'maya.reader@example.com'`,
    );

    for (const width of [1280, 390]) {
      const ctx = await b.browser.newContext({ viewport: { width, height: 900 } });
      const admin = await ctx.newPage();
      await signInAsOwner(admin, site, '/config/customers');
      await settled(admin);
      await admin.getByRole('searchbox', { name: 'Search by name or email' }).fill('maya');
      const row = admin.getByRole('row').filter({ hasText: 'maya.reader@example.com' });
      await row.waitFor();
      expect(await row.getByRole('cell', { name: '1', exact: true }).first().isVisible()).toBe(true);
      await row.getByRole('link', { name: 'maya.reader@example.com' }).click();
      await admin.getByRole('heading', { level: 1, name: width === 1280 ? 'maya.reader@example.com' : 'Maya Reader 1280' }).waitFor();
      await settled(admin);
      // The owner keeps her name, tags and a note; the heading and the list take the name.
      const details = admin.getByRole('form', { name: 'Details', exact: true });
      await details.getByRole('textbox', { name: 'Name', exact: true }).fill(`Maya Reader ${width}`);
      await details.getByRole('textbox', { name: /^Tags/ }).fill('book club, VIP');
      await details.getByRole('textbox', { name: 'Note', exact: true }).fill('Asked about the sequel.');
      await details.getByRole('textbox', { name: 'Phone', exact: true }).fill('call me');
      await details.getByRole('button', { name: 'Save customer', exact: true }).click();
      await details.getByText('Phone: use digits, spaces and + ( ) - . only.').waitFor();
      await details.getByRole('textbox', { name: 'Phone', exact: true }).fill('+1 555 0100');
      await details.getByRole('button', { name: 'Save customer', exact: true }).click();
      await admin.getByRole('heading', { level: 1, name: `Maya Reader ${width}` }).waitFor();
      expect(await admin.getByRole('link', { name: 'Email customer', exact: true }).getAttribute('href')).toBe(
        'mailto:maya.reader@example.com',
      );
      await admin.screenshot({ path: `/tmp/customer-detail-${width}.png`, fullPage: true });
      expect(
        await admin
          .getByRole('list', { name: 'Orders' })
          .getByRole('link', { name: `Order #${order!.order_number}` })
          .isVisible(),
      ).toBe(true);
      await expectNoAxeViolations(admin, { tags: WCAG_AA_BEST_PRACTICE });
      expect(await noSideScroll(admin)).toBe(true);

      // The order's own screen, reached from the customer: no axe violations, no sideways scrolling; its Refund
      // dialog keeps focus inside, closes on Escape and gives focus back to the button that opened it.
      await admin
        .getByRole('list', { name: 'Orders' })
        .getByRole('link', { name: `Order #${order!.order_number}` })
        .click();
      await admin.getByRole('heading', { level: 1, name: `Order #${order!.order_number}` }).waitFor();
      await settled(admin);
      await expectNoAxeViolations(admin, { tags: WCAG_AA_BEST_PRACTICE });
      expect(await noSideScroll(admin)).toBe(true);
      const refund = admin.getByRole('button', { name: 'Refund', exact: true });
      await refund.click();
      const dialog = admin.getByRole('dialog', { name: `Refund order #${order!.order_number}` });
      await dialog.waitFor();
      for (const key of [...Array<string>(12).fill('Tab'), ...Array<string>(4).fill('Shift+Tab')]) {
        await admin.keyboard.press(key);
        expect(await dialog.evaluate((d) => d.contains(document.activeElement)), key).toBe(true);
      }
      await expectNoAxeViolations(admin, { tags: WCAG_AA_BEST_PRACTICE });
      await admin.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      // Radix gives focus back in the task after the dialog unmounts.
      await expect.poll(() => refund.evaluate((el) => el === document.activeElement)).toBe(true);

      // The owner's notification is in the outbox (kept there, or sent through the relay saved above), and opens.
      await admin.goto(`${site.url}/config/outbox`);
      await settled(admin);
      const note = admin.getByRole('link', { name: new RegExp(`^New order #${order!.order_number}: `) }).first();
      await note.waitFor();
      await note.click();
      await admin.getByRole('heading', { level: 1, name: new RegExp(`^New order #${order!.order_number}: `) }).waitFor();
      await settled(admin);
      await expectNoAxeViolations(admin, { tags: WCAG_AA_BEST_PRACTICE });
      expect(await noSideScroll(admin)).toBe(true);
      await ctx.close();
    }
  });

  it('an invited team member signs in through their link with the role given; the remove dialog closes on Escape and gives focus back', async () => {
    const ctx = await b.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await ctx.newPage();
    await signInAsOwner(page, site, '/config/team');
    await settled(page);
    await expectNoAxeViolations(page, { tags: WCAG_AA_BEST_PRACTICE });
    expect(await noSideScroll(page)).toBe(true);
    const form = page.getByRole('form', { name: 'Invite someone' });
    await form.getByLabel('Email').fill('robin@example.com');
    await form.getByLabel('Role').selectOption({ label: 'Store manager' });
    expect(await form.getByText(describeRole(Role.STORE_MANAGER)).isVisible()).toBe(true);
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('status').filter({ hasText: 'Invitation sent to robin@example.com.' }).first().waitFor();
    const row = page.getByRole('row').filter({ hasText: 'robin@example.com' });
    expect(await row.getByText('Invited, not joined yet').isVisible()).toBe(true);

    // The remove dialog: focus inside, Escape cancels, focus back on its button.
    const remove = row.getByRole('button', { name: 'Remove robin@example.com' });
    await remove.click();
    const dialog = page.getByRole('alertdialog', { name: 'Remove robin@example.com?' });
    await dialog.waitFor();
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Radix gives focus back in the task after the dialog unmounts.
    await expect.poll(() => remove.evaluate((el) => el === document.activeElement)).toBe(true);

    const [mail] = await rows<{ text_body: string }>(
      site.database.db,
      sql`select text_body from mail_outbox where kind = 'team-invite' and to_address = 'robin@example.com' order by id desc limit 1`,
    );
    const link = /(http\S+\/config\/invite\?token=[\w-]+)/.exec(mail!.text_body)![1]!;
    expect(link.startsWith(site.url)).toBe(true);

    const robin = await (await b.browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await robin.goto(link);
    await robin.getByRole('heading', { name: 'Join the team' }).waitFor();
    await expectNoAxeViolations(robin, { tags: WCAG_AA_BEST_PRACTICE });
    await robin.getByLabel('Your name').fill('Robin');
    await robin.getByLabel('Choose a password').fill('robin has a long password');
    await robin.getByLabel('Repeat the password').fill('robin has a long password');
    await robin.getByRole('button', { name: 'Join and sign in' }).click();
    await robin.waitForURL(`${site.url}/config`);
    await robin.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    const me = await robin.evaluate(() => fetch('/api/auth/me').then((r) => r.json() as Promise<{ email: string; role: number }>));
    expect(me).toMatchObject({ email: 'robin@example.com', role: Role.STORE_MANAGER });
    // The link was spent.
    await robin.goto(link);
    await robin.getByText('This invitation has expired or was already used. Ask for a new one.').waitFor();

    await page.reload();
    await settled(page);
    expect(await page.getByRole('row').filter({ hasText: 'robin@example.com' }).getByText('Active').isVisible()).toBe(true);
    await ctx.close();
  });
});
