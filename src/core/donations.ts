/** Donation amount rules: the visitor's amount in major units becomes minor units of the site currency. */
import { donations as text } from './messages.js';
import { formatMoney, toMinorUnits } from './money.js';

export const DONATION_DEFAULTS = {
  /** Suggested amounts in minor units. */
  suggestedAmounts: [1000, 2500, 5000, 10000],
  minimumCents: 100,
  maximumCents: 10_000_000,
} as const;

export type AmountResult = { ok: true; cents: number } | { ok: false; message: string };

/**
 * Reads a donation amount: a suggested amount in minor units (`amountCents`), or, when none is chosen
 * (or the choice is 'custom'), the amount the visitor typed in major units ('25', '25.50', '1,000');
 * then checks it lies within the owner's minimum and maximum.
 */
export function donationAmount(
  input: { amountCents?: unknown; customAmount?: unknown },
  currency: string,
  limits: { minimumCents: number; maximumCents: number },
): AmountResult {
  let cents: number;
  const chosen = input.amountCents;
  if (chosen === undefined || chosen === null || chosen === '' || chosen === 'custom') {
    const custom =
      typeof input.customAmount === 'string'
        ? input.customAmount.trim().replace(/,/g, '')
        : typeof input.customAmount === 'number'
          ? String(input.customAmount)
          : '';
    if (custom === '') return { ok: false, message: text.AMOUNT_REQUIRED };
    // A currency sign typed in front ('$25') is fine; anything else that is not a plain amount is not.
    const cleaned = custom.replace(/^[^\d.+-]{1,3}(?=[\d.])/, '');
    if (!/^(?:\d{1,12}(?:\.\d*)?|\.\d+)$/.test(cleaned)) return { ok: false, message: text.AMOUNT_INVALID };
    try {
      cents = toMinorUnits(cleaned, currency);
    } catch {
      return { ok: false, message: text.AMOUNT_INVALID };
    }
  } else {
    const n = typeof chosen === 'string' && /^\d{1,15}$/.test(chosen) ? Number(chosen) : chosen;
    if (typeof n !== 'number' || !Number.isSafeInteger(n)) return { ok: false, message: text.AMOUNT_INVALID };
    cents = n;
  }
  if (cents < limits.minimumCents) return { ok: false, message: text.tooSmall(formatMoney(limits.minimumCents, currency)) };
  if (cents > limits.maximumCents) return { ok: false, message: text.tooLarge(formatMoney(limits.maximumCents, currency)) };
  return { ok: true, cents };
}
