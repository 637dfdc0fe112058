/** Issue 45 item 15: %x, %X and %Z in the date formatter as the reference engine prints them. */
import { describe, expect, it } from 'vitest';
import { render } from '../../../src/template/index.js';

const at = Date.UTC(2021, 1, 17, 21, 26, 5); // 2021-02-18 06:26:05 in Tokyo
const out = (fmt: string, zone: string, locale = 'en-US') =>
  render(`{t|date ${fmt}}`, { t: at, website: { timeZone: zone } }, { locale }).output;

describe('date %x %X %Z', () => {
  it('gives 02/18/2021, 06:26:05 AM and JST for Tokyo', () => {
    expect(out('%x', 'Asia/Tokyo')).toBe('02/18/2021');
    expect(out('%X', 'Asia/Tokyo')).toBe('06:26:05 AM');
    expect(out('%Z', 'Asia/Tokyo')).toBe('JST');
    expect(out('%c', 'Asia/Tokyo')).toBe('Thu, Feb 18, 2021 6:26:05 AM JST');
  });
  it('keeps the locale zone name where it has one, the zone abbreviation where it has only an offset', () => {
    expect(out('%Z', 'America/New_York')).toBe('EST');
    expect(out('%Z', 'Europe/Berlin')).toBe('CET');
    expect(out('%Z', 'Europe/Berlin', 'de-DE')).toBe('MEZ');
  });
});

describe('product-price of an unknown product type (issue 45 item 15)', () => {
  const price = (productType: unknown) =>
    render(
      '{@|product-price}',
      { structuredContent: { productType, variants: [{ price: 1000, priceMoney: { value: '10.00', currency: 'USD' } }] } },
      { locale: 'en-US' },
    ).output;
  it('renders an empty price block for a type code that names no type', () => {
    for (const t of [7, 99, -1, 'x']) expect(price(t), String(t)).toBe('\n\n\n<div class="product-price">\n\n</div>');
  });
  it('a known type still shows its price, and a missing type 0', () => {
    expect(price(1)).toContain('10.00');
    expect(price(undefined)).toContain('0.00');
  });
});

describe('bookkeeper-money-format by the locale CLDR resolves (issue 45 item 15)', () => {
  const fmt = (locale: string) => render('{c|bookkeeper-money-format}', { c: 123456 }, { locale }).output;
  it('takes the currency of the resolved region, and prints nothing with no locale', () => {
    expect(fmt('en-US')).toBe('$1,234.56');
    expect(fmt('en-GB')).toBe('£1,234.56');
    expect(fmt('fr')).toContain('€');
    expect(fmt('ja')).toContain('￥');
    expect(fmt('none')).toBe('');
  });
});
