import { describe, expect, it } from 'vitest';
import {
  CENSUS_COOKIES,
  VISIT_COOKIE_MAX_AGE_SECONDS,
  VISITOR_COOKIE_MAX_AGE_SECONDS,
  createVisitorCookie,
  formatSiteUserInfo,
  isConfigPath,
  isValidVisitorCookie,
  parseSiteUserInfo,
  parseVisitTimeCookie,
  parseVisitorCookie,
  randomVisitorId,
  shouldRecordPageView,
  shouldTrack,
  touchVisitorCookies,
} from '../../../src/core/cookies';
import { PageType, Role } from '../../../src/core/enums';

/** Deterministic random source. */
function seq(seed = 1) {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
}

describe('visitor cookie', () => {
  it('creates id|first|previous|current|count', () => {
    const c = createVisitorCookie(1700000000000, seq());
    const parts = c.split('|');
    expect(parts).toHaveLength(5);
    expect(parts[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parts.slice(1)).toEqual(['1700000000000', '1700000000000', '1700000000000', '1']);
    expect(isValidVisitorCookie(c)).toBe(true);
  });
  it('is deterministic for an injected random source', () => {
    expect(randomVisitorId(seq(7))).toBe(randomVisitorId(seq(7)));
    expect(randomVisitorId(seq(7))).not.toBe(randomVisitorId(seq(8)));
  });
  it('rejects malformed values', () => {
    expect(parseVisitorCookie('abc|1|2|3|4')).toEqual({
      visitorId: 'abc',
      firstVisit: 1,
      previousVisit: 2,
      currentVisit: 3,
      visitCount: 4,
    });
    expect(parseVisitorCookie('abc|1|2|3')).toBeNull();
    expect(parseVisitorCookie('abc|1|2|3|0')).toBeNull();
    expect(parseVisitorCookie('abc|1|2|-3|4')).toBeNull();
    expect(parseVisitorCookie('abc|1|2|3.5|4')).toBeNull();
    expect(parseVisitorCookie('|1|2|3|4')).toBeNull();
    expect(parseVisitorCookie('a b|1|2|3|4')).toBeNull();
    expect(parseVisitorCookie(undefined)).toBeNull();
  });
  it('visit-time cookie must be a positive integer', () => {
    expect(parseVisitTimeCookie('1700000000000')).toBe(1700000000000);
    expect(parseVisitTimeCookie('0')).toBeNull();
    expect(parseVisitTimeCookie('12x')).toBeNull();
    expect(parseVisitTimeCookie(null)).toBeNull();
  });
  it('lifetimes', () => {
    expect(VISITOR_COOKIE_MAX_AGE_SECONDS).toBe(63072000);
    expect(VISIT_COOKIE_MAX_AGE_SECONDS).toBe(1800);
  });
});

describe('touchVisitorCookies', () => {
  const t0 = 1_700_000_000_000;
  it('recreates an invalid visitor cookie', () => {
    const r = touchVisitorCookies({ visitorCookie: 'garbage', visitTimeCookie: null, now: t0, random: seq() });
    expect(r.newVisitor).toBe(true);
    expect(r.newVisit).toBe(true);
    expect(isValidVisitorCookie(r.visitorCookie)).toBe(true);
    expect(r.visitTimeCookie).toBe(String(t0));
  });
  it('keeps the visit within 30 minutes', () => {
    const r = touchVisitorCookies({
      visitorCookie: `id|${t0}|${t0}|${t0}|1`,
      visitTimeCookie: String(t0),
      now: t0 + 29 * 60_000,
      random: seq(),
    });
    expect(r).toMatchObject({ newVisitor: false, newVisit: false, visitorCookie: `id|${t0}|${t0}|${t0}|1` });
    expect(r.visitTimeCookie).toBe(String(t0 + 29 * 60_000));
  });
  it('starts a new visit after 30 minutes or without a visit cookie', () => {
    const later = t0 + 31 * 60_000;
    const r = touchVisitorCookies({ visitorCookie: `id|${t0}|${t0}|${t0}|1`, visitTimeCookie: String(t0), now: later, random: seq() });
    expect(r).toMatchObject({ newVisitor: false, newVisit: true, visitorCookie: `id|${t0}|${t0}|${later}|2` });
    const r2 = touchVisitorCookies({ visitorCookie: `id|${t0}|${t0}|${t0}|1`, visitTimeCookie: 'bad', now: later, random: seq() });
    expect(r2.newVisit).toBe(true);
  });
});

describe('site user info', () => {
  it('parses JSON and URI-encoded JSON', () => {
    expect(parseSiteUserInfo('{"authenticated":true,"siteUserId":"u1"}')).toEqual({ authenticated: true, siteUserId: 'u1' });
    expect(parseSiteUserInfo(formatSiteUserInfo({ authenticated: true, siteUserId: 'u2' }))).toEqual({
      authenticated: true,
      siteUserId: 'u2',
    });
  });
  it('unparsable counts as no user', () => {
    expect(parseSiteUserInfo('{oops')).toEqual({ authenticated: false, siteUserId: null });
    expect(parseSiteUserInfo('')).toEqual({ authenticated: false, siteUserId: null });
    expect(parseSiteUserInfo('[1]')).toEqual({ authenticated: false, siteUserId: null });
    expect(parseSiteUserInfo('{"authenticated":true}')).toEqual({ authenticated: false, siteUserId: null });
  });
});

describe('tracking rule', () => {
  it('anonymous visitors and viewer-only accounts are tracked', () => {
    expect(shouldTrack({ path: '/shop' })).toBe(true);
    expect(shouldTrack({ path: '/shop', roles: [] })).toBe(true);
    expect(shouldTrack({ path: '/shop', roles: [Role.VIEWER] })).toBe(true);
    expect(shouldTrack({ path: '/shop', roles: [Role.VIEWER, Role.EDITOR] })).toBe(false);
    expect(shouldTrack({ path: '/shop', roles: [Role.ADMIN] })).toBe(false);
  });
  it('not on /config, untracked page types, or when disabled', () => {
    expect(shouldTrack({ path: '/config' })).toBe(false);
    expect(shouldTrack({ path: '/config/pages?x=1' })).toBe(false);
    expect(shouldTrack({ path: '/configurator' })).toBe(true);
    expect(shouldTrack({ path: '/x', pageType: PageType.NOT_FOUND })).toBe(false);
    expect(shouldTrack({ path: '/x', pageType: PageType.LOCK_SCREEN })).toBe(false);
    expect(shouldTrack({ path: '/x', pageType: PageType.MEMBER_AREA_ACCESS_DENIED })).toBe(false);
    expect(shouldTrack({ path: '/x', pageType: PageType.PAGE })).toBe(true);
    expect(shouldTrack({ path: '/x', trackingEnabled: false })).toBe(false);
    expect(isConfigPath('/config#a')).toBe(true);
  });
  it('no page view on /search', () => {
    expect(shouldRecordPageView({ path: '/search?q=a' })).toBe(false);
    expect(shouldRecordPageView({ path: '/x', pageType: PageType.SEARCH })).toBe(false);
    expect(shouldRecordPageView({ path: '/about' })).toBe(true);
  });
  it('census cookies', () => {
    expect(CENSUS_COOKIES).toEqual(['ss_cid', 'ss_cpvisit', 'ss_cvisit', 'ss_cvr', 'ss_cvt']);
  });
});
