import { afterEach, describe, expect, it } from 'vitest';
import { formatDay, formatWhen, setShopLocale, shopLocale } from '../../../../../src/web/admin/ui/dates.js';

// 31 January 2027, 23:30 UTC: the next day in Tokyo.
const AT = Date.UTC(2027, 0, 31, 23, 30);

describe('/config dates in the shop’s locale and time zone', () => {
  afterEach(() => setShopLocale(undefined, undefined));

  it('writes a day the shop’s way, whatever the browser’s language', () => {
    setShopLocale('en-GB', 'Europe/London');
    expect(formatDay(AT)).toBe('31/01/2027');
    setShopLocale('en-US', 'America/New_York');
    expect(formatDay(AT)).toBe('1/31/2027');
    setShopLocale('ja-JP', 'Asia/Tokyo');
    expect(formatDay(AT)).toBe('2027/2/1');
  });

  it('reads the time off the shop’s clock', () => {
    setShopLocale('en-GB', 'Europe/London');
    expect(formatWhen(AT)).toBe('31/01/2027, 23:30');
    setShopLocale('en-GB', 'Asia/Tokyo');
    expect(formatWhen(AT)).toBe('01/02/2027, 08:30');
  });

  it('falls back to the browser’s ways for a tag or zone that does not parse, rather than failing the screen', () => {
    setShopLocale('not a tag!', 'Mars/Olympus');
    expect(shopLocale()).toBeUndefined();
    expect(formatDay(AT)).toMatch(/2027|27/);
  });
});
