/** The owner's review settings, kept in the website settings under `reviews` (defaults filled on read). */
import { z } from 'zod';

export const reviewSettingsSchema = z.object({
  /** Send review requests at all. */
  requestsEnabled: z.boolean(),
  /** Hours after an order is marked delivered before the review request is emailed (0 to 90 days). */
  requestDelayHours: z.number().int().min(0).max(90 * 24),
  /** How many related products the product page shows. */
  relatedCount: z.number().int().min(0).max(12),
});

export type ReviewSettings = z.infer<typeof reviewSettingsSchema>;

export const REVIEW_SETTINGS_DEFAULTS: ReviewSettings = { requestsEnabled: true, requestDelayHours: 7 * 24, relatedCount: 4 };

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** The settings from the website settings, defaults filled, bad values ignored. */
export function reviewSettingsOf(websiteSettings: unknown): ReviewSettings {
  const raw = obj(obj(websiteSettings).reviews);
  const out: ReviewSettings = { ...REVIEW_SETTINGS_DEFAULTS };
  const shape = reviewSettingsSchema.shape;
  for (const key of Object.keys(shape) as (keyof ReviewSettings)[]) {
    const parsed = shape[key].safeParse(raw[key]);
    if (parsed.success) (out as Obj)[key] = parsed.data;
  }
  return out;
}
