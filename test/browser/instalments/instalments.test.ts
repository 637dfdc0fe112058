import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, liveSite, watchConsole, type BrowserSession, type LiveSite, hydrated } from '../../helpers/browser.js';
import { eq } from 'drizzle-orm';
import { schema } from '../../../src/db/index.js';
import { INSTALMENTS_NAMESPACE, seedInstalmentPreferences } from '../../../src/server/instalments/index.js';
import { expectNoAxeViolations } from '../../helpers/axe.js';

describe('instalment messaging in Chromium, as a visitor', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
    // A maximum of $70.00: the Linen Camp Shirt's Sand variants ($68.00) qualify, its Navy ones ($72.00) do not.
    const prefs = { available: true, merchantCountry: 'US', limits: { USD: { min: 100, max: 7000 } } };
    if (!(await seedInstalmentPreferences(site.database.db, site.seed.websiteId, prefs))) {
      await site.database.db
        .update(schema.commercePreferences)
        .set({ value: prefs })
        .where(eq(schema.commercePreferences.namespace, INSTALMENTS_NAMESPACE));
    }
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  const hydrationProblems = (problems: string[]) =>
    problems.filter((p) => /hydrat|did not match|server rendered|^error|^pageerror/i.test(p));
  const pillText = (page: Page) =>
    page.locator('[data-island="AddToCart"] .instalment-pill').evaluate((e) => (e as HTMLElement).innerText.replace(/\s+/g, ' ').trim());

  it('reads the amount, switches to the out-of-range text for a pricier variant, and opens an accessible popup', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/shop/p/linen-camp-shirt`);
    await page.waitForFunction(...hydrated('AddToCart'));
    await page.waitForFunction(...hydrated('VariantSelect'));

    expect(await page.getByText('or 4 interest-free payments of $17.00 with').isVisible()).toBe(true);
    expect(await page.getByRole('img', { name: 'Afterpay' }).isVisible()).toBe(true);
    const info = page.getByRole('button', { name: 'more information' });
    expect(await info.isVisible()).toBe(true);

    const size = page.getByRole('combobox', { name: 'Select Size' });
    const color = page.getByRole('combobox', { name: 'Select Color' });
    await size.selectOption('S');
    await color.selectOption('Sand');
    await expect.poll(() => pillText(page)).toBe('or 4 interest-free payments of $17.00 with afterpay more information');
    await color.selectOption('Navy');
    await expect.poll(async () => (await page.locator('.product-price').first().textContent())?.trim()).toBe('$72.00');
    await expect.poll(() => pillText(page)).toBe('afterpay available for orders up to $70.00 more information');
    expect(await page.getByText('interest-free payments').count()).toBe(0);
    // Back to Sand, then two of them: the quantity counts too.
    await color.selectOption('Sand');
    await expect.poll(() => pillText(page)).toContain('or 4 interest-free payments of $17.00 with');
    await page.getByRole('textbox', { name: 'Quantity' }).fill('2');
    await expect.poll(() => pillText(page)).toBe('afterpay available for orders up to $70.00 more information');
    await page.getByRole('textbox', { name: 'Quantity' }).fill('1');
    await color.selectOption('Navy');
    await expect.poll(() => pillText(page)).toContain('available for orders up to $70.00');

    // The popup: opens from 'more information', shows the local version (the provider is out of reach).
    await info.click();
    const dialog = page.getByRole('dialog', { name: 'Afterpay' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await info.getAttribute('aria-expanded')).toBe('true');
    await expect
      .poll(() => dialog.getByRole('heading', { name: 'Shop now. Pay later. Always interest-free.' }).isVisible(), { timeout: 10_000 })
      .toBe(true);
    expect(await dialog.getByRole('listitem').count()).toBe(4);
    expect(await dialog.getByText('Your purchase will be split into 4 payments, payable every 2 weeks.').isVisible()).toBe(true);
    // Focus is inside the dialog.
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);

    await expectNoAxeViolations(page, { include: ['[role="dialog"]'] });

    // Escape hides it and focus returns to 'more information'.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('more information');
    expect(await info.getAttribute('aria-expanded')).toBe('false');

    // The Close control and a click outside do the same.
    await info.click();
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('more information');
    await info.click();
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await page.mouse.click(5, 5);
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('more information');

    expect(hydrationProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows the cart pill on /cart for the subtotal and re-draws it on cart edits', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/shop/p/linen-camp-shirt`);
    await page.waitForFunction(...hydrated('AddToCart'));
    await page.getByRole('combobox', { name: 'Select Size' }).selectOption('M');
    await page.getByRole('combobox', { name: 'Select Color' }).selectOption('Sand');
    await page.getByRole('article').getByRole('button', { name: 'Add To Cart' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'One item in cart' }).isVisible(), { timeout: 5000 }).toBe(true);

    await page.goto(`${site.url}/cart`);
    await page.waitForFunction(...hydrated('CartPage'));
    const cartPill = page.locator('[data-island="CartPage"] .instalment-pill');
    await expect.poll(() => cartPill.innerText()).toContain('or 4 interest-free payments of $17.00 with');
    const qty = page.getByRole('textbox', { name: 'Quantity of Linen Camp Shirt' });
    await qty.fill('2');
    await page.getByRole('button', { name: 'Update quantity of Linen Camp Shirt' }).click();
    await expect.poll(() => page.locator('.cart-subtotal__price').textContent()).toBe('$136.00');
    await expect.poll(() => cartPill.innerText()).toContain('available for orders up to $70.00');
    await page.getByRole('button', { name: 'more information' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Afterpay' }).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('more information');
    // Escape the moment the dialog opens, before anything waits for it to show, still closes it.
    await page.getByRole('button', { name: 'more information' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('more information');
    expect(hydrationProblems(problems)).toEqual([]);
    await context.close();
  });
});
