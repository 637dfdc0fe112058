/**
 * Feeds: RSS 2.0 for a blog collection (`?format=rss` on its page) and the Google Merchant Center product
 * feed (/products.xml, RSS 2.0 with the g: namespace, one entry per variant).
 */
import type { WebsiteRow } from '../platform/index.js';
import { itemUrl, type CollectionRow, type ItemRow } from '../site-context/index.js';
import { excerptText } from '../../core/content.js';
import { moneyDecimalString } from '../../core/money.js';
import { absoluteHtml, absoluteUrl, el, rfc822, xmlText } from './xml.js';
import type { PublicContent } from './content.js';
import type { VariantRow } from '../commerce/index.js';
import { ProductType } from '../../core/enums.js';
import type { ShippingOption } from '../../core/checkout.js';
import { productBrand, productCode, shippingRates, variantProperties, variantUrl } from './json-ld.js';

/** Items in one RSS feed (the newest). */
export const RSS_ITEMS = 20;

const IMAGE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
};

export function imageType(url: string): string {
  const ext = /\.([a-z0-9]{1,5})(?:$|[?#])/i.exec(url.slice(-64))?.[1]?.toLowerCase() ?? '';
  return IMAGE_TYPES[ext] ?? 'image/jpeg';
}

const plain = (html: string) => excerptText(html.replace(/<[^>]*>/g, ' '));

export function blogRss(site: WebsiteRow, c: CollectionRow, rows: ItemRow[], origin: string, collectionPath: string): string {
  const link = origin + collectionPath;
  const self = `${link}?format=rss`;
  const newest = rows.reduce<Date | null>((d, r) => (!d || r.publishOn > d ? r.publishOn : d), null);
  const items = rows.map((r) => {
    const url = origin + itemUrl(c, r);
    const main = r.assets[0];
    const image = main ? absoluteUrl(origin, main.assetUrl) : '';
    const body = absoluteHtml(origin, r.body || r.excerpt);
    return [
      '<item>',
      el('title', r.title),
      el('link', url),
      `<guid isPermaLink="false">${xmlText(`${c.id}:${r.id}`)}</guid>`,
      el('pubDate', rfc822(r.publishOn)),
      r.author ? el('dc:creator', r.author) : '',
      ...r.categories.map((x) => el('category', x)),
      ...r.tags.map((x) => `<category domain="${xmlText(`${link}?tag=`)}">${xmlText(x)}</category>`),
      el('description', body),
      image ? `<enclosure url="${xmlText(image)}" length="0" type="${imageType(image)}"/>` : '',
      '</item>',
    ].join('');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">\n<channel>',
    el('title', `${c.title} — ${site.title}`),
    el('link', link),
    `<atom:link href="${xmlText(self)}" rel="self" type="application/rss+xml"/>`,
    el('description', c.description || String(site.settings.siteDescription ?? '') || c.title),
    el('language', site.locale),
    newest ? el('lastBuildDate', rfc822(newest)) : '',
    el('generator', 'Tessera'),
    '\n',
    items.join('\n'),
    '\n</channel>\n</rss>\n',
  ].join('');
}

/** Product types no shopping feed takes: services, gift cards and memberships are not goods in a listing. */
const NOT_IN_FEEDS: ReadonlySet<number> = new Set([ProductType.SERVICE, ProductType.GIFT_CARD, ProductType.PAYWALL]);

/** Whether a product goes in the shopping feed: a kind of goods a listing takes, and not switched out by the owner. */
export function inShoppingFeed(sc: Record<string, unknown>): boolean {
  return !NOT_IN_FEEDS.has(Number(sc.productType ?? ProductType.PHYSICAL)) && sc.excludeFromFeeds !== true;
}

export interface FeedShipping {
  options: readonly ShippingOption[];
  /** The store's country (ISO code), for options that ship everywhere. */
  homeCountry: string;
}

/** One variant's feed entry: its own address, price, image, options, identifiers and shipping. */
function feedEntry(site: WebsiteRow, p: PublicContent['items'][number], v: VariantRow, origin: string, shipping: FeedShipping): string {
  const currency = site.currency;
  const r = p.row;
  const sc = r.structuredContent ?? {};
  const group = p.variants.length > 1;
  const link = group ? variantUrl(origin + p.url, v.id) : origin + p.url;
  const images = r.assets.map((a) => absoluteUrl(origin, a.assetUrl)).filter(Boolean);
  // The variant's own image first, as its page shows it.
  const own = v.imageUrl ? absoluteUrl(origin, v.imageUrl) : '';
  const ordered = own ? [own, ...images.filter((i) => i !== own)] : images;
  const options = Object.values(v.attributes ?? {}).filter(Boolean);
  const props = variantProperties(v.attributes ?? {});
  const inStock = v.unlimited || v.qtyInStock > 0;
  const gtin = productCode(sc, 'gtin', v.sku);
  const mpn = productCode(sc, 'mpn', v.sku);
  const physical = Number(sc.productType ?? ProductType.PHYSICAL) === ProductType.PHYSICAL;
  const rates = physical ? shippingRates(v, shipping.options, shipping.homeCountry) : [];
  const money = (cents: number) => `${moneyDecimalString(cents, currency)} ${currency}`;
  return [
    '<item>',
    // Variant ids are unique across the store (SKUs are unique only within a product).
    el('g:id', group ? v.id : r.id),
    el('g:title', options.length ? `${r.title} - ${options.join(' / ')}` : r.title),
    el('g:description', plain(r.body) || r.excerpt || r.title),
    el('g:link', link),
    ordered[0] ? el('g:image_link', ordered[0]) : '',
    ...ordered.slice(1, 11).map((x) => el('g:additional_image_link', x)),
    el('g:availability', inStock ? 'in_stock' : 'out_of_stock'),
    el('g:price', money(v.priceCents)),
    v.onSale && v.salePriceCents < v.priceCents ? el('g:sale_price', money(v.salePriceCents)) : '',
    el('g:brand', productBrand(sc, site.title)),
    gtin ? el('g:gtin', gtin) : '',
    mpn ? el('g:mpn', mpn) : '',
    !gtin && !mpn ? el('g:identifier_exists', 'no') : '',
    el('g:condition', 'new'),
    props.color ? el('g:color', props.color) : '',
    props.size ? el('g:size', props.size) : '',
    props.material ? el('g:material', props.material) : '',
    props.pattern ? el('g:pattern', props.pattern) : '',
    group ? el('g:item_group_id', r.id) : '',
    ...rates.map(
      (x) => `<g:shipping>${el('g:country', x.country)}${el('g:service', x.option)}${el('g:price', money(x.cents))}</g:shipping>`,
    ),
    physical && v.weightGrams > 0 ? el('g:shipping_weight', `${v.weightGrams} g`) : '',
    '</item>',
  ].join('');
}

/**
 * The Merchant Center feed: one entry per variant of every product a listing takes (goods, not services,
 * gift cards or memberships, and not those the owner keeps out of feeds), each at its own address.
 */
export function merchantFeed(content: PublicContent, origin: string, shipping: FeedShipping): string {
  const site = content.site;
  const entries: string[] = [];
  for (const p of content.items) {
    if (p.collection.typeName !== 'products' || p.variants.length === 0 || !inShoppingFeed(p.row.structuredContent ?? {})) continue;
    for (const v of p.variants) entries.push(feedEntry(site, p, v, origin, shipping));
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">\n<channel>',
    el('title', site.title),
    el('link', `${origin}/`),
    el('description', String(site.settings.siteDescription ?? '') || site.title),
    '\n',
    entries.join('\n'),
    '\n</channel>\n</rss>\n',
  ].join('');
}
