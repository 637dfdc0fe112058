/** Restock (back-in-stock) sign-up rules. */
import { EMAIL_MAX_LENGTH, EMAIL_MIN_LENGTH } from './constants';
import { restock } from './messages';
import { isRestockEmailAddress } from './email';

/** A simple email check: something@something.ending, with an ending of 2 to 4 letters (linear, core/email.ts). */
export { isRestockEmailAddress };

/**
 * 'Email cannot be blank' for empty or whitespace-only text; 'Email is invalid' unless the trimmed
 * text has 3 to 256 characters and matches the simple pattern; null when valid.
 */
export function validateRestockEmail(email: string | null | undefined): string | null {
  const t = (email ?? '').trim();
  if (t === '') return restock.EMAIL_BLANK;
  if (t.length < EMAIL_MIN_LENGTH || t.length > EMAIL_MAX_LENGTH) return restock.EMAIL_INVALID;
  if (!isRestockEmailAddress(t)) return restock.EMAIL_INVALID;
  return null;
}

/** The success text: the store's restockNotificationsSuccessText when set, else 'Signed up!'. */
export function restockSuccessText(settings: { restockNotificationsSuccessText?: string | null } = {}): string {
  const t = settings.restockNotificationsSuccessText;
  return typeof t === 'string' && t.trim() !== '' ? t : restock.DEFAULT_SUCCESS;
}

export interface RestockSignUpPayload {
  isJoinMailingList: boolean;
  productId: string;
  variantId: string;
  siteVisitorEmail: string;
  captchaToken?: string;
  recaptchaEnterpriseV3Token?: string;
  language?: string;
}

/**
 * Builds the sign-up payload. Exactly one captcha token kind is sent; language only when
 * multilingual transactional emails are on and a translation tool is present.
 */
export function restockSignUpPayload(input: {
  productId: string;
  variantId: string;
  email: string;
  joinMailingList?: boolean;
  captchaToken?: string | null;
  enterpriseToken?: string | null;
  language?: string | null;
  multilingualEmails?: boolean;
  translationTool?: boolean;
}): RestockSignUpPayload {
  const p: RestockSignUpPayload = {
    isJoinMailingList: input.joinMailingList === true,
    productId: input.productId,
    variantId: input.variantId,
    siteVisitorEmail: input.email.trim(),
  };
  if (input.enterpriseToken) p.recaptchaEnterpriseV3Token = input.enterpriseToken;
  else if (input.captchaToken) p.captchaToken = input.captchaToken;
  if (input.multilingualEmails && input.translationTool && input.language) p.language = input.language;
  return p;
}

/** Total sign-ups across variants: the sum of the list lengths (0 without variants). */
export function totalSignUps(listsPerVariant: readonly (readonly unknown[])[]): number {
  return listsPerVariant.reduce((s, l) => s + l.length, 0);
}
