/**
 * The owner's business address in Site settings (/config/settings): a structured address in the country's
 * format, the country and the province from lists; a postcode of the wrong shape is refused on its field by
 * the server and nothing is saved; the saved address comes back in its parts. At 390 and 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { OWNER, Visitor } from '../../helpers/app.js';
import { expectNoAxeViolations, WCAG_AA } from '../../helpers/axe.js';

const SHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'tessera-address-shots');

describe('the business address in Site settings (browser)', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  for (const width of [390, 1280]) {
    it(`at ${width} px: the owner picks Canada and Ontario from lists; a wrong postal code is refused on its field`, async () => {
      // Each width starts from no business address (the form starts in the shop's locale's country, the US).
      const owner = new Visitor(site.app);
      expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
      const current = (await owner.get('/api/admin/site-settings')).json().settings;
      const blank = { addressTitle: '', line1: '', line2: '', city: '', region: '', postalCode: '', country: '' };
      expect((await owner.send('PUT', '/api/admin/site-settings', { ...current, location: blank })).statusCode).toBe(200);
      const context = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const problems = watchConsole(page);
      await signInAsOwner(page, site, '/config/settings');
      const section = page.getByRole('region', { name: 'Business address', exact: true });
      await section.getByRole('combobox', { name: 'State', exact: true }).waitFor();
      const loaded = page.waitForResponse((r) => r.url().endsWith('/api/address-format/CA'));
      await section.getByRole('combobox', { name: 'Country', exact: true }).selectOption('CA');
      expect((await loaded).status()).toBe(200);
      const province = section.getByRole('combobox', { name: 'Province', exact: true });
      await province.waitFor();
      expect(await section.locator('label').allTextContents()).toEqual([
        'Country',
        'Business name',
        'Address',
        'Apartment, suite (optional)',
        'City',
        'Province',
        'Postal code',
      ]);
      await section.getByRole('textbox', { name: 'Business name', exact: true }).fill(`Fernhill ${width}`);
      await section.getByRole('textbox', { name: 'Address', exact: true }).fill('100 Queen St W');
      await section.getByRole('textbox', { name: 'City', exact: true }).fill('Toronto');
      await province.selectOption({ label: 'Ontario' });
      const postcode = section.getByRole('textbox', { name: 'Postal code', exact: true });
      await postcode.fill('90210');
      const refused = page.waitForResponse((r) => r.url().endsWith('/api/admin/site-settings') && r.request().method() === 'PUT');
      await page.getByRole('button', { name: 'Save settings', exact: true }).click();
      expect((await refused).status()).toBe(400);
      await expect.poll(() => postcode.getAttribute('aria-invalid')).toBe('true');
      expect(await section.getByText('Enter a valid postal code, for example H3Z 2Y7.', { exact: true }).isVisible()).toBe(true);
      await page.screenshot({ path: join(SHOTS, `business-address-${width}.png`), fullPage: true });
      if (width === 1280) await expectNoAxeViolations(page, { tags: WCAG_AA, include: ['form[aria-label="Site settings"]'] });

      await postcode.fill('m5h 2n2');
      const saved = page.waitForResponse((r) => r.url().endsWith('/api/admin/site-settings') && r.request().method() === 'PUT');
      await page.getByRole('button', { name: 'Save settings', exact: true }).click();
      expect((await saved).status()).toBe(200);
      expect((await owner.get('/api/admin/site-settings')).json().settings.location).toEqual({
        addressTitle: `Fernhill ${width}`,
        line1: '100 Queen St W',
        line2: '',
        city: 'Toronto',
        region: 'ON',
        postalCode: 'M5H 2N2',
        country: 'CA',
      });
      // Back on the screen the address is in its parts, in Canada's form.
      await page.reload();
      await province.waitFor();
      expect(await province.inputValue()).toBe('ON');
      expect(await postcode.inputValue()).toBe('M5H 2N2');
      expect(problems.filter((p) => !p.includes('favicon') && !p.includes('status of 400'))).toEqual([]);
      await context.close();
    });
  }
});
