/**
 * The test-mode payment provider: behaves like a real card processor in its test mode, with its records
 * kept in the test_payments table (a stand-in for the provider's servers, written on its own connection,
 * never inside the shop's transaction). Test cards:
 *   4242 4242 4242 4242  succeeds
 *   4000 0000 0000 0002  is declined ('Your card was declined.')
 *   4000 0000 0000 9995  is declined for insufficient funds
 *   4000 0027 6000 3184  needs a second authentication step (authenticate(), then charge it again)
 * Any other valid number is declined, as in a real provider's test mode. Only brand and last 4 are kept.
 */
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { rows } from '../db-util.js';
import { cardBrand, cardDigits, cardErrors } from '../../core/checkout.js';
import type { ChargeRequest, ChargeResult, PaymentProvider, ProviderPayment } from './provider.js';

export const TEST_CARDS = {
  SUCCESS: '4242424242424242',
  DECLINE: '4000000000000002',
  INSUFFICIENT_FUNDS: '4000000000009995',
  AUTHENTICATE: '4000002760003184',
} as const;

export const declineMessages = {
  DECLINED: 'Your card was declined.',
  INSUFFICIENT_FUNDS: 'Your card has insufficient funds.',
  NON_TEST_CARD: 'Your card was declined. Your request was in test mode, but used a non test card.',
  AUTHENTICATION_FAILED: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
  UNKNOWN_PAYMENT: 'That payment could not be found. Please try again.',
  AMOUNT_CHANGED: 'The order total changed. Please review your order and pay again.',
} as const;

interface PaymentRow {
  id: string;
  amount_cents: number | string;
  currency: string;
  status: string;
  brand: string;
  last4: string;
  refunded_cents: number | string;
}

export class TestPaymentProvider implements PaymentProvider {
  readonly name = 'test';
  readonly testMode = true;

  constructor(private readonly database: Database) {}

  private async find(id: string): Promise<PaymentRow | null> {
    const r = await rows<PaymentRow>(this.database.db, sql`select * from test_payments where id = ${id}`);
    return r[0] ?? null;
  }

  /** One payment per idempotency key: a retry of the same attempt answers the same payment. */
  private idFor(key: string): string {
    return 'tp_' + createHash('sha256').update(key).digest('hex').slice(0, 24);
  }

  private result(p: PaymentRow, amountCents: number): ChargeResult {
    if (Number(p.amount_cents) !== amountCents) return { status: 'declined', message: declineMessages.AMOUNT_CHANGED };
    switch (p.status) {
      case 'succeeded':
        return { status: 'succeeded', paymentId: p.id, brand: p.brand, last4: p.last4 };
      case 'requires_action':
        return { status: 'requires_action', paymentId: p.id, brand: p.brand, last4: p.last4 };
      case 'declined_funds':
        return { status: 'declined', message: declineMessages.INSUFFICIENT_FUNDS };
      case 'declined_live':
        return { status: 'declined', message: declineMessages.NON_TEST_CARD };
      case 'failed':
        return { status: 'declined', message: declineMessages.AUTHENTICATION_FAILED };
      default:
        return { status: 'declined', message: declineMessages.DECLINED };
    }
  }

  async charge(req: ChargeRequest): Promise<ChargeResult> {
    const m = req.method;
    if (m.type === 'existing') {
      const p = await this.find(m.paymentId);
      if (!p) return { status: 'declined', message: declineMessages.UNKNOWN_PAYMENT };
      if (p.status === 'authenticated') {
        await this.database.db.execute(sql`update test_payments set status = 'succeeded' where id = ${p.id} and status = 'authenticated'`);
        p.status = 'succeeded';
      }
      return this.result(p, req.amountCents);
    }
    if (m.type !== 'card') return { status: 'declined', message: declineMessages.DECLINED };
    const errors = cardErrors({ number: m.number, expiry: m.expiry, cvc: m.cvc }, req.now);
    if (Object.keys(errors).length > 0) return { status: 'declined', message: Object.values(errors)[0]!, errors };
    const digits = cardDigits(m.number);
    const status =
      digits === TEST_CARDS.SUCCESS
        ? 'succeeded'
        : digits === TEST_CARDS.AUTHENTICATE
          ? 'requires_action'
          : digits === TEST_CARDS.DECLINE
            ? 'declined'
            : digits === TEST_CARDS.INSUFFICIENT_FUNDS
              ? 'declined_funds'
              : 'declined_live';
    const id = this.idFor(req.idempotencyKey);
    await this.database.db.execute(sql`insert into test_payments (id, amount_cents, currency, status, brand, last4)
      values (${id}, ${req.amountCents}, ${req.currency}, ${status}, ${cardBrand(digits)}, ${digits.slice(-4)}) on conflict (id) do nothing`);
    const p = await this.find(id);
    return p ? this.result(p, req.amountCents) : { status: 'declined', message: declineMessages.DECLINED };
  }

  /** The second authentication step (in a real provider, the bank's page): passes or fails a payment. */
  async authenticate(paymentId: string, pass: boolean): Promise<boolean> {
    const r = await rows<{ id: string }>(
      this.database.db,
      sql`update test_payments set status = ${pass ? 'authenticated' : 'failed'} where id = ${paymentId} and status = 'requires_action' returning id`,
    );
    return r.length === 1;
  }

  /** The status of a payment as the provider keeps it. */
  async status(paymentId: string): Promise<{ status: string; amountCents: number; refundedCents: number } | null> {
    const p = await this.find(paymentId);
    return p ? { status: p.status, amountCents: Number(p.amount_cents), refundedCents: Number(p.refunded_cents) } : null;
  }

  async lookup(idempotencyKey: string): Promise<ProviderPayment | null> {
    const p = await this.find(this.idFor(idempotencyKey));
    return p ? providerPayment(p) : null;
  }

  async refund(paymentId: string, amountCents?: number): Promise<{ refundedCents: number }> {
    return refundTestPayment(this.database, sql`id = ${paymentId}`, amountCents);
  }
}

/**
 * Refunds a test_payments row (the whole rest when no amount is given, never more than was paid) and
 * answers what has been refunded in all; `where` picks the row.
 */
export async function refundTestPayment(database: Database, where: SQL, amountCents?: number): Promise<{ refundedCents: number }> {
  const r = await rows<{ refunded_cents: string | number }>(
    database.db,
    sql`update test_payments set refunded_cents = least(amount_cents, refunded_cents + coalesce(${amountCents ?? null}::bigint, amount_cents - refunded_cents)),
        status = case when status = 'succeeded' then 'refunded' else status end
      where ${where} returning refunded_cents`,
  );
  return { refundedCents: Number(r[0]?.refunded_cents ?? 0) };
}

/** A test_payments row as the provider interface reports it. */
export function providerPayment(p: {
  id: string;
  amount_cents: number | string;
  status: string;
  brand: string;
  last4: string;
  refunded_cents?: number | string;
}): ProviderPayment {
  const status = p.status === 'succeeded' || p.status === 'refunded' || p.status === 'requires_action' ? p.status : 'failed';
  return {
    paymentId: p.id,
    status,
    amountCents: Number(p.amount_cents),
    refundedCents: Number(p.refunded_cents ?? 0),
    brand: p.brand,
    last4: p.last4,
  };
}
