/**
 * The owner's home and site settings (issue 23):
 * - GET /api/admin/dashboard: sales, orders and visitors today and over 7 and 30 days against the period
 *   before, orders waiting to be fulfilled, low-stock variants, recent form submissions and restock sign-ups,
 *   the storage the site's files use of its quota (storage/quota.ts), and the set-up checklist, each item
 *   worked out from what the site has (nothing is ticked by hand).
 * - GET/PUT /api/admin/site-settings: title, tagline, logo, favicon, time zone, locale, currency, contact,
 *   business address and hours, social accounts (the website row's columns and its settings; version-checked).
 * Owner calls, role-checked, never cached.
 */
import type { AdminShellInfo, SiteSettingsAnswer } from '../../core/api/platform.js';
import { customerListQuery, type CustomerList, type CustomerSummary } from '../../core/api/customers.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { CollectionType, RecordType } from '../../core/enums.js';
import { EMPTY_HOURS, WEEKDAYS, siteSettingsSchema, type SiteSettings } from '../../core/site-settings.js';
import { rows } from '../db-util.js';
import { HttpError } from '../errors.js';
import { parseInput } from './validate.js';
import { linkBase } from '../email-origin.js';
import { changeSettings } from './settings.js';
import { addressFormat, checkedAddress, countryName, countryOptions, defaultCountry, formatAddress } from '../site-page/index.js';
import { DAY_MS, zoneOffsetAt } from '../../core/time.js';
import type { WebsiteRow } from './websites.js';
import { schema, type Db } from '../../db/index.js';
import { can } from '../../core/roles.js';
import { quotaBytes, storageUsed } from '../storage/index.js';
import { netSalesCentsSql, salesByDay, salesTotals } from '../sales-sql.js';
import { FulfilmentStatus, OrderStatus } from '../../core/orders.js';

/** A variant with this many or fewer in stock (and not unlimited) is low. */
export const LOW_STOCK_AT = 3;

const STALE = 'Someone else saved the settings since you opened them. Reload to see their changes: nothing was overwritten.';

type Obj = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** The settings form's values as stored: columns of the website row and keys of its settings. */
export function siteSettingsOf(site: WebsiteRow): SiteSettings {
  const s = site.settings;
  const loc = obj(s.location);
  const hours = obj(s.businessHours);
  return {
    version: site.version,
    title: site.title,
    tagline: str(s.siteTagLine),
    logoImageUrl: str(s.logoImageUrl),
    faviconUrl: str(s.faviconUrl),
    timeZone: site.timeZone,
    locale: site.locale,
    currency: site.currency as SiteSettings['currency'],
    contactEmail: str(s.contactEmail),
    contactPhoneNumber: str(s.contactPhoneNumber),
    location: businessAddressOf(loc),
    businessHours: { ...EMPTY_HOURS, ...Object.fromEntries(WEEKDAYS.map((d) => [d, str(hours[d])])) },
    socialAccounts: (Array.isArray(s.socialAccounts) ? s.socialAccounts : []).map((a) => ({
      serviceName: str(obj(a).serviceName),
      profileUrl: str(obj(a).profileUrl),
    })),
    commentsEnabled: s.commentsEnabled !== false,
  };
}

/**
 * The business address in parts. One saved before addresses had parts keeps its two free lines as the
 * address lines (the owner splits them into city and postcode on the next save).
 */
function businessAddressOf(loc: Obj): SiteSettings['location'] {
  const structured = ['line1', 'city', 'postalCode', 'country'].some((k) => str(loc[k]) !== '');
  return {
    addressTitle: str(loc.addressTitle),
    line1: structured ? str(loc.line1) : str(loc.addressLine1),
    line2: structured ? str(loc.line2) : str(loc.addressLine2),
    city: str(loc.city),
    region: str(loc.region),
    postalCode: str(loc.postalCode),
    country: str(loc.country),
  };
}

/**
 * The business address as stored: its parts checked against the country's format and normalised, plus the
 * lines templates read (website.location: addressLine1 the street, addressLine2 the rest as the country
 * writes it, addressCountry the country's name). A 400 with each wrong part's message; all blank is none.
 */
function storedBusinessAddress(loc: SiteSettings['location'], locale: string): Obj {
  const { addressTitle, ...parts } = loc;
  if (Object.values(parts).every((v) => v === '')) return { addressTitle, addressLine1: '', addressLine2: '', addressCountry: '' };
  const { address, errors } = checkedAddress({ ...parts, name: addressTitle }, locale);
  // The business name may be left out (the address is the business's own).
  const fieldErrors = Object.fromEntries(Object.entries(errors).flatMap(([k, m]) => (k === 'name' ? [] : [[`location.${k}`, m]])));
  const first = Object.values(fieldErrors)[0];
  if (first) throw new HttpError(400, first, fieldErrors);
  const { name: _name, ...kept } = address;
  const rest = formatAddress({ ...address, name: '', line1: '', line2: '' }, locale).slice(0, -1);
  return {
    addressTitle,
    ...kept,
    addressLine1: [address.line1, address.line2].filter(Boolean).join(', '),
    addressLine2: rest.join(', '),
    addressCountry: countryName(address.country, locale),
  };
}

/** The settings, with the business address form's country list and first format (others load as picked). */
function settingsAnswer(site: WebsiteRow): SiteSettingsAnswer {
  const settings = siteSettingsOf(site);
  return {
    settings,
    countries: countryOptions(site.locale),
    addressFormat: addressFormat(settings.location.country || defaultCountry(site.locale), site.locale),
  };
}

/** The instant the day holding `at` starts in `timeZone`. */
export function startOfDay(at: number, timeZone: string): number {
  const offset = zoneOffsetAt(at, timeZone);
  // The zone's wall clock at `at` as a UTC instant; its midnight is the start of that UTC day.
  const wall = Math.floor(at / 1000) * 1000 + offset;
  const midnightWall = Math.floor(wall / DAY_MS) * DAY_MS;
  return midnightWall - offset;
}

const DAY = 86_400_000;

interface Figures {
  salesCents: number;
  orders: number;
  visitors: number;
}

function noStore(reply: FastifyReply) {
  reply.header('cache-control', 'no-store');
}

export type { CustomerSummary };

/**
 * Everyone who ordered, has a site-user account, is on a mailing list or signed up for a restock, one row per
 * address (case-insensitive), most recent first; `q` matches part of the address (its % and _ as themselves).
 */
export async function customerList(db: Db, siteId: string, q: string, limit: number, locale = 'en'): Promise<CustomerSummary[]> {
  const like = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const list = await rows<{
    k: string;
    email: string;
    orders: number;
    spend: string | number;
    account: boolean;
    lists: number;
    restock: number;
    last: string | Date;
    owner_name: string | null;
    phone: string | null;
    tags: unknown;
    other_name: string | null;
    address: Record<string, string> | string | null;
    marketing: boolean;
  }>(
    db,
    sql`with people as (
          select lower(email) as k, email, created as at, 1 as o, ${netSalesCentsSql()} as spend, 0 as a, 0 as l, 0 as r,
                 coalesce(shipping_address->>'name', '') as n from orders where website_id = ${siteId} and status <> 'pending'
          union all select lower(u.email), u.email, u.created_at, 0, 0, 1, 0, 0, coalesce(p.display_name, '') from site_users u
            left join site_user_profiles p on p.site_user_id = u.id where u.website_id = ${siteId}
          union all select email_key, email, created, 0, 0, 0, 1, 0, '' from mailing_list_members where website_id = ${siteId}
          union all select email_key, email, created, 0, 0, 0, 0, 1, '' from restock_sign_ups where website_id = ${siteId}
        ), found as (
          select k, min(email) as email, sum(o)::int as orders, sum(spend) as spend, bool_or(a = 1) as account, sum(l)::int as lists,
                 sum(r)::int as restock, max(at) as last, max(n) filter (where n <> '') as other_name
          from people p group by k
          having k like ${like} or bool_or(lower(n) like ${like})
             or exists (select 1 from customer_profiles c where c.website_id = ${siteId} and c.email_key = p.k and lower(c.name) like ${like})
          order by max(at) desc limit ${limit}
        )
        select f.*, c.name as owner_name, c.phone, c.tags,
               (select shipping_address from orders o where o.website_id = ${siteId} and lower(o.email) = f.k and o.status <> 'pending'
                  and o.shipping_address is not null order by o.created desc limit 1) as address,
               exists (select 1 from mailing_list_members m where m.website_id = ${siteId} and m.email_key = f.k and m.status = 'subscribed') as marketing
        from found f left join customer_profiles c on c.website_id = ${siteId} and c.email_key = f.k
        order by f.last desc`,
  );
  return list.map((c) => {
    const address = typeof c.address === 'string' ? (JSON.parse(c.address) as Record<string, string>) : c.address;
    const tags = typeof c.tags === 'string' ? (JSON.parse(c.tags) as unknown) : c.tags;
    return {
      email: c.email,
      name: c.owner_name || c.other_name || '',
      tags: Array.isArray(tags) ? tags.map(String) : [],
      phone: c.phone ?? '',
      address: formatAddress(address, locale).join(', '),
      acceptsMarketing: !!c.marketing,
      orders: Number(c.orders),
      spendCents: Number(c.spend ?? 0),
      account: !!c.account,
      mailingLists: Number(c.lists),
      restockSignUps: Number(c.restock),
      lastSeen: new Date(c.last).toISOString(),
    };
  });
}

/** The first-steps checklist on the dashboard: what still stands between the site and its first real order. */
function setupChecklist(
  app: FastifyInstance,
  c: {
    paymentsReady: boolean;
    testMode: boolean;
    shippingOptions: number;
    publishedProducts: number;
    siteAddress: Parameters<typeof linkBase>[0];
  },
) {
  return [
    {
      key: 'payments',
      label: 'Take payments',
      done: c.paymentsReady,
      href: '/config/payments',
      hint: c.paymentsReady
        ? ''
        : 'Connect Stripe in Settings → Payments and press Check connection: until then checkout takes test payments only.',
      ...(c.paymentsReady && c.testMode ? { note: 'Connected in Stripe test mode: save live keys to take real money.' } : {}),
    },
    {
      key: 'shipping',
      label: 'Add a shipping option',
      done: c.shippingOptions > 0,
      href: '/config/shipping',
      hint: 'Say how physical products reach customers and what it costs.',
    },
    {
      key: 'address',
      label: "Set the site's address",
      done: !!app.config.PUBLIC_URL || linkBase(c.siteAddress) !== null,
      href: '/config/site-address',
      hint: 'Say which address visitors use (or set PUBLIC_URL), so emailed links point there.',
    },
    {
      key: 'email',
      label: 'Set up email delivery',
      done: app.services.mailer.hasRelay,
      href: '/config/email-settings',
      hint: 'Enter your SMTP relay (or set SMTP_URL) so order and sign-up emails leave the server; until then they wait in the outbox.',
    },
    {
      key: 'product',
      label: 'Publish a first product',
      done: c.publishedProducts > 0,
      href: '/config/products',
      hint: 'Add a product with a price and a photo, and publish it.',
    },
  ];
}

/** The dashboard: sales, orders and visitors by period, what waits for the owner, and the checklist. */
function registerDashboard(app: FastifyInstance) {
  const db = app.database.db;
  const { websites } = app.services;

  async function figures(siteId: string, from: number, to: number, fromDay: string, toDay: string): Promise<Figures> {
    const sales = salesTotals(await salesByDay(db, siteId, new Date(from), new Date(to)));
    const [v] = await rows<{ n: number }>(
      db,
      sql`select count(distinct visitor)::int as n from analytics_daily_uniques
          where website_id = ${siteId} and metric = 'visitor' and day >= ${fromDay} and day < ${toDay}`,
    );
    return { salesCents: sales.netCents, orders: sales.orders, visitors: Number(v?.n ?? 0) };
  }

  app.get('/api/admin/dashboard', { preHandler: app.requireOwner(can('customers', 'read')) }, async (req, reply) => {
    noStore(reply);
    const site = await websites.get();
    const now = Date.now();
    const today = startOfDay(now, site.timeZone);
    // Visitors are counted per UTC day (the analytics roll-ups' days).
    const utcToday = Math.floor(now / DAY) * DAY;
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    const periods = [] as Array<{ days: number; current: Figures; previous: Figures }>;
    for (const days of [1, 7, 30]) {
      const from = today - (days - 1) * DAY;
      const prevFrom = from - days * DAY;
      const uFrom = utcToday - (days - 1) * DAY;
      const uTo = utcToday + DAY;
      periods.push({
        days,
        current: await figures(site.id, from, now + 1, day(uFrom), day(uTo)),
        previous: await figures(site.id, prevFrom, from, day(uFrom - days * DAY), day(uFrom)),
      });
    }
    const toFulfil = await rows<{
      id: string;
      order_number: number;
      email: string;
      grand_total_cents: string | number;
      created: string | Date;
    }>(
      db,
      sql`select id, order_number, email, grand_total_cents, created from orders where website_id = ${site.id} and status in (${OrderStatus.PAID}, ${OrderStatus.PARTIALLY_REFUNDED}) and fulfilment_status <> ${FulfilmentStatus.FULFILLED} order by created asc limit 5`,
    );
    const [waiting] = await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from orders where website_id = ${site.id} and status = ${OrderStatus.PAID}`,
    );
    const lowStock = await rows<{ id: string; item_id: string; title: string; sku: string; attributes: unknown; qty_in_stock: number }>(
      db,
      sql`select v.id, v.item_id, i.title, v.sku, v.attributes, v.qty_in_stock from product_variants v join items i on i.id = v.item_id
          where i.website_id = ${site.id} and v.unlimited = false and v.qty_in_stock <= ${LOW_STOCK_AT}
          order by v.qty_in_stock asc, i.title asc, v.ordering asc limit 10`,
    );
    const submissions = await rows<{ id: string; form_id: string; name: string; created_at: string | Date; data: unknown }>(
      db,
      sql`select s.id, s.form_id, f.name, s.created_at, s.data from form_submissions s join forms f on f.id = s.form_id
          where s.website_id = ${site.id} and s.spam = false order by s.created_at desc limit 5`,
    );
    const restock = await rows<{ id: string; email: string; title: string; attributes: unknown; created: string | Date }>(
      db,
      sql`select r.id, r.email, i.title, v.attributes, r.created from restock_sign_ups r join items i on i.id = r.product_id join product_variants v on v.id = r.variant_id
          where r.website_id = ${site.id} order by r.created desc limit 5`,
    );
    const [shipping] = await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from shipping_options where website_id = ${site.id} and enabled = true`,
    );
    const [products] = await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from items i join collections c on c.id = i.collection_id where i.website_id = ${site.id} and c.type = ${CollectionType.PRODUCTS} and i.record_type = ${RecordType.STORE_ITEM} and i.status = 'published'`,
    );
    const payments = app.checkout?.payments.defaultProvider;
    // Honest locally: ticks once Stripe keys are saved and the connection check passed for them (charges enabled).
    const paymentsReady = app.hasDecorator('stripe') ? await app.stripe.settings.checkPassed() : false;
    const iso = (d: string | Date) => new Date(d).toISOString();
    const variantName = (a: unknown) => Object.values(obj(a)).map(String).join(' / ');
    return {
      currency: site.currency,
      timeZone: site.timeZone,
      periods,
      toFulfil: {
        count: Number(waiting?.n ?? 0),
        orders: toFulfil.map((o) => ({
          id: o.id,
          orderNumber: Number(o.order_number),
          email: o.email,
          grandTotalCents: Number(o.grand_total_cents),
          created: iso(o.created),
        })),
      },
      lowStock: lowStock.map((v) => ({
        variantId: v.id,
        productId: v.item_id,
        title: v.title,
        variant: variantName(v.attributes),
        sku: v.sku,
        qtyInStock: Number(v.qty_in_stock),
      })),
      submissions: submissions.map((s) => ({ id: s.id, formId: s.form_id, formName: s.name, created: iso(s.created_at) })),
      restockSignUps: restock.map((r) => ({
        id: r.id,
        email: r.email,
        product: r.title,
        variant: variantName(r.attributes),
        created: iso(r.created),
      })),
      // quotaBytes 0: no quota (UPLOAD_QUOTA_MB=0).
      storage: { usedBytes: await storageUsed(db, site.id), quotaBytes: quotaBytes(app.config) },
      checklist: setupChecklist(app, {
        paymentsReady,
        testMode: !!payments?.testMode,
        shippingOptions: Number(shipping?.n ?? 0),
        publishedProducts: Number(products?.n ?? 0),
        siteAddress: site.settings.siteAddress,
      }),
    };
  });
}

export async function ownerHomeRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const { websites } = app.services;

  registerDashboard(app);

  /**
   * Customers: everyone who ordered, has a site-user account, subscribed to a mailing list or signed up for a
   * restock, one row per address (case-insensitive), with orders, spend (paid orders net of refunds) and where
   * they came from. `q` searches the address; at most 200 rows, most recent first.
   */
  app.get('/api/admin/customers', { preHandler: app.requireOwner(can('customers', 'read')) }, async (req, reply): Promise<CustomerList> => {
    noStore(reply);
    const q = parseInput(customerListQuery, req.query);
    const site = await websites.get();
    const list = await customerList(db, site.id, q.q, 200, site.locale);
    return {
      currency: site.currency,
      customers: list,
    };
  });

  /** What the shell's top bar shows: the site's title and the signed-in owner (any role). */
  app.get('/api/admin/shell', { preHandler: app.requireOwner(can('account', 'read')) }, async (req, reply) => {
    noStore(reply);
    const site = await websites.get();
    const o = req.owner!;
    const info: AdminShellInfo = {
      siteTitle: site.title,
      email: o.email,
      displayName: o.displayName,
      role: o.role,
      websiteId: o.websiteId,
      locale: site.locale,
      timeZone: site.timeZone,
    };
    return info;
  });

  // The time zones a save accepts are the server's (its ICU data, checked by isTimeZone), not the browser's: the form lists these.
  app.get('/api/admin/time-zones', { preHandler: app.requireOwner(can('settings', 'read')) }, async (_req, reply) => {
    reply.header('cache-control', 'private, max-age=3600');
    return { timeZones: typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'] };
  });

  app.get('/api/admin/site-settings', { preHandler: app.requireOwner(can('settings', 'read')) }, async (req, reply) => {
    noStore(reply);
    const [site] = await db.select().from(schema.websites).where(eq(schema.websites.id, req.owner!.websiteId)).limit(1);
    return settingsAnswer(site!);
  });

  app.put('/api/admin/site-settings', { preHandler: app.requireOwner(can('settings', 'write')) }, async (req, reply) => {
    noStore(reply);
    const b = parseInput(siteSettingsSchema, req.body);
    const owner = req.owner!;
    const saved = await db.transaction(async (tx) => {
      const row = await changeSettings(tx, owner.websiteId, owner.id, 'site.settings', (s, current) => {
        if (current.version !== b.version) throw new HttpError(409, STALE);
        s.siteTagLine = b.tagline;
        s.logoImageUrl = b.logoImageUrl;
        s.faviconUrl = b.faviconUrl;
        s.contactEmail = b.contactEmail;
        s.contactPhoneNumber = b.contactPhoneNumber;
        s.location = storedBusinessAddress(b.location, b.locale);
        s.businessHours = b.businessHours;
        s.socialAccounts = b.socialAccounts;
        s.commentsEnabled = b.commentsEnabled;
        return s;
      });
      const [updated] = await tx
        .update(schema.websites)
        .set({ title: b.title, timeZone: b.timeZone, locale: b.locale, currency: b.currency })
        .where(eq(schema.websites.id, row.id))
        .returning();
      return updated!;
    });
    websites.invalidate();
    return settingsAnswer(saved);
  });
}
