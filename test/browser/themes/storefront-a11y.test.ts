/**
 * Issue 42, the default theme's accessibility and layout, in Chromium at 390 and 1280 px: the floating cart
 * pill covers nothing and is named with what it shows inside a landmark (and is not on checkout), the like
 * button's name holds its count, the search landmarks are told apart, a long header menu folds into a
 * "More" menu, the promo popup waits for the cookie banner and wears the site's button style, the demo's
 * newsletter form has a page, and axe finds nothing on home, product, search and 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hydrated, launchBrowser, liveSite, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { OWNER, Visitor } from '../../helpers/app.js';
import { expectNoAxeViolations } from '../../helpers/axe.js';
import { engagement as em } from '../../../src/core/messages.js';

const WIDTHS = [390, 1280] as const;
const PRODUCT = '/shop/p/ceramic-pour-over-set';
const ENGAGEMENT = '/api/config/engagement';

async function at(browser: Browser, width: number, js = true): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 }, javaScriptEnabled: js });
  return context.newPage();
}

/** Adds the product to the cart and waits for the pill to say so. */
async function oneInCart(page: Page, site: LiveSite) {
  await page.goto(`${site.url}${PRODUCT}`);
  await page.waitForFunction(...hydrated('AddToCart'));
  await page.getByRole('article').getByRole('button', { name: 'Add To Cart', exact: true }).click();
  await page.getByRole('link', { name: '1, One item in cart', exact: true }).waitFor();
}

/**
 * The elements `selector` matches that stay (partly) hidden under the pill however the page is scrolled:
 * each is scrolled into view as a browser does for focus, then its box must miss the pill's and the points
 * of its box must hit the element itself.
 */
function coveredByPill(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const pill = document.querySelector<HTMLElement>('[data-test=cart-pill]');
    const bad: string[] = [];
    const els = [...document.querySelectorAll<HTMLElement>(sel)].filter((el) => el.getClientRects().length > 0);
    if (els.length === 0) return [`nothing matches ${sel}`];
    for (const el of els) {
      el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      const r = el.getBoundingClientRect();
      const p = pill?.getBoundingClientRect();
      const overlaps = p && p.width > 0 && r.left < p.right && r.right > p.left && r.top < p.bottom && r.bottom > p.top;
      const points = [
        [r.left + 1, r.top + 1],
        [r.right - 1, r.top + 1],
        [r.left + 1, r.bottom - 1],
        [r.right - 1, r.bottom - 1],
        [(r.left + r.right) / 2, (r.top + r.bottom) / 2],
      ];
      const hidden = points.some(([x, y]) => {
        const hit = document.elementFromPoint(x!, y!);
        return hit !== null && pill !== null && pill.contains(hit);
      });
      if (overlaps || hidden) bad.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`);
    }
    return bad;
  }, selector);
}

describe('storefront accessibility and layout in Chromium (issue 42)', () => {
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

  for (const width of WIDTHS) {
    it(`${width} px: the pill covers no footer link, description or checkout field, is named with its text, sits in a landmark, and is not on checkout`, async () => {
      const page = await at(b.browser, width);
      const problems = watchConsole(page);
      await oneInCart(page, site);
      const region = page.getByRole('complementary', { name: 'Cart', exact: true });
      const pill = region.getByRole('link', { name: '1, One item in cart', exact: true });
      expect(await pill.isVisible()).toBe(true);
      const shown = (await pill.innerText()).trim();
      expect(shown).toBe('1');
      expect('1, One item in cart').toContain(shown);
      expect(await coveredByPill(page, '.product-description > *')).toEqual([]);
      expect(await coveredByPill(page, '.site-footer a, .site-footer p')).toEqual([]);
      await page.screenshot({ path: `/tmp/a11y-product-${width}.png`, fullPage: false });
      await page.goto(`${site.url}/`);
      expect(await coveredByPill(page, '.site-footer a, .site-footer p')).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.screenshot({ path: `/tmp/a11y-footer-${width}.png` });

      await page.goto(`${site.url}/checkout`);
      await page.getByRole('textbox', { name: 'Email', exact: true }).first().waitFor();
      expect(await page.locator('[data-test=cart-pill]').count()).toBe(0);
      expect(await page.getByRole('complementary', { name: 'Cart', exact: true }).count()).toBe(0);
      expect(await coveredByPill(page, 'main input:not([type=hidden]), main select, main textarea')).toEqual([]);
      await page.screenshot({ path: `/tmp/a11y-checkout-${width}.png` });
      expect(problems.filter((p) => !p.includes('was preloaded using link preload'))).toEqual([]);
      await page.context().close();
    }, 90_000);
  }

  it('the like button is named with the count it shows, at both widths', async () => {
    for (const width of WIDTHS) {
      const page = await at(b.browser, width);
      await page.goto(`${site.url}/journal/how-we-choose-our-linen`);
      await page.locator('[data-island="LikeButton"][data-hydrated]').waitFor();
      const like = page.getByRole('button', { name: '0 likes, like How we choose our linen', exact: true });
      expect(await like.isVisible()).toBe(true);
      expect((await like.innerText()).replace('♥', '').trim()).toBe('0');
      await page.context().close();
    }
  }, 60_000);

  it('the search and 404 pages name their two search landmarks apart, at both widths', async () => {
    for (const width of WIDTHS) {
      const page = await at(b.browser, width);
      for (const [path, own] of [
        ['/search?q=linen', 'Search products, pages and posts'],
        ['/no-such-page', 'Search the site'],
      ] as const) {
        await page.goto(`${site.url}${path}`);
        expect(await page.getByRole('search').count(), path).toBe(2);
        expect(await page.getByRole('search', { name: 'Site', exact: true }).isVisible(), path).toBe(true);
        expect(await page.getByRole('search', { name: own, exact: true }).isVisible(), path).toBe(true);
      }
      await page.context().close();
    }
  }, 60_000);

  describe('a header menu of ten entries', () => {
    const titles = ['Shop', 'Journal', 'Events', 'Gallery', 'About', 'Contact', 'More', 'The Studio', 'Questions', 'Shipping and returns'];
    beforeAll(async () => {
      const pages = (await owner.get('/api/editor/pages')).json() as { pages: Array<{ id: string; urlId: string }> };
      const layout = (await owner.get('/api/commondata/GetSiteLayout')).json() as Array<{
        identifier: string;
        links: Array<{ title: string; collectionId: string | null; externalLink?: string | null; children: unknown[] }>;
      }>;
      const current = layout.find((l) => l.identifier === 'mainNav')!.links;
      const id = (urlId: string) => pages.pages.find((p) => p.urlId === urlId)?.id;
      const extra = [
        { title: 'The Studio', collectionId: id('studio') },
        { title: 'Questions', collectionId: id('questions') ?? id('faq') },
        { title: 'Shipping and returns', collectionId: id('shipping') ?? id('shipping-and-returns') },
      ];
      expect(extra.every((e) => e.collectionId)).toBe(true);
      const items = [
        ...current.map((l) => ({ ...l, collectionId: l.collectionId ?? undefined, externalLink: l.externalLink ?? undefined })),
        ...extra,
      ];
      const res = await owner.send('POST', '/api/widget/UpdateNavigation', { fieldName: 'mainNav', navigation: { items } });
      expect(res.statusCode, res.body).toBe(200);
    });

    it('1280 px: one row, the rest under a "More" button that opens, closes on Escape and gives focus back', async () => {
      const page = await at(b.browser, 1280);
      await page.goto(`${site.url}/`);
      const nav = page.getByRole('navigation', { name: 'Main', exact: true });
      const more = nav.getByRole('button', { name: 'More', exact: true }).and(page.locator('.site-nav__more-button'));
      await more.waitFor();
      // The entries left in the row share one line.
      const tops = await page.$$eval('.site-nav-desktop .site-nav > ul > li:not([hidden])', (lis) =>
        lis.map((li) => Math.round(li.getBoundingClientRect().top)),
      );
      expect(new Set(tops).size).toBe(1);
      expect(await more.getAttribute('aria-expanded')).toBe('false');
      await more.focus();
      await page.keyboard.press('Enter');
      expect(await more.getAttribute('aria-expanded')).toBe('true');
      const list = page.locator('#site-nav-more-list');
      expect(await list.isVisible()).toBe(true);
      await page.screenshot({ path: '/tmp/a11y-more-1280.png' });
      // Every entry is either in the row or in the open menu.
      const inRow = await page.$$eval(
        '.site-nav-desktop .site-nav > ul > li:not(.site-nav__more) > a, .site-nav-desktop .site-nav > ul > li:not(.site-nav__more) > details > summary',
        (els) => els.map((e) => e.textContent?.trim()),
      );
      const inMenu = await list.locator(':scope > li > a, :scope > li > details > summary').allInnerTexts();
      expect(inMenu.length).toBeGreaterThan(0);
      expect([...inRow, ...inMenu.map((t) => t.trim())]).toEqual(titles);
      await page.keyboard.press('Tab');
      expect(await list.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      await page.keyboard.press('Escape');
      expect(await more.getAttribute('aria-expanded')).toBe('false');
      expect(await list.isVisible()).toBe(false);
      expect(await more.evaluate((el) => el === document.activeElement)).toBe(true);
      // A click elsewhere closes it too.
      await more.click();
      expect(await list.isVisible()).toBe(true);
      await page.locator('main').click({ position: { x: 5, y: 5 } });
      expect(await list.isVisible()).toBe(false);
      await page.context().close();
    }, 60_000);

    it('390 px: the menu button lists every entry; without JavaScript at 1280 px every entry is in the header', async () => {
      const phone = await at(b.browser, 390);
      await phone.goto(`${site.url}/`);
      await phone.locator('.site-nav-toggle > summary').click();
      const nav = phone.getByRole('navigation', { name: 'Main', exact: true });
      for (const t of titles.filter((x) => x !== 'More'))
        expect(await nav.getByRole('link', { name: t, exact: true }).isVisible(), t).toBe(true);
      expect(await phone.locator('.site-nav__more-button:visible').count()).toBe(0);
      await phone.screenshot({ path: '/tmp/a11y-menu-390.png' });
      await phone.context().close();

      const plain = await at(b.browser, 1280, false);
      await plain.goto(`${site.url}/`);
      const header = plain.getByRole('navigation', { name: 'Main', exact: true });
      for (const t of titles.filter((x) => x !== 'More'))
        expect(await header.getByRole('link', { name: t, exact: true }).isVisible(), t).toBe(true);
      expect(await plain.locator('.site-nav__more-button').count()).toBe(0);
      await plain.screenshot({ path: '/tmp/a11y-nojs-1280.png' });
      await plain.context().close();
    }, 60_000);

    afterAll(async () => {
      const layout = (await owner.get('/api/commondata/GetSiteLayout')).json() as Array<{
        identifier: string;
        links: Array<{ title: string; collectionId: string | null; externalLink?: string | null; children: unknown[] }>;
      }>;
      const items = layout
        .find((l) => l.identifier === 'mainNav')!
        .links.slice(0, 7)
        .map((l) => ({ ...l, collectionId: l.collectionId ?? undefined, externalLink: l.externalLink ?? undefined }));
      await owner.send('POST', '/api/widget/UpdateNavigation', { fieldName: 'mainNav', navigation: { items } });
    });
  });

  it('390 px: the promo popup waits until the cookie banner is answered, and its button wears the site button style', async () => {
    const popup = {
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
      anchor: 'bottom-center',
      trigger: 'delay',
      delaySeconds: 1,
      scrollPercent: 50,
      pages: 'all',
      showAgainDays: 0,
      captcha: false,
    };
    expect((await owner.send('PUT', `${ENGAGEMENT}/popup`, popup)).statusCode).toBe(200);
    expect((await owner.send('PUT', `${ENGAGEMENT}/cookies`, { mode: 'opt-in', text: '', policyUrl: '' })).statusCode).toBe(200);
    try {
      const page = await at(b.browser, 390);
      await page.clock.install();
      await page.goto(`${site.url}/journal`);
      const banner = page.getByRole('region', { name: em.BANNER_LABEL, exact: true });
      await banner.waitFor();
      await page.waitForFunction(() => document.querySelector('[data-island="PromoPopup"]')?.getAttribute('data-hydrated') === '1');
      await page.waitForFunction(() => document.querySelector('[data-island="CookieBanner"]')?.getAttribute('data-hydrated') === '1');
      await page.clock.fastForward(10_000);
      const dialog = page.getByRole('dialog', { name: 'Ten percent off', exact: true });
      expect(await dialog.count()).toBe(0);
      // Every button of the banner can be pressed (nothing lies on top of it).
      for (const name of [em.BANNER_ACCEPT, em.BANNER_REJECT, em.BANNER_SAVE]) {
        const button = banner.getByRole('button', { name, exact: true });
        const box = (await button.boundingBox())!;
        const top = await page.evaluate(
          ([x, y]) => document.elementFromPoint(x!, y!)?.textContent?.trim(),
          [box.x + box.width / 2, box.y + box.height / 2],
        );
        expect(top).toBe(name);
      }
      await page.screenshot({ path: '/tmp/a11y-banner-390.png' });
      await banner.getByRole('button', { name: em.BANNER_REJECT, exact: true }).click();
      await banner.waitFor({ state: 'detached' });
      await page.clock.fastForward(1500);
      await dialog.waitFor();
      await page.screenshot({ path: '/tmp/a11y-popup-390.png' });
      // The popup's button looks like the site's primary buttons (Site styles' tokens).
      const look = await page.evaluate(() => {
        const pick = (el: Element) => {
          const s = getComputedStyle(el);
          return {
            background: s.backgroundColor,
            color: s.color,
            radius: s.borderRadius,
            weight: s.fontWeight,
            transform: s.textTransform,
          };
        };
        const probe = document.createElement('a');
        probe.className = 'button';
        probe.textContent = 'probe';
        document.body.append(probe);
        const site = pick(probe);
        probe.remove();
        return { site, popup: pick(document.querySelector('.tessera-popup__form button')!) };
      });
      expect(look.popup).toEqual(look.site);
      await page.context().close();
    } finally {
      await owner.send('PUT', `${ENGAGEMENT}/popup`, { ...popup, enabled: false });
      await owner.send('PUT', `${ENGAGEMENT}/cookies`, { mode: 'off', text: '', policyUrl: '' });
    }
  }, 60_000);

  it('the demo About page carries the newsletter sign-up, at both widths', async () => {
    for (const width of WIDTHS) {
      const page = await at(b.browser, width);
      await page.goto(`${site.url}/about`);
      const form = page.getByRole('form', { name: 'Newsletter', exact: true });
      expect(await form.isVisible()).toBe(true);
      expect(await form.getByRole('textbox', { name: 'Email Address (required)', exact: true }).isVisible()).toBe(true);
      expect(await form.getByRole('button', { name: 'Sign Up', exact: true }).isVisible()).toBe(true);
      await form.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/a11y-newsletter-${width}.png` });
      await page.context().close();
    }
  }, 60_000);

  for (const width of WIDTHS) {
    it(`${width} px: axe-core finds no violation on home, product, search and 404`, async () => {
      const page = await at(b.browser, width);
      for (const path of ['/', PRODUCT, '/search?q=linen', '/no-such-page']) {
        await page.goto(`${site.url}${path}`);
        await page.waitForLoadState('load');
        await expectNoAxeViolations(page, {}, `${path} at ${width} px`);
      }
      await page.context().close();
    }, 90_000);
  }
});
