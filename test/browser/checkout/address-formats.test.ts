/**
 * A shopper in Japan, in Canada and in the United Kingdom fills the checkout's address form, which lays
 * itself out in their country's format when they pick it (its parts, order, labels and subdivision list,
 * loaded for that country only), and the confirmation prints the address as that country writes it. At
 * 390 and 1280 px; a postcode of the wrong shape is refused on its field first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { launchBrowser, liveSite, watchConsole, hydrated, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { newId } from '../../../src/db/ids.js';
import { expectNoAxeViolations, WCAG_AA } from '../../helpers/axe.js';

const SHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'tessera-address-shots');

interface Shopper {
  country: string;
  countryName: string;
  /** The form's labels in order, after the country. */
  labels: string[];
  region: { label: string; pick: string; has: string[]; count: number } | null;
  fill: Record<string, string>;
  badPostcode?: { value: string; message: string };
  printed: string[];
}

const SHOPPERS: Shopper[] = [
  {
    country: 'JP',
    countryName: 'Japan',
    labels: ['Full name', 'Address', 'Apartment, suite (optional)', 'Prefecture', 'Postal code'],
    region: { label: 'Prefecture', pick: 'Tokyo', has: ['Hokkaido', 'Osaka', 'Okinawa'], count: 47 },
    fill: { 'Full name': 'Taro Yamada', Address: '1-2-3 Jingumae', 'Apartment, suite (optional)': 'Shibuya-ku', 'Postal code': '150-0001' },
    badPostcode: { value: '1500', message: 'Enter a valid postal code, for example 154-0023.' },
    printed: ['Taro Yamada', '1-2-3 Jingumae', 'Shibuya-ku, Tokyo', '150-0001', 'Japan'],
  },
  {
    country: 'CA',
    countryName: 'Canada',
    labels: ['Full name', 'Address', 'Apartment, suite (optional)', 'City', 'Province', 'Postal code'],
    region: { label: 'Province', pick: 'Ontario', has: ['Quebec', 'British Columbia', 'Nunavut'], count: 13 },
    fill: { 'Full name': 'Chloé Tremblay', Address: '100 Queen St W', City: 'Toronto', 'Postal code': 'm5h 2n2' },
    badPostcode: { value: '90210', message: 'Enter a valid postal code, for example H3Z 2Y7.' },
    printed: ['Chloé Tremblay', '100 Queen St W', 'Toronto ON M5H 2N2', 'Canada'],
  },
  {
    country: 'GB',
    countryName: 'United Kingdom',
    labels: ['Full name', 'Address', 'Apartment, suite (optional)', 'Town/City', 'Postcode'],
    region: null,
    fill: { 'Full name': 'Ada Lovelace', Address: '10 Downing St', 'Town/City': 'London', Postcode: 'SW1A 2AA' },
    badPostcode: { value: 'LONDON', message: 'Enter a valid postcode, for example EC1Y 8SY.' },
    printed: ['Ada Lovelace', '10 Downing St', 'London', 'SW1A 2AA', 'United Kingdom'],
  },
];

describe('address forms in the shopper’s country’s format (browser)', () => {
  let site: LiveSite;
  let b: BrowserSession;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
    await site.database.db.execute(
      sql`insert into shipping_options (id, website_id, name, kind, price_cents) values (${newId()}, ${site.seed.websiteId}, 'Worldwide', 'flat', 900)`,
    );
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  async function toCheckout(page: Page) {
    await page.goto(`${site.url}/shop/p/ceramic-pour-over-set`);
    await page.waitForFunction(...hydrated('AddToCart'));
    const added = page.waitForResponse((r) => r.url().endsWith('/api/commerce/shopping-cart/entries') && r.request().method() === 'POST');
    await page.getByRole('article').getByRole('button', { name: 'Add To Cart', exact: true }).click();
    expect((await added).status()).toBe(200);
    await page.goto(`${site.url}/checkout`);
    await page.waitForFunction(...hydrated('CheckoutPage'));
  }

  for (const width of [390, 1280]) {
    for (const s of SHOPPERS) {
      it(`a shopper in ${s.countryName} at ${width} px gets ${s.countryName}'s form and confirmation`, async () => {
        const context = await b.browser.newContext({ viewport: { width, height: 900 } });
        const page = await context.newPage();
        const problems = watchConsole(page);
        await toCheckout(page);
        const section = page.getByRole('region', { name: 'Shipping address', exact: true });

        // Picking the country loads its format (and only its) and the form lays itself out again.
        const loaded = page.waitForResponse((r) => r.url().endsWith(`/api/address-format/${s.country}`));
        await section.getByRole('combobox', { name: 'Country', exact: true }).selectOption(s.country);
        expect((await loaded).status()).toBe(200);
        await section.getByLabel(s.labels.at(-1)!, { exact: true }).waitFor();
        expect(await section.locator('label').allTextContents()).toEqual(['Country', ...s.labels]);
        if (s.region) {
          const list = section.getByRole('combobox', { name: s.region.label, exact: true });
          const options = await list.locator('option').allTextContents();
          expect(options).toHaveLength(s.region.count + 1);
          expect(options).toEqual(expect.arrayContaining(s.region.has));
          await list.selectOption({ label: s.region.pick });
        } else {
          for (const name of ['State', 'Province', 'County', 'Prefecture'])
            expect(await section.getByRole('combobox', { name, exact: true }).count()).toBe(0);
        }
        await page.getByRole('textbox', { name: 'Email', exact: true }).fill(`${s.country.toLowerCase()}-${width}@example.com`);
        for (const [label, value] of Object.entries(s.fill)) await section.getByRole('textbox', { name: label, exact: true }).fill(value);
        await page.getByRole('radio', { name: /^Worldwide/ }).check();
        await page.getByRole('textbox', { name: 'Name on card', exact: true }).fill(s.fill['Full name']!);
        await page.getByRole('textbox', { name: 'Card number', exact: true }).fill('4242 4242 4242 4242');
        await page.getByRole('textbox', { name: 'Expiry (MM/YY)', exact: true }).fill('12/40');
        await page.getByRole('textbox', { name: 'Security code (CVC)', exact: true }).fill('123');
        await page.screenshot({ path: join(SHOTS, `checkout-${s.country}-${width}.png`), fullPage: true });
        if (width === 1280 && s.country === 'JP') await expectNoAxeViolations(page, { tags: WCAG_AA, include: ['form.checkout'] });

        const postcodeLabel = s.labels.at(-1)!;
        const postcode = section.getByRole('textbox', { name: postcodeLabel, exact: true });
        if (s.badPostcode) {
          // A postcode of the wrong shape: the server's message on the field, and no order.
          await postcode.fill(s.badPostcode.value);
          const refused = page.waitForResponse((r) => r.url().endsWith('/api/checkout/place-order'));
          await page.getByRole('button', { name: 'Place order', exact: true }).click();
          expect((await refused).status()).toBe(400);
          await expect.poll(() => postcode.getAttribute('aria-invalid')).toBe('true');
          expect(await section.getByText(s.badPostcode.message, { exact: true }).isVisible()).toBe(true);
          await postcode.fill(s.fill[postcodeLabel]!);
        }
        const placed = page.waitForResponse((r) => r.url().endsWith('/api/checkout/place-order'));
        await page.getByRole('button', { name: 'Place order', exact: true }).click();
        expect((await placed).status()).toBe(200);
        await page.waitForURL(/\/order-confirmed\//);
        await page.getByRole('heading', { name: 'Shipping address', exact: true }).waitFor();
        expect((await page.locator('address.order-address').innerText()).split('\n')).toEqual(s.printed);
        await page.screenshot({ path: join(SHOTS, `confirmed-${s.country}-${width}.png`), fullPage: true });
        expect(problems.filter((p) => !p.includes('favicon') && !p.includes('status of 400'))).toEqual([]);
        await context.close();
      });
    }
  }

  for (const width of [390, 1280]) {
    it(`without JavaScript at ${width} px: the country's button redraws the form in Canada's format; the server checks the postcode`, async () => {
      // The cart is filled with JavaScript on; the checkout is then used without it, with the same cookies.
      const withJs = await b.browser.newContext({ viewport: { width, height: 900 } });
      await toCheckout(await withJs.newPage());
      const state = await withJs.storageState();
      await withJs.close();
      const context = await b.browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: false, storageState: state });
      const page = await context.newPage();
      await page.goto(`${site.url}/checkout`);
      const section = page.getByRole('region', { name: 'Shipping address', exact: true });
      // Laid out for the shop's country (the US) until another is picked.
      await section.getByRole('combobox', { name: 'State', exact: true }).waitFor();
      await section.getByRole('combobox', { name: 'Country', exact: true }).selectOption('CA');
      const posted = page.waitForResponse((r) => r.url().endsWith('/api/checkout/form'));
      await section.getByRole('button', { name: "Show this country's address form", exact: true }).click();
      expect((await posted).status()).toBe(303);
      const province = section.getByRole('combobox', { name: 'Province', exact: true });
      await province.waitFor();
      expect(await section.locator('label').allTextContents()).toEqual([
        'Country',
        'Full name',
        'Address',
        'Apartment, suite (optional)',
        'City',
        'Province',
        'Postal code',
      ]);
      await page.getByRole('textbox', { name: 'Email', exact: true }).fill(`nojs-${width}@example.com`);
      await section.getByRole('textbox', { name: 'Full name', exact: true }).fill('Chloé Tremblay');
      await section.getByRole('textbox', { name: 'Address', exact: true }).fill('100 Queen St W');
      await section.getByRole('textbox', { name: 'City', exact: true }).fill('Toronto');
      await province.selectOption({ label: 'Ontario' });
      await section.getByRole('textbox', { name: 'Postal code', exact: true }).fill('90210');
      await page.getByRole('radio', { name: /^Worldwide/ }).check();
      await page.getByRole('textbox', { name: 'Name on card', exact: true }).fill('Chloé Tremblay');
      await page.getByRole('textbox', { name: 'Card number', exact: true }).fill('4242 4242 4242 4242');
      await page.getByRole('textbox', { name: 'Expiry (MM/YY)', exact: true }).fill('12/40');
      await page.getByRole('textbox', { name: 'Security code (CVC)', exact: true }).fill('123');
      await page.getByRole('button', { name: 'Place order', exact: true }).click();
      await section.getByText('Enter a valid postal code, for example H3Z 2Y7.', { exact: true }).waitFor();
      expect(await section.getByRole('textbox', { name: 'Postal code', exact: true }).getAttribute('aria-invalid')).toBe('true');
      await page.screenshot({ path: join(SHOTS, `checkout-nojs-CA-${width}.png`), fullPage: true });
      await section.getByRole('textbox', { name: 'Postal code', exact: true }).fill('M5H 2N2');
      // The card's number, expiry and code are never drawn back: entered again.
      await page.getByRole('textbox', { name: 'Card number', exact: true }).fill('4242 4242 4242 4242');
      await page.getByRole('textbox', { name: 'Expiry (MM/YY)', exact: true }).fill('12/40');
      await page.getByRole('textbox', { name: 'Security code (CVC)', exact: true }).fill('123');
      await page.getByRole('button', { name: 'Place order', exact: true }).click();
      await page.waitForURL(/\/order-confirmed\//);
      expect((await page.locator('address.order-address').innerText()).split('\n')).toEqual([
        'Chloé Tremblay',
        '100 Queen St W',
        'Toronto ON M5H 2N2',
        'Canada',
      ]);
      await context.close();
    });
  }
});
