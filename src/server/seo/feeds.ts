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

/** Identifiers an owner may set on a product's structuredContent (Merchant Center attributes). */
function productCode(sc: Record<string, unknown>, key: string, sku: string): string {
  const perVariant = sc[`${key}s`];
  if (perVariant && typeof perVariant === 'object' && typeof (perVariant as Record<string, unknown>)[sku] === 'string')
    return (perVariant as Record<string, string>)[sku]!;
  return typeof sc[key] === 'string' ? (sc[key] as string) : '';
}

export function merchantFeed(content: PublicContent, origin: string): string {
  const site = content.site;
  const currency = site.currency;
  const entries: string[] = [];
  for (const p of content.items) {
    if (p.collection.typeName !== 'products' || p.variants.length === 0) continue;
    const r = p.row;
    const sc = r.structuredContent ?? {};
    const link = origin + p.url;
    const main = r.assets[0];
    const image = main ? absoluteUrl(origin, main.assetUrl) : '';
    const extra = r.assets
      .slice(1, 11)
      .map((a) => absoluteUrl(origin, a.assetUrl))
      .filter(Boolean);
    const description = plain(r.body) || r.excerpt || r.title;
    const brand = typeof sc.brand === 'string' && sc.brand ? sc.brand : site.title;
    const group = p.variants.length > 1;
    for (const v of p.variants) {
      const options = Object.values(v.attributes ?? {}).filter(Boolean);
      const inStock = v.unlimited || v.qtyInStock > 0;
      const gtin = productCode(sc, 'gtin', v.sku);
      const mpn = productCode(sc, 'mpn', v.sku);
      entries.push(
        [
          '<item>',
          // Variant ids are unique across the store (SKUs are unique only within a product).
          el('g:id', group ? v.id : r.id),
          el('g:title', options.length ? `${r.title} - ${options.join(' / ')}` : r.title),
          el('g:description', description),
          el('g:link', link),
          image ? el('g:image_link', image) : '',
          ...extra.map((x) => el('g:additional_image_link', x)),
          el('g:availability', inStock ? 'in_stock' : 'out_of_stock'),
          el('g:price', `${moneyDecimalString(v.priceCents, currency)} ${currency}`),
          v.onSale && v.salePriceCents < v.priceCents
            ? el('g:sale_price', `${moneyDecimalString(v.salePriceCents, currency)} ${currency}`)
            : '',
          el('g:brand', brand),
          gtin ? el('g:gtin', gtin) : '',
          mpn ? el('g:mpn', mpn) : '',
          !gtin && !mpn ? el('g:identifier_exists', 'no') : '',
          el('g:condition', 'new'),
          group ? el('g:item_group_id', r.id) : '',
          '</item>',
        ].join(''),
      );
    }
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
