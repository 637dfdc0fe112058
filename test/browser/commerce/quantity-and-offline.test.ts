/**
 * Issue 45 in Chromium, found by role and name: the product page's quantity messages (JavaScript on and off),
 * the cart's connection message, and the cart pill's spoken label without JavaScript.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { hydrated, launchBrowser, liveSite, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { cart as cartMessages, commerce } from '../../../src/core/messages.js';

const PRODUCT = '/shop/p/ceramic-pour-over-set';

describe('issue 45 storefront in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  async function addByApi(context: BrowserContext, quantity: number) {
    const page = await context.newPage();
    await page.goto(`${site.url}/health`);
    const crumb = (await context.cookies()).find((c) => c.name === 'crumb')?.value ?? '';
    const res = await context.request.post(`${site.url}/api/commerce/shopping-cart/entries`, {
      headers: { 'x-csrf-token': crumb, 'content-type': 'application/json' },
      data: { itemId: site.seed.productIds['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity },
    });
    expect(res.status()).toBe(200);
    await page.close();
  }

  const productPage = async (context: BrowserContext, js: boolean): Promise<Page> => {
    const page = await context.newPage();
    await page.goto(`${site.url}${PRODUCT}`);
    if (js) await page.waitForFunction(...hydrated('AddToCart'));
    return page;
  };

  describe('the quantity box answers with its own messages, not the browser validation', () => {
    for (const js of [true, false]) {
      it(`with JavaScript ${js ? 'on' : 'off'}`, async () => {
        const context = await b.browser.newContext({ javaScriptEnabled: js });
        for (const [typed, message] of [
          ['1.5', commerce.QUANTITY_NOT_WHOLE],
          ['1e', commerce.QUANTITY_NOT_A_NUMBER],
          ['abc', commerce.QUANTITY_NOT_A_NUMBER],
        ] as const) {
          const page = await productPage(context, js);
          const article = page.getByRole('article');
          const quantity = article.getByRole('textbox', { name: 'Quantity' });
          await quantity.fill(typed);
          await article.getByRole('button', { name: 'Add To Cart' }).click();
          if (js) {
            const alert = article.getByRole('alert');
            await expect.poll(() => alert.textContent()).toContain(message);
            // The field says it is invalid and is described by the message.
            expect(await quantity.getAttribute('aria-invalid')).toBe('true');
            const describedBy = (await quantity.getAttribute('aria-describedby')) ?? '';
            expect(await page.locator(`[id="${describedBy}"]`).textContent()).toContain(message);
          } else {
            // The form went to the server, which answers with the same words.
            await expect.poll(() => page.getByText(message).count()).toBeGreaterThan(0);
          }
          await page.close();
        }
        // A whole number still adds.
        const page = await productPage(context, js);
        const article = page.getByRole('article');
        await article.getByRole('textbox', { name: 'Quantity' }).fill('2');
        await article.getByRole('button', { name: 'Add To Cart' }).click();
        if (js) await expect.poll(() => page.getByRole('link', { name: '2 items in cart' }).isVisible(), { timeout: 5000 }).toBe(true);
        else
          await expect
            .poll(async () => (await context.request.get(`${site.url}/api/commerce/shopping-cart`)).json().then((c) => c.totalQuantity))
            .toBe(2);
        await context.close();
      });
    }
  });

  it('the cart quantity field on /cart gives the spec message too, and is tied to it', async () => {
    const context = await b.browser.newContext();
    await addByApi(context, 1);
    const page = await context.newPage();
    await page.goto(`${site.url}/cart`);
    await page.waitForFunction(...hydrated('CartPage'));
    const field = page.getByRole('textbox', { name: /Quantity of/ });
    await field.fill('1.5');
    await page.getByRole('button', { name: /Update quantity of/ }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain(commerce.QUANTITY_NOT_WHOLE);
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.getAttribute('aria-describedby')).toBe('cart-alert');
    await context.close();
  });

  it('an add that gets no answer says to check the connection, offline or while the browser thinks it is online', async () => {
    const context = await b.browser.newContext();
    const page = await productPage(context, true);
    const article = page.getByRole('article');
    await page.route('**/api/commerce/shopping-cart/entries', (route) => route.abort('internetdisconnected'));
    await article.getByRole('button', { name: 'Add To Cart' }).click();
    await expect.poll(() => article.getByRole('alert').textContent()).toContain(cartMessages.CHECK_INTERNET);
    await page.unroute('**/api/commerce/shopping-cart/entries');
    // The button is idle again after 1 s; then the browser goes offline.
    await expect.poll(() => article.getByRole('button', { name: 'Add To Cart' }).getAttribute('aria-disabled')).toBeNull();
    await context.setOffline(true);
    await article.getByRole('button', { name: 'Add To Cart' }).click();
    await expect.poll(() => article.getByRole('alert').textContent()).toContain(cartMessages.CHECK_INTERNET);
    expect(await article.getByRole('alert').textContent()).not.toContain('Network error');
    await context.close();
  });

  it('without JavaScript the cart pill is named by its count, on a page the cache shares', async () => {
    const context = await b.browser.newContext({ javaScriptEnabled: false });
    await addByApi(context, 3);
    const anonymous = await b.browser.newContext({ javaScriptEnabled: false });
    for (const path of ['/shop', '/', '/shop']) {
      const other = await anonymous.newPage();
      await other.goto(`${site.url}${path}`);
      await other.close();
      const page = await context.newPage();
      await page.goto(`${site.url}${path}`);
      const pill = page.getByRole('link', { name: '3 items in cart' });
      expect(await pill.isVisible(), path).toBe(true);
      expect(await pill.textContent()).toContain('3');
      await page.close();
    }
    await anonymous.close();
    await context.close();
  });
});
