/**
 * Journal posts in the page editor (issue 27): the body is a layout with draft and publish, version checks,
 * the allow-list, raw HTML mode for admins only, the blocks on the public post and in site search.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { FastifyInstance } from 'fastify';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { BlockType, Role } from '../../../src/core/enums.js';
import { pageEditor as em } from '../../../src/core/messages.js';
import { addBlock, addSection, createBlock, emptyLayout, type OpResult, type PageLayout } from '../../../src/core/layout.js';
import { searchSite } from '../../../src/server/search/search.js';
import { publishDuePosts } from '../../../src/server/editor/posts.js';

const API = '/api/editor';
const PW = 'a long enough password';
const HOSTILE =
  '<p>Kept <strong>words</strong></p><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"><a href="javascript:alert(1)">link</a>';

function must(r: OpResult): PageLayout {
  if (!r.ok) throw new Error(r.message);
  return r.layout;
}
let n = 0;
const ids = { newId: (p: string) => `${p}p${++n}` };
function layoutWith(blocks: Array<ReturnType<typeof createBlock>>): PageLayout {
  let l = must(addSection(emptyLayout(), 0, ids));
  for (const b of blocks) l = must(addBlock(l, l.sections[0]!.id, b));
  return l;
}
const text = (html: string) => createBlock(BlockType.HTML, { ...ids, data: { html } });

async function signIn(app: FastifyInstance, email: string, password: string): Promise<Visitor> {
  const v = new Visitor(app);
  expect((await v.send('POST', '/api/auth/login', { email, password })).statusCode).toBe(200);
  return v;
}

describe.each(APP_KINDS)('journal posts in the editor on %s', (kind) => {
  let t: TestApp;
  let admin: Visitor;
  let editor: Visitor;
  let journalId: string;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tessera-posts-'));
    t = await testApp(kind, { DATA_DIR: dataDir, RATE_LIMIT_STORE: 'memory' });
    admin = await signIn(t.app, OWNER.email, OWNER.password);
    expect(
      (await admin.send('POST', '/api/config/team', { email: 'posts-editor@example.com', role: Role.EDITOR, password: PW })).statusCode,
    ).toBe(201);
    editor = await signIn(t.app, 'posts-editor@example.com', PW);
    journalId = (await admin.get('/api/config/posts')).json().journals[0].id as string;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('saves a draft body, refuses a stale version, publishes it; the post page and the journal list show blocks, cover and excerpt', async () => {
    const png = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#aa5533' } })
      .png()
      .toBuffer();
    const crumb = await admin.crumb();
    const up = await t.app.inject({
      method: 'POST',
      url: `${API}/uploads?name=${encodeURIComponent('Kiln.png')}`,
      headers: { cookie: [...admin.cookies].map(([k, x]) => `${k}=${x}`).join('; '), 'x-csrf-token': crumb, 'content-type': 'image/png' },
      payload: png,
    });
    expect(up.statusCode).toBe(201);
    const image = up.json().upload as { url: string; originalSize: string };

    const made = await admin.send('POST', '/api/config/posts', {
      collectionId: journalId,
      title: 'Firing the kiln',
      status: 'draft',
      excerpt: 'Notes from a long night.',
    });
    expect(made.statusCode).toBe(201);
    const id = made.json().id as string;
    const doc = (await admin.get(`${API}/posts/${id}`)).json();
    expect(doc.page).toMatchObject({ status: 'draft', fullUrl: '/journal/firing-the-kiln', version: 1 });
    expect(doc.canWriteHtml).toBe(true);
    expect(typeof doc.timeZone).toBe('string');
    // A new post opens with one text block to type in.
    expect(doc.layout.sections[0].blocks[0].type).toBe(BlockType.HTML);

    const layout = layoutWith([
      text('<h2>Cone ten</h2><p>The salamander glaze came out glossy.</p>'),
      createBlock(BlockType.BUTTON, { ...ids, data: { label: 'Book a firing', link: '/classes' } }),
    ]);
    const draft = await admin.send('PUT', `${API}/posts/${id}/draft`, { version: 1, layout });
    expect(draft.statusCode).toBe(200);
    expect(draft.json().page).toMatchObject({ version: 2, status: 'draft', hasUnpublishedChanges: true });
    // The same draft again changes nothing; an older version is refused and changes nothing.
    expect((await admin.send('PUT', `${API}/posts/${id}/draft`, { version: 2, layout })).json().page.version).toBe(2);
    const stale = await admin.send('PUT', `${API}/posts/${id}/draft`, { version: 1, layout: layoutWith([text('<p>Overwrite</p>')]) });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().currentVersion).toBe(2);
    // A draft is not on the site.
    expect((await new Visitor(t.app).get('/journal/firing-the-kiln')).statusCode).toBe(404);

    // The post's fields share the version: the cover image and the excerpt.
    const fields = await admin.send('PUT', `/api/config/posts/${id}`, {
      version: 2,
      title: 'Firing the kiln',
      status: 'draft',
      excerpt: 'Notes from a long night.',
      cover: { assetUrl: image.url, altText: 'The kiln', originalSize: image.originalSize },
    });
    expect(fields.statusCode).toBe(200);
    expect(fields.json().cover).toMatchObject({ assetUrl: image.url, altText: 'The kiln' });
    expect(
      (
        await admin.send('PUT', `/api/config/posts/${id}`, {
          version: 3,
          title: 'X',
          status: 'draft',
          cover: { assetUrl: 'https://evil.example/x.png' },
        })
      ).statusCode,
    ).toBe(400);

    const pub = await admin.send('POST', `${API}/posts/${id}/publish`, { version: 3 });
    expect(pub.statusCode).toBe(200);
    expect(pub.json().page).toMatchObject({ status: 'published', version: 4, hasUnpublishedChanges: false });

    const shown = await new Visitor(t.app).get('/journal/firing-the-kiln');
    expect(shown.statusCode).toBe(200);
    const body = /<div class="journal-post__body">([\s\S]*?)<footer class="journal-post__footer">/.exec(shown.body)![1]!;
    expect(body).toContain('class="ts-layout"');
    expect(body).toContain('The salamander glaze came out glossy.');
    expect(body).toContain('Book a firing');
    expect(shown.body).toMatch(/<figure class="journal-post__image">[\s\S]*?alt="The kiln"/);
    const list = await new Visitor(t.app).get('/journal');
    const entry = list.body.split('journal-entry__title').find((x) => x.includes('Firing the kiln')) ?? '';
    expect(entry).toContain('Notes from a long night.');
    expect(list.body).toContain(image.url.split('/').pop()!);

    // An edit after publishing is a draft until published again: the site keeps the published blocks.
    const edited = layoutWith([text('<p>A second firing, not yet told.</p>')]);
    expect((await admin.send('PUT', `${API}/posts/${id}/draft`, { version: 4, layout: edited })).statusCode).toBe(200);
    const still = await new Visitor(t.app).get('/journal/firing-the-kiln');
    expect(still.body).toContain('The salamander glaze came out glossy.');
    expect(still.body).not.toContain('A second firing');
  });

  it('finds a published post by the words of its blocks, not while it is a draft or scheduled', async () => {
    const made = await admin.send('POST', '/api/config/posts', { collectionId: journalId, title: 'Studio diary', status: 'draft' });
    const id = made.json().id as string;
    const layout = layoutWith([
      text('<p>We saw a wombat by the quince tree.</p>'),
      createBlock(BlockType.BUTTON, { ...ids, data: { label: 'Visit the echidna', link: '/visit' } }),
    ]);
    expect((await admin.send('PUT', `${API}/posts/${id}/draft`, { version: 1, layout })).statusCode).toBe(200);
    expect(await searchSite(t.database.db, t.seed.websiteId, 'wombat')).toEqual([]);

    const future = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const scheduled = await admin.send('POST', `${API}/posts/${id}/publish`, { version: 2, publishOn: future });
    expect(scheduled.json().page).toMatchObject({ status: 'scheduled', publishAt: future });
    expect(await searchSite(t.database.db, t.seed.websiteId, 'wombat')).toEqual([]);

    // Its time comes: the sweep publishes it.
    expect(await publishDuePosts(t.database.db, new Date(Date.parse(future) - 60_000))).toBe(0);
    expect(await publishDuePosts(t.database.db, new Date(Date.parse(future) + 1000))).toBe(1);
    expect((await admin.get(`${API}/posts/${id}`)).json().page).toMatchObject({ status: 'published', version: 4 });
    const hits = await searchSite(t.database.db, t.seed.websiteId, 'wombat');
    expect(hits.map((h) => h.title)).toEqual(['Studio diary']);
    // Words outside text blocks (a button's label) are found too, and through the public /search page.
    expect((await searchSite(t.database.db, t.seed.websiteId, 'echidna')).map((h) => h.title)).toEqual(['Studio diary']);
    const page = await new Visitor(t.app).get('/search?q=wombat');
    expect(page.body).toContain('/journal/studio-diary');

    // Unpublished: off the site and out of search.
    const off = await admin.send('POST', `${API}/posts/${id}/unpublish`, { version: 4 });
    expect(off.json().page.status).toBe('draft');
    expect(await searchSite(t.database.db, t.seed.websiteId, 'wombat')).toEqual([]);
  });

  it("raw HTML mode is an admin's: a staff editor is refused, an admin's HTML is cleaned with the allow-list", async () => {
    const made = await editor.send('POST', '/api/config/posts', { collectionId: journalId, title: 'House rules', status: 'draft' });
    expect(made.statusCode).toBe(201);
    const id = made.json().id as string;
    const doc = (await editor.get(`${API}/posts/${id}`)).json();
    expect(doc.canWriteHtml).toBe(false);

    const refused = await editor.send('PUT', `${API}/posts/${id}/draft`, { version: 1, html: '<p>Plain enough</p>' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(em.RAW_HTML_ADMIN_ONLY);
    expect((await editor.send('POST', `${API}/posts/${id}/publish`, { version: 1, html: '<p>Plain enough</p>' })).statusCode).toBe(403);
    // The classic body field is raw HTML too.
    const classic = await editor.send('PUT', `/api/config/posts/${id}`, {
      version: 1,
      title: 'House rules',
      status: 'draft',
      body: '<p>Plain enough</p>',
    });
    expect(classic.statusCode).toBe(403);
    expect(classic.json().message).toBe(em.RAW_HTML_ADMIN_ONLY);
    expect((await editor.get(`${API}/posts/${id}`)).json().page.version).toBe(1);

    // The editor writes the body in blocks; a text block's HTML is cleaned, as on pages.
    const blocks = await editor.send('PUT', `${API}/posts/${id}/draft`, { version: 1, layout: layoutWith([text(HOSTILE)]) });
    expect(blocks.statusCode).toBe(200);
    const stored = JSON.stringify(blocks.json().layout);
    expect(stored).toContain('Kept <strong>words</strong>');
    expect(stored).not.toMatch(/<script|onerror|javascript/i);

    // The admin may write the body as HTML: it becomes one text block, cleaned.
    const html = await admin.send('PUT', `${API}/posts/${id}/draft`, { version: 2, html: HOSTILE });
    expect(html.statusCode).toBe(200);
    const l = html.json().layout as PageLayout;
    expect(l.sections).toHaveLength(1);
    expect(l.sections[0]!.blocks.map((b) => b.type)).toEqual([BlockType.HTML]);
    const cleaned = String(l.sections[0]!.blocks[0]!.data.html);
    expect(cleaned).toContain('Kept <strong>words</strong>');
    expect(cleaned).not.toMatch(/<script|onerror|javascript/i);
    expect((await admin.send('POST', `${API}/posts/${id}/publish`, { version: 3 })).statusCode).toBe(200);
    const shown = await new Visitor(t.app).get('/journal/house-rules');
    expect(shown.statusCode).toBe(200);
    const body = /<div class="journal-post__body">([\s\S]*?)<footer class="journal-post__footer">/.exec(shown.body)![1]!;
    expect(body).toContain('Kept <strong>words</strong>');
    expect(body).not.toMatch(/<script|onerror|javascript:/i);
  });

  it('opens a post written before the editor with its HTML body as one text block, and keeps showing that body until published', async () => {
    const made = await admin.send('POST', '/api/config/posts', {
      collectionId: journalId,
      title: 'Old news',
      status: 'published',
      body: '<p>Written <em>before</em> blocks.</p>',
    });
    const id = made.json().id as string;
    const doc = (await admin.get(`${API}/posts/${id}`)).json();
    expect(doc.published).toBeNull();
    expect(doc.layout.sections[0].blocks).toHaveLength(1);
    expect(doc.layout.sections[0].blocks[0].data.html).toBe('<p>Written <em>before</em> blocks.</p>');
    const shown = await new Visitor(t.app).get('/journal/old-news');
    expect(shown.body).toMatch(/<div class="journal-post__body"><p>Written <em>before<\/em> blocks.<\/p><\/div>/);
    // Publishing from the editor keeps the post's date and draws it from blocks.
    const pub = await admin.send('POST', `${API}/posts/${id}/publish`, { version: doc.page.version });
    expect(pub.json().page.publishedAt).toBe(made.json().publishOn);
    expect((await new Visitor(t.app).get('/journal/old-news')).body).toContain('class="ts-layout"');
    // Another site's id or a page's id is not a post.
    expect((await admin.get(`${API}/posts/nope`)).statusCode).toBe(404);
    // Staff without a content role cannot read it.
    expect((await new Visitor(t.app).get(`${API}/posts/${id}`)).statusCode).toBe(401);
  });
});
