/**
 * The countries a shop can ship to and a shopper can live in: every ISO 3166-1 alpha-2 code, from the
 * i18n-iso-countries data package (which also carries XK, Kosovo, as CLDR does). Names come from CLDR in the
 * shopper's language, on the server (site-page/countries.ts), so this module stays out of the public bundle.
 */
import countries from 'i18n-iso-countries';
import { address } from './messages.js';

export const COUNTRY_CODES: readonly string[] = Object.freeze(Object.keys(countries.getAlpha2Codes()).sort());

const KNOWN = new Set(COUNTRY_CODES);

/** True for a known two-letter country code, in either case. */
export function isCountryCode(code: unknown): code is string {
  return typeof code === 'string' && code.length === 2 && KNOWN.has(code.toUpperCase());
}

/** The words for a code that is two letters but names no country. */
export const UNKNOWN_COUNTRY = address.UNKNOWN_COUNTRY;
