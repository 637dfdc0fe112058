/**
 * The page's analytics facts for the browser: a small JSON data island
 * `<script type="application/json" id="tessera-page">` the tracker, the error reporter and the
 * performance collector read. `track` is decided here with the core tracking rule, so an owner, a
 * /config page, an untracked page type or tracking switched off never loads a collector at all.
 */
import type { FastifyRequest } from 'fastify';
import { shouldTrack } from '../../core/cookies.js';
import { PageType } from '../../core/enums.js';
import type { CookiePolicy, PageData } from '../../core/api/analytics.js';
import { scriptJson } from '../../core/html.js';

export const PAGE_DATA_ID = 'tessera-page';

export type { PageData };

export function pageDataScript(data: PageData): string {
  return `<script type="application/json" id="${PAGE_DATA_ID}">${scriptJson(data)}</script>`;
}

export interface PageFacts {
  websiteId: string;
  templateId: string;
  locale: string;
  trackingEnabled: boolean;
  cookiePolicy: CookiePolicy;
  /** The signed-in account's role, if any. */
  role: number | null;
  /** The signed-in site user's language, if any. */
  memberLocale?: string | null;
}

/** The page type a rendered page declares on its body (`page-type-N`), else null. */
export function pageTypeOf(html: string): number | null {
  const m = /<body[^>]*\bclass="[^"]*\bpage-type-(\d{1,4})\b/.exec(html);
  return m ? Number(m[1]) : null;
}

const ID_VALUE = /^[A-Za-z0-9_.:-]{1,64}"/;
const WORD_CHAR = /\w/;

/**
 * The value of the first `<attr>"…"` whose name starts a word and whose value is an id of 1-64 of
 * [A-Za-z0-9_.:-] (what `\bdata-item-id="([A-Za-z0-9_.:-]{1,64})"` would match first), found with indexOf:
 * a regular expression starting with \b stepped through every character of a large page, a fifth of a
 * 50-product list's render.
 */
function firstIdAttr(html: string, attr: string): string | null {
  for (let at = html.indexOf(attr); at !== -1; at = html.indexOf(attr, at + 1)) {
    if (at > 0 && WORD_CHAR.test(html[at - 1]!)) continue;
    const start = at + attr.length;
    const m = ID_VALUE.exec(html.slice(start, start + 65));
    if (m) return m[0].slice(0, -1);
  }
  return null;
}

/** Builds the data island of a rendered page, or null when the HTML already carries one. */
export function pageDataFor(req: FastifyRequest, html: string, facts: PageFacts): PageData {
  const path = req.url.split('?')[0] ?? '/';
  const pageType = pageTypeOf(html);
  // Only an item page names its item (a list's first card would otherwise cost a scan for nothing).
  const itemId = pageType === PageType.CONTENT_ITEM ? firstIdAttr(html, 'data-item-id="') : null;
  const collectionId = firstIdAttr(html, 'data-collection-id="');
  const track = shouldTrack({ roles: facts.role === null ? [] : [facts.role], path, pageType, trackingEnabled: facts.trackingEnabled });
  return {
    websiteId: facts.websiteId,
    templateId: facts.templateId,
    pageType,
    locale: facts.locale,
    track,
    cookiePolicy: facts.cookiePolicy,
    itemId,
    collectionId,
    ...(facts.memberLocale ? { memberLocale: facts.memberLocale } : {}),
  };
}

/** Where the island goes: before the last closing body tag, or at the end. */
export function pageDataAt(html: string): number {
  const at = html.lastIndexOf('</body>');
  return at === -1 ? html.length : at;
}

/** Inserts the island before the closing body tag (or at the end). */
export function injectPageData(html: string, script: string): string {
  const at = pageDataAt(html);
  return html.slice(0, at) + script + html.slice(at);
}
