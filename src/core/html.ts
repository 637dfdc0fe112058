/** Escaping for HTML written by hand on the server and in the browser. */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const HTML_SPECIAL = /[&<>"']/g;

/**
 * Text that is safe both as element content and inside an attribute quoted with either quote:
 * & < > " and ' become entities. Anything that is not a string is turned into one first ('' for null).
 */
export function escapeHtml(s: unknown): string {
  const text = typeof s === 'string' ? s : String(s ?? '');
  return text.replace(HTML_SPECIAL, (c) => HTML_ESCAPES[c]!);
}

/** JSON safe inside a script element: no '<' (so no '</script>'), '>' or '&', and no line separators. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
