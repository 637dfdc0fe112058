/**
 * The donation block in Chromium: an owner adds it from the editor's palette and fills its side panel
 * (title, text, amounts, custom toggle) by accessible names, publishes; a visitor with JavaScript off
 * gives through the block's form and reaches the contribution confirmed page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { donations as donationText } from '../../../src/core/messages.js';

describe('donation block in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  it('an owner sets up a donation block in the editor and a visitor without JavaScript donates through it', async () => {
    const context = await b.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const problems = watchConsole(page);
    await signInAsOwner(page, site);
    await page.getByRole('link', { name: 'Page editor', exact: true }).click();
    const create = page.getByRole('form', { name: 'Create a page' });
    await create.getByLabel('Page title').fill('Give to the studio');
    await create.getByRole('button', { name: 'Create page' }).click();
    await page.getByRole('heading', { level: 1, name: /Edit page: Give to the studio/ }).waitFor();
    await page.getByRole('button', { name: 'Add section' }).click();
    await page.getByRole('button', { name: 'Add block to section 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a block' });
    await dialog.getByRole('button', { name: 'Donation', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    const panel = page.getByRole('complementary');
    await panel.getByRole('heading', { name: 'Donation block' }).waitFor();
    await panel.getByLabel('Title').fill('Keep the kiln lit');
    await panel.getByLabel('Short text').fill('Gifts pay for clay.');
    const amounts = panel.getByRole('group', { name: 'Suggested amounts' });
    await amounts.getByLabel('Amount 1').fill('8.00');
    await amounts.getByRole('button', { name: 'Remove amount 3' }).click();
    expect(await amounts.getByLabel('Amount 3').count()).toBe(0);
    await amounts.getByRole('button', { name: 'Add amount' }).click();
    await amounts.getByLabel('Amount 3').fill('60');
    await panel.getByRole('checkbox', { name: 'Allow a custom amount' }).uncheck();
    await page
      .locator('.ed-save[role="status"]')
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Published\./ })
      .waitFor();
    expect(problems).toEqual([]);
    await context.close();

    const visitorContext = await b.browser.newContext({ javaScriptEnabled: false });
    const visitor = await visitorContext.newPage();
    const res = await visitor.goto(`${site.url}/give-to-the-studio`);
    expect(res?.status()).toBe(200);
    const main = visitor.getByRole('main');
    expect(await main.getByRole('heading', { name: 'Keep the kiln lit' }).isVisible()).toBe(true);
    expect(await main.getByText('Gifts pay for clay.').isVisible()).toBe(true);
    for (const label of ['$8.00', '$25.00', '$60.00']) expect(await main.getByRole('radio', { name: label }).count(), label).toBe(1);
    expect(await main.getByRole('radio', { name: donationText.CUSTOM_AMOUNT }).count()).toBe(0);
    await main.getByRole('radio', { name: '$60.00' }).check();
    await main.getByLabel('Your name').fill('Vera Visitor');
    await main.getByLabel('Email').fill('vera@example.com');
    await main.getByLabel('Card number').fill('4242 4242 4242 4242');
    await main.getByLabel('Expiry (MM/YY)').fill('12/40');
    await main.getByLabel('CVC').fill('123');
    await main.getByRole('button', { name: 'Donate' }).click();
    await visitor.waitForURL(/\/donate\/confirmed\//);
    expect(await visitor.getByRole('heading', { name: donationText.CONFIRMED_TITLE }).isVisible()).toBe(true);
    expect(await visitor.getByText('$60.00').first().isVisible()).toBe(true);
    await visitorContext.close();
  }, 120_000);
});
