/** The owner's donation settings, kept in the website settings under `donations` (defaults filled on read). */
import { z } from 'zod';
import { DONATION_DEFAULTS } from '../../core/donations.js';

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

export const DONATION_SETTINGS_DEFAULTS: DonationSettings = {
  enabled: true,
  title: 'Support our work',
  description: 'Every contribution helps us keep making things by hand.',
  buttonText: 'Donate',
  suggestedAmounts: [...DONATION_DEFAULTS.suggestedAmounts],
  minimumCents: DONATION_DEFAULTS.minimumCents,
  maximumCents: DONATION_DEFAULTS.maximumCents,
};

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

export function donationSettingsOf(websiteSettings: unknown): DonationSettings {
  const raw = obj(obj(websiteSettings).donations);
  const out: DonationSettings = { ...DONATION_SETTINGS_DEFAULTS };
  const shape = donationSettingsSchema.shape;
  for (const key of Object.keys(shape) as (keyof DonationSettings)[]) {
    const parsed = shape[key].safeParse(raw[key]);
    if (parsed.success) (out as Obj)[key] = parsed.data;
  }
  if (out.minimumCents > out.maximumCents) out.maximumCents = out.minimumCents;
  return out;
}
