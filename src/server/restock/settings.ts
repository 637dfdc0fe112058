/**
 * The owner's back-in-stock settings. They live in the website settings under
 * `storeSettings.restockNotifications`, next to `restockNotificationsSuccessText`, so every renderer
 * that has the store settings also has these.
 */
import { restockSuccessText } from '../../core/restock.js';

/** Texts of the sign-up form that are left to the store (owners can change them). */
export const RESTOCK_TEXT_DEFAULTS = {
  ctaText: 'Sign up to be notified when this item is back in stock.',
  placeholderText: 'Email Address',
  buttonText: 'Sign Up',
  mailingListDescription: 'Sign up for news and updates',
} as const;

import { restockSettingsSchema, type RestockSettings } from '../../core/api/restock.js';
export { restockSettingsSchema, type RestockSettings };

export const RESTOCK_SETTINGS_DEFAULTS: RestockSettings = {
  autoSend: true,
  limitToStock: false,
  batchSize: 50,
  batchDelaySeconds: 60,
  hiddenByDefault: false,
  mailingListSignUpEnabled: false,
  mailingListOptInByDefault: false,
  multilingualEmails: false,
  ...RESTOCK_TEXT_DEFAULTS,
};

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** The settings from the store settings (or whole website settings), defaults filled, bad values ignored. */
export function restockSettingsOf(settings: unknown): RestockSettings {
  const s = obj(settings);
  const store = 'storeSettings' in s ? obj(s.storeSettings) : s;
  const raw = obj(store.restockNotifications);
  const out: RestockSettings = { ...RESTOCK_SETTINGS_DEFAULTS };
  const shape = restockSettingsSchema.shape;
  for (const key of Object.keys(shape) as (keyof RestockSettings)[]) {
    const parsed = shape[key].safeParse(raw[key]);
    if (parsed.success) (out as Obj)[key] = parsed.data;
  }
  for (const key of Object.keys(RESTOCK_TEXT_DEFAULTS) as (keyof typeof RESTOCK_TEXT_DEFAULTS)[]) {
    if (!out[key].trim()) out[key] = RESTOCK_TEXT_DEFAULTS[key];
  }
  return out;
}

/** The success text of the store (restockNotificationsSuccessText, default 'Signed up!'). */
export function successTextOf(settings: unknown): string {
  const s = obj(settings);
  const store = 'storeSettings' in s ? obj(s.storeSettings) : s;
  const t = store.restockNotificationsSuccessText;
  return restockSuccessText({ restockNotificationsSuccessText: typeof t === 'string' ? t : null });
}
