/** /config writes dates the shop's way (Site settings' locale and time zone), whatever the browser's language. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { OWNER, Visitor } from '../../helpers/app.js';

describe('dates in the shop’s locale in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let owner: Visitor;

  async function setLocale(locale: string, timeZone: string) {
    const current = (await owner.get('/api/admin/site-settings')).json().settings;
    const r = await owner.send('PUT', '/api/admin/site-settings', { ...current, locale, timeZone });
    expect(r.statusCode, r.body).toBe(200);
  }

  beforeAll(async () => {
    site = await liveSite();
    b = await launchBrowser();
    owner = new Visitor(site.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    // Noon in London on 31 January 2027.
    const made = await owner.send('POST', '/api/checkout/admin/coupons', {
      code: 'JANUARY',
      kind: 'percent',
      percentBasisPoints: 1000,
      expiresAt: Date.UTC(2027, 0, 31, 12),
    });
    expect(made.statusCode, made.body).toBe(200);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  for (const [width, locale, timeZone, shown] of [
    [1280, 'en-GB', 'Europe/London', '31/01/2027'],
    [390, 'en-US', 'America/New_York', '1/31/2027'],
    [1280, 'ja-JP', 'Asia/Tokyo', '2027/1/31'],
  ] as const) {
    it(`at ${width} px, a ${locale} shop in a browser set to another language shows the coupon's end as ${shown}`, async () => {
      await setLocale(locale, timeZone);
      const ctx = await b.browser.newContext({ viewport: { width, height: 900 }, locale: locale === 'ja-JP' ? 'de-DE' : 'ja-JP' });
      const page = await ctx.newPage();
      const problems = watchConsole(page);
      await signInAsOwner(page, site, '/config/coupons');
      const row = page.getByRole('row', { name: /JANUARY/ });
      await row.waitFor();
      await expect.poll(() => row.getByRole('cell', { name: shown, exact: true }).count()).toBe(1);
      expect(problems.filter((x) => !/Failed to load resource/.test(x))).toEqual([]);
      await ctx.close();
    });
  }
});
