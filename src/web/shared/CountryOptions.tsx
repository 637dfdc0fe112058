/**
 * The options of a country select: a blank "Select a country" first, then every country by name, as the server
 * sent them (named and sorted by CLDR in the page's language). Shared by the checkout's shipping address and the
 * account page's saved addresses.
 */
import type { CountryOption } from '../../core/api/common.js';

export function CountryOptions({ countries }: { countries: readonly CountryOption[] }) {
  return (
    <>
      <option value="">Select a country</option>
      {countries.map(([code, name]) => (
        <option key={code} value={code}>
          {name}
        </option>
      ))}
    </>
  );
}
