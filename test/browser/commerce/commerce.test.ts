import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, liveSite, watchConsole, type BrowserSession, type LiveSite, hydrated } from '../../helpers/browser.js';

describe('commerce in Chromium, as a visitor', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  /** Hydration problems and errors (other areas' warnings, e.g. about preloads, are theirs to assert). */
  const hydrationProblems = (problems: string[]) =>
    problems.filter((p) => /hydrat|did not match|server rendered|^error|^pageerror/i.test(p));

  it('chooses options, is told what is missing or sold out, adds 3, then changes and removes them on /cart', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/shop/p/linen-camp-shirt`);
    await page.waitForFunction(...hydrated('AddToCart'));
    await page.waitForFunction(...hydrated('VariantSelect'));

    // The product's own button (related products below it have theirs).
    const add = page.getByRole('article').getByRole('button', { name: 'Add To Cart' });
    await add.click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('Please select the Size and Color options.');
    expect(await alert.textContent()).toContain('Unable to Add Item');

    const size = page.getByRole('combobox', { name: 'Select Size' });
    const color = page.getByRole('combobox', { name: 'Select Color' });
    await size.selectOption('L');
    await color.selectOption('Navy');
    // The price follows the chosen variant.
    await expect.poll(async () => (await page.locator('.product-price').first().textContent())?.trim()).toBe('$72.00');
    await add.click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Sorry, we do not have enough of that item available.');

    await size.selectOption('S');
    expect(await page.getByRole('alert').count()).toBe(0);
    const qty = page.getByRole('textbox', { name: 'Quantity' });
    await qty.fill('3');
    await add.click();
    await expect.poll(() => page.getByRole('button', { name: 'Adding…' }).count(), { interval: 20 }).toBe(1);
    await expect.poll(() => page.getByRole('button', { name: 'Added!' }).count(), { timeout: 5000, interval: 50 }).toBe(1);
    const pill = page.getByRole('link', { name: '3 items in cart' });
    await expect.poll(() => pill.isVisible()).toBe(true);
    expect((await pill.textContent())?.trim()).toBe('3');
    // Back to idle 2 s later.
    await expect.poll(() => add.count(), { timeout: 5000 }).toBe(1);

    await pill.click();
    await page.waitForURL(`${site.url}/cart`);
    await page.waitForFunction(...hydrated('CartPage'));
    expect(await page.getByRole('link', { name: 'Linen Camp Shirt' }).isVisible()).toBe(true);
    expect(await page.getByText('Size: S').isVisible()).toBe(true);
    expect(await page.locator('.cart-row__total').textContent()).toBe('$216.00');
    const cartQty = page.getByRole('textbox', { name: 'Quantity of Linen Camp Shirt' });
    expect(await cartQty.inputValue()).toBe('3');
    await cartQty.fill('1');
    await page.getByRole('button', { name: 'Update quantity of Linen Camp Shirt' }).click();
    await expect.poll(() => page.locator('.cart-row__total').textContent()).toBe('$72.00');
    await expect.poll(() => page.getByRole('link', { name: 'One item in cart' }).isVisible()).toBe(true);
    expect(await page.locator('.cart-subtotal__price').textContent()).toBe('$72.00');

    await page.getByRole('button', { name: 'Remove Linen Camp Shirt' }).click();
    await expect.poll(() => page.getByText('You have nothing in your shopping cart.').isVisible()).toBe(true);
    await expect.poll(() => page.locator('[data-test=cart-pill]').isHidden()).toBe(true);
    expect(hydrationProblems(problems)).toEqual([]);
    await context.close();
  });

  it('updates the pill in another open tab of the same visitor', async () => {
    const context = await b.browser.newContext();
    const one = await context.newPage();
    const two = await context.newPage();
    await one.goto(`${site.url}/shop/p/ceramic-pour-over-set`);
    await two.goto(`${site.url}/shop`);
    await one.waitForFunction(...hydrated('AddToCart'));
    await two.waitForFunction(...hydrated('CartPill'));
    await one.getByRole('article').getByRole('button', { name: 'Add To Cart' }).click();
    await expect.poll(() => two.getByRole('link', { name: 'One item in cart' }).isVisible(), { timeout: 5000 }).toBe(true);
    await context.close();
  });

  it('opens the quick view as a dialog that keeps focus, closes on Escape and returns focus', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/shop`);
    await page.waitForFunction(...hydrated('QuickView'));
    const button = page.getByRole('button', { name: 'Quick View Ceramic Pour-Over Set' });
    await button.click();
    const dialog = page.getByRole('dialog', { name: 'Ceramic Pour-Over Set' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]'))).toBe(true);
    for (let i = 0; i < 8; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]'))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Quick View');
    expect(hydrationProblems(problems)).toEqual([]);
    await context.close();
  });

  it('asks the additional-fields form in a lightbox before adding, and edits the answers from /cart', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/shop/p/engraved-cutting-board`);
    await page.waitForFunction(...hydrated('AddToCart'));
    await page.getByRole('article').getByRole('button', { name: 'Add To Cart' }).click();
    const dialog = page.getByRole('dialog', { name: 'Engraving' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Add To Cart' }).click();
    await expect.poll(() => dialog.getByText('Required').count()).toBe(2);
    await dialog.getByLabel('Engraving text').fill('Ana');
    await dialog.getByLabel('Font').selectOption('Script');
    await dialog.getByRole('button', { name: 'Add To Cart' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'One item in cart' }).isVisible(), { timeout: 5000 }).toBe(true);

    await page.goto(`${site.url}/cart`);
    await page.waitForFunction(...hydrated('CartPage'));
    expect(await page.getByText('Ana').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Edit Engraved Walnut Cutting Board' }).click();
    const edit = page.getByRole('dialog', { name: 'Engraving' });
    await edit.getByLabel('Engraving text').fill('Ana & Sam');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => edit.count()).toBe(0);
    expect(await page.getByText('Ana & Sam').isVisible()).toBe(true);
    expect(hydrationProblems(problems)).toEqual([]);
    await context.close();
  });
});
