import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { SmtpSink } from '../../helpers/smtp-sink.js';
import { launchBrowser, liveSite, signInAsOwner, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { expectNoAxeViolations, WCAG_AA_BEST_PRACTICE } from '../../helpers/axe.js';

const noSideScroll = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth <= document.scrollingElement!.clientWidth);

/** The sidebar's entries (name and address), read from the navigation as shown at 1280 px. */
async function sidebarEntries(page: Page): Promise<Array<{ name: string; href: string }>> {
  // The sidebar lists its entries once the signed-in role is known (each screen's area in core/roles.ts).
  const nav = page.getByRole('navigation', { name: 'Admin' });
  await nav.getByRole('link', { name: 'Home', exact: true }).waitFor();
  return nav
    .getByRole('link')
    .evaluateAll((links) => links.map((a) => ({ name: (a.textContent ?? '').trim(), href: a.getAttribute('href') ?? '' })));
}

/** How many tabs walk the sidebar's entries side by side. */
const LANES = 3;

/**
 * Visits every entry, in order, on LANES tabs of `first`'s (signed-in) browser context at once: `first` takes
 * entries 0, LANES, 2·LANES…, and each other tab opens /config as `first` did and takes its own share. Each
 * screen still waits for the network to settle (half a second without requests) before it is checked; the tabs
 * wait side by side instead of one after another. Fails with the first entry that fails.
 */
async function inLanes<T>(
  first: Page,
  site: LiveSite,
  entries: T[],
  visit: (page: Page, entry: T) => Promise<void>,
  watch?: (page: Page) => void,
): Promise<void> {
  const walk = async (lane: number) => {
    let page = first;
    if (lane > 0) {
      page = await first.context().newPage();
      watch?.(page);
      await page.goto(`${site.url}/config`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
    }
    for (let i = lane; i < entries.length; i += LANES) await visit(page, entries[i]!);
    if (lane > 0) await page.close();
  };
  const results = await Promise.allSettled(Array.from({ length: LANES }, (_, lane) => walk(lane)));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** The screens issue 23 groups the sidebar into (the rest of the existing screens sit under Settings). */
const REQUIRED = [
  'Emails',
  'Email settings',
  'Team',
  'Home',
  'Orders',
  'Products',
  'Customers',
  'Page editor',
  'Pages & posts',
  'Navigation',
  'Forms',
  'Mailing lists',
  'Promo popup',
  'Cookie banner',
  'Reviews',
  'Back in stock',
  'Donations',
  'Analytics',
  'Site settings',
  'Site address',
];
/** Screens the sidebar held before the new shell: none may be lost. */
const EXISTING = [
  'Orders',
  'Shipping',
  'Tax',
  'Coupons',
  'Analytics',
  'Forms',
  'Back in stock',
  'Products',
  'Navigation',
  'Pages & posts',
  'Header & footer',
  'Languages',
  'Commerce',
  'Team',
  'Promo popup',
  'Mailing lists',
  'Cookie banner',
  'Email preview',
  'Reviews',
  'Related products',
  'Donations',
  'Page editor',
  'Site styles',
  'Members',
  'Features',
  'Billing',
];

describe('the /config shell in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  it('at 1280 px: every sidebar entry opens its screen without sideways scrolling and without axe violations, grouped as the issue asks', async () => {
    const ctx = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    const problems = watchConsole(page);
    await signInAsOwner(page, site);
    const entries = await sidebarEntries(page);
    const names = entries.map((e) => e.name);
    for (const n of [...REQUIRED, ...EXISTING]) expect(names, n).toContain(n);
    for (const heading of ['Content', 'Marketing', 'Settings'])
      expect(await page.getByRole('group', { name: heading }).isVisible()).toBe(true);
    expect(await page.getByRole('group', { name: 'Marketing' }).getByRole('link', { name: 'Mailing lists' }).isVisible()).toBe(true);
    expect(await page.getByRole('group', { name: 'Content' }).getByRole('link', { name: 'Forms' }).isVisible()).toBe(true);
    // The top bar: the site's name, View site, the owner's menu, Sign out.
    const bar = page.getByRole('banner');
    expect(await bar.getByText('Fernhill Supply Co.').isVisible()).toBe(true);
    expect(await bar.getByRole('link', { name: 'View site' }).isVisible()).toBe(true);
    expect(await bar.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);

    await inLanes(
      page,
      site,
      entries,
      async (lane, e) => {
        await lane.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: e.name, exact: true }).click();
        await lane.waitForURL(`${site.url}${e.href}`);
        await lane.getByRole('heading', { level: 1 }).first().waitFor();
        // The tab names the screen by its heading, then the site.
        const h1 = (await lane.getByRole('heading', { level: 1 }).first().innerText()).trim();
        await expect.poll(() => lane.title(), { timeout: 5000 }).toBe(`${h1} · Fernhill Supply Co. · Tessera`);
        expect(
          await lane
            .getByRole('navigation', { name: 'Admin' })
            .getByRole('link', { name: e.name, exact: true })
            .getAttribute('aria-current'),
          e.name,
        ).toBe('page');
        await lane.waitForLoadState('networkidle');
        await lane.locator('[aria-busy="true"]').waitFor({ state: 'detached' });
        expect(await noSideScroll(lane), `${e.name} scrolls sideways at 1280 px`).toBe(true);
        await expectNoAxeViolations(lane, { tags: WCAG_AA_BEST_PRACTICE }, `${e.name} at 1280 px`);
      },
      (lane) => problems.push(...watchConsole(lane)),
    );
    expect(problems.filter((p) => !/Failed to load resource/.test(p))).toEqual([]);
    await ctx.close();
  }, 300_000);

  it('at 390 px: the menu dialog traps focus, closes on Escape and gives focus back; every entry opens without sideways scrolling or axe violations', async () => {
    const ctx = await b.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
    const page = await ctx.newPage();
    await signInAsOwner(page, site);
    // The sidebar is folded away; the Menu button opens it as a modal dialog.
    expect(await page.getByRole('navigation', { name: 'Admin' }).count()).toBe(0);
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.click();
    const dialog = page.getByRole('dialog', { name: 'Menu' });
    await dialog.waitFor();
    const entries = await dialog
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => ({ name: (a.textContent ?? '').trim(), href: a.getAttribute('href') ?? '' })));
    for (const n of [...REQUIRED, ...EXISTING])
      expect(
        entries.map((e) => e.name),
        n,
      ).toContain(n);
    // Focus stays inside the dialog however far the owner tabs, both ways.
    for (let i = 0; i < entries.length + 6; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    await expectNoAxeViolations(page, { tags: WCAG_AA_BEST_PRACTICE });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Radix gives focus back in the task after the dialog unmounts.
    await expect.poll(() => menu.evaluate((el) => el === document.activeElement)).toBe(true);

    await inLanes(page, site, entries, async (lane, e) => {
      await lane.getByRole('button', { name: 'Menu' }).click();
      await lane.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: e.name, exact: true }).click();
      await lane.waitForURL(`${site.url}${e.href}`);
      await lane.getByRole('heading', { level: 1 }).first().waitFor();
      await lane.waitForLoadState('networkidle');
      await lane.locator('[aria-busy="true"]').waitFor({ state: 'detached' });
      expect(await noSideScroll(lane), `${e.name} scrolls sideways at 390 px`).toBe(true);
      await expectNoAxeViolations(lane, { tags: WCAG_AA_BEST_PRACTICE }, `${e.name} at 390 px`);
    });
    await ctx.close();
  }, 300_000);

  for (const width of [1280, 390]) {
    it(`axe finds no violations on Home, Customers and Site settings, nor in the owner menu, at ${width} px`, async () => {
      const ctx = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      await signInAsOwner(page, site);
      await page.getByRole('heading', { name: 'Set-up checklist' }).waitFor();
      await expectNoAxeViolations(page, { tags: WCAG_AA_BEST_PRACTICE });
      await page.getByRole('button', { name: /^Account/ }).click();
      const ownerMenu = page.getByRole('menu');
      await ownerMenu.waitFor();
      expect(await ownerMenu.getByRole('menuitem', { name: 'Site settings' }).isVisible()).toBe(true);
      await expectNoAxeViolations(page, { tags: WCAG_AA_BEST_PRACTICE });
      await page.keyboard.press('Escape');
      await ownerMenu.waitFor({ state: 'detached' });
      for (const path of ['/config/customers', '/config/settings']) {
        await page.goto(`${site.url}${path}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        await page.locator('[aria-busy="true"]').waitFor({ state: 'detached' });
        await expectNoAxeViolations(page, { tags: WCAG_AA_BEST_PRACTICE }, path);
        expect(await noSideScroll(page)).toBe(true);
      }
      await ctx.close();
    });
  }

  it("changing the site's time zone in Site settings changes the event times on the public events page", async () => {
    const visitor = await b.browser.newPage();
    const eventTime = async () => {
      await visitor.goto(`${site.url}/events`);
      return visitor.locator('.event-card__when time').first().getAttribute('datetime');
    };
    const before = await eventTime();
    expect(before).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/);

    const ctx = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await signInAsOwner(page, site, '/config/settings');
    const tz = page.getByLabel('Time zone');
    expect(await tz.inputValue()).toBe('America/New_York');
    await tz.selectOption('America/Los_Angeles');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Site settings saved.' }).first().waitFor();

    const after = await eventTime();
    // New York is three hours ahead of Los Angeles all year (both keep daylight saving on the same dates).
    const shift = (Date.parse(`${before}:00Z`) - Date.parse(`${after}:00Z`)) / 3_600_000;
    expect(shift).toBe(3);
    expect(await visitor.locator('.event-card__when time').nth(1).textContent()).toMatch(/P[SD]T/);
    // Reloaded, the screen shows what was stored.
    await page.reload();
    expect(await page.getByLabel('Time zone').inputValue()).toBe('America/Los_Angeles');
    await ctx.close();
    await visitor.close();
  });

  it('a bad contact email is refused on its field, and a saved tagline and logo reach the public pages', async () => {
    const ctx = await b.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await ctx.newPage();
    await signInAsOwner(page, site, '/config/settings');
    await page.getByLabel('Contact email').fill('not an address');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const email = page.getByLabel('Contact email');
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('Emails must be formatted as name@example.com').isVisible()).toBe(true);
    await email.fill('hello@fernhill.example');
    await page.getByLabel('Tagline').fill('Goods for slow mornings');
    const png = await sharp({ create: { width: 120, height: 40, channels: 3, background: '#2f5d50' } })
      .png()
      .toBuffer();
    await page.locator('input[type="file"]').first().setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('img', { name: 'Current logo' }).waitFor();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Site settings saved.' }).first().waitFor();
    const home = await (await fetch(`${site.url}/`)).text();
    expect(home).toContain('Goods for slow mornings');
    expect(home).toContain('hello@fernhill.example');
    expect(home).toMatch(/<img class="site-title__logo" src="\/uploads\/[^"]+" alt="Fernhill Supply Co\."/);
    await ctx.close();
  });

  it('the set-up checklist ticks "Add a shipping option" once the owner adds one', async () => {
    const ctx = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await signInAsOwner(page, site);
    const steps = page.getByRole('list', { name: 'Set-up steps' });
    await steps.waitFor();
    expect(await steps.getByRole('listitem', { name: 'Add a shipping option: not done yet' }).isVisible()).toBe(true);
    expect(await steps.getByRole('listitem', { name: 'Publish a first product: done' }).isVisible()).toBe(true);
    await steps.getByRole('link', { name: 'Add a shipping option' }).click();
    await page.waitForURL(`${site.url}/config/shipping`);
    const form = page.getByRole('form', { name: 'Add a shipping option' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Standard post');
    await form.getByRole('textbox', { name: 'Price', exact: true }).fill('5.00');
    await form.getByRole('button', { name: /Add/ }).click();
    await page.getByRole('table', { name: 'Shipping options' }).getByText('Standard post').waitFor();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Home' }).click();
    await page.waitForURL(`${site.url}/config`);
    await steps.getByRole('listitem', { name: 'Add a shipping option: done' }).waitFor();
    expect(await page.getByText('2 of 5 done.').isVisible()).toBe(true);
    await ctx.close();
  });

  it('a screen that fails shows its error boundary, reports the error, and Try again brings the screen back', async () => {
    const page = await b.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signInAsOwner(page, site);
    await page.getByRole('heading', { name: 'Set-up checklist' }).waitFor();
    // The server answers the dashboard with a shape the screen cannot read.
    await page.route('**/api/admin/dashboard', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: '{}' }));
    const reported = page.waitForRequest((r) => r.url().endsWith('/api/events/RecordJavascriptErrors') && r.method() === 'POST');
    await page.reload();
    const box = page.getByRole('alert').filter({ hasText: 'This screen stopped working' });
    await box.waitFor();
    // The shell stays usable around it.
    expect(await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Orders' }).isVisible()).toBe(true);
    const sent = JSON.parse((await reported).postData() ?? '[]') as Array<{ message: string; url: string }>;
    expect(sent[0]!.message).toMatch(/^Home: /);
    expect(sent[0]!.url).toBe(`${site.url}/config`);
    await page.unroute('**/api/admin/dashboard');
    await box.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'Set-up checklist' }).waitFor();
    await page.close();
  });

  it('an email kept while SMTP is unset is readable in the Emails screen', async () => {
    await site.app.services.mailer.enqueue(site.database.db, {
      kind: 'test',
      to: 'new.user@example.com',
      subject: 'Confirm your account',
      text: 'Open the link to confirm: http://127.0.0.1/confirm?t=abc',
      html: '<p>Open <a href="http://127.0.0.1/confirm?t=abc">the link</a> to confirm.</p>',
    });
    for (const width of [1280, 390]) {
      const ctx = await b.browser.newContext({ viewport: { width, height: 900 } });
      const page = await ctx.newPage();
      await signInAsOwner(page, site, '/config/outbox');
      await page.getByRole('heading', { name: 'Email is not being delivered' }).waitFor();
      const row = page.getByRole('row').filter({ hasText: 'new.user@example.com' });
      expect(await row.getByText('Kept here (no SMTP)').isVisible()).toBe(true);
      await expectNoAxeViolations(page, { tags: WCAG_AA_BEST_PRACTICE });
      expect(await noSideScroll(page)).toBe(true);
      await row.getByRole('link', { name: 'Confirm your account' }).click();
      await page.getByRole('heading', { level: 1, name: 'Confirm your account' }).waitFor();
      expect(await page.getByText('Open the link to confirm: http://127.0.0.1/confirm?t=abc').isVisible()).toBe(true);
      expect(
        await page.frameLocator('iframe[title="Email: Confirm your account"]').getByRole('link', { name: 'the link' }).getAttribute('href'),
      ).toBe('http://127.0.0.1/confirm?t=abc');
      expect(await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'Emails' }).isVisible()).toBe(true);
      await expectNoAxeViolations(page, { tags: WCAG_AA_BEST_PRACTICE });
      expect(await noSideScroll(page)).toBe(true);
      await ctx.close();
    }
  });
});

describe('the Emails screen with a relay that fails', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await new SmtpSink().start();
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory', SMTP_URL: sink.url }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
    await sink?.close();
  });

  it("shows the relay's error on a failed email and sends it when the owner presses Resend", async () => {
    sink.refusing = true;
    await site.app.services.mailer.enqueue(site.database.db, {
      kind: 'test',
      to: 'buyer@example.com',
      subject: 'Your order #1001',
      text: 'Thanks for your order.',
    });
    // The mailer's last attempt before it gives up.
    await site.database.db.execute(sql`update mail_outbox set attempts = 24 where to_address = 'buyer@example.com'`);
    await site.app.services.mailer.deliverDue();
    const page = await b.browser.newPage({ viewport: { width: 390, height: 844 } });
    await signInAsOwner(page, site, '/config/outbox');
    await page.getByRole('button', { name: 'Failed', exact: true }).click();
    const row = page.getByRole('row').filter({ hasText: 'buyer@example.com' });
    await row.getByText(/Relay said: .*Relay is down/).waitFor();
    sink.refusing = false;
    await row.getByRole('button', { name: 'Resend Your order #1001 to buyer@example.com' }).click();
    await page.getByRole('status').filter({ hasText: 'Email queued to send again.' }).first().waitFor();
    await expect.poll(() => sink.to('buyer@example.com').length, { timeout: 10_000 }).toBe(1);
    await page.close();
  });
});
