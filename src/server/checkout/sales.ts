import { sql, type SQL } from 'drizzle-orm';
import { SALE_STATUSES } from '../../core/orders.js';

/**
 * core's netSalesCents as a SQL expression over a row of `orders` (the dashboard's sales and the
 * customers' spend are its sum): a paid order's total net of its refunds, else 0.
 */
export function netSalesCentsSql(): SQL {
  const statuses = sql.join(SALE_STATUSES.map((s) => sql`${s}`), sql`, `);
  return sql`(case when status in (${statuses}) then grand_total_cents - refunded_cents else 0 end)`;
}
