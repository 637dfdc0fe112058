import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { OWNER, Visitor } from '../../helpers/app.js';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { rows } from '../../../src/server/db-util.js';
import { confirmed } from '../../helpers/orders.js';
import { expectNoAxeViolations } from '../../helpers/axe.js';

const CARD = { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Buyer' };
const ADDRESS = { name: 'Ada Buyer', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };

describe('reviews and donations in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let owner: Visitor;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
    owner = new Visitor(site.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    expect(
      (await owner.send('POST', '/api/checkout/admin/shipping-options', { name: 'Standard', kind: 'flat', priceCents: 500 })).statusCode,
    ).toBe(200);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  /** Shopper events the page sent, by name. */
  function shopperEvents(context: BrowserContext): string[] {
    const seen: string[] = [];
    context.on('request', (r) => {
      if (/\/api\/(v1\/events|events\/RecordEvent|census\/RecordHit)/.test(new URL(r.url()).pathname)) {
        const body = r.postData() ?? '';
        for (const m of body.matchAll(/(related_product_[a-z]+|reviews_[a-z]+_click|product_page_visit)/g)) seen.push(m[1]!);
      }
    });
    return seen;
  }

  it('a buyer reviews after delivery; the review appears on the product page once the owner approves it', async () => {
    // The order, bought and delivered; the review request email is due.
    const buyer = new Visitor(site.app);
    expect(
      (
        await buyer.send('POST', '/api/commerce/shopping-cart/entries', {
          itemId: site.seed.productIds['ceramic-pour-over-set'],
          sku: 'POUR-OVER',
          quantity: 1,
        })
      ).statusCode,
    ).toBe(200);
    const placed = await buyer.send(
      'POST',
      '/api/checkout/place-order',
      await confirmed(buyer, {
        email: 'ada@example.com',
        shippingAddress: ADDRESS,
        payment: CARD,
        idempotencyKey: `browser-review-${Date.now()}`,
      }),
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const orderId = placed.json().purchaseConfirmation.id;
    expect((await owner.send('POST', `/api/checkout/admin/orders/${orderId}/fulfil`)).statusCode).toBe(200);
    await site.database.db.execute(sql`update jobs set run_at = now() where kind = 'reviews:request'`);
    await site.app.services.jobs.runDue();
    const mail = await rows<{ text_body: string }>(
      site.database.db,
      sql`select text_body from mail_outbox where kind = 'review-request' and to_address = 'ada@example.com'`,
    );
    expect(mail).toHaveLength(1);
    const path = new URL(/https?:\/\/\S+\/reviews\/request\/\S+/.exec(mail[0]!.text_body)![0]).pathname;

    const visitor = await b.browser.newContext();
    const page = await visitor.newPage();
    const problems = watchConsole(page);
    await page.goto(site.url + path);
    await page.getByRole('heading', { name: 'Review your purchase', level: 1 }).waitFor();
    await expectNoAxeViolations(page, { include: ['main'], impacts: ['serious', 'critical'] });
    const form = page.getByRole('form', { name: 'Review of Ceramic Pour-Over Set' });
    await form.getByRole('group', { name: 'Your rating for Ceramic Pour-Over Set' }).getByRole('radio', { name: '5 stars' }).check();
    await form.getByLabel('Title (optional)').fill('Bright, clean cups');
    await form.getByLabel('Your review').fill('Makes the clearest coffee I have had at home.');
    expect(await form.getByLabel('Your name').inputValue()).toBe('Ada Buyer');
    await form.getByRole('button', { name: 'Submit review' }).click();
    await page.getByRole('status').filter({ hasText: 'Thank you! Your review will appear once it has been approved.' }).waitFor();
    expect(await page.getByRole('form', { name: 'Review of Ceramic Pour-Over Set' }).count()).toBe(0);

    // Not shown before approval.
    await page.goto(`${site.url}/shop/p/ceramic-pour-over-set`);
    await page.locator('summary[data-reviews-tab]', { hasText: 'Reviews (0)' }).waitFor();
    expect(await page.getByRole('link', { name: 'Reviews (0)' }).getAttribute('href')).toBe('#reviews');
    expect(await page.getByText('Makes the clearest coffee').count()).toBe(0);

    // The owner approves it in /config/reviews.
    const ownerContext = await b.browser.newContext();
    const admin = await signInAsOwner(await ownerContext.newPage(), site);
    await admin.goto(`${site.url}/config/reviews`);
    const table = admin.getByRole('table', { name: 'Waiting for approval reviews' });
    await table.getByRole('cell', { name: /Makes the clearest coffee/ }).waitFor();
    await table.getByRole('button', { name: 'Approve the review by Ada Buyer' }).click();
    await admin.getByRole('status').filter({ hasText: 'Approved the review by Ada Buyer.' }).waitFor();
    await ownerContext.close();

    // The visitor sees it: average and count by the title, the review through the anchor link and in the reviews tab.
    const events = shopperEvents(visitor);
    await page.goto(`${site.url}/shop/p/ceramic-pour-over-set`);
    const anchor = page.getByRole('link', { name: '5.0 out of 5 stars · 1 review' });
    await anchor.waitFor();
    await page.waitForFunction(() => document.cookie.includes('ss_cvr='), undefined, { timeout: 10_000 }).catch(() => undefined);
    await anchor.click();
    await page.getByText('Makes the clearest coffee I have had at home.').waitFor({ state: 'visible' });
    expect(
      await page.getByRole('article', { name: 'Review by Ada Buyer' }).getByRole('heading', { name: 'Bright, clean cups' }).isVisible(),
    ).toBe(true);
    // The tab closes and opens the list.
    await page.locator('summary[data-reviews-tab]', { hasText: 'Reviews (1)' }).click();
    expect(await page.getByText('Makes the clearest coffee I have had at home.').isVisible()).toBe(false);
    await page.locator('summary[data-reviews-tab]', { hasText: 'Reviews (1)' }).click();
    expect(await page.getByText('Makes the clearest coffee I have had at home.').isVisible()).toBe(true);
    // Related products are shown, with their shopper events for the display and the review clicks.
    await page.getByRole('region', { name: 'You may also like' }).waitFor();
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    // Events go out in batches: wait for all three.
    const want = ['reviews_anchor_click', 'reviews_tab_click', 'related_product_display'];
    const stored = async () =>
      (await rows<{ name: string }>(site.database.db, sql`select distinct name from analytics_events`)).map((r) => r.name);
    const seen = async () => [...events, ...(await stored())];
    await expect
      .poll(
        async () => {
          const all = await seen();
          return want.filter((w) => !all.includes(w));
        },
        { timeout: 10_000 },
      )
      .toEqual([]);
    // Structured data for search engines.
    // The page also holds the breadcrumb JSON-LD (server/seo): pick the Product one.
    const lds = (await page.locator('script[type="application/ld+json"]').allTextContents()).map(
      (x) => JSON.parse(x) as Record<string, unknown>,
    );
    const ld = lds.find((x) => x['@type'] === 'Product');
    expect(ld).toMatchObject({ '@type': 'Product', aggregateRating: { ratingValue: '5.0', reviewCount: 1 } });

    // Without JavaScript the reviews read the same: the tab is a disclosure the browser opens by itself.
    const noJs = await b.browser.newContext({ javaScriptEnabled: false });
    const plain = await noJs.newPage();
    await plain.goto(`${site.url}/shop/p/ceramic-pour-over-set`);
    await plain.locator('summary[data-reviews-tab]', { hasText: 'Reviews (1)' }).click();
    await plain.getByText('Makes the clearest coffee I have had at home.').waitFor({ state: 'visible' });
    await noJs.close();

    // A related product added from its card, and one opened: the add and click events.
    expect(
      (
        await owner.send('PUT', `/api/reviews/admin/related/${site.seed.productIds['ceramic-pour-over-set']}`, {
          relatedItemIds: [site.seed.productIds['houseplant-field-guide'], site.seed.productIds['linen-camp-shirt']],
        })
      ).statusCode,
    ).toBe(200);
    await page.goto(`${site.url}/shop/p/ceramic-pour-over-set`);
    const related = page.getByRole('region', { name: 'You may also like' });
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-related-products] [data-island="AddToCart"]')].every(
        (e) => e.getAttribute('data-hydrated') === '1',
      ),
    );
    await related.getByRole('button', { name: 'Add To Cart' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'One item in cart' }).isVisible(), { timeout: 5000 }).toBe(true);
    await expect.poll(async () => (await seen()).includes('related_product_add'), { timeout: 10_000 }).toBe(true);
    await related
      .getByRole('link', { name: /Linen Camp Shirt/ })
      .first()
      .click();
    await page.waitForURL(`${site.url}/shop/p/linen-camp-shirt`);
    // Sent as the page unloads (a beacon): the server has it.
    await expect.poll(async () => (await stored()).join(','), { timeout: 10_000 }).toMatch(/related_product_click/);
    // Requests cut short by the navigation above (an analytics send in flight) are not page problems, nor is
    // Chromium's timing note on the page pipeline's image preload when the visitor jumps to the reviews at once.
    const real = problems.filter((p) => !/net::ERR_ABORTED|Failed to fetch|was preloaded using link preload but not used/.test(p));
    expect(real, real.join('\n')).toEqual([]);
    await visitor.close();
  }, 90_000);

  it('a donation in test mode reaches the contribution confirmed page; the owner sees the donor', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/donate`);
    await page.getByRole('heading', { name: 'Support our work', level: 1 }).waitFor();
    await expectNoAxeViolations(page, { include: ['main'], impacts: ['serious', 'critical'] });
    const amounts = page.getByRole('group', { name: 'Amount (USD)' });
    await amounts.getByRole('radio', { name: 'Other amount' }).check();
    await page.getByLabel('Other amount (USD, at least $1.00)').fill('0.10');
    await page.getByLabel('Your name').fill('Dana Donor');
    await page.getByLabel('Email').fill('dana@example.com');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/40');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Donate' }).click();
    // Too small: the form comes back with the message and the donor's entries (never the card).
    await page.getByText('The smallest donation is $1.00.').first().waitFor();
    expect(await page.getByLabel('Your name').inputValue()).toBe('Dana Donor');
    expect(await page.getByLabel('Card number').inputValue()).toBe('');

    await page.getByRole('group', { name: 'Amount (USD)' }).getByRole('radio', { name: '$25.00' }).check();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/40');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Donate' }).click();
    await page.getByRole('heading', { name: 'Thank you for your contribution', level: 1 }).waitFor();
    expect(page.url()).toMatch(/\/donate\/confirmed\/[0-9a-f]{24}\./);
    expect(await page.getByText('$25.00').first().isVisible()).toBe(true);
    expect(await page.getByText('This was a test-mode contribution: no money was taken.').isVisible()).toBe(true);
    await expectNoAxeViolations(page, { include: ['main'], impacts: ['serious', 'critical'] });
    // The one 400 is the too-small amount above (the form page answered with its status).
    expect(problems.filter((p) => !p.includes('status of 400'))).toEqual([]);
    await context.close();

    const list = await owner.get('/api/donations/admin/donations');
    expect(list.json().donations[0]).toMatchObject({ donorName: 'Dana Donor', amountCents: 2500, testMode: true });

    // The owner's donor list in /config/donations.
    const ownerContext = await b.browser.newContext();
    const admin = await signInAsOwner(await ownerContext.newPage(), site);
    const adminProblems = watchConsole(admin);
    await admin.goto(`${site.url}/config/donations`);
    const donors = admin.getByRole('table', { name: 'Donors' });
    await donors.getByRole('row', { name: /Dana Donor/ }).waitFor();
    expect(
      await donors
        .getByRole('row', { name: /Dana Donor/ })
        .getByRole('cell', { name: '$25.00 (test)' })
        .isVisible(),
    ).toBe(true);
    expect(adminProblems).toEqual([]);
    await ownerContext.close();
  }, 60_000);

  it('the owner chooses related products in /config/related-products and the product page shows them in that order', async () => {
    const ownerContext = await b.browser.newContext();
    const admin = await signInAsOwner(await ownerContext.newPage(), site);
    const problems = watchConsole(admin);
    await admin.goto(`${site.url}/config/related-products`);
    await admin.getByRole('heading', { name: 'Related products', level: 1 }).waitFor();
    await admin.getByRole('combobox', { name: 'Product', exact: true }).selectOption({ label: 'Merino Wool Throw' });
    const form = admin.getByRole('form', { name: 'Related products' });
    await form.getByRole('checkbox', { name: 'Bike Tune-Up' }).check();
    await form.getByRole('checkbox', { name: 'Gift Card' }).check();
    await form.getByRole('button', { name: 'Save related products' }).click();
    await admin.getByRole('status').filter({ hasText: 'Related products saved.' }).waitFor();
    expect(problems).toEqual([]);
    await ownerContext.close();

    const visitor = await b.browser.newContext();
    const page = await visitor.newPage();
    await page.goto(`${site.url}/shop/p/merino-wool-throw`);
    const titles = await page.getByRole('region', { name: 'You may also like' }).locator('.product-card__title').allTextContents();
    expect(titles).toEqual(['Bike Tune-Up', 'Gift Card']);
    await visitor.close();
  }, 60_000);
});
