/**
 * A customer in Japan saves an address on their account page: the form lays itself out for Japan when they
 * pick it (the prefecture list, no city, the postcode last), a prefecture is required, and the saved card
 * prints the address as Japan writes it. At 390 and 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { sql } from 'drizzle-orm';
import { launchBrowser, liveSite, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { Visitor } from '../../helpers/app.js';
import { rows } from '../../../src/server/db-util.js';

const PASSWORD = 'a long enough secret';
const SHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'tessera-address-shots');

describe('saved addresses in the customer’s country’s format (browser)', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  async function confirmedCustomer(email: string) {
    const v = new Visitor(site.app);
    expect((await v.send('POST', '/api/site-users/accounts', { email, password: PASSWORD })).statusCode).toBe(202);
    const mail = await rows<{ text_body: string }>(
      site.database.db,
      sql`select text_body from mail_outbox where to_address = ${email} order by id desc limit 1`,
    );
    const link = new URL(mail[0]!.text_body.match(/https?:\/\/\S+\/account\/confirm\S+/)![0]);
    expect((await v.get(link.pathname + link.search)).statusCode).toBe(303);
  }

  for (const width of [390, 1280]) {
    it(`at ${width} px: picks Japan, gets the prefecture list and Japan's order, and the card prints Japan's format`, async () => {
      const email = `hanako-${width}@example.com`;
      await confirmedCustomer(email);
      const context = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const problems = watchConsole(page);
      await page.goto(`${site.url}/account/login`);
      await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL(`${site.url}/account`);
      await page.waitForFunction(() => document.querySelector('[data-island="AccountPage"]')?.getAttribute('data-hydrated') === '1');

      const form = page.getByRole('form', { name: 'Add an address', exact: true });
      const loaded = page.waitForResponse((r) => r.url().endsWith('/api/address-format/JP'));
      await form.getByRole('combobox', { name: 'Country', exact: true }).selectOption('JP');
      expect((await loaded).status()).toBe(200);
      const prefecture = form.getByRole('combobox', { name: 'Prefecture', exact: true });
      await prefecture.waitFor();
      expect(await form.locator('.account-field > label').allTextContents()).toEqual([
        'Country',
        'Full name',
        'Address',
        'Apartment, suite (optional)',
        'Prefecture',
        'Postal code',
      ]);
      expect(await form.getByRole('textbox', { name: 'City', exact: true }).count()).toBe(0);
      await form.getByRole('textbox', { name: 'Full name', exact: true }).fill('Hanako Sato');
      await form.getByRole('textbox', { name: 'Address', exact: true }).fill('2-8-1 Nishi-Shinjuku');
      await form.getByRole('textbox', { name: 'Apartment, suite (optional)', exact: true }).fill('Shinjuku-ku');
      await form.getByRole('textbox', { name: 'Postal code', exact: true }).fill('163-8001');
      await page.screenshot({ path: join(SHOTS, `account-address-JP-${width}.png`), fullPage: true });
      // Without a prefecture the browser's own check keeps the form from being sent (the server refuses it too).
      await form.getByRole('button', { name: 'Save address', exact: true }).click();
      expect(await prefecture.evaluate((el) => (el as HTMLSelectElement).validity.valueMissing)).toBe(true);
      await prefecture.selectOption({ label: 'Tokyo' });
      await form.getByRole('button', { name: 'Save address', exact: true }).click();
      await page.waitForURL(/\/account\?done=address-saved#addresses$/);
      const card = page.getByRole('region', { name: 'Saved addresses', exact: true }).locator('address.account-address');
      expect((await card.innerText()).split('\n')).toEqual([
        'Hanako Sato',
        '2-8-1 Nishi-Shinjuku',
        'Shinjuku-ku, Tokyo',
        '163-8001',
        'Japan',
      ]);
      await page.screenshot({ path: join(SHOTS, `account-saved-JP-${width}.png`), fullPage: true });
      expect(problems.filter((p) => !p.includes('favicon'))).toEqual([]);
      await context.close();
    });
  }

  it('signs in with what was typed (or autofilled) before the page’s script ran', async () => {
    const email = 'early-typist@example.com';
    await confirmedCustomer(email);
    const context = await b.browser.newContext({ viewport: { width: 390, height: 900 } });
    const page = await context.newPage();
    // Hold every script until the fields are filled, as on a slow phone or with a password manager.
    const held: Array<() => Promise<void>> = [];
    let released = false;
    await page.route('**/*.js', (route) => (released ? route.continue() : void held.push(() => route.continue())));
    await page.goto(`${site.url}/account/login`, { waitUntil: 'commit' });
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    expect(held.length).toBeGreaterThan(0);
    released = true;
    await Promise.all(held.map((go) => go()));
    await page.waitForFunction(() => document.querySelector('[data-island="AccountPage"]')?.getAttribute('data-hydrated') === '1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${site.url}/account`);
    await context.close();
  });
});
