/**
 * The owner's analytics: traffic, funnel, vitals and errors read only from the per-day roll-ups (never
 * from raw events), so every chart costs a handful of index range scans however many events are stored;
 * orders and sales from the orders table (sales-sql.ts), never from browser beacons.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/index.js';
import { rows } from '../db-util.js';
import { WEB_VITALS_THRESHOLDS, rateWebVital, type WebVitalName } from '../../core/constants.js';
import { FUNNEL_STEPS, VITAL_NAMES, histogramPercentile } from './rollup.js';
import type { Dashboard, DimCount, VitalSummary } from '../../core/api/analytics.js';
import { salesByDay, type SalesDay } from '../sales-sql.js';

export type { Dashboard, DimCount, VitalSummary };

const TOP_METRICS = ['page', 'referrer', 'device', 'browser', 'country', 'form_submit', 'restock', 'funnel'];
const TOP_N = 10;

function days(from: string, to: string): string[] {
  const out: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end && out.length < 800; t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** Per currency: net sales with the number of orders, and what was refunded of them. */
function perCurrency(sales: readonly SalesDay[]): { revenue: DimCount[]; refunds: DimCount[] } {
  const by = new Map<string, { orders: number; gross: number; net: number; refundDays: number }>();
  for (const d of sales) {
    const c = by.get(d.currency) ?? { orders: 0, gross: 0, net: 0, refundDays: 0 };
    c.orders += d.orders;
    c.gross += d.grossCents;
    c.net += d.netCents;
    if (d.grossCents > d.netCents) c.refundDays += 1;
    by.set(d.currency, c);
  }
  const list = [...by].sort((a, b) => b[1].orders - a[1].orders || (a[0] < b[0] ? -1 : 1));
  return {
    revenue: list.map(([dim, c]) => ({ dim, count: c.orders, total: c.net })),
    refunds: list.filter(([, c]) => c.gross > c.net).map(([dim, c]) => ({ dim, count: c.refundDays, total: c.gross - c.net })),
  };
}

export async function dashboard(db: Db, websiteId: string, from: string, to: string): Promise<Dashboard> {
  const [daily, tops, vitals, errors] = await Promise.all([
    rows<{ day: string; metric: string; c: string | number; t: string | number }>(
      db,
      sql`select day::text as day, metric, sum(count) as c, sum(total) as t from analytics_daily
          where website_id = ${websiteId} and day between ${from} and ${to}
            and metric in ('pageviews', 'uniq:visitor')
          group by day, metric`,
    ),
    rows<{ metric: string; dim: string; c: string | number; t: string | number }>(
      db,
      sql`select metric, dim, c, t from (
            select metric, dim, sum(count) as c, sum(total) as t,
                   row_number() over (partition by metric order by sum(count) desc, dim) as rn
            from analytics_daily
            where website_id = ${websiteId} and day between ${from} and ${to}
              and (metric in (${sql.join(
                TOP_METRICS.map((m) => sql`${m}`),
                sql`, `,
              )}) or metric like 'uniq:funnel:%')
            group by metric, dim) x
          where rn <= ${TOP_N * 5}`,
    ),
    rows<{ metric: string; dim: string; c: string | number }>(
      db,
      sql`select metric, dim, sum(count) as c from analytics_daily
          where website_id = ${websiteId} and day between ${from} and ${to} and metric like 'vital:%'
          group by metric, dim`,
    ),
    rows<{
      fingerprint: string;
      c: string | number;
      message: string | null;
      total: string | number | null;
      last_seen: string | Date | null;
      last_url: string | null;
      last_browser: string | null;
      last_stack: string | null;
    }>(
      db,
      sql`select d.fingerprint, d.c, g.message, g.count as total, g.last_seen, g.last_url, g.last_browser, g.last_stack
          from (select dim as fingerprint, sum(count) as c from analytics_daily
                where website_id = ${websiteId} and day between ${from} and ${to} and metric = 'error'
                group by dim order by sum(count) desc limit 20) d
          left join analytics_error_groups g on g.website_id = ${websiteId} and g.fingerprint = d.fingerprint
          order by d.c desc, g.last_seen desc nulls last`,
    ),
  ]);

  // Orders and sales come from the orders table (an order placed without JavaScript counts too), the same
  // rule as the owner's dashboard and the customers' spend.
  const endDay = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000);
  const sales = await salesByDay(db, websiteId, new Date(`${from}T00:00:00Z`), endDay);
  const series = new Map(days(from, to).map((d) => [d, { day: d, pageviews: 0, visitors: 0, revenue: 0, orders: 0 }]));
  for (const r of daily) {
    const s = series.get(r.day);
    if (!s) continue;
    if (r.metric === 'pageviews') s.pageviews += Number(r.c);
    else if (r.metric === 'uniq:visitor') s.visitors += Number(r.c);
  }
  for (const d of sales) {
    const s = series.get(d.day);
    if (!s) continue;
    s.orders += d.orders;
    s.revenue += d.netCents;
  }
  const money = perCurrency(sales);

  const by = new Map<string, DimCount[]>();
  for (const r of tops) {
    const list = by.get(r.metric) ?? [];
    list.push({ dim: r.dim, count: Number(r.c), total: Number(r.t) });
    by.set(r.metric, list);
  }
  const top = (m: string, n = TOP_N) => (by.get(m) ?? []).sort((a, b) => b.count - a.count || (a.dim < b.dim ? -1 : 1)).slice(0, n);
  const sum = (m: string) => (by.get(m) ?? []).reduce((s, x) => s + x.count, 0);

  const funnelEvents = new Map((by.get('funnel') ?? []).map((x) => [x.dim, x.count]));
  let prev: number | null = null;
  const funnel = FUNNEL_STEPS.map((step) => {
    const visitors = (by.get(`uniq:funnel:${step}`) ?? []).reduce((s, x) => s + x.count, 0);
    const conversion = prev === null ? null : prev === 0 ? 0 : Math.min(1, visitors / prev);
    prev = visitors;
    return { step, events: funnelEvents.get(step) ?? 0, visitors, conversion };
  });

  const hist = new Map<string, Array<{ bucket: number; count: number }>>();
  for (const r of vitals) {
    const name = r.metric.slice('vital:'.length);
    const list = hist.get(name) ?? [];
    list.push({ bucket: Number(r.dim), count: Number(r.c) });
    hist.set(name, list);
  }
  const vitalSummaries: VitalSummary[] = VITAL_NAMES.map((name) => {
    const h = hist.get(name) ?? [];
    const p75 = histogramPercentile(name, h, 0.75);
    const t = (WEB_VITALS_THRESHOLDS as Record<string, { good: number; poor: number } | undefined>)[name];
    return {
      name,
      p75,
      samples: h.reduce((s, b) => s + b.count, 0),
      good: t?.good ?? null,
      poor: t?.poor ?? null,
      rating: t && p75 !== null ? rateWebVital(name as WebVitalName, p75) : null,
    };
  });

  const seriesList = [...series.values()];
  return {
    from,
    to,
    series: seriesList,
    totals: {
      pageviews: seriesList.reduce((s, x) => s + x.pageviews, 0),
      visitors: seriesList.reduce((s, x) => s + x.visitors, 0),
      orders: seriesList.reduce((s, x) => s + x.orders, 0),
      formSubmissions: sum('form_submit'),
      restockSignups: sum('restock'),
    },
    pages: top('page'),
    referrers: top('referrer'),
    devices: top('device'),
    browsers: top('browser'),
    countries: top('country'),
    funnel,
    revenue: money.revenue,
    refunds: money.refunds,
    forms: top('form_submit'),
    restock: top('restock'),
    vitals: vitalSummaries,
    errors: errors.map((e) => ({
      fingerprint: e.fingerprint,
      message: e.message ?? '(unknown error)',
      count: Number(e.c),
      total: Number(e.total ?? e.c),
      lastSeen: e.last_seen ? new Date(e.last_seen).toISOString() : '',
      lastUrl: e.last_url ?? '',
      lastBrowser: e.last_browser ?? '',
      lastStack: (e.last_stack ?? '').slice(0, 2000),
    })),
  };
}
