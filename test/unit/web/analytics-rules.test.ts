import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { Role } from '../../../src/core/enums.js';
import { injectPageData, pageDataFor, pageDataScript } from '../../../src/server/analytics/page-data.js';
import { scriptJson } from '../../../src/core/html.js';
import {
  countryOf,
  deviceOf,
  errorFingerprint,
  firstLanguage,
  histogramPercentile,
  isBot,
  proxyCountry,
  referrerHostOf,
  rollup,
  vitalBucket,
  vitalBucketUpper,
  type IngestEvent,
} from '../../../src/server/analytics/rollup.js';

const req = (url: string) => ({ url }) as FastifyRequest;
const html = (pageType: number, extra = '') => `<html><body class="tessera page-type-${pageType}">${extra}</body></html>`;
const facts = {
  websiteId: 's1',
  templateId: 'default',
  locale: 'en-US',
  trackingEnabled: true,
  cookiePolicy: 'implied' as const,
  role: null as number | null,
};

describe('the tracking rule on pages', () => {
  it('tracks anonymous visitors and viewer-only accounts on ordinary pages', () => {
    expect(pageDataFor(req('/shop'), html(1), facts).track).toBe(true);
    expect(pageDataFor(req('/shop'), html(1), { ...facts, role: Role.VIEWER }).track).toBe(true);
  });
  it.each([Role.ADMIN, Role.EDITOR, Role.STORE_MANAGER, Role.REPORTING])('never tracks an account with role %i', (role) => {
    expect(pageDataFor(req('/shop'), html(1), { ...facts, role }).track).toBe(false);
  });
  it('never under /config, nor on not-found, lock-screen and member-access-denied pages, nor with tracking off', () => {
    expect(pageDataFor(req('/config/analytics'), html(1), facts).track).toBe(false);
    expect(pageDataFor(req('/config'), html(1), facts).track).toBe(false);
    for (const t of [100, 103, 106]) expect(pageDataFor(req('/x'), html(t), facts).track).toBe(false);
    expect(pageDataFor(req('/shop'), html(1), { ...facts, trackingEnabled: false }).track).toBe(false);
    // /configuration is not /config
    expect(pageDataFor(req('/configuration'), html(1), facts).track).toBe(true);
  });
  it('takes the item id on item pages only, and escapes the island', () => {
    expect(pageDataFor(req('/shop/p/a'), html(50, '<article data-item-id="abc123">'), facts).itemId).toBe('abc123');
    expect(pageDataFor(req('/shop'), html(1, '<article data-item-id="abc123">'), facts).itemId).toBeNull();
    const s = pageDataScript({ ...pageDataFor(req('/'), html(1), facts), templateId: '</script><script>alert(1)</script>' });
    expect(s).not.toContain('</script><script>');
    expect(JSON.parse(scriptJson('</script>'))).toBe('</script>');
    expect(injectPageData('<body>x</body></html>', '<i></i>')).toBe('<body>x<i></i></body></html>');
  });
});

describe('roll-up dimensions', () => {
  it("the visitor's language and a trusted proxy's country; bots and headless browsers", () => {
    expect(firstLanguage('fr-CA,fr;q=0.9,en;q=0.8')).toBe('fr-CA');
    expect(firstLanguage('ja;q=0.9')).toBe('ja');
    expect(firstLanguage('*')).toBeNull();
    expect(firstLanguage(undefined)).toBeNull();
    expect(firstLanguage(',,'.repeat(10_000))).toBeNull();
    expect(proxyCountry({ 'cf-ipcountry': 'gb' })).toBe('GB');
    expect(proxyCountry({ 'cloudfront-viewer-country': 'JP' })).toBe('JP');
    expect(proxyCountry({ 'cf-ipcountry': 'XX', 'x-vercel-ip-country': 'US' })).toBe('US');
    expect(proxyCountry({ 'cf-ipcountry': 'T1' })).toBeNull();
    expect(proxyCountry({ 'cf-ipcountry': 'GBR' })).toBeNull();
    expect(proxyCountry({})).toBeNull();
    expect(isBot('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36')).toBe(
      true,
    );
    expect(isBot('Mozilla/5.0 (compatible; bingbot/2.0)')).toBe(true);
    expect(isBot('facebookexternalhit/1.1')).toBe(true);
    expect(isBot('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 Safari/604.1')).toBe(false);
    expect(isBot(null)).toBe(false);
  });

  it('devices from the user agent, countries from the locale, referrer hosts', () => {
    expect(deviceOf('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148')).toBe('Mobile');
    expect(deviceOf('Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)')).toBe('Tablet');
    expect(deviceOf('Mozilla/5.0 (Linux; Android 14; SM-T970) AppleWebKit')).toBe('Tablet');
    expect(deviceOf('Mozilla/5.0 (X11; Linux x86_64) Chrome/130')).toBe('Desktop');
    expect(deviceOf('Googlebot/2.1')).toBe('Bot');
    expect(countryOf('fr-CA')).toBe('CA');
    expect(countryOf('zh-Hant-TW')).toBe('TW');
    expect(countryOf('en')).toBe('Unknown');
    expect(referrerHostOf('https://News.Example.org/a?b', 'shop.test')).toBe('news.example.org');
    expect(referrerHostOf('https://shop.test/x', 'shop.test')).toBeNull();
    expect(referrerHostOf('', null)).toBe('(direct)');
    expect(referrerHostOf('javascript:alert(1)', null)).toBe('(direct)');
  });

  it('vital histograms give the 75th percentile within a bucket (4%)', () => {
    const values = Array.from({ length: 1000 }, (_, i) => 500 + i * 3);
    const buckets = new Map<number, number>();
    for (const v of values) buckets.set(vitalBucket('LCP', v), (buckets.get(vitalBucket('LCP', v)) ?? 0) + 1);
    const p75 = histogramPercentile(
      'LCP',
      [...buckets].map(([bucket, count]) => ({ bucket, count })),
      0.75,
    )!;
    const exact = values[749];
    expect(p75).toBeGreaterThanOrEqual(exact);
    expect(p75).toBeLessThan(exact * 1.05);
    expect(vitalBucketUpper('CLS', vitalBucket('CLS', 0.1))).toBeGreaterThanOrEqual(0.1);
    expect(histogramPercentile('FCP', [], 0.75)).toBeNull();
  });

  it('groups errors by message with numbers and quoted values masked', () => {
    expect(errorFingerprint('Cannot read "a" of undefined at 12')).toBe(errorFingerprint("Cannot read 'b' of undefined at 99"));
    expect(errorFingerprint('x is not defined')).not.toBe(errorFingerprint('y is not defined'));
  });

  it('rolls a batch up per day: views, visitors, funnel, forms, restock, vitals and errors', () => {
    const at = new Date('2026-03-01T10:00:00Z');
    const e = (o: Partial<IngestEvent>): IngestEvent => ({
      source: 'event',
      name: 'x',
      at,
      visitorId: 'v1',
      sessionId: null,
      path: null,
      itemId: null,
      data: {},
      ...o,
    });
    const r = rollup([
      e({ source: 'census', name: 'view', path: '/a', facts: { userAgent: 'iPhone Mobile', locale: 'en-GB', referrer: 'https://x.org/' } }),
      e({ source: 'census', name: 'view', path: '/a' }),
      e({ name: 'product_page_visit' }),
      e({ name: 'order_placed', facts: { value: 1000, currency: 'eur' } }),
      e({ name: 'form_submit', facts: { formId: 'f1' } }),
      e({ name: 'restock_signup', itemId: 'i1' }),
      e({ source: 'vital', name: 'LCP', facts: { vital: 'LCP', vitalValue: 1200 } }),
      e({ source: 'error', name: 'error', facts: { message: 'boom 1', stack: 's', url: 'u', browser: 'b' } }),
      e({ source: 'error', name: 'error', at: new Date('2026-03-01T11:00:00Z'), facts: { message: 'boom 2' } }),
    ]);
    const m = Object.fromEntries(r.daily.map((c) => [`${c.metric}|${c.dim}`, [c.count, c.total]]));
    expect(m['pageviews|']).toEqual([2, 0]);
    expect(m['page|/a']).toEqual([2, 0]);
    expect(m['device|Mobile']).toEqual([1, 0]);
    expect(m['country|GB']).toEqual([1, 0]);
    expect(m['referrer|x.org']).toEqual([1, 0]);
    expect(m['referrer|(direct)']).toEqual([1, 0]);
    expect(m['funnel|product_view']).toEqual([1, 0]);
    expect(m['funnel|order']).toEqual([1, 0]);
    expect(m['revenue|EUR']).toBeUndefined(); // sales come from the orders table, not from beacons
    expect(m['form_submit|f1']).toEqual([1, 0]);
    expect(m['restock|i1']).toEqual([1, 0]);
    expect(m[`vital:LCP|${vitalBucket('LCP', 1200)}`]).toEqual([1, 1200]);
    expect(r.uniques.map((u) => u.metric).sort()).toEqual(['funnel:order', 'funnel:product_view', 'visitor']);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ count: 2, message: 'boom 2' });
    expect(r.daily.every((c) => c.day === '2026-03-01')).toBe(true);
  });
});
