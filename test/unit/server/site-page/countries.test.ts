import { describe, expect, it } from 'vitest';
import '../../../../src/server/cldr-packs.js';
import { countryOptions } from '../../../../src/server/site-page/countries.js';
import { COUNTRY_CODES, isCountryCode } from '../../../../src/core/countries.js';

describe('the address forms’ country list', () => {
  it('holds every ISO 3166-1 country, each named by CLDR in the page’s language', () => {
    const en = countryOptions('en-GB');
    expect(en).toHaveLength(COUNTRY_CODES.length);
    expect(COUNTRY_CODES.length).toBeGreaterThanOrEqual(249);
    const names = new Map(en);
    expect(names.get('PT')).toBe('Portugal');
    expect(names.get('CI')).toBe('Côte d’Ivoire');
    expect(en.every(([code, name]) => name !== code && name.length > 0)).toBe(true);
    const ja = new Map(countryOptions('ja-JP'));
    expect(ja.get('JP')).toBe('日本');
    expect(ja.get('GB')).toBe('イギリス');
    expect(new Map(countryOptions('de-DE')).get('DE')).toBe('Deutschland');
  });

  it('is sorted for the language, so Åland sits with the A countries in English', () => {
    const en = countryOptions('en-US').map(([, name]) => name);
    expect(en.indexOf('Åland Islands')).toBeLessThan(en.indexOf('Albania'));
    expect(en.indexOf('Åland Islands')).toBeGreaterThan(en.indexOf('Afghanistan'));
    const sorted = [...en].sort(new Intl.Collator('en-US').compare);
    expect(en).toEqual(sorted);
  });

  it('knows a code in either case and refuses two letters that name no country', () => {
    expect(isCountryCode('pt')).toBe(true);
    expect(isCountryCode('GB')).toBe(true);
    expect(isCountryCode('UK')).toBe(false);
    expect(isCountryCode('ZZ')).toBe(false);
    expect(isCountryCode('USA')).toBe(false);
    expect(isCountryCode(undefined)).toBe(false);
  });
});
