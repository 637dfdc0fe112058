/**
 * Email address checks without a backtracking pattern (issue 21, item 3). The former pattern
 * `/^[^\s@]+@[^\s@]+\.[^\s@]+$/` backtracks quadratically on a long string without a match (200 KB
 * blocked the event loop for 30 s); these run in one pass and refuse anything longer than
 * MAX_EMAIL_CHECK before looking at a single character.
 */

/** No address is longer than this (RFC 5321 allows 254); longer text is refused unread. */
export const MAX_EMAIL_CHECK = 320;

function isSpace(c: number): boolean {
  // What \s matches: ASCII white space, NBSP, the Unicode space separators, line/paragraph separators, BOM.
  return (
    (c >= 9 && c <= 13) ||
    c === 32 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * local@domain.tld: exactly one `@` with text before it, no white space, and a dot in the domain with
 * text on both sides. The same addresses the old pattern took, in linear time. Length first.
 */
export function isEmailAddress(text: string, max: number = MAX_EMAIL_CHECK): boolean {
  if (typeof text !== 'string' || text.length > Math.min(max, MAX_EMAIL_CHECK) || text.length < 3) return false;
  let at = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) return false;
    if (c === 64) {
      if (at !== -1) return false;
      at = i;
    }
  }
  if (at < 1) return false;
  const dot = text.indexOf('.', at + 2);
  return dot !== -1 && dot < text.length - 1;
}

/** The restock sign-up's stricter form: as isEmailAddress, and the text after the last dot is 2 to 4 letters. */
export function isRestockEmailAddress(text: string, max: number = MAX_EMAIL_CHECK): boolean {
  if (!isEmailAddress(text, max)) return false;
  const tld = text.slice(text.lastIndexOf('.') + 1);
  if (tld.length < 2 || tld.length > 4 || text.lastIndexOf('.') <= text.indexOf('@') + 1) return false;
  for (let i = 0; i < tld.length; i++) {
    const c = tld.charCodeAt(i) | 32;
    if (c < 97 || c > 122) return false;
  }
  return true;
}
