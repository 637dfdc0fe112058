/**
 * The instalment (buy now, pay later) provider as a payment method of the provider interface, in test mode
 * by default: a stand-in for the provider's servers that keeps its payments in the test_payments table, as
 * the card test provider does. The checkout page pays with `{ type: 'token', provider: 'instalments', token }`,
 * the token being what the provider's browser flow hands back. Test tokens:
 *   instalments_test_approved   the plan is approved (the payment succeeds)
 *   instalments_test_declined   the provider declines the shopper
 * Any other token is declined, as in the provider's test mode. The provider also declines an order total
 * outside the owner's limits, or when the owner has not turned instalments on for the currency.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { rows } from '../db-util.js';
import { isInstalmentEligiblePrice, instalmentBrand, instalmentLocale, type InstalmentContext } from '../../core/instalments.js';
import type { ChargeRequest, ChargeResult, PaymentProvider, ProviderPayment } from './provider.js';
import { providerPayment, refundTestPayment } from './test-provider.js';

export const INSTALMENTS_PROVIDER = 'instalments';

export const INSTALMENT_TEST_TOKENS = {
  APPROVED: 'instalments_test_approved',
  DECLINED: 'instalments_test_declined',
} as const;

export const instalmentDeclineMessages = {
  DECLINED: 'The instalment provider declined this payment. Please choose a different payment method.',
  NOT_AVAILABLE: 'Instalment payments are not available for this order total. Please choose a different payment method.',
  UNKNOWN_PAYMENT: 'That payment could not be found. Please try again.',
  AMOUNT_CHANGED: 'The order total changed. Please review your order and pay again.',
} as const;

interface PaymentRow {
  id: string;
  amount_cents: number | string;
  status: string;
  brand: string;
  last4: string;
  refunded_cents?: number | string;
}

export class InstalmentTestProvider implements PaymentProvider {
  readonly name = INSTALMENTS_PROVIDER;
  readonly testMode = true;

  /**
   * @param contextFor the store's instalment context for a currency (availability, limits, country), read
   *   from the owner's preferences when a payment is made.
   */
  constructor(
    private readonly database: Database,
    private readonly contextFor: (currency: string) => Promise<InstalmentContext>,
  ) {}

  private idFor(key: string): string {
    return 'ip_' + createHash('sha256').update(`instalments:${key}`).digest('hex').slice(0, 24);
  }

  private async find(id: string): Promise<PaymentRow | null> {
    const r = await rows<PaymentRow>(
      this.database.db,
      sql`select id, amount_cents, status, brand, last4, refunded_cents from test_payments where id = ${id}`,
    );
    return r[0] ?? null;
  }

  private result(p: PaymentRow, amountCents: number): ChargeResult {
    if (Number(p.amount_cents) !== amountCents) return { status: 'declined', message: instalmentDeclineMessages.AMOUNT_CHANGED };
    if (p.status === 'succeeded' || p.status === 'refunded')
      return { status: 'succeeded', paymentId: p.id, brand: p.brand, last4: p.last4 };
    return { status: 'declined', message: instalmentDeclineMessages.DECLINED };
  }

  async charge(req: ChargeRequest): Promise<ChargeResult> {
    const m = req.method;
    if (m.type === 'existing') {
      const p = await this.find(m.paymentId);
      return p ? this.result(p, req.amountCents) : { status: 'declined', message: instalmentDeclineMessages.UNKNOWN_PAYMENT };
    }
    if (m.type !== 'token' || m.provider !== INSTALMENTS_PROVIDER)
      return { status: 'declined', message: instalmentDeclineMessages.DECLINED };
    const ctx = await this.contextFor(req.currency);
    const locale = instalmentLocale(ctx.stripeAccountCountry, ctx.shopperLanguage);
    if (!ctx.afterPayAvailable || !locale || !isInstalmentEligiblePrice(req.amountCents, ctx.afterPayMin, ctx.afterPayMax)) {
      return { status: 'declined', message: instalmentDeclineMessages.NOT_AVAILABLE };
    }
    const status = m.token === INSTALMENT_TEST_TOKENS.APPROVED ? 'succeeded' : 'declined';
    const id = this.idFor(req.idempotencyKey);
    // The brand is the provider's (afterpay or clearpay); a plan has no card digits.
    await this.database.db.execute(sql`insert into test_payments (id, amount_cents, currency, status, brand, last4)
      values (${id}, ${req.amountCents}, ${req.currency}, ${status}, ${instalmentBrand(locale) ?? 'afterpay'}, ${''}) on conflict (id) do nothing`);
    const p = await this.find(id);
    return p ? this.result(p, req.amountCents) : { status: 'declined', message: instalmentDeclineMessages.DECLINED };
  }

  async lookup(idempotencyKey: string): Promise<ProviderPayment | null> {
    const p = await this.find(this.idFor(idempotencyKey));
    return p ? providerPayment(p) : null;
  }

  async refund(paymentId: string, amountCents?: number): Promise<{ refundedCents: number }> {
    return refundTestPayment(this.database, sql`id = ${paymentId} and status in ('succeeded', 'refunded')`, amountCents);
  }
}
