/**
 * Normalized analytics events and their per-day roll-ups. Pure: the ingest batches call `rollup`
 * and write its result additively, so the dashboard never scans raw events.
 */
import { VITAL_NAMES, type VitalName } from '../../core/api/analytics.js';
import { createHash } from 'node:crypto';

export type EventSource = 'census' | 'event' | 'legacy' | 'error' | 'vital';

export interface IngestEvent {
  source: EventSource;
  name: string;
  at: Date;
  visitorId: string | null;
  sessionId: string | null;
  path: string | null;
  itemId: string | null;
  /** The bounded, validated payload as stored. */
  data: Record<string, unknown>;
  /** Roll-up facts drawn from the payload by the routes. */
  facts?: EventFacts;
}

export interface EventFacts {
  referrer?: string | null;
  userAgent?: string | null;
  /** The visitor's language (their browser's), whose region stands in for a country a proxy did not give. */
  locale?: string | null;
  /** The visitor's country as a trusted edge proxy gave it (ISO 3166-1 alpha-2). */
  country?: string | null;
  /** Minor units, for orders. */
  value?: number | null;
  currency?: string | null;
  formId?: string | null;
  /** vitals */
  vital?: VitalName;
  vitalValue?: number;
  /** errors */
  message?: string;
  stack?: string;
  url?: string;
  browser?: string;
}

export { VITAL_NAMES, type VitalName };

/** Census page-view event names (RecordHit). */
export const PAGE_VIEW_EVENTS: ReadonlySet<string> = new Set(['view', 'page_view', 'pageview']);

/** Shopper events that make the funnel, in order. */
export const FUNNEL_STEPS = ['product_view', 'add_to_cart', 'view_cart', 'checkout', 'order'] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];
const FUNNEL_OF: Record<string, FunnelStep> = {
  product_page_visit: 'product_view',
  add_to_cart: 'add_to_cart',
  view_cart: 'view_cart',
  checkout_start: 'checkout',
  order_placed: 'order',
};

export const FORM_SUBMIT_EVENT = 'form_submit';
export const RESTOCK_SIGNUP_EVENT = 'restock_signup';

// ---- Dimensions drawn from the user agent, locale, referrer and URL ----------------------------

/** Crawlers, link previewers and headless browsers, by their user agent. */
export function isBot(ua: string | null | undefined): boolean {
  return !!ua && /bot|crawler|spider|headless|slurp|facebookexternalhit|lighthouse/i.test(ua);
}

export function deviceOf(ua: string | null | undefined): string {
  if (!ua) return 'Unknown';
  if (isBot(ua)) return 'Bot';
  if (/iPad|Tablet|Nexus (7|9|10)|SM-T\d|Kindle|Silk/i.test(ua) || (/Android/i.test(ua) && !/Mobile/i.test(ua))) return 'Tablet';
  if (/Mobi|iPhone|iPod|Android|Windows Phone/i.test(ua)) return 'Mobile';
  return 'Desktop';
}

export function browserOf(ua: string | null | undefined): string {
  if (!ua) return 'Unknown';
  if (/Edg\//.test(ua)) return 'Edge';
  if (/OPR\/|Opera/.test(ua)) return 'Opera';
  if (/Firefox\//.test(ua)) return 'Firefox';
  if (/Chrom(e|ium)\//.test(ua)) return 'Chrome';
  if (/Safari\//.test(ua)) return 'Safari';
  return 'Other';
}

/** The first language of an Accept-Language header (`fr-CA,fr;q=0.9` -> `fr-CA`), or null. */
export function firstLanguage(header: string | string[] | undefined): string | null {
  const h = Array.isArray(header) ? header[0] : header;
  const first = (h ?? '').split(',', 1)[0]!.split(';', 1)[0]!.trim();
  return first && first !== '*' ? first.slice(0, 35) : null;
}

/** Edge proxies' country headers (Cloudflare, CloudFront, Vercel, Fastly-style), read only behind a trusted proxy. */
const COUNTRY_HEADERS = ['cf-ipcountry', 'cloudfront-viewer-country', 'x-vercel-ip-country', 'x-country-code'] as const;

/** The visitor's country from a trusted proxy's header (two letters; XX and T1, unknown and Tor, are not countries). */
export function proxyCountry(headers: Record<string, string | string[] | undefined>): string | null {
  for (const name of COUNTRY_HEADERS) {
    const v = headers[name];
    const c = (Array.isArray(v) ? v[0] : v)?.trim().toUpperCase();
    if (c && /^[A-Z]{2}$/.test(c) && c !== 'XX' && c !== 'T1') return c;
  }
  return null;
}

/** The country of a locale's region subtag (en-US -> US), else 'Unknown'. */
export function countryOf(locale: string | null | undefined): string {
  if (!locale) return 'Unknown';
  const m = /^[a-z]{2,3}(?:[-_][A-Za-z]{4})?[-_]([A-Za-z]{2}|\d{3})\b/.exec(locale.trim());
  return m ? m[1].toUpperCase() : 'Unknown';
}

/** The referring host, '(direct)' without a referrer, null when it is the site itself. */
export function referrerHostOf(referrer: string | null | undefined, ownHost: string | null): string | null {
  if (!referrer) return '(direct)';
  try {
    const u = new URL(referrer);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return '(direct)';
    const host = u.host.toLowerCase().slice(0, 200);
    if (ownHost && host === ownHost.toLowerCase()) return null;
    return host;
  } catch {
    return '(direct)';
  }
}

/** The path of a URL or path (no query or fragment), at most 200 characters. */
export function pathOf(url: string | null | undefined): string | null {
  if (!url) return null;
  let p = url;
  try {
    p = new URL(url, 'http://x').pathname;
  } catch {
    p = url.split(/[?#]/)[0] ?? '';
  }
  if (!p.startsWith('/')) return null;
  return p.slice(0, 200);
}

// ---- Web-vitals histograms ---------------------------------------------------------------------

/** CLS is unitless; stored at a thousandth so every vital uses the same log buckets. */
const scale = (name: VitalName) => (name === 'CLS' ? 1000 : 1);
const GROWTH = Math.log(1.04);

/** The histogram bucket of a vital's value (about 4% wide). */
export function vitalBucket(name: VitalName, value: number): number {
  const v = Math.max(0, value * scale(name));
  return Math.ceil(Math.log(v + 1) / GROWTH);
}

/** The upper edge of a bucket in the vital's unit. */
export function vitalBucketUpper(name: VitalName, bucket: number): number {
  return (Math.exp(bucket * GROWTH) - 1) / scale(name);
}

/** The p-th percentile (0-1) of a histogram of (bucket, count). */
export function histogramPercentile(name: VitalName, buckets: Array<{ bucket: number; count: number }>, p: number): number | null {
  const total = buckets.reduce((s, b) => s + b.count, 0);
  if (total === 0) return null;
  const sorted = [...buckets].sort((a, b) => a.bucket - b.bucket);
  const want = p * total;
  let seen = 0;
  for (const b of sorted) {
    seen += b.count;
    if (seen >= want) return vitalBucketUpper(name, b.bucket);
  }
  return vitalBucketUpper(name, sorted[sorted.length - 1].bucket);
}

// ---- Errors ----------------------------------------------------------------------------------

/** Groups errors by message: numbers, quoted values and URLs are masked so one bug is one group. */
export function errorFingerprint(message: string): string {
  const norm = message
    .replace(/https?:\/\/\S+/g, '<url>')
    .replace(/(["'`]).*?\1/g, '<str>')
    .replace(/\b\d+(\.\d+)?\b/g, '<n>')
    .trim()
    .slice(0, 500);
  return createHash('sha1').update(norm).digest('hex').slice(0, 20);
}

// ---- Roll-up ---------------------------------------------------------------------------------

export interface DailyCell {
  day: string;
  metric: string;
  dim: string;
  count: number;
  total: number;
}

export interface UniqueCell {
  day: string;
  metric: string;
  visitor: string;
}

export interface ErrorCell {
  fingerprint: string;
  message: string;
  stack: string;
  url: string;
  browser: string;
  count: number;
  first: Date;
  last: Date;
}

export interface Rollup {
  daily: DailyCell[];
  uniques: UniqueCell[];
  errors: ErrorCell[];
}

export function dayOf(d: Date): string {
  return d.toISOString().slice(0, 10);
}

const DIM_MAX = 200;

/**
 * Rolls a batch up per day. Page views count views, pages, referrers, devices, browsers and
 * countries and make the visitor unique (a bot's views count nowhere); shopper events make the funnel
 * (and its visitors); form submissions and restock sign-ups count per form and item; vitals fill a
 * histogram; errors count per fingerprint. Every other event counts by name.
 */
export function rollup(events: readonly IngestEvent[], ownHost: string | null = null): Rollup {
  const daily = new Map<string, DailyCell>();
  const uniques = new Map<string, UniqueCell>();
  const errors = new Map<string, ErrorCell>();
  const add = (day: string, metric: string, dim: string, total = 0) => {
    const d = dim.slice(0, DIM_MAX);
    const key = `${day}\u0000${metric}\u0000${d}`;
    const cell = daily.get(key);
    if (cell) {
      cell.count += 1;
      cell.total += total;
    } else daily.set(key, { day, metric, dim: d, count: 1, total });
  };
  const unique = (day: string, metric: string, visitor: string | null) => {
    if (!visitor) return;
    const key = `${day}\u0000${metric}\u0000${visitor}`;
    if (!uniques.has(key)) uniques.set(key, { day, metric, visitor });
  };

  for (const e of events) {
    const day = dayOf(e.at);
    const f = e.facts ?? {};
    if (e.source === 'error') {
      const message = (f.message ?? e.name).slice(0, 500);
      const fp = errorFingerprint(message);
      add(day, 'error', fp);
      const g = errors.get(fp);
      if (g) {
        g.count += 1;
        if (e.at >= g.last) Object.assign(g, { last: e.at, stack: f.stack ?? '', url: f.url ?? '', browser: f.browser ?? '', message });
        if (e.at < g.first) g.first = e.at;
      } else
        errors.set(fp, {
          fingerprint: fp,
          message,
          stack: f.stack ?? '',
          url: f.url ?? '',
          browser: f.browser ?? '',
          count: 1,
          first: e.at,
          last: e.at,
        });
      continue;
    }
    if (e.source === 'vital') {
      if (f.vital && typeof f.vitalValue === 'number' && Number.isFinite(f.vitalValue)) {
        add(day, `vital:${f.vital}`, String(vitalBucket(f.vital, f.vitalValue)), f.vitalValue);
      }
      continue;
    }
    if (e.source === 'census' && PAGE_VIEW_EVENTS.has(e.name)) {
      // A crawler or a headless browser is not a visitor: its views count nowhere.
      if (isBot(f.userAgent)) continue;
      add(day, 'pageviews', '');
      if (e.path) add(day, 'page', e.path);
      const ref = referrerHostOf(f.referrer, ownHost);
      if (ref) add(day, 'referrer', ref);
      add(day, 'device', deviceOf(f.userAgent));
      add(day, 'browser', browserOf(f.userAgent));
      add(day, 'country', f.country ?? countryOf(f.locale));
      unique(day, 'visitor', e.visitorId);
      continue;
    }
    const step = FUNNEL_OF[e.name];
    if (step) {
      add(day, 'funnel', step);
      unique(day, `funnel:${step}`, e.visitorId ?? e.sessionId);
    }
    if (e.name === FORM_SUBMIT_EVENT) add(day, 'form_submit', f.formId ?? '(unknown)');
    else if (e.name === RESTOCK_SIGNUP_EVENT) add(day, 'restock', e.itemId ?? '(unknown)');
    add(day, 'event', `${e.source}:${e.name}`);
  }
  const byKey = <T extends { day?: string; metric?: string }>(a: T, b: T, k: (x: T) => string) => (k(a) < k(b) ? -1 : k(a) > k(b) ? 1 : 0);
  return {
    // Sorted, so concurrent writers take row locks in one order.
    daily: [...daily.values()].sort((a, b) => byKey(a, b, (x) => `${x.day}\u0000${x.metric}\u0000${x.dim}`)),
    uniques: [...uniques.values()].sort((a, b) => byKey(a, b, (x) => `${x.metric}\u0000${x.day}\u0000${x.visitor}`)),
    errors: [...errors.values()].sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : 1)),
  };
}
