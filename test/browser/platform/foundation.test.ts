import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, liveSite, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { OWNER } from '../../helpers/app.js';

describe('foundation in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite'), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  it('renders home and product pages; the pill appears after an add, with its spoken label', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/`);
    expect(await page.getByRole('link', { name: 'Fernhill Supply Co.' }).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Shop' }).isVisible()).toBe(true);
    // The pill is in the page but hidden while the cart is empty.
    expect(await page.locator('[data-test=cart-pill]').count()).toBe(1);
    expect(await page.getByRole('link', { name: /in cart/ }).count()).toBe(0);

    await page.goto(`${site.url}/shop/p/ceramic-pour-over-set`);
    expect(await page.getByRole('heading', { name: 'Ceramic Pour-Over Set' }).isVisible()).toBe(true);

    // One add-to-cart call through the API, from the page, with the crumb cookie.
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
    await page.reload();
    // The pill reads the cart after hydration (its label says 'empty' until the first sync), so wait for it.
    const pill = page.getByRole('link', { name: 'One item in cart' });
    await pill.waitFor();
    expect((await pill.textContent())?.trim()).toBe('1');
    expect(await pill.getAttribute('href')).toBe('/cart');
    // Hydrated without warnings.
    await page.waitForFunction(() => document.querySelector('[data-island="CartPill"]')?.getAttribute('data-hydrated') === '1');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('lets an owner sign in, refuses a wrong password, and redirects /config without a session', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.url}/config`);
    expect(new URL(page.url()).pathname).toBe('/config/login');

    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('That email and password do not match an account.');

    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${site.url}/config`);
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor();
    // The owner's menu in the top bar says who is signed in.
    await page.getByRole('button', { name: /^Account/ }).click();
    await page.getByRole('menu').getByText(`Signed in as ${OWNER.email}`).waitFor();
    await page.keyboard.press('Escape');
    expect(await page.getByRole('navigation', { name: 'Admin' }).isVisible()).toBe(true);
    await context.close();
  });

  it('signs in without JavaScript through the plain form post', async () => {
    const context = await b.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.url}/config/login`);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill('nope');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe('That email and password do not match an account.');
    await context.close();
  });
});
