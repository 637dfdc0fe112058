/**
 * Back-in-stock notifications: the visitor's sign-up, the owner's groups, sign-ups, sends and settings,
 * and the props the sign-up island is rendered with.
 */
import { z } from 'zod';
import type { CaptchaPublicConfig } from './captcha.js';

const id = z.string().trim().min(1).max(64);
export const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8}){0,3}$/;

export const restockSignUpIn = z.object({
  isJoinMailingList: z.boolean().optional().default(false),
  productId: id,
  variantId: id,
  siteVisitorEmail: z.string().max(2000).optional(),
  captchaToken: z.string().max(8000).optional(),
  recaptchaEnterpriseV3Token: z.string().max(8000).optional(),
  language: z.string().max(35).optional(),
});

export const pageCursor = z.string().max(200).optional();
export const pageSizeQuery = z.coerce.number().int().min(1).max(200).optional();
export const restockSendIn = z.object({ productId: id, variantId: id });
export type RestockSignUpInput = z.input<typeof restockSignUpIn>;
export const restockSendAllIn = z.object({ sendRequests: z.array(restockSendIn).max(1000) });
export type RestockSendInput = z.input<typeof restockSendIn>;

export const restockSettingsSchema = z.object({
  /** Email the waiting list automatically when a variant goes from 0 to in stock. */
  autoSend: z.boolean(),
  /** Send at most as many emails as there are units in stock. */
  limitToStock: z.boolean(),
  /** Emails per batch, and the pause between batches, so a burst does not flood the relay. */
  batchSize: z.number().int().min(1).max(1000),
  batchDelaySeconds: z.number().int().min(0).max(3600),
  /** Hide the form until the visitor chooses a sold-out variant. */
  hiddenByDefault: z.boolean(),
  mailingListSignUpEnabled: z.boolean(),
  mailingListOptInByDefault: z.boolean(),
  /** Emails in the visitor's language (the sign-up carries `language`). */
  multilingualEmails: z.boolean(),
  ctaText: z.string().max(300),
  placeholderText: z.string().max(100),
  buttonText: z.string().max(60),
  mailingListDescription: z.string().max(300),
});

export type RestockSettings = z.infer<typeof restockSettingsSchema>;

/** PUT .../restock/settings: any of the settings, and the success text. */
export const restockSettingsIn = z
  .object({ settings: restockSettingsSchema.partial().strict().optional(), successText: z.string().trim().max(200).optional() })
  .strict();
export type RestockSettingsInput = z.input<typeof restockSettingsIn>;
export interface RestockSettingsAnswer {
  settings: RestockSettings;
  successText: string;
}

export interface SignUpJson {
  id: string;
  productId: string;
  variantId: string;
  email: string;
  isJoinMailingList: boolean;
  language: string | null;
  status: string;
  created: string;
  sentAt: string | null;
}

export interface SendJson {
  id: string;
  productId: string;
  productTitle: string;
  variantId: string;
  variantText: string;
  trigger: string;
  status: string;
  reason: string | null;
  pendingAtStart: number;
  sentCount: number;
  maxEmails: number | null;
  created: string;
  finished: string | null;
}

export interface VariantGroupJson {
  variantId: string;
  sku: string;
  attributes: Record<string, string>;
  variantText: string;
  qtyInStock: number;
  unlimited: boolean;
  inStock: boolean;
  pendingCount: number;
  sentCount: number;
  unsubscribedCount: number;
  activeSend: SendJson | null;
}

export interface SignUpGroupJson {
  productId: string;
  productTitle: string;
  productUrl: string;
  firstSignUp: string;
  pendingCount: number;
  variants: VariantGroupJson[];
}

/** One page of a cursor-paged list, under its own key (signUpGroups, signUps, sends). */
export type RestockPage<K extends string, T> = { [k in K]: T[] } & { hasNextPage: boolean; nextPageCursor: string | null };

/** What the server tells the sign-up form about the site's captcha (never a secret). */
export type RestockCaptchaConfig = CaptchaPublicConfig;

export interface RestockVariant {
  id: string;
  sku: string;
  attributes: Record<string, string>;
  qtyInStock: number;
  unlimited: boolean;
}

export interface RestockSignUpProps {
  productId: string;
  /** The product store scope shared with the product's other islands (its item id on a product page). */
  scope: string;
  productType: number;
  variants: RestockVariant[];
  variantOptionOrdering?: string[];
  hiddenByDefault: boolean;
  texts: { cta: string; placeholder: string; button: string; mailingListDescription: string; success: string };
  mailingList: { enabled: boolean; optInByDefault: boolean };
  /** Send the page language with the sign-up (multilingual transactional emails are on). */
  multilingualEmails: boolean;
  /** The site's captcha; fetched on first use when the server did not give it. */
  captcha?: RestockCaptchaConfig | null;
}
