/** The country list of address forms: every country, named in the page's language by CLDR, sorted for that language. */
import { COUNTRY_CODES } from '../../core/countries.js';
import type { CountryOption } from '../../core/api/common.js';
import { cldrFor } from '../../template/cldr.js';

const byLocale = new Map<string, CountryOption[]>();

export function countryOptions(locale: string): CountryOption[] {
  let list = byLocale.get(locale);
  if (list === undefined) {
    const names = cldrFor(locale).General;
    const collator = new Intl.Collator(locale.replace(/_/g, '-'));
    list = COUNTRY_CODES.map((code): CountryOption => [code, names.getRegionDisplayName(code) || code]).sort((a, b) =>
      collator.compare(a[1], b[1]),
    );
    // One list per locale string; a site has a handful of languages.
    if (byLocale.size < 64) byLocale.set(locale, list);
  }
  return list;
}
