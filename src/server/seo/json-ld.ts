/**
 * schema.org structured data for search engines, as plain objects (written out with core/html.ts
 * jsonLdScript): a product (one Product, or a ProductGroup of variant Products each with its own offer
 * and address), the store (Organization or OnlineStore), the WebSite with its search action, a blog post
 * (BlogPosting) and an event (Event). Every address is absolute from the configured public origin.
 */
import { ProductType } from '../../core/enums.js';
import { moneyDecimalString } from '../../core/money.js';
import { shippingCost, type ShippingOption } from '../../core/checkout.js';
import { absoluteUrl } from './xml.js';

type Obj = Record<string, unknown>;

const SCHEMA = 'https://schema.org';
/** Shipping entries per offer: the first options and countries (a store rarely has more). */
const MAX_SHIPPING = 10;

/** The variant columns the structured data and the product feed read. */
export interface VariantFacts {
  id: string;
  sku: string;
  attributes: Record<string, string>;
  priceCents: number;
  salePriceCents: number;
  onSale: boolean;
  qtyInStock: number;
  unlimited: boolean;
  imageUrl: string;
  weightGrams: number;
}

/** The schema.org property a variant option stands for (Colour and Color are color, Size is size), or null. */
export function optionProperty(name: string): 'color' | 'size' | 'material' | 'pattern' | null {
  const n = name.trim().toLowerCase();
  if (n === 'colour' || n === 'color') return 'color';
  if (n === 'size') return 'size';
  if (n === 'material') return 'material';
  if (n === 'pattern') return 'pattern';
  return null;
}

/** A variant's option values by schema.org property (color, size ...); options with no such property are left out. */
export function variantProperties(attributes: Record<string, string>): Partial<Record<'color' | 'size' | 'material' | 'pattern', string>> {
  const out: Partial<Record<'color' | 'size' | 'material' | 'pattern', string>> = {};
  for (const [name, value] of Object.entries(attributes)) {
    const p = optionProperty(name);
    if (p && value && !out[p]) out[p] = value;
  }
  return out;
}

/** An identifier the owner set on a product's structuredContent (`gtin`, or per SKU in `gtins`), or ''. */
export function productCode(sc: Obj, key: 'gtin' | 'mpn', sku: string): string {
  const perVariant = sc[`${key}s`];
  if (perVariant && typeof perVariant === 'object' && typeof (perVariant as Obj)[sku] === 'string')
    return (perVariant as Record<string, string>)[sku]!;
  return typeof sc[key] === 'string' ? (sc[key] as string) : '';
}

/** The brand a product is sold under: its own `brand`, else the store's name. */
export function productBrand(sc: Obj, siteTitle: string): string {
  return typeof sc.brand === 'string' && sc.brand.trim() ? sc.brand.trim() : siteTitle;
}

/** What a buyer pays for one unit of a variant, in minor units. */
export const variantPaid = (v: VariantFacts) => (v.onSale && v.salePriceCents < v.priceCents ? v.salePriceCents : v.priceCents);

/** A variant's own address: the product page with `?variant=` (the page preselects it). */
export const variantUrl = (productUrl: string, id: string) => `${productUrl}?variant=${encodeURIComponent(id)}`;

/**
 * Where and for how much one unit of a variant ships, by the store's options: each option's rate for
 * that unit (its price and weight), to each country its zone lists (a region's country too), or to the
 * store's own country for the rest-of-the-world zone (it has no one country to name). Only physical
 * products ship; pickup and local delivery are not listed.
 */
export function shippingRates(
  v: Pick<VariantFacts, 'priceCents' | 'salePriceCents' | 'onSale' | 'weightGrams'>,
  options: readonly ShippingOption[],
  homeCountry: string,
): Array<{ country: string; cents: number; option: string }> {
  const all: Array<{ country: string; cents: number; option: string }> = [];
  for (const o of options) {
    // Pickup and local delivery are not shipping a search engine can quote.
    if (o.kind === 'pickup' || o.kind === 'local_delivery') continue;
    const cents = shippingCost(o, variantPaid(v as VariantFacts), v.weightGrams);
    if (cents === null) continue;
    const listed = [...new Set([...(o.countries ?? []), ...(o.regions ?? []).map((r) => r.country)])];
    const countries = listed.length ? listed : homeCountry ? [homeCountry] : [];
    for (const country of countries) all.push({ country: country.toUpperCase(), cents, option: o.name });
  }
  // The cheapest option to a country is the one a shopper is quoted first: one rate per country.
  all.sort((a, b) => a.cents - b.cents);
  const seen = new Set<string>();
  return all.filter((r) => !seen.has(r.country) && seen.add(r.country)).slice(0, MAX_SHIPPING);
}

export interface ProductLdInput {
  origin: string;
  /** The product page's absolute address. */
  url: string;
  id: string;
  name: string;
  description: string;
  /** Every image of the product (site paths or absolute), the main one first. */
  images: string[];
  brand: string;
  currency: string;
  productType: number;
  structuredContent: Obj;
  variants: VariantFacts[];
  shipping: readonly ShippingOption[];
  /** The store's country (ISO code) from its business address, '' when not given. */
  homeCountry: string;
  /** Ratings and reviews (aggregateRating, review), added to the product or group. */
  reviews?: Obj;
}

/** One variant's offer: its price, stock, condition, address and shipping. */
function offerOf(p: ProductLdInput, v: VariantFacts, url: string): Obj {
  const shipping =
    p.productType === ProductType.PHYSICAL
      ? shippingRates(v, p.shipping, p.homeCountry).map((r) => ({
          '@type': 'OfferShippingDetails',
          shippingRate: { '@type': 'MonetaryAmount', value: moneyDecimalString(r.cents, p.currency), currency: p.currency },
          shippingDestination: { '@type': 'DefinedRegion', addressCountry: r.country },
        }))
      : [];
  return {
    '@type': 'Offer',
    url,
    priceCurrency: p.currency,
    price: moneyDecimalString(variantPaid(v), p.currency),
    availability: v.unlimited || v.qtyInStock > 0 ? `${SCHEMA}/InStock` : `${SCHEMA}/OutOfStock`,
    itemCondition: `${SCHEMA}/NewCondition`,
    ...(shipping.length ? { shippingDetails: shipping } : {}),
  };
}

/** The identifiers and option values of one variant as Product properties. */
function variantFacts(p: ProductLdInput, v: VariantFacts): Obj {
  const gtin = productCode(p.structuredContent, 'gtin', v.sku);
  const mpn = productCode(p.structuredContent, 'mpn', v.sku);
  return {
    ...(v.sku ? { sku: v.sku } : {}),
    ...(gtin ? { gtin } : {}),
    ...(mpn ? { mpn } : {}),
    ...variantProperties(v.attributes),
  };
}

/**
 * A product's structured data: a Product with one Offer when it has one variant; a ProductGroup (its
 * productGroupID the product's id, as the feed's item_group_id) whose `hasVariant` Products each carry
 * their own options, identifiers, image and an Offer at their own `?variant=` address otherwise.
 */
export function productJsonLd(p: ProductLdInput): Obj {
  const images = p.images.map((u) => absoluteUrl(p.origin, u)).filter(Boolean);
  const brand = { '@type': 'Brand', name: p.brand };
  const shared: Obj = {
    name: p.name,
    ...(p.description ? { description: p.description } : {}),
    ...(images.length ? { image: images } : {}),
    brand,
  };
  if (p.variants.length <= 1) {
    const v = p.variants[0];
    return {
      '@context': SCHEMA,
      '@type': 'Product',
      '@id': p.url,
      url: p.url,
      ...shared,
      ...(v ? variantFacts(p, v) : {}),
      ...(v ? { offers: offerOf(p, v, p.url) } : {}),
      ...(p.reviews ?? {}),
    };
  }
  const varies = new Set<string>();
  for (const v of p.variants) for (const k of Object.keys(variantProperties(v.attributes))) varies.add(k);
  return {
    '@context': SCHEMA,
    '@type': 'ProductGroup',
    '@id': p.url,
    url: p.url,
    ...shared,
    productGroupID: p.id,
    ...(varies.size ? { variesBy: [...varies].map((k) => `${SCHEMA}/${k}`) } : {}),
    hasVariant: p.variants.map((v) => {
      const url = variantUrl(p.url, v.id);
      const options = Object.values(v.attributes).filter(Boolean);
      const own = v.imageUrl ? absoluteUrl(p.origin, v.imageUrl) : '';
      const image = own ? [own, ...images.filter((i) => i !== own)] : images;
      return {
        '@type': 'Product',
        '@id': url,
        url,
        name: options.length ? `${p.name} - ${options.join(' / ')}` : p.name,
        ...(image.length ? { image } : {}),
        ...variantFacts(p, v),
        offers: offerOf(p, v, url),
      };
    }),
    ...(p.reviews ?? {}),
  };
}

/** The business address parts as the site settings keep them (server/platform/owner-home.ts). */
function postalAddress(loc: Obj): Obj | null {
  const s = (k: string) => (typeof loc[k] === 'string' ? (loc[k] as string).trim() : '');
  const street = [s('line1'), s('line2')].filter(Boolean).join(', ');
  const parts: Obj = {
    ...(street ? { streetAddress: street } : {}),
    ...(s('city') ? { addressLocality: s('city') } : {}),
    ...(s('region') ? { addressRegion: s('region') } : {}),
    ...(s('postalCode') ? { postalCode: s('postalCode') } : {}),
    ...(s('country') ? { addressCountry: s('country').toUpperCase() } : {}),
  };
  return Object.keys(parts).length ? { '@type': 'PostalAddress', ...parts } : null;
}

export interface SiteLdInput {
  origin: string;
  title: string;
  description: string;
  /** The site's settings (logo, contact, business address, social accounts). */
  settings: Obj;
  /** Whether the site sells (an OnlineStore rather than a plain Organization). */
  store: boolean;
}

/** The business behind the site: name, address, logo, business address and contact, its social profiles. */
export function organizationJsonLd(s: SiteLdInput): Obj {
  const st = s.settings;
  const str = (k: string) => (typeof st[k] === 'string' ? (st[k] as string).trim() : '');
  const logo = absoluteUrl(s.origin, str('logoImageUrl'));
  const loc = st.location && typeof st.location === 'object' ? (st.location as Obj) : {};
  const address = postalAddress(loc);
  const email = str('contactEmail');
  const telephone = str('contactPhoneNumber');
  const sameAs = (Array.isArray(st.socialAccounts) ? st.socialAccounts : [])
    .map((a) => String((a as Obj | null)?.profileUrl ?? ''))
    .filter((u) => /^https?:\/\//i.test(u));
  return {
    '@context': SCHEMA,
    '@type': s.store ? 'OnlineStore' : 'Organization',
    '@id': `${s.origin}/#organization`,
    name: s.title,
    url: `${s.origin}/`,
    ...(s.description ? { description: s.description } : {}),
    ...(logo ? { logo } : {}),
    ...(address ? { address } : {}),
    ...(email ? { email } : {}),
    ...(telephone ? { telephone } : {}),
    ...(email || telephone
      ? {
          contactPoint: {
            '@type': 'ContactPoint',
            contactType: 'customer service',
            ...(email ? { email } : {}),
            ...(telephone ? { telephone } : {}),
          },
        }
      : {}),
    ...(sameAs.length ? { sameAs } : {}),
  };
}

/** The site with its search: the search page's address with the query in `q`. */
export function webSiteJsonLd(s: Pick<SiteLdInput, 'origin' | 'title'>): Obj {
  return {
    '@context': SCHEMA,
    '@type': 'WebSite',
    '@id': `${s.origin}/#website`,
    name: s.title,
    url: `${s.origin}/`,
    publisher: { '@id': `${s.origin}/#organization` },
    potentialAction: {
      '@type': 'SearchAction',
      target: { '@type': 'EntryPoint', urlTemplate: `${s.origin}/search?q={search_term_string}` },
      'query-input': 'required name=search_term_string',
    },
  };
}

export interface PostLdInput {
  origin: string;
  url: string;
  title: string;
  description: string;
  images: string[];
  published: Date;
  modified: Date;
  /** The author's name as the post shows it ('' when none: the site publishes it). */
  author: string;
  siteTitle: string;
}

/** Headlines longer than this are cut (search engines show no more). */
const HEADLINE_MAX = 110;

/** A blog post: headline, dates, author, images and the site as publisher. */
export function blogPostingJsonLd(p: PostLdInput): Obj {
  const images = p.images.map((u) => absoluteUrl(p.origin, u)).filter(Boolean);
  const publisher = { '@type': 'Organization', '@id': `${p.origin}/#organization`, name: p.siteTitle, url: `${p.origin}/` };
  return {
    '@context': SCHEMA,
    '@type': 'BlogPosting',
    '@id': p.url,
    mainEntityOfPage: p.url,
    url: p.url,
    headline: p.title.length > HEADLINE_MAX ? `${p.title.slice(0, HEADLINE_MAX - 1)}…` : p.title,
    ...(p.description ? { description: p.description } : {}),
    ...(images.length ? { image: images } : {}),
    datePublished: p.published.toISOString(),
    dateModified: (p.modified > p.published ? p.modified : p.published).toISOString(),
    author: p.author.trim() ? { '@type': 'Person', name: p.author.trim() } : publisher,
    publisher,
  };
}

export interface EventLdInput {
  origin: string;
  url: string;
  title: string;
  description: string;
  images: string[];
  start: Date;
  end: Date;
  /** The event's location as stored (addressTitle, addressLine1, addressLine2, addressCountry, mapLat, mapLng). */
  location: Obj | null;
  siteTitle: string;
}

/**
 * An event held at its place: name, start and end, the place with its address, scheduled and attended in
 * person. Null when the event names no place (search engines need one, and there is no online address to give).
 */
export function eventJsonLd(e: EventLdInput): Obj | null {
  const loc = e.location ?? {};
  const s = (k: string) => (typeof loc[k] === 'string' ? (loc[k] as string).trim() : '');
  const street = s('addressLine1');
  const locality = s('addressLine2');
  const country = s('addressCountry');
  const name = s('addressTitle');
  if (!street && !locality && !name) return null;
  const lat = Number(loc.mapLat);
  const lng = Number(loc.mapLng);
  const images = e.images.map((u) => absoluteUrl(e.origin, u)).filter(Boolean);
  return {
    '@context': SCHEMA,
    '@type': 'Event',
    '@id': e.url,
    url: e.url,
    name: e.title,
    ...(e.description ? { description: e.description } : {}),
    ...(images.length ? { image: images } : {}),
    startDate: e.start.toISOString(),
    endDate: (e.end > e.start ? e.end : e.start).toISOString(),
    eventStatus: `${SCHEMA}/EventScheduled`,
    eventAttendanceMode: `${SCHEMA}/OfflineEventAttendanceMode`,
    location: {
      '@type': 'Place',
      name: name || street || locality,
      address: {
        '@type': 'PostalAddress',
        ...(street ? { streetAddress: street } : {}),
        ...(locality ? { addressLocality: locality } : {}),
        ...(country ? { addressCountry: country } : {}),
      },
      ...(Number.isFinite(lat) && Number.isFinite(lng) && (lat !== 0 || lng !== 0)
        ? { geo: { '@type': 'GeoCoordinates', latitude: lat, longitude: lng } }
        : {}),
    },
    organizer: { '@type': 'Organization', name: e.siteTitle, url: `${e.origin}/` },
  };
}
