import { describe, expect, it } from 'vitest';
import { parseRedirects, RedirectTable, formatRedirects } from '../../../../src/server/seo/redirects.js';
import { absoluteHtml, rfc822, xmlText } from '../../../../src/server/seo/xml.js';
import { canonicalUrl } from '../../../../src/server/seo/head.js';
import { seo as text } from '../../../../src/core/messages.js';

describe('URL mappings text', () => {
  it('reads rules, skips blank and comment lines, and reports each invalid line by number', () => {
    const { rules, errors } = parseRedirects(
      '# a comment\n\n/a -> /b 301\n/c -> https://elsewhere.example/d 302\n/e -> /f\n/g* -> /h/*\n/i*j -> /k\n/l -> //evil.example\n/m -> /n/* 301\n/a -> /z\n/same -> /same\n',
    );
    expect(rules).toEqual([
      { from: '/a', to: '/b', status: 301 },
      { from: '/c', to: 'https://elsewhere.example/d', status: 302 },
      { from: '/e', to: '/f', status: 301 },
      { from: '/g*', to: '/h/*', status: 301 },
    ]);
    expect(errors).toEqual([
      { line: 7, message: text.RULE_WILDCARD },
      { line: 8, message: text.RULE_TARGET },
      { line: 9, message: text.RULE_TARGET_WILDCARD },
      { line: 10, message: text.ruleDuplicate('/a') },
      { line: 11, message: text.RULE_LOOP },
    ]);
    expect(formatRedirects(rules).split('\n')[0]).toBe('/a -> /b 301');
  });

  it('matches exact rules before wildcards and longer wildcards first, keeps the query, never answers the same address', () => {
    const t = new RedirectTable([
      { from: '/shop/*', to: '/store/*', status: 301 },
      { from: '/shop/old/*', to: '/archive/*', status: 302 },
      { from: '/shop/special', to: '/deals', status: 301 },
      { from: '/loop*', to: '/loop', status: 301 },
    ]);
    expect(t.match('/shop/hat?x=1')).toEqual({ location: '/store/hat?x=1', status: 301 });
    expect(t.match('/SHOP/old/boot')).toEqual({ location: '/archive/boot', status: 302 });
    expect(t.match('/shop/special/')).toEqual({ location: '/deals', status: 301 });
    expect(t.match('/loop')).toBeNull();
    expect(t.match('/nothing')).toBeNull();
    expect(t.match(`/shop/${'x'.repeat(10_000)}`)).toBeNull();
  });
});

describe('feed helpers', () => {
  it('RFC 822 dates, escaped XML text, absolute links in owner HTML', () => {
    expect(rfc822(new Date(Date.UTC(2026, 10, 4, 9, 5, 7)))).toBe('Wed, 04 Nov 2026 09:05:07 GMT');
    expect(xmlText('a & <b> "c" \u0001')).toBe('a &amp; &lt;b&gt; &quot;c&quot; ');
    expect(
      absoluteHtml(
        'https://s.example',
        '<a href="/x">x</a><img src="/y.jpg"><a href="//cdn.example/z">z</a><a href="https://o.example/">o</a>',
      ),
    ).toBe(
      '<a href="https://s.example/x">x</a><img src="https://s.example/y.jpg"><a href="//cdn.example/z">z</a><a href="https://o.example/">o</a>',
    );
  });

  it('canonical addresses keep what picks the content and drop the rest', () => {
    expect(canonicalUrl('https://s.example', '/journal', { page: '3', utm_source: 'x', gclid: 'y', format: 'json' })).toBe(
      'https://s.example/journal?page=3',
    );
    expect(canonicalUrl('https://s.example', '/journal', { page: '1', tag: 'coffee' })).toBe('https://s.example/journal?tag=coffee');
    expect(canonicalUrl('https://s.example', '/journal', { page: 'x' })).toBe('https://s.example/journal');
  });
});
