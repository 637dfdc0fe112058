/**
 * Donations: an amount in minor units of the site currency, charged through the checkout's payment
 * provider (the test-mode provider unless another is the default), then recorded. The idempotency key
 * of the donation form makes a double submit one charge and one row.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { newId } from '../../db/ids.js';
import { rows } from '../db-util.js';
import { HttpError } from '../errors.js';
import type { PaymentMethodInput, PaymentProviders } from '../payments/provider.js';
import { donationPayments } from '../../core/messages.js';

type Obj = Record<string, unknown>;

export interface DonationRow {
  id: string;
  amountCents: number;
  currency: string;
  donorName: string;
  email: string;
  message: string;
  testMode: boolean;
  cardBrand: string;
  cardLast4: string;
  created: number;
}

function donationFrom(r: Obj): DonationRow {
  return {
    id: String(r.id),
    amountCents: Number(r.amount_cents),
    currency: String(r.currency),
    donorName: String(r.donor_name),
    email: String(r.email),
    message: String(r.message ?? ''),
    testMode: r.test_mode === true,
    cardBrand: String(r.card_brand ?? ''),
    cardLast4: String(r.card_last4 ?? ''),
    created: new Date(r.created as string).getTime(),
  };
}

export interface DonateInput {
  websiteId: string;
  siteTitle: string;
  currency: string;
  amountCents: number;
  donorName: string;
  email: string;
  message: string;
  payment: PaymentMethodInput;
  key: string;
  now?: number;
}

export class DonationService {
  constructor(
    private readonly database: Database,
    private readonly payments: () => PaymentProviders,
  ) {}

  async donate(input: DonateInput): Promise<{ donation: DonationRow; duplicate: boolean }> {
    const prior = await this.byKey(input.websiteId, input.key);
    if (prior) return { donation: prior, duplicate: true };
    const provider = this.payments().forMethod(input.payment);
    if (!provider) throw new HttpError(402, 'That payment method is not available.');
    const r = await provider.charge({
      amountCents: input.amountCents,
      currency: input.currency,
      method: input.payment,
      idempotencyKey: `donation:${input.key}`,
      description: `Donation to ${input.siteTitle}`,
      now: input.now ?? Date.now(),
    });
    if (r.status === 'declined') throw new HttpError(402, r.message, r.errors);
    if (r.status === 'requires_action') throw new HttpError(402, donationPayments.AUTHENTICATION_UNSUPPORTED);
    try {
      const made = await rows<Obj>(
        this.database.db,
        sql`insert into donations (id, website_id, idempotency_key, amount_cents, currency, donor_name, email, message, test_mode, provider, payment_id, card_brand, card_last4)
            values (${newId()}, ${input.websiteId}, ${input.key}, ${input.amountCents}, ${input.currency}, ${input.donorName}, ${input.email}, ${input.message},
                    ${provider.testMode}, ${provider.name}, ${r.paymentId}, ${r.brand}, ${r.last4})
            on conflict (website_id, idempotency_key) do nothing returning *`,
      );
      if (made[0]) return { donation: donationFrom(made[0]), duplicate: false };
      // Another submit of the same form won the insert; it holds the same payment.
      return { donation: (await this.byKey(input.websiteId, input.key))!, duplicate: true };
    } catch (e) {
      // Nothing recorded: give the money back so no donor is charged for a donation we do not know of.
      await provider.refund(r.paymentId).catch(() => undefined);
      throw e;
    }
  }

  async byKey(websiteId: string, key: string): Promise<DonationRow | null> {
    const r = await rows<Obj>(this.database.db, sql`select * from donations where website_id = ${websiteId} and idempotency_key = ${key}`);
    return r[0] ? donationFrom(r[0]) : null;
  }

  async get(id: string): Promise<DonationRow | null> {
    if (!/^[0-9a-f]{24}$/.test(id)) return null;
    const r = await rows<Obj>(this.database.db, sql`select * from donations where id = ${id}`);
    return r[0] ? donationFrom(r[0]) : null;
  }

  async list(websiteId: string, opts: { limit: number; before?: number }): Promise<{ donations: DonationRow[]; count: number; totals: Array<{ currency: string; amountCents: number }> }> {
    const [list, agg] = await Promise.all([
      rows<Obj>(
        this.database.db,
        sql`select * from donations where website_id = ${websiteId} ${opts.before ? sql`and created < ${new Date(opts.before)}` : sql``} order by created desc, id desc limit ${opts.limit}`,
      ),
      rows<{ currency: string; n: number; s: string }>(this.database.db, sql`select currency, count(*)::int as n, sum(amount_cents)::text as s from donations where website_id = ${websiteId} group by currency order by currency`),
    ]);
    return {
      donations: list.map(donationFrom),
      count: agg.reduce((a, x) => a + Number(x.n), 0),
      totals: agg.map((x) => ({ currency: x.currency, amountCents: Number(x.s) })),
    };
  }
}
