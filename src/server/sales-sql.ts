import { sql, type SQL } from 'drizzle-orm';
import { OrderStatus, SALE_STATUSES } from '../core/orders.js';
import type { Db } from '../db/index.js';
import { rows } from './db-util.js';

/**
 * core's netSalesCents as a SQL expression over a row of `orders` (the dashboard's sales and the
 * customers' spend are its sum): a paid order's total net of its refunds, else 0.
 */
export function netSalesCentsSql(): SQL {
  return sql`(case when status in ${saleStatusesSql()} then grand_total_cents - refunded_cents else 0 end)`;
}

/** core's SALE_STATUSES as a SQL list, for `status in ...`: the orders that are paid and not fully refunded. */
export function saleStatusesSql(): SQL {
  return sql`(${sql.join(
    SALE_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  )})`;
}

/**
 * Sales as the dashboard and analytics report them, from the orders table, never from browser beacons: per
 * UTC day an order was placed (every order past 'pending', the fully refunded ones too), how many, their
 * totals (gross) and their net sales (netSalesCentsSql: a refund counts against its order, whichever way it
 * was made, so these figures and a customer's spend always agree).
 */
export interface SalesDay {
  day: string;
  currency: string;
  orders: number;
  grossCents: number;
  netCents: number;
}

export async function salesByDay(db: Db, websiteId: string, from: Date, to: Date): Promise<SalesDay[]> {
  const r = await rows<{ day: string; currency: string; n: number; gross: string | number; net: string | number }>(
    db,
    sql`select (created at time zone 'UTC')::date::text as day, currency, count(*)::int as n,
               coalesce(sum(grand_total_cents), 0) as gross, coalesce(sum(${netSalesCentsSql()}), 0) as net
        from orders where website_id = ${websiteId} and status <> ${OrderStatus.PENDING}
          and created >= ${from.toISOString()} and created < ${to.toISOString()}
        group by 1, 2 order by 1, 2`,
  );
  return r.map((x) => ({ day: x.day, currency: x.currency, orders: Number(x.n), grossCents: Number(x.gross), netCents: Number(x.net) }));
}

/** The sum of a span's sales days: orders placed and net sales. */
export function salesTotals(days: readonly SalesDay[]): { orders: number; netCents: number } {
  return days.reduce((t, d) => ({ orders: t.orders + d.orders, netCents: t.netCents + d.netCents }), { orders: 0, netCents: 0 });
}
