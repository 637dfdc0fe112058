/**
 * Issue 21, item 1 in Chromium: a store manager and an editor plant script in what they may write (a
 * product description, a page body, a text block, a form's post-submission HTML; rows written before the
 * cleaning rule; a draft with raw code), then an admin views the public pages and the draft preview.
 * The payload would set window.__pwned and create a new admin through POST /api/config/team with the
 * admin's crumb: nothing of it may run with the admin's origin, and the pages raise no CSP violation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import {
  launchBrowser,
  liveSite,
  pageTurn,
  signInAsOwner,
  watchConsole,
  type BrowserSession,
  type LiveSite,
} from '../../helpers/browser.js';
import { OWNER, Visitor } from '../../helpers/app.js';
import { schema } from '../../../src/db/index.js';
import { rows } from '../../../src/server/db-util.js';
import { BlockType, Role } from '../../../src/core/enums.js';
import {
  addBlock,
  addSection,
  createBlock,
  emptyLayout,
  serializeLayout,
  type OpResult,
  type PageLayout,
} from '../../../src/core/layout.js';

const PW = 'a long enough password';
/** What an attacker's script does with the admin's origin: a flag, and a new admin made with the crumb. */
const ATTACK =
  'window.__pwned=1;try{parent.__pwned=1}catch(e){}' +
  "var c='';try{c=(document.cookie.match(/crumb=([^;]+)/)||[])[1]||''}catch(e){}" +
  "fetch('/api/config/team',{method:'POST',credentials:'include',headers:{'content-type':'application/json','x-csrf-token':c},body:JSON.stringify({email:'evil@example.com',role:1,password:'evil password 123'})}).catch(function(){})";
const attr = ATTACK.replace(/"/g, '&quot;');
const HOSTILE =
  `<p>Planted <strong>words</strong></p><script>${ATTACK}</script><img src="/nothing.png" onerror="${attr}">` +
  `<a href="javascript:${attr}">a link</a><svg><script>${ATTACK}</script></svg><iframe srcdoc="<script>${attr}</script>"></iframe>`;

function must(r: OpResult): PageLayout {
  if (!r.ok) throw new Error(r.message);
  return r.layout;
}
let n = 0;
const ids = { newId: (p: string) => `${p}b${++n}` };
function layoutWith(blocks: Array<ReturnType<typeof createBlock>>): PageLayout {
  let l = must(addSection(emptyLayout(), 0, ids));
  for (const b of blocks) l = must(addBlock(l, l.sections[0]!.id, b));
  return l;
}

describe('staff script cannot run when an admin views it (Chromium)', () => {
  let site: LiveSite;
  let b: BrowserSession;
  let pageId = '';
  let formId = '';

  beforeAll(async () => {
    [site, b] = await Promise.all([liveSite('pglite', { RATE_LIMIT_STORE: 'memory' }), launchBrowser()]);
    const admin = new Visitor(site.app);
    expect((await admin.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    const staff = async (role: number) => {
      const email = `staff${role}@example.com`;
      expect((await admin.send('POST', '/api/config/team', { email, role, password: PW })).statusCode).toBe(201);
      const v = new Visitor(site.app);
      expect((await v.send('POST', '/api/auth/login', { email, password: PW })).statusCode).toBe(200);
      return v;
    };
    const manager = await staff(Role.STORE_MANAGER);
    const editor = await staff(Role.EDITOR);

    // The store manager's product description.
    const productId = site.seed.productIds['ceramic-pour-over-set']!;
    const product = (await manager.get(`/api/config/products/${productId}`)).json();
    expect((await manager.send('PUT', `/api/config/products/${productId}`, { ...product, body: HOSTILE })).statusCode).toBe(200);
    // A description stored before the rule (written straight into the table).
    await site.database.db
      .update(schema.items)
      .set({ body: HOSTILE })
      .where(eq(schema.items.id, site.seed.productIds['houseplant-field-guide']!));

    // The editor's page: a classic body, then a published layout with a text block.
    const page = await editor.send('POST', '/api/config/pages', { title: 'Planted page', urlId: 'planted', body: HOSTILE });
    expect(page.statusCode).toBe(201);
    pageId = page.json().id;
    const layout = layoutWith([createBlock(BlockType.HTML, { data: { html: HOSTILE }, ...ids })]);
    expect((await editor.send('POST', `/api/editor/pages/${pageId}/publish`, { version: 0, layout })).statusCode).toBe(200);
    // Raw code is refused to the editor...
    const raw = layoutWith([
      createBlock(BlockType.CODE, { data: { code: `<script>${ATTACK}</script>`, raw: true, language: '' }, ...ids }),
    ]);
    expect((await editor.send('PUT', `/api/editor/pages/${pageId}/draft`, { version: 1, layout: raw })).statusCode).toBe(403);
    // ...but a draft written before the rule may still hold some: it shows only in the sandboxed preview.
    const draft = layoutWith([
      createBlock(BlockType.HTML, { data: { html: '<h2>Draft heading</h2>' }, ...ids }),
      createBlock(BlockType.CODE, {
        // It marks the body when it has run, and again when its request for a new admin has had its answer.
        data: {
          code: `<script>${ATTACK}.then(function(){document.body.setAttribute('data-asked','1')});document.body.setAttribute('data-ran','1')</script>`,
          raw: true,
          language: '',
        },
        ...ids,
      }),
    ]);
    await site.database.db
      .update(schema.pageLayouts)
      .set({ draft: serializeLayout(draft) })
      .where(eq(schema.pageLayouts.collectionId, pageId));

    // The editor's form with post-submission HTML, stored raw as an old row would be.
    const form = await editor.send('POST', '/api/config/forms', {
      name: 'Planted form',
      fields: [{ id: 'name', type: 'text', title: 'Your name' }],
      postSubmissionHtml: HOSTILE,
      captcha: { enabled: false },
    });
    expect(form.statusCode).toBe(200);
    formId = form.json().form.id;
    await site.database.db.update(schema.forms).set({ postSubmissionHtml: HOSTILE }).where(eq(schema.forms.id, formId));
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await site?.close();
  });

  const evilAccounts = async () =>
    (await rows<{ n: number | string }>(site.database.db, sql`select count(*) as n from accounts where email = 'evil@example.com'`))[0]!.n;
  const pwned = (page: Page) => page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned ?? null);
  const cspProblems = (problems: string[]) => problems.filter((p) => /Content Security Policy|Refused to (execute|load)/i.test(p));

  it('public pages show the staff content cleaned, run none of it, and keep their own scripts within the CSP', async () => {
    const context = await b.browser.newContext();
    const page = await signInAsOwner(await context.newPage(), site);
    const problems = watchConsole(page);
    for (const url of ['/shop/p/ceramic-pour-over-set', '/shop/p/houseplant-field-guide', '/planted']) {
      await page.goto(`${site.url}${url}`);
      await page.getByText('Planted words').first().waitFor();
      // The page's own islands still hydrate under the CSP (the cart pill is on every page).
      await page.waitForFunction(
        () =>
          document.querySelector('[data-island]') !== null &&
          [...document.querySelectorAll('[data-island]')].some((e) => e.getAttribute('data-hydrated') === '1'),
      );
      // The link lost its javascript: address: clicking it does nothing (checked once the click's tasks have run).
      const link = page.locator('a', { hasText: 'a link' }).first();
      expect((await link.getAttribute('href')) ?? '', url).not.toMatch(/^\s*javascript:/i);
      await link.click();
      await pageTurn(page);
      expect(await pwned(page), url).toBeNull();
    }
    // The form: its post-submission HTML shows after a submission, cleaned, with nothing run.
    await page.goto(`${site.url}/forms/${formId}`);
    await page.waitForFunction(() => document.querySelector('[data-island="Form"]')?.getAttribute('data-hydrated') === '1');
    await page.getByRole('textbox', { name: /Your name/ }).fill('Ada');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Planted words').waitFor();
    // Every image the message kept has finished loading (or failing), so an error handler would have run.
    for (const img of await page.locator('[data-island="Form"] img').all()) {
      await img.evaluate((i: HTMLImageElement) =>
        i.complete ? undefined : new Promise((done) => (i.addEventListener('load', done), i.addEventListener('error', done))),
      );
    }
    await pageTurn(page);
    expect(await pwned(page)).toBeNull();
    expect(await page.locator('[data-island="Form"] img[onerror], [data-island="Form"] script, [data-island="Form"] iframe').count()).toBe(
      0,
    );
    expect(cspProblems(problems)).toEqual([]);
    expect(problems.filter((p) => p.startsWith('pageerror'))).toEqual([]);
    expect(Number(await evilAccounts())).toBe(0);
    await context.close();
  }, 120_000);

  it("the draft preview runs a draft's script sandboxed: no flag on the admin, no new admin", async () => {
    const context = await b.browser.newContext();
    const first = await context.newPage();
    const problems = watchConsole(first);
    const page = await signInAsOwner(first, site, `/config/pages/${pageId}`);
    await page.getByRole('heading', { level: 1, name: /Edit page: Planted page/ }).waitFor();
    await page.getByRole('button', { name: 'Preview' }).click();
    const frame = page.frameLocator('iframe[title^="Page preview"]');
    await frame.getByRole('heading', { name: 'Draft heading' }).waitFor();
    // The draft's raw code did run, but in the sandbox's opaque origin.
    await frame.locator('body[data-ran="1"]').waitFor();
    // Its request for a new admin has had its answer: any account it could make would be there now.
    await frame.locator('body[data-asked="1"]').waitFor();
    expect(await pwned(page)).toBeNull();
    expect(Number(await evilAccounts())).toBe(0);
    // Opened directly in a tab, the preview is sandboxed by its CSP just the same.
    const tab = await context.newPage();
    await tab.goto(`${site.url}/planted?preview=draft`);
    await tab.locator('body[data-ran="1"]').waitFor();
    expect(await tab.evaluate(() => window.origin)).toBe('null');
    await tab.locator('body[data-asked="1"]').waitFor();
    expect(Number(await evilAccounts())).toBe(0);
    const team = await page.evaluate(async () => (await (await fetch('/api/config/team')).json()) as { members: Array<{ email: string }> });
    expect(team.members.map((m) => m.email)).not.toContain('evil@example.com');
    // The admin and the preview's own scripts work within their policies.
    expect(cspProblems(problems)).toEqual([]);
    await context.close();
  }, 120_000);
});
