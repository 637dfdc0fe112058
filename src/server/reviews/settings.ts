/** The owner's review settings, kept in the website settings under `reviews` (defaults filled on read). */

import { reviewSettingsSchema, type ReviewSettings } from '../../core/api/reviews.js';
export { reviewSettingsSchema, type ReviewSettings };

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
