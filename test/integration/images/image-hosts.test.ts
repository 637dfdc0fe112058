/**
 * The image template's image hosts (a fixed list of three): an image on the site's
 * own origin, on PUBLIC_URL's origin or on a MEDIA_CDN_URLS origin is drawn with the platform srcset of the
 * seven widths; an image on any other host is drawn as it is, with no srcset its host would not understand.
 * Observed on the shop page, after the owner saves product images through /config, on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { loadConfig, imageHosts } from '../../../src/server/config.js';

const WIDTHS = ['100w', '300w', '500w', '750w', '1000w', '1500w', '2500w'];

function imgTag(html: string, src: string): string {
  const at = html.indexOf(`src="${src.replace(/&/g, '&amp;')}"`);
  expect(at, `an <img> for ${src}`).toBeGreaterThan(-1);
  const start = html.lastIndexOf('<img', at);
  return html.slice(start, html.indexOf('>', at) + 1);
}

describe.each(APP_KINDS)('image hosts for srcset on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  beforeAll(async () => {
    t = await testApp(kind, {
      RATE_LIMIT_STORE: 'memory',
      PUBLIC_URL: 'https://shop.example.org/',
      MEDIA_CDN_URLS: 'https://cdn.example.net, https://media.example.com:8443/base',
    });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives the platform srcset only to images on the site, PUBLIC_URL or a media CDN host', async () => {
    const srcs = {
      'linen-camp-shirt': 'https://cdn.example.net/p/shirt.jpg',
      'ceramic-pour-over-set': 'https://elsewhere.example.com/p/pour-over.jpg',
      'merino-wool-throw': 'https://shop.example.org/demo-media/throw.jpg',
      'houseplant-field-guide': 'https://media.example.com:8443/base/guide.jpg',
    } as const;
    for (const [slug, src] of Object.entries(srcs)) {
      const id = t.seed.productIds[slug]!;
      const p = (await owner.get(`/api/config/products/${id}`)).json();
      const r = await owner.send('PUT', `/api/config/products/${id}`, {
        ...p,
        images: [{ ...p.images[0], assetUrl: src }, ...p.images.slice(1)],
      });
      expect(r.statusCode, r.body).toBe(200);
    }
    const html = (await new Visitor(t.app).get('/shop')).body;

    for (const src of [srcs['linen-camp-shirt'], srcs['merino-wool-throw'], srcs['houseplant-field-guide']]) {
      const tag = imgTag(html, src);
      const srcset = /srcset="([^"]*)"/.exec(tag)?.[1] ?? '';
      expect(srcset.split(', ').map((c) => c.split(' ')[1])).toEqual(WIDTHS);
      expect(srcset).toContain(`${src}?format=500w 500w`);
      expect(tag).toMatch(/ sizes="[^"]+"/);
    }
    const outside = imgTag(html, srcs['ceramic-pour-over-set']);
    expect(outside).not.toContain('srcset=');
    expect(outside).not.toContain('format=');

    // The product page of an image elsewhere preloads it by its address alone, with no srcset.
    const page = (await new Visitor(t.app).get('/shop/p/ceramic-pour-over-set')).body;
    const preload = /<link rel="preload" as="image"[^>]*>/.exec(page)?.[0] ?? '';
    expect(preload).toContain(`href="${srcs['ceramic-pour-over-set']}"`);
    expect(preload).not.toContain('imagesrcset');
    expect(page).not.toContain('undefined');
    const ownPage = /<link rel="preload" as="image"[^>]*>/.exec((await new Visitor(t.app).get('/shop/p/linen-camp-shirt')).body)?.[0] ?? '';
    expect(ownPage).toContain('imagesrcset="https://cdn.example.net/p/shirt.jpg?format=100w 100w');

    // The seeded products left alone keep their own-origin images, with the srcset.
    const own = /<img [^>]*src="\/demo-media\/[^"]+"[^>]*>/.exec(html)?.[0] ?? '';
    expect(own).toContain('srcset="/demo-media/');
  });
});

describe('the image host list', () => {
  it('is PUBLIC_URL and at most two media CDN origins; a longer or malformed list is a configuration error', () => {
    expect(
      imageHosts(loadConfig({ PUBLIC_URL: 'https://a.example/x', MEDIA_CDN_URLS: 'https://b.example/p,http://c.example:81' })),
    ).toEqual(['https://a.example', 'https://b.example', 'http://c.example:81']);
    expect(imageHosts(loadConfig({}))).toEqual([]);
    expect(() => loadConfig({ MEDIA_CDN_URLS: 'https://b.example,https://c.example,https://d.example' })).toThrow(/MEDIA_CDN_URLS/);
    expect(() => loadConfig({ MEDIA_CDN_URLS: 'ftp://b.example' })).toThrow(/MEDIA_CDN_URLS/);
  });
});
