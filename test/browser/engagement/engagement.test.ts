import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Request } from 'playwright-core';
import {
  launchBrowser,
  liveSite,
  pageTurn,
  signInAsOwner,
  watchConsole,
  type BrowserSession,
  type LiveSite,
} from '../../helpers/browser.js';
import { OWNER, Visitor } from '../../helpers/app.js';
import { mailingListsOf } from '../../../src/server/engagement/index.js';
import { engagement as em } from '../../../src/core/messages.js';
import { expectNoAxeViolations } from '../../helpers/axe.js';

const API = '/api/config/engagement';
const ANALYTICS = /\/api\/(census\/|v1\/events|events\/|1\/performance\/)/;
const POPUP = {
  enabled: true,
  title: 'Ten percent off',
  text: 'Join the list for news and offers.',
  imageUrl: '',
  imageAlt: '',
  action: 'newsletter',
  buttonText: 'Sign Up',
  buttonUrl: '',
  placeholder: 'you@example.com',
  successText: 'Welcome aboard!',
  listId: null,
  anchor: 'bottom-right',
  trigger: 'delay',
  delaySeconds: 1,
  scrollPercent: 50,
  pages: 'all',
  showAgainDays: 0,
  captcha: false,
};

/** Well past the tracker's start (on the page's first idle moment, at most a second after load). */
const TRACKER_WAIT_MS = 5000;

describe('engagement in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let owner: Visitor;

  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
    owner = new Visitor(site.app);
    expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  it('the popup appears at its anchor, traps focus, closes on Escape, stays closed after reload and returns when its version changes', async () => {
    expect((await owner.send('PUT', `${API}/popup`, POPUP)).statusCode).toBe(200);
    const context = await b.browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    const problems = watchConsole(page);
    // A fake clock (still flowing), so the popup's delay can be passed at once.
    await page.clock.install();
    await page.goto(`${site.url}/journal`);
    // Something on the page has focus when the popup opens; it gets it back on close.
    const opener = page.getByRole('link', { name: 'Shop', exact: true }).first();
    await opener.focus();
    const dialog = page.getByRole('dialog', { name: 'Ten percent off' });
    await dialog.waitFor({ timeout: 10_000 });
    await expectNoAxeViolations(page, { include: ['[role="dialog"]'] });
    const box = (await dialog.boundingBox())!;
    expect(Math.round(1200 - (box.x + box.width))).toBe(24);
    expect(Math.round(800 - (box.y + box.height))).toBe(24);
    // Focus is inside and stays inside while tabbing.
    for (let i = 0; i < 6; i++) {
      expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Shift+Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('tessera.popupOverlay.closedDate'))).not.toBeNull();

    // Closed: a reload, its clock moved well past the delay, shows nothing.
    await page.reload();
    await page.waitForFunction(() => document.querySelector('[data-island="PromoPopup"]')?.getAttribute('data-hydrated') === '1');
    await page.clock.fastForward(POPUP.delaySeconds * 1000 * 3);
    await pageTurn(page);
    expect(await page.getByRole('dialog').count()).toBe(0);

    // The owner changes the popup on its /config screen: its version goes up and it shows again.
    const stored = Number(await page.evaluate(() => localStorage.getItem('tessera.popupOverlay.version')));
    const admin = await signInAsOwner(await (await b.browser.newContext()).newPage(), site, '/config/popup');
    const form = admin.getByRole('form', { name: 'Promo popup' });
    await form.getByRole('textbox', { name: 'Title', exact: true }).fill('Fifteen percent off');
    await form.getByRole('radio', { name: 'top left' }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.getByRole('status').textContent(), { timeout: 10_000 }).toBe(`Saved (version ${stored + 1}).`);
    await admin.context().close();
    await page.reload();
    const again = page.getByRole('dialog', { name: 'Fifteen percent off' });
    await again.waitFor({ timeout: 10_000 });
    const box2 = (await again.boundingBox())!;
    expect(Math.round(box2.x)).toBe(24);
    expect(Math.round(box2.y)).toBe(24);
    await page.getByRole('button', { name: em.POPUP_CLOSE }).click();
    await again.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  it('a scroll-triggered popup waits for the visitor to scroll', async () => {
    await owner.send('PUT', `${API}/popup`, { ...POPUP, title: 'Scrolled', trigger: 'scroll', scrollPercent: 60, anchor: 'center-center' });
    const context = await b.browser.newContext({ viewport: { width: 1000, height: 320 } });
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(`${site.url}/shop`);
    await page.waitForFunction(() => document.querySelector('[data-island="PromoPopup"]')?.getAttribute('data-hydrated') === '1');
    expect(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight * 2)).toBe(true);
    // Time alone (well past the delay a delayed popup would wait) does not open it.
    await page.clock.fastForward(POPUP.delaySeconds * 1000 * 3);
    await pageTurn(page);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const dialog = page.getByRole('dialog', { name: 'Scrolled' });
    await dialog.waitFor({ timeout: 10_000 });
    const box = (await dialog.boundingBox())!;
    expect(Math.abs(box.x + box.width / 2 - 500)).toBeLessThan(2);
    await context.close();
  }, 60_000);

  it('an exit-intent popup opens when the pointer leaves through the top of the window', async () => {
    await owner.send('PUT', `${API}/popup`, {
      ...POPUP,
      title: 'Before you go',
      trigger: 'exit',
      action: 'button',
      buttonText: 'See the shop',
      buttonUrl: '/shop',
    });
    const context = await b.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.url}/`);
    await page.waitForFunction(() => document.querySelector('[data-island="PromoPopup"]')?.getAttribute('data-hydrated') === '1');
    await page.mouse.move(400, 300);
    await page.mouse.move(400, 120);
    expect(await page.getByRole('dialog').count()).toBe(0);
    // Leaving the document through its top edge (what a real pointer heading for the tabs does).
    await page.evaluate(() =>
      document.documentElement.dispatchEvent(new MouseEvent('mouseout', { bubbles: true, clientX: 400, clientY: 0, relatedTarget: null })),
    );
    const dialog = page.getByRole('dialog', { name: 'Before you go' });
    await dialog.waitFor({ timeout: 5000 });
    await dialog.getByRole('link', { name: 'See the shop' }).click();
    await page.waitForURL(`${site.url}/shop`);
    expect(await page.evaluate(() => localStorage.getItem('tessera.popupOverlay.submitted'))).toBe('true');
    await context.close();
  }, 60_000);

  it('opening the promo popup sends /api/census/overlay (not at load, when it opens)', async () => {
    await owner.send('PUT', `${API}/popup`, {
      ...POPUP,
      title: 'Counted',
      trigger: 'exit',
      action: 'button',
      buttonText: 'See the shop',
      buttonUrl: '/shop',
    });
    const context = await b.browser.newContext();
    const overlays: Request[] = [];
    context.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/census/overlay') overlays.push(r);
    });
    const page = await context.newPage();
    await page.goto(`${site.url}/`);
    await page.waitForFunction(() => document.querySelector('[data-island="PromoPopup"]')?.getAttribute('data-hydrated') === '1');
    await page.waitForFunction(() => document.cookie.includes('ss_cvr=')); // the tracker has started
    expect(overlays).toHaveLength(0);
    const sent = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/census/overlay');
    await page.evaluate(() =>
      document.documentElement.dispatchEvent(new MouseEvent('mouseout', { bubbles: true, clientX: 400, clientY: 0, relatedTarget: null })),
    );
    await page.getByRole('dialog', { name: 'Counted' }).waitFor({ timeout: 5000 });
    const body = JSON.parse((await sent).postData() ?? '{}');
    expect(body.overlayId).toMatch(/^promo-popup-\d+$/);
    expect(body.websiteId).toBe(site.seed.websiteId);
    expect(overlays).toHaveLength(1);
    await context.close();
  }, 60_000);

  it('a sign-up from the popup appears in the owner list, and the unsubscribe link removes it', async () => {
    await owner.send('PUT', `${API}/popup`, { ...POPUP, title: 'Join us', delaySeconds: 0 });
    const context = await b.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.url}/`);
    const dialog = page.getByRole('dialog', { name: 'Join us' });
    await dialog.waitFor({ timeout: 10_000 });
    await dialog.getByRole('textbox', { name: em.POPUP_EMAIL_LABEL }).fill('popup-reader@example.com');
    await dialog.getByRole('button', { name: 'Sign Up' }).click();
    await expect.poll(() => dialog.getByRole('status').textContent(), { timeout: 10_000 }).toBe('Welcome aboard!');
    expect(await page.evaluate(() => localStorage.getItem('tessera.popupOverlay.submitted'))).toBe('true');

    const admin = await signInAsOwner(await (await b.browser.newContext()).newPage(), site, '/config/mailing-lists');
    const members = admin.getByRole('table', { name: 'Members of Newsletter' });
    const row = members.getByRole('row').filter({ hasText: 'popup-reader@example.com' });
    await expect.poll(() => row.getByRole('cell').nth(1).textContent(), { timeout: 10_000 }).toBe('subscribed');

    // The visitor follows the unsubscribe link of an email to the list (no sign-in).
    const id = (await mailingListsOf(site.app).members(site.seed.websiteId, await defaultListId(), { limit: 50, offset: 0 })).members.find(
      (m) => m.email === 'popup-reader@example.com',
    )!.id;
    const url = await mailingListsOf(site.app).unsubscribeUrl(id);
    await page.goto(url);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: em.UNSUBSCRIBE_BUTTON }).click();
    await page.getByRole('heading', { name: em.UNSUBSCRIBED_TITLE }).waitFor();

    await admin.reload();
    await expect
      .poll(
        () =>
          admin
            .getByRole('table', { name: 'Members of Newsletter' })
            .getByRole('row')
            .filter({ hasText: 'popup-reader@example.com' })
            .getByRole('cell')
            .nth(1)
            .textContent(),
        { timeout: 10_000 },
      )
      .toBe('unsubscribed');
    await owner.send('PUT', `${API}/popup`, { ...POPUP, enabled: false });

    // The owner previews the emails Tessera sends (301), the newsletter confirmation among them.
    await admin.goto(`${site.url}/config/emails`);
    await admin.getByRole('combobox', { name: 'Email' }).selectOption({ label: 'Newsletter confirmation' });
    const preview = admin.getByRole('region', { name: 'Preview: Newsletter confirmation' });
    await preview.waitFor();
    expect(await preview.textContent()).toContain('Confirm your subscription to');
    await preview.locator('iframe[title="Newsletter confirmation (HTML)"]').waitFor();
  }, 90_000);

  async function defaultListId(): Promise<string> {
    const r = await owner.get(`${API}/lists`);
    return (r.json() as { lists: Array<{ id: string; isDefault: boolean }> }).lists.find((l) => l.isDefault)!.id;
  }

  it('with opt-in cookies refused, no analytics request is made and the census cookies are cleared; accepting starts analytics', async () => {
    const admin = await signInAsOwner(await (await b.browser.newContext()).newPage(), site, '/config/cookies');
    const form = admin.getByRole('form', { name: 'Cookie banner' });
    await form.getByRole('radio', { name: /^Opt-in/ }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.getByRole('status').textContent(), { timeout: 10_000 }).toBe('Saved.');
    await admin.context().close();

    const context = await b.browser.newContext();
    const seen: Request[] = [];
    context.on('request', (r) => {
      if (ANALYTICS.test(new URL(r.url()).pathname)) seen.push(r);
    });
    await context.addCookies([{ name: 'ss_cvr', value: 'old-visitor|1|1|1|1', url: site.url }]);
    // A fake clock (still flowing) on the context, so the tracker's waits can be passed at once.
    await context.clock.install();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/shop`);
    const banner = page.getByRole('region', { name: em.BANNER_LABEL });
    await banner.waitFor();
    await page.waitForFunction(() => document.querySelector('[data-island="CookieBanner"]')?.getAttribute('data-hydrated') === '1');
    await expectNoAxeViolations(page, { include: ['.tessera-cookie-banner'] });
    // Before any choice: nothing is sent, however long the visitor stays.
    await page.clock.fastForward(TRACKER_WAIT_MS);
    await pageTurn(page);
    expect(seen.map((r) => r.url())).toEqual([]);
    await banner.getByRole('button', { name: em.BANNER_REJECT }).click();
    await banner.waitFor({ state: 'detached' });
    expect((await context.cookies()).find((c) => c.name === 'ss_cvr')).toBeUndefined();
    expect((await context.cookies()).find((c) => c.name === 'tessera_consent')?.value).toBe('denied');
    // Browsing on: a product page, the cart; still nothing.
    await page.goto(`${site.url}/shop/p/ceramic-pour-over-set`);
    expect(await page.getByRole('region', { name: em.BANNER_LABEL }).count()).toBe(0);
    await page.getByRole('button', { name: 'Add To Cart' }).first().click();
    await page.goto(`${site.url}/cart`);
    await page.waitForLoadState('load');
    await page.clock.fastForward(TRACKER_WAIT_MS);
    await pageTurn(page);
    expect(seen.map((r) => r.url())).toEqual([]);
    // (Chromium's preload-timing hint on a slow machine is not a page problem.)
    expect(problems.filter((p) => !p.includes('was preloaded using link preload'))).toEqual([]);
    await context.close();

    // The same pages with consent given: the tracker runs (so the watch above sees what it should).
    const yes = await b.browser.newContext();
    const sent: string[] = [];
    yes.on('request', (r) => {
      if (ANALYTICS.test(new URL(r.url()).pathname)) sent.push(r.url());
    });
    const p2 = await yes.newPage();
    await p2.goto(`${site.url}/shop`);
    await p2.getByRole('region', { name: em.BANNER_LABEL }).getByRole('button', { name: em.BANNER_ACCEPT }).click();
    await expect.poll(() => sent.length, { timeout: 15_000 }).toBeGreaterThan(0);
    await yes.close();
    await owner.send('PUT', `${API}/cookies`, { mode: 'off', text: '', policyUrl: '' });
  }, 90_000);
});
