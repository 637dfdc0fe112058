/**
 * The donation form's template context, shared by the donate page (203) and the page editor's donation
 * block: the same fields, amounts, currency, crumb and test-mode note, posting to the same donation call
 * (a plain form post that works without JavaScript). `prefix` keeps element ids unique on a page.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { donations as text } from '../../core/messages.js';
import { formatMoney } from '../../core/money.js';
import type { DonationSettings } from './settings.js';

type Obj = Record<string, unknown>;

export const DONATIONS_FORM_ACTION = '/api/donations';
const KEY = /^[A-Za-z0-9_-]{8,128}$/;

export interface DonationFormInput {
  req: FastifyRequest;
  settings: DonationSettings;
  currency: string;
  /** Element id prefix: 'donate' on the donate page, 'donate-<block id>' in a block. */
  prefix: string;
  /** Suggested amounts in minor units (the donate page: the owner's settings; a block: its own). */
  amounts: readonly number[];
  allowCustom: boolean;
  /** The chosen amount: a suggested amount as a string, or 'custom'. */
  chosen?: string;
  values?: Obj;
  errors?: Record<string, string>;
  message?: string | null;
  /** Stripe is connected: the donor pays on Stripe's Checkout page (no card fields here). */
  stripe?: { testMode: boolean } | null;
}

/** Whether donations go through Stripe (connected), and in which mode; null: the built-in test mode. */
export function donationStripe(app: FastifyInstance): { testMode: boolean } | null {
  return app.hasDecorator('stripe') && app.stripe.active() ? { testMode: app.stripe.provider.testMode } : null;
}

/** The context `donation-form.block` renders. */
export function donationFormContext(i: DonationFormInput) {
  const v = i.values ?? {};
  const amounts = [...new Set(i.amounts)];
  const chosen = i.chosen ?? (amounts.length ? String(amounts[Math.min(1, amounts.length - 1)]) : 'custom');
  return {
    prefix: i.prefix,
    action: DONATIONS_FORM_ACTION,
    crumb: i.req.crumb,
    idempotencyKey:
      typeof v.idempotencyKey === 'string' && KEY.test(v.idempotencyKey) ? v.idempotencyKey : randomBytes(16).toString('base64url'),
    testMode: i.stripe ? i.stripe.testMode : true,
    stripe: !!i.stripe,
    currency: i.currency,
    buttonText: i.settings.buttonText,
    amounts: amounts.map((c) => ({
      cents: c,
      label: formatMoney(c, i.currency),
      id: `${i.prefix}-amount-${c}`,
      checked: chosen === String(c),
    })),
    allowCustom: i.allowCustom,
    customLabel: text.CUSTOM_AMOUNT,
    customChecked: i.allowCustom && chosen === 'custom',
    minimum: formatMoney(i.settings.minimumCents, i.currency),
    values: {
      customAmount: String(v.customAmount ?? ''),
      donorName: String(v.donorName ?? ''),
      email: String(v.email ?? ''),
      message: String(v.message ?? ''),
    },
    errors: i.errors ?? {},
    message: i.message ?? null,
  };
}

/**
 * The context of the page editor's donation block, or null when it shows nothing: donations switched
 * off (the feature flag or the owner's settings), since its form would post to a closed call.
 */
export function donationBlockForm(
  req: FastifyRequest,
  site: { currency: string },
  settings: DonationSettings,
  donationsOn: boolean,
  block: { id: string; data: Obj },
  stripe: { testMode: boolean } | null = null,
) {
  if (!donationsOn || !settings.enabled) return null;
  const d = block.data;
  // An amount outside the owner's minimum and maximum would only be refused when sent: it is not offered.
  const amounts = (Array.isArray(d.amounts) ? d.amounts : []).filter(
    (c): c is number => typeof c === 'number' && Number.isSafeInteger(c) && c >= settings.minimumCents && c <= settings.maximumCents,
  );
  const allowCustom = d.allowCustom !== false;
  if (amounts.length === 0 && !allowCustom) return null;
  return {
    title: String(d.title ?? ''),
    text: String(d.text ?? ''),
    form: donationFormContext({ req, settings, currency: site.currency, prefix: `donate-${block.id}`, amounts, allowCustom, stripe }),
  };
}
