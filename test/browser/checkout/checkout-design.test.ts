/**
 * The coupons, shipping and tax screens in the /config design (issue 23), in Chromium at 1280 px and 390 px: each
 * opens with its page header and, with nothing stored, an empty state saying what to do; a record added there
 * shows in the table; Delete asks in a dialog first (Cancel keeps the record and puts focus back on the button,
 * Delete removes it and says so in a toast). Axe finds nothing, with the dialog open too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SHOTS = process.env.SCREENSHOT_DIR ?? tmpdir();
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { expectNoAxeViolations, WCAG_AA } from '../../helpers/axe.js';

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('coupons, shipping and tax screens in the admin design', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  for (const width of [1280, 390]) {
    it(`at ${width} px: empty states, add, and Delete behind a confirm dialog`, async () => {
      const ctx = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      const problems = watchConsole(page);

      // Tax: nothing stored yet.
      await signInAsOwner(page, site, '/config/tax');
      await page.getByRole('heading', { name: 'Tax', level: 1 }).waitFor();
      await page.getByRole('heading', { name: 'No tax rules yet', level: 2 }).waitFor();
      expect(await noSideScroll(page)).toBe(true);
      await expectNoAxeViolations(page, { tags: WCAG_AA });
      const add = page.getByRole('form', { name: 'Add a tax rule' });
      const name = `Oregon ${width}`;
      await add.getByRole('textbox', { name: 'Name' }).fill(name);
      await add.getByRole('combobox', { name: 'Country' }).selectOption({ label: 'United States' });
      await add.getByRole('textbox', { name: /^Region code/ }).fill('OR');
      await add.getByRole('textbox', { name: 'Rate (%)' }).fill('1.5');
      await add.getByRole('button', { name: 'Add tax rule' }).click();
      const table = page.getByRole('table', { name: 'Tax rules' });
      const del = table.getByRole('button', { name: `Delete ${name}` });
      await del.waitFor();

      // Cancel keeps it; focus goes back to the button.
      await del.click();
      const dialog = page.getByRole('alertdialog', { name: `Delete ${name}?` });
      await dialog.waitFor();
      await expectNoAxeViolations(page, { tags: WCAG_AA });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => del.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await table.getByRole('cell', { name, exact: true }).count()).toBe(1);

      // Delete removes it and says so.
      await del.click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `${name} deleted.` })
        .first()
        .waitFor();
      await page.getByRole('heading', { name: 'No tax rules yet', level: 2 }).waitFor();

      // Coupons and shipping open in the same design.
      await page.goto(`${site.url}/config/coupons`);
      await page.getByRole('heading', { name: 'Coupons', level: 1 }).waitFor();
      await page.getByRole('form', { name: 'Add a coupon' }).waitFor();
      await expect
        .poll(
          async () =>
            (await page.getByRole('heading', { name: 'No coupons yet' }).count()) +
            (await page.getByRole('table', { name: 'Coupons' }).count()),
        )
        .toBe(1);
      expect(await noSideScroll(page)).toBe(true);
      await expectNoAxeViolations(page, { tags: WCAG_AA });
      await page.goto(`${site.url}/config/shipping`);
      await page.getByRole('heading', { name: 'Shipping', level: 1 }).waitFor();
      await page.getByRole('form', { name: 'Add a shipping option' }).waitFor();
      await expect
        .poll(
          async () =>
            (await page.getByRole('heading', { name: 'No shipping options yet' }).count()) +
            (await page.getByRole('table', { name: 'Shipping options' }).count()),
        )
        .toBe(1);
      // The add form's countries come from the list, every one of them, named.
      const picker = page.getByRole('form', { name: 'Add a shipping option' }).getByRole('group', { name: 'Countries' });
      await expect.poll(() => picker.getByRole('checkbox').count()).toBeGreaterThan(249);
      await picker.getByRole('searchbox', { name: 'Find a country' }).fill('japan');
      await expect.poll(() => picker.getByRole('checkbox').count()).toBe(1);
      expect(await noSideScroll(page)).toBe(true);
      await page.screenshot({ path: join(SHOTS, `shipping-${width}.png`), fullPage: true });
      await expectNoAxeViolations(page, { tags: WCAG_AA });
      expect(problems.filter((x) => !/Failed to load resource/.test(x))).toEqual([]);
      await ctx.close();
    });
  }
});
