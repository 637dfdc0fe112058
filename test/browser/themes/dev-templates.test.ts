/**
 * Developer templates in Chromium (server/themes): the owner switches the site between Tessera's theme and
 * a developer template in /config's Site styles, changes a colour tweak and sees it on the public site;
 * template images with data-src show through the image loader. axe and both widths on the new controls.
 */
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { expectNoAxeViolations, WCAG_AA_BEST_PRACTICE } from '../../helpers/axe.js';

const noSideScroll = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth <= document.scrollingElement!.clientWidth);

describe('developer templates in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([
      liveSite('pglite', { RATE_LIMIT_STORE: 'memory', THEME_DIR: join(resolve('test/data/dev-templates'), 'tweaks') }),
      launchBrowser(),
    ]);
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  it('the owner switches to Tessera’s theme and to another template, changes a colour tweak, and the public site shows it', async () => {
    const page = await (await b.browser.newContext()).newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInAsOwner(page, site, '/config/styles');
    const themes = page.getByRole('form', { name: 'Site theme' });
    await expect.poll(() => themes.getByRole('radio', { name: 'Test Tweaks' }).isChecked()).toBe(true);
    await expectNoAxeViolations(page, { tags: WCAG_AA_BEST_PRACTICE });

    await themes.getByRole('radio', { name: 'Tessera (default)' }).check();
    await themes.getByRole('button', { name: 'Save theme' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Theme saved.' }).count()).toBe(1);
    const visitor = await (await b.browser.newContext()).newPage();
    await visitor.goto(`${site.url}/journal`);
    expect(await visitor.locator('header.site-header').count()).toBe(1);
    expect(await visitor.locator('link[href^="/site.css"]').count()).toBe(0);

    await themes.getByRole('radio', { name: 'Test Regions' }).check();
    await themes.getByRole('button', { name: 'Save theme' }).click();
    const tweaks = page.getByRole('form', { name: 'Template tweaks' });
    const accent = tweaks.getByLabel('Accent colour (Colours)');
    await expect.poll(() => accent.inputValue()).toBe('#2a6f4e');
    await visitor.goto(`${site.url}/journal`);
    const border = () => visitor.locator('header.tr-header').evaluate((el: Element) => getComputedStyle(el).borderBottomColor);
    expect(await border()).toBe('rgb(42, 111, 78)');

    await accent.fill('#c0392b');
    await tweaks.getByRole('button', { name: 'Save tweaks' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Tweaks saved.' }).count()).toBe(1);
    await visitor.goto(`${site.url}/journal`);
    expect(await border()).toBe('rgb(192, 57, 43)');
    // The template's navigation marks the page the visitor is on.
    expect(await visitor.locator('.tr-nav__item.is-active > a').first().textContent()).toBe('Journal');
    await expectNoAxeViolations(page, { tags: WCAG_AA_BEST_PRACTICE });
    await page.close();
    await visitor.close();
  }, 120_000);

  it('shows template images through the image loader, at 390 px and 1280 px', async () => {
    const owner = await (await b.browser.newContext()).newPage();
    await signInAsOwner(owner, site, '/config/styles');
    const themes = owner.getByRole('form', { name: 'Site theme' });
    await themes.getByRole('radio', { name: 'Test Regions' }).check();
    if (await themes.getByRole('button', { name: 'Save theme' }).isEnabled())
      await themes.getByRole('button', { name: 'Save theme' }).click();
    await owner.setViewportSize({ width: 390, height: 844 });
    expect(await noSideScroll(owner)).toBe(true);
    await expectNoAxeViolations(owner, { tags: WCAG_AA_BEST_PRACTICE });
    await owner.close();
    for (const width of [390, 1280]) {
      const page = await (await b.browser.newContext()).newPage();
      const problems = watchConsole(page);
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${site.url}/shop`);
      const imgs = page.locator('img.tr-product__img');
      expect(await imgs.count()).toBeGreaterThan(0);
      const first = imgs.first();
      await first.scrollIntoViewIfNeeded();
      await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      expect(await first.getAttribute('src')).toMatch(/\?format=\d+w$/);
      expect(await first.getAttribute('srcset')).toContain('?format=2500w 2500w');
      expect(await page.evaluate(() => document.documentElement.getAttribute('data-template-script'))).toBe('ran');
      expect(problems).toEqual([]);
      await page.close();
    }
  }, 120_000);
});
