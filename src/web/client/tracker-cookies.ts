/**
 * Visitor cookies in the browser: the visitor cookie (2 years) and the visit-time cookie (30 minutes)
 * in the formats of core/cookies.ts, recreated when malformed; the session id of the current visit;
 * the analytics id (390 days, mirrored in local storage with its expiry); the first-session and
 * has-landed flags in session storage; and the clearing of every census cookie under a restrictive
 * cookie policy. The cookie jar is injectable so the rules are unit-tested without a browser.
 */
import {
  CENSUS_COOKIES,
  VISITOR_COOKIE_MAX_AGE_SECONDS,
  VISIT_COOKIE_MAX_AGE_SECONDS,
  VISITOR_COOKIE_NAME,
  VISIT_TIME_COOKIE_NAME,
  parseVisitorCookie,
  randomVisitorId,
  touchVisitorCookies,
} from '../../core/cookies.js';
import { ANALYTICS_ID_COOKIE_MAX_AGE_SECONDS } from '../../core/constants.js';

import { ANALYTICS_WARNINGS } from '../../core/analytics-options.js';
import { ANALYTICS_ID_COOKIE, SESSION_COOKIE } from '../../core/cookies.js';

export const SESSION_ID_COOKIE = SESSION_COOKIE;
export { ANALYTICS_ID_COOKIE };
export const ANALYTICS_ID_KEY = 'tessera.analyticsId';
export const ANALYTICS_ID_EXPIRY_KEY = 'tessera.analyticsIdExpiry';
export const FIRST_SESSION_KEY = 'tessera.firstSession';
export const HAS_LANDED_KEY = 'tessera.hasLanded';
/** Session storage: the marketing campaign the visit landed from (the landing address's utm_campaign), sent as marketing_id. */
export const MARKETING_ID_KEY = 'tessera.marketingId';

/**
 * The marketing id of a landing address: its utm_campaign (or, without one, utm_id), trimmed, at most 64
 * characters, printable only; null when the visit did not come from a campaign link.
 */
export function marketingIdOf(search: string): string | null {
  let q: URLSearchParams;
  try {
    q = new URLSearchParams(search);
  } catch {
    return null;
  }
  const raw = (q.get('utm_campaign') ?? q.get('utm_id') ?? '').trim().slice(0, 64);
  const printable = [...raw].every((ch) => ch.charCodeAt(0) > 0x1f && ch.charCodeAt(0) !== 0x7f);
  return raw && printable ? raw : null;
}

export interface CookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string, maxAgeSeconds: number): void;
}

export interface KeyValue {
  getItem(k: string): string | null;
  setItem(k: string, v: string): void;
  removeItem(k: string): void;
}

export function documentJar(doc: Document = document): CookieJar {
  return {
    get(name) {
      for (const part of doc.cookie.split(';')) {
        const i = part.indexOf('=');
        if (i > 0 && part.slice(0, i).trim() === name) {
          try {
            return decodeURIComponent(part.slice(i + 1).trim());
          } catch {
            return part.slice(i + 1).trim();
          }
        }
      }
      return undefined;
    },
    set(name, value, maxAge) {
      const secure = doc.location?.protocol === 'https:' ? '; Secure' : '';
      doc.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${Math.floor(maxAge)}; SameSite=Lax${secure}`;
    },
  };
}

export interface VisitorState {
  visitorCookie: string;
  visitorId: string;
  sessionId: string;
  analyticsId: string;
  newVisitor: boolean;
  newVisit: boolean;
  firstSession: boolean;
  /** True on the first tracked page of this browser session (the landing page). */
  landing: boolean;
}

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

/**
 * A page view's cookie update: the visitor and visit-time cookies (recreated when malformed), a
 * new session id on a new visit, the analytics id kept for 390 days, and the session flags.
 */
export function touchVisitor(
  jar: CookieJar,
  opts: { now: number; random: () => number; local?: KeyValue | null; session?: KeyValue | null; warn?: (message: string) => void },
): VisitorState {
  const u = touchVisitorCookies({
    visitorCookie: jar.get(VISITOR_COOKIE_NAME),
    visitTimeCookie: jar.get(VISIT_TIME_COOKIE_NAME),
    now: opts.now,
    random: opts.random,
  });
  jar.set(VISITOR_COOKIE_NAME, u.visitorCookie, VISITOR_COOKIE_MAX_AGE_SECONDS);
  jar.set(VISIT_TIME_COOKIE_NAME, u.visitTimeCookie, VISIT_COOKIE_MAX_AGE_SECONDS);

  let sessionId = jar.get(SESSION_ID_COOKIE);
  if (u.newVisit || !sessionId || !/^[A-Za-z0-9-]{8,64}$/.test(sessionId)) sessionId = randomVisitorId(opts.random);
  jar.set(SESSION_ID_COOKIE, sessionId, VISIT_COOKIE_MAX_AGE_SECONDS);

  const local = opts.local;
  let analyticsId = jar.get(ANALYTICS_ID_COOKIE);
  if (!analyticsId || !/^[A-Za-z0-9-]{8,64}$/.test(analyticsId)) {
    const stored = safe(() => local?.getItem(ANALYTICS_ID_KEY) ?? null, null);
    const expiry = Number(safe(() => local?.getItem(ANALYTICS_ID_EXPIRY_KEY) ?? null, null));
    analyticsId = stored && /^[A-Za-z0-9-]{8,64}$/.test(stored) && expiry > opts.now ? stored : randomVisitorId(opts.random);
  }
  jar.set(ANALYTICS_ID_COOKIE, analyticsId, ANALYTICS_ID_COOKIE_MAX_AGE_SECONDS);
  // The id is mirrored in local storage; where that storage is missing or refuses the write, warn.
  const stored = safe(() => {
    if (!local) return false;
    local.setItem(ANALYTICS_ID_KEY, analyticsId!);
    local.setItem(ANALYTICS_ID_EXPIRY_KEY, String(opts.now + ANALYTICS_ID_COOKIE_MAX_AGE_SECONDS * 1000));
    return true;
  }, false);
  if (!stored) opts.warn?.(ANALYTICS_WARNINGS.ID_NOT_STORED);

  const session = opts.session;
  const firstSessionStored = safe(() => session?.getItem(FIRST_SESSION_KEY) ?? null, null);
  const firstSession = firstSessionStored === null ? u.newVisitor : firstSessionStored === 'true';
  const landing = safe(() => session?.getItem(HAS_LANDED_KEY) ?? null, null) !== 'true';
  safe(() => {
    session?.setItem(FIRST_SESSION_KEY, String(firstSession));
    session?.setItem(HAS_LANDED_KEY, 'true');
  }, undefined);

  return {
    visitorCookie: u.visitorCookie,
    visitorId: parseVisitorCookie(u.visitorCookie)!.visitorId,
    sessionId,
    analyticsId,
    newVisitor: u.newVisitor,
    newVisit: u.newVisit,
    firstSession,
    landing,
  };
}

/** A restrictive cookie policy: every census cookie and stored analytics id is removed. */
export function clearCensusCookies(jar: CookieJar, local?: KeyValue | null): void {
  for (const name of CENSUS_COOKIES) if (jar.get(name) !== undefined) jar.set(name, '', 0);
  safe(() => {
    local?.removeItem(ANALYTICS_ID_KEY);
    local?.removeItem(ANALYTICS_ID_EXPIRY_KEY);
  }, undefined);
}
