/**
 * One customer and the customer list as CSV (issue 23), for the roles that see the dashboard; never cached.
 * - GET /api/admin/customers/detail?email=: the person behind an address (case-insensitive): their orders and
 *   spend (paid orders net of refunds), their site-user account (and whether it is disabled), the mailing lists
 *   they are on with the state of each, and their restock sign-ups.
 * - GET /api/admin/customers.csv?q=: the list the Customers screen shows (the same search), as a CSV file.
 */
import { customerDetailQuery, customerListQuery, type CustomerDetailAnswer } from '../../core/api/customers.js';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { csvText } from '../../core/csv.js';
import { rows } from '../db-util.js';
import { notFound } from '../errors.js';
import { parseInput } from './validate.js';
import { customerList } from './owner-home.js';
import { moneyDecimalString } from '../../core/money.js';
import { can } from '../../core/roles.js';
import { netSalesCents } from '../../core/orders.js';

const iso = (d: string | Date | null) => (d ? new Date(d).toISOString() : null);

export async function customerRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const pre = { preHandler: app.requireOwner(can('customers', 'read')) };

  app.get('/api/admin/customers/detail', pre, async (req, reply): Promise<CustomerDetailAnswer> => {
    reply.header('cache-control', 'no-store');
    const { email } = parseInput(customerDetailQuery, req.query);
    const site = await app.services.websites.get();
    const key = email.toLowerCase();
    const orders = await rows<{
      id: string;
      order_number: number;
      status: string;
      grand_total_cents: string | number;
      refunded_cents: string | number;
      created: string | Date;
      email: string;
    }>(
      db,
      sql`select id, order_number, status, grand_total_cents, refunded_cents, created, email from orders where website_id = ${site.id} and lower(email) = ${key} and status <> 'pending' order by created desc limit 200`,
    );
    const [account] = await rows<{ id: string; email: string; created_at: string | Date; disabled: boolean }>(
      db,
      sql`select id, email, created_at, disabled from site_users where website_id = ${site.id} and lower(email) = ${key} limit 1`,
    );
    const lists = await rows<{ name: string; status: string; created: string | Date; email: string }>(
      db,
      sql`select l.name, m.status, m.created, m.email from mailing_list_members m join mailing_lists l on l.id = m.list_id where m.website_id = ${site.id} and m.email_key = ${key} order by l.name`,
    );
    const restock = await rows<{ id: string; title: string; attributes: unknown; status: string; created: string | Date; email: string }>(
      db,
      sql`select r.id, i.title, v.attributes, r.status, r.created, r.email from restock_sign_ups r join items i on i.id = r.product_id join product_variants v on v.id = r.variant_id
          where r.website_id = ${site.id} and r.email_key = ${key} order by r.created desc limit 200`,
    );
    const shown = orders[0]?.email ?? account?.email ?? lists[0]?.email ?? restock[0]?.email;
    if (!shown) throw notFound('No customer has that address.');
    const spend = orders.reduce(
      (s, o) =>
        s + netSalesCents({ status: o.status, grandTotalCents: Number(o.grand_total_cents), refundedCents: Number(o.refunded_cents) }),
      0,
    );
    const variantName = (a: unknown) =>
      Object.values(a && typeof a === 'object' ? (a as Record<string, unknown>) : {})
        .map(String)
        .join(' / ');
    return {
      currency: site.currency,
      customer: {
        email: shown,
        spendCents: spend,
        orders: orders.map((o) => ({
          id: o.id,
          orderNumber: Number(o.order_number),
          status: o.status,
          grandTotalCents: Number(o.grand_total_cents),
          created: iso(o.created),
        })),
        account: account ? { state: account.disabled ? 'disabled' : 'active', created: iso(account.created_at) } : null,
        mailingLists: lists.map((l) => ({ name: l.name, status: l.status, since: iso(l.created) })),
        restockSignUps: restock.map((r) => ({
          id: r.id,
          product: r.title,
          variant: variantName(r.attributes),
          status: r.status,
          created: iso(r.created),
        })),
      },
    };
  });

  app.get('/api/admin/customers.csv', pre, async (req, reply) => {
    const q = parseInput(customerListQuery, req.query);
    const site = await app.services.websites.get();
    const list = await customerList(db, site.id, q.q, 10_000);
    const csv = csvText([
      ['Email', 'Orders', 'Spend', 'Currency', 'Site account', 'Mailing lists', 'Restock sign-ups', 'Last seen'],
      ...list.map((c) => [
        c.email,
        c.orders,
        moneyDecimalString(c.spendCents, site.currency),
        site.currency,
        c.account ? 'yes' : 'no',
        c.mailingLists,
        c.restockSignUps,
        c.lastSeen,
      ]),
    ]);
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', 'attachment; filename="customers.csv"')
      .type('text/csv; charset=utf-8')
      .send(csv);
  });
}
