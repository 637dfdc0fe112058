/** Small helpers for the XML the crawler routes write (sitemaps, RSS, the Merchant feed). */

/** Text or attribute content: the five XML entities, and characters XML 1.0 forbids dropped. */
export function xmlText(s: unknown): string {
  return String(s ?? '')
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** An element with escaped text, or '' when the value is empty. */
export function el(name: string, value: unknown): string {
  const s = value === null || value === undefined ? '' : String(value);
  return s === '' ? '' : `<${name}>${xmlText(s)}</${name}>`;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** RFC 822 date-time (with a four-digit year, as RSS 2.0 uses it), in GMT: 'Tue, 24 Nov 2026 16:32:53 GMT'. */
export function rfc822(d: Date): string {
  return `${DAYS[d.getUTCDay()]}, ${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} GMT`;
}

/** W3C datetime for sitemap lastmod. */
export function w3cDate(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A site path or address made absolute against the public origin ('' stays ''). */
export function absoluteUrl(origin: string, u: unknown): string {
  const s = String(u ?? '').trim();
  if (s === '') return '';
  if (/^https?:\/\//i.test(s)) return s;
  if (s.startsWith('//')) return `https:${s}`;
  return origin + (s.startsWith('/') ? s : `/${s}`);
}

/**
 * Owner HTML with its site-relative links and images made absolute (feed readers show it away from the
 * site). Only `href` and `src` attributes whose value starts with a single '/' change; the HTML was
 * cleaned by the rich-text allow-list when it was saved.
 */
export function absoluteHtml(origin: string, html: string): string {
  return html.replace(/\b(href|src)=(["'])\/(?!\/)/g, (_m, a: string, q: string) => `${a}=${q}${origin}/`);
}
