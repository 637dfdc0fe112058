/** Issue 30, storefront items observed in Chromium: the cart's edit dialog after a failed save. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hydrated, launchBrowser, liveSite, type BrowserSession, type LiveSite } from '../../helpers/browser.js';

describe('issue 30 storefront in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  it('the cart edit dialog keeps focus after a failed save, and Escape still closes it', async () => {
    const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${site.url}/health`);
    const crumb = (await context.cookies()).find((c) => c.name === 'crumb')?.value ?? '';
    const added = await context.request.post(`${site.url}/api/commerce/shopping-cart/entries`, {
      headers: { 'x-csrf-token': crumb, 'content-type': 'application/json' },
      data: {
        itemId: site.seed.productIds['engraved-cutting-board'],
        sku: 'BOARD-WALNUT',
        quantity: 1,
        additionalFields: JSON.stringify({ 'engraving-text': 'Ana', 'engraving-font': 'Serif' }),
      },
    });
    expect(added.status()).toBe(200);
    const entryId = (await added.json()).newlyAdded.id as string;

    await page.goto(`${site.url}/cart`);
    await page.waitForFunction(...hydrated('CartPage'));
    const edit = page.getByRole('button', { name: 'Edit Engraved Walnut Cutting Board' });
    await edit.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();

    // The entry goes away behind the page's back (another tab removes it): the save really fails.
    const removed = await context.request.delete(`${site.url}/api/commerce/shopping-cart/entries/${entryId}`, {
      headers: { 'x-csrf-token': crumb },
    });
    expect(removed.status()).toBe(200);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('Unable to update form');
    // Focus is still inside the dialog.
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // Focus returns to the page's Edit button.
    await expect.poll(() => page.evaluate(() => document.activeElement?.className ?? '')).toContain('cart-row__edit');
    await context.close();
  });
});
