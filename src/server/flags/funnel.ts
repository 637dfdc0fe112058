/**
 * The shop funnel split by an experiment's variant, from the raw analytics events (kept for the retention
 * period). A visitor's variant is the one their events carry (`experiments: ['name:variant', ...]`); every
 * event of that visitor, client or server side, then counts towards the variant's steps.
 */
import type { DashboardVariants, VariantFunnel } from '../../core/api/analytics.js';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/index.js';
import { rows } from '../db-util.js';
import { badRequest } from '../errors.js';
import type { WebsiteRow } from '../platform/index.js';
import { experimentsOf } from './service.js';

export const NO_SUCH_EXPERIMENT = 'No such experiment.';

export const FUNNEL_EVENTS = [
  ['product_view', 'product_page_visit'],
  ['add_to_cart', 'add_to_cart'],
  ['view_cart', 'view_cart'],
  ['checkout', 'checkout_start'],
  ['order', 'order_placed'],
] as const;

export type { DashboardVariants, VariantFunnel };

export async function funnelByVariant(
  db: Db,
  websiteId: string,
  experiment: string,
  variants: string[],
  from: string,
  to: string,
): Promise<VariantFunnel[]> {
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000);
  const names = FUNNEL_EVENTS.map(([, e]) => e);
  const prefix = `${experiment}:`;
  const found = await rows<{ variant: string; name: string; n: string | number; total: string | number }>(
    db,
    sql`with tagged as (
          select e.visitor_id, min(substr(t.tag, ${prefix.length + 1})) as variant
          from analytics_events e
          cross join lateral jsonb_array_elements_text(case when jsonb_typeof(e.data->'experiments') = 'array' then e.data->'experiments' else '[]'::jsonb end) as t(tag)
          where e.website_id = ${websiteId} and e.received_at >= ${start} and e.received_at < ${end}
            and e.visitor_id is not null and left(t.tag, ${prefix.length}) = ${prefix}
          group by e.visitor_id)
        select tg.variant, coalesce(e.name, '') as name, count(distinct e.visitor_id) as n, (select count(*) from tagged x where x.variant = tg.variant) as total
        from tagged tg
        left join analytics_events e on e.visitor_id = tg.visitor_id and e.website_id = ${websiteId}
          and e.received_at >= ${start} and e.received_at < ${end}
          and e.name in (${sql.join(
            names.map((n) => sql`${n}`),
            sql`, `,
          )})
        group by tg.variant, e.name`,
  );
  const out: VariantFunnel[] = [];
  for (const v of new Set([...variants, ...found.map((f) => f.variant)])) {
    const mine = found.filter((f) => f.variant === v);
    const visitors = Number(mine[0]?.total ?? 0);
    let prev: number | null = null;
    const steps = FUNNEL_EVENTS.map(([step, event]) => {
      const n = Number(mine.find((f) => f.name === event)?.n ?? 0);
      const conversion = prev === null ? (visitors ? n / visitors : null) : prev ? n / prev : null;
      prev = n;
      return { step, visitors: n, conversion };
    });
    out.push({ variant: v, visitors, steps });
  }
  return out;
}

/**
 * The dashboard's funnel split by variant (server/analytics calls this): the asked experiment, else the
 * site's first one; null when the site has none. An unknown experiment name is a 400 in words.
 */
export async function dashboardVariants(
  db: Db,
  site: Pick<WebsiteRow, 'id' | 'settings'>,
  asked: unknown,
  from: string,
  to: string,
): Promise<DashboardVariants> {
  const list = experimentsOf(site);
  const experiments = list.map((e) => e.name);
  if (asked !== undefined && (typeof asked !== 'string' || asked.length > 64 || !experiments.includes(asked))) {
    throw badRequest(NO_SUCH_EXPERIMENT, { experiment: NO_SUCH_EXPERIMENT });
  }
  const e = list.find((x) => x.name === asked) ?? list[0];
  if (!e) return { experiments, byVariant: null };
  return {
    experiments,
    byVariant: {
      experiment: e.name,
      variants: await funnelByVariant(
        db,
        site.id,
        e.name,
        e.variants.map((v) => v.name),
        from,
        to,
      ),
    },
  };
}
