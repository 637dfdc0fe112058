/**
 * What a signed-in site user sees and changes on the account page (issue 27): their orders with status and
 * tracking, digital downloads, subscriptions (cancel), saved addresses, newsletter preferences and restock
 * sign-ups.
 *
 * Whose data is whose: an order is the user's when it was placed with the account's address (a confirmed
 * address: sign-in refuses an unconfirmed one) or from a cart the account held. Subscriptions follow their
 * order; mailing-list memberships and restock sign-ups follow the address. Every query and every change
 * names the user, so an id of another customer's row answers "not found", never that row.
 */
import { isCountryCode } from '../../core/countries.js';
import { addressFormat, formatAddress } from '../site-page/index.js';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.js';
import { newId } from '../../db/ids.js';
import { rows } from '../db-util.js';
import { HttpError, badRequest, conflict, notFound } from '../errors.js';
import { formatMoney } from '../../core/money.js';
import { ProductType, type BillingPeriodUnit } from '../../core/enums.js';
import { subscriptionPriceText } from '../../core/subscription.js';
import { siteUserMessages, type SiteUser } from './site-users.js';
import { parseInput } from './validate.js';
import {
  savedAddressIn,
  type AccountDashboard,
  type AccountSubscriptionStatus,
  type SavedAddress,
  type SavedAddressInput,
} from '../../core/api/accounts.js';
import { orderStatusLabel } from '../../core/orders.js';

/** At most this many saved addresses per account. */
export const MAX_SAVED_ADDRESSES = 10;

export const accountMessages = {
  ORDER_NOT_FOUND: 'No order of yours has that number.',
  SUBSCRIPTION_NOT_FOUND: 'No subscription of yours has that id.',
  SUBSCRIPTION_ALREADY_CANCELED: 'This subscription is already canceled.',
  ADDRESS_NOT_FOUND: 'No saved address of yours has that id.',
  TOO_MANY_ADDRESSES: `You can save up to ${MAX_SAVED_ADDRESSES} addresses. Remove one first.`,
  LIST_NOT_FOUND: 'That newsletter does not exist.',
  RESTOCK_NOT_FOUND: 'No restock sign-up of yours has that id.',
  NOTHING_TO_REORDER: 'Nothing from this order can be bought again.',
} as const;

/** What a successful change says (the no-JavaScript answer maps a code in the address to one of these). */
export const ACCOUNT_DONE = {
  'address-saved': 'Address saved.',
  'address-removed': 'Address removed.',
  'address-default': 'Default address changed.',
  'subscription-canceled': 'Subscription canceled.',
  'newsletters-saved': 'Newsletter preferences saved.',
  'restock-removed': 'Restock alert removed.',
} as const;
export type AccountDone = keyof typeof ACCOUNT_DONE;

/** The saved-address body (core/api/accounts.ts), checked against each country's format in the site's language. */
export const addressBody = (locale: string) =>
  savedAddressIn((country) => (isCountryCode(country) ? addressFormat(country, locale) : null));
export type AddressInput = SavedAddressInput;

const iso = (d: unknown) => (d ? new Date(d as string).toISOString() : '');
const num = (v: unknown) => Number(v ?? 0);

/** The orders of a user: the condition for `orders o`. */
const SUBSCRIPTION_STATUSES: ReadonlySet<string> = new Set<AccountSubscriptionStatus>(['active', 'past_due', 'canceled', 'ended']);

/**
 * The account's address, for rows found by email (guest orders, their subscriptions, list and restock
 * rows), once the address is proved; before that null, which equals nothing in SQL (issue 38: an account
 * made with somebody else's address must never see what that address bought).
 */
const provedEmail = (u: SiteUser): string | null => (u.confirmed ? u.email.toLowerCase() : null);

const ownsOrder = (u: SiteUser) => sql`(lower(o.email) = ${provedEmail(u)}
  or exists (select 1 from carts c where c.id = o.cart_id and c.site_user_id = ${u.id})
  or exists (select 1 from subscription_carts sc where sc.id = o.cart_id and sc.site_user_id = ${u.id}))`;

export interface OrderLinks {
  statusPath(orderId: string): string;
  downloadPath(orderId: string, index: number): string;
}

type Obj = Record<string, unknown>;

export class AccountData {
  constructor(
    private readonly db: Db,
    private readonly websiteId: string,
    private readonly currency: string,
    /** The site's locale: the language subdivision names are matched in. */
    private readonly locale = 'en',
  ) {}

  async dashboard(u: SiteUser, links: OrderLinks): Promise<AccountDashboard> {
    const orders = await this.orders(u, links);
    return {
      orders: orders.orders,
      downloads: orders.downloads,
      subscriptions: await this.subscriptions(u),
      addresses: await this.addresses(u),
      newsletters: await this.newsletters(u),
      restock: await this.restock(u),
    };
  }

  async orders(u: SiteUser, links: OrderLinks): Promise<Pick<AccountDashboard, 'orders' | 'downloads'>> {
    const r = await rows<Obj>(
      this.db,
      sql`select o.id, o.order_number, o.status, o.fulfilment_status, o.created, o.items, o.currency, o.grand_total_cents, o.cart_kind
          from orders o where o.website_id = ${this.websiteId} and o.status <> 'pending' and ${ownsOrder(u)}
          order by o.created desc, o.order_number desc limit 100`,
    );
    const ids = r.map((o) => String(o.id));
    const tracking = ids.length
      ? await rows<Obj>(
          this.db,
          sql`select order_id, carrier, tracking_number, tracking_url from order_fulfilments where order_id in ${sql`(${sql.join(
            ids.map((i) => sql`${i}`),
            sql`, `,
          )})`} and tracking_number <> '' order by created, id`,
        )
      : [];
    const downloads: AccountDashboard['downloads'] = [];
    const orders = r.map((o) => {
      const items = (typeof o.items === 'string' ? JSON.parse(o.items) : o.items) as Obj[];
      const id = String(o.id);
      const orderNumber = num(o.order_number);
      if (o.status !== 'refunded') {
        items.forEach((i, idx) => {
          if (num(i.productType) === ProductType.DIGITAL)
            downloads.push({ orderNumber, productName: String(i.productName ?? ''), url: links.downloadPath(id, idx) });
        });
      }
      return {
        id,
        orderNumber,
        created: iso(o.created),
        status: String(o.status),
        statusLabel: orderStatusLabel(String(o.status), String(o.fulfilment_status)),
        total: formatMoney(num(o.grand_total_cents), String(o.currency)),
        items: items.map((i) => ({ productName: String(i.productName ?? ''), quantity: num(i.quantity) })),
        tracking: tracking
          .filter((t) => t.order_id === id)
          .map((t) => ({
            carrier: String(t.carrier),
            number: String(t.tracking_number),
            url: /^https:\/\//.test(String(t.tracking_url)) ? String(t.tracking_url) : '',
          })),
        statusUrl: links.statusPath(id),
        canReorder:
          o.cart_kind === 'cart' &&
          items.some((i) => num(i.productType) !== ProductType.GIFT_CARD && typeof i.itemId === 'string' && typeof i.sku === 'string'),
      };
    });
    return { orders, downloads };
  }

  /** The lines of one of the user's orders that can go back into a cart. */
  async reorderLines(u: SiteUser, orderId: string): Promise<Array<{ itemId: string; sku: string; quantity: number }>> {
    const r = await rows<Obj>(
      this.db,
      sql`select o.items, o.cart_kind from orders o where o.id = ${orderId} and o.website_id = ${this.websiteId} and o.status <> 'pending' and ${ownsOrder(u)}`,
    );
    if (!r[0]) throw notFound(accountMessages.ORDER_NOT_FOUND);
    const items = (typeof r[0].items === 'string' ? JSON.parse(r[0].items) : r[0].items) as Obj[];
    const lines =
      r[0].cart_kind === 'cart'
        ? items.filter((i) => num(i.productType) !== ProductType.GIFT_CARD && typeof i.itemId === 'string' && typeof i.sku === 'string')
        : [];
    if (lines.length === 0) throw badRequest(accountMessages.NOTHING_TO_REORDER);
    return lines.map((i) => ({ itemId: String(i.itemId), sku: String(i.sku), quantity: Math.max(1, num(i.quantity)) }));
  }

  async subscriptions(u: SiteUser): Promise<AccountDashboard['subscriptions']> {
    const r = await rows<Obj>(
      this.db,
      sql`select s.id, s.status, s.price_cents, s.billing_period, s.billing_period_value, s.num_billing_cycles, s.created, o.order_number, o.currency, i.title
          from subscriptions s join orders o on o.id = s.order_id left join items i on i.id = s.item_id
          where s.website_id = ${this.websiteId} and ${ownsOrder(u)} order by s.created desc, s.id limit 100`,
    );
    return r.map((s) => ({
      id: String(s.id),
      productName: String(s.title ?? ''),
      orderNumber: num(s.order_number),
      // An unknown unit reads 'Unavailable' (the core rule checks it).
      priceText: subscriptionPriceText(formatMoney(num(s.price_cents), String(s.currency)), {
        billingPeriod: { value: num(s.billing_period_value), unit: String(s.billing_period) as BillingPeriodUnit },
        numBillingCycles: num(s.num_billing_cycles),
      }),
      // Past due (a renewal Stripe could not take yet) is still running, and can be cancelled; ended is a
      // fixed number of payments all taken.
      status: SUBSCRIPTION_STATUSES.has(String(s.status)) ? (String(s.status) as AccountSubscriptionStatus) : 'canceled',
      started: iso(s.created),
    }));
  }

  /**
   * Cancels one of the user's subscriptions through `cancel` (CheckoutService.cancelSubscription: at the provider
   * that bills it, Stripe Billing, first; then here), which answers false when it was no longer active.
   */
  async cancelSubscription(u: SiteUser, id: string, cancel: (websiteId: string, id: string) => Promise<boolean>): Promise<void> {
    const r = await rows<Obj>(
      this.db,
      sql`select s.id, s.status from subscriptions s join orders o on o.id = s.order_id where s.id = ${id} and s.website_id = ${this.websiteId} and ${ownsOrder(u)}`,
    );
    if (!r[0]) throw notFound(accountMessages.SUBSCRIPTION_NOT_FOUND);
    if (!(await cancel(this.websiteId, id))) throw conflict(accountMessages.SUBSCRIPTION_ALREADY_CANCELED);
  }

  async addresses(u: SiteUser): Promise<SavedAddress[]> {
    const r = await rows<Obj>(
      this.db,
      sql`select * from site_user_addresses where site_user_id = ${u.id} order by is_default desc, created, id`,
    );
    return r
      .map((a) => ({
        id: String(a.id),
        name: String(a.name),
        line1: String(a.line1),
        line2: String(a.line2),
        city: String(a.city),
        region: String(a.region),
        postalCode: String(a.postal_code),
        country: String(a.country),
        isDefault: a.is_default === true,
        lines: [] as string[],
      }))
      .map((a) => ({ ...a, lines: formatAddress(a, this.locale) }));
  }

  /** The address checkout starts with: the default one. */
  async checkoutAddress(u: SiteUser): Promise<SavedAddress | null> {
    const all = await this.addresses(u);
    return all.find((a) => a.isDefault) ?? all[0] ?? null;
  }

  async addAddress(u: SiteUser, input: unknown): Promise<SavedAddress> {
    const a = parseInput(addressBody(this.locale), input);
    const id = newId();
    await this.db.transaction(async (tx) => {
      // One writer per account at a time, so the limit and the one default hold under concurrent posts.
      await tx.execute(sql`select id from site_users where id = ${u.id} for update`);
      const count = await rows<{ n: number | string }>(tx, sql`select count(*) as n from site_user_addresses where site_user_id = ${u.id}`);
      const n = num(count[0]?.n);
      if (n >= MAX_SAVED_ADDRESSES) throw badRequest(accountMessages.TOO_MANY_ADDRESSES);
      const isDefault = a.isDefault || n === 0;
      if (isDefault) await tx.execute(sql`update site_user_addresses set is_default = false where site_user_id = ${u.id}`);
      await tx.execute(sql`insert into site_user_addresses (id, site_user_id, website_id, name, line1, line2, city, region, postal_code, country, is_default)
        values (${id}, ${u.id}, ${this.websiteId}, ${a.name}, ${a.line1}, ${a.line2}, ${a.city}, ${a.region}, ${a.postalCode}, ${a.country}, ${isDefault})`);
    });
    return (await this.addresses(u)).find((x) => x.id === id)!;
  }

  async removeAddress(u: SiteUser, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const r = await rows<Obj>(tx, sql`delete from site_user_addresses where id = ${id} and site_user_id = ${u.id} returning is_default`);
      if (!r[0]) throw notFound(accountMessages.ADDRESS_NOT_FOUND);
      // The oldest remaining address becomes the default when the default goes.
      if (r[0].is_default === true) {
        await tx.execute(
          sql`update site_user_addresses set is_default = true where id = (select id from site_user_addresses where site_user_id = ${u.id} order by created, id limit 1)`,
        );
      }
    });
  }

  async setDefaultAddress(u: SiteUser, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const r = await rows<Obj>(tx, sql`select id from site_user_addresses where id = ${id} and site_user_id = ${u.id} for update`);
      if (!r[0]) throw notFound(accountMessages.ADDRESS_NOT_FOUND);
      await tx.execute(sql`update site_user_addresses set is_default = (id = ${id}) where site_user_id = ${u.id}`);
    });
  }

  /** Every mailing list of the site, with whether the account's address is on it. */
  async newsletters(u: SiteUser): Promise<AccountDashboard['newsletters']> {
    const r = await rows<Obj>(
      this.db,
      sql`select l.id, l.name, m.status from mailing_lists l left join mailing_list_members m on m.list_id = l.id and m.email_key = ${provedEmail(u)}
          where l.website_id = ${this.websiteId} order by l.is_default desc, l.created, l.id`,
    );
    return r.map((l) => ({ listId: String(l.id), name: String(l.name), subscribed: l.status === 'subscribed' || l.status === 'pending' }));
  }

  /**
   * Sets which lists the account's address is on. The address is confirmed (the account's sign-up link),
   * so joining needs no second confirmation; leaving marks the member unsubscribed, as the email link does.
   */
  async setNewsletters(u: SiteUser, listIds: string[]): Promise<void> {
    const lists = await rows<Obj>(this.db, sql`select id from mailing_lists where website_id = ${this.websiteId}`);
    const known = new Set(lists.map((l) => String(l.id)));
    for (const id of listIds) if (!known.has(id)) throw badRequest(accountMessages.LIST_NOT_FOUND);
    const wanted = new Set(listIds);
    const key = provedEmail(u);
    if (!key) throw new HttpError(403, siteUserMessages.NOT_CONFIRMED);
    await this.db.transaction(async (tx) => {
      for (const id of [...known].sort()) {
        if (wanted.has(id)) {
          await tx.execute(sql`insert into mailing_list_members (id, list_id, website_id, email, email_key, status, source, confirmed_at)
            values (${newId()}, ${id}, ${this.websiteId}, ${u.email}, ${key}, 'subscribed', 'account', now())
            on conflict (list_id, email_key) do update set status = 'subscribed', confirmed_at = coalesce(mailing_list_members.confirmed_at, now()), unsubscribed_at = null
            where mailing_list_members.status <> 'subscribed'`);
        } else {
          await tx.execute(
            sql`update mailing_list_members set status = 'unsubscribed', unsubscribed_at = now() where list_id = ${id} and email_key = ${key} and status <> 'unsubscribed'`,
          );
        }
      }
    });
  }

  async restock(u: SiteUser): Promise<AccountDashboard['restock']> {
    const r = await rows<Obj>(
      this.db,
      sql`select r.id, r.status, r.created, i.title, v.attributes from restock_sign_ups r join items i on i.id = r.product_id join product_variants v on v.id = r.variant_id
          where r.website_id = ${this.websiteId} and r.email_key = ${provedEmail(u)} and r.status = 'pending' order by r.created desc limit 100`,
    );
    return r.map((x) => {
      const attrs = (typeof x.attributes === 'string' ? JSON.parse(x.attributes) : x.attributes) as Obj | null;
      return {
        id: String(x.id),
        product: String(x.title),
        variant: Object.values(attrs ?? {})
          .map(String)
          .join(' / '),
        since: iso(x.created),
      };
    });
  }

  async removeRestock(u: SiteUser, id: string): Promise<void> {
    const r = await rows<Obj>(
      this.db,
      sql`update restock_sign_ups set status = 'unsubscribed', unsubscribed_at = now() where id = ${id} and website_id = ${this.websiteId} and email_key = ${provedEmail(u)} and status = 'pending' returning id`,
    );
    if (!r[0]) throw notFound(accountMessages.RESTOCK_NOT_FOUND);
  }
}

export async function accountData(app: FastifyInstance): Promise<AccountData> {
  const site = await app.services.websites.get();
  return new AccountData(app.database.db, site.id, site.currency, site.locale);
}

/** The checkout's signed links for a user's orders (the signing key is loaded first). */
export async function orderLinks(app: FastifyInstance): Promise<OrderLinks> {
  const checkout = app.checkout.service;
  await checkout.loadSecret();
  return { statusPath: (id) => checkout.statusPath(id), downloadPath: (id, i) => checkout.downloadPath(id, i) };
}

/**
 * The checkout state a signed-in customer starts from: what they already entered wins; an empty email is the
 * account's, an empty address the account's default saved address.
 */
export async function prefillFromAccount<S extends { email?: string; shippingAddress?: Record<string, string | undefined> | null }>(
  app: FastifyInstance,
  u: SiteUser | null,
  state: S,
): Promise<S> {
  if (!u) return state;
  const out = { ...state };
  if (!out.email) out.email = u.email;
  const entered = out.shippingAddress && Object.values(out.shippingAddress).some((v) => typeof v === 'string' && v.trim() !== '');
  if (!entered) {
    const a = await (await accountData(app)).checkoutAddress(u);
    if (a)
      out.shippingAddress = {
        name: a.name,
        line1: a.line1,
        line2: a.line2,
        city: a.city,
        region: a.region,
        postalCode: a.postalCode,
        country: a.country,
      };
  }
  return out;
}
