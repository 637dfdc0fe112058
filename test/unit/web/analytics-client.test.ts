import { describe, expect, it, vi, afterEach } from 'vitest';
import { parseVisitorCookie, parseVisitTimeCookie } from '../../../src/core/cookies.js';
import { ERROR_REPORTER_MAX_QUEUED, ERROR_REPORTER_MAX_SENDS } from '../../../src/core/constants.js';
import {
  ANALYTICS_ID_COOKIE,
  ANALYTICS_ID_EXPIRY_KEY,
  ANALYTICS_ID_KEY,
  FIRST_SESSION_KEY,
  HAS_LANDED_KEY,
  SESSION_ID_COOKIE,
  clearCensusCookies,
  touchVisitor,
  type CookieJar,
  type KeyValue,
} from '../../../src/web/client/tracker-cookies.js';
import { Tracker, cartFieldsOf, consentOf, resolveLocale, type TrackerEnv } from '../../../src/web/client/tracker.js';
import { CONSENT_COOKIE } from '../../../src/core/cookies.js';
import { ErrorReporter, type ErrorEvent_ } from '../../../src/web/client/error-reporter.js';
import { PerformanceBuffer, waitForPageSpeed, type SettleHost } from '../../../src/web/client/performance.js';
import { parsePageData, type PageData } from '../../../src/web/client/analytics-page.js';

const YEAR2 = 2 * 365 * 24 * 3600;
const NOW = 1_750_000_000_000;

class Jar implements CookieJar {
  values = new Map<string, string>();
  ages = new Map<string, number>();
  get(name: string) {
    return this.values.get(name);
  }
  set(name: string, value: string, maxAge: number) {
    if (maxAge <= 0) {
      this.values.delete(name);
      this.ages.set(name, 0);
      return;
    }
    this.values.set(name, value);
    this.ages.set(name, maxAge);
  }
}

class Store implements KeyValue {
  m = new Map<string, string>();
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, v);
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
}

function seq(): () => number {
  let i = 0;
  return () => (i = (i * 9301 + 49297) % 233280) / 233280;
}

describe('visitor cookies', () => {
  it('creates a visitor cookie (an id and four positive integers, 2 years) and a visit-time cookie (a positive integer, 30 minutes)', () => {
    const jar = new Jar();
    const s = touchVisitor(jar, { now: NOW, random: seq() });
    const v = parseVisitorCookie(jar.get('ss_cvr'));
    expect(v).toEqual({ visitorId: s.visitorId, firstVisit: NOW, previousVisit: NOW, currentVisit: NOW, visitCount: 1 });
    expect(jar.get('ss_cvr')).toMatch(/^[0-9a-f-]{36}\|\d+\|\d+\|\d+\|\d+$/);
    expect(jar.ages.get('ss_cvr')).toBe(YEAR2);
    expect(parseVisitTimeCookie(jar.get('ss_cvt'))).toBe(NOW);
    expect(jar.ages.get('ss_cvt')).toBe(30 * 60);
    expect(s).toMatchObject({ newVisitor: true, newVisit: true });
  });

  it('keeps the visit within 30 minutes and starts a new one after, counting visits', () => {
    const jar = new Jar();
    const first = touchVisitor(jar, { now: NOW, random: seq() });
    const same = touchVisitor(jar, { now: NOW + 29 * 60_000, random: seq() });
    expect(same).toMatchObject({ newVisitor: false, newVisit: false, visitorId: first.visitorId, sessionId: first.sessionId });
    jar.values.delete('ss_cvt'); // the 30-minute cookie expired
    const later = touchVisitor(jar, { now: NOW + 3 * 3600_000, random: seq() });
    expect(later.newVisit).toBe(true);
    expect(later.sessionId).not.toBe(first.sessionId);
    expect(parseVisitorCookie(jar.get('ss_cvr'))).toMatchObject({
      visitorId: first.visitorId,
      previousVisit: NOW,
      currentVisit: NOW + 3 * 3600_000,
      visitCount: 2,
    });
  });

  it.each(['', 'abc', 'id|1|2|3', 'id|1|2|3|0', 'id|1|2|-3|4', 'id|1|2|3|x', 'bad id!|1|2|3|4', 'id|1|2|3|4|5'])(
    'recreates a malformed visitor cookie %j',
    (bad) => {
      const jar = new Jar();
      jar.values.set('ss_cvr', bad);
      jar.values.set('ss_cvt', String(NOW));
      const s = touchVisitor(jar, { now: NOW, random: seq() });
      expect(s.newVisitor).toBe(true);
      expect(parseVisitorCookie(jar.get('ss_cvr'))).not.toBeNull();
    },
  );

  it.each(['0', '-5', 'abc', '1.5', ''])('treats a malformed visit-time cookie %j as a new visit and rewrites it', (bad) => {
    const jar = new Jar();
    touchVisitor(jar, { now: NOW, random: seq() });
    jar.values.set('ss_cvt', bad);
    const s = touchVisitor(jar, { now: NOW + 1000, random: seq() });
    expect(s).toMatchObject({ newVisitor: false, newVisit: true });
    expect(jar.get('ss_cvt')).toBe(String(NOW + 1000));
  });

  it('keeps the analytics id 390 days, restores it from local storage before its expiry, and sets the session flags', () => {
    const jar = new Jar();
    const local = new Store();
    const session = new Store();
    const s = touchVisitor(jar, { now: NOW, random: seq(), local, session });
    expect(jar.ages.get(ANALYTICS_ID_COOKIE)).toBe(390 * 24 * 3600);
    expect(local.getItem(ANALYTICS_ID_KEY)).toBe(s.analyticsId);
    expect(Number(local.getItem(ANALYTICS_ID_EXPIRY_KEY))).toBe(NOW + 390 * 86_400_000);
    expect(s).toMatchObject({ firstSession: true, landing: true });
    expect(session.getItem(FIRST_SESSION_KEY)).toBe('true');
    expect(session.getItem(HAS_LANDED_KEY)).toBe('true');
    const next = touchVisitor(jar, { now: NOW + 1000, random: seq(), local, session });
    expect(next.landing).toBe(false);
    jar.values.delete(ANALYTICS_ID_COOKIE);
    expect(touchVisitor(jar, { now: NOW + 2000, random: seq(), local, session }).analyticsId).toBe(s.analyticsId);
    jar.values.delete(ANALYTICS_ID_COOKIE);
    expect(touchVisitor(jar, { now: NOW + 391 * 86_400_000, random: () => 0.5, local, session }).analyticsId).not.toBe(s.analyticsId);
  });

  it('a restrictive policy clears ss_cid, ss_cpvisit, ss_cvisit, ss_cvr, ss_cvt and the stored analytics id', () => {
    const jar = new Jar();
    const local = new Store();
    touchVisitor(jar, { now: NOW, random: seq(), local });
    jar.values.set('ss_cpvisit', '1');
    jar.values.set('other', 'kept');
    clearCensusCookies(jar, local);
    expect([...jar.values.keys()]).toEqual(['other']);
    for (const c of ['ss_cid', 'ss_cpvisit', 'ss_cvisit', 'ss_cvr', 'ss_cvt']) expect(jar.ages.get(c)).toBe(0);
    expect(local.getItem(ANALYTICS_ID_KEY)).toBeNull();
    expect(SESSION_ID_COOKIE).toBe('ss_cvisit');
  });
});

// ---- Tracker -------------------------------------------------------------------------------------

interface Call {
  url: string;
  body: string;
  headers: Record<string, string>;
  signal: boolean;
}

function page(over: Partial<PageData> = {}): PageData {
  return {
    websiteId: 'site1',
    templateId: 'default',
    pageType: 1,
    locale: 'en-GB',
    track: true,
    cookiePolicy: 'implied',
    itemId: null,
    collectionId: null,
    ...over,
  };
}

function env(over: Partial<TrackerEnv> & { path?: string; beaconOk?: boolean; status?: number } = {}) {
  const calls: Call[] = [];
  const beacons: Array<{ url: string; body: string }> = [];
  const jar = new Jar();
  jar.values.set('crumb', 'crumb123');
  const e: TrackerEnv = {
    page: page(),
    jar,
    local: new Store(),
    session: new Store(),
    now: () => NOW,
    random: seq(),
    beacon: (url, body) => {
      if (over.beaconOk === false) return false;
      beacons.push({ url, body });
      return true;
    },
    fetch: (async (url: string, init: RequestInit) => {
      calls.push({ url, body: String(init.body), headers: init.headers as Record<string, string>, signal: !!init.signal });
      return new Response(null, { status: over.status ?? 202 });
    }) as unknown as typeof fetch,
    location: {
      href: `http://shop.test${over.path ?? '/shop'}`,
      host: 'shop.test',
      pathname: (over.path ?? '/shop').split('?')[0],
      search: '',
    },
    document: { title: 'Shop', referrer: '', lang: 'en-GB' },
    browser: {
      userAgent: 'UA',
      language: 'en-GB',
      locale: 'en-GB',
      innerWidth: 800,
      innerHeight: 600,
      screenWidth: 1920,
      screenHeight: 1080,
    },
    ...over,
  };
  return { e, calls, beacons, jar };
}

describe('tracker', () => {
  afterEach(() => vi.useRealTimers());

  it('a page view is a form-encoded RecordHit with event, data (JSON) and ss_cvr, and a 2.5 s time-out', () => {
    const { e, calls, jar } = env();
    const t = new Tracker(e);
    t.pageView();
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('/api/census/RecordHit');
    expect(calls[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(calls[0].signal).toBe(true);
    const form = new URLSearchParams(calls[0].body);
    expect(form.get('event')).toBe('view');
    expect(form.get('ss_cvr')).toBe(jar.get('ss_cvr'));
    const data = JSON.parse(form.get('data')!);
    expect(data).toMatchObject({
      userAgent: 'UA',
      clientDate: NOW,
      viewportWidth: 800,
      viewportHeight: 600,
      screenWidth: 1920,
      screenHeight: 1080,
      websiteId: 'site1',
      templateId: 'default',
      locale: 'en-GB',
      url: 'http://shop.test/shop',
      title: 'Shop',
    });
  });

  it('never records a /search page view', () => {
    const { e, calls } = env({ path: '/search?q=a' });
    new Tracker(e).pageView();
    expect(calls).toHaveLength(0);
  });

  it('form-render carries formId, visitorCookie and the page fields; button-render has the time-out', () => {
    const { e, calls, jar } = env();
    const t = new Tracker(e);
    t.census('form-render', { formId: 'f1' });
    t.census('button-render');
    t.census('button-click');
    expect(JSON.parse(calls[0].body)).toMatchObject({
      formId: 'f1',
      visitorCookie: jar.get('ss_cvr'),
      url: 'http://shop.test/shop',
      websiteId: 'site1',
    });
    expect(calls.map((c) => [c.url, c.signal])).toEqual([
      ['/api/census/form-render', false],
      ['/api/census/button-render', true],
      ['/api/census/button-click', false],
    ]);
  });

  it('batches events into one beacon of {eventSchemaName, eventContent} with the platform fields and the cart fields', async () => {
    vi.useFakeTimers();
    const { e, beacons } = env();
    const t = new Tracker(e);
    t.cart = {
      id: 'c1',
      totalQuantity: 2,
      subtotalCents: 5000,
      subtotal: { currency: 'usd' },
      entries: [{ productType: 1, quantity: 2, purchasePriceCents: 2500 }],
    };
    t.shopper('add_to_cart', { item_id: 'i1' });
    t.shopper('view_cart');
    expect(beacons).toHaveLength(0);
    vi.advanceTimersByTime(1000);
    expect(beacons).toHaveLength(1);
    const batch = JSON.parse(beacons[0].body) as Array<{ eventSchemaName: string; eventContent: string }>;
    expect(batch.map((b) => b.eventSchemaName)).toEqual(['add_to_cart', 'view_cart']);
    const c = JSON.parse(batch[0].eventContent);
    expect(c).toMatchObject({
      item_id: 'i1',
      cart_id: 'c1',
      num_items_in_cart: 2,
      cart_value: 5000,
      currency_code: 'USD',
      product_types_list: [1],
      purchase_type_list: ['ONE_TIME'],
      context_website_id: 'site1',
      resolved_locale: 'en-GB',
      page_path: '/shop',
      is_logged_in: false,
      user_id: null,
    });
    expect(c.analytics_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(c.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(c.visitor_cookie).toMatch(/\|1$/);
  });

  it('sends a batch at 20 events at once', () => {
    const { e, beacons } = env();
    const t = new Tracker(e);
    for (let i = 0; i < 20; i++) t.event('x');
    expect(beacons).toHaveLength(1);
    expect(JSON.parse(beacons[0].body)).toHaveLength(20);
  });

  it('without beacons, a plain request succeeds only on 200 or 202', async () => {
    for (const [status, ok] of [
      [202, true],
      [200, true],
      [204, false],
      [500, false],
    ] as const) {
      const { e, calls } = env({ beaconOk: false, status });
      const t = new Tracker(e);
      t.event('x');
      expect(await t.flush()).toBe(ok);
      expect(calls[0].url).toBe('/api/v1/events');
    }
  });

  it('under an ask policy, events wait for the decision; granted sends them with identifiers', () => {
    const { e, calls, beacons, jar } = env({ page: page({ cookiePolicy: 'ask' }) });
    const t = new Tracker(e);
    t.pageView();
    t.event('x');
    t.flush();
    expect(calls).toHaveLength(0);
    expect(jar.get('ss_cvr')).toBeUndefined();
    t.decide(true);
    expect(jar.get(CONSENT_COOKIE)).toBe('granted');
    expect(calls).toHaveLength(1);
    expect(new URLSearchParams(calls[0].body).get('ss_cvr')).toBe(jar.get('ss_cvr'));
    t.flush();
    expect(beacons).toHaveLength(1);
  });

  it('refused or restrictive: census cookies cleared, events go without identifiers', () => {
    const { e, calls, beacons, jar } = env({ page: page({ cookiePolicy: 'restrictive' }) });
    jar.values.set('ss_cvr', 'f47ac10b-58cc-4372-a567-0e02b2c3d479|1|1|1|1');
    jar.values.set('ss_cid', 'abcdefgh1');
    const t = new Tracker(e);
    expect(jar.get('ss_cvr')).toBeUndefined();
    expect(jar.get('ss_cid')).toBeUndefined();
    t.pageView();
    t.event('x');
    t.flush();
    const form = new URLSearchParams(calls[0].body);
    expect(form.get('ss_cvr')).toBeNull();
    expect(JSON.parse(form.get('data')!).visitorCookie).toBeUndefined();
    const c = JSON.parse(JSON.parse(beacons[0].body)[0].eventContent);
    expect(c.analytics_id).toBeUndefined();
    expect(c.session_id).toBeUndefined();
    expect(jar.get('ss_cvr')).toBeUndefined();
  });

  it('RecordEvent is form-encoded with the crumb from the cookie', () => {
    const { e, calls } = env();
    new Tracker(e).recordEvent('thing', { a: 1 });
    const form = new URLSearchParams(calls[0].body);
    expect(calls[0].url).toBe('/api/events/RecordEvent');
    expect(form.get('crumb')).toBe('crumb123');
    expect(JSON.parse(form.get('data')!)).toMatchObject({ pagePath: '/shop', websiteId: 'site1', templateId: 'default', a: 1 });
  });

  it('failures are ignored: a throwing fetch never reaches the page', () => {
    const { e } = env();
    e.fetch = (() => {
      throw new Error('offline');
    }) as unknown as typeof fetch;
    expect(() => new Tracker(e).pageView()).not.toThrow();
  });

  it('page types imply product page visit, view cart and checkout', () => {
    vi.useFakeTimers();
    const names = (p: Partial<PageData>) => {
      const { e, beacons } = env({ page: page(p) });
      const t = new Tracker(e);
      t.pageEvents();
      t.flush();
      return beacons.flatMap((b) => JSON.parse(b.body).map((x: { eventSchemaName: string }) => x.eventSchemaName));
    };
    expect(names({ pageType: 50, itemId: 'i1' })).toEqual(['product_page_visit']);
    expect(names({ pageType: 200 })).toEqual(['view_cart']);
    expect(names({ pageType: 201 })).toEqual(['checkout_start']);
    expect(names({ pageType: 1 })).toEqual([]);
  });

  it('consent, locale and cart helpers', () => {
    expect(consentOf('implied', undefined)).toBe('granted');
    expect(consentOf('restrictive', 'granted')).toBe('denied');
    expect(consentOf('ask', undefined)).toBe('pending');
    expect(consentOf('ask', 'denied')).toBe('denied');
    expect(resolveLocale('fr-FR', 'en')).toBe('fr-FR');
    expect(resolveLocale(null, 'de')).toBe('de');
    expect(resolveLocale(null, '')).toBe('en-US');
    expect(cartFieldsOf(null)).toEqual({
      cart_id: null,
      num_items_in_cart: 0,
      cart_value: 0,
      currency_code: 'USD',
      product_types_list: [],
      purchase_type_list: [],
    });
  });

  it('reads the page data island; malformed islands mean no tracking', () => {
    expect(parsePageData('{"websiteId":"s","track":true,"pageType":50}')).toMatchObject({
      websiteId: 's',
      track: true,
      pageType: 50,
      cookiePolicy: 'implied',
    });
    expect(parsePageData('{nope')).toBeNull();
    expect(parsePageData('{"track":true}')).toBeNull();
    expect(parsePageData('{"websiteId":"s","track":"yes"}')!.track).toBe(false);
  });
});

// ---- Error reporter ------------------------------------------------------------------------------

describe('error reporter', () => {
  function reporter() {
    const sends: ErrorEvent_[][] = [];
    let t = 0;
    const timers = new Map<number, { at: number; fn: () => void }>();
    let id = 0;
    const r = new ErrorReporter({
      send: (events) => {
        sends.push(events);
      },
      context: () => ({ url: 'http://shop.test/x', websiteId: 'site1', templateId: 'default', browser: 'Chrome' }),
      setTimeout: (fn, ms) => {
        timers.set(++id, { at: t + ms, fn });
        return id;
      },
      clearTimeout: (h) => timers.delete(h as number),
      now: () => NOW + t,
    });
    const advance = (ms: number) => {
      t += ms;
      for (const [k, v] of [...timers]) {
        if (v.at <= t) {
          timers.delete(k);
          v.fn();
        }
      }
    };
    return { r, sends, advance };
  }

  it('debounces 1 s: errors close together go in one send with website id, template id, URL and browser', () => {
    const { r, sends, advance } = reporter();
    r.report(new Error('a'));
    advance(900);
    r.report(new Error('b'));
    advance(900);
    expect(sends).toHaveLength(0);
    advance(100);
    expect(sends).toHaveLength(1);
    expect(sends[0].map((e) => e.message)).toEqual(['a', 'b']);
    expect(sends[0][0]).toMatchObject({
      url: 'http://shop.test/x',
      websiteId: 'site1',
      templateId: 'default',
      browser: 'Chrome',
      kind: 'error',
    });
  });

  it('queues at most 10 events', () => {
    const { r, sends, advance } = reporter();
    for (let i = 0; i < 15; i++) r.report(new Error(`e${i}`));
    expect(r.queued).toBe(ERROR_REPORTER_MAX_QUEUED);
    expect(r.dropped).toBe(5);
    advance(1000);
    expect(sends[0]).toHaveLength(10);
  });

  it('sends at most 20 times per page', () => {
    const { r, sends, advance } = reporter();
    for (let i = 0; i < 30; i++) {
      r.report(new Error(`e${i}`));
      advance(1000);
    }
    expect(sends).toHaveLength(ERROR_REPORTER_MAX_SENDS);
    expect(r.report(new Error('late'))).toBe(false);
  });

  it('cuts stacks at 5000 characters and reports rejections with non-error reasons', () => {
    const { r, sends, advance } = reporter();
    const err = new Error('deep');
    err.stack = 'x'.repeat(9000);
    r.report(err);
    r.report('just a string', 'unhandledrejection');
    r.report(undefined, 'unhandledrejection');
    advance(1000);
    expect(sends[0][0].stack).toHaveLength(5000);
    expect(sends[0][1]).toMatchObject({ message: 'just a string', kind: 'unhandledrejection' });
    expect(sends[0][2].message).toBe('Unknown error');
  });

  it('flushes at once when the page is left, and a throwing send never escapes', () => {
    const { r, sends } = reporter();
    r.report(new Error('bye'));
    r.flush(true);
    expect(sends).toHaveLength(1);
    const bad = new ErrorReporter({
      send: () => Promise.reject(new Error('net')),
      context: () => ({ url: '', websiteId: '', templateId: '', browser: '' }),
      setTimeout: () => 0,
      clearTimeout: () => {},
      now: () => 0,
    });
    bad.report(new Error('x'));
    expect(() => bad.flush(false)).not.toThrow();
  });
});

describe('performance buffer', () => {
  it('keeps the latest value of each vital as {app, data, event, pageLoadId, ts} and empties on take', () => {
    const b = new PerformanceBuffer('pl1', '/shop', () => 42);
    b.add('CLS', 0.05);
    b.add('CLS', 0.12);
    b.add('LCP', 2100.123456, { rating: 'good' });
    b.add('FID', Number.NaN);
    const out = b.take();
    expect(out).toEqual([
      { app: 'tessera-site', event: 'web-vitals', pageLoadId: 'pl1', ts: 42, data: { name: 'CLS', value: 0.12, path: '/shop' } },
      {
        app: 'tessera-site',
        event: 'web-vitals',
        pageLoadId: 'pl1',
        ts: 42,
        data: { name: 'LCP', value: 2100.1235, path: '/shop', rating: 'good' },
      },
    ]);
    expect(b.take()).toEqual([]);
  });
});

describe('page-speed wait (up to 60 seconds)', () => {
  /** A page whose clock and load event the test drives. */
  function page(state: 'loading' | 'complete' = 'loading') {
    let now = 0;
    let ready = state;
    const loads = new Set<() => void>();
    const timers: { at: number; fn: () => void; live: boolean }[] = [];
    const host: SettleHost = {
      readyState: () => ready,
      onLoad: (fn) => {
        loads.add(fn);
        return () => loads.delete(fn);
      },
      setTimer: (fn, ms) => {
        const t = { at: now + ms, fn, live: true };
        timers.push(t);
        return t;
      },
      clearTimer: (h) => {
        (h as { live: boolean }).live = false;
      },
      elapsed: () => now,
    };
    return {
      host,
      advance(ms: number) {
        now += ms;
        for (const t of timers) {
          if (!t.live || t.at > now) continue;
          t.live = false;
          t.fn();
        }
      },
      load() {
        ready = 'complete';
        for (const fn of [...loads]) fn();
      },
      listeners: () => loads.size,
    };
  }

  it('settles on the load event, once, and stops waiting', () => {
    const p = page();
    const calls: [number, boolean][] = [];
    waitForPageSpeed(p.host, (ms, timedOut) => calls.push([ms, timedOut]));
    p.advance(4_200);
    expect(calls).toEqual([]);
    p.load();
    expect(calls).toEqual([[4_200, false]]);
    p.advance(120_000);
    expect(calls).toHaveLength(1);
    expect(p.listeners()).toBe(0);
  });

  it('gives up after 60 s when the page never loads', () => {
    const p = page();
    const calls: [number, boolean][] = [];
    waitForPageSpeed(p.host, (ms, timedOut) => calls.push([ms, timedOut]));
    p.advance(59_999);
    expect(calls).toEqual([]);
    p.advance(1);
    expect(calls).toEqual([[60_000, true]]);
    p.load();
    expect(calls).toHaveLength(1);
  });

  it('does not wait for a page that has already loaded', () => {
    const p = page('complete');
    const calls: [number, boolean][] = [];
    waitForPageSpeed(p.host, (ms, timedOut) => calls.push([ms, timedOut]));
    expect(calls).toEqual([[0, false]]);
  });
});
