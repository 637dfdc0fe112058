/**
 * Issue 25: Settings → Payments in /config, in Chromium. The owner connects Stripe (a local stand-in of its API)
 * with test keys, sees the secrets masked, checks the connection (country, currency, charges), and the test-mode
 * banner changes; axe-core finds nothing; screenshots at 390 px and 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { StripeStandin } from '../../helpers/stripe-standin.js';
import { expectNoAxeViolations, WCAG_AA } from '../../helpers/axe.js';

describe('Settings → Payments in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let standin: StripeStandin;
  beforeAll(async () => {
    standin = await new StripeStandin().start();
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory', STRIPE_API_URL: standin.url }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
    await standin?.stop();
  });

  it('connects Stripe with test keys, masks the secrets, and checks the connection', async () => {
    const ctx = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    const problems = watchConsole(page);
    await signInAsOwner(page, site, '/config/payments');
    await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
    await expect(page.getByRole('status').filter({ hasText: 'Test mode.' }).textContent()).resolves.toContain('no money is taken');
    expect(await page.getByRole('button', { name: 'Check connection' }).isDisabled()).toBe(true);
    await page.screenshot({ path: '/tmp/shots/payments-test-mode-1280.png', fullPage: true });

    // A wrong key is refused beside its field.
    await page.getByLabel('Secret key').fill('pk_test_wrong_kind');
    await page.getByRole('button', { name: 'Save keys' }).click();
    await page.getByText('Enter a Stripe secret key: it starts with sk_test_ or sk_live_ (or rk_ for a restricted key).').waitFor();

    await page.getByLabel('Publishable key').fill('pk_test_tessera_standin');
    await page.getByLabel('Secret key').fill(standin.secretKey);
    await page.getByLabel('Webhook signing secret').fill(standin.webhookSecret);
    await page.getByRole('button', { name: 'Save keys' }).click();
    await page.getByText('Payment settings saved.').first().waitFor();
    await page.getByRole('status').filter({ hasText: 'Stripe test mode.' }).waitFor();
    // The secrets are shown masked, never in full, and the fields are empty again.
    await page.getByText('Saved: sk_test_…ndin. Leave blank to keep it.').waitFor();
    expect(await page.getByLabel('Secret key').inputValue()).toBe('');
    expect(await page.content()).not.toContain(standin.secretKey);
    await page.getByText('/api/payments/stripe/webhook').waitFor();

    await page.getByRole('button', { name: 'Check connection' }).click();
    const result = page.locator('dl');
    await result.getByText('acct_test_tessera').waitFor();
    expect(await result.textContent()).toContain('US');
    expect(await result.textContent()).toContain('USD');
    expect(await result.textContent()).toContain('Enabled');
    await expectNoAxeViolations(page, { tags: WCAG_AA });
    await page.screenshot({ path: '/tmp/shots/payments-connected-1280.png', fullPage: true });

    // Stripe refuses the key (rolled in the dashboard): the problem in words.
    const good = standin.secretKey;
    (standin as unknown as { secretKey: string }).secretKey = 'sk_test_rolled_elsewhere';
    await page.getByRole('button', { name: 'Check connection' }).click();
    await page.getByText('Stripe refused the secret key: it is wrong, or it was rolled or deleted.', { exact: false }).waitFor();
    (standin as unknown as { secretKey: string }).secretKey = good;

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: '/tmp/shots/payments-390.png', fullPage: true });
    expect(problems).toEqual([]);
    await ctx.close();
  }, 120_000);
});
