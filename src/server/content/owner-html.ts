/**
 * Owner-written HTML, cleaned with the one allow-list of rich text (core/rich-text.ts). Every piece of
 * HTML a staff member writes (product descriptions, page and post bodies, text and accordion blocks, a
 * form's post-submission HTML) goes through `cleanOwnerHtml` when it is saved and again when it is
 * rendered, so rows stored before the rule are cleaned too. Only the admin-only code (header/footer
 * injection, raw code blocks) reaches a page as written (docs/decisions/0012-owner-html-allow-list.md).
 *
 * Cleaning is a pure function of the text, so results are kept in a small least-recently-used map
 * (bounded by entries and characters): a page rendered again costs a map lookup per body.
 */
import sanitizeHtml from 'sanitize-html';
import { RICH_TEXT_ATTRIBUTES, RICH_TEXT_SCHEMES, RICH_TEXT_TAGS } from '../../core/rich-text.js';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: Object.fromEntries(Object.entries(RICH_TEXT_ATTRIBUTES).map(([tag, names]) => [tag, [...names]])),
  allowedSchemes: [...RICH_TEXT_SCHEMES],
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: attribs.target === '_blank' ? { ...attribs, rel: 'noopener noreferrer' } : attribs }),
    // An image always has a text alternative (empty: decorative) until the owner writes one.
    img: (tagName, attribs) => ({ tagName, attribs: attribs.alt === undefined ? { ...attribs, alt: '' } : attribs }),
  },
};

const TEXT_ONLY: sanitizeHtml.IOptions = { allowedTags: [], allowedAttributes: {} };

const MAX_ENTRIES = 5000;
const MAX_CHARS = 16 * 1024 * 1024;

/** A bounded least-recently-used memo of a string function. */
class Memo {
  private readonly map = new Map<string, string>();
  private chars = 0;
  constructor(private readonly fn: (s: string) => string) {}
  get(input: string): string {
    const hit = this.map.get(input);
    if (hit !== undefined) {
      this.map.delete(input);
      this.map.set(input, hit);
      return hit;
    }
    const out = this.fn(input);
    const size = input.length + out.length;
    if (size > MAX_CHARS / 8) return out;
    this.map.set(input, out);
    this.chars += size;
    for (const [k, v] of this.map) {
      if (this.map.size <= MAX_ENTRIES && this.chars <= MAX_CHARS) break;
      this.map.delete(k);
      this.chars -= k.length + v.length;
    }
    return out;
  }
  clear(): void {
    this.map.clear();
    this.chars = 0;
  }
}

const rich = new Memo((html) => sanitizeHtml(html, OPTIONS));
const text = new Memo((html) => decodeBasicEntities(sanitizeHtml(html, TEXT_ONLY)));

/** Owner HTML with only the rich-text elements, attributes and link schemes kept. */
export function cleanOwnerHtml(html: string): string {
  if (html === '' || alreadyClean(html)) return html;
  return rich.get(html);
}

/** Block elements the quick check lets through: only at the top level, where opening one closes nothing. */
const PLAIN_BLOCKS: ReadonlySet<string> = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Inline elements the quick check lets through anywhere (none of them closes another when opened). */
const PLAIN_INLINE: ReadonlySet<string> = new Set(['strong', 'b', 'em', 'i', 'u', 's', 'mark', 'small', 'sub', 'sup', 'code', 'span']);

/**
 * Whether the cleaner would give `html` back unchanged, told without parsing it: text without '&', '<',
 * '>' or control characters, in kept elements written without attributes, every one closed in order,
 * blocks (paragraphs, headings) only at the top level. Most product and post bodies are that, and the
 * cleaner's parse costs far more than this scan on a page's first render. Anything else is cleaned.
 */
function alreadyClean(html: string): boolean {
  const open: string[] = [];
  const token = /<(\/?)([a-z0-9]{1,10})>|[^<>&\u0000-\u0008\u000b-\u001f\u007f]+/gy;
  let at = 0;
  while (at < html.length) {
    token.lastIndex = at;
    const m = token.exec(html);
    if (!m) return false;
    at = token.lastIndex;
    const name = m[2];
    if (name === undefined) continue;
    if (m[1]) {
      if (open.pop() !== name) return false;
    } else if (PLAIN_INLINE.has(name) || (PLAIN_BLOCKS.has(name) && open.length === 0)) open.push(name);
    else return false;
  }
  return open.length === 0;
}

/**
 * The text of owner HTML with every element taken out (excerpts are text: themes print them escaped).
 * Entities are decoded, so the result is the text a reader sees.
 */
export function ownerPlainText(html: string): string {
  if (html === '' || !/[<&]/.test(html)) return html;
  return text.get(html);
}

function decodeBasicEntities(s: string): string {
  return s.replace(/&(lt|gt|quot|#39|amp);/g, (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e]!);
}

/** Forgets the memo (benchmarks measuring a cold render). */
export function clearOwnerHtmlMemo(): void {
  rich.clear();
  text.clear();
}

/** For tests: the quick check and the cleaner it stands in for. */
export const ownerHtmlInternals = { alreadyClean, sanitize: (html: string) => sanitizeHtml(html, OPTIONS) };
