import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { SmtpSink } from '../../helpers/smtp-sink.js';
import { launchBrowser, liveSite, watchConsole, type BrowserSession, type LiveSite } from '../../helpers/browser.js';
import { freePort } from '../../helpers/process.js';
import { testDatabase } from '../../helpers/db.js';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/config.js';
import { prepare } from '../../../src/server/first-start.js';
import { Role } from '../../../src/core/enums.js';
import { roleRefusal } from '../../../src/core/roles.js';
import { ownerAccount as words } from '../../../src/core/messages.js';
import type { Database } from '../../../src/db/index.js';
import { expectNoAxeViolations, WCAG_AA } from '../../helpers/axe.js';

mkdirSync('/tmp/shots', { recursive: true });

/** A screenshot at 390 and at 1280 px wide, kept in docs/screenshots under `name`. */
async function shots(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    const path = `/tmp/shots/${name}-${width}.png`;
    await page.screenshot({ path, fullPage: true });
    copyFileSync(path, `docs/screenshots/${name}-${width}.png`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The reset link in a received mail (quoted-printable undone). */
function resetLink(raw: string): string {
  const text = raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');
  return /https?:\/\/[^\s"<>]+\/config\/reset\?token=[\w-]+/.exec(text)?.[0] ?? '';
}

async function signOut(page: Page, url: string) {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.waitForURL(`${url}/config/login`);
}

async function signIn(page: Page, url: string, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${url}/config`);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Home' }).waitFor();
}

describe('the first start without OWNER_EMAIL, and a forgotten password, in Chromium', () => {
  let database: Database;
  let app: FastifyInstance;
  let sink: SmtpSink;
  let b: BrowserSession;
  let url: string;
  let linkPath: string;
  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    [database, sink, b] = await Promise.all([testDatabase('pglite'), new SmtpSink().start(), launchBrowser()]);
    linkPath = (await prepare(database, { SEED_DEMO: false, OWNER_EMAIL: undefined, OWNER_PASSWORD: undefined }))!;
    app = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_STORE: 'memory', SMTP_URL: sink.url, PUBLIC_URL: url }),
      database,
      logger: false,
    });
    await app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await b?.close();
    await app?.close();
    await database?.close();
    await sink?.close();
  });

  it(
    'the one-time link asks for an email and a password; the owner signs out and back in with them, and resets a forgotten password by email',
    { timeout: 120_000 },
    async () => {
      const context = await b.browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const problems = watchConsole(page);

      await page.goto(`${url}${linkPath}`);
      await page.waitForURL(`${url}/config/welcome`);
      await page.getByRole('heading', { level: 1, name: words.SETUP_HEADING }).waitFor();
      await shots(page, 'owner-set-password');
      await expectNoAxeViolations(page, { tags: WCAG_AA });

      // Errors are announced and tied to their fields.
      await page.getByLabel('Choose a password').fill('short');
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: words.fixMany(2) })
        .waitFor();
      const email = page.getByLabel('Your email');
      expect(await email.getAttribute('aria-invalid')).toBe('true');
      const described = await email.evaluate((el) =>
        (el.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent)
          .join(' '),
      );
      expect(described).toContain(words.EMAIL_INVALID);
      expect(await page.getByLabel('Choose a password').getAttribute('aria-invalid')).toBe('true');
      await shots(page, 'owner-set-password-errors');
      await expectNoAxeViolations(page, { tags: WCAG_AA });

      await email.fill('me@example.com');
      await page.getByLabel('Choose a password').fill('my own long password');
      await page.getByLabel('Repeat the password').fill('my own long password');
      await page.getByRole('button', { name: 'Save and continue' }).click();
      await page.waitForURL(`${url}/config`);
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Home' }).waitFor();

      await signOut(page, url);
      await signIn(page, url, 'me@example.com', 'my own long password');
      await signOut(page, url);

      // Forgot password?
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.waitForURL(`${url}/config/forgot`);
      await page.getByRole('heading', { level: 1, name: words.FORGOT_HEADING }).waitFor();
      await shots(page, 'owner-forgot-password');
      await expectNoAxeViolations(page, { tags: WCAG_AA });
      await page.getByLabel('Email').fill('me@example.com');
      await page.getByRole('button', { name: 'Email me a reset link' }).click();
      await page.getByRole('status').filter({ hasText: words.RESET_SENT }).waitFor();
      await shots(page, 'owner-forgot-password-sent');
      await expect.poll(() => sink.to('me@example.com').length, { timeout: 15_000 }).toBe(1);
      const link = resetLink(sink.to('me@example.com')[0]!.raw);
      expect(link.startsWith(`${url}/config/reset?token=`)).toBe(true);

      await page.goto(link);
      await page.getByRole('heading', { level: 1, name: words.RESET_HEADING }).waitFor();
      await shots(page, 'owner-reset-password');
      await expectNoAxeViolations(page, { tags: WCAG_AA });
      await page.getByLabel('New password').fill('a brand new password');
      await page.getByLabel('Repeat the password').fill('a brand new password');
      await page.getByRole('button', { name: 'Save the new password' }).click();
      await page.waitForURL(`${url}/config`);
      await signOut(page, url);
      await signIn(page, url, 'me@example.com', 'a brand new password');

      // The link worked once.
      await page.goto(link);
      await page.getByRole('alert').filter({ hasText: words.RESET_EXPIRED }).waitFor();
      expect(problems.filter((p) => !p.includes('status of 4'))).toEqual([]);
      await context.close();
    },
  );
});

describe('staff see only the screens their role may use, in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
    await site.app.services.owners.create({
      websiteId: site.seed.websiteId,
      email: 'shop@example.com',
      password: 'store manager password',
      role: Role.STORE_MANAGER,
      displayName: 'Sam',
    });
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  it(
    'a store manager’s sidebar hides the content and team entries, and a forbidden screen names the roles it needs',
    { timeout: 120_000 },
    async () => {
      const context = await b.browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${site.url}/config/login`);
      await signIn(page, site.url, 'shop@example.com', 'store manager password');
      const nav = page.getByRole('navigation', { name: 'Admin' });
      await nav.getByRole('link', { name: 'Orders' }).waitFor();
      const names = await nav.getByRole('link').allTextContents();
      expect(names).toEqual(expect.arrayContaining(['Home', 'Orders', 'Products', 'Customers', 'Reviews', 'Coupons']));
      for (const hidden of [
        'Page editor',
        'Posts',
        'Site styles',
        'Forms',
        'Team',
        'Header & footer',
        'Payments',
        'Emails',
        'Members',
        'Site settings',
      ])
        expect(names).not.toContain(hidden);
      await page.getByRole('button', { name: /^Account/ }).click();
      expect(await page.getByRole('menuitem', { name: 'Team' }).count()).toBe(0);
      await page.keyboard.press('Escape');

      // The page editor's list said only 'Something went wrong' to a role that may not use it.
      for (const [path, name, area] of [
        ['/config/pages', 'Page editor', 'drafts'],
        ['/config/team', 'Team', 'team'],
      ] as const) {
        await page.goto(`${site.url}${path}`);
        await page.getByRole('heading', { level: 1, name }).waitFor();
        const alert = page.getByRole('alert').filter({ hasText: 'Your role does not allow this.' });
        expect((await alert.textContent())?.trim()).toBe(roleRefusal(area, 'read'));
        expect(await page.getByText('Something went wrong').count()).toBe(0);
      }
      expect(roleRefusal('drafts', 'read')).toBe(
        'Your role does not allow this. It needs one of these roles: Admin, Website manager, Editor, Draft editor.',
      );
      await shots(page, 'admin-forbidden-screen');
      await context.close();
    },
  );
});
