/**
 * A variant's own address (`?variant=<id>`, as the structured data and the product feed give it) opens the
 * product page with that variant chosen, with JavaScript on and off, at phone and desktop widths: its
 * options selected, its price and its own image shown; choosing another option goes on from there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hydrated, launchBrowser, liveSite, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { commerce } from '../../../src/core/messages.js';

const SHIRT = '/shop/p/linen-camp-shirt';

describe('?variant= preselects the variant in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let navy = '';
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
    await site.database.exec(
      `UPDATE items SET assets = assets || '[{"assetUrl":"/demo-media/pour-over.jpg","altText":"The shirt in navy","originalSize":"1200x1200","mediaFocalPoint":{"x":0.5,"y":0.5}}]'::jsonb WHERE url_id = 'linen-camp-shirt'`,
    );
    await site.database.exec(`UPDATE product_variants SET image_url = '/demo-media/pour-over.jpg' WHERE sku LIKE 'SHIRT-%-NAVY'`);
    const json = (await (await fetch(`${site.url}${SHIRT}?format=json`)).json()) as {
      item: { structuredContent: { variants: Array<{ id: string; sku: string }> } };
    };
    navy = json.item.structuredContent.variants.find((v) => v.sku === 'SHIRT-S-NAVY')!.id;
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  for (const width of [390, 1280])
    for (const js of [true, false])
      it(`at ${width} px with JavaScript ${js ? 'on' : 'off'}`, async () => {
        const context = await b.browser.newContext({ javaScriptEnabled: js, viewport: { width, height: 900 } });
        const page = await context.newPage();
        await page.goto(`${site.url}${SHIRT}?variant=${navy}`);
        if (js) await page.waitForFunction(...hydrated('VariantSelect'));
        const article = page.getByRole('article');
        const size = article.getByRole('combobox', { name: commerce.selectVariantName('Size'), exact: true });
        const color = article.getByRole('combobox', { name: commerce.selectVariantName('Color'), exact: true });
        expect(await size.inputValue()).toBe('S');
        expect(await color.inputValue()).toBe('Navy');
        const price = page.locator('[data-product-price-for]');
        expect(await price.textContent()).toContain('$72.00');
        expect(await price.textContent()).not.toContain('from');
        expect(await page.locator('.product-gallery__slide.is-current img.product-detail__image').getAttribute('src')).toContain('pour-over');
        await page.screenshot({ path: `/tmp/jsonld-variant-${width}-${js ? 'js' : 'nojs'}.png` });
        if (js) {
          // Another size keeps the chosen colour (the choice started from the address's variant).
          await size.selectOption('M');
          expect(await color.inputValue()).toBe('Navy');
          await expect.poll(() => price.textContent()).toContain('$72.00');
          await color.selectOption('Sand');
          await expect.poll(() => price.textContent()).toContain('$68.00');
        }
        await context.close();
      });
});
