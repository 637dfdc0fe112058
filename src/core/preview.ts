/**
 * Owner preview and safe mode (browser-storage keys and cookie names for preview and for disabling
 * scripts; the masked-password placeholder value), and the upgrade destinations.
 */

/** The preview cookie: set only for a signed-in owner; ignored without an owner session. */
export const PREVIEW_COOKIE = 'tessera_preview';
/** The safe-mode (script-disable) cookie: honoured only for a signed-in owner. */
export const SAFE_MODE_COOKIE = 'tessera_safe_mode';
/** `?safe-mode=1` turns safe mode on for one request, `?safe-mode=0` off (owners only). */
export const SAFE_MODE_PARAM = 'safe-mode';
/** Browser-storage keys the admin keeps for the owner's preview and safe-mode choices. */
export const PREVIEW_STORAGE_KEY = 'tessera.preview';
export const SAFE_MODE_STORAGE_KEY = 'tessera.safeMode';

export interface PreviewChoice {
  /** Show draft, scheduled and other unpublished items. */
  drafts: boolean;
  /** A theme folder (its name under the themes directory) to render with, or null for the live theme. */
  theme: string | null;
}

export const THEME_FOLDER_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export function formatPreviewCookie(p: PreviewChoice): string {
  return `v1|${p.drafts ? 'drafts' : 'live'}|${p.theme ?? ''}`;
}

/** Parses the preview cookie; null when missing or malformed. */
export function parsePreviewCookie(value: string | null | undefined): PreviewChoice | null {
  if (typeof value !== 'string') return null;
  const m = /^v1\|(drafts|live)\|([a-z0-9][a-z0-9_-]{0,63})?$/.exec(value);
  if (!m) return null;
  return { drafts: m[1] === 'drafts', theme: m[2] ?? null };
}

/** Whether safe mode is asked for: the query parameter wins over the cookie. */
export function safeModeAsked(query: unknown, cookie: string | null | undefined): boolean {
  const raw = query && typeof query === 'object' ? (query as Record<string, unknown>)[SAFE_MODE_PARAM] : undefined;
  const v = Array.isArray(raw) ? raw[0] : raw;
  if (v === '1' || v === 'true' || v === '') return true;
  if (v === '0' || v === 'false') return false;
  return cookie === '1';
}

/** The masked-password placeholder a settings form shows for a stored secret; never the secret itself. */
export const MASKED_PASSWORD_PLACEHOLDER = '••••••••';

/** The value a form shows for a secret: the placeholder when one is stored, else empty. */
export const maskSecret = (stored: string | null | undefined): string => (stored ? MASKED_PASSWORD_PLACEHOLDER : '');

/** The secret to store after a save: the placeholder or nothing keeps the stored one; anything else replaces it. */
export function keepSecret(sent: string | null | undefined, stored: string | null | undefined): string | undefined {
  if (sent === undefined || sent === null || sent === '' || sent === MASKED_PASSWORD_PLACEHOLDER) return stored ?? undefined;
  return sent;
}

/** The upgrade destinations, both under settings/billing. */
export const BILLING_PATH = '/config/settings/billing';
export const UPGRADE_DESTINATIONS = Object.freeze({
  /** The trial-upgrade destination: the billing upgrade page. */
  trialUpgrade: `${BILLING_PATH}/upgrade`,
  /** The upgrade destination: the website subscriptions page. */
  upgrade: `${BILLING_PATH}/website-subscriptions`,
});
