/**
 * The page's analytics facts (the server's `tessera-page` data island) and the browser facts every
 * collector shares. Reading never throws: a page without the island is simply not tracked.
 */
import { isConfigPath } from '../../core/cookies.js';
import type { CookiePolicy, PageData } from '../../core/api/analytics.js';
export type { CookiePolicy, PageData };

export const PAGE_DATA_ID = 'tessera-page';

/** Parses the data island's text; null when missing or malformed. */
export function parsePageData(text: string | null | undefined): PageData | null {
  if (!text) return null;
  try {
    const o = JSON.parse(text) as Partial<PageData>;
    if (!o || typeof o !== 'object' || typeof o.websiteId !== 'string') return null;
    return {
      websiteId: o.websiteId,
      templateId: typeof o.templateId === 'string' ? o.templateId : '',
      pageType: typeof o.pageType === 'number' ? o.pageType : null,
      locale: typeof o.locale === 'string' ? o.locale : '',
      track: o.track === true,
      cookiePolicy: o.cookiePolicy === 'ask' || o.cookiePolicy === 'restrictive' ? o.cookiePolicy : 'implied',
      itemId: typeof o.itemId === 'string' ? o.itemId : null,
      collectionId: typeof o.collectionId === 'string' ? o.collectionId : null,
      memberLocale: typeof o.memberLocale === 'string' && o.memberLocale !== '' ? o.memberLocale.slice(0, 35) : null,
    };
  } catch {
    return null;
  }
}

export function readPageData(doc: Document = document): PageData | null {
  const page = parsePageData(doc.getElementById(PAGE_DATA_ID)?.textContent);
  // Belt and braces: never under /config, whatever the island says.
  if (page && isConfigPath(doc.location?.pathname ?? '/')) page.track = false;
  return page;
}

/** Cuts a string to a length the server accepts. */
export const cut = (s: string | null | undefined, n: number): string | undefined => (s == null ? undefined : String(s).slice(0, n));
