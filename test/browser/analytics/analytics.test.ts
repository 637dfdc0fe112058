import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Request } from 'playwright-core';
import {
  launchBrowser,
  liveSite,
  signInAsOwner,
  watchConsole,
  type BrowserSession,
  type LiveSite,
  hydrated,
} from '../../helpers/browser.js';

const ANALYTICS = /\/api\/(census\/|v1\/events|events\/|1\/performance\/)/;

describe('analytics in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  /** The tracker has started once the visitor cookie exists. */
  const trackerStarted = () => () => document.cookie.includes('ss_cvr=');

  function recordAnalytics(context: BrowserContext): Request[] {
    const seen: Request[] = [];
    context.on('request', (r) => {
      if (ANALYTICS.test(new URL(r.url()).pathname)) seen.push(r);
    });
    return seen;
  }

  async function funnelLabel(page: Page): Promise<string> {
    await page.goto(`${site.url}/config/analytics`);
    const chart = page.getByRole('img', { name: /^Shopper funnel/ });
    await chart.waitFor();
    return (await chart.getAttribute('aria-label')) ?? '';
  }

  it('a visitor views a product, adds to cart and opens /cart; the owner sees those steps in the funnel', async () => {
    const visitor = await b.browser.newContext();
    const page = await visitor.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/shop/p/ceramic-pour-over-set`);
    await page.waitForFunction(...hydrated('AddToCart'));
    await page.waitForFunction(trackerStarted());
    await page.getByRole('article').getByRole('button', { name: 'Add To Cart' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'One item in cart' }).isVisible(), { timeout: 5000 }).toBe(true);
    const cartView = page.waitForRequest((r) => r.url().endsWith('/api/census/RecordHit') && (r.postData() ?? '').includes('%2Fcart'));
    await page.goto(`${site.url}/cart`);
    await page.waitForFunction(...hydrated('CartPage'));
    await cartView; // the tracker runs on /cart
    await page.goto(`${site.url}/shop`); // leaving /cart sends what is still batched
    expect(problems.filter((p) => !p.includes('favicon'))).toEqual([]);
    await visitor.close();

    const owner = await b.browser.newContext();
    const admin = await signInAsOwner(await owner.newPage(), site);
    await expect
      .poll(async () => funnelLabel(admin), { timeout: 10_000, interval: 300 })
      .toMatch(/Product view: 1; Add to cart: 1 \(100% of the step before\); View cart: 1 \(100% of the step before\)/);
    // Visitors and page views are charted too.
    const line = admin.getByRole('img', { name: /^Visitors and page views/ });
    expect(await line.getAttribute('aria-label')).toMatch(/Visitors: 1 in total; Page views: [2-9] in total/);
    expect(await admin.getByRole('img', { name: /^Top pages/ }).getAttribute('aria-label')).toContain('/shop/p/ceramic-pour-over-set: 1');
    await owner.close();
  });

  it('a thrown error on a page shows up in the owner error list', async () => {
    const visitor = await b.browser.newContext();
    const page = await visitor.newPage();
    await page.goto(`${site.url}/shop`);
    await page.waitForFunction(() => !!document.getElementById('tessera-page'));
    const sent = page.waitForResponse((r) => r.url().endsWith('/api/events/RecordJavascriptErrors'));
    await page.evaluate(`setTimeout(() => { throw new Error('Analytics test boom 42'); }, 0);`); // the page's CSP allows no inline script tag
    const res = await sent;
    expect(res.status()).toBe(202);
    const body = JSON.parse(res.request().postData() ?? '[]');
    expect(body[0]).toMatchObject({ message: 'Analytics test boom 42', url: `${site.url}/shop`, templateId: 'default' });
    expect(body[0].websiteId).toBe(site.seed.websiteId);
    expect(body[0].browser).toContain('Chrome');
    await visitor.close();

    const owner = await b.browser.newContext();
    const admin = await signInAsOwner(await owner.newPage(), site);
    await admin.goto(`${site.url}/config/analytics`);
    const errors = admin.getByRole('region', { name: 'JavaScript errors' });
    await expect
      .poll(
        async () => {
          await admin.reload();
          await errors.waitFor();
          return errors.getByRole('cell', { name: /Analytics test boom 42/ }).count();
        },
        { timeout: 10_000, interval: 300 },
      )
      .toBe(1);
    await owner.close();
  });

  it('events sent at page load carry the cart fields of a visitor who has a cart', async () => {
    const visitor = await b.browser.newContext();
    const page = await visitor.newPage();
    await page.goto(`${site.url}/shop/p/ceramic-pour-over-set`);
    await page.waitForFunction(...hydrated('AddToCart'));
    await page.getByRole('article').getByRole('button', { name: 'Add To Cart' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'One item in cart' }).isVisible(), { timeout: 5000 }).toBe(true);
    const cart = (await (await page.request.get(`${site.url}/api/commerce/shopping-cart`)).json()) as { id: string; subtotalCents: number };
    expect(cart.subtotalCents).toBeGreaterThan(0);

    // A fresh load of the product page: its product_page_visit is sent at load, with the cart's fields.
    const visit = page.waitForRequest(
      (r) => new URL(r.url()).pathname === '/api/v1/events' && (r.postData() ?? '').includes('product_page_visit'),
    );
    await page.reload();
    await page.waitForFunction(trackerStarted());
    const batch = JSON.parse((await visit).postData() ?? '[]') as Array<{ eventSchemaName: string; eventContent: string }>;
    const content = JSON.parse(batch.find((e) => e.eventSchemaName === 'product_page_visit')!.eventContent);
    expect(content).toMatchObject({
      cart_id: cart.id,
      num_items_in_cart: 1,
      cart_value: cart.subtotalCents,
      currency_code: 'USD',
      purchase_type_list: ['ONE_TIME'],
    });
    expect(content.product_types_list).toHaveLength(1);
    await visitor.close();
  });

  it('form-render carries the form id and the page fields of the page the form is on', async () => {
    const visitor = await b.browser.newContext();
    const page = await visitor.newPage();
    const render = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/census/form-render');
    await page.goto(`${site.url}/contact`);
    const body = JSON.parse((await render).postData() ?? '{}');
    expect(body).toMatchObject({
      formId: 'contact-form',
      pageId: site.seed.collectionIds.contact,
      contentSource: 'c',
      pagePath: '/contact',
      pagePermissionTypeValue: 1,
      websiteId: site.seed.websiteId,
    });
    await visitor.close();
  });

  it('makes no analytics request under /config, for the owner, or with tracking off', async () => {
    const owner = await b.browser.newContext();
    const ownerRequests = recordAnalytics(owner);
    const admin = await signInAsOwner(await owner.newPage(), site);
    await admin.goto(`${site.url}/config/analytics`);
    await admin.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    // The owner browsing the public site is not tracked either.
    const shop = await owner.newPage();
    await shop.goto(`${site.url}/shop/p/ceramic-pour-over-set`);
    await shop.waitForFunction(...hydrated('AddToCart'));
    await shop.close();

    // Positive control: an anonymous visitor is tracked.
    const before = await b.browser.newContext();
    const beforeRequests = recordAnalytics(before);
    const p1 = await before.newPage();
    await p1.goto(`${site.url}/shop/p/ceramic-pour-over-set`);
    await p1.waitForFunction(trackerStarted());
    await expect.poll(() => beforeRequests.length, { timeout: 5000 }).toBeGreaterThan(0);
    await before.close();

    // Tracking off, through the settings form.
    const box = admin.getByRole('checkbox', { name: 'Record visitor analytics' });
    await box.uncheck();
    await admin.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => admin.getByText('Saved.').isVisible()).toBe(true);

    const off = await b.browser.newContext();
    const offRequests = recordAnalytics(off);
    const p2 = await off.newPage();
    await p2.goto(`${site.url}/shop/p/ceramic-pour-over-set`);
    await p2.waitForFunction(...hydrated('AddToCart'));
    const island = JSON.parse((await p2.locator('#tessera-page').textContent()) ?? '{}');
    expect(island.track).toBe(false);
    await p2.getByRole('article').getByRole('button', { name: 'Add To Cart' }).click();
    await expect.poll(() => p2.getByRole('link', { name: 'One item in cart' }).isVisible(), { timeout: 5000 }).toBe(true);
    await p2.goto(`${site.url}/cart`);
    await p2.waitForFunction(...hydrated('CartPage'));
    await p2.goto(`${site.url}/shop`);
    await p2.waitForLoadState('load');
    await off.close();

    expect(offRequests.map((r) => r.url())).toEqual([]);
    expect(ownerRequests.map((r) => r.url())).toEqual([]);

    await box.check();
    await admin.getByRole('button', { name: 'Save settings' }).click();
    await owner.close();
  });
});
