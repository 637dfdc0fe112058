import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { purgeExpired } from '../../../src/server/analytics/settings.js';
import { AnalyticsIngest } from '../../../src/server/analytics/ingest.js';

const HIT = '/api/census/RecordHit';
const EVENTS = '/api/v1/events';
const ERRORS = '/api/events/RecordJavascriptErrors';
const PERF = '/api/1/performance/records';
const RECORD_EVENT = '/api/events/RecordEvent';
const VISITOR = 'f47ac10b-58cc-4372-a567-0e02b2c3d479|1700000000000|1700000000000|1700000000000|1';

function form(o: Record<string, string>): string {
  return new URLSearchParams(o).toString();
}
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const TEXT = { 'content-type': 'text/plain;charset=UTF-8' };

describe.each(APP_KINDS)('analytics collection and dashboard on %s', (kind) => {
  let t: TestApp;
  let siteId: string;
  const count = async (table = 'analytics_events') =>
    Number((await rows<{ n: string }>(t.database.db, sql.raw(`select count(*)::int as n from ${table}`)))[0].n);
  const drain = () => t.app.analytics.ingest.drain();
  const hitData = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 Safari/604.1',
      clientDate: Date.now(),
      viewportWidth: 390,
      viewportHeight: 844,
      screenWidth: 390,
      screenHeight: 844,
      websiteId: siteId,
      templateId: 'default',
      locale: 'fr-CA',
      url: 'http://shop.test/shop?x=1',
      title: 'Shop',
      referrer: 'https://news.example.org/a',
      pageType: 1,
      ...extra,
    });

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    siteId = t.seed.websiteId;
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await drain();
    await t.database.exec(
      'TRUNCATE analytics_events, analytics_daily, analytics_daily_uniques, analytics_error_groups, analytics_settings',
    );
    t.app.analytics.settings['cache'].clear();
  });

  async function owner(): Promise<Visitor> {
    const v = new Visitor(t.app);
    const res = await v.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password });
    expect(res.statusCode).toBeLessThan(400);
    return v;
  }

  describe('page data island', () => {
    it('is on every page; tracks anonymous visitors, not owners and not the not-found page', async () => {
      const v = new Visitor(t.app);
      const page = await v.get('/shop/p/linen-camp-shirt');
      const island = /<script type="application\/json" id="tessera-page">(.*?)<\/script>/.exec(page.body);
      expect(island).not.toBeNull();
      const data = JSON.parse(island![1]);
      expect(data).toMatchObject({
        websiteId: siteId,
        pageType: 50,
        track: true,
        itemId: t.seed.productIds['linen-camp-shirt'],
        cookiePolicy: 'implied',
      });
      const missing = JSON.parse(/id="tessera-page">(.*?)<\/script>/.exec((await v.get('/no-such-page')).body)![1]);
      expect(missing).toMatchObject({ pageType: 100, track: false });
      const o = await owner();
      const asOwner = JSON.parse(/id="tessera-page">(.*?)<\/script>/.exec((await o.get('/shop')).body)![1]);
      expect(asOwner.track).toBe(false);
    });

    it('says track false once the owner turns tracking off', async () => {
      const o = await owner();
      expect((await o.send('PUT', '/api/analytics/settings', { trackingEnabled: false })).statusCode).toBe(200);
      const data = JSON.parse(/id="tessera-page">(.*?)<\/script>/.exec((await new Visitor(t.app).get('/shop')).body)![1]);
      expect(data.track).toBe(false);
    });
  });

  describe('collection', () => {
    it('RecordHit stores a page view and rolls it up per day (page, referrer, device, country, visitor)', async () => {
      const v = new Visitor(t.app);
      const res = await v.send('POST', HIT, form({ event: 'view', data: hitData(), ss_cvr: VISITOR }), {
        crumb: false,
        headers: { ...FORM, 'accept-language': 'fr-CA,fr;q=0.9,en;q=0.8' },
      });
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ accepted: 1 });
      await drain();
      const raw = await rows<{ name: string; path: string; visitor_id: string }>(
        t.database.db,
        sql`select name, path, visitor_id from analytics_events`,
      );
      expect(raw).toEqual([{ name: 'view', path: '/shop', visitor_id: 'f47ac10b-58cc-4372-a567-0e02b2c3d479' }]);
      const daily = await rows<{ metric: string; dim: string; count: string }>(
        t.database.db,
        sql`select metric, dim, count from analytics_daily order by metric, dim`,
      );
      const m = Object.fromEntries(daily.map((d) => [`${d.metric}:${d.dim}`, Number(d.count)]));
      expect(m).toMatchObject({
        'pageviews:': 1,
        'page:/shop': 1,
        'referrer:news.example.org': 1,
        'device:Mobile': 1,
        'country:CA': 1,
        'uniq:visitor:': 1,
      });
      // The same visitor again the same day is not a new visitor.
      await v.send('POST', HIT, form({ event: 'view', data: hitData(), ss_cvr: VISITOR }), { crumb: false, headers: FORM });
      await drain();
      const again = await rows<{ metric: string; count: string }>(
        t.database.db,
        sql`select metric, count from analytics_daily where metric in ('pageviews', 'uniq:visitor') order by metric`,
      );
      expect(again.map((r) => [r.metric, Number(r.count)])).toEqual([
        ['pageviews', 2],
        ['uniq:visitor', 1],
      ]);
    });

    it("counts the visitor's country, not the page's, and no headless browser or crawler at all", async () => {
      const before = await rows<{ metric: string; dim: string; count: string }>(
        t.database.db,
        sql`select metric, dim, count from analytics_daily where metric in ('pageviews', 'country') order by metric, dim`,
      );
      const v = new Visitor(t.app);
      // The page is the shop's (fr-CA); the visitor's browser asks for Japanese as spoken in Japan.
      await v.send('POST', HIT, form({ event: 'view', data: hitData() }), {
        crumb: false,
        headers: { ...FORM, 'accept-language': 'ja-JP,ja;q=0.9' },
      });
      for (const ua of [
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36',
        'Googlebot/2.1',
      ]) {
        const r = await v.send('POST', HIT, form({ event: 'view', data: hitData({ userAgent: ua }) }), { crumb: false, headers: FORM });
        expect(r.statusCode).toBe(202);
      }
      await drain();
      const after = await rows<{ metric: string; dim: string; count: string }>(
        t.database.db,
        sql`select metric, dim, count from analytics_daily where metric in ('pageviews', 'country') order by metric, dim`,
      );
      const grew = (rs: typeof before) => Object.fromEntries(rs.map((r) => [`${r.metric}:${r.dim}`, Number(r.count)]));
      const b = grew(before);
      const a = grew(after);
      expect(a['pageviews:']).toBe((b['pageviews:'] ?? 0) + 1);
      expect(a['country:JP']).toBe((b['country:JP'] ?? 0) + 1);
      expect(a['country:CA']).toBe(b['country:CA']);
      // Without a trusted proxy a country header is the visitor's own word and is not taken.
      await v.send('POST', HIT, form({ event: 'view', data: hitData() }), { crumb: false, headers: { ...FORM, 'cf-ipcountry': 'DE' } });
      await drain();
      const de = await rows(t.database.db, sql`select 1 from analytics_daily where metric = 'country' and dim = 'DE'`);
      expect(de).toEqual([]);
    });

    it('takes every census call, the events pipeline (batched), RecordEvent, error reports and performance records', async () => {
      const v = new Visitor(t.app);
      const data = JSON.parse(hitData());
      for (const call of ['button-click', 'button-render', 'form-render', 'overlay', 'RecordQuickView/abc123']) {
        const res = await v.send('POST', `/api/census/${call}`, { ...data, formId: 'f1' }, { crumb: false });
        expect(res.statusCode, call).toBe(202);
      }
      const batch = Array.from({ length: 20 }, (_, i) => ({
        eventSchemaName: i === 0 ? 'add_to_cart' : 'product_page_visit',
        eventContent: JSON.stringify({
          analytics_id: 'a1b2c3d4',
          session_id: 's1b2c3d4',
          page_path: '/shop/p/x',
          context_website_id: siteId,
          cart_id: null,
          num_items_in_cart: 1,
          cart_value: 7200,
          currency_code: 'USD',
          product_types_list: [1],
          purchase_type_list: ['ONE_TIME'],
          item_id: 'item1',
        }),
      }));
      const ev = await v.send('POST', EVENTS, JSON.stringify(batch), { crumb: false, headers: TEXT });
      expect(ev.statusCode).toBe(202);
      expect(ev.json()).toEqual({ accepted: 20 });
      const legacy = await v.send(
        'POST',
        RECORD_EVENT,
        form({ crumb: await v.crumb(), event: 'legacy_thing', data: JSON.stringify({ pagePath: '/shop', websiteId: siteId }) }),
        { crumb: false, headers: FORM },
      );
      expect(legacy.statusCode).toBe(202);
      const err = await v.send('POST', ERRORS, [
        {
          message: 'TypeError: x is undefined',
          stack: 'at a (b.js:1:2)',
          url: 'http://shop.test/shop',
          websiteId: siteId,
          templateId: 'default',
          browser: 'Chrome',
        },
      ]);
      expect(err.statusCode).toBe(202);
      const perf = await v.send(
        'POST',
        PERF,
        JSON.stringify([
          { app: 'tessera-site', event: 'web-vitals', pageLoadId: 'p1', ts: Date.now(), data: { name: 'LCP', value: 2100, path: '/shop' } },
        ]),
        { crumb: false, headers: TEXT },
      );
      expect(perf.statusCode).toBe(202);
      await drain();
      expect(await count()).toBe(5 + 20 + 1 + 1 + 1);
      const groups = await rows<{ message: string; count: string }>(t.database.db, sql`select message, count from analytics_error_groups`);
      expect(groups.map((g) => [g.message, Number(g.count)])).toEqual([['TypeError: x is undefined', 1]]);
    });

    it('error reports need the CSRF header; RecordEvent needs the crumb field', async () => {
      const v = new Visitor(t.app);
      const res = await v.send('POST', ERRORS, [{ message: 'x', url: 'http://a/b' }], { crumb: false });
      expect(res.statusCode).toBe(403);
      const legacy = await v.send('POST', RECORD_EVENT, form({ event: 'x', data: '{}' }), { crumb: false, headers: FORM });
      expect(legacy.statusCode).toBe(403);
      await drain();
      expect(await count()).toBe(0);
    });

    it('records nothing under /config, for /search page views, for an owner, or with tracking off', async () => {
      const v = new Visitor(t.app);
      const post = (vis: Visitor, extra: Record<string, unknown>) =>
        vis.send('POST', HIT, form({ event: 'view', data: hitData(extra) }), { crumb: false, headers: FORM });
      expect((await post(v, { url: 'http://shop.test/config/analytics' })).json()).toEqual({ accepted: 0 });
      expect((await post(v, { url: 'http://shop.test/search?q=a' })).json()).toEqual({ accepted: 0 });
      expect((await post(v, { pageType: 100 })).json()).toEqual({ accepted: 0 });
      const o = await owner();
      expect((await post(o, {})).json()).toEqual({ accepted: 0 });
      await o.send('PUT', '/api/analytics/settings', { trackingEnabled: false });
      expect((await post(v, {})).json()).toEqual({ accepted: 0 });
      const perf = await v.send(
        'POST',
        PERF,
        JSON.stringify([{ app: 'a', event: 'web-vitals', pageLoadId: 'p1', ts: 1, data: { name: 'CLS', value: 0.1 } }]),
        { crumb: false, headers: TEXT },
      );
      expect(perf.json()).toEqual({ accepted: 0 });
      await drain();
      expect(await count()).toBe(0);
    });

    it('keeps no identifiers under a restrictive cookie policy', async () => {
      const o = await owner();
      await o.send('PUT', '/api/analytics/settings', { cookiePolicy: 'restrictive' });
      const v = new Visitor(t.app);
      v.cookies.set('ss_cvr', VISITOR);
      await v.send(
        'POST',
        HIT,
        form({ event: 'view', data: hitData({ visitorCookie: VISITOR, sessionId: 'abcdef12' }), ss_cvr: VISITOR }),
        { crumb: false, headers: FORM },
      );
      await drain();
      const raw = await rows<{ visitor_id: string | null; session_id: string | null; data: Record<string, unknown> }>(
        t.database.db,
        sql`select visitor_id, session_id, data from analytics_events`,
      );
      expect(raw).toHaveLength(1);
      expect(raw[0].visitor_id).toBeNull();
      expect(raw[0].session_id).toBeNull();
      expect(raw[0].data.visitorCookie).toBeUndefined();
    });
  });

  describe('bad input: 4xx, nothing stored, the server keeps serving', () => {
    const big = 'x'.repeat(300 * 1024);
    const cases: Array<[string, string, string | object, Record<string, string>, boolean?]> = [
      ['RecordHit oversized', HIT, form({ event: 'view', data: big }), FORM],
      ['RecordHit malformed data JSON', HIT, form({ event: 'view', data: '{nope' }), FORM],
      ['RecordHit wrong types', HIT, form({ event: 'view', data: JSON.stringify({ viewportWidth: 'wide' }) }), FORM],
      ['RecordHit bad event name', HIT, form({ event: '<script>', data: '{}' }), FORM],
      ['RecordHit missing data', HIT, form({ event: 'view' }), FORM],
      ['census oversized', '/api/census/button-click', { url: big }, {}],
      ['census malformed JSON', '/api/census/form-render', '{"formId":', { 'content-type': 'application/json' }],
      ['census wrong types', '/api/census/overlay', { screenWidth: -1 }, {}],
      ['quick view bad id', '/api/census/RecordQuickView/%3Cx%3E', {}, {}],
      ['events oversized', EVENTS, big, TEXT],
      ['events malformed JSON', EVENTS, '[{', TEXT],
      ['events wrong types', EVENTS, JSON.stringify({ eventSchemaName: 5, eventContent: '{}' }), TEXT],
      ['events content not JSON', EVENTS, JSON.stringify({ eventSchemaName: 'add_to_cart', eventContent: '{x' }), TEXT],
      [
        'events content wrong types',
        EVENTS,
        JSON.stringify({ eventSchemaName: 'add_to_cart', eventContent: JSON.stringify({ cart_value: 'lots' }) }),
        TEXT,
      ],
      ['events too many', EVENTS, JSON.stringify(Array.from({ length: 51 }, () => ({ eventSchemaName: 'a', eventContent: '{}' }))), TEXT],
      [
        'events other website',
        EVENTS,
        JSON.stringify({ eventSchemaName: 'a', eventContent: JSON.stringify({ context_website_id: 'other' }) }),
        TEXT,
      ],
      ['errors oversized', ERRORS, [{ message: 'x', url: big }], {}, true],
      ['errors malformed JSON', ERRORS, '[{"message"', { 'content-type': 'application/json' }, true],
      ['errors wrong types', ERRORS, [{ message: 42, url: 'http://a' }], {}, true],
      ['errors too many', ERRORS, Array.from({ length: 11 }, () => ({ message: 'x', url: 'http://a/' })), {}, true],
      ['errors stack too long', ERRORS, [{ message: 'x', url: 'http://a/', stack: 'y'.repeat(5001) }], {}, true],
      ['errors empty list', ERRORS, [], {}, true],
      ['performance oversized', PERF, big, TEXT],
      ['performance malformed', PERF, '[{]', TEXT],
      [
        'performance wrong types',
        PERF,
        JSON.stringify([{ app: 'a', event: 'e', pageLoadId: 'p', ts: 1, data: { name: 'LCP', value: 'slow' } }]),
        TEXT,
      ],
      [
        'performance unknown vital',
        PERF,
        JSON.stringify([{ app: 'a', event: 'e', pageLoadId: 'p', ts: 1, data: { name: 'XYZ', value: 1 } }]),
        TEXT,
      ],
      ['RecordEvent malformed data', RECORD_EVENT, 'event=x&data=%7Bx', FORM, true],
    ];
    it.each(cases)('%s', async (_name, url, body, headers, crumb) => {
      const v = new Visitor(t.app);
      const res = await v.send('POST', url, body, { crumb: crumb === true, headers });
      if (url === RECORD_EVENT) {
        // the crumb travels in the form body
        const again = await v.send('POST', url, `crumb=${await v.crumb()}&event=x&data=%7Bx`, { crumb: false, headers });
        expect(again.statusCode).toBe(400);
      } else {
        expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, res.body).toBeLessThan(500);
        expect(res.json().message).toBeTruthy();
      }
      await drain();
      expect(await count()).toBe(0);
      expect((await v.get('/health')).statusCode).toBe(200);
      expect((await v.get('/shop')).statusCode).toBe(200);
    });
  });

  describe('dashboard', () => {
    it('needs an owner; validates the range', async () => {
      const v = new Visitor(t.app);
      expect((await v.get('/api/analytics/dashboard?from=2026-01-01&to=2026-01-31')).statusCode).toBe(401);
      const o = await owner();
      expect((await o.get('/api/analytics/dashboard?from=2026-02-01&to=2026-01-01')).statusCode).toBe(400);
      expect((await o.get('/api/analytics/dashboard?from=yesterday&to=2026-01-01')).statusCode).toBe(400);
      expect((await o.send('PUT', '/api/analytics/settings', { retentionDays: 0 })).statusCode).toBe(400);
      expect((await o.send('PUT', '/api/analytics/settings', { bogus: true })).statusCode).toBe(400);
    });

    it('shows views, visitors, the funnel with conversions, revenue, vitals at p75 and grouped errors', async () => {
      const v = new Visitor(t.app);
      await v.send('POST', HIT, form({ event: 'view', data: hitData(), ss_cvr: VISITOR }), { crumb: false, headers: FORM });
      const ev = (name: string, c: Record<string, unknown>) => ({
        eventSchemaName: name,
        eventContent: JSON.stringify({ analytics_id: 'visitor01', session_id: 'session01', page_path: '/x', ...c }),
      });
      await v.send(
        'POST',
        EVENTS,
        JSON.stringify([
          ev('product_page_visit', {}),
          ev('product_page_visit', { analytics_id: 'visitor02' }),
          ev('add_to_cart', {}),
          ev('view_cart', {}),
          ev('checkout_start', {}),
          ev('order_placed', { cart_value: 14400, currency_code: 'USD' }),
          ev('restock_signup', { item_id: t.seed.productIds['linen-camp-shirt'] }),
          ev('form_submit', { form_id: 'nosuchform' }),
        ]),
        { crumb: false, headers: TEXT },
      );
      const vitals = [1000, 1200, 1500, 2000].map((value, i) => ({
        app: 'a',
        event: 'web-vitals',
        pageLoadId: `p${i}`,
        ts: 1,
        data: { name: 'LCP', value },
      }));
      await v.send('POST', PERF, JSON.stringify(vitals), { crumb: false, headers: TEXT });
      await v.send('POST', ERRORS, [
        { message: 'Boom at 12', url: 'http://a/x' },
        { message: 'Boom at 13', url: 'http://a/y' },
        { message: 'Other', url: 'http://a/z' },
      ]);
      await drain();
      const o = await owner();
      const today = new Date().toISOString().slice(0, 10);
      const res = await o.get(`/api/analytics/dashboard?from=${today}&to=${today}`);
      expect(res.statusCode).toBe(200);
      const d = res.json();
      // A beacon saying an order was placed adds no sale: orders and sales come from the orders table.
      expect(d.totals).toMatchObject({ pageviews: 1, visitors: 1, orders: 0 });
      expect(d.series).toEqual([{ day: today, pageviews: 1, visitors: 1, revenue: 0, orders: 0 }]);
      expect(d.funnel.map((s: { step: string; visitors: number }) => [s.step, s.visitors])).toEqual([
        ['product_view', 2],
        ['add_to_cart', 1],
        ['view_cart', 1],
        ['checkout', 1],
        ['order', 1],
      ]);
      expect(d.funnel[1].conversion).toBe(0.5);
      expect(d.revenue).toEqual([]);
      const lcp = d.vitals.find((x: { name: string }) => x.name === 'LCP');
      expect(lcp.samples).toBe(4);
      expect(lcp.p75).toBeGreaterThanOrEqual(1500);
      expect(lcp.p75).toBeLessThan(1500 * 1.05);
      expect(lcp).toMatchObject({ good: 2500, poor: 4000, rating: 'good' });
      expect(d.errors.map((e: { count: number }) => e.count)).toEqual([2, 1]);
      expect(d.pages).toEqual([{ dim: '/shop', count: 1, total: 0 }]);
      expect(d.restock).toEqual([{ dim: t.seed.productIds['linen-camp-shirt'], count: 1, total: 0, label: 'Linen Camp Shirt' }]);
      expect(d.totals).toMatchObject({ restockSignups: 1, formSubmissions: 1 });
    });
  });

  describe('storage', () => {
    it('flushes pending batches on a clean shutdown', async () => {
      const t2 = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
      try {
        const v = new Visitor(t2.app);
        for (let i = 0; i < 5; i++)
          expect(
            (
              await v.send('POST', HIT, form({ event: 'view', data: JSON.stringify({ url: 'http://a/shop' }) }), {
                crumb: false,
                headers: FORM,
              })
            ).statusCode,
          ).toBe(202);
        await t2.app.close();
        const n = await rows<{ n: number }>(t2.database.db, sql`select count(*)::int as n from analytics_events`);
        expect(Number(n[0].n)).toBe(5);
      } finally {
        await t2.database.close();
      }
    });

    it('a full buffer refuses at once (the route answers 503 with Retry-After) instead of growing', async () => {
      const ingest = new AnalyticsIngest(t.database, { maxBuffered: 30 });
      const ev = () => ({
        source: 'census' as const,
        name: 'view',
        at: new Date(),
        visitorId: null,
        sessionId: null,
        path: '/x',
        itemId: null,
        data: {},
      });
      expect(ingest.accept(siteId, Array.from({ length: 20 }, ev))).toBe(true);
      expect(ingest.accept(siteId, Array.from({ length: 20 }, ev))).toBe(false);
      expect(ingest.stats).toMatchObject({ accepted: 20, refused: 20 });
      await ingest.close();
      expect(await count()).toBe(20);
    });

    it('purges raw events older than the retention period and keeps the roll-ups', async () => {
      const old = new Date(Date.now() - 40 * 86_400_000);
      await t.database.exec(
        `insert into analytics_events (website_id, received_at, source, name, data) values ('${siteId}', '${old.toISOString()}', 'census', 'view', '{}'), ('${siteId}', now(), 'census', 'view', '{}');
         insert into analytics_daily (website_id, day, metric, dim, count) values ('${siteId}', '${old.toISOString().slice(0, 10)}', 'pageviews', '', 1)`,
      );
      expect(await purgeExpired(t.database, siteId, 30)).toBe(1);
      expect(await count()).toBe(1);
      expect(await count('analytics_daily')).toBe(1);
    });
  });
});
