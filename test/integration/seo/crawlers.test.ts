/**
 * Crawlers (issue #26): /robots.txt, /sitemap.xml (and its index past the address limit), the journal's
 * RSS 2.0 feed, the Merchant Center feed at /products.xml, the head tags of pages, and URL redirects (the
 * owner's imported rules and the automatic 301 after a product's url id changes). The XML is checked by a
 * real parser, against XML Schemas of the formats (test/data/xsd, validated by libxml2 through xmllint-wasm),
 * and small validators of the formats' required elements, written here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { seo as text } from '../../../src/core/messages.js';
import { xsdErrors } from '../../helpers/xsd.js';
import { eq } from 'drizzle-orm';
import { schema } from '../../../src/db/index.js';
import { addBlock, addSection, createBlock, emptyLayout, type OpResult, type PageLayout } from '../../../src/core/layout.js';
import { BlockType } from '../../../src/core/enums.js';

const ORIGIN = 'https://shop.example';
type Obj = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  parseAttributeValue: false,
  attributeNamePrefix: '@',
  isArray: (name) => ['url', 'sitemap', 'item', 'category', 'image:image', 'xhtml:link', 'g:additional_image_link'].includes(name),
});

/** Well-formed XML (a real parser), parsed. */
function parseXml(body: string): Obj {
  const valid = XMLValidator.validate(body);
  if (valid !== true) throw new Error(`not well-formed XML: ${JSON.stringify(valid.err)}`);
  return parser.parse(body) as Obj;
}

const W3C_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;
const RFC822 =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} (GMT|[+-]\d{4})$/;

/** sitemaps.org 0.9: <urlset> in the namespace, each <url> with one absolute <loc> (under 2,048 characters) and a W3C lastmod. */
async function validSitemap(
  body: string,
): Promise<Array<{ loc: string; lastmod: string; images: string[]; alternates: Array<{ hreflang: string; href: string }> }>> {
  expect(await xsdErrors(body, 'sitemap.xsd')).toEqual([]);
  const doc = parseXml(body);
  const set = doc.urlset as Obj;
  expect(set, 'a <urlset> root').toBeTruthy();
  expect(set['@xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
  const urls = (set.url ?? []) as Obj[];
  expect(urls.length).toBeLessThanOrEqual(50_000);
  return urls.map((u) => {
    const loc = String(u.loc);
    expect(loc.startsWith(`${ORIGIN}/`), loc).toBe(true);
    expect(loc.length).toBeLessThan(2048);
    expect(String(u.lastmod)).toMatch(W3C_DATE);
    for (const k of Object.keys(u)) expect(['loc', 'lastmod', 'changefreq', 'priority', 'image:image', 'xhtml:link'], k).toContain(k);
    const images = ((u['image:image'] ?? []) as Obj[]).map((i) => String(i['image:loc']));
    for (const i of images) expect(i).toMatch(/^https?:\/\//);
    const alternates = ((u['xhtml:link'] ?? []) as Obj[]).map((l) => ({ hreflang: String(l['@hreflang']), href: String(l['@href']) }));
    return { loc, lastmod: String(u.lastmod), images, alternates };
  });
}

/** RSS 2.0: <rss version="2.0"> with one <channel> holding title, link and description; each item a title or description. */
async function validRss(body: string): Promise<{ channel: Obj; items: Obj[] }> {
  expect(await xsdErrors(body, 'rss2.xsd')).toEqual([]);
  const doc = parseXml(body);
  const rss = doc.rss as Obj;
  expect(rss?.['@version']).toBe('2.0');
  const channel = rss.channel as Obj;
  for (const k of ['title', 'link', 'description']) expect(channel[k], `channel ${k}`).toBeTruthy();
  const items = (channel.item ?? []) as Obj[];
  for (const i of items) {
    expect(i.title ?? i.description).toBeTruthy();
    if (i.pubDate !== undefined) expect(String(i.pubDate)).toMatch(RFC822);
    const enc = i.enclosure as Obj | undefined;
    if (enc) for (const a of ['@url', '@length', '@type']) expect(enc[a], `enclosure ${a}`).toBeDefined();
  }
  return { channel, items };
}

/** Merchant Center: the g: namespace and, per item, the required attributes with their allowed values. */
async function validMerchantFeed(body: string): Promise<Obj[]> {
  expect(await xsdErrors(body, 'merchant-feed.xsd')).toEqual([]);
  const doc = parseXml(body);
  const rss = doc.rss as Obj;
  expect(rss['@xmlns:g']).toBe('http://base.google.com/ns/1.0');
  const items = ((rss.channel as Obj).item ?? []) as Obj[];
  for (const i of items) {
    for (const k of ['g:id', 'g:title', 'g:description', 'g:link', 'g:image_link', 'g:availability', 'g:price', 'g:brand'])
      expect(i[k], `${String(i['g:id'])} ${k}`).toBeTruthy();
    expect(['in_stock', 'out_of_stock', 'preorder', 'backorder']).toContain(i['g:availability']);
    expect(String(i['g:price'])).toMatch(/^\d+(\.\d{2})? [A-Z]{3}$/);
    if (i['g:sale_price'] !== undefined) expect(String(i['g:sale_price'])).toMatch(/^\d+(\.\d{2})? [A-Z]{3}$/);
    expect(String(i['g:link'])).toMatch(/^https:\/\/shop\.example\//);
    expect(String(i['g:image_link'])).toMatch(/^https?:\/\//);
    expect(String(i['g:id']).length).toBeLessThanOrEqual(50);
  }
  return items;
}

describe.each(APP_KINDS)('crawlers: sitemap, feeds, robots, head tags and redirects on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  let visitor: Visitor;
  let draftUrl: string;
  let ids: Record<string, string>;

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory', PUBLIC_URL: ORIGIN });
    ids = t.seed.collectionIds;
    owner = new Visitor(t.app);
    visitor = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
    // A draft post, a password-locked page (About) and the demo's member-only page (Members).
    const draft = await owner.send('POST', '/api/config/posts', {
      collectionId: ids.journal,
      title: 'Unfinished thoughts',
      body: '<p>Not yet.</p>',
      status: 'draft',
    });
    expect(draft.statusCode, draft.body).toBe(201);
    draftUrl = `/journal/${draft.json().urlId}`;
    expect((await owner.send('PUT', `/api/members/page-passwords/${ids.about}`, { password: 'green tea' })).statusCode).toBe(200);
  }, 90_000);
  afterAll(async () => {
    await t?.close();
  });

  const neverListed = (body: string) => {
    expect(body).not.toContain(draftUrl);
    expect(body).not.toContain('Unfinished thoughts');
    expect(body).not.toMatch(/\/about[<"?]/);
    expect(body).not.toMatch(/\/members[<"?/]/);
    expect(body).not.toContain('/config');
  };

  it('an editor page republished moves its sitemap lastmod to the publish time', async () => {
    let n = 0;
    const newId = (p: string) => `${p}s${++n}`;
    const must = (r: OpResult): PageLayout => {
      if (!r.ok) throw new Error(r.message);
      return r.layout;
    };
    const layout = (text: string) => {
      const l = must(addSection(emptyLayout(), 0, { newId }));
      return must(addBlock(l, l.sections[0].id, createBlock(BlockType.QUOTE, { newId, data: { text } })));
    };
    const made = await owner.send('POST', '/api/editor/pages', { title: 'Lastmod Page' });
    expect(made.statusCode, made.body).toBe(201);
    const page = made.json().page;
    const first = await owner.send('POST', `/api/editor/pages/${page.id}/publish`, { version: 0, layout: layout('First') });
    expect(first.statusCode, first.body).toBe(200);
    // Age the page, as if it was first published long ago.
    const old = new Date('2020-01-01T00:00:00Z');
    const db = t.app.database.db;
    await db.update(schema.collections).set({ updatedAt: old }).where(eq(schema.collections.id, page.id));
    await db.update(schema.pageLayouts).set({ publishedAt: old }).where(eq(schema.pageLayouts.collectionId, page.id));
    const before = Date.now() - 1000;
    const again = await owner.send('POST', `/api/editor/pages/${page.id}/publish`, {
      version: first.json().page.version,
      layout: layout('Second'),
    });
    expect(again.statusCode, again.body).toBe(200);
    const urls = await validSitemap((await visitor.get('/sitemap.xml')).body);
    const entry = urls.find((u) => u.loc === `${ORIGIN}/${page.urlId}`);
    expect(entry, 'the page is listed').toBeTruthy();
    expect(Date.parse(entry!.lastmod)).toBeGreaterThanOrEqual(before);
  });

  it('robots.txt disallows the owner, cart, checkout, account and API paths and names the sitemap from the public origin', async () => {
    const res = await visitor.get('/robots.txt', { host: 'evil.example' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    for (const p of ['/config', '/cart', '/checkout', '/account', '/api/']) expect(res.body).toContain(`Disallow: ${p}`);
    expect(res.body).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    expect(res.body).not.toContain('evil.example');
  });

  it('the owner edits robots.txt in /config; the sitemap line is still added', async () => {
    expect((await visitor.send('PUT', '/api/seo/robots-txt', { robotsTxt: 'User-agent: *\nDisallow: /' })).statusCode).toBe(401);
    const put = await owner.send('PUT', '/api/seo/robots-txt', { robotsTxt: 'User-agent: *\nDisallow: /private-stuff' });
    expect(put.statusCode, put.body).toBe(200);
    const res = await visitor.get('/robots.txt');
    expect(res.body).toContain('Disallow: /private-stuff');
    expect(res.body).not.toContain('Disallow: /cart');
    expect(res.body).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    expect((await owner.send('PUT', '/api/seo/robots-txt', { robotsTxt: 'x'.repeat(20_001) })).statusCode).toBe(400);
    await owner.send('PUT', '/api/seo/robots-txt', { robotsTxt: '' });
    expect((await visitor.get('/robots.txt')).body).toContain('Disallow: /checkout');
  });

  it('the sitemap validates and lists every public page, collection, item and product with images, never a draft, a locked or a member page', async () => {
    const res = await visitor.get('/sitemap.xml', { host: 'evil.example' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    const urls = await validSitemap(res.body);
    const locs = urls.map((u) => u.loc);
    expect(locs).toContain(`${ORIGIN}/`);
    expect(locs).not.toContain(`${ORIGIN}/shop`); // the home collection is listed as '/'
    for (const p of [
      '/journal',
      '/events',
      '/contact',
      '/faq',
      '/journal/how-we-choose-our-linen',
      '/shop/p/linen-camp-shirt',
      '/shop/p/merino-wool-throw',
    ])
      expect(locs).toContain(ORIGIN + p);
    const shirt = urls.find((u) => u.loc === `${ORIGIN}/shop/p/linen-camp-shirt`)!;
    expect(shirt.images.length).toBeGreaterThan(0);
    expect(shirt.alternates).toEqual([]);
    neverListed(res.body);
    expect(res.body).not.toContain('evil.example');
  });

  it('language alternates on a multilingual site, in the sitemap and the page head', async () => {
    expect((await owner.send('PUT', '/api/multilingual/languages', { languages: ['fr', 'de'] })).statusCode).toBe(200);
    try {
      const urls = await validSitemap((await visitor.get('/sitemap.xml')).body);
      const shirt = urls.find((u) => u.loc === `${ORIGIN}/shop/p/linen-camp-shirt`)!;
      expect(shirt.alternates.map((a) => a.hreflang)).toEqual(['en-US', 'fr', 'de', 'x-default']);
      expect(shirt.alternates.find((a) => a.hreflang === 'fr')!.href).toBe(`${ORIGIN}/shop/p/linen-camp-shirt?lang=fr`);
      const page = (await visitor.get('/shop/p/linen-camp-shirt')).body;
      expect(page).toContain(`<link rel="alternate" hreflang="fr" href="${ORIGIN}/shop/p/linen-camp-shirt?lang=fr">`);
      expect(page).toContain(`<link rel="alternate" hreflang="x-default" href="${ORIGIN}/shop/p/linen-camp-shirt">`);
      const fr = (await visitor.get('/shop/p/linen-camp-shirt?lang=fr&utm_source=x')).body;
      expect(fr).toContain(`<link rel="canonical" href="${ORIGIN}/shop/p/linen-camp-shirt?lang=fr">`);
      expect(fr).toContain(`<link rel="alternate" hreflang="de" href="${ORIGIN}/shop/p/linen-camp-shirt?lang=de">`);
      expect((await visitor.get('/shop/p/linen-camp-shirt?lang=xx')).body).toContain(
        `<link rel="canonical" href="${ORIGIN}/shop/p/linen-camp-shirt">`,
      );
    } finally {
      await owner.send('DELETE', '/api/multilingual/connection');
    }
    expect((await visitor.get('/shop/p/linen-camp-shirt')).body).not.toContain('hreflang');
  });

  it('past the address limit /sitemap.xml is a sitemap index of pages that each validate', async () => {
    const before = t.app.seo.maxUrlsPerSitemap;
    t.app.seo.maxUrlsPerSitemap = 5;
    try {
      const indexBody = (await visitor.get('/sitemap.xml')).body;
      expect(await xsdErrors(indexBody, 'sitemap.xsd')).toEqual([]);
      const index = parseXml(indexBody);
      const sm = index.sitemapindex as Obj;
      expect(sm['@xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
      const parts = (sm.sitemap as Obj[]).map((s) => {
        expect(String(s.lastmod)).toMatch(W3C_DATE);
        return String(s.loc);
      });
      expect(parts.length).toBeGreaterThan(2);
      const all: string[] = [];
      for (const loc of parts) {
        expect(loc.startsWith(`${ORIGIN}/sitemap.xml?page=`)).toBe(true);
        const res = await visitor.get(loc.slice(ORIGIN.length));
        expect(res.statusCode).toBe(200);
        const urls = await validSitemap(res.body);
        expect(urls.length).toBeLessThanOrEqual(5);
        neverListed(res.body);
        all.push(...urls.map((u) => u.loc));
      }
      expect(new Set(all).size).toBe(all.length);
      expect(all).toContain(`${ORIGIN}/shop/p/linen-camp-shirt`);
      expect((await visitor.get(`/sitemap.xml?page=${parts.length + 1}`)).statusCode).toBe(404);
      expect((await visitor.get('/sitemap.xml?page=x')).statusCode).toBe(400);
    } finally {
      t.app.seo.maxUrlsPerSitemap = before;
    }
  });

  it("the journal's RSS 2.0 feed validates, with absolute links, RFC 822 dates, authors, categories and an image enclosure", async () => {
    const res = await visitor.get('/journal?format=rss');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/rss\+xml/);
    const { channel, items } = await validRss(res.body);
    expect(channel.link).toBe(`${ORIGIN}/journal`);
    expect(items.length).toBeGreaterThan(2);
    for (const i of items) {
      expect(String(i.link)).toMatch(/^https:\/\/shop\.example\/journal\//);
      expect(i.guid).toBeTruthy();
      expect(String(i.pubDate)).toMatch(RFC822);
      expect(String(i.description)).not.toMatch(/(href|src)=["']\/(?!\/)/);
    }
    const linen = items.find((i) => String(i.link).endsWith('/journal/how-we-choose-our-linen'))!;
    expect(linen['dc:creator']).toBeTruthy();
    expect(((linen.enclosure as Obj)['@url'] as string).startsWith('http')).toBe(true);
    expect(items.some((i) => ((i.category ?? []) as unknown[]).length > 0)).toBe(true);
    neverListed(res.body);
    // Advertised on the journal's pages.
    const page = (await visitor.get('/journal')).body;
    expect(page).toContain(
      `<link rel="alternate" type="application/rss+xml" title="Journal — Fernhill Supply Co." href="${ORIGIN}/journal?format=rss">`,
    );
  });

  it('the Merchant Center feed validates: one entry per variant, grouped, with sale prices, brand and gtin/mpn when set', async () => {
    await t.database.exec(
      `UPDATE items SET structured_content = structured_content || '{"brand":"Fernhill","gtin":"00012345678905","mpn":"FH-THROW"}'::jsonb WHERE url_id = 'merino-wool-throw'`,
    );
    const res = await visitor.get('/products.xml', { host: 'evil.example' });
    expect(res.statusCode).toBe(200);
    const items = await validMerchantFeed(res.body);
    const shirts = items.filter((i) => String(i['g:link']) === `${ORIGIN}/shop/p/linen-camp-shirt`);
    expect(shirts.length).toBeGreaterThan(1);
    expect(new Set(shirts.map((i) => i['g:item_group_id'])).size).toBe(1);
    expect(shirts[0]!['g:item_group_id']).toBe(t.seed.productIds['linen-camp-shirt']);
    const ids = items.map((i) => i['g:id']);
    expect(new Set(ids).size).toBe(ids.length);
    const throws = items.filter((i) => String(i['g:link']).endsWith('/merino-wool-throw'));
    expect(throws[0]).toMatchObject({ 'g:brand': 'Fernhill', 'g:gtin': '00012345678905', 'g:mpn': 'FH-THROW' });
    expect(items.filter((i) => i['g:brand'] === 'Fernhill Supply Co.').length).toBeGreaterThan(0);
    expect(res.body).not.toContain('evil.example');
    neverListed(res.body);
  });

  it('head tags: absolute canonical without tracking parameters, pagination kept, Open Graph and Twitter cards, product and breadcrumb JSON-LD', async () => {
    const page = (await visitor.get('/shop/p/linen-camp-shirt?utm_source=news&gclid=abc&fbclid=x', { host: 'evil.example' })).body;
    expect(page).toContain(`<link rel="canonical" href="${ORIGIN}/shop/p/linen-camp-shirt">`);
    expect(page).toMatch(/<meta property="og:image" content="https:\/\/shop\.example\/[^"]+">/);
    expect(page).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(page).toMatch(/<meta name="twitter:image" content="https:\/\/shop\.example\//);
    expect(page).not.toContain('evil.example');
    expect(page).not.toContain('name="robots"');
    const lds = [...page.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Obj);
    const product = lds.find((l) => l['@type'] === 'Product')!;
    const offers = product.offers as Obj[];
    const variants = (await visitor.get('/shop/p/linen-camp-shirt?format=json')).json().item.structuredContent.variants as unknown[];
    expect(Array.isArray(offers) && offers.length).toBe(variants.length);
    for (const o of offers) {
      expect(o).toMatchObject({ '@type': 'Offer', priceCurrency: 'USD', url: `${ORIGIN}/shop/p/linen-camp-shirt` });
      expect(['https://schema.org/InStock', 'https://schema.org/OutOfStock']).toContain(o.availability);
    }
    const crumbs = lds.find((l) => l['@type'] === 'BreadcrumbList')!;
    expect((crumbs.itemListElement as Obj[]).map((e) => e.item)).toEqual([
      `${ORIGIN}/`,
      `${ORIGIN}/shop`,
      `${ORIGIN}/shop/p/linen-camp-shirt`,
    ]);
    // Pagination stays in the canonical address, the first page has none, other parameters go.
    expect((await visitor.get('/journal?page=2&utm_campaign=x')).body).toContain(`<link rel="canonical" href="${ORIGIN}/journal?page=2">`);
    expect((await visitor.get('/journal?page=1')).body).toContain(`<link rel="canonical" href="${ORIGIN}/journal">`);
    expect((await visitor.get('/shop')).body).toContain(`<link rel="canonical" href="${ORIGIN}/">`);
  });

  it('noindex on search results, lock screens and member pages', async () => {
    const robots = '<meta name="robots" content="noindex">';
    const search = await visitor.get('/search?q=linen');
    expect(search.body).toContain(robots);
    expect(search.headers['x-robots-tag']).toBe('noindex');
    const locked = await visitor.get('/about');
    expect(locked.body).toContain(robots);
    const members = await visitor.get('/members');
    expect(members.statusCode).toBe(403);
    expect(members.body).toContain(robots);
    // The owner sees the member page itself: still kept out of search engines.
    const own = await owner.get('/members');
    expect(own.statusCode).toBe(200);
    expect(own.body).toContain(robots);
    expect((await visitor.get('/journal')).body).not.toContain(robots);
    // A page the owner marked noindex: the tag on the page, and out of the sitemap.
    expect((await validSitemap((await visitor.get('/sitemap.xml')).body)).map((u) => u.loc)).toContain(`${ORIGIN}/contact`);
    const contact = (
      (await owner.get('/api/config/collections')).json().collections as Array<{
        id: string;
        urlId: string;
        title: string;
        version: number;
      }>
    ).find((c) => c.urlId === 'contact')!;
    const marked = await owner.send('PUT', `/api/config/collections/${contact.id}`, {
      version: contact.version,
      title: contact.title,
      noindex: true,
    });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json().noindex).toBe(true);
    try {
      expect((await visitor.get('/contact')).body).toContain(robots);
      expect((await validSitemap((await visitor.get('/sitemap.xml')).body)).map((u) => u.loc)).not.toContain(`${ORIGIN}/contact`);
    } finally {
      await owner.send('PUT', `/api/config/collections/${contact.id}`, {
        version: marked.json().version,
        title: contact.title,
        noindex: false,
      });
    }
  });

  it("a renamed product's old address answers 301 at the new one", async () => {
    const id = t.seed.productIds['ceramic-pour-over-set']!;
    const product = (await owner.get(`/api/config/products/${id}`)).json() as Obj;
    const saved = await owner.send('PUT', `/api/config/products/${id}`, { ...product, urlId: 'pour-over-kit' });
    expect(saved.statusCode, saved.body).toBe(200);
    const old = await visitor.get('/shop/p/ceramic-pour-over-set?utm_source=mail');
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe('/shop/p/pour-over-kit?utm_source=mail');
    expect((await visitor.get('/shop/p/pour-over-kit')).statusCode).toBe(200);
    const locs = (await validSitemap((await visitor.get('/sitemap.xml')).body)).map((u) => u.loc);
    expect(locs).toContain(`${ORIGIN}/shop/p/pour-over-kit`);
    expect(locs).not.toContain(`${ORIGIN}/shop/p/ceramic-pour-over-set`);
    // Renamed back: no loop, the first address is live again and the second one points at it.
    const again = (await owner.get(`/api/config/products/${id}`)).json() as Obj;
    expect((await owner.send('PUT', `/api/config/products/${id}`, { ...again, urlId: 'ceramic-pour-over-set' })).statusCode).toBe(200);
    expect((await visitor.get('/shop/p/ceramic-pour-over-set')).statusCode).toBe(200);
    const back = await visitor.get('/shop/p/pour-over-kit');
    expect(back.statusCode).toBe(301);
    expect(back.headers.location).toBe('/shop/p/ceramic-pour-over-set');
  });

  it('a renamed page moves with everything under it', async () => {
    const pages = (await owner.get('/api/config/collections')).json().collections as Array<{ id: string; urlId: string; version: number }>;
    const faq = pages.find((c) => c.urlId === 'faq')! as { id: string; urlId: string; version: number; title?: string };
    const renamed = await owner.send('PUT', `/api/config/collections/${faq.id}`, {
      version: faq.version,
      title: 'Questions',
      urlId: 'questions',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const old = await visitor.get('/faq');
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe('/questions');
    const sub = await visitor.get('/faq/anything');
    expect(sub.statusCode).toBe(301);
    expect(sub.headers.location).toBe('/questions/anything');
  });

  it('URL redirects imported as text: exact and wildcard rules, 301 and 302, invalid lines reported with their numbers', async () => {
    const bad = await owner.send('PUT', '/api/seo/url-redirects', {
      text: '/ok -> /fine 301\nno arrow here\n/a* /b -> /c\n/x -> /y 307\n',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(text.rulesInvalid(3));
    expect(bad.json().errors.text).toBe(
      [`Line 2: ${text.RULE_FORMAT}`, `Line 3: ${text.RULE_FORMAT}`, `Line 4: ${text.RULE_CODE}`].join('\n'),
    );
    expect(bad.json().lineErrors.map((e: { line: number }) => e.line)).toEqual([2, 3, 4]);
    expect((await visitor.get('/ok')).statusCode).toBe(404); // nothing saved
    const mappings = [
      '# moved in the spring',
      '/old-shop/* -> /shop/p/* 301',
      '/summer-sale -> /shop 302',
      '/blog -> /journal',
      '/journal -> /elsewhere 301',
    ].join('\n');
    const put = await owner.send('PUT', '/api/seo/url-redirects', { text: mappings });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().count).toBe(4);
    const wild = await visitor.get('/old-shop/linen-camp-shirt');
    expect(wild.statusCode).toBe(301);
    expect(wild.headers.location).toBe('/shop/p/linen-camp-shirt');
    const temp = await visitor.get('/Summer-Sale?ref=x');
    expect(temp.statusCode).toBe(302);
    expect(temp.headers.location).toBe('/shop?ref=x');
    // The chain /blog -> /journal -> /elsewhere was stored as one hop.
    expect((await visitor.get('/blog')).headers.location).toBe('/elsewhere');
    // A page that exists is served: rules apply only before the 404 page.
    expect((await visitor.get('/journal')).statusCode).toBe(200);
    expect((await visitor.get('/no-such-page')).statusCode).toBe(404);
    expect((await owner.get('/api/seo/url-redirects')).json().text).toContain('/old-shop/* -> /shop/p/* 301');
  });

  it('a redirect loop is refused with its path and nothing is saved; chains are stored flattened', async () => {
    expect((await owner.send('PUT', '/api/seo/url-redirects', { text: '/keep -> /journal' })).statusCode).toBe(200);
    for (const bad of ['/a -> /b\n/b -> /a', '# loop\n/x -> /y?q=1\n/y -> /z 302\n/Z -> /x']) {
      const res = await owner.send('PUT', '/api/seo/url-redirects', { text: bad });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors.text).toMatch(/^Line \d+: This redirect would loop: /);
    }
    const loop = await owner.send('PUT', '/api/seo/url-redirects', { text: '/a -> /b\n/b -> /a' });
    expect(loop.json().errors.text).toBe(`Line 1: ${text.ruleChainLoop(['/a', '/b', '/a'])}`);
    expect(text.ruleChainLoop(['/a', '/b', '/a'])).toBe('This redirect would loop: /a → /b → /a.');
    const three = await owner.send('PUT', '/api/seo/url-redirects', { text: '# loop\n/x -> /y?q=1\n/y -> /z 302\n/Z -> /x' });
    expect(three.json().lineErrors).toEqual([{ line: 2, message: text.ruleChainLoop(['/x', '/y', '/Z', '/x']) }]);
    // Nothing saved: the earlier rules still answer, the refused ones do not.
    expect((await visitor.get('/keep')).headers.location).toBe('/journal');
    expect((await visitor.get('/a')).statusCode).toBe(404);
    // Bad input is a clear 400, never a 500.
    for (const body of [{}, { text: 5 }, { text: '->' }, { text: '/only ->' }]) {
      expect((await owner.send('PUT', '/api/seo/url-redirects', body)).statusCode).toBe(400);
    }
    const chain = await owner.send('PUT', '/api/seo/url-redirects', { text: '/one -> /two?from=one\n/two -> /three 302\n/three -> /four' });
    expect(chain.statusCode, chain.body).toBe(200);
    expect(chain.json().text).toBe('/one -> /four?from=one 301\n/two -> /four 302\n/three -> /four 301');
    const hop = await visitor.get('/one');
    expect(hop.statusCode).toBe(301);
    expect(hop.headers.location).toBe('/four?from=one');
  });

  it('a page request reads the redirects from the site cache, not the database', async () => {
    expect(
      (await owner.send('PUT', '/api/seo/url-redirects', { text: '/blog -> /journal\n/old-shop/* -> /shop/p/* 301' })).statusCode,
    ).toBe(200);
    expect((await visitor.get('/blog')).statusCode).toBe(301);
    // Every statement the app sends from here, whichever driver (PGlite or a pg pool) carries it.
    const client = (t.database.db as unknown as { $client: { query: (...a: unknown[]) => unknown } }).$client;
    const query = client.query;
    const seen: string[] = [];
    client.query = function (this: unknown, ...a: unknown[]) {
      const q = a[0] as string | { text?: string };
      seen.push(typeof q === 'string' ? q : String(q?.text ?? ''));
      return query.apply(this, a);
    };
    try {
      for (let i = 0; i < 3; i++) expect((await visitor.get('/old-shop/merino-wool-throw')).statusCode).toBe(301);
    } finally {
      client.query = query;
    }
    expect(seen.filter((q) => q.includes('url_redirects'))).toEqual([]);
    // A new rule moves the content version: the next request sees it.
    await owner.send('PUT', '/api/seo/url-redirects', { text: '/blog -> /events 302' });
    expect((await visitor.get('/blog')).headers.location).toBe('/events');
  });
});
