/**
 * The owner dashboard's figures, read only from the per-day roll-ups (never from raw events), so
 * every chart costs a handful of index range scans however many events are stored.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/index.js';
import { rows } from '../db-util.js';
import { WEB_VITALS_THRESHOLDS, rateWebVital, type WebVitalName } from '../../core/constants.js';
import { FUNNEL_STEPS, VITAL_NAMES, histogramPercentile } from './rollup.js';
import type { Dashboard, DimCount, VitalSummary } from '../../core/api/analytics.js';

export type { Dashboard, DimCount, VitalSummary };

const TOP_METRICS = ['page', 'referrer', 'device', 'browser', 'country', 'form_submit', 'restock', 'revenue', 'funnel'];
const TOP_N = 10;

function days(from: string, to: string): string[] {
  const out: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end && out.length < 800; t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** Order revenue per currency less the refunds of the range; a currency only refunded shows its negative total. */
function netRevenue(revenue: DimCount[], refunds: Map<string, number>): DimCount[] {
  const out = revenue.map((r) => ({ ...r, total: r.total - (refunds.get(r.dim) ?? 0) }));
  for (const [dim, total] of refunds) if (!out.some((r) => r.dim === dim)) out.push({ dim, count: 0, total: -total });
  return out;
}

export async function dashboard(db: Db, websiteId: string, from: string, to: string): Promise<Dashboard> {
  const [daily, tops, vitals, errors] = await Promise.all([
    rows<{ day: string; metric: string; c: string | number; t: string | number }>(
      db,
      sql`select day::text as day, metric, sum(count) as c, sum(total) as t from analytics_daily
          where website_id = ${websiteId} and day between ${from} and ${to}
            and (metric in ('pageviews', 'uniq:visitor') or (metric = 'funnel' and dim = 'order') or metric = 'revenue')
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

  // Revenue is net of refunds, by the day (UTC, as the rollups) each refund was made: a refund lowers the
  // revenue of the day it happened, never rewrites a past day (issue 24; order_refunds of checkout/order-admin.ts).
  const refunds = await rows<{ day: string; currency: string; t: string | number }>(
    db,
    sql`select (created at time zone 'UTC')::date::text as day, currency, sum(amount_cents) as t from order_refunds
        where website_id = ${websiteId} and state = 'done' and (created at time zone 'UTC')::date between ${from}::date and ${to}::date
        group by 1, 2`,
  );
  const series = new Map(days(from, to).map((d) => [d, { day: d, pageviews: 0, visitors: 0, revenue: 0, orders: 0 }]));
  for (const r of daily) {
    const s = series.get(r.day);
    if (!s) continue;
    if (r.metric === 'pageviews') s.pageviews += Number(r.c);
    else if (r.metric === 'uniq:visitor') s.visitors += Number(r.c);
    else if (r.metric === 'revenue') s.revenue += Number(r.t);
    else if (r.metric === 'funnel') s.orders += Number(r.c);
  }
  const refundTotals = new Map<string, number>();
  for (const r of refunds) {
    const s = series.get(r.day);
    if (s) s.revenue -= Number(r.t);
    refundTotals.set(r.currency, (refundTotals.get(r.currency) ?? 0) + Number(r.t));
  }

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
      orders: funnelEvents.get('order') ?? 0,
      formSubmissions: sum('form_submit'),
      restockSignups: sum('restock'),
    },
    pages: top('page'),
    referrers: top('referrer'),
    devices: top('device'),
    browsers: top('browser'),
    countries: top('country'),
    funnel,
    revenue: netRevenue(top('revenue'), refundTotals),
    refunds: [...refundTotals].map(([dim, total]) => ({ dim, count: refunds.filter((r) => r.currency === dim).length, total })),
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
