import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { launchBrowser, liveSite, signInAsOwner, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { FONT_LIBRARY } from '../../../src/core/font-library.js';
import { expectNoAxeViolations, WCAG_AA } from '../../helpers/axe.js';

/** The computed colour, background and first font family of an element. */
const look = (l: Locator) =>
  l.evaluate((el) => {
    const s = getComputedStyle(el);
    return {
      background: s.backgroundColor,
      color: s.color,
      font: s.fontFamily.split(',')[0]!.replace(/["']/g, '').trim(),
      transform: s.textTransform,
    };
  });

const lora = FONT_LIBRARY.find((f) => f.id === 'lora')!;

describe('site styles everywhere in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  it('the Site styles screen passes axe at 390 and 1280 px and previews library fonts from the site', async () => {
    const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signInAsOwner(await context.newPage(), site);
    const fontRequests: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'font') fontRequests.push(r.url());
    });
    await page.getByRole('link', { name: 'Site styles', exact: true }).click();
    const form = page.getByRole('form', { name: 'Site styles' });
    await form.getByLabel('Buttons font').waitFor();
    // The library is offered with its families; choosing one previews it in place.
    expect(await form.getByLabel('Buttons font').locator('option').allTextContents()).toEqual(
      expect.arrayContaining(FONT_LIBRARY.map((f) => `${f.name} (${f.category})`)),
    );
    await form.getByLabel('Headings font').selectOption(FONT_LIBRARY.find((f) => f.id === 'playfair-display')!.stack);
    await expect.poll(() => page.evaluate(() => document.fonts.check('600 16px "Playfair Display"', 'Aa')), { timeout: 10_000 }).toBe(true);
    expect(await form.getByText('Unable to load preview for a font').count()).toBe(0);
    expect(fontRequests.length).toBeGreaterThan(0);
    expect(fontRequests.every((u) => u.startsWith(`${site.url}/site-fonts/`))).toBe(true);
    await expectNoAxeViolations(page, { tags: WCAG_AA });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoAxeViolations(page, { tags: WCAG_AA });
    await context.close();
  });

  it('changing the accent and the buttons font changes Add To Cart, the checkout buttons and the order-confirmed buttons; no font comes from another host', async () => {
    const owner = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const admin = await signInAsOwner(await owner.newPage(), site);
    await admin.getByRole('link', { name: 'Site styles', exact: true }).click();
    const form = admin.getByRole('form', { name: 'Site styles' });
    await form.getByLabel('Accent', { exact: true }).fill('#aa3300');
    await form.getByLabel('Buttons font').selectOption(lora.stack);
    await form.getByLabel('Buttons weight').selectOption('700');
    await form.getByLabel('Button shape').selectOption('square');
    // The preview button shows the choice before it is saved.
    const preview = form.locator('.ed-button-preview');
    expect(await look(preview)).toMatchObject({ background: 'rgb(170, 51, 0)', font: 'Lora' });
    await form.getByRole('button', { name: 'Save styles' }).click();
    await admin.getByRole('status').filter({ hasText: 'Styles saved.' }).waitFor();
    await owner.close();

    const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    const fonts: string[] = [];
    context.on('request', (r) => {
      requests.push(r.url());
      if (r.resourceType() === 'font') fonts.push(r.url());
    });
    const page = await context.newPage();
    await page.goto(`${site.url}/shop/p/houseplant-field-guide`);
    await page.waitForFunction(() => document.querySelector('[data-island="AddToCart"]')?.getAttribute('data-hydrated') === '1');
    const add = page.getByRole('article').getByRole('button', { name: 'Add To Cart' });
    expect(await look(add)).toMatchObject({ background: 'rgb(170, 51, 0)', color: 'rgb(255, 255, 255)', font: 'Lora' });
    expect(await add.evaluate((el) => getComputedStyle(el).borderTopLeftRadius)).toBe('0px');
    // The font itself is loaded (from the site), not only named.
    await expect.poll(() => page.evaluate(() => document.fonts.check('700 16px Lora', 'Aa')), { timeout: 10_000 }).toBe(true);
    await add.click();
    await expect.poll(() => page.getByRole('link', { name: 'One item in cart' }).isVisible(), { timeout: 5000 }).toBe(true);

    await page.goto(`${site.url}/cart`);
    const toCheckout = page.getByRole('link', { name: 'Checkout', exact: true });
    await toCheckout.waitFor();
    expect(await look(toCheckout)).toMatchObject({ background: 'rgb(170, 51, 0)', font: 'Lora' });
    await toCheckout.click();
    await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    await page.waitForFunction(() => document.querySelector('[data-island="CheckoutPage"]')?.getAttribute('data-hydrated') === '1');
    const place = page.getByRole('button', { name: 'Place order' });
    expect(await look(place)).toMatchObject({ background: 'rgb(170, 51, 0)', color: 'rgb(255, 255, 255)', font: 'Lora' });

    await page.getByLabel('Email').fill('reader@example.com');
    await page.getByLabel('Name on card').fill('Ray Reader');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/40');
    await page.getByLabel('Security code (CVC)').fill('123');
    await place.click();
    await page.waitForURL(/\/order-confirmed\//);
    await page.getByRole('heading', { name: 'Thank you! Your order is confirmed.' }).waitFor();
    for (const name of ['View your order status', 'Continue shopping']) {
      expect(await look(page.getByRole('link', { name })), name).toMatchObject({
        background: 'rgb(170, 51, 0)',
        color: 'rgb(255, 255, 255)',
        font: 'Lora',
      });
    }
    await expect.poll(() => page.evaluate(() => document.fonts.check('700 16px Lora', 'Aa')), { timeout: 10_000 }).toBe(true);

    // Every font came from the site itself, and nothing was asked of another host.
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.every((u) => u.startsWith(`${site.url}/site-fonts/`))).toBe(true);
    expect(requests.filter((u) => !u.startsWith(site.url) && !u.startsWith('data:'))).toEqual([]);
    await context.close();
  });
});
