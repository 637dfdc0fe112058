import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { launchBrowser, liveSite, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { rows } from '../../../src/server/db-util.js';
import { seedForms } from '../../../src/server/forms/seed.js';
import { configureCaptcha } from '../../../src/server/captcha/index.js';
import { forms as m } from '../../../src/core/messages.js';

describe('forms in Chromium, as a visitor', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite'), launchBrowser()]);
    await seedForms(site.database, site.seed.websiteId);
    configureCaptcha(site.app, { altchaMaxNumber: 3000 });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  const stored = (formId: string) =>
    rows<{ data: Record<string, unknown>; spam: boolean; spam_reason: string | null }>(
      site.database.db,
      sql`SELECT data, spam, spam_reason FROM form_submissions WHERE form_id = ${formId} ORDER BY created_at`,
    );

  it('contact form: each error shown above its field, the counter, the captcha badge, then a clean submission', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/forms/contact-form?source=spring-ad`);
    await page.waitForFunction(() => document.querySelector('[data-island="Form"]')?.getAttribute('data-hydrated') === '1');
    const form = page.getByRole('form', { name: 'Contact us' });
    expect(await form.isVisible()).toBe(true);
    // The captcha badge only shows while a field is focused.
    const badge = page.locator('.form-captcha-badge');
    expect(await badge.isHidden()).toBe(true);

    await page.getByRole('button', { name: 'Send' }).click();
    const alerts = page.getByRole('alert');
    await page.getByText(m.PROBLEM_ABOVE).waitFor();
    expect(await page.getByText(m.PROBLEM_BELOW).isVisible()).toBe(true);
    expect(await page.getByRole('group', { name: /Name/ }).getByRole('alert').textContent()).toBe(m.REQUIRED);
    expect(await page.getByRole('textbox', { name: /Email/ }).getAttribute('aria-invalid')).toBe('true');
    // The error sits above the field title.
    const order = await page.evaluate(() => {
      const item = document.querySelector('.form-item.textarea')!;
      const kids = [...item.children].map((c) => c.className || c.tagName);
      return kids.slice(0, 2);
    });
    expect(order).toEqual(['field-error', 'title']);
    expect(await alerts.count()).toBeGreaterThanOrEqual(5);

    await page.getByRole('textbox', { name: /First Name/ }).fill('Ada');
    expect(await badge.isVisible()).toBe(true);
    await page.getByRole('textbox', { name: /Last Name/ }).fill('Lovelace');
    await page.getByRole('textbox', { name: /Email/ }).fill('not-an-email');
    const message = page.getByRole('textbox', { name: /Message/ });
    await message.fill('x'.repeat(501));
    const counter = page.locator('.form-counter');
    expect(await counter.textContent()).toBe('501 / 500');
    expect(await counter.getAttribute('class')).toContain('error');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText(m.INVALID_EMAIL).waitFor();
    expect(await page.getByText(m.CHARACTER_LIMIT).isVisible()).toBe(true);
    expect(await page.getByText(m.REQUIRED, { exact: true }).count()).toBe(0);

    await page.getByRole('textbox', { name: /Email/ }).fill('ada@example.com');
    await message.fill('Hello from the browser');
    expect(await counter.textContent()).toBe('22 / 500');
    await page.getByRole('combobox', { name: 'Topic' }).selectOption('Order');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Thank you! We will get back to you soon.').waitFor();
    expect(await page.getByRole('form', { name: 'Contact us' }).count()).toBe(0);
    const subs = await stored('contact-form');
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({
      spam: false,
      data: { name: ['Ada', 'Lovelace'], email: 'ada@example.com', topic: 'Order', message: 'Hello from the browser', source: 'spring-ad' },
    });
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('newsletter block: the error without the page banners, then signed up', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.url}/forms/newsletter-form`);
    await page.waitForFunction(() => document.querySelector('[data-island="Form"]')?.getAttribute('data-hydrated') === '1');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText(m.REQUIRED, { exact: true }).waitFor();
    expect(await page.getByText(m.PROBLEM_ABOVE).count()).toBe(0);
    await page.getByRole('textbox', { name: /Email Address/ }).fill('reader@example.com');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Thank you for signing up!').waitFor();
    const subs = await stored('newsletter-form');
    expect(subs.map((s) => s.data.email)).toEqual(['reader@example.com']);
    await context.close();
  }, 60_000);

  it('lightbox form: opens in a dialog, Escape closes it and returns focus, then submits inside it', async () => {
    const context = await b.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.url}/forms/lightbox-form`);
    await page.waitForFunction(() => document.querySelector('[data-island="Form"]')?.getAttribute('data-hydrated') === '1');
    const opener = page.getByRole('button', { name: 'Request a callback' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Request a callback' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    expect(await dialog.count()).toBe(0);
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);
    await opener.click();
    await dialog.getByRole('button', { name: 'Call me back' }).click();
    await dialog.getByText(m.REQUIRED, { exact: true }).waitFor();
    await dialog.getByRole('textbox', { name: /Your name/ }).fill('Grace');
    await dialog.getByRole('textbox', { name: 'Area Code' }).fill('555');
    await dialog.getByRole('textbox', { name: 'Prefix' }).fill('123');
    await dialog.getByRole('textbox', { name: 'Line' }).fill('4567');
    await dialog.getByRole('button', { name: 'Call me back' }).click();
    await dialog.getByText('Thanks, we will call you shortly.').waitFor();
    const subs = await stored('lightbox-form');
    expect(subs[0]?.data).toEqual({ name: 'Grace', phone: ['', '555', '123', '4567'] });
    await context.close();
  }, 60_000);

  it('without JavaScript the contact form still posts and answers a server-rendered error, then success page', async () => {
    const context = await b.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.url}/forms/contact-form`);
    await page.getByRole('textbox', { name: /First Name/ }).fill('Nora');
    await page.getByRole('textbox', { name: /Email/ }).fill('bad');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/api\/form\/submit\/contact-form$/);
    expect(await page.getByRole('alert').first().textContent()).toBe(m.PROBLEM_ABOVE);
    expect(await page.getByText(m.INVALID_EMAIL).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Back to the form' }).click();
    await page.getByRole('textbox', { name: /First Name/ }).fill('Nora');
    await page.getByRole('textbox', { name: /Last Name/ }).fill('Script');
    await page.getByRole('textbox', { name: /Email/ }).fill('nora@example.com');
    await page.getByRole('textbox', { name: /Message/ }).fill('Sent without scripts');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Thank you! We will get back to you soon.').waitFor();
    const subs = await stored('contact-form');
    const mine = subs.find((s) => s.data.message === 'Sent without scripts');
    // No captcha can run without scripts: the no-script path (honeypot and a rate limit) lets it reach the owner.
    expect(mine).toMatchObject({ spam: false, data: { email: 'nora@example.com', source: 'website' } });
    await context.close();
  }, 60_000);
});
