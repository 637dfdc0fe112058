/** The server's query-string parser (depth 5, array limit 20, parameter limit 1000). */
import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../../../../src/server/plugins/querystring.js';

describe('parseQueryString', () => {
  it('reads plain keys, repeated keys as arrays, and decodes + and percent escapes', () => {
    expect(parseQueryString('a=1&b=x+y&c=%C3%A9&a=2&d')).toEqual({ a: ['1', '2'], b: 'x y', c: 'é', d: '' });
    expect(parseQueryString('')).toEqual({});
    expect(parseQueryString('&&a=1&')).toEqual({ a: '1' });
    expect(parseQueryString('bad=%E0%A4%A')).toEqual({ bad: '%E0%A4%A' });
  });

  it('nests brackets: ?itemId[a][b]=x is an object, not a key named "itemId[a][b]"', () => {
    expect(parseQueryString('itemId[a][b]=x')).toEqual({ itemId: { a: { b: 'x' } } });
    expect(parseQueryString('a[]=1&a[]=2&a[5]=z')).toEqual({ a: ['1', '2', 'z'] });
    expect(parseQueryString('a%5Bb%5D=1')).toEqual({ a: { b: '1' } });
  });

  it('nests at most 5 levels deep; the brackets past that stay one key', () => {
    expect(parseQueryString('a[b][c][d][e][f]=x')).toEqual({ a: { b: { c: { d: { e: { f: 'x' } } } } } });
    expect(parseQueryString('a[b][c][d][e][f][g][h]=x')).toEqual({ a: { b: { c: { d: { e: { f: { '[g][h]': 'x' } } } } } } });
  });

  it('keeps arrays within 20 entries: an index past 20 or a 21st entry makes the array an object', () => {
    expect(parseQueryString('a[20]=x')).toEqual({ a: ['x'] });
    expect(parseQueryString('a[21]=x')).toEqual({ a: { 21: 'x' } });
    expect(parseQueryString('a[999999999]=x')).toEqual({ a: { 999999999: 'x' } });
    const twenty = Array.from({ length: 20 }, (_, i) => `a[]=${i}`).join('&');
    expect(parseQueryString(twenty).a).toHaveLength(20);
    const more = parseQueryString(`${twenty}&a[]=20`).a as Record<string, string>;
    expect(Array.isArray(more)).toBe(false);
    expect(Object.keys(more)).toHaveLength(21);
    expect(more['20']).toBe('20');
    const repeated = parseQueryString(Array.from({ length: 25 }, (_, i) => `r=${i}`).join('&')).r as Record<string, string>;
    expect(Array.isArray(repeated)).toBe(false);
    expect(repeated['24']).toBe('24');
  });

  it('reads only the first 1000 parameters', () => {
    const names = Array.from({ length: 1200 }, (_, i) => `p${i}=${i}`);
    const parsed = parseQueryString(names.join('&'));
    expect(Object.keys(parsed)).toHaveLength(1000);
    expect(parsed.p999).toBe('999');
    expect(parsed.p1000).toBeUndefined();
  });

  it('drops prototype keys', () => {
    const parsed = parseQueryString('__proto__[polluted]=1&a[__proto__][x]=1&constructor[prototype][y]=2');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(parsed).toEqual({ a: {} });
  });
});
