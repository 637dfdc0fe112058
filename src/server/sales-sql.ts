import { sql, type SQL } from 'drizzle-orm';
import { SALE_STATUSES } from '../core/orders.js';

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
