/** The captcha the browser is told about: its kind, action and public settings (never a secret). */

export type CaptchaAction = 'form-block' | 'newsletter-block' | 'product-waitlist' | 'promo-popup';
export const CAPTCHA_ACTIONS: readonly CaptchaAction[] = ['form-block', 'newsletter-block', 'product-waitlist', 'promo-popup'];
export type CaptchaKind = 'altcha' | 'recaptcha-v2' | 'recaptcha-v3' | 'recaptcha-enterprise';
export const CAPTCHA_KINDS: readonly CaptchaKind[] = ['altcha', 'recaptcha-v2', 'recaptcha-v3', 'recaptcha-enterprise'];

/** What the browser needs to show the captcha (never a secret). */
export interface CaptchaPublicConfig {
  kind: CaptchaKind;
  action: CaptchaAction;
  /** reCAPTCHA's action name for this action type (letters and underscores). */
  vendorAction: string;
  /** altcha: where the browser fetches a challenge. */
  challengeUrl?: string;
  /** reCAPTCHA: the site key. */
  siteKey?: string;
  /** Default theme light, size normal. */
  theme: 'light' | 'dark';
  size: 'normal' | 'compact' | 'invisible';
}
