/**
 * The product editor's per-type card (issue 24) in Chromium at 1280 px and 390 px: a digital product's file is
 * uploaded from the editor; a gift card gets a new denomination whose amount is its price; a subscription's plan
 * (billing period, every N, number of payments) is edited with its price text shown; the additional-fields form is
 * chosen from the site's forms by name. Each is saved and read back through the owner calls. Screenshots of the
 * card go to SCREENSHOT_DIR (docs/screenshots/ when regenerating them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { AUTOSAVE_MS } from '../../../src/web/admin/catalog/ProductEditor.js';
import { formatFileSize } from '../../../src/core/time.js';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { expectNoAxeViolations, WCAG_AA } from '../../helpers/axe.js';

/** Where the screenshots go: docs/screenshots/ when regenerating the README's images (SCREENSHOT_DIR=docs/screenshots), else a temporary folder, so a test run leaves the checkout as it was. */
const SHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'tessera-catalog-types-shots');

async function getJson(page: Page, url: string): Promise<Record<string, unknown>> {
  return page.evaluate(async (u) => (await fetch(u)).json() as Promise<Record<string, unknown>>, url);
}

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('product editor per-type details in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let file = '';
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
    const dir = join(tmpdir(), `catalog-types-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    mkdirSync(SHOTS, { recursive: true });
    file = join(dir, 'field-guide.txt');
    writeFileSync(file, 'Chapter one: light and water.\n');
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  for (const width of [1280, 390]) {
    it(`at ${width} px: digital file, gift card denomination, subscription plan and form picked by name`, async () => {
      const ctx = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      const problems = watchConsole(page);
      const ids = site.seed.productIds;

      // Digital: upload the file from the editor.
      await signInAsOwner(page, site, `/config/products/${ids['houseplant-field-guide']}`);
      const digital = page.getByRole('region', { name: 'Digital file' });
      await digital.waitFor();
      await digital.getByLabel(/^(Upload|Replace) file$/).setInputFiles(file);
      await expect.poll(() => digital.getByLabel('Current file').textContent()).toContain('field-guide.txt');
      // Its size in 1024-step units (30 bytes).
      expect(await digital.getByLabel('Current file').textContent()).toContain(`field-guide.txt ${formatFileSize(statSync(file).size)}`);
      expect(formatFileSize(statSync(file).size)).toBe('30 Bytes');
      const df = await getJson(page, `/api/config/catalog/products/${ids['houseplant-field-guide']}/digital-file`);
      expect((df.file as { name: string }).name).toBe('field-guide.txt');
      await expectNoAxeViolations(page, { tags: WCAG_AA });
      await digital.screenshot({ path: join(SHOTS, `product-digital-file-${width}.png`) });

      // Gift card: add a denomination and change the first (seeded $25) to $30.
      const extra = width === 1280 ? 75 : 80;
      await page.goto(`${site.url}/config/products/${ids['gift-card']}`);
      const denoms = page.getByRole('region', { name: 'Denominations' });
      await denoms.waitFor();
      await denoms.getByLabel('New denomination').fill(String(extra));
      await denoms.getByRole('button', { name: 'Add denomination' }).click();
      await denoms.getByLabel('Denomination 1 amount').fill('30');
      await expect.poll(() => denoms.getByRole('list', { name: 'Denominations' }).textContent()).toContain(`$${extra}`);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
      const gift = await getJson(page, `/api/config/products/${ids['gift-card']}`);
      const amounts = (gift.variants as Array<{ attributes: { Amount: string }; priceCents: number }>).map((v) => [
        v.attributes.Amount,
        v.priceCents,
      ]);
      expect(amounts).toContainEqual([`$${extra}`, extra * 100]);
      expect(amounts).toContainEqual(['$30', 3000]);
      expect(amounts.some(([a]) => a === '$25')).toBe(false);
      expect(await noSideScroll(page)).toBe(true);
      await denoms.screenshot({ path: join(SHOTS, `product-gift-denominations-${width}.png`) });

      // Subscription: every 2 weeks for 6 payments, and the Newsletter form picked by name.
      await page.goto(`${site.url}/config/products/${ids['fresh-roast-coffee-subscription']}`);
      const sub = page.getByRole('region', { name: 'Subscription and checkout' });
      await sub.waitFor();
      expect(await sub.getByLabel('Sell as a subscription').isChecked()).toBe(true);
      await sub.getByLabel('Bill every').fill('2');
      await sub.getByLabel('Billing period').selectOption({ label: 'Week' });
      await sub.getByLabel('Number of payments').fill('6');
      await expect.poll(() => sub.getByLabel('Subscription price text').textContent()).toBe('Billed every 2 weeks, for 6 payments.');
      await sub.getByLabel('Additional fields form').selectOption({ label: 'Newsletter' });
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
      const coffee = await getJson(page, `/api/config/products/${ids['fresh-roast-coffee-subscription']}`);
      expect(coffee.subscriptionPlan).toEqual({ billingPeriod: { value: 2, unit: 'WEEK' }, numBillingCycles: 6 });
      const forms = (await getJson(page, '/api/config/forms')).forms as Array<{ id: string; name: string }>;
      expect(coffee.additionalFieldsFormId).toBe(forms.find((f) => f.name === 'Newsletter')!.id);
      await expectNoAxeViolations(page, { tags: WCAG_AA });
      expect(await noSideScroll(page)).toBe(true);
      await sub.screenshot({ path: join(SHOTS, `product-subscription-plan-${width}.png`) });

      // Put the coffee back (the next width starts from the seeded plan).
      await sub.getByLabel('Bill every').fill('1');
      await sub.getByLabel('Billing period').selectOption({ label: 'Month' });
      await sub.getByLabel('Number of payments').fill('0');
      await sub.getByLabel('Additional fields form').selectOption({ label: 'None' });
      await expect.poll(() => sub.getByLabel('Subscription price text').textContent()).toBe('Billed every month, until cancelled.');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
      expect(problems).toEqual([]);
      await ctx.close();
    });

    it(`at ${width} px: a draft saves itself after a pause; a published product is not changed without Save`, async () => {
      const ctx = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      const problems = watchConsole(page);
      await page.clock.install();
      const ids = site.seed.productIds;
      const draftId = ids['engraved-cutting-board']!;
      await signInAsOwner(page, site, '/config/products');
      const off = await page.evaluate(async (id) => {
        const crumb = decodeURIComponent(
          document.cookie
            .split('; ')
            .find((c) => c.startsWith('crumb='))
            ?.slice(6) ?? '',
        );
        const r = await fetch('/api/config/catalog/products/bulk', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': crumb },
          body: JSON.stringify({ action: 'unpublish', ids: [id] }),
        });
        return r.status;
      }, draftId);
      expect(off).toBe(200);

      // The draft: an edit, a pause, and it is stored without pressing Save.
      await page.goto(`${site.url}/config/products/${draftId}`);
      const title = page.getByLabel('Title', { exact: true });
      await title.waitFor();
      await title.fill(`Engraved Cutting Board ${width}`);
      await page.getByRole('status').filter({ hasText: 'draft saves automatically' }).waitFor();
      await page.clock.fastForward(AUTOSAVE_MS + 100);
      await page.getByRole('status').filter({ hasText: 'Draft saved automatically' }).waitFor();
      expect((await getJson(page, `/api/config/products/${draftId}`)).title).toBe(`Engraved Cutting Board ${width}`);

      // The published product: the same edit and pause change nothing until Save.
      const liveId = ids['merino-wool-throw']!;
      await page.goto(`${site.url}/config/products/${liveId}`);
      await title.waitFor();
      const before = (await getJson(page, `/api/config/products/${liveId}`)).title;
      await title.fill(`Merino Throw ${width}`);
      await page.clock.fastForward(AUTOSAVE_MS * 4);
      await expect.poll(() => page.getByRole('region', { name: 'Save' }).getByRole('status').textContent()).toBe('Unsaved changes');
      expect((await getJson(page, `/api/config/products/${liveId}`)).title).toBe(before);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
      expect((await getJson(page, `/api/config/products/${liveId}`)).title).toBe(`Merino Throw ${width}`);
      expect(problems).toEqual([]);
      await ctx.close();
    });

    it(`at ${width} px: a click on an image sets its focal point, the select sets it by keyboard, and Save stores it`, async () => {
      const ctx = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      const problems = watchConsole(page);
      const id = site.seed.productIds['linen-camp-shirt']!;
      // The picture is held back until the gallery has been measured: its box before it loads must already be its final one.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/demo-media/**', async (route) => {
        await held;
        await route.continue();
      });
      await signInAsOwner(page, site, `/config/products/${id}`);
      const gallery = page.getByRole('list', { name: 'Product images' });
      await gallery.waitFor();
      const img = gallery.locator('li img').first();
      const early = (await img.boundingBox())!;
      expect(await img.evaluate((i: HTMLImageElement) => i.complete)).toBe(false);
      release();
      await img.evaluate((i: HTMLImageElement) => i.decode());
      const box = (await img.boundingBox())!;
      expect(Math.abs(box.height - early.height)).toBeLessThan(1);
      expect(Math.abs(box.width - early.width)).toBeLessThan(1);
      await img.click({ position: { x: box.width * 0.25, y: box.height * 0.75 } });
      await expect.poll(() => gallery.getByLabel('Focal point for image 1').inputValue()).toBe('Custom');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
      const saved = (await getJson(page, `/api/config/products/${id}`)).images as Array<{ mediaFocalPoint: { x: number; y: number } }>;
      expect(saved[0]!.mediaFocalPoint.x).toBeCloseTo(0.25, 1);
      expect(saved[0]!.mediaFocalPoint.y).toBeCloseTo(0.75, 1);
      if (width === 1280) await gallery.screenshot({ path: join(SHOTS, 'product-focal-point-1280.png') });
      else await gallery.screenshot({ path: join(SHOTS, 'product-focal-point-390.png') });

      const select = gallery.getByLabel('Focal point for image 1');
      await select.focus();
      await select.selectOption({ label: 'Focus: top right' });
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
      const again = (await getJson(page, `/api/config/products/${id}`)).images as Array<{ mediaFocalPoint: { x: number; y: number } }>;
      expect(again[0]!.mediaFocalPoint).toEqual({ x: 1, y: 0 });
      await expectNoAxeViolations(page, { tags: WCAG_AA });
      expect(problems).toEqual([]);
      await ctx.close();
    });
  }
});
