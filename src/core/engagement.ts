/**
 * Engagement rules shared by the server and the browser: the promo popup (page type 104) with its
 * 3x3 anchor grid, triggers, page targeting and the versioned local-storage keys (closed date,
 * version, submitted); the cookie banner's modes, categories and consent cookies. Pure: no I/O.
 */
import { CENSUS_COOKIES } from './constants';

/** Popup overlay anchor positions: top, center, bottom crossed with left, center, right. */
export const POPUP_ANCHORS = [
  'top-left',
  'top-center',
  'top-right',
  'center-left',
  'center-center',
  'center-right',
  'bottom-left',
  'bottom-center',
  'bottom-right',
] as const;
export type PopupAnchor = (typeof POPUP_ANCHORS)[number];

export const POPUP_TRIGGERS = ['delay', 'scroll', 'exit'] as const;
export type PopupTrigger = (typeof POPUP_TRIGGERS)[number];

export const POPUP_ACTIONS = ['newsletter', 'button'] as const;
export type PopupAction = (typeof POPUP_ACTIONS)[number];

/** Popup overlay local storage keys: closed date, version, submitted . */
export const POPUP_STORAGE_KEYS = {
  closedDate: 'tessera.popupOverlay.closedDate',
  version: 'tessera.popupOverlay.version',
  submitted: 'tessera.popupOverlay.submitted',
} as const;

/** What a page needs to show the popup (the owner's settings minus what stays on the server). */
export interface PopupPublic {
  version: number;
  title: string;
  text: string;
  imageUrl: string;
  imageAlt: string;
  action: PopupAction;
  buttonText: string;
  buttonUrl: string;
  placeholder: string;
  successText: string;
  anchor: PopupAnchor;
  trigger: PopupTrigger;
  delaySeconds: number;
  scrollPercent: number;
  /** Days after a close before it shows again; 0: not until the owner changes it. */
  showAgainDays: number;
}

export interface PopupStored {
  closedDate: string | null;
  version: string | null;
  submitted: string | null;
}

/**
 * Whether the popup shows, from what local storage holds. A stored version other than the current one
 * means the owner changed the popup: it shows again (closed and submitted belong to the old version).
 */
export function popupDue(stored: PopupStored, version: number, showAgainDays: number, now: number): boolean {
  if (stored.version !== String(version)) return true;
  if (stored.submitted === 'true') return false;
  if (!stored.closedDate) return true;
  const closed = Date.parse(stored.closedDate);
  if (!Number.isFinite(closed)) return true;
  if (showAgainDays <= 0) return false;
  return now - closed >= showAgainDays * 86_400_000;
}

/**
 * Whether the popup is on a page: 'all', or one of the chosen paths ('/' the home page; a path ending
 * in '/*' matches that path and everything under it). Never on /config, /cart or /checkout.
 */
export function popupOnPage(pages: 'all' | readonly string[], path: string): boolean {
  const p = (path.split('?')[0] ?? '/').replace(/\/+$/, '') || '/';
  if (/^\/(config|cart|checkout|api)(\/|$)/.test(p)) return false;
  if (pages === 'all') return true;
  return pages.some((raw) => {
    const want = raw.trim();
    if (want.endsWith('/*')) {
      const base = want.slice(0, -2).replace(/\/+$/, '');
      return p === (base || '/') || p.startsWith(`${base}/`);
    }
    return (want.replace(/\/+$/, '') || '/') === p;
  });
}

/** The CSS position of a panel anchored at a grid cell (left/right/top/bottom and centring). */
export function anchorStyle(anchor: PopupAnchor, margin = 24): Record<string, string | number> {
  const [v, h] = anchor.split('-') as ['top' | 'center' | 'bottom', 'left' | 'center' | 'right'];
  const s: Record<string, string | number> = { position: 'fixed' };
  const t: string[] = [];
  if (v === 'top') s.top = margin;
  else if (v === 'bottom') s.bottom = margin;
  else {
    s.top = '50%';
    t.push('translateY(-50%)');
  }
  if (h === 'left') s.left = margin;
  else if (h === 'right') s.right = margin;
  else {
    s.left = '50%';
    t.push('translateX(-50%)');
  }
  if (t.length) s.transform = t.join(' ');
  return s;
}

// ---- Cookie banner ------------------------------------------------------------------------------

/** off: no banner; notice: an information banner; opt-in: nothing optional runs before consent. */
export const COOKIE_BANNER_MODES = ['off', 'notice', 'opt-in'] as const;
export type CookieBannerMode = (typeof COOKIE_BANNER_MODES)[number];

/** Optional cookie categories; necessary cookies (cart, crumb, sign-in) need no consent. */
export const COOKIE_CATEGORIES = ['analytics', 'marketing'] as const;
export type CookieCategory = (typeof COOKIE_CATEGORIES)[number];

export const CONSENT_MAX_AGE_SECONDS = 365 * 24 * 3600;
export { CENSUS_COOKIES };

export type ConsentChoices = Record<CookieCategory, boolean>;

export function formatChoices(c: ConsentChoices): string {
  return COOKIE_CATEGORIES.map((k) => `${k}:${c[k] ? 1 : 0}`).join('|');
}

/** The choices a cookie holds; null when it is missing or unreadable (the visitor has not decided). */
export function parseChoices(value: string | null | undefined): ConsentChoices | null {
  if (typeof value !== 'string' || value === '') return null;
  const out: Partial<ConsentChoices> = {};
  for (const part of value.split('|')) {
    const m = /^([a-z]+):([01])$/.exec(part);
    if (!m || !(COOKIE_CATEGORIES as readonly string[]).includes(m[1]!)) return null;
    out[m[1] as CookieCategory] = m[2] === '1';
  }
  return COOKIE_CATEGORIES.every((k) => typeof out[k] === 'boolean') ? (out as ConsentChoices) : null;
}

/** Whether a category may run: always outside opt-in mode; in opt-in mode only once granted. */
export function categoryAllowed(mode: CookieBannerMode, choices: ConsentChoices | null, category: CookieCategory): boolean {
  if (mode !== 'opt-in') return true;
  return choices?.[category] === true;
}

/** Whether the banner is shown to this visitor (they have not decided or dismissed it yet). */
export function bannerDue(mode: CookieBannerMode, cookies: { choices?: string; notice?: string }): boolean {
  if (mode === 'off') return false;
  if (mode === 'notice') return cookies.notice !== '1';
  return parseChoices(cookies.choices) === null;
}
