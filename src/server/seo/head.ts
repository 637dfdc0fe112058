/**
 * The crawler tags of a page's <head>: canonical address (pagination kept, tracking and every other
 * parameter dropped), robots noindex, hreflang alternates, Open Graph and Twitter card tags with absolute
 * image addresses, the RSS alternate link, and breadcrumb JSON-LD. Built by the page pipeline
 * (server/pages/routes.ts) for every page it renders.
 */
import { absoluteUrl } from './xml.js';
import { languageUrl } from './content.js';
import { escapeHtml, scriptJson } from '../../core/html.js';

/** Query parameters that choose what a page shows, and so stay in its canonical address. */
export const CANONICAL_PARAMS = ['tag', 'category', 'view', 'page'];

/**
 * The canonical address of a request: the public origin, the path, and only the parameters that change
 * the page's content (`page` only past the first). Tracking (`utm_*`, `gclid`, `fbclid`, ...), sorting
 * by the visitor, `format` and anything else is dropped.
 */
export function canonicalUrl(
  origin: string,
  path: string,
  query: Record<string, unknown>,
  keep: readonly string[] = CANONICAL_PARAMS,
): string {
  const p = new URLSearchParams();
  for (const k of keep) {
    const v = Array.isArray(query[k]) ? (query[k] as unknown[])[0] : query[k];
    if (typeof v !== 'string' || v === '' || v.length > 200) continue;
    if (k === 'page') {
      const n = Number.parseInt(v, 10);
      if (!Number.isFinite(n) || n <= 1) continue;
      p.set(k, String(Math.min(n, 10_000)));
    } else p.set(k, v);
  }
  const s = p.toString();
  return origin + path + (s ? `?${s}` : '');
}

export interface HeadInput {
  origin: string;
  canonical: string;
  /** The canonical address in the primary language (the alternates are made from it). */
  alternateBase?: string;
  title: string;
  description: string;
  siteTitle: string;
  /** Site path or absolute address of the page's main image. */
  image?: string | null;
  ogType: 'website' | 'article' | 'product';
  noindex: boolean;
  /** Languages (primary first) when the site is multilingual, else empty. */
  languages: string[];
  primaryLanguage: string;
  feeds: Array<{ title: string; href: string }>;
  breadcrumbs: Array<{ name: string; path: string }>;
}

/** The extra <head> tags (the theme writes <title>, description, canonical, og:title and og:url itself). */
export function headTags(h: HeadInput): string {
  const out: string[] = [];
  if (h.noindex) out.push('<meta name="robots" content="noindex">');
  if (h.languages.length > 0 && !h.noindex) {
    const base = h.alternateBase ?? h.canonical;
    for (const code of h.languages)
      out.push(`<link rel="alternate" hreflang="${escapeHtml(code)}" href="${escapeHtml(languageUrl(base, code, h.primaryLanguage))}">`);
    out.push(`<link rel="alternate" hreflang="x-default" href="${escapeHtml(base)}">`);
  }
  const image = h.image ? absoluteUrl(h.origin, h.image) : '';
  out.push(`<meta property="og:type" content="${h.ogType}">`);
  out.push(`<meta property="og:site_name" content="${escapeHtml(h.siteTitle)}">`);
  if (h.description) out.push(`<meta property="og:description" content="${escapeHtml(h.description.slice(0, 300))}">`);
  if (image) out.push(`<meta property="og:image" content="${escapeHtml(image)}">`);
  out.push(`<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}">`);
  out.push(`<meta name="twitter:title" content="${escapeHtml(h.title)}">`);
  if (h.description) out.push(`<meta name="twitter:description" content="${escapeHtml(h.description.slice(0, 200))}">`);
  if (image) out.push(`<meta name="twitter:image" content="${escapeHtml(image)}">`);
  for (const f of h.feeds)
    out.push(
      `<link rel="alternate" type="application/rss+xml" title="${escapeHtml(f.title)}" href="${escapeHtml(absoluteUrl(h.origin, f.href))}">`,
    );
  if (h.breadcrumbs.length > 1) {
    const ld = {
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: h.breadcrumbs.map((b, n) => ({
        '@type': 'ListItem',
        position: n + 1,
        name: b.name,
        item: absoluteUrl(h.origin, b.path),
      })),
    };
    out.push(`<script type="application/ld+json">${scriptJson(ld)}</script>`);
  }
  return out.join('\n');
}
