/**
 * The structured data builders (server/seo/json-ld.ts) against the checker of Google's documented
 * properties (test/helpers/structured-data.ts), the checker's own refusals, the shipping rates a variant
 * is offered at, and the script element no text can break out of.
 */
import { describe, expect, it } from 'vitest';
import {
  blogPostingJsonLd,
  eventJsonLd,
  optionProperty,
  organizationJsonLd,
  productJsonLd,
  shippingRates,
  webSiteJsonLd,
  type ProductLdInput,
  type VariantFacts,
} from '../../../../src/server/seo/json-ld.js';
import { jsonLdScript } from '../../../../src/core/html.js';
import { checkJsonLd, pageJsonLd } from '../../../helpers/structured-data.js';
import type { ShippingOption } from '../../../../src/core/checkout.js';

const ORIGIN = 'https://shop.example';
const variant = (id: string, attributes: Record<string, string>, priceCents = 2000, extra: Partial<VariantFacts> = {}): VariantFacts => ({
  id,
  sku: `SKU-${id}`,
  attributes,
  priceCents,
  salePriceCents: 0,
  onSale: false,
  qtyInStock: 3,
  unlimited: false,
  imageUrl: '',
  weightGrams: 500,
  ...extra,
});
const flat: ShippingOption = { id: 's1', name: 'Standard', kind: 'flat', priceCents: 500, countries: [] };
const product = (variants: VariantFacts[], over: Partial<ProductLdInput> = {}): ProductLdInput => ({
  origin: ORIGIN,
  url: `${ORIGIN}/shop/p/tee`,
  id: 'item1',
  name: 'Tee',
  description: 'A soft tee.',
  images: ['/media/a.jpg', '/media/b.jpg'],
  brand: 'Shop',
  currency: 'GBP',
  productType: 1,
  structuredContent: {},
  variants,
  shipping: [flat],
  homeCountry: 'GB',
  ...over,
});

describe('structured data builders', () => {
  it('maps option names to schema.org properties', () => {
    expect(optionProperty('Colour')).toBe('color');
    expect(optionProperty(' color ')).toBe('color');
    expect(optionProperty('SIZE')).toBe('size');
    expect(optionProperty('Amount')).toBeNull();
  });

  it('a one-variant product is a Product with one Offer, every image and the brand', () => {
    const ld = productJsonLd(product([variant('v1', {})], { structuredContent: { gtin: '00012345678905' } }));
    expect(ld).toMatchObject({
      '@type': 'Product',
      image: [`${ORIGIN}/media/a.jpg`, `${ORIGIN}/media/b.jpg`],
      brand: { '@type': 'Brand', name: 'Shop' },
      gtin: '00012345678905',
      offers: { '@type': 'Offer', price: '20.00', priceCurrency: 'GBP', url: `${ORIGIN}/shop/p/tee` },
    });
    const report = checkJsonLd(ld);
    expect(report.errors).toEqual([]);
    expect(report.warnings).toEqual(['Product#0.offers[0]: hasMerchantReturnPolicy is recommended']);
  });

  it('variants make a ProductGroup: variesBy from the options, each variant its own address, image, options and sale price', () => {
    const vs = [
      variant('a', { Colour: 'Red', Size: 'S' }, 2000, { imageUrl: '/media/b.jpg' }),
      variant('b', { Colour: 'Red', Size: 'M' }, 2000, { onSale: true, salePriceCents: 1500 }),
      variant('c', { Colour: 'Blue', Size: 'S' }, 2200, { qtyInStock: 0 }),
    ];
    const ld = productJsonLd(product(vs));
    expect(ld['@type']).toBe('ProductGroup');
    expect(ld.productGroupID).toBe('item1');
    expect(ld.variesBy).toEqual(['https://schema.org/color', 'https://schema.org/size']);
    const [a, b, c] = ld.hasVariant as Array<Record<string, unknown>>;
    expect(a).toMatchObject({
      color: 'Red',
      size: 'S',
      url: `${ORIGIN}/shop/p/tee?variant=a`,
      image: [`${ORIGIN}/media/b.jpg`, `${ORIGIN}/media/a.jpg`],
    });
    expect(b!.offers).toMatchObject({ price: '15.00', url: `${ORIGIN}/shop/p/tee?variant=b` });
    expect(c!.offers).toMatchObject({ availability: 'https://schema.org/OutOfStock' });
    expect(checkJsonLd(ld).errors).toEqual([]);
  });

  it('digital goods carry no shipping; physical ones the cheapest rate per country', () => {
    const digital = productJsonLd(product([variant('v1', {})], { productType: 2 }));
    expect((digital.offers as Record<string, unknown>).shippingDetails).toBeUndefined();
    const options: ShippingOption[] = [
      { id: 'x', name: 'Express', kind: 'flat', priceCents: 1500, countries: ['GB', 'FR'] },
      flat,
      { id: 'f', name: 'Free over £50', kind: 'free_above', priceCents: 700, freeAboveCents: 5000, countries: ['FR'] },
      { id: 'w', name: 'By weight', kind: 'weight', priceCents: 0, bands: [{ from: 0, to: 100, priceCents: 100 }], countries: ['DE'] },
      { id: 'p', name: 'Pick up', kind: 'pickup', priceCents: 0, countries: ['GB'] },
    ];
    expect(shippingRates(variant('v', {}, 6000), options, 'GB')).toEqual([
      { country: 'FR', cents: 0, option: 'Free over £50' },
      { country: 'GB', cents: 500, option: 'Standard' },
    ]);
    // An option for everywhere names the store's own country, and none when the store has no address.
    expect(shippingRates(variant('v', {}), [flat], '')).toEqual([]);
  });

  it('the store, the website, a post and an event pass the checker', () => {
    const org = organizationJsonLd({
      origin: ORIGIN,
      title: 'Shop',
      description: 'Things.',
      store: true,
      settings: {
        logoImageUrl: '/logo.png',
        contactEmail: 'a@b.example',
        location: { line1: '1 High St', city: 'Leeds', postalCode: 'LS1 1AA', country: 'gb' },
        socialAccounts: [{ profileUrl: 'https://social.example/shop' }, { profileUrl: 'javascript:x' }],
      },
    });
    expect(org).toMatchObject({
      '@type': 'OnlineStore',
      logo: `${ORIGIN}/logo.png`,
      address: { addressCountry: 'GB' },
      sameAs: ['https://social.example/shop'],
    });
    const site = webSiteJsonLd({ origin: ORIGIN, title: 'Shop' });
    const post = blogPostingJsonLd({
      origin: ORIGIN,
      url: `${ORIGIN}/blog/p`,
      title: 'x'.repeat(200),
      description: '',
      images: ['/a.jpg'],
      published: new Date('2026-01-02T10:00:00Z'),
      modified: new Date('2026-01-01T10:00:00Z'),
      author: '',
      siteTitle: 'Shop',
    });
    expect(String(post.headline).length).toBe(110);
    expect(post.dateModified).toBe('2026-01-02T10:00:00.000Z');
    expect(post.author).toMatchObject({ '@type': 'Organization', name: 'Shop' });
    const ev = eventJsonLd({
      origin: ORIGIN,
      url: `${ORIGIN}/events/e`,
      title: 'Fair',
      description: 'A fair.',
      images: ['/e.jpg'],
      start: new Date('2026-03-01T10:00:00Z'),
      end: new Date('2026-03-01T12:00:00Z'),
      location: {
        addressTitle: 'Hall',
        addressLine1: '1 Main St',
        addressLine2: 'Leeds',
        addressCountry: 'GB',
        mapLat: 53.8,
        mapLng: -1.5,
      },
      siteTitle: 'Shop',
    });
    const report = checkJsonLd([org, site, post, ev]);
    expect(report.errors).toEqual([]);
    expect(report.warnings).toEqual([]);
    // No place: no Event (search engines need one).
    expect(
      eventJsonLd({
        origin: ORIGIN,
        url: 'u',
        title: 't',
        description: '',
        images: [],
        start: new Date(),
        end: new Date(),
        location: null,
        siteTitle: 's',
      }),
    ).toBeNull();
  });
});

describe('the checker refuses what Google would', () => {
  it('a product without offers or image, a group with a variesBy Google does not read, variants sharing an address, an event without a place', () => {
    const ctx = 'https://schema.org';
    const errors = checkJsonLd([
      { '@context': ctx, '@type': 'Product', name: 'x' },
      {
        '@context': ctx,
        '@type': 'ProductGroup',
        name: 'g',
        variesBy: ['https://schema.org/flavour'],
        hasVariant: [
          {
            '@type': 'Product',
            name: 'a',
            image: 'https://x.example/a.jpg',
            offers: { '@type': 'Offer', price: '1', priceCurrency: 'GBP', url: 'https://x.example/p' },
          },
          {
            '@type': 'Product',
            name: 'b',
            image: 'https://x.example/a.jpg',
            offers: { '@type': 'Offer', price: '1', priceCurrency: 'GBP', url: 'https://x.example/p' },
          },
        ],
      },
      { '@context': ctx, '@type': 'Event', name: 'e', startDate: 'soon' },
    ]).errors;
    expect(errors).toEqual(
      expect.arrayContaining([
        'Product#0: image is required',
        'Product#0: offers is required (merchant listings)',
        'ProductGroup#1: variesBy https://schema.org/flavour is not one Google reads',
        'ProductGroup#1.hasVariant[1]: each variant needs its own url',
        'Event#2: location is required',
        'Event#2.startDate: must be an ISO 8601 date, not "soon"',
      ]),
    );
  });
});

describe('the script element', () => {
  it('no text ends it early, and it parses back to the same value', () => {
    const value = { name: 'a </script><script>alert(1)</script> & <!-- \u2028 x' };
    const html = jsonLdScript(value);
    expect(html.slice(0, -'</script>'.length)).not.toMatch(/<\/script/i);
    expect(html).not.toContain('<!--');
    expect(pageJsonLd(html)).toEqual([value]);
  });
});
