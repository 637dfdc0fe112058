import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, liveSite, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';

const PAGES: Array<{ path: string; status: number; title: string; heading: string | RegExp; text: string }> = [
  { path: '/', status: 200, title: 'Fernhill Supply Co.', heading: 'Shop', text: 'Linen Camp Shirt' },
  {
    path: '/shop/p/ceramic-pour-over-set',
    status: 200,
    title: 'Ceramic Pour-Over Set — Fernhill Supply Co.',
    heading: 'Ceramic Pour-Over Set',
    text: '$39.00',
  },
  { path: '/journal', status: 200, title: 'Journal — Fernhill Supply Co.', heading: 'Journal', text: 'A better morning cup' },
  {
    path: '/journal/how-we-choose-our-linen',
    status: 200,
    title: 'How we choose our linen — Fernhill Supply Co.',
    heading: 'How we choose our linen',
    text: 'Love the transparency.',
  },
  { path: '/events', status: 200, title: 'Events — Fernhill Supply Co.', heading: 'Events', text: 'Saturday workshop open day' },
  {
    path: '/events/pour-over-tasting-evening',
    status: 200,
    title: 'Pour-over tasting evening — Fernhill Supply Co.',
    heading: 'Pour-over tasting evening',
    text: 'Fernhill Shop',
  },
  { path: '/gallery', status: 200, title: 'Gallery — Fernhill Supply Co.', heading: 'Gallery', text: 'Terracotta hills' },
  { path: '/about', status: 200, title: 'About — Fernhill Supply Co.', heading: 'About', text: 'small shop in Portland' },
  { path: '/more', status: 200, title: 'More — Fernhill Supply Co.', heading: 'More', text: 'Questions' },
  {
    path: '/search?q=walnut',
    status: 200,
    title: 'Search: walnut — Fernhill Supply Co.',
    heading: 'Search',
    text: 'Engraved Walnut Cutting Board',
  },
  { path: '/members', status: 403, title: 'Members — Fernhill Supply Co.', heading: 'Members', text: 'Join' },
  { path: '/cart', status: 200, title: 'Cart — Fernhill Supply Co.', heading: 'Cart', text: 'Cart' },
  {
    path: '/no-such-page',
    status: 404,
    title: 'Page not found — Fernhill Supply Co.',
    heading: 'Page not found',
    text: 'Go to the home page',
  },
];

describe('site pages in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite'), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  for (const js of [true, false]) {
    it(`visits every demo page type with JavaScript ${js ? 'on' : 'off'}: status, title, heading and content`, async () => {
      const context = await b.browser.newContext({ javaScriptEnabled: js });
      const page = await context.newPage();
      const problems = watchConsole(page);
      for (const p of PAGES) {
        const res = await page.goto(`${site.url}${p.path}`);
        expect(res?.status(), p.path).toBe(p.status);
        expect(await page.title(), p.path).toBe(p.title);
        expect(await page.getByRole('heading', { level: 1, name: p.heading }).isVisible(), p.path).toBe(true);
        expect(await page.getByRole('main').getByText(p.text).first().isVisible(), p.path).toBe(true);
        if (js) {
          await page.waitForFunction(() =>
            [...document.querySelectorAll('[data-island]')].every((el) => el.getAttribute('data-hydrated') === '1'),
          );
        }
      }
      // 404s are reported by the browser as failed resource loads; nothing else may be logged.
      expect(problems.filter((m) => !/status of 40[34]/.test(m))).toEqual([]);
      await context.close();
    });
  }

  it('searches from the header form without JavaScript and follows a result', async () => {
    const context = await b.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.url}/journal`);
    await page.getByRole('searchbox', { name: 'Search the site' }).fill('pour-over');
    await page.getByRole('button', { name: 'Search' }).first().click();
    await page.waitForURL(/\/search\?q=pour-over/);
    expect(await page.getByRole('status').textContent()).toMatch(/results? for “pour-over”/);
    await page.getByRole('link', { name: 'Ceramic Pour-Over Set' }).click();
    await page.waitForURL(/\/shop\/p\/ceramic-pour-over-set/);
    await context.close();
  });

  it('opens the folder menu and the mobile menu without JavaScript', async () => {
    const context = await b.browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${site.url}/`);
    expect(await page.getByRole('link', { name: 'Journal' }).isVisible()).toBe(false);
    await page.getByText('Menu').click();
    await page.getByRole('link', { name: 'Journal' }).click();
    await page.waitForURL(/\/journal$/);
    await context.close();
    const desktop = await b.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1200, height: 800 } });
    const d = await desktop.newPage();
    await d.goto(`${site.url}/`);
    await d.locator('.site-nav-desktop').getByText('More', { exact: true }).click();
    await d.getByRole('link', { name: 'Questions' }).click();
    await d.waitForURL(/\/faq$/);
    await desktop.close();
  });

  it('opens a gallery image in the lightbox, moves with the arrow keys, closes on Escape and returns focus', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/gallery`);
    await page.waitForFunction(() => document.querySelector('[data-island="Gallery"]')?.getAttribute('data-hydrated') === '1');
    const opener = page.getByRole('link', { name: 'Open Terracotta hills in a larger view' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Terracotta hills' });
    await dialog.waitFor();
    expect(await dialog.getAttribute('class')).toContain('gallery-lightbox--dark');
    await page.keyboard.press('ArrowRight');
    await page.getByRole('dialog', { name: 'Blue ridge' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('opens the full-size image without JavaScript', async () => {
    const context = await b.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.url}/gallery`);
    const href = await page.getByRole('link', { name: 'Open The valley at dawn in a larger view' }).getAttribute('href');
    expect(href).toBe('/demo-media/gallery-1.jpg?format=1500w');
    const img = await page.request.get(`${site.url}${href}`);
    expect(img.status()).toBe(200);
    await context.close();
  });

  it('loads responsive image variants in the page', async () => {
    const context = await b.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${site.url}/journal/a-better-morning-cup`);
    const img = page.locator('.journal-post__image img');
    await img.evaluate((el: HTMLImageElement) => (el.complete ? null : new Promise((r) => el.addEventListener('load', r))));
    const src = await img.evaluate((el: HTMLImageElement) => el.currentSrc);
    expect(src).toMatch(/format=\d+w$/);
    expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
    await context.close();
  });
});
