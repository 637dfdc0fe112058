/**
 * Donations: the donation call (JSON or the donate form's plain post), Stripe's return, and the owner's
 * donor list and donation settings.
 */
import { z } from 'zod';
import { donations as text, forms } from '../messages.js';

const cents = z.number().int().min(1).max(100_000_000);

export const donationSettingsSchema = z.object({
  enabled: z.boolean(),
  title: z.string().trim().min(1).max(120),
  description: z.string().max(2000),
  buttonText: z.string().trim().min(1).max(60),
  /** Suggested amounts in minor units of the site currency. */
  suggestedAmounts: z.array(cents).min(1).max(6),
  minimumCents: cents,
  maximumCents: cents,
});

export type DonationSettings = z.infer<typeof donationSettingsSchema>;

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

/** GET /api/donations/admin/donations. */
export const donationListQuery = z.object({
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
/** PUT /api/donations/admin/settings. */
export const donationSettingsIn = z.object({ settings: donationSettingsSchema.partial().strict() }).strict();
export type DonationSettingsInput = z.input<typeof donationSettingsIn>;
export interface DonationList {
  donations: DonationRow[];
  count: number;
  totals: Array<{ currency: string; amountCents: number }>;
}

const noNul = (s: string) => !s.includes('\u0000');
const str = (max: number, msg: string) => z.string({ error: msg }).max(max, msg).refine(noNul, msg);
/** POST /api/donations (JSON, or the donate form's plain post): the amount is checked apart, against the settings. */
export const donateIn = z.object({
  amountCents: z.union([z.number(), z.string().max(20)]).optional(),
  customAmount: z.union([z.number(), z.string().max(40)]).optional(),
  donorName: str(200, text.NAME_TOO_LONG)
    .transform((s) => s.trim())
    .pipe(z.string().min(1, text.NAME_REQUIRED).max(120, text.NAME_TOO_LONG)),
  email: str(256, forms.INVALID_EMAIL).transform((s) => s.trim()),
  message: str(1000, text.MESSAGE_TOO_LONG).optional().default(''),
  idempotencyKey: z.string().max(200).optional(),
  // Card fields: the form's flat names, or a payment object as the checkout sends it.
  cardNumber: z.string().max(30).optional(),
  cardExpiry: z.string().max(10).optional(),
  cardCvc: z.string().max(6).optional(),
  payment: z
    .object({
      type: z.literal('card'),
      number: z.string().max(30),
      expiry: z.string().max(10),
      cvc: z.string().max(6),
      name: z.string().max(200).optional(),
    })
    .optional(),
  crumb: z.string().optional(),
});
export type DonateInput = z.input<typeof donateIn>;

/** GET /donate/stripe/return (Stripe's page sends the donor back with its session). */
export const stripeReturnQuery = z.object({ session_id: z.string().regex(/^cs_[A-Za-z0-9_]{1,200}$/) });

/** POST /api/donations as JSON: Stripe's page to go to, or the donation recorded. */
export type DonateAnswer =
  | { status: 'redirect'; url: string }
  | {
      donation: { id: string; amountCents: number; currency: string; testMode: boolean };
      duplicate: boolean;
      confirmationUrl: string;
    };

/** GET /api/donations/admin/settings. */
export interface DonationSettingsAnswer {
  settings: DonationSettings;
  currency: string;
}
/** PUT /api/donations/admin/settings. */
export interface DonationSettingsSaved {
  settings: DonationSettings;
}
