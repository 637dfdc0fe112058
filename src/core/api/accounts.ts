/**
 * Site users' accounts: the account page's data (orders, downloads, subscriptions, saved addresses,
 * newsletters, restock sign-ups), a refused plain post's answer, and the props the server renders the
 * account island with.
 */
import { z } from 'zod';
import { postalAddress } from './checkout.js';
import type { AddressFormat, CountryOption } from './common.js';
import { checkAddress, normalizeAddressFor, POSTCODE_MAX } from '../address-format.js';
import { address as addressMessages, forms as formMessages } from '../messages.js';

export const ACCOUNT_MODES = ['login', 'signup', 'reset-request', 'reset', 'confirm', 'account', 'denied'] as const;
export type AccountMode = (typeof ACCOUNT_MODES)[number];

/** A language the visitor can switch to; a custom-coded one needs no locale call. */
export const siteLanguage = z.object({ code: z.string(), customCoded: z.boolean() });
export type SiteLanguage = z.infer<typeof siteLanguage>;

/** A saved address as answered: its parts, and its lines as its country writes them (core/address-format.ts). */
export const savedAddress = postalAddress.extend({ id: z.string(), isDefault: z.boolean(), lines: z.array(z.string()) });
export type SavedAddress = z.infer<typeof savedAddress>;

const addressText = (max: number, required = true) => {
  const s = z.string({ error: formMessages.REQUIRED }).trim().max(max, `Use at most ${max} characters.`);
  return required ? s.min(1, formMessages.REQUIRED) : s.optional().default('');
};

/**
 * POST /api/site-users/account/addresses (and its plain form post): a saved address, checked against its
 * country's format, which `formatOf` gives (null for a code that names no country): the parts the country
 * requires, a subdivision from its list, a postcode that fits its pattern. It parses to the address as stored.
 */
export const savedAddressIn = (formatOf: (country: string) => AddressFormat | null) =>
  z
    .object({
      name: addressText(100),
      line1: addressText(200),
      line2: addressText(200, false),
      city: addressText(100, false),
      region: addressText(100, false),
      postalCode: addressText(POSTCODE_MAX, false),
      country: z
        .string({ error: formMessages.REQUIRED })
        .trim()
        .min(1, formMessages.REQUIRED)
        .regex(/^[A-Za-z]{2}$/, addressMessages.UNKNOWN_COUNTRY)
        .transform((c) => c.toUpperCase()),
      isDefault: z
        .union([z.boolean(), z.enum(['true', 'on', 'false'])])
        .optional()
        .transform((v) => v === true || v === 'true' || v === 'on'),
    })
    .transform((a, ctx) => {
      const format = formatOf(a.country);
      if (!format) {
        ctx.addIssue({ code: 'custom', path: ['country'], message: addressMessages.UNKNOWN_COUNTRY });
        return z.NEVER;
      }
      const address = normalizeAddressFor(format, a);
      const errors = checkAddress(format, address);
      for (const [part, message] of Object.entries(errors)) ctx.addIssue({ code: 'custom', path: [part], message });
      return Object.keys(errors).length ? z.NEVER : { ...address, isDefault: a.isDefault };
    });
export type SavedAddressInput = z.infer<ReturnType<typeof savedAddressIn>>;

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
  /** The new-address form's first format: the shop's country, or the refused post's (others load as picked). */
  addressFormat?: AddressFormat;
}

/** The confirmation link opened away from the browser that signed up: the password is chosen here. */
export const CONFIRM_TITLE = 'Choose your password';
