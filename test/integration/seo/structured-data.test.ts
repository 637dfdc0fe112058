/**
 * Structured data and the shopping feed (issue 42): every page type of the demo shop carries JSON-LD that
 * passes the checker of Google's documented properties (test/helpers/structured-data.ts): the store and
 * website on the home page, a ProductGroup of variant Products each at its own `?variant=` address, a
 * Product, BlogPosting and Event; `?variant=` preselects that variant on the page (price, option, image)
 * and keys the page cache; /products.xml gives apparel variants every attribute Merchant Center requires,
 * each at its own address and price, with shipping, and leaves out services, gift cards and products the
 * owner switches out. On both databases: the shipping options' content-version trigger is a migration's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { DB_KINDS } from '../../helpers/db.js';
import { checkJsonLd, pageJsonLd } from '../../helpers/structured-data.js';
import { xsdErrors } from '../../helpers/xsd.js';

const ORIGIN = 'https://shop.example';
type Obj = Record<string, unknown>;
const SHIRT = '/shop/p/linen-camp-shirt';

const parser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  isArray: (name) => ['item', 'g:additional_image_link', 'g:shipping'].includes(name),
});

/** Merchant Center's required attributes for an apparel variant (one of brand, gtin or mpn as its identifier). */
const APPAREL_REQUIRED = [
  'g:id',
  'g:title',
  'g:description',
  'g:link',
  'g:image_link',
  'g:availability',
  'g:price',
  'g:color',
  'g:size',
  'g:item_group_id',
];

describe.each(DB_KINDS)('structured data and the shopping feed on %s', (kind) => {
  let t: TestApp;
  let visitor: Visitor;
  let owner: Visitor;

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory', PUBLIC_URL: ORIGIN });
    visitor = new Visitor(t.app);
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
    // The business: address, logo and contact (the demo leaves them blank); the shirt gets a second photo
    // that the Navy variants show.
    await t.database.exec(
      `UPDATE websites SET settings = settings || '{"location":{"addressTitle":"Fernhill","line1":"2200 NE Alberta St","line2":"","city":"Portland","region":"OR","postalCode":"97211","country":"US"},"logoImageUrl":"/demo-media/linen-shirt.jpg","contactEmail":"hello@fernhill.example","contactPhoneNumber":"+1 503 555 0100"}'::jsonb`,
    );
    await t.database.exec(
      `UPDATE items SET assets = assets || '[{"assetUrl":"/demo-media/pour-over.jpg","altText":"The shirt in navy","originalSize":"1200x1200","mediaFocalPoint":{"x":0.5,"y":0.5}}]'::jsonb WHERE url_id = 'linen-camp-shirt'`,
    );
    await t.database.exec(
      `UPDATE product_variants SET image_url = '/demo-media/pour-over.jpg', weight_grams = 300 WHERE sku LIKE 'SHIRT-%-NAVY'`,
    );
    // The demo's shipping (the test app leaves it out): a rest-of-the-world zone with a $5 flat rate.
    await t.database.exec(
      `INSERT INTO shipping_zones (id, website_id, name, rest_of_world, rates)
       SELECT 'zone-world', id, 'Rest of the world', true, '[{"id":"ship-standard","name":"Standard shipping","kind":"flat","priceCents":500}]'::jsonb FROM websites`,
    );
  }, 90_000);
  afterAll(async () => {
    await t?.close();
  });

  /** A page's JSON-LD, each block passing the checker; returns the blocks and the warnings. */
  async function checkedPage(path: string, status = 200): Promise<{ blocks: Obj[]; warnings: string[]; html: string }> {
    const res = await visitor.get(path);
    expect(res.statusCode, path).toBe(status);
    const blocks = pageJsonLd(res.body);
    const report = checkJsonLd(blocks);
    expect(report.errors, path).toEqual([]);
    return { blocks, warnings: report.warnings, html: res.body };
  }
  const ofType = (blocks: Obj[], type: string) => blocks.find((b) => b['@type'] === type);

  it('every page type carries JSON-LD that passes the checker', async () => {
    const pages = [
      '/',
      '/journal',
      '/journal/how-we-choose-our-linen',
      '/events',
      '/events/saturday-workshop-open-day',
      '/gallery',
      '/contact',
      '/more',
      SHIRT,
      '/shop/p/ceramic-pour-over-set',
      '/shop/p/houseplant-field-guide',
      '/shop/p/bike-tune-up',
      '/shop/p/gift-card',
      '/search?q=linen',
      '/cart',
    ];
    const seen = new Set<string>();
    for (const p of pages) {
      const { blocks } = await checkedPage(p);
      for (const b of blocks) seen.add(String(b['@type']));
    }
    await checkedPage('/no-such-page', 404);
    for (const type of ['OnlineStore', 'WebSite', 'BreadcrumbList', 'ProductGroup', 'Product', 'BlogPosting', 'Event'])
      expect([...seen]).toContain(type);
  });

  it('the home page names the store with its address, logo and contact, and the website with its search', async () => {
    const { blocks, warnings } = await checkedPage('/');
    expect(ofType(blocks, 'OnlineStore')).toMatchObject({
      name: 'Fernhill Supply Co.',
      url: `${ORIGIN}/`,
      logo: `${ORIGIN}/demo-media/linen-shirt.jpg`,
      address: {
        '@type': 'PostalAddress',
        streetAddress: '2200 NE Alberta St',
        addressLocality: 'Portland',
        addressRegion: 'OR',
        postalCode: '97211',
        addressCountry: 'US',
      },
      email: 'hello@fernhill.example',
      telephone: '+1 503 555 0100',
      contactPoint: { '@type': 'ContactPoint', email: 'hello@fernhill.example' },
    });
    expect(ofType(blocks, 'WebSite')).toMatchObject({
      url: `${ORIGIN}/`,
      potentialAction: { '@type': 'SearchAction', target: { urlTemplate: `${ORIGIN}/search?q={search_term_string}` } },
    });
    expect(warnings).toEqual([]);
    // Only the home page says so.
    expect(ofType((await checkedPage('/journal')).blocks, 'OnlineStore')).toBeUndefined();
  });

  it('a product with variants is a ProductGroup: brand, every image, one Product per variant with its options, own address, price and shipping', async () => {
    const { blocks, warnings } = await checkedPage(SHIRT);
    const group = ofType(blocks, 'ProductGroup')!;
    expect(group).toMatchObject({
      name: 'Linen Camp Shirt',
      productGroupID: t.seed.productIds['linen-camp-shirt'],
      brand: { '@type': 'Brand', name: 'Fernhill Supply Co.' },
      image: [`${ORIGIN}/demo-media/linen-shirt.jpg`, `${ORIGIN}/demo-media/pour-over.jpg`],
      url: `${ORIGIN}${SHIRT}`,
    });
    expect(group.variesBy).toEqual(['https://schema.org/size', 'https://schema.org/color']);
    const variants = group.hasVariant as Obj[];
    const json = (await visitor.get(`${SHIRT}?format=json`)).json().item.structuredContent.variants as Array<{ id: string; sku: string }>;
    expect(variants.map((v) => v.sku)).toEqual(json.map((v) => v.sku));
    const navyM = variants.find((v) => v.sku === 'SHIRT-M-NAVY')!;
    const id = json.find((v) => v.sku === 'SHIRT-M-NAVY')!.id;
    expect(navyM).toMatchObject({
      '@type': 'Product',
      name: 'Linen Camp Shirt - M / Navy',
      size: 'M',
      color: 'Navy',
      url: `${ORIGIN}${SHIRT}?variant=${id}`,
      offers: {
        '@type': 'Offer',
        url: `${ORIGIN}${SHIRT}?variant=${id}`,
        price: '72.00',
        priceCurrency: 'USD',
        availability: 'https://schema.org/InStock',
        shippingDetails: [
          { shippingRate: { value: '5.00', currency: 'USD' }, shippingDestination: { '@type': 'DefinedRegion', addressCountry: 'US' } },
        ],
      },
    });
    // The variant's own photo comes first.
    expect((navyM.image as string[])[0]).toBe(`${ORIGIN}/demo-media/pour-over.jpg`);
    expect(variants.find((v) => v.sku === 'SHIRT-L-NAVY')!.offers).toMatchObject({ availability: 'https://schema.org/OutOfStock' });
    // No return policy is kept for the store (so none is claimed), and the demo has no barcodes.
    expect(
      warnings.every((w) => /hasMerchantReturnPolicy|gtin or mpn/.test(w)),
      warnings.join('\n'),
    ).toBe(true);
    // A new shipping rate shows at once (the shipping zones move the content version).
    await t.database.exec(`UPDATE shipping_zones SET rates = jsonb_set(rates, '{0,priceCents}', '650') WHERE id = 'zone-world'`);
    const again = ofType((await checkedPage(SHIRT)).blocks, 'ProductGroup')!;
    expect(((again.hasVariant as Obj[])[0]!.offers as { shippingDetails: Obj[] }).shippingDetails[0]).toMatchObject({
      shippingRate: { value: '6.50' },
    });
    await t.database.exec(`UPDATE shipping_zones SET rates = jsonb_set(rates, '{0,priceCents}', '500') WHERE id = 'zone-world'`);
  });

  it('a one-variant product is a Product; digital goods and services have no shipping; a gtin the owner set is given', async () => {
    await t.database.exec(
      `UPDATE items SET structured_content = structured_content || '{"gtin":"00012345678905","brand":"Kiln & Co"}'::jsonb WHERE url_id = 'ceramic-pour-over-set'`,
    );
    const set = ofType((await checkedPage('/shop/p/ceramic-pour-over-set')).blocks, 'Product')!;
    expect(set).toMatchObject({
      gtin: '00012345678905',
      brand: { name: 'Kiln & Co' },
      offers: { '@type': 'Offer', url: `${ORIGIN}/shop/p/ceramic-pour-over-set` },
    });
    expect((set.offers as Obj).shippingDetails).toHaveLength(1);
    const book = ofType((await checkedPage('/shop/p/houseplant-field-guide')).blocks, 'Product')!;
    expect((book.offers as Obj).shippingDetails).toBeUndefined();
    const service = ofType((await checkedPage('/shop/p/bike-tune-up')).blocks, 'Product')!;
    expect((service.offers as Obj).shippingDetails).toBeUndefined();
  });

  it('a blog post is a BlogPosting and an event an Event, with what Google recommends', async () => {
    const post = await checkedPage('/journal/how-we-choose-our-linen');
    expect(ofType(post.blocks, 'BlogPosting')).toMatchObject({
      headline: 'How we choose our linen',
      url: `${ORIGIN}/journal/how-we-choose-our-linen`,
      author: { name: expect.any(String) },
      datePublished: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      dateModified: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      image: [expect.stringMatching(/^https:\/\/shop\.example\//)],
    });
    expect(post.warnings).toEqual([]);
    const ev = await checkedPage('/events/saturday-workshop-open-day');
    expect(ofType(ev.blocks, 'Event')).toMatchObject({
      name: 'Saturday workshop open day',
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      location: { '@type': 'Place', name: 'Fernhill Workshop', address: { streetAddress: '1120 SE Division St' } },
    });
    expect(ev.warnings).toEqual([]);
  });

  it('text an owner wrote cannot end the script element', async () => {
    await t.database.exec(`UPDATE items SET title = 'Shirt </script><script>alert(1)</script>' WHERE url_id = 'merino-wool-throw'`);
    const { blocks, html } = await checkedPage('/shop/p/merino-wool-throw');
    expect(html).not.toContain('<script>alert(1)');
    expect(ofType(blocks, 'ProductGroup')!.name).toBe('Shirt </script><script>alert(1)</script>');
    await t.database.exec(`UPDATE items SET title = 'Merino Wool Throw' WHERE url_id = 'merino-wool-throw'`);
  });

  it('?variant= opens the product with that variant chosen: price, option and image; an unknown id changes nothing', async () => {
    const json = (await visitor.get(`${SHIRT}?format=json`)).json().item.structuredContent.variants as Array<{ id: string; sku: string }>;
    const navy = json.find((v) => v.sku === 'SHIRT-S-NAVY')!.id;
    const sand = json.find((v) => v.sku === 'SHIRT-S-SAND')!.id;
    const plain = (await visitor.get(SHIRT)).body;
    expect(plain).toContain('from $68.00');
    const chosen = await visitor.get(`${SHIRT}?variant=${navy}`);
    expect(chosen.statusCode).toBe(200);
    const price = /data-product-price-for="[^"]+">([\s\S]*?)<\/div>/.exec(chosen.body)![1]!;
    expect(price).toContain('$72.00');
    expect(price).not.toContain('from');
    expect(chosen.body).toMatch(/<option value="Navy" selected="">Navy<\/option>/);
    expect(chosen.body).toMatch(/<option value="S" selected="">S<\/option>/);
    expect(chosen.body).toMatch(/class="product-detail__image"[^>]*src="[^"]*pour-over/);
    // The canonical address stays the product's.
    expect(chosen.body).toContain(`<link rel="canonical" href="${ORIGIN}${SHIRT}">`);
    // The page cache keys on the variant: another variant (asked right after) shows its own price.
    const other = (await visitor.get(`${SHIRT}?variant=${sand}`)).body;
    expect(/data-product-price-for="[^"]+">([\s\S]*?)<\/div>/.exec(other)![1]).toContain('$68.00');
    expect(other).toMatch(/<option value="Sand" selected="">Sand<\/option>/);
    expect((await visitor.get(`${SHIRT}?variant=${navy}`)).body).toMatch(/<option value="Navy" selected="">/);
    // An unknown id shows the product as it is.
    const unknown = (await visitor.get(`${SHIRT}?variant=nope`)).body;
    expect(unknown).toContain('from $68.00');
    expect(unknown).not.toMatch(/selected="">(Navy|Sand)</);
  });

  it('/products.xml: apparel variants carry every required attribute, their own address and price, shipping; services and gift cards stay out', async () => {
    const res = await visitor.get('/products.xml');
    expect(res.statusCode).toBe(200);
    expect(await xsdErrors(res.body, 'merchant-feed.xsd')).toEqual([]);
    const items = ((parser.parse(res.body) as Obj).rss as { channel: { item: Obj[] } }).channel.item;
    const shirts = items.filter((i) => String(i['g:item_group_id']) === t.seed.productIds['linen-camp-shirt']);
    expect(shirts).toHaveLength(6);
    for (const s of shirts) {
      for (const k of APPAREL_REQUIRED) expect(s[k], `${String(s['g:id'])} ${k}`).toBeTruthy();
      expect(s['g:brand'] || s['g:gtin'] || s['g:mpn']).toBeTruthy();
      expect(String(s['g:link'])).toBe(`${ORIGIN}${SHIRT}?variant=${String(s['g:id'])}`);
      expect(s['g:shipping']).toEqual([{ 'g:country': 'US', 'g:service': 'Standard shipping', 'g:price': '5.00 USD' }]);
      // The variant's own page shows the price the feed gives.
      const page = (await visitor.get(String(s['g:link']).slice(ORIGIN.length))).body;
      const shown = /data-product-price-for="[^"]+">([\s\S]*?)<\/div>/.exec(page)![1]!;
      expect(shown).toContain(`$${String(s['g:price']).replace(' USD', '')}`);
    }
    const navyM = shirts.find((s) => s['g:title'] === 'Linen Camp Shirt - M / Navy')!;
    expect(navyM).toMatchObject({
      'g:color': 'Navy',
      'g:size': 'M',
      'g:price': '72.00 USD',
      'g:image_link': `${ORIGIN}/demo-media/pour-over.jpg`,
      'g:shipping_weight': '300 g',
    });
    expect(navyM['g:additional_image_link']).toEqual([`${ORIGIN}/demo-media/linen-shirt.jpg`]);
    const links = items.map((i) => String(i['g:link']));
    expect(links.some((l) => l.includes('/bike-tune-up'))).toBe(false);
    expect(links.some((l) => l.includes('/gift-card'))).toBe(false);
    expect(links.some((l) => l.includes('/houseplant-field-guide'))).toBe(true);
  });

  it("the product editor's switch keeps a product out of the feed, and saves back", async () => {
    const id = t.seed.productIds['engraved-cutting-board']!;
    const got = await owner.get(`/api/config/products/${id}`);
    expect(got.statusCode, got.body).toBe(200);
    const p = got.json();
    expect(p.excludeFromFeeds).toBe(false);
    const put = await owner.send('PUT', `/api/config/products/${id}`, { ...p, excludeFromFeeds: true });
    expect(put.statusCode, put.body).toBe(200);
    expect((await owner.get(`/api/config/products/${id}`)).json().excludeFromFeeds).toBe(true);
    const feed = (await visitor.get('/products.xml')).body;
    expect(feed).not.toContain('/engraved-cutting-board');
    expect(feed).toContain('/ceramic-pour-over-set');
    // Still on sale in the store.
    expect((await visitor.get('/shop/p/engraved-cutting-board')).statusCode).toBe(200);
  });
});
