/**
 * The site settings of /config (title, tagline, logo, favicon, time zone, locale, currency, contact details,
 * business address and hours, social accounts): one zod schema, read by the server to check a save and by the
 * admin's form (React Hook Form's resolver) so both give the same message on the same field.
 */
import { z } from 'zod';
import { SUPPORTED_CURRENCIES } from './money.js';
import { address as addressMessages, platform as platformMessages } from './messages.js';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Whether the runtime knows `tz` as an IANA time zone. */
export function isTimeZone(tz: string): boolean {
  if (!tz || tz.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Whether `tag` is a well-formed BCP 47 language tag (en-US, fr-CA, de). */
export function isLocale(tag: string): boolean {
  if (!tag || tag.length > 35) return false;
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

const text = (max: number, label: string) => z.string().trim().max(max, `${label} must be ${max} characters or fewer.`);
/** An image the site serves itself: an upload (/uploads/...) or another local path; blank for none. */
const localImage = (label: string) =>
  z
    .string()
    .trim()
    .max(500, `${label} must be 500 characters or fewer.`)
    .refine((s) => s === '' || /^\/[^/\s][^\s]*$/.test(s), { message: `Upload an image for the ${label.toLowerCase()}.` });

export const siteSettingsSchema = z.object({
  version: z.number().int(),
  title: z.string().trim().min(1, 'Enter the site title.').max(200, 'The site title must be 200 characters or fewer.'),
  tagline: text(200, 'The tagline'),
  logoImageUrl: localImage('Logo'),
  faviconUrl: localImage('Favicon'),
  timeZone: z.string().refine(isTimeZone, { message: 'Choose a time zone from the list.' }),
  locale: z.string().trim().refine(isLocale, { message: 'Enter a language and region such as en-US.' }),
  currency: z.enum(SUPPORTED_CURRENCIES, { error: 'Choose a currency from the list.' }),
  // The validation message shown in the interface: 'Emails must be formatted as name@example.com'.
  contactEmail: z.union([z.literal(''), z.email(platformMessages.emailsFormattedAs()).max(254)], {
    error: platformMessages.emailsFormattedAs(),
  }),
  contactPhoneNumber: text(40, 'The phone number').refine((s) => s === '' || /^[+()\d\s.-]{3,40}$/.test(s), {
    message: 'Enter a phone number using digits, spaces, +, (, ), - and .',
  }),
  /**
   * The business address, in parts (the server checks them against the country's format: its required
   * parts, subdivision list and postcode pattern); all blank for none.
   */
  location: z.object({
    addressTitle: text(200, 'The business name'),
    line1: text(200, 'The street address'),
    line2: text(200, 'The second address line'),
    city: text(100, 'The city'),
    region: text(100, 'The region'),
    postalCode: text(20, 'The postcode'),
    country: z
      .string()
      .trim()
      .refine((c) => c === '' || /^[A-Za-z]{2}$/.test(c), { message: addressMessages.UNKNOWN_COUNTRY }),
  }),
  businessHours: z.object(Object.fromEntries(WEEKDAYS.map((d) => [d, text(100, 'Opening hours')])) as Record<Weekday, z.ZodString>),
  socialAccounts: z
    .array(
      z.object({
        serviceName: z
          .string()
          .trim()
          .min(1, 'Name the account (Instagram, Facebook, ...).')
          .max(50, 'The name must be 50 characters or fewer.'),
        profileUrl: z.url({ protocol: /^https?$/, error: 'Enter the profile address, starting with https://.' }).max(500),
      }),
    )
    .max(20, 'A site can list up to 20 social accounts.'),
  /** The site's comments-enabled setting; also the comment state a new post starts with. */
  commentsEnabled: z.boolean(),
});

export type SiteSettings = z.infer<typeof siteSettingsSchema>;

export const EMPTY_HOURS = Object.fromEntries(WEEKDAYS.map((d) => [d, ''])) as Record<Weekday, string>;
