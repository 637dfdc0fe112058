/**
 * The product page in Chromium at a phone's and a desktop's width: the gallery (thumbnails, arrows, swipe,
 * arrow keys, the zoom dialog), the variant's image and sale price with and without JavaScript, a sold-out
 * option marked, the chosen variant's picture on the cart line, and axe-core on the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hydrated, launchBrowser, liveSite, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { expectNoAxeViolations, WCAG_AA } from '../../helpers/axe.js';
import { dressTheShirt, SHIRT_IMAGES } from '../../helpers/gallery-product.js';

const URL_PATH = '/shop/p/linen-camp-shirt';
const WIDTHS = [390, 1280] as const;

/** The address of the image in view: the one at the middle of the gallery's stage. */
const shownImage = (page: Page) =>
  page.evaluate(() => {
    const r = document.querySelector('.product-gallery__stage')!.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit?.closest('.product-gallery__slide')?.querySelector('img')?.getAttribute('src') ?? '';
  });

const priceText = (page: Page) =>
  page.evaluate(() => (document.querySelector('[data-product-price-for]')?.textContent ?? '').replace(/\s+/g, ' ').trim());

describe('the product page in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
    await dressTheShirt(site.app, site.seed.productIds['linen-camp-shirt']!);
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  for (const width of WIDTHS) {
    it(`reaches every image by click, swipe and keys, and zooms, at ${width} px`, async () => {
      const context = await b.browser.newContext({ reducedMotion: 'reduce', viewport: { width, height: 900 }, hasTouch: true });
      const page = await context.newPage();
      const problems = watchConsole(page);
      await page.goto(`${site.url}${URL_PATH}`);
      await page.waitForFunction(...hydrated('ProductGallery'));
      const gallery = page.getByRole('region', { name: 'Images of Linen Camp Shirt', exact: true });
      expect(await shownImage(page)).toBe('/demo-media/linen-shirt.jpg');

      // Click: thumbnails and arrows.
      await gallery.getByRole('link', { name: 'Show image 3 of 4', exact: true }).click();
      await expect.poll(() => shownImage(page)).toBe('/demo-media/gallery-2.jpg');
      await gallery.getByRole('button', { name: 'Next image', exact: true }).click();
      await expect.poll(() => shownImage(page)).toBe('/demo-media/gallery-3.jpg');
      await gallery.getByRole('button', { name: 'Next image', exact: true }).click();
      await expect.poll(() => shownImage(page)).toBe('/demo-media/linen-shirt.jpg');
      await gallery.getByRole('button', { name: 'Previous image', exact: true }).click();
      await expect.poll(() => shownImage(page)).toBe('/demo-media/gallery-3.jpg');
      await page.screenshot({ path: `/tmp/product-gallery-${width}.png` });

      // Keys: the thumbnail list is one tab stop; the arrow keys move along it and show each image.
      const current = gallery.getByRole('link', { name: 'Show image 4 of 4', exact: true });
      await current.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => shownImage(page)).toBe('/demo-media/linen-shirt.jpg');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Show image 1 of 4');
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => shownImage(page)).toBe('/demo-media/gallery-1.jpg');
      await page.keyboard.press('End');
      await expect.poll(() => shownImage(page)).toBe('/demo-media/gallery-3.jpg');
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => shownImage(page)).toBe('/demo-media/gallery-2.jpg');

      // Swipe: a finger dragged leftwards over the image shows the next one, rightwards the previous one.
      const box = (await page.locator('.product-gallery__stage').boundingBox())!;
      const cdp = await context.newCDPSession(page);
      const drag = async (from: number, to: number) => {
        const y = box.y + box.height / 2;
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from, y }] });
        for (let s = 1; s <= 5; s++)
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from + ((to - from) * s) / 5, y }] });
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      };
      await drag(box.x + box.width * 0.8, box.x + box.width * 0.2);
      await expect.poll(() => shownImage(page)).toBe('/demo-media/gallery-3.jpg');
      await drag(box.x + box.width * 0.2, box.x + box.width * 0.8);
      await expect.poll(() => shownImage(page)).toBe('/demo-media/gallery-2.jpg');
      // A swipe opens no dialog.
      expect(await page.getByRole('dialog').count()).toBe(0);

      // Zoom: opens from the main image, keeps focus inside, zooms, closes on Escape and returns focus.
      const zoomLink = gallery.getByRole('link', { name: 'Zoom image 3 of 4', exact: true });
      await zoomLink.click();
      const dialog = page.getByRole('dialog', { name: 'Linen Camp Shirt', exact: true });
      await expect.poll(() => dialog.isVisible()).toBe(true);
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]'))).toBe(true);
      await dialog.getByRole('button', { name: 'Zoom in', exact: true }).click();
      await dialog.getByRole('button', { name: 'Zoom in', exact: true }).click();
      await expect.poll(() => dialog.getByText('Image 3 of 4 · 200%', { exact: true }).isVisible()).toBe(true);
      await dialog.getByRole('button', { name: 'Zoom out', exact: true }).click();
      await expect.poll(() => dialog.getByText('Image 3 of 4 · 150%', { exact: true }).isVisible()).toBe(true);
      for (let i = 0; i < 8; i++) await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]'))).toBe(true);
      await page.screenshot({ path: `/tmp/product-zoom-${width}.png` });
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Zoom image 3 of 4');

      // The Close button closes it too, and focus goes to the image shown after moving on inside.
      await zoomLink.click();
      await dialog.getByRole('button', { name: 'Next image', exact: true }).click();
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Zoom image 4 of 4');

      await expectNoAxeViolations(page, { tags: WCAG_AA }, `product page at ${width} px`);
      expect(problems.filter((p) => /hydrat|did not match|^pageerror/i.test(p))).toEqual([]);
      await context.close();
    });

    it(`shows the chosen variant's image and sale price, marks a sold-out size, and puts the variant's picture in the cart, at ${width} px`, async () => {
      const context = await b.browser.newContext({ reducedMotion: 'reduce', viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${site.url}${URL_PATH}`);
      await page.waitForFunction(...hydrated('ProductGallery'));
      await page.waitForFunction(...hydrated('VariantSelect'));
      const color = page.getByRole('combobox', { name: 'Select Color', exact: true });
      const size = page.getByRole('combobox', { name: 'Select Size', exact: true });
      await color.selectOption('Navy');
      // The colour's own picture shows before a size is chosen; the sold-out size is marked and still selectable.
      await expect.poll(() => shownImage(page)).toBe('/demo-media/gallery-2.jpg');
      expect(await size.getByRole('option', { name: 'L — sold out', exact: true }).count()).toBe(1);
      await size.selectOption('L');
      const add = page.getByRole('article').getByRole('button', { name: 'Add To Cart', exact: true });
      await add.click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('Sorry, we do not have enough of that item available.');
      await size.selectOption('S');
      await expect.poll(() => priceText(page)).toBe('Original Price: $72.00 Sale Price: $56.00');
      expect(await page.locator('[data-product-price-for] s.original-price').textContent()).toBe('Original Price: $72.00');
      expect(await page.locator('[data-product-price-for] .sale-price').textContent()).toBe('Sale Price: $56.00');
      // The no-JavaScript choice button is not offered with JavaScript.
      expect(await page.getByRole('button', { name: 'Show this choice', exact: true }).count()).toBe(0);
      await page.screenshot({ path: `/tmp/product-variant-${width}.png`, fullPage: false });

      await add.click();
      await expect.poll(() => page.getByRole('button', { name: 'Added!', exact: true }).count(), { timeout: 5000 }).toBe(1);
      await page.goto(`${site.url}/cart`);
      await page.waitForFunction(...hydrated('CartPage'));
      const line = page.locator('.cart-row').filter({ hasText: 'Color: Navy' });
      await expect.poll(() => line.locator('img').getAttribute('src')).toContain('/demo-media/gallery-2.jpg');
      await page.screenshot({ path: `/tmp/product-cart-${width}.png` });
      await context.close();
    });

    it(`without JavaScript: every image by its link, and a choice shows its image and sale price, at ${width} px`, async () => {
      const context = await b.browser.newContext({ reducedMotion: 'reduce', viewport: { width, height: 900 }, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${site.url}${URL_PATH}`);
      const gallery = page.getByRole('region', { name: 'Images of Linen Camp Shirt', exact: true });
      // Every slide is in the strip, and each thumbnail links to its own slide.
      for (let i = 1; i <= 4; i++) {
        const thumb = gallery.getByRole('link', { name: `Show image ${i} of 4`, exact: true });
        const href = (await thumb.getAttribute('href'))!;
        await thumb.click();
        await expect.poll(() => page.evaluate((h) => location.hash === h, href)).toBe(true);
        await expect.poll(() => shownImage(page)).toBe(`/demo-media/${SHIRT_IMAGES[i - 1][0]}.jpg`);
      }
      // Arrows need JavaScript: they are not offered.
      expect(await gallery.getByRole('button', { name: 'Next image', exact: true }).count()).toBe(0);

      await page.getByRole('combobox', { name: 'Select Size', exact: true }).selectOption('S');
      await page.getByRole('combobox', { name: 'Select Color', exact: true }).selectOption('Navy');
      await page.getByRole('button', { name: 'Show this choice', exact: true }).click();
      await page.waitForURL(/option\.Color=Navy/);
      // The strip opens on the chosen variant's image, in view without JavaScript.
      expect(await shownImage(page)).toBe('/demo-media/gallery-2.jpg');
      expect(await priceText(page)).toBe('Original Price: $72.00 Sale Price: $56.00');
      expect(await page.locator('[data-product-price-for] s.original-price').textContent()).toBe('Original Price: $72.00');
      expect(await page.getByRole('combobox', { name: 'Select Color', exact: true }).inputValue()).toBe('Navy');
      await page.screenshot({ path: `/tmp/product-nojs-${width}.png` });
      // The add button still adds that choice.
      await page.getByRole('article').getByRole('button', { name: 'Add To Cart', exact: true }).click();
      await page.goto(`${site.url}/cart`);
      expect(await page.locator('.cart-row').filter({ hasText: 'Color: Navy' }).locator('img').getAttribute('src')).toContain(
        '/demo-media/gallery-2.jpg',
      );
      await context.close();
    });
  }
});
