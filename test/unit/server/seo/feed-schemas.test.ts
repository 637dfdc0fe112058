/** The feed schemas of test/data/xsd refuse what the formats forbid (so a feed test that passes them means something). */
import { describe, expect, it } from 'vitest';
import { xsdErrors } from '../../../helpers/xsd.js';

const SITEMAP = (url: string) => `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">${url}</urlset>`;
const RSS = (channel: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel>${channel}</channel></rss>`;
const HEAD = '<title>Journal</title><link>https://shop.example/journal</link><description>Notes</description>';

describe('feed schemas', () => {
  it('accept a sitemap with images and language alternates, and refuse a relative loc, a bad date, a bad image or misplaced elements', async () => {
    const good =
      '<url><loc>https://shop.example/a</loc><lastmod>2026-11-24T10:00:00Z</lastmod><image:image><image:loc>https://shop.example/i.jpg</image:loc></image:image><xhtml:link rel="alternate" hreflang="fr-FR" href="https://shop.example/fr/a"/></url>';
    expect(await xsdErrors(SITEMAP(good), 'sitemap.xsd')).toEqual([]);
    for (const bad of [
      '<url><loc>/a</loc></url>',
      '<url><loc>https://shop.example/a</loc><lastmod>24/11/2026</lastmod></url>',
      '<url><loc>https://shop.example/a</loc><image:image><image:loc>/i.jpg</image:loc></image:image></url>',
      '<url><image:image><image:loc>https://shop.example/i.jpg</image:loc></image:image><loc>https://shop.example/a</loc></url>',
      '<url><loc>https://shop.example/a</loc><priority>2</priority></url>',
      '<url><loc>https://shop.example/a</loc></url><url><loc>https://shop.example/a</loc></url>',
      '<url><loc>https://shop.example/a</loc><xhtml:link rel="alternate" href="https://shop.example/fr/a"/></url>',
    ])
      expect(await xsdErrors(SITEMAP(bad), 'sitemap.xsd'), bad).not.toEqual([]);
  });

  it('accept an RSS 2.0 channel and refuse one without a description, two titles, a bad date or an incomplete enclosure', async () => {
    expect(
      await xsdErrors(
        RSS(
          `${HEAD}<item><title>A</title><pubDate>Tue, 24 Nov 2026 10:00:00 GMT</pubDate><enclosure url="https://shop.example/a.jpg" length="0" type="image/jpeg"/></item>`,
        ),
        'rss2.xsd',
      ),
    ).toEqual([]);
    for (const bad of [
      '<title>Journal</title><link>https://shop.example/journal</link>',
      `${HEAD}<title>Again</title>`,
      `${HEAD}<item><title>A</title><pubDate>2026-11-24</pubDate></item>`,
      `${HEAD}<item><title>A</title><enclosure url="https://shop.example/a.jpg"/></item>`,
    ])
      expect(await xsdErrors(RSS(bad), 'rss2.xsd'), bad).not.toEqual([]);
  });

  it('accept a Merchant Center item and refuse a bad availability, price or gtin', async () => {
    const item = (g: string) =>
      RSS(`${HEAD}<item><g:id>1</g:id><g:title>Shirt</g:title><g:link>https://shop.example/p</g:link>${g}</item>`);
    expect(
      await xsdErrors(
        item('<g:availability>in_stock</g:availability><g:price>68.00 USD</g:price><g:gtin>00012345678905</g:gtin>'),
        'merchant-feed.xsd',
      ),
    ).toEqual([]);
    for (const bad of ['<g:availability>instock</g:availability>', '<g:price>$68.00</g:price>', '<g:gtin>123</g:gtin>']) {
      expect(await xsdErrors(item(bad), 'merchant-feed.xsd'), bad).not.toEqual([]);
    }
  });
});
