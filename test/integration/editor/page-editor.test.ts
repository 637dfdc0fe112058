import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { DB_KINDS } from '../../helpers/db.js';
import { OwnerService } from '../../../src/server/platform/owners.js';
import { schema } from '../../../src/db/index.js';
import { rows } from '../../../src/server/db-util.js';
import { Role, BlockType } from '../../../src/core/enums.js';
import { editor as edm, pageEditor as em, platform as pm } from '../../../src/core/messages.js';
import {
  addBlock,
  addSection,
  createBlock,
  emptyLayout,
  serializeLayout,
  type PageLayout,
  type OpResult,
} from '../../../src/core/layout.js';
import { DEMO_PAGE_URL_ID } from '../../../src/server/editor/seed.js';

const API = '/api/editor';
const PW = 'a long enough password';

function must(r: OpResult): PageLayout {
  if (!r.ok) throw new Error(r.message);
  return r.layout;
}

let n = 0;
const ids = { newId: (p: string) => `${p}t${++n}` };

function layoutWith(blocks: Array<ReturnType<typeof createBlock>>): PageLayout {
  let l = must(addSection(emptyLayout(), 0, ids));
  for (const b of blocks) l = must(addBlock(l, l.sections[0].id, b));
  return l;
}

async function signIn(app: FastifyInstance, email: string, password: string): Promise<Visitor> {
  const v = new Visitor(app);
  const res = await v.send('POST', '/api/auth/login', { email, password });
  expect(res.statusCode).toBe(200);
  return v;
}

/** A raw-bytes upload as the /config editor sends it. */
async function upload(app: FastifyInstance, v: Visitor, name: string, body: Buffer, contentType = 'application/octet-stream') {
  const crumb = await v.crumb();
  return app.inject({
    method: 'POST',
    url: `${API}/uploads?name=${encodeURIComponent(name)}`,
    headers: { cookie: [...v.cookies].map(([k, x]) => `${k}=${x}`).join('; '), 'x-csrf-token': crumb, 'content-type': contentType },
    payload: body,
  });
}

describe.each(DB_KINDS)('page editor on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  let dataDir: string;
  let pageId: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tessera-editor-'));
    t = await testApp(kind, { DATA_DIR: dataDir, RATE_LIMIT_STORE: 'memory' });
    owner = await signIn(t.app, OWNER.email, OWNER.password);
    const res = await owner.send('POST', '/api/config/pages', { title: 'Workshop days' });
    expect(res.statusCode).toBe(201);
    pageId = res.json().id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists pages with their status; the seeded demo page is published and renders from its blocks', async () => {
    const res = await owner.get(`${API}/pages`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const demo = body.pages.find((p: { urlId: string }) => p.urlId === DEMO_PAGE_URL_ID);
    expect(demo).toMatchObject({ status: 'published', statusLabel: 'Published', version: 1, hasUnpublishedChanges: false });
    expect(body.pages.find((p: { id: string }) => p.id === pageId)).toMatchObject({ version: 0 });
    expect(body.products.length).toBeGreaterThan(0);
    expect(body.forms.length).toBeGreaterThan(0);
    const html = (await new Visitor(t.app).get(`/${DEMO_PAGE_URL_ID}`)).body;
    expect(html).toContain('Made slowly, in the studio');
    expect(html).toContain('Good tools, good wood, and time.');
    expect(html).toContain('<svg class="chart-svg"');
    expect(html).toContain('<details class="accordion-item">');
    expect(html).toContain('class="fe-grid"');
  });

  it('creates pages with a clean url, refusing a bad or taken one', async () => {
    const made = await owner.send('POST', `${API}/pages`, { title: 'Open Studio' });
    expect(made.statusCode).toBe(201);
    expect(made.json().page).toMatchObject({
      title: 'Open Studio',
      urlId: 'open-studio',
      version: 0,
      status: 'draft',
      statusLabel: 'Draft',
    });
    // Not on the public site until its first layout is published; the owner's preview shows it.
    expect((await new Visitor(t.app).get('/open-studio')).statusCode).toBe(404);
    expect((await owner.get('/open-studio?preview=draft')).statusCode).toBe(200);
    const first = layoutWith([createBlock(BlockType.QUOTE, { ...ids, data: { text: 'Opening soon' } })]);
    expect((await owner.send('POST', `${API}/pages/${made.json().page.id}/publish`, { version: 0, layout: first })).statusCode).toBe(200);
    expect((await new Visitor(t.app).get('/open-studio')).body).toContain('Opening soon');
    expect((await owner.send('POST', `${API}/pages`, { title: 'Open Studio' })).json().page.urlId).toBe('open-studio-1');
    const bad = await owner.send('POST', `${API}/pages`, { title: 'X', urlId: 'Not a url!' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(pm.notValidPageUrl('Not a url!'));
    const taken = await owner.send('POST', `${API}/pages`, { title: 'X', urlId: 'open-studio' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('This page already exists');
    expect((await owner.send('POST', `${API}/pages`, { title: 'X', urlId: 'uploads' })).statusCode).toBe(409);
    expect((await owner.send('POST', `${API}/pages`, { title: ' ' })).statusCode).toBe(400);
  });

  it('saves a draft, previews it for owners only, publishes it, and visitors then see it', async () => {
    const before = await owner.get(`${API}/pages/${pageId}`);
    expect(before.json()).toMatchObject({ page: { version: 0 }, layout: { format: 1, sections: [] }, published: null });
    const layout = layoutWith([
      createBlock(BlockType.HTML, {
        ...ids,
        data: { html: '<h2>Open days</h2><p>Join us <script>alert(1)</script><a href="javascript:alert(1)">here</a>.</p>' },
      }),
      createBlock(BlockType.BUTTON, { ...ids, data: { label: 'Book a place', link: '/contact' } }),
    ]);
    const saved = await owner.send('PUT', `${API}/pages/${pageId}/draft`, { version: 0, layout });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().page).toMatchObject({ version: 1, status: 'draft', statusLabel: 'Draft', hasUnpublishedChanges: true });

    const visitor = new Visitor(t.app);
    const page = (await visitor.get('/workshop-days')).body;
    expect(page).not.toContain('Open days');
    expect((await visitor.get('/workshop-days?preview=draft')).body).not.toContain('Open days');
    const preview = (await owner.get('/workshop-days?preview=draft')).body;
    expect(preview).toContain('<h2>Open days</h2>');

    const published = await owner.send('POST', `${API}/pages/${pageId}/publish`, { version: 1 });
    expect(published.statusCode).toBe(200);
    expect(published.json().page).toMatchObject({ version: 2, status: 'published', hasUnpublishedChanges: false });
    const live = (await visitor.get('/workshop-days')).body;
    expect(live).toContain('<h2>Open days</h2>');
    expect(live).toContain('Book a place');
    // Rich text is cleaned: no script, no javascript: link.
    expect(live).not.toContain('<script>alert(1)');
    expect(live).not.toContain('javascript:alert');
  });

  it('refuses a save with a stale version (two owners editing): 409 with a clear message, nothing overwritten', async () => {
    const first = (await owner.get(`${API}/pages/${pageId}`)).json();
    const other = await signIn(t.app, OWNER.email, OWNER.password);
    const mine = layoutWith([createBlock(BlockType.QUOTE, { ...ids, data: { text: 'Mine' } })]);
    const theirs = layoutWith([createBlock(BlockType.QUOTE, { ...ids, data: { text: 'Theirs' } })]);
    const a = await other.send('PUT', `${API}/pages/${pageId}/draft`, { version: first.page.version, layout: theirs });
    expect(a.statusCode).toBe(200);
    const b = await owner.send('PUT', `${API}/pages/${pageId}/draft`, { version: first.page.version, layout: mine });
    expect(b.statusCode).toBe(409);
    expect(b.json()).toMatchObject({ message: em.STALE_VERSION, currentVersion: first.page.version + 1 });
    const now = (await owner.get(`${API}/pages/${pageId}`)).json();
    expect(now.layout.sections[0].blocks[0].data.text).toBe('Theirs');
    // Publishing with the stale version is refused too.
    expect((await owner.send('POST', `${API}/pages/${pageId}/publish`, { version: first.page.version })).statusCode).toBe(409);

    // Two different saves at the same moment from the same version: exactly one wins.
    // (An identical save is a no-op that keeps the version, so both bodies differ from the stored draft.)
    const third = layoutWith([createBlock(BlockType.QUOTE, { ...ids, data: { text: 'Third' } })]);
    const [x, y] = await Promise.all([
      owner.send('PUT', `${API}/pages/${pageId}/draft`, { version: now.page.version, layout: mine }),
      other.send('PUT', `${API}/pages/${pageId}/draft`, { version: now.page.version, layout: third }),
    ]);
    expect([x.statusCode, y.statusCode].sort()).toEqual([200, 409]);
  });

  it('round trip: saved, reloaded and saved again is byte-for-byte the same stored text, and the version stays', async () => {
    const l = layoutWith([
      createBlock(BlockType.CHART_PIE, {
        ...ids,
        data: {
          title: 'Share',
          columns: ['Share'],
          rows: [
            { label: 'A', values: [2] },
            { label: 'B', values: [3] },
          ],
        },
      }),
      createBlock(BlockType.IMAGE_CARD, {
        ...ids,
        data: {
          assetUrl: '/demo-media/gallery-1.jpg',
          altText: 'Valley',
          originalSize: '1200x1200',
          title: 'Card',
          link: 'www.example.com',
        },
      }),
      createBlock(BlockType.TOCK, { ...ids, data: { anything: { nested: [1, 'two'] } } }),
    ]);
    const cur = (await owner.get(`${API}/pages/${pageId}`)).json();
    const s1 = await owner.send('PUT', `${API}/pages/${pageId}/draft`, { version: cur.page.version, layout: l });
    expect(s1.statusCode).toBe(200);
    const stored1 = (await t.database.db.select().from(schema.pageLayouts).where(eq(schema.pageLayouts.collectionId, pageId)))[0]!;
    const reloaded = (await owner.get(`${API}/pages/${pageId}`)).json();
    const s2 = await owner.send('PUT', `${API}/pages/${pageId}/draft`, { version: reloaded.page.version, layout: reloaded.layout });
    expect(s2.statusCode).toBe(200);
    expect(s2.json().page.version).toBe(s1.json().page.version);
    const stored2 = (await t.database.db.select().from(schema.pageLayouts).where(eq(schema.pageLayouts.collectionId, pageId)))[0]!;
    expect(stored2.draft).toBe(stored1.draft);
    expect(stored2.draft).toBe(serializeLayout(reloaded.layout));
    // The host-like link was stored as a full URL; the placeholder block kept its data.
    expect(reloaded.layout.sections[0].blocks[1].data.link).toBe('https://www.example.com');
    expect(reloaded.layout.sections[0].blocks[2]).toMatchObject({ type: BlockType.TOCK, data: { anything: { nested: [1, 'two'] } } });
  });

  it('answers bad layouts with the specs’ messages and saves nothing', async () => {
    const cur = (await owner.get(`${API}/pages/${pageId}`)).json();
    const bad = layoutWith([
      createBlock(BlockType.BUTTON, { ...ids, data: { label: 'Go', link: 'not a link' } }),
      createBlock(BlockType.BUTTON, { ...ids, data: { label: 'Page', link: '/bad page' } }),
      createBlock(BlockType.BUTTON, { ...ids, data: { label: 'Mail', link: 'mailto:nobody' } }),
    ]);
    const r1 = await owner.send('PUT', `${API}/pages/${pageId}/draft`, { version: cur.page.version, layout: bad });
    expect(r1.statusCode).toBe(400);
    const errors = r1.json().errors as Record<string, string>;
    expect(errors['sections.0.blocks.0.data.link']).toBe(pm.linksFormattedAs('https://www.example.com', 'www.example.com'));
    expect(errors['sections.0.blocks.1.data.link']).toBe(pm.notValidPageUrl('/bad page'));
    expect(errors['sections.0.blocks.2.data.link']).toBe(pm.ENTER_VALID_EMAIL);

    const chart = layoutWith([createBlock(BlockType.CHART_BAR, { ...ids, data: { columns: [], rows: [] } })]);
    const r2 = await owner.send('PUT', `${API}/pages/${pageId}/draft`, { version: cur.page.version, layout: chart });
    expect(r2.json()).toMatchObject({ message: pm.DATASET_NO_COLUMN });
    const noRows = layoutWith([createBlock(BlockType.CHART_LINE, { ...ids, data: { columns: ['A'], rows: [] } })]);
    expect((await owner.send('PUT', `${API}/pages/${pageId}/draft`, { version: cur.page.version, layout: noRows })).json().message).toBe(
      pm.DATASET_NO_ROW,
    );

    // 61 blocks: refused with the limit's message.
    const many = layoutWith(Array.from({ length: 60 }, () => createBlock(BlockType.SPACER, ids)));
    many.sections[0].blocks.push({ ...createBlock(BlockType.SPACER, ids) });
    const r3 = await owner.send('PUT', `${API}/pages/${pageId}/draft`, { version: cur.page.version, layout: many });
    expect(r3.statusCode).toBe(400);
    expect(r3.json().message).toBe(em.blockLimit(60));

    // 21 galleries, or 51 images in one gallery: refused with the photo-gallery limits' messages.
    const img = { assetUrl: '/demo-media/gallery-1.jpg', altText: 'Valley' };
    const galleries = layoutWith(Array.from({ length: 20 }, () => createBlock(BlockType.GALLERY, { ...ids, data: { images: [img] } })));
    galleries.sections[0].blocks.push(createBlock(BlockType.GALLERY, { ...ids, data: { images: [img] } }));
    const r7 = await owner.send('PUT', `${API}/pages/${pageId}/draft`, { version: cur.page.version, layout: galleries });
    expect(r7.statusCode).toBe(400);
    expect(r7.json().message).toBe(em.galleryLimit(20));
    const crowded = layoutWith([createBlock(BlockType.GALLERY, { ...ids, data: { images: Array.from({ length: 51 }, () => img) } })]);
    const r8 = await owner.send('POST', `${API}/pages/${pageId}/publish`, { version: cur.page.version, layout: crowded });
    expect(r8.statusCode).toBe(400);
    expect(r8.json().errors['sections.0.blocks.0.data.images']).toBe(em.galleryImageLimit(50));

    const r4 = await owner.send('PUT', `${API}/pages/${pageId}/draft`, { version: cur.page.version, layout: 'nope' });
    expect(r4.statusCode).toBe(400);
    const r5 = await owner.send('PUT', `${API}/pages/${pageId}/draft`, { layout: emptyLayout() });
    expect(r5.statusCode).toBe(400);

    const after = (await owner.get(`${API}/pages/${pageId}`)).json();
    expect(after.page.version).toBe(cur.page.version);
    expect(after.layout).toEqual(cur.layout);
    // A chart with missing data saves, with the warning.
    const gaps = layoutWith([
      createBlock(BlockType.CHART_BAR, { ...ids, data: { columns: ['A', 'B'], rows: [{ label: 'x', values: [1] }] } }),
    ]);
    const r6 = await owner.send('PUT', `${API}/pages/${pageId}/draft`, { version: cur.page.version, layout: gaps });
    expect(r6.statusCode).toBe(200);
    expect(Object.values(r6.json().warnings)).toContain(pm.DATASET_MISSING_DATA);
    expect((await owner.get(`${API}/pages/nope`)).statusCode).toBe(404);
  });

  it('draws slideshow and slider gallery blocks at the default slider aspect ratio (50: half as high as wide)', async () => {
    const made = await owner.send('POST', `${API}/pages`, { title: 'Slides' });
    expect(made.statusCode).toBe(201);
    const img = { assetUrl: '/demo-media/gallery-1.jpg', altText: 'Valley' };
    const slideshow = createBlock(BlockType.GALLERY_SLIDESHOW, { ...ids, data: { images: [img, img] } });
    const slider = createBlock(BlockType.GALLERY_CAROUSEL, { ...ids, data: { images: [img, img] } });
    const grid = createBlock(BlockType.GALLERY_GRID, { ...ids, data: { images: [img] } });
    const layout = layoutWith([slideshow, slider, grid]);
    expect((await owner.send('POST', `${API}/pages/${made.json().page.id}/publish`, { version: 0, layout })).statusCode).toBe(200);
    const html = (await new Visitor(t.app).get(`/${made.json().page.urlId}`)).body;
    const styles = (design: string) =>
      [...html.matchAll(new RegExp(`class="gallery gallery--${design}[^"]*" style="([^"]*)"`, 'g'))].map((m) => m[1]);
    expect(styles('slideshow')).toHaveLength(1);
    expect(styles('slideshow')[0]).toContain('--gallery-slider-ratio:100 / 50');
    expect(styles('slider')[0]).toContain('--gallery-slider-ratio:100 / 50');
    // The theme sizes both carousels from that ratio.
    const css = (await new Visitor(t.app).get('/theme/site.css')).body;
    expect(css).toContain('.gallery--slideshow .gallery__slide img{aspect-ratio:var(--gallery-slider-ratio,2)');
    expect(css).toContain('.gallery--slider .gallery__slide img{aspect-ratio:var(--gallery-slider-ratio,2)');
  });

  it('schedules publishing, publishes when due, and hides a private page', async () => {
    const cur = (await owner.get(`${API}/pages/${pageId}`)).json();
    const l = layoutWith([createBlock(BlockType.QUOTE, { ...ids, data: { text: 'Scheduled words' } })]);
    const past = await owner.send('POST', `${API}/pages/${pageId}/schedule`, {
      version: cur.page.version,
      publishAt: new Date(Date.now() - 60_000).toISOString(),
      layout: l,
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe(em.SCHEDULE_IN_PAST);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const s = await owner.send('POST', `${API}/pages/${pageId}/schedule`, { version: cur.page.version, publishAt: at, layout: l });
    expect(s.statusCode).toBe(200);
    expect(s.json().page).toMatchObject({ status: 'scheduled', statusLabel: 'Scheduled', publishAt: at });
    const visitor = new Visitor(t.app);
    expect((await visitor.get('/workshop-days')).body).not.toContain('Scheduled words');
    await t.database.db.execute(sql`UPDATE page_layouts SET publish_at = now() - interval '1 minute' WHERE collection_id = ${pageId}`);
    expect((await visitor.get('/workshop-days')).body).toContain('Scheduled words');
    const after = (await owner.get(`${API}/pages/${pageId}`)).json();
    expect(after.page).toMatchObject({ status: 'published', publishAt: null });

    const review = await owner.send('PUT', `${API}/pages/${pageId}/draft`, {
      version: after.page.version,
      layout: after.layout,
      status: 'needs-review',
    });
    expect(review.json().page).toMatchObject({ status: 'needs-review', statusLabel: 'Needs Review' });
    const priv = await owner.send('PUT', `${API}/pages/${pageId}/draft`, {
      version: review.json().page.version,
      layout: after.layout,
      status: 'private',
    });
    expect(priv.json().page).toMatchObject({ status: 'private', statusLabel: 'Private' });
    expect((await visitor.get('/workshop-days')).statusCode).toBe(404);
    expect((await owner.get('/workshop-days?preview=draft')).body).toContain('Scheduled words');
    const bad = await owner.send('PUT', `${API}/pages/${pageId}/draft`, {
      version: priv.json().page.version,
      layout: after.layout,
      status: 'published',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('saves only the dirty style paths, checks them, refuses stale versions, and applies them as CSS variables', async () => {
    const g = await owner.get(`${API}/styles`);
    expect(g.json().version).toBe(0);
    // Until styles are saved, pages are drawn by the theme alone.
    expect((await new Visitor(t.app).get('/journal')).body).not.toContain('ts-site-styles');
    const styles = g.json().styles;
    const palette = { ...styles.colors.palette, accent: '#aa3300' };
    const themes = styles.colors.themes.map((th: { id: string }) => (th.id === 'accent' ? { ...th, background: '#aa3300' } : th));
    const p = await owner.send('PUT', `${API}/styles`, { version: 0, changes: { 'colors.palette': palette, 'colors.themes': themes } });
    expect(p.statusCode).toBe(200);
    expect(p.json()).toMatchObject({ version: 1, styles: { colors: { palette: { accent: '#aa3300' } }, fonts: styles.fonts } });
    const stale = await owner.send('PUT', `${API}/styles`, { version: 0, changes: { 'fonts.activeThemeId': 'modern' } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(em.STYLES_STALE_VERSION);
    const unknown = await owner.send('PUT', `${API}/styles`, { version: 1, changes: { 'colors.secret': 1 } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(pm.notExpectedOption('colors.secret'));
    const injection = await owner.send('PUT', `${API}/styles`, {
      version: 1,
      changes: {
        'fonts.usageCategories': { ...styles.fonts.usageCategories, body: { family: 'x;}body{display:none', weight: 400, size: 1 } },
      },
    });
    expect(injection.statusCode).toBe(400);
    // Saved styles reach every page: fonts by usage category as CSS variables.
    const journal = (await new Visitor(t.app).get('/journal')).body;
    expect(journal).toContain('<style id="ts-site-styles">:root{--ts-font-headings:');
    expect(journal).toContain('body{font-family:var(--ts-font-body)}');
    const html = (await new Visitor(t.app).get(`/${DEMO_PAGE_URL_ID}`)).body;
    // The accent theme's dark background gets white text (the dark-colour test).
    expect(html).toContain('.ts-theme-accent{--ts-bg:#aa3300;--ts-text:#ffffff;');
    expect(html).toContain('.ts-theme-white{--ts-bg:#ffffff;--ts-text:#1f1d1a;');
  });

  it('takes image and file uploads with size and type checks, makes size variants, renames and deletes', async () => {
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const ok = await upload(t.app, owner, 'Blue square.png', png, 'image/png');
    expect(ok.statusCode).toBe(201);
    const up = ok.json().upload;
    expect(up).toMatchObject({
      name: 'Blue square.png',
      kind: 'image',
      status: 'ready',
      originalSize: '640x480',
      contentType: 'image/png',
      error: null,
    });
    const original = await t.app.inject({ method: 'GET', url: up.url });
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('image/png');
    const small = await t.app.inject({ method: 'GET', url: `${up.url}?format=100w`, headers: { accept: 'image/webp' } });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-type']).toBe('image/webp');
    expect((await sharp(small.rawPayload).metadata()).width).toBe(100);

    const pdf = await upload(t.app, owner, 'menu.pdf', Buffer.from('%PDF-1.4\n%%EOF\n'), 'application/pdf');
    expect(pdf.statusCode).toBe(201);
    expect(pdf.json().upload).toMatchObject({ kind: 'file', status: 'ready' });

    const big = await upload(t.app, owner, 'huge.png', Buffer.concat([png, Buffer.alloc(10_000_001)]), 'image/png');
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe(pm.fileTooLarge('10 MB'));
    const hugeFile = await upload(t.app, owner, 'film.mp4', Buffer.alloc(20_000_001), 'video/mp4');
    expect(hugeFile.statusCode).toBe(413);
    expect(hugeFile.json().message).toBe(pm.fileTooLarge('20 MB'));
    const exe = await upload(t.app, owner, 'tool.exe', Buffer.from('MZ....'));
    expect(exe.statusCode).toBe(415);
    expect(exe.json().message).toBe(pm.FILE_NOT_SUPPORTED);
    const fake = await upload(t.app, owner, 'fake.jpg', Buffer.from('<svg onload=alert(1)>'), 'image/jpeg');
    expect(fake.statusCode).toBe(415);
    const broken = await upload(t.app, owner, 'broken.png', Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 7)]), 'image/png');
    expect(broken.statusCode).toBe(422);
    expect(broken.json()).toMatchObject({
      message: edm.FILE_PROCESSING_FAILED,
      upload: { status: 'failed', error: edm.FILE_PROCESSING_FAILED },
    });
    expect((await t.app.inject({ method: 'GET', url: broken.json().upload.url })).statusCode).toBe(404);
    const noName = await upload(t.app, owner, '', png, 'image/png');
    expect(noName.json().message).toBe(pm.ENTER_FILE_NAME);

    const list = (await owner.get(`${API}/uploads`)).json().uploads as Array<{ id: string; status: string }>;
    expect(list.map((u) => u.status).sort()).toEqual(['failed', 'ready', 'ready']);

    const rename = await owner.send('PUT', `${API}/uploads/${up.id}`, { name: 'Sky.png' });
    expect(rename.json().upload.name).toBe('Sky.png');
    const blank = await owner.send('PUT', `${API}/uploads/${up.id}`, { name: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe(pm.ENTER_FILE_NAME);
    const missing = await owner.send('PUT', `${API}/uploads/nope`, { name: 'x.png' });
    expect(missing.json()).toMatchObject({ message: edm.RENAME_PROBLEM, title: edm.RENAME_TITLE });

    expect((await owner.send('DELETE', `${API}/uploads/${up.id}`)).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: up.url })).statusCode).toBe(404);
  });

  it('checks roles and the crumb', async () => {
    const owners = new OwnerService(t.database);
    const mk = async (role: number, email: string) => {
      await owners.create({ websiteId: t.seed.websiteId, email, password: PW, role });
      return signIn(t.app, email, PW);
    };
    const drafter = await mk(Role.DRAFT_EDITOR, 'drafter@example.com');
    const viewer = await mk(Role.VIEWER, 'viewer@example.com');
    const cur = (await drafter.get(`${API}/pages/${pageId}`)).json();
    const l = layoutWith([createBlock(BlockType.QUOTE, { ...ids, data: { text: 'By the draft editor' } })]);
    const saved = await drafter.send('PUT', `${API}/pages/${pageId}/draft`, { version: cur.page.version, layout: l });
    expect(saved.statusCode).toBe(200);
    expect((await drafter.send('POST', `${API}/pages/${pageId}/publish`, { version: saved.json().page.version })).statusCode).toBe(403);
    expect((await drafter.send('PUT', `${API}/styles`, { version: 1, changes: {} })).statusCode).toBe(403);
    expect((await viewer.get(`${API}/pages`)).statusCode).toBe(403);
    expect((await new Visitor(t.app).get(`${API}/pages`)).statusCode).toBe(401);
    const noCrumb = await owner.send(
      'PUT',
      `${API}/pages/${pageId}/draft`,
      { version: saved.json().page.version, layout: l },
      { crumb: false },
    );
    expect(noCrumb.statusCode).toBe(403);
    const audit = await rows<{ action: string }>(t.database.db, sql`SELECT action FROM audit_log WHERE entity = 'page' ORDER BY id`);
    expect(audit.map((a) => a.action)).toContain('page.publish');
  });
});
