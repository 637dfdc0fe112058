/**
 * The options of a country select: a blank "Select a country" first, then every country by name. Shared by the
 * checkout's shipping address and the account page's saved addresses (both in the public bundle).
 */
import { COUNTRIES } from '../../core/countries.js';

export function CountryOptions() {
  return (
    <>
      <option value="">Select a country</option>
      {COUNTRIES.map(([code, name]) => (
        <option key={code} value={code}>
          {name}
        </option>
      ))}
    </>
  );
}
