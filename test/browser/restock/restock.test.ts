import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { SmtpSink } from '../../helpers/smtp-sink.js';
import { configureCaptcha } from '../../../src/server/captcha/index.js';
import { DEFAULT_THEME_DIR } from '../../../src/server/site-page/index.js';

/**
 * The demo theme, with the restock formatter on the product page when the theme does not place it yet
 * (the product template belongs to the commerce area; the form is drawn by {@|product-restock-notification}).
 */
function themeWithRestockForm(): { dir: string; cleanup: () => void } {
  const file = join(DEFAULT_THEME_DIR, 'collections', 'products.item');
  const source = readFileSync(file, 'utf8');
  if (source.includes('product-restock-notification')) return { dir: DEFAULT_THEME_DIR, cleanup: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'tessera-theme-'));
  cpSync(DEFAULT_THEME_DIR, dir, { recursive: true });
  writeFileSync(
    join(dir, 'collections', 'products.item'),
    source.replace('{@|add-to-cart-btn}', '{@|add-to-cart-btn}\n      {@|product-restock-notification}'),
  );
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Waits until `check` holds (asked every 100 ms), failing after `ms` with what was awaited. */
async function until(check: () => boolean, what: string, ms = 30_000) {
  await vi.waitUntil(check, { timeout: ms, interval: 100 }).catch(() => {
    throw new Error(`timed out waiting for ${what}`);
  });
}

describe('restock sign-up in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let sink: SmtpSink;
  let theme: { dir: string; cleanup: () => void };

  beforeAll(async () => {
    sink = await new SmtpSink().start();
    theme = themeWithRestockForm();
    [site, b] = await Promise.all([liveSite('pglite', { SMTP_URL: sink.url, THEME_DIR: theme.dir }), launchBrowser()]);
    configureCaptcha(site.app, { altchaMaxNumber: 5000 });
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
    await sink?.close();
    theme?.cleanup();
  });

  /** The sign-up form of the product (the page may hold other forms, e.g. the footer newsletter). */
  const restockRegion = (page: Page) => page.locator('[data-island="RestockSignUp"]');
  async function signUpForm(page: Page) {
    const email = restockRegion(page).getByRole('textbox', { name: 'Email Address' });
    const button = restockRegion(page).getByRole('button', { name: 'Sign Up' });
    return { email, button };
  }

  it('a visitor signs up on a sold-out variant; the owner restocks it in /config and the email arrives', async () => {
    const visitor = await b.browser.newContext();
    const page = await visitor.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/shop/p/linen-camp-shirt`);
    await page.waitForFunction(() => document.querySelector('[data-island="RestockSignUp"]')?.getAttribute('data-hydrated') === '1');
    // Most variants are in stock: no form until the sold-out one is chosen.
    expect(await restockRegion(page).getByRole('textbox', { name: 'Email Address' }).count()).toBe(0);
    await page.getByRole('combobox', { name: 'Select Size' }).selectOption('L');
    await page.getByRole('combobox', { name: 'Select Color' }).selectOption('Navy');
    const { email, button } = await signUpForm(page);
    await email.waitFor();

    await button.click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Email cannot be blank');

    await email.fill('not an email');
    await button.click();
    await page.getByRole('alert').filter({ hasText: 'Email is invalid' }).waitFor();

    await email.fill('visitor@example.com');
    await button.click();
    const done = page.getByRole('status').filter({ hasText: 'Signed up!' });
    await done.waitFor();
    expect(await restockRegion(page).getByRole('textbox', { name: 'Email Address' }).count()).toBe(0);
    expect(await page.locator('[data-island="RestockSignUp"] .captcha-container').count()).toBe(0);
    // Another variant that is in stock shows no form.
    await page.getByRole('combobox', { name: 'Select Size' }).selectOption('M');
    expect(await restockRegion(page).getByRole('textbox', { name: 'Email Address' }).count()).toBe(0);
    expect(problems).toEqual([]);

    // The owner restocks L / Navy on the Back in stock screen.
    const ownerContext = await b.browser.newContext();
    const admin = await ownerContext.newPage();
    await signInAsOwner(admin, site, '/config/restock');
    await admin.getByRole('heading', { name: 'Back in stock' }).waitFor();
    const name = 'Linen Camp Shirt, Size: L, Color: Navy';
    await admin.getByRole('heading', { name: /Linen Camp Shirt \(1 waiting\)/ }).waitFor();
    await admin.getByRole('spinbutton', { name: `Units in stock for ${name}` }).fill('3');
    await admin.getByRole('button', { name: `Update stock for ${name}` }).click();
    await admin
      .getByRole('status')
      .filter({ hasText: `Emailing 1 waiting for ${name}.` })
      .waitFor();

    await until(() => sink.to('visitor@example.com').length > 0, 'the restock email');
    const raw = sink.to('visitor@example.com')[0]!.raw.replace(/=\r?\n/g, '');
    expect(raw).toMatch(/Subject: Linen Camp Shirt is back in stock/);
    expect(raw).toContain(`${site.url}/shop/p/linen-camp-shirt`);
    // The history shows the automatic send.
    await admin.reload();
    await admin.getByRole('cell', { name: 'Automatic' }).waitFor();
    expect(sink.to('visitor@example.com')).toHaveLength(1);
    await visitor.close();
    await ownerContext.close();
  });

  it('shows the form for a fully sold-out product before a choice, and asks for the option', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.url}/shop/p/merino-wool-throw`);
    await page.waitForFunction(() => document.querySelector('[data-island="RestockSignUp"]')?.getAttribute('data-hydrated') === '1');
    const { email, button } = await signUpForm(page);
    await email.waitFor();
    await button.click();
    await page.getByRole('alert').filter({ hasText: 'Email cannot be blank' }).waitFor();
    await email.fill('throw@example.com');
    await button.click();
    await page.getByRole('alert').filter({ hasText: 'Please select the Color option.' }).waitFor();
    await page.getByRole('combobox', { name: 'Select Color' }).selectOption('Oat');
    await button.click();
    await page.getByRole('status').filter({ hasText: 'Signed up!' }).waitFor();
    await context.close();
  });
});
