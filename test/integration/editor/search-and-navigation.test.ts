import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { BlockType } from '../../../src/core/enums.js';
import { pageEditor as em } from '../../../src/core/messages.js';
import { addBlock, addSection, createBlock, emptyLayout, type PageLayout, type OpResult } from '../../../src/core/layout.js';
import { searchSite } from '../../../src/server/search/search.js';
import { layoutSearchText } from '../../../src/server/editor/search-text.js';

const API = '/api/editor';

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

async function signIn(app: FastifyInstance): Promise<Visitor> {
  const v = new Visitor(app);
  expect((await v.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
  return v;
}

type Link = { title: string; collectionId: string | null; children: Link[] };
async function mainNav(owner: Visitor): Promise<Link[]> {
  const layout = (await owner.get('/api/commondata/GetSiteLayout')).json() as Array<{ identifier: string; links: Link[] }>;
  return layout.find((l) => l.identifier === 'mainNav')?.links ?? [];
}

describe('layoutSearchText', () => {
  it('keeps the words a visitor reads and leaves out code and ids', () => {
    const l = layoutWith([
      createBlock(BlockType.HTML, { ...ids, data: { html: '<h2>Kiln &amp; glaze</h2><p>Stoneware <b>bowls</b></p>' } }),
      createBlock(BlockType.BUTTON, { ...ids, data: { label: 'Book a class', link: '/classes' } }),
      createBlock(BlockType.CODE, { ...ids, data: { code: 'secretfunction()' } }),
      createBlock(BlockType.PRODUCT, { ...ids, data: { productId: 'p-123' } }),
    ]);
    const text = layoutSearchText(l);
    expect(text).toContain('Kiln & glaze');
    expect(text).toContain('Stoneware bowls');
    expect(text).toContain('Book a class');
    expect(text).not.toContain('secretfunction');
    expect(text).not.toContain('p-123');
  });
});

describe.each(APP_KINDS)('editor pages in search and navigation on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    owner = await signIn(t.app);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('finds a published editor page by the text of its blocks, not while it is a draft or private', async () => {
    const created = await owner.send('POST', `${API}/pages`, { title: 'Pottery evenings' });
    expect(created.statusCode).toBe(201);
    const id = created.json().page.id as string;
    const layout = layoutWith([createBlock(BlockType.HTML, { ...ids, data: { html: '<p>Throw a quokka planter on the wheel.</p>' } })]);
    const draft = await owner.send('PUT', `${API}/pages/${id}/draft`, { version: 0, layout });
    expect(draft.statusCode).toBe(200);
    // A draft is not on the site, so search does not find it.
    expect(await searchSite(t.database.db, t.seed.websiteId, 'quokka')).toEqual([]);

    const pub = await owner.send('POST', `${API}/pages/${id}/publish`, { version: 1 });
    expect(pub.statusCode).toBe(200);
    const hits = await searchSite(t.database.db, t.seed.websiteId, 'quokka');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ kind: 'page', title: 'Pottery evenings', fullUrl: '/pottery-evenings' });
    expect(hits[0]!.excerptHtml).toContain('<mark>quokka</mark>');
    const page = await new Visitor(t.app).get('/search?q=quokka');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('href="/pottery-evenings"');

    // Changing the text and publishing again replaces the words.
    const next = layoutWith([createBlock(BlockType.HTML, { ...ids, data: { html: '<p>Glaze a wombat cup.</p>' } })]);
    expect((await owner.send('POST', `${API}/pages/${id}/publish`, { version: 2, layout: next })).statusCode).toBe(200);
    expect(await searchSite(t.database.db, t.seed.websiteId, 'quokka')).toEqual([]);
    expect((await searchSite(t.database.db, t.seed.websiteId, 'wombat')).map((h) => h.id)).toEqual([id]);

    // A private page is not found.
    expect((await owner.send('PUT', `${API}/pages/${id}/draft`, { version: 3, layout: next, status: 'private' })).statusCode).toBe(200);
    expect(await searchSite(t.database.db, t.seed.websiteId, 'wombat')).toEqual([]);
  });

  it('the seeded demo page is found by its block text', async () => {
    const hits = await searchSite(t.database.db, t.seed.websiteId, 'commissions');
    expect(hits.some((h) => h.kind === 'page' && h.fullUrl === '/studio')).toBe(true);
  });

  it('a product block is a product card with price, variants and Add to Cart: the widgets of the product page, working without JavaScript', async () => {
    const res = await new Visitor(t.app).get('/studio');
    expect(res.statusCode).toBe(200);
    const block = res.body.slice(res.body.indexOf('<div class="sqs-block product-block">'));
    expect(block).toContain('class="product-block__title product-card__title"');
    expect(block).toContain('Linen Camp Shirt');
    expect(block).toMatch(/class="product-price"[^>]*>[^<]*\$\d/);
    // The same add-to-cart form as the product page: a plain post to the cart with the item id.
    const form = /<form[^>]*action="([^"]+)"[^>]*>/.exec(block.slice(block.indexOf('product-purchase')));
    expect(form?.[1]).toBe('/api/commerce/shopping-cart/entries');
    expect(block.slice(0, block.indexOf('</article>'))).toMatch(/<select[^>]*>/);
    expect(block).not.toContain('Quick View');
  });

  it('renders blocks for the canvas with the public partials: raw code as text, an invalid block left out, owners only', async () => {
    const created = await owner.send('POST', `${API}/pages`, { title: 'Canvas page' });
    const id = created.json().page.id as string;
    const text = createBlock(BlockType.HTML, { ...ids, data: { html: '<h2>Fired twice</h2><script>alert(1)</script>' } });
    const code = createBlock(BlockType.CODE, { ...ids, data: { code: '<b>raw</b>', raw: true } });
    const bad = createBlock(BlockType.BUTTON, { ...ids, data: { label: 'Go', link: 'not a link' } });
    const product = createBlock(BlockType.PRODUCT, { ...ids, data: { productId: t.seed.productIds['linen-camp-shirt'] } });
    const layout = layoutWith([text, code, bad, product]);
    const res = await owner.send('POST', `${API}/pages/${id}/render`, { layout });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { blocks: Record<string, { name: string; html: string }>; css: string };
    expect(body.blocks[text.id]!.html).toContain('<h2>Fired twice</h2>');
    expect(body.blocks[text.id]!.html).not.toContain('<script');
    expect(body.blocks[code.id]!.html).toContain('&lt;b&gt;raw&lt;/b&gt;');
    expect(body.blocks[bad.id]).toBeUndefined();
    expect(body.blocks[product.id]!.html).toContain('product-block__card');
    expect(body.css).toContain(':host');
    expect(body.css).not.toMatch(/(^|[}\s,]):root\s*\{/);
    expect((await new Visitor(t.app).send('POST', `${API}/pages/${id}/render`, { layout })).statusCode).toBe(401);
    expect((await owner.send('POST', `${API}/pages/nope/render`, { layout })).statusCode).toBe(404);
    expect((await owner.send('POST', `${API}/pages/${id}/render`, { layout: 'x' })).statusCode).toBe(400);
  });

  it('adds a new page to the main navigation first, last or under a folder', async () => {
    const before = await mainNav(owner);
    const last = await owner.send('POST', `${API}/pages`, { title: 'Nav last', navigation: { position: 'last' } });
    expect(last.statusCode).toBe(201);
    const lastId = last.json().page.id;
    let nav = await mainNav(owner);
    expect(nav).toHaveLength(before.length + 1);
    expect(nav[nav.length - 1]!.collectionId).toBe(lastId);

    const first = await owner.send('POST', `${API}/pages`, { title: 'Nav first', navigation: { position: 'first' } });
    expect(first.statusCode).toBe(201);
    nav = await mainNav(owner);
    expect(nav[0]!.collectionId).toBe(first.json().page.id);

    // A folder: a top-level entry with children, offered by the pages list.
    const folderNav = [
      ...nav.map((l) => ({ title: l.title, collectionId: l.collectionId ?? undefined })),
      { title: 'About', children: [{ collectionId: lastId }] },
    ];
    const upd = await owner.send('POST', '/api/widget/UpdateNavigation', { fieldName: 'mainNav', navigation: { items: folderNav } });
    expect(upd.statusCode).toBe(200);
    const list = (await owner.get(`${API}/pages`)).json();
    const folder = list.navFolders.find((f: { title: string }) => f.title === 'About');
    expect(folder).toBeDefined();
    const under = await owner.send('POST', `${API}/pages`, {
      title: 'Nav child',
      navigation: { position: 'folder', folder: folder.index },
    });
    expect(under.statusCode).toBe(201);
    nav = await mainNav(owner);
    expect(nav[folder.index]!.children.map((c) => c.collectionId)).toEqual([lastId, under.json().page.id]);

    // The page is in the visitor's navigation once it is published.
    const v = new Visitor(t.app);
    const home = await v.get('/?format=json');
    expect(JSON.stringify(home.json().navigation ?? home.json())).toContain('Nav first');

    // Not a folder, or not a placement: a clear 400 and no page.
    const count = (await owner.get(`${API}/pages`)).json().pages.length;
    const bad = await owner.send('POST', `${API}/pages`, { title: 'Nowhere', navigation: { position: 'folder', folder: 0 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(em.NO_SUCH_NAV_FOLDER);
    const shape = await owner.send('POST', `${API}/pages`, { title: 'Nowhere', navigation: { position: 'middle' } });
    expect(shape.statusCode).toBe(400);
    expect(shape.json().message).toContain('Choose where the page goes in the navigation');
    expect((await owner.get(`${API}/pages`)).json().pages.length).toBe(count);
  });
});
