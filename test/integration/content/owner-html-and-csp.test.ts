/**
 * Issue 21, item 1: script from staff must not reach the site's origin. Owner HTML is cleaned with the
 * rich-text allow-list on save and on render; raw code and header/footer code are an admin's; the admin
 * and public pages send a Content-Security-Policy; the draft preview is sandboxed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { schema } from '../../../src/db/index.js';
import { BlockType, Role } from '../../../src/core/enums.js';
import { pageEditor as em, platform as pm } from '../../../src/core/messages.js';
import { addBlock, addSection, createBlock, emptyLayout, type OpResult, type PageLayout } from '../../../src/core/layout.js';
import { ADMIN_CSP } from '../../../src/server/site-page/csp.js';

const PW = 'a long enough password';
/** Every way in the issue: a script element, an event attribute, a javascript: link, an iframe. */
const HOSTILE =
  '<p>Kept <strong>words</strong></p><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">' +
  '<a href="javascript:window.__pwned=3">link</a><a href="JaVaScRiPt&colon;alert(1)">two</a><iframe src="/config"></iframe><p onclick="alert(1)">para</p>';

function expectClean(html: string) {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/onerror|onclick/i);
  expect(html).not.toMatch(/javascript/i);
  expect(html).not.toMatch(/<iframe/i);
  expect(html).not.toContain('__pwned');
}

function must(r: OpResult): PageLayout {
  if (!r.ok) throw new Error(r.message);
  return r.layout;
}
let n = 0;
const ids = { newId: (p: string) => `${p}s${++n}` };
function layoutWith(blocks: Array<ReturnType<typeof createBlock>>): PageLayout {
  let l = must(addSection(emptyLayout(), 0, ids));
  for (const b of blocks) l = must(addBlock(l, l.sections[0]!.id, b));
  return l;
}

async function signIn(app: FastifyInstance, email: string, password: string): Promise<Visitor> {
  const v = new Visitor(app);
  const res = await v.send('POST', '/api/auth/login', { email, password });
  expect(res.statusCode).toBe(200);
  return v;
}

describe.each(APP_KINDS)('owner HTML, raw code and CSP on %s', (kind) => {
  let t: TestApp;
  let admin: Visitor;
  const staff = new Map<number, Visitor>();

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    admin = await signIn(t.app, OWNER.email, OWNER.password);
    for (const role of [Role.STORE_MANAGER, Role.EDITOR, Role.WEBSITE_MANAGER, Role.DRAFT_EDITOR]) {
      const email = `staff${role}@example.com`;
      const made = await admin.send('POST', '/api/config/team', { email, role, password: PW });
      expect(made.statusCode).toBe(201);
      staff.set(role, await signIn(t.app, email, PW));
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("cleans a store manager's product description on save and on the product page", async () => {
    const manager = staff.get(Role.STORE_MANAGER)!;
    const id = t.seed.productIds['ceramic-pour-over-set']!;
    const product = (await manager.get(`/api/config/products/${id}`)).json();
    const saved = await manager.send('PUT', `/api/config/products/${id}`, {
      ...product,
      body: HOSTILE,
      excerpt: `Short <script>window.__pwned=4</script>& sweet`,
    });
    expect(saved.statusCode).toBe(200);
    expectClean(saved.json().body);
    expect(saved.json().body).toContain('<p>Kept <strong>words</strong></p>');
    expect(saved.json().excerpt).toBe('Short & sweet');
    const [row] = await t.database.db.select().from(schema.items).where(eq(schema.items.id, id));
    expectClean(row!.body);
    const page = await new Visitor(t.app).get('/shop/p/ceramic-pour-over-set');
    expect(page.statusCode).toBe(200);
    const description = /<div class="product-description">([\s\S]*?)<\/div>/.exec(page.body)![1]!;
    expect(description).toContain('<strong>words</strong>');
    expectClean(description);
  });

  it('cleans rows stored before the rule when they are rendered (product, post, page body)', async () => {
    const id = t.seed.productIds['ceramic-pour-over-set']!;
    await t.database.db.update(schema.items).set({ body: HOSTILE }).where(eq(schema.items.id, id));
    await t.database.db.update(schema.items).set({ body: HOSTILE }).where(eq(schema.items.urlId, 'a-better-morning-cup'));
    const visitor = new Visitor(t.app);
    const product = await visitor.get('/shop/p/ceramic-pour-over-set');
    expect(product.body).toContain('<strong>words</strong>');
    expectClean(/<div class="product-description">([\s\S]*?)<\/div>/.exec(product.body)![1]!);
    const post = await visitor.get('/journal/a-better-morning-cup');
    expect(post.statusCode).toBe(200);
    const body = /<div class="journal-post__body">([\s\S]*?)<\/div>/.exec(post.body)![1]!;
    expect(body).toContain('<strong>words</strong>');
    expectClean(body);
  });

  it("cleans an editor's page body, journal post, text block, accordion and form post-submission HTML", async () => {
    const editor = staff.get(Role.EDITOR)!;
    // A classic page body.
    const page = await editor.send('POST', '/api/config/pages', { title: 'Editor page', urlId: `editor-page-${kind}`, body: HOSTILE });
    expect(page.statusCode).toBe(201);
    expectClean(page.json().body);
    const shown = await new Visitor(t.app).get(`/editor-page-${kind}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('<strong>words</strong>');
    expectClean(/<div class="page-body">([\s\S]*?)<\/div>/.exec(shown.body)![1]!);

    // A journal post: a body written as HTML is an admin's (issue 27), and cleaned even then; the editor's excerpt is text.
    const journals = (await editor.get('/api/config/posts')).json().journals as Array<{ id: string }>;
    const refused = await editor.send('POST', '/api/config/posts', {
      collectionId: journals[0]!.id,
      title: 'Hostile post',
      status: 'published',
      body: HOSTILE,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(em.RAW_HTML_ADMIN_ONLY);
    const post = await admin.send('POST', '/api/config/posts', {
      collectionId: journals[0]!.id,
      title: 'Hostile post',
      status: 'published',
      body: HOSTILE,
    });
    expect(post.statusCode).toBe(201);
    expectClean(post.json().body);
    const excerpt = await editor.send('POST', '/api/config/posts', {
      collectionId: journals[0]!.id,
      title: 'Excerpted post',
      status: 'draft',
      excerpt: '<img src=x onerror=alert(1)>Plain',
    });
    expect(excerpt.statusCode).toBe(201);
    expect(excerpt.json().excerpt).toBe('Plain');

    // Text and accordion blocks of the page editor, saved and published by the editor.
    const layout = layoutWith([
      createBlock(BlockType.HTML, { data: { html: HOSTILE }, ...ids }),
      createBlock(BlockType.ACCORDION, { data: { items: [{ title: 'Q', body: HOSTILE }] }, ...ids }),
    ]);
    const draft = await editor.send('PUT', `/api/editor/pages/${page.json().id}/draft`, { version: 0, layout });
    expect(draft.statusCode).toBe(200);
    const stored = JSON.stringify(draft.json().layout);
    expect(stored).toContain('Kept');
    expectClean(stored);
    expect(
      (await editor.send('POST', `/api/editor/pages/${page.json().id}/publish`, { version: draft.json().page.version })).statusCode,
    ).toBe(200);
    const laid = await new Visitor(t.app).get(`/editor-page-${kind}`);
    expect(laid.body).toContain('<strong>words</strong>');
    expectClean(
      /<div class="page-layout">([\s\S]*?)<footer/.exec(laid.body)?.[1] ?? laid.body.split('page-layout')[1]!.split('</main>')[0]!,
    );

    // A form's post-submission HTML: cleaned when saved, and again in what the island gets.
    const form = await editor.send('POST', '/api/config/forms', {
      name: 'Hostile form',
      fields: [{ id: 'name', type: 'text', title: 'Name' }],
      postSubmissionHtml: HOSTILE,
      captcha: { enabled: false },
    });
    expect(form.statusCode).toBe(200);
    expectClean(form.json().form.postSubmissionHtml);
    expect(form.json().form.postSubmissionHtml).toContain('<strong>words</strong>');
    const formId = form.json().form.id as string;
    await t.database.db.update(schema.forms).set({ postSubmissionHtml: HOSTILE }).where(eq(schema.forms.id, formId));
    const formPage = await new Visitor(t.app).get(`/forms/${formId}`);
    expect(formPage.statusCode).toBe(200);
    const props = /data-island="Form" data-props="([^"]*)"/
      .exec(formPage.body)![1]!
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
    const island = JSON.parse(props) as { form: { postSubmissionHtml: string } };
    expect(island.form.postSubmissionHtml).toContain('<strong>words</strong>');
    expectClean(island.form.postSubmissionHtml);
  });

  it('lets only an admin add or change a raw code block; others may keep it as stored', async () => {
    const made = await admin.send('POST', '/api/config/pages', { title: 'Raw page', urlId: `raw-page-${kind}` });
    const pageId = made.json().id as string;
    const raw = createBlock(BlockType.CODE, { data: { code: '<script>window.__admin=1</script>', raw: true, language: '' }, ...ids });
    const withRaw = layoutWith([raw]);
    for (const role of [Role.EDITOR, Role.WEBSITE_MANAGER, Role.DRAFT_EDITOR]) {
      const res = await staff.get(role)!.send('PUT', `/api/editor/pages/${pageId}/draft`, { version: 0, layout: withRaw });
      expect(res.statusCode, `role ${role}`).toBe(403);
      expect(res.json().message).toBe(em.RAW_CODE_ADMIN_ONLY);
    }
    const editor = staff.get(Role.EDITOR)!;
    expect((await editor.send('POST', `/api/editor/pages/${pageId}/publish`, { version: 0, layout: withRaw })).statusCode).toBe(403);
    // The same block shown as code (not raw) is anyone's.
    const asText = layoutWith([
      createBlock(BlockType.CODE, { data: { code: '<script>x()</script>', raw: false, language: 'html' }, ...ids }),
    ]);
    const textSave = await editor.send('PUT', `/api/editor/pages/${pageId}/draft`, { version: 0, layout: asText });
    expect(textSave.statusCode).toBe(200);
    // An admin may.
    const byAdmin = await admin.send('PUT', `/api/editor/pages/${pageId}/draft`, {
      version: textSave.json().page.version,
      layout: withRaw,
    });
    expect(byAdmin.statusCode).toBe(200);
    // An editor keeps the admin's block as it is (and edits around it), but cannot change its code.
    const around = must(
      addBlock(
        byAdmin.json().layout,
        byAdmin.json().layout.sections[0].id,
        createBlock(BlockType.HTML, { data: { html: '<p>More</p>' }, ...ids }),
      ),
    );
    const kept = await editor.send('PUT', `/api/editor/pages/${pageId}/draft`, { version: byAdmin.json().page.version, layout: around });
    expect(kept.statusCode).toBe(200);
    const changed = JSON.parse(JSON.stringify(kept.json().layout)) as PageLayout;
    changed.sections[0]!.blocks[0]!.data.code = '<script>fetch("/api/config/team")</script>';
    const refused = await editor.send('PUT', `/api/editor/pages/${pageId}/draft`, { version: kept.json().page.version, layout: changed });
    expect(refused.statusCode).toBe(403);
    // A new block carrying a copy of the admin's code is a new raw block: refused too.
    const copy = must(
      addBlock(
        kept.json().layout,
        kept.json().layout.sections[0].id,
        createBlock(BlockType.CODE, { data: { code: '<script>window.__admin=1</script>', raw: true, language: '' }, ...ids }),
      ),
    );
    expect(
      (await editor.send('PUT', `/api/editor/pages/${pageId}/draft`, { version: kept.json().page.version, layout: copy })).statusCode,
    ).toBe(403);
  });

  it('lets only an admin save header and footer code', async () => {
    const code = { header: '<script>window.__header=1</script>', footer: '<script src="https://example.com/x.js"></script>' };
    for (const role of [Role.WEBSITE_MANAGER, Role.EDITOR, Role.STORE_MANAGER, Role.DRAFT_EDITOR]) {
      const res = await staff.get(role)!.send('PUT', '/api/site-header-footer', code);
      expect(res.statusCode, `role ${role}`).toBe(403);
      expect(res.json().message).toBe(pm.CODE_INJECTION_ADMIN_ONLY);
    }
    const site = await t.app.services.websites.get();
    expect((site.settings.codeInjection as { header?: string } | undefined)?.header ?? '').toBe('');
    const ok = await admin.send('PUT', '/api/site-header-footer', code);
    expect(ok.statusCode).toBe(200);
    // The admin's scripts run under the public CSP: they carry the response's nonce.
    const home = await new Visitor(t.app).get('/shop');
    const nonce = /'nonce-([^']+)'/.exec(String(home.headers['content-security-policy']))![1]!;
    expect(home.body).toContain(`<script nonce="${nonce}">window.__header=1</script>`);
    expect(home.body).toContain(`<script nonce="${nonce}" src="https://example.com/x.js"></script>`);
    expect((await admin.send('PUT', '/api/site-header-footer', { header: '', footer: '' })).statusCode).toBe(200);
  });

  it('sends a strict Content-Security-Policy on /config', async () => {
    for (const res of [await admin.get('/config'), await admin.get('/config/pages'), await new Visitor(t.app).get('/config/login')]) {
      expect(res.statusCode).toBe(200);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toBe(ADMIN_CSP);
      const script = /script-src ([^;]*)/.exec(csp)![1]!;
      expect(script).toBe("'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'self'");
      expect(csp).not.toMatch(/unsafe-eval|unsafe-inline'[^;]*;?\s*$/);
      expect(res.headers['x-frame-options']).toBe('DENY');
      // The admin has no inline script.
      expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    }
  });

  it('sends a nonce-based policy on public pages; a cached page keeps its nonce with its policy', async () => {
    const first = await new Visitor(t.app).get('/journal');
    expect(first.statusCode).toBe(200);
    const csp = String(first.headers['content-security-policy']);
    expect(csp).toMatch(
      /^script-src 'nonce-[A-Za-z0-9+/=]{20,}' 'strict-dynamic'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'$/,
    );
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    // Every executable script of the page carries it (JSON data blocks need none).
    const scripts = [...first.body.matchAll(/<script\b([^>]*)>/g)]
      .map((m) => m[1]!)
      .filter((a) => !/type="application\/(ld\+)?json"/.test(a));
    expect(scripts.length).toBeGreaterThan(0);
    for (const a of scripts) expect(a).toContain(`nonce="${nonce}"`);
    await t.app.pageCache.idle();
    const again = await new Visitor(t.app).get('/journal');
    expect(again.headers['content-security-policy']).toBe(csp);
    expect(again.body).toContain(`nonce="${nonce}"`);
    // A page rendered for one request gets its own nonce.
    const other = await new Visitor(t.app).get('/journal?page=2');
    expect(other.headers['content-security-policy']).not.toBe(csp);
  });

  it('sandboxes the draft preview (no same-origin), wherever it is opened', async () => {
    const made = await admin.send('POST', '/api/config/pages', { title: 'Preview page', urlId: `preview-page-${kind}` });
    const draft = await admin.send('PUT', `/api/editor/pages/${made.json().id}/draft`, {
      version: 0,
      layout: layoutWith([createBlock(BlockType.HTML, { data: { html: '<p>Draft words</p>' }, ...ids })]),
    });
    expect(draft.statusCode).toBe(200);
    const preview = await admin.get(`/preview-page-${kind}?preview=draft`);
    expect(preview.body).toContain('Draft words');
    const csp = String(preview.headers['content-security-policy']);
    expect(csp).toMatch(/(^|; )sandbox allow-scripts/);
    expect(csp).not.toContain('allow-same-origin');
  });
});
