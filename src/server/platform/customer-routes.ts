/**
 * One customer and the customer list as CSV (issue 23), for the roles that see the dashboard; never cached.
 * - GET /api/admin/customers/detail?email=: the person behind an address (case-insensitive): their orders and
 *   spend (paid orders net of refunds), their site-user account (and whether it is disabled), the mailing lists
 *   they are on with the state of each, and their restock sign-ups.
 * - PUT /api/admin/customers/profile: the owner's name, phone, note and tags for a customer.
 * - GET /api/admin/customers.csv?q=: the list the Customers screen shows (the same search), as a CSV file.
 */
import {
  customerDetailQuery,
  customerListQuery,
  customerProfileBody,
  type CustomerDetail,
  type CustomerDetailAnswer,
} from '../../core/api/customers.js';
import { customerMessages } from '../../core/messages.js';
import { formatAddress } from '../site-page/index.js';
import type { Db } from '../../db/index.js';
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
  const writer = { preHandler: app.requireOwner(can('customers', 'write')) };

  app.get('/api/admin/customers/detail', pre, async (req, reply): Promise<CustomerDetailAnswer> => {
    reply.header('cache-control', 'no-store');
    const { email } = parseInput(customerDetailQuery, req.query);
    const site = await app.services.websites.get();
    const key = email.toLowerCase();
    const orders = await rows<{
      shipping_address: Record<string, string> | string | null;
      id: string;
      order_number: number;
      status: string;
      grand_total_cents: string | number;
      refunded_cents: string | number;
      created: string | Date;
      email: string;
    }>(
      db,
      sql`select id, shipping_address, order_number, status, grand_total_cents, refunded_cents, created, email from orders where website_id = ${site.id} and lower(email) = ${key} and status <> 'pending' order by created desc limit 200`,
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
    const who = await profileParts(db, site.id, key, site.locale, orders);
    if (!shown && !who.saved) throw notFound(customerMessages.NO_SUCH_CUSTOMER);
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
        email: shown ?? email,
        name: who.profile.name || who.orderName || who.accountName,
        profile: who.profile,
        acceptsMarketing: lists.some((l) => l.status === 'subscribed'),
        addresses: who.addresses,
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

  app.put('/api/admin/customers/profile', writer, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const body = parseInput(customerProfileBody, req.body);
    const site = await app.services.websites.get();
    const tags = [...new Set(body.tags)];
    await db.execute(
      sql`insert into customer_profiles (website_id, email_key, name, phone, note, tags, updated)
          values (${site.id}, ${body.email.toLowerCase()}, ${body.name}, ${body.phone}, ${body.note}, ${JSON.stringify(tags)}::jsonb, now())
          on conflict (website_id, email_key) do update set name = excluded.name, phone = excluded.phone, note = excluded.note,
            tags = excluded.tags, updated = excluded.updated`,
    );
    return { ok: true, message: customerMessages.SAVED };
  });

  app.get('/api/admin/customers.csv', pre, async (req, reply) => {
    const q = parseInput(customerListQuery, req.query);
    const site = await app.services.websites.get();
    const list = await customerList(db, site.id, q.q, 10_000, site.locale);
    const csv = csvText([
      [
        'Email',
        'Name',
        'Phone',
        'Address',
        'Accepts marketing',
        'Tags',
        'Orders',
        'Spend',
        'Currency',
        'Site account',
        'Mailing lists',
        'Restock sign-ups',
        'Last seen',
      ],
      ...list.map((c) => [
        c.email,
        c.name,
        c.phone,
        c.address,
        c.acceptsMarketing ? 'yes' : 'no',
        c.tags.join('; '),
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

type OrderAddressRow = { shipping_address: Record<string, string> | string | null };
const addressOf = (v: OrderAddressRow['shipping_address']): Record<string, string> | null =>
  !v ? null : typeof v === 'string' ? (JSON.parse(v) as Record<string, string>) : v;

/** The owner's profile of a customer, the names their orders and account give, and their distinct addresses. */
async function profileParts(db: Db, siteId: string, key: string, locale: string, orders: readonly OrderAddressRow[]) {
  const [saved] = await rows<{ name: string; phone: string; note: string; tags: unknown }>(
    db,
    sql`select name, phone, note, tags from customer_profiles where website_id = ${siteId} and email_key = ${key}`,
  );
  const [account] = await rows<{ display_name: string; id: string }>(
    db,
    sql`select coalesce(p.display_name, '') as display_name, u.id from site_users u left join site_user_profiles p on p.site_user_id = u.id
        where u.website_id = ${siteId} and lower(u.email) = ${key} limit 1`,
  );
  const savedAddresses = account
    ? await rows<Record<string, string>>(
        db,
        sql`select name, line1, line2, city, region, postal_code as "postalCode", country from site_user_addresses
            where site_user_id = ${account.id} order by is_default desc, created desc limit 20`,
      )
    : [];
  const seen = new Set<string>();
  const addresses: CustomerDetail['addresses'] = [];
  const add = (a: Record<string, string> | null, from: 'order' | 'account') => {
    const lines = formatAddress(a, locale);
    const k = lines.join('\n').toLowerCase();
    if (lines.length === 0 || seen.has(k) || addresses.length >= 20) return;
    seen.add(k);
    addresses.push({ lines, from });
  };
  for (const o of orders) add(addressOf(o.shipping_address), 'order');
  for (const a of savedAddresses) add(a, 'account');
  const tags = Array.isArray(saved?.tags)
    ? saved.tags.map(String)
    : typeof saved?.tags === 'string'
      ? (JSON.parse(saved.tags) as string[])
      : [];
  return {
    saved: !!saved,
    profile: { name: saved?.name ?? '', phone: saved?.phone ?? '', note: saved?.note ?? '', tags },
    orderName: orders.map((o) => addressOf(o.shipping_address)?.name ?? '').find((n) => n) ?? '',
    accountName: account?.display_name ?? '',
    addresses,
  };
}
