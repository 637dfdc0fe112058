/**
 * Squarespace 7.0 developer templates dropped into THEME_DIR (server/themes): every demo page type renders
 * through each of the test templates (test/data/dev-templates, one per feature) with no 5xx and no literal
 * `<squarespace:` text; regions, navigation, folder navigation, block fields, queries, categories, the
 * context adapter, assets, scripts, /site.css with tweaks, and the owner's switch and tweak calls.
 */
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, otherInstance, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';

const TEMPLATES = resolve('test/data/dev-templates');
const FEATURES = ['multi-region', 'folder-nav', 'block-fields', 'query', 'tweaks'] as const;

/** One URL of every page type of the demo store. */
const PAGES: Array<[string, number]> = [
  ['/', 200],
  ['/shop', 200],
  ['/shop/p/linen-camp-shirt', 200],
  ['/journal', 200],
  ['/journal?category=Guides', 200],
  ['/journal/how-we-choose-our-linen', 200],
  ['/events', 200],
  ['/events/saturday-workshop-open-day', 200],
  ['/gallery', 200],
  ['/about', 200],
  ['/contact', 200],
  ['/more', 200],
  ['/faq', 200],
  ['/shipping-and-returns', 200],
  ['/search?q=coffee', 200],
  ['/cart', 200],
  ['/members', 403],
  ['/no-such-page', 404],
];

describe.each(APP_KINDS)('developer templates on %s', (kind) => {
  for (const feature of FEATURES) {
    describe(feature, () => {
      let t: TestApp;
      beforeAll(async () => {
        t = await testApp(kind, { THEME_DIR: join(TEMPLATES, feature), RATE_LIMIT_STORE: 'memory' });
      });
      afterAll(async () => {
        await t?.close();
      });

      it('renders every demo page type with no 5xx and no platform tag text', async () => {
        const v = new Visitor(t.app);
        for (const [url, status] of PAGES) {
          const res = await v.get(url);
          expect(res.statusCode, url).toBe(status);
          expect(res.body, url).not.toContain('<squarespace:');
          expect(res.body, url).toContain('<link rel="stylesheet" href="/site.css?v=');
          expect(res.body, url).toMatch(/<body id="(collection|item|page)-[^"]+" class="[^"]*"/);
          expect(res.body, url).toContain(
            feature === 'multi-region' ? '<nav class="tr-nav" aria-label="Site">' : '<nav aria-label="Site">',
          );
        }
      });
    });
  }

  it('has no readme page with Tessera’s own theme', async () => {
    const t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    try {
      expect((await new Visitor(t.app).get('/readme')).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  }, 120_000);

  describe('multi-region', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await testApp(kind, { THEME_DIR: join(TEMPLATES, 'multi-region'), RATE_LIMIT_STORE: 'memory' });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('joins the layout regions in order and fills the platform keys', async () => {
      const res = await new Visitor(t.app).get('/journal');
      const body = res.body;
      const header = body.indexOf('data-region="header"');
      const site = body.indexOf('data-region="site"');
      const footer = body.indexOf('data-region="footer"');
      expect(header).toBeGreaterThan(0);
      expect(site).toBeGreaterThan(header);
      expect(footer).toBeGreaterThan(site);
      expect(body).toMatch(/<title>Journal — Fernhill Supply Co\.<\/title>/);
      expect(body).toMatch(/<body id="collection-[^"]+" class="collection-type-blog collection-[^ ]+ view-list collection-layout-default/);
      expect(body).toContain('data-template="blog.list"');
      // Tessera's own stylesheet is left out of pages the template draws itself.
      expect(body).not.toContain('href="/theme/site.css"');
      // Strings from strings/en-US.json, the cart classes, and the script tag with the page's nonce.
      expect(body).toContain('>Basket</a>');
      expect(body).toContain('tr-cart cart-empty');
      expect(body).toContain('Rendered by a test template');
      expect(body).toMatch(/<script src="\/scripts\/site\.js" nonce="[^"]+" defer><\/script>/);
      expect(body).toMatch(/<script src="\/tessera\/image-loader\.js" nonce="[^"]+" defer><\/script>/);
    });

    it('marks the active navigation item, folder children and external links', async () => {
      const body = (await new Visitor(t.app).get('/journal')).body;
      expect(body).toContain('<li class="tr-nav__item is-active">\n<a href="/journal">Journal</a>');
      expect(body).toContain('<li class="tr-nav__item">\n<a href="/shop">Shop</a>');
      expect(body).toContain('<a href="https://www.instagram.com/">Our makers on Instagram</a>');
      const faq = (await new Visitor(t.app).get('/faq')).body;
      expect(faq).toContain('<li class="tr-nav__item is-active is-folder-active">\n<a href="/more">More</a>');
      expect(faq).toContain('<li class="is-active"><a href="/faq">Questions</a></li>');
    });

    it('gives list items image-meta with data-src, and item pages their neighbours', async () => {
      const list = (await new Visitor(t.app).get('/shop')).body;
      expect(list).toContain('data-template="products.list"');
      expect(list).toMatch(
        /<img class="tr-product__img" data-src="[^"]+" data-image="[^"]+" data-image-dimensions="\d+x\d+" data-image-focal-point="[\d.]+,[\d.]+"/,
      );
      const post = (await new Visitor(t.app).get('/journal/how-we-choose-our-linen')).body;
      expect(post).toContain('data-template="blog.item"');
      expect(post).toMatch(/<a class="tr-(prev|next)" href="\/journal\/[a-z-]+">/);
      const json = (await new Visitor(t.app).get('/journal/how-we-choose-our-linen?format=json')).json();
      expect(json.item.mainImageId === undefined || json.item.mainImageId === json.item.id).toBe(true);
    });

    it('falls back to Tessera’s templates for page types the template has no file for', async () => {
      const product = (await new Visitor(t.app).get('/shop/p/linen-camp-shirt')).body;
      // No products.item in the folder: Tessera's product page, inside the template's regions, with Tessera's stylesheet.
      expect(product).toContain('data-region="header"');
      // template.conf declares the product-page layout ('pdp'): product pages use it, lists do not.
      expect(product).toContain('data-region="pdp"');
      expect(product).toContain('collection-layout-pdp');
      expect(product).not.toContain('data-region="site"');
      const shop = (await new Visitor(t.app).get('/shop')).body;
      expect(shop).toContain('data-region="site"');
      expect(shop).not.toContain('data-region="pdp"');
      expect(product).toContain('href="/theme/site.css"');
      expect(product).toContain('tessera-fallback-page');
      const events = (await new Visitor(t.app).get('/events')).body;
      expect(events).toContain('data-region="footer"');
      expect(events).toContain('tessera-fallback-page');
    });

    it('serves the template’s readme page (pages/readme.page) at /readme, inside its layout', async () => {
      const res = await new Visitor(t.app).get('/readme');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('data-template="readme.page"');
      expect(res.body).toContain('About the Test Regions template');
      expect(res.body).toContain('Made for Fernhill Supply Co.');
      expect(res.body).toContain('data-region="header"');
      expect(res.body).toMatch(/<title>Readme — Fernhill Supply Co\.<\/title>/);
      // Other static pages of the folder are not served by name.
      expect((await new Visitor(t.app).get('/other')).statusCode).toBe(404);
    });

    it('serves the template’s assets, scripts and compiled site.css, and nothing outside them', async () => {
      const v = new Visitor(t.app);
      const mark = await v.get('/assets/mark.svg');
      expect(mark.statusCode).toBe(200);
      expect(mark.headers['content-type']).toBe('image/svg+xml');
      const js = await v.get('/scripts/site.js');
      expect(js.statusCode).toBe(200);
      expect(js.body).toContain('data-template-script');
      for (const path of [
        '/assets/..%2Ftemplate.conf',
        '/scripts/../template.conf',
        '/assets/%2e%2e/template.conf',
        '/scripts/..%5Ctemplate.conf',
      ]) {
        const res = await v.get(path);
        expect([400, 404], path).toContain(res.statusCode);
        expect(res.body, path).not.toContain('Tessera tests');
      }
      expect((await v.get('/assets/missing.png')).statusCode).toBe(404);
      const css = await v.get('/site.css');
      expect(css.statusCode).toBe(200);
      expect(css.headers['content-type']).toContain('text/css');
      // Both stylesheets in template.conf's order, the import inlined, tweak defaults applied, LESS functions run.
      expect(css.body).toContain('border-bottom: 3px solid #2a6f4e;');
      expect(css.body).toContain('max-width: 960px;');
      expect(css.body).toMatch(/\.tr-main \{\n\s+max-width: 960px;\n\s+margin: 0 auto;\n\s+padding: 1rem;/);
      expect(css.body).toContain('color: #1c4a34;');
      expect(css.body.indexOf('.tr-header')).toBeLessThan(css.body.indexOf('.tr-main'));
    });

    it('lets the owner choose a layout per page from template.conf’s layouts', async () => {
      const owner = new Visitor(t.app);
      expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
      const state = (await owner.get('/api/themes')).json();
      expect(state.layouts).toEqual([
        { id: 'default', name: 'Default' },
        { id: 'wide', name: 'Wide' },
        { id: 'pdp', name: 'Product page' },
      ]);
      const journal = state.pages.find((p: { title: string }) => p.title === 'Journal');
      expect(journal.layout).toBe('default');
      expect((await owner.send('PUT', '/api/themes/layout', { collectionId: journal.id, layout: 'narrow' })).json().message).toBe(
        'Choose one of the template’s layouts.',
      );
      expect((await owner.send('PUT', '/api/themes/layout', { collectionId: 'nope', layout: 'wide' })).json().message).toBe(
        'Choose a page.',
      );
      const saved = await owner.send('PUT', '/api/themes/layout', { collectionId: journal.id, layout: 'wide' });
      expect(saved.statusCode).toBe(200);
      expect(saved.json().pages.find((p: { id: string }) => p.id === journal.id).layout).toBe('wide');
      const body = (await new Visitor(t.app).get('/journal')).body;
      expect(body).toContain('data-region="wide"');
      expect(body).toContain('collection-layout-wide');
      expect((await new Visitor(t.app).get('/shop')).body).toContain('data-region="site"');
    });

    it('passes the owner’s site settings through the documented context', async () => {
      const owner = new Visitor(t.app);
      expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
      const site = await t.app.services.websites.get();
      await t.app.services.websites.updateSettings(site.id, { siteTagLine: 'Made slowly', contactEmail: 'hello@example.com' });
      const body = (await new Visitor(t.app).get('/journal?cachebust=1')).body;
      expect(body).toContain('<p class="tr-tagline">Made slowly</p>');
      const json = (await new Visitor(t.app).get('/journal?format=json')).json();
      expect(json.websiteSettings.contactEmail).toBe('hello@example.com');
    });
  });

  describe('folder-nav, block-fields and query', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await testApp(kind, { THEME_DIR: join(TEMPLATES, 'folder-nav'), RATE_LIMIT_STORE: 'memory' });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('shows the folder navigation on pages inside a folder only, with the active page', async () => {
      const faq = (await new Visitor(t.app).get('/faq')).body;
      expect(faq).toContain('<p class="fn-folder">More</p>');
      expect(faq).toContain('<li class="fn-item fn-active"><a href="/faq">Questions</a></li>');
      expect(faq).toContain('<li class="fn-item"><a href="https://www.instagram.com/">Our makers on Instagram</a></li>');
      const journal = (await new Visitor(t.app).get('/journal')).body;
      expect(journal).not.toContain('fn-submenu');
      const folder = (await new Visitor(t.app).get('/more')).body;
      expect(folder).toContain('data-template="folder.list"');
    });

    it('switches to the block-field template in /config’s call and renders stored block fields with the layout markup', async () => {
      const owner = new Visitor(t.app);
      expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
      const state = (await owner.get('/api/themes')).json();
      expect(state.theme).toBe('folder-nav');
      expect(state.themes.map((x: { id: string }) => x.id)).toEqual([
        'tessera',
        'block-fields',
        'folder-nav',
        'multi-region',
        'query',
        'tweaks',
      ]);
      expect((await owner.send('PUT', '/api/themes', { theme: 'no-such-theme' })).json().message).toBe('That theme is not installed.');
      expect((await owner.send('PUT', '/api/themes', { theme: 'block-fields' })).statusCode).toBe(200);
      const saved = await owner.send('PUT', '/api/themes/block-fields', {
        field: 'footer-blocks',
        page: '*',
        html: '<p>Open daily</p><script>alert(1)</script>',
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.json().html).not.toContain('<script');
      expect((await owner.send('PUT', '/api/themes/block-fields', { field: 'bad id!', page: '*', html: '' })).json().message).toBe(
        'Choose a block field.',
      );
      const body = (await new Visitor(t.app).get('/about')).body;
      expect(body).toContain('data-template="page.list"');
      expect(body).toContain(
        '<div class="sqs-layout sqs-grid-12 columns-12" data-type="block-field" id="footer-blocks"><div class="row sqs-row"><div class="col sqs-col-12 span-12"><div class="sqs-block html-block sqs-block-html" data-block-type="2"><div class="sqs-block-content"><p>Open daily</p></div></div></div></div></div>',
      );
      expect(body).toContain('<div class="sqs-layout sqs-grid-4 columns-4 empty" data-type="block-field" id="sidebarBlocks"></div>');
      // A visitor cannot switch themes.
      expect((await new Visitor(t.app).send('PUT', '/api/themes', { theme: 'tessera' })).statusCode).toBe(401);
    });

    it('runs query tags with their limit, and category tags inline and with a template', async () => {
      const owner = new Visitor(t.app);
      expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
      expect((await owner.send('PUT', '/api/themes', { theme: 'query' })).statusCode).toBe(200);
      const body = (await new Visitor(t.app).get('/journal')).body;
      expect(body).not.toContain('<squarespace:');
      expect(body.match(/<li class="q-post">/g)?.length).toBe(2);
      expect(body).toContain('<p class="q-missing">none</p>');
      expect(body).toMatch(/<ul class="q-categories"><li><a href="\/journal\?category=[^"]+">/);
      expect(body).toMatch(/<p class="q-cat-block">[^<]+<\/p>/);
      expect(body).toMatch(/<p class="q-collection-cats">[^<]+<\/p>/);
      // The choice is stored: another instance (a restart) renders with it too.
      const other = await otherInstance(t, { THEME_DIR: join(TEMPLATES, 'folder-nav') });
      try {
        expect((await new Visitor(other.app).get('/journal')).body).toContain('<section class="q-blog" data-template="blog.list">');
      } finally {
        await other.close();
      }
      // Back to Tessera's own theme: its layout again.
      expect((await owner.send('PUT', '/api/themes', { theme: 'tessera' })).statusCode).toBe(200);
      const tessera = (await new Visitor(t.app).get('/journal')).body;
      expect(tessera).toContain('href="/theme/site.css"');
      expect(tessera).not.toContain('/site.css?v=');
      expect((await new Visitor(t.app).get('/site.css')).statusCode).toBe(404);
    });

    it('compiles tweaks: defaults, the owner’s values, body classes, and clear errors for bad values', async () => {
      const owner = new Visitor(t.app);
      expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
      const state = (await owner.send('PUT', '/api/themes', { theme: 'tweaks' })).json();
      expect(state.tweaks.map((x: { name: string; type: string; value: string }) => [x.name, x.type, x.value])).toEqual([
        ['headingColor', 'color', '#8a2be2'],
        ['bodyFont', 'font', 'Georgia, serif'],
        ['headerAlign', 'dropdown', 'Left'],
        ['showBorders', 'checkbox', 'true'],
        ['pagePadding', 'value', '24px'],
      ]);
      let css = (await new Visitor(t.app).get('/site.css')).body;
      expect(css).toContain('color: #8a2be2;');
      expect(css).toContain('padding: 24px;');
      let page = (await new Visitor(t.app).get('/about')).body;
      expect(page).toMatch(/class="[^"]*tweak-header-align-left tweak-show-borders/);
      const bad = await owner.send('PUT', '/api/themes', { tweaks: { headingColor: 'red;}body{display:none', pagePadding: '500' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('Choose a colour for Heading colour.');
      expect(bad.json().errors).toEqual({
        'tweaks.headingColor': 'Choose a colour for Heading colour.',
        'tweaks.pagePadding': 'Page padding must be between 0 and 80.',
      });
      const ok = await owner.send('PUT', '/api/themes', {
        tweaks: { headingColor: '#ff0000', headerAlign: 'Center', showBorders: false, pagePadding: '8' },
      });
      expect(ok.statusCode).toBe(200);
      css = (await new Visitor(t.app).get('/site.css')).body;
      expect(css).toContain('color: #ff0000;');
      expect(css).toContain('padding: 8px;');
      page = (await new Visitor(t.app).get('/about')).body;
      expect(page).toMatch(/class="[^"]*tweak-header-align-center/);
      expect(page).not.toContain('tweak-show-borders');
    });
  });
});
