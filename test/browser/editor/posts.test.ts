/**
 * Issue 27: journal posts are written in the page editor. An owner makes a post from the Posts screen, types its
 * text in place on the canvas, uploads a cover image, publishes it, sees it on the public journal and finds it
 * through /search. Screenshots of the screens at 1280 and 390 px go to SCREENSHOT_DIR (a temporary folder).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  launchBrowser,
  liveSite,
  savedStatus as saved,
  signInAsOwner,
  watchConsole,
  type BrowserSession,
  type LiveSite,
} from '../../helpers/browser.js';
import { expectNoAxeViolations, WCAG_AA } from '../../helpers/axe.js';

const SHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'tessera-posts-shots');

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('journal posts in the editor (browser)', () => {
  let site: LiveSite;
  let b: BrowserSession;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  it('an owner writes a post in the visual editor (title, text in place, cover image), publishes it, and a visitor reads it on the journal and finds it through search', async () => {
    const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signInAsOwner(await context.newPage(), site);
    const problems = watchConsole(page);

    // The Posts screen is under Content in the sidebar.
    await page.getByRole('link', { name: 'Posts', exact: true }).first().click();
    await page.waitForURL(`${site.url}/config/posts`);
    const list = page.getByRole('list', { name: 'Posts' });
    await list.waitFor();
    expect(await list.getByRole('listitem').count()).toBeGreaterThan(0);
    // Search narrows the list.
    await page.getByRole('searchbox', { name: 'Search posts' }).fill('linen');
    await expect.poll(() => list.getByRole('listitem').count()).toBeGreaterThan(0);
    for (const t of await list.getByRole('link').allTextContents()) expect(t.toLowerCase()).toContain('linen');
    await page.getByRole('searchbox', { name: 'Search posts' }).fill('');
    await expectNoAxeViolations(page, { tags: WCAG_AA });
    await page.screenshot({ path: join(SHOTS, 'posts-list-1280.png'), fullPage: true });

    // New post: a title, then the editor.
    await page.getByRole('button', { name: 'New post' }).click();
    const dialog = page.getByRole('dialog', { name: 'New post' });
    await dialog.getByLabel('Post title').fill('Quokka glaze notes');
    await dialog.getByRole('button', { name: 'Create and edit' }).click();
    await page.waitForURL(/\/config\/posts\/[^/]+$/);
    await page.getByRole('heading', { level: 1, name: /Edit post: Quokka glaze notes/ }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Draft');

    // The body: the text block is typed in place on the canvas.
    const canvas = page.locator('.ed-canvas');
    await canvas.locator('[role="group"][aria-label]').first().click();
    const region = canvas.getByRole('textbox', { name: 'Text', exact: true });
    await region.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Our marsupial glaze is fired ');
    await canvas.getByRole('toolbar', { name: 'Text formatting' }).getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type('twice');
    await saved(page);

    // The post's fields: back to them from the toolbar; a cover image through the upload pipeline.
    await page.getByRole('button', { name: 'Post details' }).click();
    const panel = page.getByRole('complementary');
    const details = panel.getByRole('form', { name: 'Post' });
    await details.waitFor();
    expect(await details.getByLabel('Post title').inputValue()).toBe('Quokka glaze notes');
    // A tag over 50 characters is refused with its message, beside its field.
    await details.getByLabel('Tags').fill(`glaze, ${'t'.repeat(51)}`);
    await details.getByRole('button', { name: 'Save post details' }).click();
    await details.getByText('50 characters', { exact: false }).waitFor();
    expect(await details.getByLabel('Tags').getAttribute('aria-invalid')).toBe('true');
    await details.getByLabel('Tags').fill('glaze, kiln');
    const png = await sharp({ create: { width: 400, height: 260, channels: 3, background: '#3c7a64' } })
      .png()
      .toBuffer();
    await details.getByLabel('Upload a cover image').setInputFiles({ name: 'glaze.png', mimeType: 'image/png', buffer: png });
    await details.getByRole('status').filter({ hasText: 'Uploaded glaze.png' }).waitFor();
    await details.getByLabel('Cover image description (alt text)').fill('A green glazed bowl');
    await details.getByLabel('Excerpt').fill('How a marsupial glaze came out of the kiln.');
    await details.getByRole('button', { name: 'Save post details' }).click();
    await page.getByRole('status').filter({ hasText: 'Post details saved.' }).first().waitFor();
    await expectNoAxeViolations(page, { tags: WCAG_AA });
    await page.screenshot({ path: join(SHOTS, 'post-editor-1280.png'), fullPage: true });

    // Raw HTML mode is offered to the owner (an admin): the body's HTML, and back to the visual editor unchanged.
    await page.getByRole('button', { name: 'Edit as HTML' }).click();
    const source = page.getByRole('textbox', { name: 'Post body (HTML)' });
    expect(await source.inputValue()).toContain('<strong>twice</strong>');
    await page.screenshot({ path: join(SHOTS, 'post-html-1280.png') });
    await page.getByRole('button', { name: 'Back to the visual editor' }).click();
    await canvas.getByText('Our marsupial glaze is fired').waitFor();

    // Publish.
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Published. Visitors now see this post at /journal/quokka-glaze-notes.' })
      .first()
      .waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Published');

    // The phone width: the editor stacks its panel under the canvas, nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, 'post-editor-390.png'), fullPage: true });
    await page.getByRole('link', { name: 'All posts' }).click();
    await page.waitForURL(`${site.url}/config/posts`);
    const row = page
      .getByRole('list', { name: 'Posts' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: 'Edit Quokka glaze notes' }) });
    await row.waitFor();
    expect(await row.textContent()).toContain('Published');
    expect(await noSideScroll(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'posts-list-390.png'), fullPage: true });
    expect(problems).toEqual([]);

    // A visitor: the journal list shows the cover and the excerpt, the post its blocks.
    const visitor = await context.newPage();
    await visitor.setViewportSize({ width: 1280, height: 900 });
    await visitor.goto(`${site.url}/journal`);
    const entry = visitor.locator('article.journal-entry').filter({ has: visitor.getByRole('link', { name: 'Quokka glaze notes' }) });
    await entry.waitFor();
    expect(await entry.locator('.journal-entry__excerpt').textContent()).toBe('How a marsupial glaze came out of the kiln.');
    expect(await entry.locator('.journal-entry__image img').getAttribute('src')).toMatch(/^\/uploads\//);
    await entry.getByRole('link', { name: 'Quokka glaze notes' }).click();
    await visitor.waitForURL(`${site.url}/journal/quokka-glaze-notes`);
    const body = visitor.locator('.journal-post__body');
    expect((await body.textContent())?.replace(/\s+/g, ' ')).toContain('Our marsupial glaze is fired twice');
    expect(await body.locator('strong').textContent()).toBe('twice');
    expect(await visitor.locator('.journal-post__image img').getAttribute('alt')).toBe('A green glazed bowl');
    // The author is the owner who wrote it.
    expect(await visitor.locator('.journal-post__author').textContent()).toBe('Owner');
    await visitor.screenshot({ path: join(SHOTS, 'post-public-1280.png'), fullPage: true });

    // Site search finds it by the words of its body.
    await visitor.goto(`${site.url}/search?q=marsupial`);
    await visitor.getByRole('link', { name: 'Quokka glaze notes' }).first().waitFor();
    await context.close();
  });
});
