/**
 * Anonymous pages revalidate (issue 42): Chromium keeps a page, asks again with If-None-Match, gets a 304,
 * and the kept page still runs its scripts (the 304 brings no new CSP nonce); the back/forward cache
 * restores it. At 390 and 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Page } from 'playwright-core';
import { VISITOR_COOKIE_NAME } from '../../../src/core/cookies.js';
import { CHROMIUM, hydrated, launchBrowser, liveSite, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';

const PRODUCT = '/shop/p/linen-camp-shirt';

describe('revalidated pages in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  const answered: Array<{ url: string; status: number }> = [];
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
    // What the server answered, as it went on the wire (the browser shows a 304 to the page as its kept 200).
    site.app.server.prependListener('request', (req, res) =>
      res.on('finish', () => answered.push({ url: req.url ?? '', status: res.statusCode })),
    );
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  /** The document responses the page got, with the status the server sent and the validator the browser sent. */
  const documents = (page: Page) => {
    const seen: Array<{ url: string; status: number; ifNoneMatch: string | undefined }> = [];
    page.on('response', async (r) => {
      if (!r.request().isNavigationRequest()) return;
      const sent = await r.request().allHeaders();
      seen.push({ url: r.url(), status: r.status(), ifNoneMatch: sent['if-none-match'] });
    });
    return seen;
  };

  for (const width of [390, 1280]) {
    it(`a reload is answered 304 and the kept page still hydrates, at ${width} px`, async () => {
      answered.length = 0;
      const context = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const errors = watchConsole(page);
      const docs = documents(page);
      const first = await page.goto(`${site.url}${PRODUCT}`);
      expect(first?.status()).toBe(200);
      expect(await first!.headerValue('etag')).toMatch(/^"/);
      await page.waitForFunction(...hydrated('CartPill'));
      // The first visit gives the visitor their cookies (the visitor cookie an experiment's assignment follows,
      // which shows in the page): the next load is that visitor's page, and a reload after it is unchanged.
      const hasVisitorCookie = async () => (await context.cookies()).some((c) => c.name === VISITOR_COOKIE_NAME);
      await expect.poll(hasVisitorCookie, { timeout: 15_000 }).toBe(true);
      await page.reload();
      await page.waitForFunction(...hydrated('CartPill'));
      await page.waitForLoadState('networkidle');
      const kept = answered.filter((x) => x.url === PRODUCT).length;
      const [again] = await Promise.all([page.waitForResponse((r) => r.url() === `${site.url}${PRODUCT}`), page.reload()]);
      // The browser asked with the tag it kept; the server's 304 is shown to the page as the kept 200.
      const sent = await again.request().allHeaders();
      expect(sent['if-none-match']).toMatch(/^"/);
      expect(
        answered
          .filter((x) => x.url === PRODUCT)
          .slice(kept)
          .map((x) => x.status),
      ).toEqual([304]);
      await page.waitForFunction(...hydrated('CartPill'));
      expect(errors.filter((e) => /Content Security Policy|nonce/i.test(e))).toEqual([]);
      expect(docs.length).toBeGreaterThanOrEqual(2);
      await context.close();
    });
  }

  it('the back/forward cache restores an anonymous page', async () => {
    // Playwright switches the back/forward cache off by default: this browser keeps it, as a visitor's does.
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
      ignoreDefaultArgs: ['--disable-back-forward-cache'],
    });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Page.enable');
      const notRestored: string[] = [];
      cdp.on('Page.backForwardCacheNotUsed', (e) => notRestored.push(JSON.stringify(e.notRestoredExplanations)));
      await page.addInitScript(() => {
        addEventListener('pageshow', (e) => {
          (window as unknown as { restored: boolean }).restored = e.persisted;
        });
      });
      await page.goto(`${site.url}/journal`);
      await page.waitForFunction(...hydrated('CartPill'));
      // The page's own requests (the analytics beacon) are done, as they are by the time a reader moves on.
      await page.waitForLoadState('networkidle');
      await page.goto(`${site.url}/gallery`);
      await page.waitForFunction(...hydrated('CartPill'));
      // A page restored from the cache fires no load event: wait for the navigation to commit, then its pageshow.
      await page.goBack({ waitUntil: 'commit' });
      await page.waitForURL(`${site.url}/journal`, { waitUntil: 'commit' });
      await page.waitForFunction(() => (window as unknown as { restored?: boolean }).restored !== undefined);
      expect(notRestored).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { restored?: boolean }).restored)).toBe(true);
    } finally {
      await browser.close();
    }
  });
});
