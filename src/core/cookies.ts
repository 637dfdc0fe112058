/**
 * Visitor-tracking cookie formats and the tracking rule.
 *
 * Visitor cookie (ss_cvr): `{visitorId}|{firstVisit}|{previousVisit}|{currentVisit}|{visitCount}`:
 * a visitor id followed by four positive integers (epoch milliseconds and a count), separated by
 * bars; it lasts 2 years. Visit-time cookie (ss_cvt): a positive integer (epoch ms of the last
 * activity); it lasts 30 minutes, so its absence means a new visit. Invalid cookies are recreated.
 */
import { CENSUS_COOKIES, VISIT_COOKIE_MAX_AGE_SECONDS, VISITOR_COOKIE_MAX_AGE_SECONDS } from './constants';
import { PageType, Role, UNTRACKED_PAGE_TYPES } from './enums';

// Every cookie the site sets or reads, server and browser alike, by name.
/** The shopper's cart token (httpOnly). */
export const CART_COOKIE = 'tessera_cart';
/** The CSRF crumb: a double-submit token the browser echoes in forms and headers. */
export const CRUMB_COOKIE = 'crumb';
/** The owner's signed session (httpOnly). */
export const OWNER_COOKIE = 'tessera_owner';
/** The site user's httpOnly session cookie; the readable SiteUserInfo cookie only tells scripts who is signed in. */
export const SITE_USER_COOKIE = 'tessera_site_user';
/** The sign-up in progress (confirmation pending). */
export const SIGN_UP_COOKIE = 'tessera_sign_up';
/** A visitor's member-area unlock (password-protected collections). */
export const UNLOCK_COOKIE = 'tessera_unlock';
/** The anonymous liker id behind a post's likes. */
export const LIKE_COOKIE = 'tessera_liker';
/** The analytics session (visit) id. */
export const SESSION_COOKIE = 'ss_cvisit';
/** The analytics visitor id. */
export const ANALYTICS_ID_COOKIE = 'ss_cid';
/** The analytics decision the tracker and the census routes read: 'granted' or 'denied'. */
export const CONSENT_COOKIE = 'tessera_consent';
/** Every category decision: 'analytics:1|marketing:0'. */
export const CONSENT_CHOICES_COOKIE = 'tessera_cookie_choices';
/** The notice banner was dismissed. */
export const NOTICE_COOKIE = 'tessera_cookie_notice';
/** The preview cookie: set only for a signed-in owner; ignored without an owner session. */
export const PREVIEW_COOKIE = 'tessera_preview';
/** The safe-mode (script-disable) cookie: honoured only for a signed-in owner. */
export const SAFE_MODE_COOKIE = 'tessera_safe_mode';
export const VISITOR_COOKIE_NAME = 'ss_cvr';
export const VISIT_TIME_COOKIE_NAME = 'ss_cvt';
export const SITE_USER_INFO_COOKIE_NAME = 'SiteUserInfo';
export { CENSUS_COOKIES, VISITOR_COOKIE_MAX_AGE_SECONDS, VISIT_COOKIE_MAX_AGE_SECONDS };

export interface VisitorCookie {
  visitorId: string;
  firstVisit: number;
  previousVisit: number;
  currentVisit: number;
  visitCount: number;
}

const POSITIVE_INT = /^[1-9]\d*$/;
const VISITOR_ID = /^[A-Za-z0-9-]{1,64}$/;

function positiveInt(s: string): number | null {
  if (!POSITIVE_INT.test(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : null;
}

/** Parses the visitor cookie; null unless it is an id and four positive integers separated by bars. */
export function parseVisitorCookie(value: string | null | undefined): VisitorCookie | null {
  if (typeof value !== 'string') return null;
  const parts = value.split('|');
  if (parts.length !== 5 || !VISITOR_ID.test(parts[0])) return null;
  const nums = parts.slice(1).map(positiveInt);
  if (nums.some((n) => n === null)) return null;
  const [firstVisit, previousVisit, currentVisit, visitCount] = nums as number[];
  return { visitorId: parts[0], firstVisit, previousVisit, currentVisit, visitCount };
}

export function isValidVisitorCookie(value: string | null | undefined): boolean {
  return parseVisitorCookie(value) !== null;
}

export function formatVisitorCookie(c: VisitorCookie): string {
  return [c.visitorId, c.firstVisit, c.previousVisit, c.currentVisit, c.visitCount].join('|');
}

/** A random RFC 4122 version-4 id from an injected random source returning [0, 1). */
export function randomVisitorId(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16) & 15);
  hex[12] = 4;
  hex[16] = (hex[16] & 0x3) | 0x8;
  const s = hex.map((h) => h.toString(16)).join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/** A new visitor cookie: first, previous and current visit at now, one visit. */
export function createVisitorCookie(now: number, random: () => number): string {
  const t = Math.max(1, Math.floor(now));
  return formatVisitorCookie({ visitorId: randomVisitorId(random), firstVisit: t, previousVisit: t, currentVisit: t, visitCount: 1 });
}

/** Parses the visit-time cookie: a positive integer, else null. */
export function parseVisitTimeCookie(value: string | null | undefined): number | null {
  return typeof value === 'string' ? positiveInt(value) : null;
}

export function createVisitTimeCookie(now: number): string {
  return String(Math.max(1, Math.floor(now)));
}

export interface VisitorCookiesUpdate {
  visitorCookie: string;
  visitTimeCookie: string;
  newVisitor: boolean;
  newVisit: boolean;
}

/**
 * Updates the two cookies for a page view at now. An invalid visitor cookie is recreated (new
 * visitor, new visit). A missing or invalid visit-time cookie, or one older than 30 minutes,
 * starts a new visit: previous = current, current = now, count + 1. The visit time is refreshed.
 */
export function touchVisitorCookies(input: {
  visitorCookie?: string | null;
  visitTimeCookie?: string | null;
  now: number;
  random: () => number;
}): VisitorCookiesUpdate {
  const now = Math.max(1, Math.floor(input.now));
  const visitTimeCookie = createVisitTimeCookie(now);
  const parsed = parseVisitorCookie(input.visitorCookie);
  if (!parsed) {
    return { visitorCookie: createVisitorCookie(now, input.random), visitTimeCookie, newVisitor: true, newVisit: true };
  }
  const last = parseVisitTimeCookie(input.visitTimeCookie);
  const active = last !== null && now - last <= VISIT_COOKIE_MAX_AGE_SECONDS * 1000 && last <= now;
  if (active) {
    return { visitorCookie: formatVisitorCookie(parsed), visitTimeCookie, newVisitor: false, newVisit: false };
  }
  const next: VisitorCookie = {
    ...parsed,
    previousVisit: parsed.currentVisit,
    currentVisit: now,
    visitCount: parsed.visitCount + 1,
  };
  return { visitorCookie: formatVisitorCookie(next), visitTimeCookie, newVisitor: false, newVisit: true };
}

// ---- Site-user info cookie ------------------------------------------------------------------

export interface SiteUserInfo {
  authenticated: boolean;
  siteUserId: string | null;
}

export const NO_SITE_USER: Readonly<SiteUserInfo> = Object.freeze({ authenticated: false, siteUserId: null });

/**
 * Parses the site-user info cookie (JSON, possibly URI-encoded) with authenticated and siteUserId.
 * An unparsable cookie counts as no user.
 */
export function parseSiteUserInfo(value: string | null | undefined): SiteUserInfo {
  if (typeof value !== 'string' || value.trim() === '') return { ...NO_SITE_USER };
  let data: unknown;
  try {
    data = JSON.parse(value);
  } catch {
    try {
      data = JSON.parse(decodeURIComponent(value));
    } catch {
      return { ...NO_SITE_USER };
    }
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return { ...NO_SITE_USER };
  const o = data as Record<string, unknown>;
  const id =
    typeof o.siteUserId === 'string' && o.siteUserId !== '' ? o.siteUserId : typeof o.siteUserId === 'number' ? String(o.siteUserId) : null;
  return { authenticated: o.authenticated === true && id !== null, siteUserId: id };
}

export function formatSiteUserInfo(info: SiteUserInfo): string {
  return encodeURIComponent(JSON.stringify({ authenticated: info.authenticated, siteUserId: info.siteUserId }));
}

// ---- Tracking rule ------------------------------------------------------------------------------

/** Whether a path is a configuration page (/config and below). */
export function isConfigPath(path: string): boolean {
  const p = path.split(/[?#]/)[0];
  return p === '/config' || p.startsWith('/config/');
}

export interface TrackingInput {
  /** The account's website roles; empty or absent for anonymous visitors. */
  roles?: readonly number[] | null;
  path: string;
  pageType?: number | null;
  /** False when tracking is globally disabled. */
  trackingEnabled?: boolean;
}

/**
 * Visitor analytics are recorded only for anonymous visitors or accounts whose only website role
 * is viewer, outside /config pages, not on not-found, lock-screen and member-access-denied pages,
 * and not when tracking is globally disabled.
 */
export function shouldTrack(input: TrackingInput): boolean {
  if (input.trackingEnabled === false) return false;
  if (isConfigPath(input.path)) return false;
  if (input.pageType !== undefined && input.pageType !== null && (UNTRACKED_PAGE_TYPES as readonly number[]).includes(input.pageType)) {
    return false;
  }
  const roles = input.roles ?? [];
  return roles.length === 0 || roles.every((r) => r === Role.VIEWER);
}

/** Page views additionally skip the search page. */
export function shouldRecordPageView(input: TrackingInput): boolean {
  const p = input.path.split(/[?#]/)[0];
  if (p === '/search' || input.pageType === PageType.SEARCH) return false;
  return shouldTrack(input);
}
