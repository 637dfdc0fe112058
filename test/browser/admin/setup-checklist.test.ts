/**
 * Issue 23: a new owner completes the set-up checklist from the dashboard, in Chromium, by following each
 * step's link: Stripe keys saved and the connection checked (against the local Stripe stand-in), a shipping
 * option, the site's address, the SMTP relay (a local SMTP sink) and a first published product. The
 * checklist ticks itself from what the site has; nothing is ticked by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { SmtpSink } from '../../helpers/smtp-sink.js';
import { StripeStandin } from '../../helpers/stripe-standin.js';
import { launchBrowser, liveSite, signInAsOwner, type BrowserSession, type LiveSite } from '../../helpers/browser.js';

describe('a new owner completes the set-up checklist in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let sink: SmtpSink;
  let standin: StripeStandin;
  beforeAll(async () => {
    sink = await new SmtpSink().start();
    standin = await new StripeStandin().start();
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory', STRIPE_API_URL: standin.url }), launchBrowser()]);
    // A new shop: the seeded demo products are drafts, so no product is published yet.
    await site.database.db.execute(sql`update items set status = 'draft' where record_type = 11`);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
    await sink?.close();
    await standin?.stop();
  });

  const steps = (page: Page) => page.getByRole('list', { name: 'Set-up steps' });
  async function backHome(page: Page) {
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Home' }).click();
    await page.waitForURL(`${site.url}/config`);
    await steps(page).waitFor();
  }
  async function follow(page: Page, step: string) {
    await steps(page)
      .getByRole('listitem', { name: `${step}: not done yet` })
      .waitFor();
    await steps(page).getByRole('link', { name: step }).click();
  }

  it('every step is followed from the dashboard and ticks itself; then "Everything is set up."', async () => {
    const ctx = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await signInAsOwner(page, site);
    await steps(page).waitFor();
    expect(await page.getByText('0 of 5 done.').isVisible(), await steps(page).innerText()).toBe(true);

    // Take payments: Stripe keys saved, then Check connection passes (charges enabled).
    await follow(page, 'Take payments');
    await page.waitForURL(`${site.url}/config/payments`);
    await page.getByLabel('Publishable key').fill('pk_test_tessera_standin');
    await page.getByLabel('Secret key').fill(standin.secretKey);
    await page.getByLabel('Webhook signing secret').fill(standin.webhookSecret);
    await page.getByRole('button', { name: 'Save keys' }).click();
    await page.getByText('Payment settings saved.').first().waitFor();
    await backHome(page);
    // Saved keys alone are not enough: the connection has not been checked yet.
    await steps(page).getByRole('listitem', { name: 'Take payments: not done yet' }).waitFor();
    await steps(page).getByRole('link', { name: 'Take payments' }).click();
    await page.getByRole('button', { name: 'Check connection' }).click();
    await page.locator('dl').getByText('acct_test_tessera').waitFor();
    await backHome(page);
    await steps(page).getByRole('listitem', { name: 'Take payments: done' }).waitFor();
    await page.getByText('Done. Connected in Stripe test mode: save live keys to take real money.').waitFor();

    // Add a shipping option.
    await follow(page, 'Add a shipping option');
    await page.waitForURL(`${site.url}/config/shipping`);
    const shipping = page.getByRole('form', { name: 'Add a shipping option' });
    await shipping.getByRole('textbox', { name: 'Name', exact: true }).fill('Standard post');
    await shipping.getByRole('textbox', { name: 'Price', exact: true }).fill('5.00');
    await shipping.getByRole('button', { name: /Add/ }).click();
    await page.getByRole('table', { name: 'Shipping options' }).getByText('Standard post').waitFor();
    await backHome(page);
    await steps(page).getByRole('listitem', { name: 'Add a shipping option: done' }).waitFor();

    // Set the site's address.
    await follow(page, "Set the site's address");
    await page.waitForURL(`${site.url}/config/site-address`);
    await page.getByRole('form', { name: 'Site address' }).getByLabel('Site address').fill('https://shop.example.com');
    await page.getByRole('form', { name: 'Site address' }).getByRole('button', { name: 'Save' }).click();
    await page.getByText('Links in emails start with: https://shop.example.com').waitFor();
    await backHome(page);
    await steps(page).getByRole('listitem', { name: "Set the site's address: done" }).waitFor();

    // Set up email delivery: the SMTP relay.
    await follow(page, 'Set up email delivery');
    await page.waitForURL(`${site.url}/config/email-settings`);
    const relay = page.getByRole('form', { name: 'SMTP relay' });
    await relay.getByLabel('SMTP host').fill('127.0.0.1');
    await relay.getByLabel('Port').fill(String(sink.port));
    await relay.getByLabel('Security').selectOption('none');
    await relay.getByRole('button', { name: 'Save SMTP settings' }).click();
    await page.getByRole('status').filter({ hasText: 'SMTP settings saved.' }).first().waitFor();
    await backHome(page);
    await steps(page).getByRole('listitem', { name: 'Set up email delivery: done' }).waitFor();

    // Publish a first product.
    await follow(page, 'Publish a first product');
    await page.waitForURL(`${site.url}/config/products`);
    await page.getByRole('link', { name: 'Add product' }).first().click();
    const form = page.getByRole('form', { name: 'New product' });
    await form.getByLabel('Title', { exact: true }).fill('Linen apron');
    await form.getByLabel('Price', { exact: true }).fill('32.00');
    await form.getByRole('button', { name: 'Publish' }).click();
    await page.waitForURL(/\/config\/products\/[0-9a-f]{24}$/);
    await backHome(page);
    await steps(page).getByRole('listitem', { name: 'Publish a first product: done' }).waitFor();

    expect(await page.getByText('Everything is set up.').isVisible()).toBe(true);
    await page.screenshot({ path: '/tmp/shots/checklist-done-1280.png', fullPage: true });
    await ctx.close();
  });
});
