import { mkdtempSync, cpSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { APP_KINDS, testDatabase } from '../../helpers/db.js';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/config.js';
import { seedDemo } from '../../../src/server/seed.js';
import { galleryOptions, safeLink } from '../../../src/server/site-context/context.js';
import { DEFAULT_SLIDER_ASPECT_RATIO, GALLERY_DEFAULTS } from '../../../src/core/constants.js';

describe.each(APP_KINDS)('site pages on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const json = async (url: string) => {
    const res = await new Visitor(t.app).get(`${url}${url.includes('?') ? '&' : '?'}format=json`);
    return { status: res.statusCode, ctx: res.json() };
  };

  it('serves every demo page type with its title, status and page type', async () => {
    const v = new Visitor(t.app);
    const cases: Array<[string, number, RegExp, number]> = [
      ['/', 200, /<title>Fernhill Supply Co\.<\/title>/, 1],
      ['/journal', 200, /<title>Journal — Fernhill Supply Co\.<\/title>/, 1],
      ['/journal/how-we-choose-our-linen', 200, /<title>How we choose our linen — /, 50],
      ['/events', 200, /<title>Events — /, 1],
      ['/events/saturday-workshop-open-day', 200, /<title>Saturday workshop open day — /, 50],
      ['/gallery', 200, /<title>Gallery — /, 1],
      ['/about', 200, /<title>About — /, 2],
      ['/more', 200, /<title>More — /, 1],
      ['/shipping-and-returns', 200, /<title>Shipping and returns — /, 2],
      ['/search?q=coffee', 200, /<title>Search: coffee — /, 102],
      ['/members', 403, /<title>Members — /, 106],
      ['/no-such-page', 404, /<title>Page not found — /, 100],
    ];
    for (const [url, status, title, pageType] of cases) {
      const res = await v.get(url);
      expect(res.statusCode, url).toBe(status);
      expect(res.body, url).toMatch(title);
      expect(res.body, url).toContain(`data-page-type="${pageType}"`);
      expect((await json(url)).ctx.pageType, url).toBe(pageType);
    }
  });

  it('builds the JSON context themes expect: website, collection, items, pagination, navigation', async () => {
    const { ctx } = await json('/journal');
    expect(ctx.website.siteTitle).toBe('Fernhill Supply Co.');
    expect(ctx.collection).toMatchObject({ urlId: 'journal', fullUrl: '/journal', typeName: 'blog' });
    expect(ctx.items.length).toBe(6);
    expect(ctx.pagination).toMatchObject({ currentPage: 1, nextPage: false, prevPage: false });
    const nav = ctx.navigation;
    expect(nav.mainNav.map((l: { title: string }) => l.title)).toEqual([
      'Shop',
      'Journal',
      'Events',
      'Gallery',
      'About',
      'Contact',
      'More',
    ]);
    expect(nav.mainNav.find((l: { title: string }) => l.title === 'Journal').active).toBe(true);
    const more = nav.mainNav.find((l: { title: string }) => l.title === 'More');
    expect(more.children.map((c: { title: string; external: boolean }) => [c.title, c.external])).toEqual([
      ['Questions', false],
      ['Our makers on Instagram', true],
    ]);
    expect(nav._hidden.map((l: { title: string }) => l.title)).toEqual(['Shipping and returns']);
    expect(nav._memberareas[0]).toMatchObject({ title: 'Members', memberAreaId: 'fernhill-members', fullUrl: '/members' });
    // Posts: newest first, excerpts, author, comment rule.
    const first = ctx.items[0];
    expect(first.title).toBe('Our workshop is now open on Saturdays');
    expect(first.author.displayName).toBe('Maya Ortega');
    const linen = ctx.items.find((i: { urlId: string }) => i.urlId === 'how-we-choose-our-linen');
    expect(linen).toMatchObject({ publicCommentCount: 2, showComments: true, commentLinkText: '2' });
  });

  it('keeps the product structuredContent, variant and image fields of the specs', async () => {
    const { ctx } = await json('/shop/p/linen-camp-shirt');
    const sc = ctx.item.structuredContent;
    expect(sc.productType).toBe(1);
    expect(sc.variantOptionOrdering).toEqual(['Size', 'Color']);
    expect(sc.variants).toHaveLength(6);
    expect(sc.variants[0]).toMatchObject({
      sku: 'SHIRT-S-SAND',
      attributes: { Size: 'S', Color: 'Sand' },
      priceMoney: { currency: 'USD', value: '6800' },
      qtyInStock: 4,
      unlimited: false,
    });
    expect(ctx.item).toMatchObject({
      assetUrl: '/demo-media/linen-shirt.jpg',
      originalSize: '1200x1200',
      mediaFocalPoint: { x: 0.5, y: 0.5 },
    });
    expect(ctx.item.image).toMatchObject({ width: 1200, height: 1200, fetchpriority: 'high', loading: 'eager' });
    expect(ctx.item.image.srcset.split(', ').map((s: string) => s.split(' ')[1])).toEqual([
      '100w',
      '300w',
      '500w',
      '750w',
      '1000w',
      '1500w',
      '2500w',
    ]);
  });

  it('filters by tag and category, paginates, and keeps the filter in page links', async () => {
    const tagged = await json('/journal?tag=makers');
    expect(tagged.ctx.items.map((i: { urlId: string }) => i.urlId).sort()).toEqual(['how-we-choose-our-linen', 'podcast-episode-1-makers']);
    expect(tagged.ctx.filter).toMatchObject({ tag: 'makers', active: true });
    const cat = await json('/journal?category=Guides');
    expect(cat.ctx.items.map((i: { urlId: string }) => i.urlId).sort()).toEqual(['a-better-morning-cup', 'caring-for-walnut']);
    expect(cat.ctx.categories.map((c: { name: string }) => c.name)).toEqual(['Guides', 'News', 'Stories']);
    // A page past the last is not found (no empty, indexable list: test/integration/seo/http-seo.test.ts).
    expect((await new Visitor(t.app).get('/journal?page=2')).statusCode).toBe(404);
    const html = await new Visitor(t.app).get('/journal?tag=coffee');
    expect(html.body).toContain('A better morning cup');
    expect(html.body).not.toContain('How we choose our linen</a>');
    expect(html.body).toContain('Show all posts');
  });

  it('renders folders as an index, redirects, or hides them by behaviour', async () => {
    const v = new Visitor(t.app);
    const index = await v.get('/more');
    expect(index.body).toContain('Questions');
    expect(index.body).toContain('href="https://www.instagram.com/"');
    const more = t.seed.collectionIds.more;
    const { schema } = await import('../../../src/db/index.js');
    const { eq } = await import('drizzle-orm');
    await t.database.db
      .update(schema.collections)
      .set({ settings: { folderBehavior: 2 } })
      .where(eq(schema.collections.id, more));
    const redirect = await v.get('/more');
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe('/faq');
    await t.database.db
      .update(schema.collections)
      .set({ settings: { folderBehavior: 3 } })
      .where(eq(schema.collections.id, more));
    expect((await v.get('/more')).statusCode).toBe(404);
    await t.database.db
      .update(schema.collections)
      .set({ settings: { folderBehavior: 1 } })
      .where(eq(schema.collections.id, more));
  });

  it('lists upcoming and past events with calendar links in UTC compact dates and an .ics file', async () => {
    const up = await json('/events');
    expect(up.ctx.items.map((i: { urlId: string }) => i.urlId)).toEqual(['saturday-workshop-open-day', 'pour-over-tasting-evening']);
    const past = await json('/events?view=past');
    expect(past.ctx.items.map((i: { urlId: string }) => i.urlId)).toEqual(['winter-makers-market']);
    const page = await new Visitor(t.app).get('/events/saturday-workshop-open-day');
    const ev = (await json('/events/saturday-workshop-open-day')).ctx.item;
    const compact = (ms: number) =>
      new Date(ms)
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d{3}/, '');
    expect(page.body).toContain(`dates=${compact(ev.startDate)}/${compact(ev.endDate)}`);
    expect(page.body).toContain('location=1120%20SE%20Division%20St%2C%20Portland%2C%20OR%2097202%2C%20United%20States');
    expect(page.body).toContain('Fernhill Workshop');
    const ics = await new Visitor(t.app).get('/events/saturday-workshop-open-day?format=ics');
    expect(ics.headers['content-type']).toContain('text/calendar');
    expect(ics.body).toContain(`DTSTART:${compact(ev.startDate)}`);
    expect(ics.body).toContain('SUMMARY:Saturday workshop open day');
  });

  it('applies the comment rules, share buttons, time-since wording, audio and video blocks', async () => {
    const v = new Visitor(t.app);
    const post = await v.get('/journal/how-we-choose-our-linen');
    expect(post.body).toContain('Love the transparency.');
    expect(post.body).toMatch(/Comments <span class="comments__count">\(2\)<\/span>/);
    expect(post.body).toContain('about a month ago');
    expect(post.body).toContain('https://www.facebook.com/sharer/sharer.php?u=');
    const list = await v.get('/journal');
    expect(list.body).toContain('>No Comment(s)</a>');
    expect(list.body).toMatch(/aria-label="2 comments">2<\/a>/);
    const old = await v.get('/journal/caring-for-walnut');
    expect(old.body).toContain('about a year ago');
    const audio = await v.get('/journal/podcast-episode-1-makers');
    expect(audio.body).toMatch(/<audio controls preload="none" src="\/demo-media\/chime.wav">/);
    const video = await v.get('/journal/bike-tune-up-in-two-minutes');
    expect(video.body).toContain('Play video on Example Video');
    // Comments off for the site: none shown.
    const { schema } = await import('../../../src/db/index.js');
    const site = (await t.database.db.select().from(schema.websites))[0]!;
    await t.database.db.update(schema.websites).set({ settings: { ...site.settings, commentsEnabled: false } });
    t.app.services.websites.invalidate();
    const off = await v.get('/journal/how-we-choose-our-linen');
    expect(off.body).not.toContain('Love the transparency.');
    await t.database.db.update(schema.websites).set({ settings: site.settings });
    t.app.services.websites.invalidate();
  });

  it('puts the stored header and footer code into every public page', async () => {
    const { schema } = await import('../../../src/db/index.js');
    const site = (await t.database.db.select().from(schema.websites))[0]!;
    await t.database.db.update(schema.websites).set({
      settings: {
        ...site.settings,
        codeInjection: { header: '<meta name="x-owner-header" content="1">', footer: '<script>window.__ownerFooter=1</script>' },
      },
    });
    t.app.services.websites.invalidate();
    const v = new Visitor(t.app);
    for (const url of ['/', '/journal', '/shop/p/gift-card', '/search?q=linen', '/no-such-page']) {
      const res = await v.get(url);
      const head = res.body.slice(0, res.body.indexOf('</head>'));
      expect(head, url).toContain('<meta name="x-owner-header" content="1">');
      // With the response's CSP nonce (plugins/csp.ts).
      expect(res.body.slice(res.body.indexOf('</footer>')), url).toMatch(
        /<script nonce="[A-Za-z0-9+/=]+">window\.__ownerFooter=1<\/script>/,
      );
    }
    await t.database.db.update(schema.websites).set({ settings: site.settings });
    t.app.services.websites.invalidate();
  });

  it('renders the gallery block with its options, and escapes hostile titles', async () => {
    const res = await new Visitor(t.app).get('/gallery');
    expect(res.body).toContain('data-island="Gallery"');
    expect(res.body).toContain('gallery--grid');
    expect(res.body).toContain('--gallery-per-row:3');
    expect(res.body).toMatch(/aria-label="Open The valley at dawn in a larger view"/);
    const { schema } = await import('../../../src/db/index.js');
    const { eq } = await import('drizzle-orm');
    await t.database.db.update(schema.items).set({ title: '<script>alert(1)</script>' }).where(eq(schema.items.urlId, 'blue-ridge'));
    const hostile = await new Visitor(t.app).get('/gallery');
    expect(hostile.body).not.toContain('<script>alert(1)</script>');
    const search = await new Visitor(t.app).get('/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(search.body).not.toContain('<script>alert(1)</script>');
    await t.database.db.update(schema.items).set({ title: 'Blue ridge' }).where(eq(schema.items.urlId, 'blue-ridge'));
  });
});

describe('navigation links', () => {
  it('keeps only http(s), mailto and site-relative external links', () => {
    expect(safeLink('https://example.com/a')).toBe('https://example.com/a');
    expect(safeLink('/faq')).toBe('/faq');
    expect(safeLink('mailto:hi@example.com')).toBe('mailto:hi@example.com');
    expect(safeLink('javascript:alert(1)')).toBe('#');
    expect(safeLink('//evil.example')).toBe('#');
    expect(safeLink(undefined)).toBe('#');
  });
});

describe('gallery options', () => {
  it('defaults every option of the gallery table and clamps the ranges', () => {
    const d = galleryOptions({});
    expect(d).toMatchObject({ ...GALLERY_DEFAULTS, aspectRatioValue: 1 });
    const c = galleryOptions({
      'autoplay-duration': 99,
      'thumbnail-strip-height': -5,
      'thumbnail-strip-margin': 61,
      'thumbnails-per-row': 0,
      padding: 51,
      'max-width': 20,
      design: 'carousel',
      'aspect-ratio': 'anamorphic-widescreen',
    });
    expect(c).toMatchObject({
      autoplayDuration: 10,
      thumbnailStripHeight: 0,
      thumbnailStripMargin: 60,
      thumbnailsPerRow: 1,
      padding: 50,
      maxWidth: 100,
      design: 'grid',
      aspectRatio: 'anamorphic-widescreen',
      aspectRatioValue: 2.4,
    });
    expect(galleryOptions({ 'autoplay-duration': 0 }).autoplayDuration).toBe(1);
    // A slider with no ratio set is half as high as wide (default slider aspect ratio 50).
    expect(d.sliderAspectRatio).toBe(DEFAULT_SLIDER_ASPECT_RATIO);
    expect(DEFAULT_SLIDER_ASPECT_RATIO).toBe(50);
    expect(galleryOptions({ 'slider-aspect-ratio': 75 }).sliderAspectRatio).toBe(75);
    expect(galleryOptions({ 'slider-aspect-ratio': 'tall' }).sliderAspectRatio).toBe(50);
    expect(galleryOptions({ 'slider-aspect-ratio': 5000 }).sliderAspectRatio).toBe(200);
  });
});

describe('a theme with a broken template', () => {
  it('still serves pages, and the log names the file, line and column', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-theme-'));
    cpSync('themes/default', dir, { recursive: true });
    writeFileSync(
      join(dir, 'collections/blog.list'),
      '<h1>{collection.title|html}</h1>\n<p>ok</p>\n{.section items}{title|no-such-formatter}\n',
    );
    const lines: Array<Record<string, unknown>> = [];
    const stream = { write: (s: string) => lines.push(JSON.parse(s)) };
    const database = await testDatabase('pglite');
    await seedDemo(database);
    const app = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'error', THEME_DIR: dir }),
      database,
      logger: { level: 'error', stream } as unknown as Record<string, unknown>,
    });
    try {
      await app.ready();
      const res = await app.inject({ method: 'GET', url: '/journal' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<h1>Journal</h1>');
      expect(res.body).toContain('<p>ok</p>');
      const logged = lines.find((l) => l.file === 'collections/blog.list');
      expect(logged).toBeDefined();
      expect(logged!.line).toBe(3);
      expect(typeof logged!.column).toBe('number');
      expect(String(logged!.msg)).toMatch(/collections\/blog\.list:3:\d+/);
      expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('picks up a changed template without a restart in development', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-theme-'));
    cpSync('themes/default', dir, { recursive: true });
    const database = await testDatabase('pglite');
    await seedDemo(database);
    const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', THEME_DIR: dir, DEV: '1' }), database, logger: false });
    try {
      await app.ready();
      expect((await app.inject({ method: 'GET', url: '/about' })).body).not.toContain('Edited about page');
      writeFileSync(join(dir, 'collections/page.list'), '<h1>Edited about page: {collection.title|html}</h1>');
      // The theme watcher sees the write shortly after; the page is asked until it shows the new template.
      const body = await vi.waitFor(
        async () => {
          const b = (await app.inject({ method: 'GET', url: '/about' })).body;
          expect(b).toContain('Edited about page');
          return b;
        },
        { timeout: 5000, interval: 100 },
      );
      expect(body).toContain('Edited about page: About');
    } finally {
      await app.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
