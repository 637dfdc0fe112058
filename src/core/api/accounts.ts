/**
 * Site users' accounts: the account page's data (orders, downloads, subscriptions, saved addresses,
 * newsletters, restock sign-ups), a refused plain post's answer, and the props the server renders the
 * account island with.
 */
import { z } from 'zod';
import { postalAddress } from './checkout.js';
import type { CountryOption } from './common.js';

export const ACCOUNT_MODES = ['login', 'signup', 'reset-request', 'reset', 'confirm', 'account', 'denied'] as const;
export type AccountMode = (typeof ACCOUNT_MODES)[number];

/** A language the visitor can switch to; a custom-coded one needs no locale call. */
export const siteLanguage = z.object({ code: z.string(), customCoded: z.boolean() });
export type SiteLanguage = z.infer<typeof siteLanguage>;

export const savedAddress = postalAddress.extend({ id: z.string(), isDefault: z.boolean() });
export type SavedAddress = z.infer<typeof savedAddress>;

/** A subscription as its customer sees it: running, running with a renewal not yet paid, cancelled, or all its payments taken. */
export const ACCOUNT_SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled', 'ended'] as const;
export type AccountSubscriptionStatus = (typeof ACCOUNT_SUBSCRIPTION_STATUSES)[number];

export const accountDashboard = z.object({
  orders: z.array(
    z.object({
      id: z.string(),
      orderNumber: z.number(),
      created: z.string(),
      status: z.string(),
      statusLabel: z.string(),
      total: z.string(),
      items: z.array(z.object({ productName: z.string(), quantity: z.number() })),
      tracking: z.array(z.object({ carrier: z.string(), number: z.string(), url: z.string() })),
      statusUrl: z.string(),
      canReorder: z.boolean(),
    }),
  ),
  downloads: z.array(z.object({ orderNumber: z.number(), productName: z.string(), url: z.string() })),
  subscriptions: z.array(
    z.object({
      id: z.string(),
      productName: z.string(),
      orderNumber: z.number(),
      priceText: z.string(),
      status: z.enum(ACCOUNT_SUBSCRIPTION_STATUSES),
      started: z.string(),
    }),
  ),
  addresses: z.array(savedAddress),
  newsletters: z.array(z.object({ listId: z.string(), name: z.string(), subscribed: z.boolean() })),
  restock: z.array(z.object({ id: z.string(), product: z.string(), variant: z.string(), since: z.string() })),
});
export type AccountDashboard = z.infer<typeof accountDashboard>;

/** A plain post to one of the account page's forms that was refused: shown at that form, its values kept. */
export const accountFormError = z.object({
  section: z.enum(['orders', 'subscriptions', 'addresses', 'newsletters', 'restock']),
  message: z.string(),
  errors: z.record(z.string(), z.string()),
  values: z.record(z.string(), z.string()),
});
export type AccountFormError = z.infer<typeof accountFormError>;

/** What the server renders the account island with. */
export interface AccountPageProps {
  mode: AccountMode;
  error?: string;
  /** Where to go after signing in (a same-site path). */
  next?: string;
  token?: string;
  user: { email: string; displayName: string; language: string } | null;
  languages: SiteLanguage[];
  /** The visitor's crumb: each form is also a plain POST (no JavaScript), never a password in an address. */
  crumb?: string;
  /** The server's answer to a plain post: a notice, and the values to keep (never a password). */
  notice?: string;
  values?: { email?: string; displayName?: string };
  /** The account page's lists (mode 'account'): server/platform/account-data.ts. */
  dashboard?: AccountDashboard;
  /** The notice of a change that went through (a plain post's 303 back), in the server's words. */
  done?: string;
  /** A plain post to one of the account page's forms that was refused: shown at that form, its values kept. */
  formError?: AccountFormError;
  /** The saved addresses' country list, named in the page's language (the account mode only). */
  countries?: CountryOption[];
}

/** The confirmation link opened away from the browser that signed up: the password is chosen here. */
export const CONFIRM_TITLE = 'Choose your password';
