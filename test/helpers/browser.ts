import { chromium, type Browser, type Page, type ConsoleMessage } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { OWNER, testApp, type TestApp } from './app.js';
import type { DbKind } from './db.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface BrowserSession {
  browser: Browser;
  close(): Promise<void>;
}

/** The user agent of a desktop Chrome on Linux, as the tests' shoppers present themselves. */
export const SHOPPER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/** Chromium's flags: headless, and nothing reaching outside this machine. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // A shopper's Chrome rather than "HeadlessChrome": analytics counts no headless browser as a visitor.
  `--user-agent=${SHOPPER_UA}`,
];

let shared: Promise<Browser> | null = null;

/** The worker's one Chromium (test files run one after another in a worker), started again if it has gone. */
async function sharedBrowser(): Promise<Browser> {
  const current = shared && (await shared.catch(() => null));
  if (current?.isConnected()) return current;
  shared = chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  return shared;
}

/**
 * Debian's Chromium, headless. A test file's pages live in contexts of their own (each `newPage` and
 * `newContext` is a fresh, empty profile), so the browser process is shared by the files a worker runs;
 * closing the session closes every context the file left open.
 */
export async function launchBrowser(): Promise<BrowserSession> {
  const browser = await sharedBrowser();
  return {
    browser,
    close: async () => {
      await Promise.all(browser.contexts().map((c) => c.close().catch(() => undefined)));
    },
  };
}

export interface LiveSite extends TestApp {
  url: string;
}

/** The real app on a fresh seeded database, listening on a free loopback port. */
export async function liveSite(kind: DbKind = 'pglite', env: Record<string, string> = {}): Promise<LiveSite> {
  const t = await testApp(kind, env);
  await (t.app as FastifyInstance).listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address() as { port: number };
  return { ...t, url: `http://127.0.0.1:${addr.port}` };
}

/** Collects console warnings and errors of a page (hydration problems show up here). */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

/**
 * Signs the seeded owner in on `page` through /config/login, asking to land on `next` (the dashboard unless told),
 * and waits until the browser is there. Returns the page.
 */
export async function signInAsOwner(page: Page, site: LiveSite, next = '/config'): Promise<Page> {
  await page.goto(`${site.url}/config/login${next === '/config' ? '' : `?next=${encodeURIComponent(next)}`}`);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${site.url}${next}`);
  return page;
}

// ---- The page editor -------------------------------------------------------------------------------

/** Creates a page from /config/pages (the owner is signed in) and waits for its editor; answers the editor's URL. */
export async function createPage(page: Page, site: LiveSite, title: string): Promise<string> {
  await page.getByRole('link', { name: 'Page editor', exact: true }).click();
  await page.waitForURL(`${site.url}/config/pages`);
  const form = page.getByRole('form', { name: 'Create a page' });
  await form.getByLabel('Page title').fill(title);
  await form.getByRole('button', { name: 'Create page' }).click();
  await page.waitForURL(/\/config\/pages\/[^/]+$/);
  await page.getByRole('heading', { level: 1, name: new RegExp(`Edit page: ${title}`) }).waitFor();
  return page.url();
}

/** Adds the block `label` to section `section` through the add-block dialog. */
export async function addFromPalette(page: Page, section: number, label: string): Promise<void> {
  await page.getByRole('button', { name: `Add block to section ${section}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a block' });
  await dialog.getByRole('button', { name: label, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Waits until the editor's save status says Saved. */
export const savedStatus = (page: Page) =>
  page
    .locator('.ed-save[role="status"]')
    .filter({ hasText: /^Saved$/ })
    .waitFor();

/**
 * "Every island `name` on the page has hydrated", as a function and its argument for
 * `page.waitForFunction(...hydrated(name))`: the pages' CSP allows no eval, so predicates are functions, not strings.
 */
export const hydrated = (name: string) =>
  [
    (n: string) => {
      const els = [...document.querySelectorAll(`[data-island="${n}"]`)];
      return els.length > 0 && els.every((e) => e.getAttribute('data-hydrated') === '1');
    },
    name,
  ] as const;

/**
 * Resolves once the page has run the tasks already queued (a message task comes after them): for checking that
 * something did not happen, after whatever would have made it happen (a click, a timer fired by `page.clock`).
 */
export const pageTurn = (page: Page): Promise<void> =>
  page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      }),
  );
