import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import {
  addFromPalette,
  createPage,
  launchBrowser,
  liveSite,
  savedStatus as saved,
  signInAsOwner,
  watchConsole,
  type BrowserSession,
  type LiveSite,
} from '../../helpers/browser.js';
import { MAX_BLOCKS_PER_LAYOUT } from '../../../src/core/constants.js';
import { formatFileSize } from '../../../src/core/time.js';
import { BlockType } from '../../../src/core/enums.js';
import { createBlock, emptyLayout, addSection, addBlock, type PageLayout } from '../../../src/core/layout.js';
import { editor as editorMessages, pageEditor, platform } from '../../../src/core/messages.js';
import { NEWSLETTER_FORM_ID } from '../../../src/server/forms/seed.js';
import { expectNoAxeViolations } from '../../helpers/axe.js';

/** Block names on the canvas, in reading order. */
const blockOrder = (page: Page) =>
  page.locator('.ed-canvas [role="group"][aria-label]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));

/** Page calls from inside the signed-in browser page (the crumb header from the cookie). */
async function call(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; data: Record<string, unknown> }> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const crumb =
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('crumb='))
          ?.slice(6) ?? '';
      const res = await fetch(url, {
        method,
        headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(crumb) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, data: (await res.json().catch(() => ({}))) as Record<string, unknown> };
    },
    { method, url, body },
  );
}

describe('page editor in Chromium', () => {
  let site: LiveSite;
  let b: BrowserSession;
  /** The page the first test publishes (the styles test looks at it as a visitor). */
  let publishedUrl = '';
  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
  });
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  it('an owner builds a page (heading, text, image, button, product), rearranges it with the keyboard, previews it at phone width and publishes it; a visitor sees the same page', async () => {
    const context = await b.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await signInAsOwner(await context.newPage(), site);
    const problems = watchConsole(page);
    await createPage(page, site, 'Spring range');
    await page.getByRole('button', { name: 'Add section' }).click();

    // Heading
    await addFromPalette(page, 1, 'Heading');
    const panel = page.getByRole('complementary');
    /** Text blocks are edited in place on the canvas (issue 27). */
    const canvas = page.locator('.ed-canvas');
    await panel.getByLabel('Heading text').fill('Linen for warm days');
    // Text
    await addFromPalette(page, 1, 'Text');
    await canvas.getByRole('textbox', { name: 'Text', exact: true }).fill('Washed linen, cut in Portland.');
    // Image, uploaded
    await addFromPalette(page, 1, 'Image');
    await panel
      .getByLabel('Upload image')
      .setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
    await panel
      .getByRole('alert')
      .filter({ hasText: `${editorMessages.UPLOAD_TITLE}: ${platform.FILE_NOT_SUPPORTED}` })
      .waitFor();
    const png = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#c8643c' } })
      .png()
      .toBuffer();
    await panel.getByLabel('Upload image').setInputFiles({ name: 'shirt.png', mimeType: 'image/png', buffer: png });
    await panel.getByRole('status').filter({ hasText: 'Uploaded shirt.png' }).waitFor();
    await panel.getByLabel('Alt text').fill('A linen shirt on a chair');
    expect(await page.locator('.ed-canvas img[alt="A linen shirt on a chair"]').getAttribute('src')).toMatch(/^\/uploads\//);
    // Button, with a bad link first
    await addFromPalette(page, 1, 'Button');
    await panel.getByLabel('Button label').fill('Shop now');
    const link = panel.getByLabel('Button link');
    await link.fill('not a link');
    const linkError = platform.linksFormattedAs('https://www.example.com', 'www.example.com');
    await panel.getByText(linkError).waitFor();
    expect(await link.getAttribute('aria-invalid')).toBe('true');
    await page.locator('.ed-save[role="status"]').filter({ hasText: linkError }).waitFor();
    await link.fill('/shop');
    // Product, from the picker
    await addFromPalette(page, 1, 'Product');
    await panel.getByLabel('Product').selectOption({ label: 'Ceramic Pour-Over Set' });
    await saved(page);
    expect(await blockOrder(page)).toEqual([
      'Heading: Linen for warm days',
      'Text: Washed linen, cut in Portland.',
      'Image: A linen shirt on a chair',
      'Button: Shop now',
      'Product: Ceramic Pour-Over Set',
    ]);

    // Rearrange with the keyboard: the image goes first (Alt+Up twice), the product above the button (Move down on the button).
    const image = page.getByRole('group', { name: 'Image: A linen shirt on a chair' });
    await image.focus();
    await page.keyboard.press('Alt+ArrowUp');
    await page.keyboard.press('Alt+ArrowUp');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Image: A linen shirt on a chair');
    await page.getByText('Image: A linen shirt on a chair moved to position 1 of 5 in section 1.').waitFor({ state: 'attached' });
    const button = page.getByRole('group', { name: 'Button: Shop now' });
    await button.focus();
    await button.getByRole('button', { name: 'Move down' }).click();
    const expected = [
      'Image: A linen shirt on a chair',
      'Heading: Linen for warm days',
      'Text: Washed linen, cut in Portland.',
      'Product: Ceramic Pour-Over Set',
      'Button: Shop now',
    ];
    expect(await blockOrder(page)).toEqual(expected);

    // Undo and redo by keyboard (focus on the canvas, not in a text field).
    await page.getByRole('group', { name: 'Button: Shop now' }).focus();
    await page.keyboard.press('Control+z');
    expect((await blockOrder(page))[3]).toBe('Button: Shop now');
    await page.keyboard.press('Control+Shift+z');
    expect(await blockOrder(page)).toEqual(expected);
    await saved(page);

    // Preview the draft at phone width.
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('dialog', { name: 'Preview' });
    await preview.getByRole('button', { name: 'Phone (375 px)' }).click();
    const frameEl = preview.locator('iframe[title="Page preview at phone width"]');
    expect(await frameEl.getAttribute('width')).toBe('375');
    const frame = page.frameLocator('iframe[title="Page preview at phone width"]');
    await frame.getByRole('heading', { name: 'Linen for warm days' }).waitFor();
    expect(await frame.locator('body').evaluate(() => window.innerWidth)).toBe(375);
    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Preview');

    // Publish.
    await page.getByRole('button', { name: 'Publish' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Published\./ })
      .waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Published');
    const doc = await call(page, 'GET', '/api/editor/pages');
    const summary = (doc.data.pages as Array<{ title: string; fullUrl: string; status: string }>).find((p) => p.title === 'Spring range')!;
    expect(summary.status).toBe('published');
    publishedUrl = summary.fullUrl;
    await page.getByRole('link', { name: 'All pages' }).click();
    const listed = page
      .getByRole('list', { name: 'Pages' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: 'Edit Spring range' }) });
    expect(await listed.textContent()).toContain('Published');

    // A visitor sees the same page: the same content in the same order.
    const visitorContext = await b.browser.newContext();
    const visitor = await visitorContext.newPage();
    const res = await visitor.goto(`${site.url}${summary.fullUrl}`);
    expect(res?.status()).toBe(200);
    const main = visitor.getByRole('main');
    await main.getByRole('heading', { name: 'Linen for warm days' }).waitFor();
    expect(await main.getByRole('img', { name: 'A linen shirt on a chair' }).isVisible()).toBe(true);
    expect(await main.getByRole('link', { name: 'Shop now' }).getAttribute('href')).toBe('/shop');
    const text = (await main.textContent()) ?? '';
    const positions = ['Linen for warm days', 'Washed linen, cut in Portland.', 'Ceramic Pour-Over Set', 'Shop now'].map((t) =>
      text.indexOf(t),
    );
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((x, y) => x - y)).toEqual(positions);
    const imageFirst = await main.evaluate((el) => {
      const img = el.querySelector('img[alt="A linen shirt on a chair"]')!;
      const heading = [...el.querySelectorAll('h1,h2,h3')].find((h) => h.textContent?.includes('Linen for warm days'))!;
      return Boolean(img.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    expect(imageFirst).toBe(true);
    await visitorContext.close();
    // The refused upload is the only failed request the browser reports.
    expect(problems).toEqual(['error: Failed to load resource: the server responded with a status of 415 (Unsupported Media Type)']);
    await context.close();
  });

  it(`refuses the ${MAX_BLOCKS_PER_LAYOUT + 1}st block with the limit's message`, async () => {
    const context = await b.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await signInAsOwner(await context.newPage(), site);
    const editorUrl = await createPage(page, site, 'Full page');
    const id = editorUrl.split('/').pop()!;
    // Sixty blocks saved as the draft through the API the editor uses.
    let layout: PageLayout = emptyLayout();
    const withSection = addSection(layout);
    if (!withSection.ok) throw new Error(withSection.message);
    layout = withSection.layout;
    for (let i = 0; i < MAX_BLOCKS_PER_LAYOUT; i++) {
      const r = addBlock(layout, layout.sections[0]!.id, createBlock(BlockType.SPACER));
      if (!r.ok) throw new Error(r.message);
      layout = r.layout;
    }
    const current = await call(page, 'GET', `/api/editor/pages/${id}`);
    const put = await call(page, 'PUT', `/api/editor/pages/${id}/draft`, {
      version: (current.data.page as { version: number }).version,
      layout,
    });
    expect(put.status).toBe(200);
    await page.reload();
    await page.getByText(`${MAX_BLOCKS_PER_LAYOUT} of ${MAX_BLOCKS_PER_LAYOUT} blocks`).waitFor();

    await addFromPalette(page, 1, 'Text');
    const alert = page.getByRole('alert').filter({ hasText: pageEditor.blockLimit(MAX_BLOCKS_PER_LAYOUT) });
    await alert.waitFor();
    expect(await alert.textContent()).toBe(pageEditor.blockLimit(MAX_BLOCKS_PER_LAYOUT));
    expect(await page.getByText(`${MAX_BLOCKS_PER_LAYOUT} of ${MAX_BLOCKS_PER_LAYOUT} blocks`).isVisible()).toBe(true);
    // Duplicating is refused the same way.
    await page.getByRole('group', { name: 'Spacer' }).first().focus();
    await page.getByRole('group', { name: 'Spacer' }).first().getByRole('button', { name: 'Duplicate' }).click();
    expect(await page.locator('.ed-canvas [role="group"]').count()).toBe(MAX_BLOCKS_PER_LAYOUT);
    await context.close();
  });

  it('two owners edit one page: the later save is refused with a message and a Reload action, and nothing is overwritten', async () => {
    const first = await b.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const a = await signInAsOwner(await first.newPage(), site);
    const editorUrl = await createPage(a, site, 'Shared page');
    await a.getByRole('button', { name: 'Add section' }).click();
    await addFromPalette(a, 1, 'Heading');
    await a.getByRole('complementary').getByLabel('Heading text').fill('First owner');
    await saved(a);

    const second = await b.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const other = await signInAsOwner(await second.newPage(), site);
    await other.goto(editorUrl);
    await other.getByRole('group', { name: 'Heading: First owner' }).click();
    await other.getByRole('complementary').getByLabel('Heading text').fill('Second owner');
    await saved(other);

    // The first owner, still on the old version, edits: the save is refused.
    await a.getByRole('complementary').getByLabel('Heading text').fill('First owner again');
    const alert = a.getByRole('alert').filter({ hasText: pageEditor.STALE_VERSION });
    await alert.waitFor();
    expect(await a.locator('.ed-save[role="status"]').textContent()).toBe('Not saved');
    await alert.getByRole('button', { name: 'Reload' }).click();
    await a.getByRole('group', { name: 'Heading: Second owner' }).waitFor();
    await alert.waitFor({ state: 'detached' });
    await first.close();
    await second.close();
  });

  it('moves a block by dragging it, resizes, duplicates and deletes blocks, adds, moves and deletes sections, sets the statuses shown in the pages list, and passes an axe-core scan', async () => {
    const context = await b.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await signInAsOwner(await context.newPage(), site);
    const problems = watchConsole(page);
    await createPage(page, site, 'Dragged page');
    await page.getByRole('button', { name: 'Add section' }).click();
    await addFromPalette(page, 1, 'Heading');
    await page.getByRole('complementary').getByLabel('Heading text').fill('Top');
    await addFromPalette(page, 1, 'Quote');
    await page.getByRole('complementary').getByLabel('Quote').fill('Lovely cups');
    await saved(page);
    await page.getByRole('group', { name: 'Quote: Lovely cups' }).dragTo(page.getByRole('group', { name: 'Heading: Top' }));
    expect(await blockOrder(page)).toEqual(['Quote: Lovely cups', 'Heading: Top']);

    // Resize with the keyboard, duplicate and delete a block.
    const heading = page.getByRole('group', { name: 'Heading: Top' });
    await heading.focus();
    await page.keyboard.press('Alt+ArrowLeft');
    await page.keyboard.press('Alt+ArrowLeft');
    expect(await page.getByRole('complementary').getByLabel('Width (columns of 12)').inputValue()).toBe('10');
    expect(await heading.evaluate((el) => getComputedStyle(el).gridColumnEnd)).toBe('span 10');
    await heading.getByRole('button', { name: 'Duplicate' }).click();
    expect(await blockOrder(page)).toEqual(['Quote: Lovely cups', 'Heading: Top', 'Heading: Top']);
    await page.getByRole('group', { name: 'Heading: Top' }).nth(1).getByRole('button', { name: 'Delete' }).click();
    expect(await blockOrder(page)).toEqual(['Quote: Lovely cups', 'Heading: Top']);

    // Sections: add a second one with a block, move it up, then delete it.
    await page.getByRole('button', { name: 'Add section' }).click();
    await addFromPalette(page, 2, 'Line');
    await page.getByRole('button', { name: 'Move section 2 up' }).click();
    expect(await blockOrder(page)).toEqual(['Line', 'Quote: Lovely cups', 'Heading: Top']);
    await page.getByRole('button', { name: 'Delete section 1' }).click();
    expect(await blockOrder(page)).toEqual(['Quote: Lovely cups', 'Heading: Top']);
    expect(await page.getByRole('region', { name: 'Section 2' }).count()).toBe(0);

    // The phone view of the canvas is 375 px wide.
    await page.getByRole('group', { name: 'Device' }).getByRole('button', { name: 'Phone' }).click();
    expect(await page.locator('.ed-canvas').evaluate((el) => el.getBoundingClientRect().width)).toBe(375);
    await page.getByRole('group', { name: 'Device' }).getByRole('button', { name: 'Desktop' }).click();
    await saved(page);

    // Statuses: a new page is a draft; Needs Review and Private are set from the editor and listed.
    await page.getByLabel('Status').selectOption({ label: 'Needs Review' });
    await page.getByRole('status').filter({ hasText: 'Status: Needs Review.' }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Needs Review');
    await page.getByLabel('Status').selectOption({ label: 'Private' });
    await page.getByRole('status').filter({ hasText: 'Status: Private.' }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Private');
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule publishing' });
    const tomorrow = new Date(Date.now() + 24 * 3600_000);
    const local = new Date(tomorrow.getTime() - tomorrow.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await dialog.getByLabel('Publish on').fill(local);
    await dialog.getByRole('button', { name: 'Schedule' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Scheduled for / })
      .waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Scheduled');

    await expectNoAxeViolations(page, { include: ['.ed-toolbar', '.ed-shell'] });

    await page.getByRole('link', { name: 'All pages' }).click();
    const row = (title: string) =>
      page
        .getByRole('list', { name: 'Pages' })
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: `Edit ${title}` }) });
    await row('Dragged page').waitFor();
    expect(await row('Dragged page').textContent()).toContain('Scheduled');
    await createPage(page, site, 'Fresh page');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Draft');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('site styles: the owner changes a palette colour and the heading weight; only those dirty paths are sent, and visitors get the new styles', async () => {
    const context = await b.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await signInAsOwner(await context.newPage(), site);
    await page.getByRole('link', { name: 'Site styles', exact: true }).click();
    const form = page.getByRole('form', { name: 'Site styles' });
    await form.getByLabel('Accent', { exact: true }).fill('#aa3300');
    await form.getByLabel('Headings weight').selectOption('800');
    expect(await form.getByText('Changed: 2 of 8 style groups.').isVisible()).toBe(true);
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/editor/styles') && r.method() === 'PUT');
    await form.getByRole('button', { name: 'Save styles' }).click();
    const body = (await sent).postDataJSON() as { changes: Record<string, unknown> };
    expect(Object.keys(body.changes).sort()).toEqual(['colors.palette', 'fonts.usageCategories']);
    await page.getByRole('status').filter({ hasText: 'Styles saved.' }).waitFor();
    expect(await form.getByText('No changes.').isVisible()).toBe(true);

    expect(publishedUrl).not.toBe('');
    const visitor = await (await b.browser.newContext()).newPage();
    await visitor.goto(`${site.url}${publishedUrl}`);
    expect(await visitor.content()).toContain('--ts-weight-headings:800');
    await visitor.context().close();
    await context.close();
  });

  it("a page that cannot be loaded shows 'Something went wrong' with 'Try again'; a bad page URL is refused", async () => {
    const context = await b.browser.newContext();
    const page = await signInAsOwner(await context.newPage(), site);
    await page.goto(`${site.url}/config/pages/no-such-page`);
    const alert = page.getByRole('alert');
    await alert.getByText(editorMessages.SOMETHING_WENT_WRONG).waitFor();
    await alert.getByRole('button', { name: editorMessages.TRY_AGAIN }).click();
    await page.getByRole('alert').getByRole('button', { name: editorMessages.TRY_AGAIN }).waitFor();

    // A page address that is not valid is refused with its message.
    await page.goto(`${site.url}/config/pages`);
    const form = page.getByRole('form', { name: 'Create a page' });
    await form.getByLabel('Page title').fill('Odd page');
    await form.getByLabel(/Page URL/).fill('/odd page!');
    await form.getByRole('button', { name: 'Create page' }).click();
    await form
      .getByRole('alert')
      .filter({ hasText: platform.notValidPageUrl('/odd page!') })
      .waitFor();
    await context.close();
  });

  it('dialogs trap focus, close on Escape and give focus back', async () => {
    const context = await b.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await signInAsOwner(await context.newPage(), site);
    await createPage(page, site, 'Dialog page');
    await page.getByRole('button', { name: 'Add section' }).click();
    const opener = page.getByRole('button', { name: 'Add block to section 1' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Add a block' });
    await dialog.waitFor();
    for (let i = 0; i < 80; i++) await page.keyboard.press('Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Add block to section 1');
    // Every control of the editor has an accessible name.
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll('main button, main input, main select, main textarea, main [role="group"]')]
        .filter((el) => {
          const label =
            el.getAttribute('aria-label') ||
            el.getAttribute('aria-labelledby') ||
            (el as HTMLInputElement).labels?.length ||
            el.textContent?.trim();
          return !label;
        })
        .map((el) => el.outerHTML.slice(0, 80)),
    );
    expect(unnamed).toEqual([]);
    await context.close();
  });

  it("an upload can be cancelled while it is sent: the field says 'File processing cancelled' and shows no error; the picker shows each uploaded image's size", async () => {
    const context = await b.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await signInAsOwner(await context.newPage(), site);
    // An image uploaded before is offered with its size in the Bytes…YB units.
    const swatch = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#3c8c64' } })
      .png()
      .toBuffer();
    const status = await page.evaluate(
      async (bytes) => {
        const crumb =
          document.cookie
            .split('; ')
            .find((c) => c.startsWith('crumb='))
            ?.slice(6) ?? '';
        const res = await fetch('/api/editor/uploads?name=swatch.png', {
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream', 'x-csrf-token': decodeURIComponent(crumb) },
          body: new Uint8Array(bytes),
        });
        return res.status;
      },
      [...swatch],
    );
    expect(status).toBeLessThan(300);
    await expect
      .poll(
        async () =>
          ((await call(page, 'GET', '/api/editor/uploads')).data.uploads as Array<{ name: string; status: string }>).find(
            (u) => u.name === 'swatch.png',
          )?.status,
      )
      .toBe('ready');
    await createPage(page, site, 'Cancelled upload');
    await page.getByRole('button', { name: 'Add section' }).click();
    await addFromPalette(page, 1, 'Image');
    const panel = page.getByRole('complementary');
    const picker = panel.getByLabel('Or choose an uploaded image');
    await picker.waitFor();
    expect(swatch.length).toBeLessThan(1024);
    expect(formatFileSize(swatch.length)).toBe(`${swatch.length} Bytes`);
    expect(await picker.locator('option').allTextContents()).toContain(`swatch.png (${formatFileSize(swatch.length)})`);
    // The upload is held until the owner cancels it.
    let arrived!: () => void;
    const held = new Promise<void>((r) => (arrived = r));
    await page.route('**/api/editor/uploads?*', async (route) => {
      arrived();
      await new Promise(() => {});
      await route.continue();
    });
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    await panel.getByLabel('Upload image').setInputFiles({ name: 'held.png', mimeType: 'image/png', buffer: png });
    await held;
    await panel.getByRole('button', { name: 'Cancel upload' }).click();
    await panel.getByRole('status').filter({ hasText: editorMessages.FILE_PROCESSING_CANCELLED }).waitFor();
    expect(await panel.getByRole('button', { name: 'Cancel upload' }).count()).toBe(0);
    expect(await panel.getByRole('alert').count()).toBe(0);
    await context.close();
  });

  it("a newsletter block on a site without a mailing list says 'You don't have any mailing lists, create one before continuing'", async () => {
    const context = await b.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await signInAsOwner(await context.newPage(), site);
    await createPage(page, site, 'Newsletter lists');
    await page.getByRole('button', { name: 'Add section' }).click();
    await addFromPalette(page, 1, 'Newsletter');
    const panel = page.getByRole('complementary');
    // The demo site has its newsletter list: the new block signs up to it, no message.
    const list = panel.getByLabel('Mailing list');
    await expect.poll(() => list.inputValue()).toBe(NEWSLETTER_FORM_ID);
    expect(await panel.getByText(editorMessages.NO_MAILING_LISTS).count()).toBe(0);
    await saved(page);
    // No list chosen: 'A List must be selected' on the field, and the page is not saved.
    await list.selectOption('');
    await panel.getByText(platform.LIST_MUST_BE_SELECTED).waitFor();
    expect(await list.getAttribute('aria-invalid')).toBe('true');
    await page
      .locator('.ed-save[role="status"]')
      .filter({ hasText: new RegExp(`^Not saved\\. .*${platform.LIST_MUST_BE_SELECTED}$`) })
      .waitFor();
    await list.selectOption(NEWSLETTER_FORM_ID);
    await saved(page);
    // The same editor where the site's forms hold no mailing list.
    await page.route('**/api/editor/pages', async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const res = await route.fetch();
      const data = (await res.json()) as { forms: Array<{ kind?: string }> };
      await route.fulfill({ response: res, json: { ...data, forms: data.forms.filter((f) => f.kind !== 'newsletter') } });
    });
    await createPage(page, site, 'No lists');
    await page.getByRole('button', { name: 'Add section' }).click();
    await addFromPalette(page, 1, 'Newsletter');
    await panel.getByRole('alert').filter({ hasText: editorMessages.NO_MAILING_LISTS }).waitFor();
    await panel.getByText(platform.LIST_MUST_BE_SELECTED).waitFor();
    await context.close();
  });
});
