/** Issue 45 item 8: a link check accepts every form its message promises and refuses the rest. */
import { describe, expect, it } from 'vitest';
import { checkLink, webLink } from '../../../src/core/layout.js';

describe('web links', () => {
  it('accepts bare domains, with paths, queries and fragments, subdomains, ports and IDNs, storing them with https://', () => {
    for (const v of [
      'example.com',
      'www.example.com',
      'shop.example.co.uk',
      'example.com/about',
      'example.com/a/b?x=1#top',
      'example.com:8080/x',
      'bücher.de',
      '例え.jp/パス',
      'xn--bcher-kva.de',
      'a-b.example',
      'example.com/',
    ])
      expect(webLink(v), v).toBe(`https://${v}`);
    expect(checkLink('example.com')).toEqual({ ok: true, value: 'https://example.com' });
  });

  it('accepts http(s) URLs as typed, localhost and IPv4 with a scheme', () => {
    for (const v of [
      'https://example.com',
      'http://example.com/x?y',
      'HTTPS://Example.COM/A',
      'https://bücher.de',
      'http://localhost:3000/',
      'https://127.0.0.1/x',
    ])
      expect(webLink(v), v).toBe(v);
  });

  it('refuses the rest', () => {
    for (const v of [
      'example',
      'localhost',
      '127.0.0.1',
      'exa mple.com',
      'example.com/a b',
      '-example.com',
      'example-.com',
      'example..com',
      '.example.com',
      'example.com.',
      'a@example.com',
      'https://user:pw@example.com',
      'javascript:alert(1)',
      'ftp://example.com',
      'https://',
      'https://example',
      'example.123',
      'example.com\\evil',
      'exa\u0000mple.com',
      `${'a'.repeat(64)}.com`,
      'https:example.com',
      'data:text/html,x',
      '//example.com',
    ])
      expect(webLink(v), JSON.stringify(v)).toBeNull();
    expect(checkLink('example').ok).toBe(false);
  });

  it('answers long hostile input at once (no backtracking)', () => {
    const long = 'a.'.repeat(900) + '!';
    expect(webLink(long)).toBeNull();
    expect(webLink('a'.repeat(1990) + '.com')).toBeNull();
  });
});
