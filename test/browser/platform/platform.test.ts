import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { rows } from '../../../src/server/db-util.js';
import { siteUserMessages } from '../../../src/server/platform/site-users.js';

describe('platform in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  it('an owner creates a store, adds a product with two variants and stock, sees it on the site, changes the price and sees the new price', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await signInAsOwner(page, site);

    await page.getByRole('link', { name: 'Products', exact: true }).click();
    await page.waitForURL(`${site.url}/config/products`);
    const creator = page.getByRole('form', { name: 'Create a store' });
    await creator.getByLabel('Store title').fill('Goods');
    await creator.getByRole('button', { name: 'Create store' }).click();
    await creator.getByRole('status').filter({ hasText: 'Store created at /goods.' }).waitFor();

    // The product editor (issue 24): one option with two values makes two variants.
    await page.getByRole('link', { name: 'Add product' }).click();
    const form = page.getByRole('form', { name: 'New product' });
    await form.getByLabel('Title', { exact: true }).fill('Field Notebook');
    await form.getByLabel('Store').selectOption({ label: 'Goods' });
    await form.getByRole('button', { name: 'Add options like size or colour' }).click();
    const option = form.getByRole('group', { name: 'Option 1' });
    await option.getByLabel('Option name').fill('Color');
    for (const v of ['Green', 'Rust']) {
      await option.getByLabel('Add a value to Color').fill(v);
      await option.getByLabel('Add a value to Color').press('Enter');
    }
    const v1 = form.getByRole('group', { name: 'Variant Green' });
    await v1.getByLabel('SKU').fill('NB-GREEN');
    await v1.getByLabel('Price', { exact: true }).fill('12.00');
    await v1.getByLabel('Stock', { exact: true }).fill('5');
    const v2 = form.getByRole('group', { name: 'Variant Rust' });
    await v2.getByLabel('SKU').fill('NB-RUST');
    await v2.getByLabel('Price', { exact: true }).fill('13.00');
    await v2.getByLabel('Stock', { exact: true }).fill('3');
    await form.getByRole('button', { name: 'Publish' }).click();
    await page.waitForURL(/\/config\/products\/[0-9a-f]{24}$/);
    const editUrl = page.url();

    const shop = await context.newPage();
    await shop.goto(`${site.url}/goods/p/field-notebook`);
    expect(await shop.getByRole('heading', { name: 'Field Notebook' }).isVisible()).toBe(true);
    expect(await shop.locator('body').textContent()).toContain('$12.00');

    await page.goto(editUrl);
    const edit = page.getByRole('form', { name: 'Edit product' });
    await edit.getByRole('group', { name: 'Variant Green' }).getByLabel('Price', { exact: true }).fill('11.50');
    await edit.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();

    await shop.reload();
    // The page shows the lowest price of the varied variants ('from'), now the Green one's new price.
    const text = await shop.locator('body').textContent();
    expect(text).toContain('$11.50');
    expect(text).not.toContain('$12.00');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a visitor signs up, signs in, and signs out keeping the cart', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/shop/p/ceramic-pour-over-set`);
    const status = await page.evaluate(
      async (body) => {
        const crumb = document.cookie
          .split('; ')
          .find((c) => c.startsWith('crumb='))!
          .slice(6);
        const res = await fetch('/api/commerce/shopping-cart/entries', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': crumb },
          body: JSON.stringify(body),
        });
        return res.status;
      },
      { itemId: site.seed.productIds['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 },
    );
    expect(status).toBe(200);

    await page.goto(`${site.url}/account/signup`);
    await page.waitForFunction(() => document.querySelector('[data-island="AccountPage"]')?.getAttribute('data-hydrated') === '1');
    await page.getByLabel('Name').fill('Grace');
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Password').fill('a long enough secret');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('status').filter({ hasText: siteUserMessages.SIGN_UP_SENT }).waitFor();

    // The confirmation link from the email (the outbox keeps it when no relay is configured).
    const mail = await rows<{ text_body: string }>(
      site.database.db,
      sql`select text_body from mail_outbox where to_address = 'grace@example.com' order by id desc limit 1`,
    );
    const link = mail[0]!.text_body.match(/https?:\/\/\S+\/account\/confirm\?token=\S+/)![0];
    await page.goto(link);
    await page.waitForURL(`${site.url}/account`);
    expect(await page.getByText('Signed in as Grace (grace@example.com).').isVisible()).toBe(true);

    // Sign out (keeping the cart), then sign in with the form.
    await page.waitForFunction(() => document.querySelector('[data-island="AccountPage"]')?.getAttribute('data-hydrated') === '1');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${site.url}/account/login`);
    await page.waitForFunction(() => document.querySelector('[data-island="AccountPage"]')?.getAttribute('data-hydrated') === '1');
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Password').fill('a long enough secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${site.url}/account`);
    await page.getByRole('link', { name: 'One item in cart' }).waitFor();

    // Sign out with the cart kept: the signed-out visitor still has the item.
    await page.waitForFunction(() => document.querySelector('[data-island="AccountPage"]')?.getAttribute('data-hydrated') === '1');
    expect(await page.getByLabel('Keep my cart on this device').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${site.url}/account/login`);
    await page.getByRole('link', { name: 'One item in cart' }).waitFor();
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'tessera_site_user')).toBeUndefined();
    expect(problems).toEqual([]);
    await context.close();
  });
});
