/**
 * What rich text keeps: the one allow-list of the text block. The server cleans owner HTML with it
 * (sanitize-html in server/editor/render.ts) and the editor's rich-text field cleans pasted and edited
 * content with the same lists, so what the owner sees while editing is what visitors get.
 */
import { checkLink } from './layout.js';

/** Elements kept in rich text; any other element is removed and its text kept. */
export const RICH_TEXT_TAGS: readonly string[] = Object.freeze([
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'a',
  'ul',
  'ol',
  'li',
  'blockquote',
  'code',
  'pre',
  'span',
  'sub',
  'sup',
  'hr',
  'mark',
  'small',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'img',
  'figure',
  'figcaption',
]);

/** Attributes kept, by element ('*' for every kept element). */
export const RICH_TEXT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  a: Object.freeze(['href', 'title', 'target', 'rel']),
  img: Object.freeze(['src', 'alt', 'width', 'height', 'loading']),
  th: Object.freeze(['scope']),
  '*': Object.freeze(['lang', 'dir']),
});

/** URL schemes a link or an image source may use; one without a scheme (a path of the site) is kept too. */
export const RICH_TEXT_SCHEMES: readonly string[] = Object.freeze(['http', 'https', 'mailto', 'tel']);

/** Elements removed with everything inside them (sanitize-html's non-text tags). */
export const RICH_TEXT_DROPPED: readonly string[] = Object.freeze([
  'script',
  'style',
  'textarea',
  'option',
  'xmp',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'head',
  'title',
  'meta',
  'link',
]);

/** Whether an attribute may stay on an element of rich text. */
export function isRichTextAttribute(tag: string, attribute: string): boolean {
  return (RICH_TEXT_ATTRIBUTES[tag]?.includes(attribute) ?? false) || RICH_TEXT_ATTRIBUTES['*']!.includes(attribute);
}

/**
 * Whether an href is kept: one of the allowed schemes, or no scheme at all (a path such as /shop,
 * #top). Protocol-relative '//host' addresses are refused, as on the server. Characters browsers
 * ignore in a URL (controls, spaces) are taken out before the scheme is read.
 */
export function isSafeHref(href: string): boolean {
  const h = href.replace(/[\x00-\x20\x7f]+/g, '').replace(/<!--[\s\S]*?-->/g, '');
  if (/^[/\\]{2}/.test(h)) return false;
  const m = /^([a-zA-Z][a-zA-Z0-9.+-]*):/.exec(h);
  if (m) return RICH_TEXT_SCHEMES.includes(m[1]!.toLowerCase());
  // No scheme before the first ':' could still parse as one (an entity-free 'java\tscript:' is handled
  // above); what a browser would resolve it to must be an allowed scheme as well.
  try {
    return RICH_TEXT_SCHEMES.includes(new URL(h, 'https://site.invalid/').protocol.replace(/:$/, ''));
  } catch {
    return false;
  }
}

export type TextLinkCheck = { ok: true; value: string } | { ok: false; message: string };

/** The message of a link with a scheme rich text does not keep ('javascript:'). */
export const unsafeLinkMessage = (scheme: string) =>
  `Links starting with ${scheme}: are not allowed. Use a page of this site such as /shop, or an http://, https://, mailto: or tel: link.`;
export const ENTER_A_LINK = 'Enter a link, such as /shop or https://www.example.com';

/**
 * A link the owner typed into the text block's link field: http(s), mailto:, tel: and paths of the
 * site are kept (an address such as www.example.com gets https://); other schemes are refused.
 */
export function checkTextLink(input: string): TextLinkCheck {
  const v = input.trim();
  if (v === '') return { ok: false, message: ENTER_A_LINK };
  const scheme = /^([a-zA-Z][a-zA-Z0-9.+-]*):/.exec(v.replace(/[\x00-\x20\x7f]+/g, ''));
  if (scheme && !RICH_TEXT_SCHEMES.includes(scheme[1]!.toLowerCase()))
    return { ok: false, message: unsafeLinkMessage(scheme[1]!.toLowerCase()) };
  const r = checkLink(v);
  if (!r.ok) return { ok: false, message: r.message ?? ENTER_A_LINK };
  if (!isSafeHref(r.value)) return { ok: false, message: ENTER_A_LINK };
  return { ok: true, value: r.value };
}
