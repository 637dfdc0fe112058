/** The owner's donation settings, kept in the website settings under `donations` (defaults filled on read). */
import { DONATION_DEFAULTS } from '../../core/donations.js';

import { donationSettingsSchema, type DonationSettings } from '../../core/api/reviews.js';
export { donationSettingsSchema, type DonationSettings };

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
