import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../../src/server/db-util.js';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { expectNoAxeViolations } from '../../helpers/axe.js';

/** Chromium on 127.0.0.1, which this suite declares a staging host, so experiment overrides work here. */
describe('flags in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([
      liveSite('pglite', { RATE_LIMIT_STORE: 'memory', INTERNAL_HOST_PATTERNS: '127.0.0.1' }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  it('an override is stored in local storage under the experiment key, events carry the variant, and a reset removes it', async () => {
    const owner = await b.browser.newContext();
    const admin = await owner.newPage();
    await signInAsOwner(admin, site);
    const saved = await admin.evaluate(async () => {
      const crumb = document.cookie
        .split('; ')
        .find((c) => c.startsWith('crumb='))!
        .slice(6);
      const res = await fetch('/api/flags/experiments', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(crumb) },
        body: JSON.stringify({
          experiments: [
            {
              name: 'hero',
              variants: [
                { name: 'control', weight: 100 },
                { name: 'bold', weight: 0 },
              ],
            },
          ],
        }),
      });
      return res.status;
    });
    expect(saved).toBe(200);

    const visitor = await b.browser.newContext();
    const page = await visitor.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/shop/p/ceramic-pour-over-set?experiment.hero=bold`);
    await page.waitForFunction(() => localStorage.getItem('tessera.experiment.hero') === 'bold', undefined, { timeout: 10_000 });
    // Without the parameter the stored override stays.
    await page.goto(`${site.url}/shop`);
    await page.waitForFunction(() => document.cookie.includes('ss_cvr='));
    expect(await page.evaluate(() => localStorage.getItem('tessera.experiment.hero'))).toBe('bold');
    // The product page's events reached the server with the variant (they go by beacon as the page is left).
    await expect
      .poll(
        async () => {
          await site.app.analytics.ingest.drain();
          const found = await rows<{ name: string }>(
            site.database.db,
            sql`select name from analytics_events where data->'experiments' ? 'hero:bold'`,
          );
          return found.map((r) => r.name);
        },
        { timeout: 10_000 },
      )
      .toContain('product_page_visit');
    // A reset removes it.
    await page.goto(`${site.url}/shop?experiment.hero=reset`);
    await page.waitForFunction(() => localStorage.getItem('tessera.experiment.hero') === null, undefined, { timeout: 10_000 });
    // No third-party script: the recorder is not configured.
    expect(await page.evaluate(() => [...document.scripts].filter((s) => s.src && !s.src.startsWith(location.origin)).length)).toBe(0);
    expect(problems).toEqual([]);
    await visitor.close();
    await owner.close();
  });

  it('the owner switches a feature off on /config/features, and billing links resolve', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    await signInAsOwner(page, site);
    await page.goto(`${site.url}/config/features`);
    await page.getByRole('heading', { name: 'Features and experiments' }).waitFor();
    const giftCards = page.getByRole('checkbox', { name: 'Gift cards' });
    await expect.poll(() => giftCards.isChecked()).toBe(true);
    await giftCards.uncheck();
    await page.getByRole('status').filter({ hasText: 'Gift cards is off.' }).waitFor();
    expect((await page.request.get(`${site.url}/shop/p/gift-card`)).status()).toBe(404);
    await giftCards.check();
    await page.getByRole('status').filter({ hasText: 'Gift cards is on.' }).waitFor();
    expect((await page.request.get(`${site.url}/shop/p/gift-card`)).status()).toBe(200);
    // The funnel of an experiment, split by variant (the first test's visitor had 'bold').
    await page.getByRole('button', { name: 'Show funnel for hero' }).click();
    const table = page.getByRole('table', { name: 'Shop funnel of hero by variant (visitors)' });
    await table.waitFor();
    await expect.poll(() => table.getByRole('rowheader', { name: 'bold' }).count()).toBe(1);
    await expectNoAxeViolations(page, { include: ['main'] });

    await page.goto(`${site.url}/config/settings/billing`);
    await page.getByRole('heading', { name: 'Plan: Self-hosted' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Upgrade destinations' });
    for (const name of ['Upgrade from a trial', 'Website subscriptions']) {
      const href = await nav.getByRole('link', { name }).getAttribute('href');
      expect((await page.request.get(`${site.url}${href}`)).status(), name).toBe(200);
    }
    await nav.getByRole('link', { name: 'Website subscriptions' }).click();
    await page.getByRole('heading', { name: 'Website subscriptions' }).waitFor();
    await context.close();
  });
});
