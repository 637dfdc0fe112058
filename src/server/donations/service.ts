/**
 * Donations: an amount in minor units of the site currency, charged through the checkout's payment
 * provider (the test-mode provider unless another is the default), then recorded. The idempotency key
 * of the donation form makes a double submit one charge and one row. As in checkout, a payment attempt
 * (payment_attempts, input.kind 'donation') is recorded before the charge and completed in the donation's
 * transaction, so the payment reconciler records or refunds a donation a crash left charged.
 */
import type { DonationRow } from '../../core/api/reviews.js';
import { sql } from 'drizzle-orm';
import type { Database, Db, Tx } from '../../db/index.js';
import { newId } from '../../db/ids.js';
import { rows } from '../db-util.js';
import { HttpError } from '../errors.js';
import type { PaymentMethodInput, PaymentProvider, PaymentProviders, ProviderPayment } from '../payments/index.js';
import { crashPoint } from '../crash-points.js';
import { donationPayments } from '../../core/messages.js';

type Obj = Record<string, unknown>;

export type { DonationRow };

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

/** What a donation's payment attempt keeps to record the donation again (the reconciler): DonateInput without the payment method. */
type StoredDonation = { kind: 'donation' } & Omit<DonateInput, 'payment'>;

function stored(input: DonateInput): StoredDonation {
  const { payment: _payment, ...rest } = input;
  return { kind: 'donation', ...rest };
}

/** A donation's key at the provider and in payment_attempts (apart from checkout's keys). */
const attemptKey = (key: string) => `donation:${key}`;

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
    // The payment attempt first, so a crash after the charge is found and settled by the payment reconciler.
    const attempt = await this.openAttempt(input, provider.name);
    if (attempt === 'completed') return { donation: (await this.byKey(input.websiteId, input.key))!, duplicate: true };
    const r = await provider.charge({
      amountCents: input.amountCents,
      currency: input.currency,
      method: input.payment,
      idempotencyKey: attemptKey(input.key),
      description: `Donation to ${input.siteTitle}`,
      now: input.now ?? Date.now(),
    });
    if (r.status !== 'succeeded') {
      await this.closeAttempt(this.database.db, attempt, 'voided', r.status === 'declined' ? 'declined' : 'requires_action');
      if (r.status === 'declined') throw new HttpError(402, r.message, r.errors);
      throw new HttpError(402, donationPayments.AUTHENTICATION_UNSUPPORTED);
    }
    crashPoint('after-donation-charge');
    const marked = await rows<{ id: string }>(
      this.database.db,
      sql`update payment_attempts set state = 'charged', payment_id = ${r.paymentId}, updated = now() where id = ${attempt} and state in ('created', 'charged') returning id`,
    );
    if (marked.length === 0) {
      // Closed while the charge was under way: by a twin submit that recorded the donation (one payment for
      // both), or voided by the reconciler, which saw no payment then; the money is given back in that case only.
      const made = await this.byKey(input.websiteId, input.key);
      if (made) return { donation: made, duplicate: true };
      await provider.refund(r.paymentId);
      throw new HttpError(409, donationPayments.ATTEMPT_CLOSED);
    }
    const payment = { provider: provider.name, testMode: provider.testMode, paymentId: r.paymentId, brand: r.brand, last4: r.last4 };
    try {
      const made = await this.database.db.transaction((tx) => this.record(tx, attempt, stored(input), payment));
      if (made) return { donation: made, duplicate: false };
      // Another submit of the same form recorded it; it holds the same payment.
      return { donation: (await this.byKey(input.websiteId, input.key))!, duplicate: true };
    } catch (e) {
      // Nothing recorded: give the money back so no donor is charged for a donation we do not know of.
      if (
        await this.closeAttempt(
          this.database.db,
          attempt,
          'voided',
          (e instanceof Error ? e.message : 'not recorded').slice(0, 200),
          r.paymentId,
        )
      ) {
        await provider.refund(r.paymentId).catch(() => undefined);
      }
      throw e;
    }
  }

  /**
   * The first half of a donation paid on the provider's own page (Stripe Checkout): the attempt recorded before
   * the provider is called, under the same key as `donate`. The donation is recorded when the provider says the
   * payment succeeded (the return page or the webhook, through CheckoutService.settlePayment and settleAttempt).
   */
  async prepareHosted(
    input: Omit<DonateInput, 'payment'>,
    providerName: string,
  ): Promise<{ attemptId: string; attemptKey: string } | { donation: DonationRow }> {
    const prior = await this.byKey(input.websiteId, input.key);
    if (prior) return { donation: prior };
    const full = { ...input, payment: { type: 'existing', paymentId: '' } } as DonateInput;
    const attempt = await this.openAttempt(full, providerName);
    if (attempt === 'completed') return { donation: (await this.byKey(input.websiteId, input.key))! };
    return { attemptId: attempt, attemptKey: attemptKey(input.key) };
  }

  /** The donation an attempt recorded (after the provider's page), if any. */
  async byAttempt(attemptId: string): Promise<DonationRow | null> {
    const r = await rows<Obj>(
      this.database.db,
      sql`select d.* from donations d join payment_attempts a on a.website_id = d.website_id and a.idempotency_key = 'donation:' || d.idempotency_key where a.id = ${attemptId}`,
    );
    return r[0] ? donationFrom(r[0]) : null;
  }

  /**
   * The payment reconciler's settlement of an open donation attempt whose payment the provider holds
   * (CheckoutService.reconcile looks it up and voids the attempts that hold nothing): the donation is
   * recorded now, once, and the attempt completed with it; refunded when it cannot be recorded.
   */
  async settleAttempt(
    attempt: { id: string; input: unknown; amountCents: number },
    provider: PaymentProvider,
    paid: ProviderPayment,
  ): Promise<'completed' | 'voided' | null> {
    const input = attempt.input as StoredDonation;
    const payment = {
      provider: provider.name,
      testMode: provider.testMode,
      paymentId: paid.paymentId,
      brand: paid.brand,
      last4: paid.last4,
    };
    try {
      if (paid.amountCents !== attempt.amountCents) throw new Error('the payment differs from the donation');
      // null: a submit recorded it first (its transaction completed the attempt).
      return (await this.database.db.transaction((tx) => this.record(tx, attempt.id, input, payment))) ? 'completed' : null;
    } catch (e) {
      if (
        !(await this.closeAttempt(
          this.database.db,
          attempt.id,
          'voided',
          `reconciler: ${e instanceof Error ? e.message : 'not recorded'}`.slice(0, 200),
          paid.paymentId,
        ))
      )
        return null;
      await provider.refund(paid.paymentId);
      return 'voided';
    }
  }

  /** Records (or re-opens, for a retry of the same form) the attempt before any call to the provider. */
  private async openAttempt(input: DonateInput, providerName: string): Promise<string | 'completed'> {
    const r = await rows<{ id: string; state: string }>(
      this.database.db,
      sql`insert into payment_attempts (id, website_id, idempotency_key, state, provider, amount_cents, currency, input)
        values (${newId()}, ${input.websiteId}, ${attemptKey(input.key)}, 'created', ${providerName}, ${input.amountCents}, ${input.currency}, ${JSON.stringify(stored(input))}::jsonb)
        on conflict (website_id, idempotency_key) do update set
          state = case when payment_attempts.state in ('completed', 'charged') then payment_attempts.state else 'created' end,
          provider = case when payment_attempts.state in ('completed', 'charged') then payment_attempts.provider else excluded.provider end,
          amount_cents = case when payment_attempts.state in ('completed', 'charged') then payment_attempts.amount_cents else excluded.amount_cents end,
          input = case when payment_attempts.state in ('completed', 'charged') then payment_attempts.input else excluded.input end,
          note = null, updated = now()
        returning id, state`,
    );
    return r[0]!.state === 'completed' ? 'completed' : r[0]!.id;
  }

  /** Moves an open attempt to a final state; false when it was no longer open (another process closed it). */
  private async closeAttempt(
    db: Db | Tx,
    id: string,
    to: 'voided' | 'completed',
    note: string | null,
    paymentId: string | null = null,
  ): Promise<boolean> {
    const r = await rows<{ id: string }>(
      db,
      sql`update payment_attempts set state = ${to}, note = ${note}, payment_id = coalesce(${paymentId}, payment_id), updated = now()
        where id = ${id} and state in ('created', 'charged') returning id`,
    );
    return r.length === 1;
  }

  /**
   * The donation row and the attempt's completion in one transaction (the attempt row stays locked to the
   * commit, so a submit and the reconciler never both record it). Null when it was already recorded.
   */
  private async record(
    tx: Tx,
    attemptId: string,
    input: StoredDonation,
    p: { provider: string; testMode: boolean; paymentId: string; brand: string; last4: string },
  ): Promise<DonationRow | null> {
    const a = await rows<{ state: string }>(tx, sql`select state from payment_attempts where id = ${attemptId} for update`);
    if (a[0]?.state === 'completed') return null;
    if (!(await this.closeAttempt(tx, attemptId, 'completed', null, p.paymentId)))
      throw new HttpError(409, donationPayments.ATTEMPT_CLOSED);
    const made = await rows<Obj>(
      tx,
      sql`insert into donations (id, website_id, idempotency_key, amount_cents, currency, donor_name, email, message, test_mode, provider, payment_id, card_brand, card_last4)
          values (${newId()}, ${input.websiteId}, ${input.key}, ${input.amountCents}, ${input.currency}, ${input.donorName}, ${input.email}, ${input.message},
                  ${p.testMode}, ${p.provider}, ${p.paymentId}, ${p.brand}, ${p.last4})
          on conflict (website_id, idempotency_key) do nothing returning *`,
    );
    return made[0] ? donationFrom(made[0]) : null;
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

  async list(
    websiteId: string,
    opts: { limit: number; before?: number },
  ): Promise<{ donations: DonationRow[]; count: number; totals: Array<{ currency: string; amountCents: number }> }> {
    const [list, agg] = await Promise.all([
      rows<Obj>(
        this.database.db,
        sql`select * from donations where website_id = ${websiteId} ${opts.before ? sql`and created < ${new Date(opts.before)}` : sql``} order by created desc, id desc limit ${opts.limit}`,
      ),
      rows<{ currency: string; n: number; s: string }>(
        this.database.db,
        sql`select currency, count(*)::int as n, sum(amount_cents)::text as s from donations where website_id = ${websiteId} group by currency order by currency`,
      ),
    ]);
    return {
      donations: list.map(donationFrom),
      count: agg.reduce((a, x) => a + Number(x.n), 0),
      totals: agg.map((x) => ({ currency: x.currency, amountCents: Number(x.s) })),
    };
  }
}
