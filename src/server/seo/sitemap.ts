/**
 * /sitemap.xml in the sitemaps.org 0.9 format: every public page, collection, item and product with its
 * lastmod, its images (Google's image extension) and, on a multilingual site, its language alternates
 * (xhtml:link hreflang). Past `maxUrls` addresses, /sitemap.xml is a sitemap index of
 * /sitemap.xml?page=1, ?page=2, ... each holding at most `maxUrls`.
 */
import { absoluteUrl, w3cDate, xmlText } from './xml.js';
import { alternateLanguages, languageUrl, publicCollectionUrl, type PublicContent } from './content.js';

/** The sitemaps.org limit of addresses in one sitemap. */
export const SITEMAP_MAX_URLS = 50_000;

export interface SitemapEntry {
  loc: string;
  lastmod: Date;
  images: Array<{ loc: string; title: string }>;
}

export function sitemapEntries(content: PublicContent, origin: string): SitemapEntry[] {
  const out: SitemapEntry[] = [];
  const latest = new Map<string, Date>();
  for (const i of content.items) {
    const d = latest.get(i.collection.id);
    if (!d || i.row.updatedAt > d) latest.set(i.collection.id, i.row.updatedAt);
  }
  for (const c of content.collections) {
    // An editor page's republish touches only its layout row, so its publish time counts too.
    const published = content.pagePublishedAt.get(c.id);
    const own = published && published > c.updatedAt ? published : c.updatedAt;
    const items = latest.get(c.id);
    out.push({ loc: origin + publicCollectionUrl(c, content.homeId), lastmod: items && items > own ? items : own, images: [] });
  }
  for (const i of content.items) {
    const images = i.row.assets
      .map((a) => ({ loc: absoluteUrl(origin, a.assetUrl), title: String(a.altText || i.row.title) }))
      .filter((a) => a.loc !== '')
      .slice(0, 1000);
    out.push({ loc: origin + i.url, lastmod: i.row.updatedAt, images });
  }
  return out;
}

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

export function sitemapXml(entries: SitemapEntry[], content: PublicContent): string {
  const langs = alternateLanguages(content.site);
  const primary = content.site.locale;
  const parts = [
    HEAD,
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n',
  ];
  for (const e of entries) {
    let s = `<url><loc>${xmlText(e.loc)}</loc><lastmod>${w3cDate(e.lastmod)}</lastmod>`;
    for (const code of langs)
      s += `<xhtml:link rel="alternate" hreflang="${xmlText(code)}" href="${xmlText(languageUrl(e.loc, code, primary))}"/>`;
    if (langs.length) s += `<xhtml:link rel="alternate" hreflang="x-default" href="${xmlText(e.loc)}"/>`;
    for (const img of e.images)
      s += `<image:image><image:loc>${xmlText(img.loc)}</image:loc><image:title>${xmlText(img.title)}</image:title></image:image>`;
    parts.push(`${s}</url>\n`);
  }
  parts.push('</urlset>\n');
  return parts.join('');
}

export function sitemapIndexXml(origin: string, pages: Array<{ lastmod: Date }>): string {
  const parts = [HEAD, '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'];
  pages.forEach((p, n) =>
    parts.push(`<sitemap><loc>${xmlText(`${origin}/sitemap.xml?page=${n + 1}`)}</loc><lastmod>${w3cDate(p.lastmod)}</lastmod></sitemap>\n`),
  );
  parts.push('</sitemapindex>\n');
  return parts.join('');
}
