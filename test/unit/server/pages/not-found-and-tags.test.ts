/** The not-found answer's pure helpers and the page validators (pages/not-found.ts, pages/revalidate.ts). */
import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { isFilePath, isSameSitePath, looseSegments } from '../../../../src/server/pages/not-found.js';
import { matches, nonceOfPolicy, pageTag } from '../../../../src/server/pages/revalidate.js';

describe('looseSegments', () => {
  it('gives the segments of a path with trailing slashes or capitals', () => {
    expect(looseSegments('/shop/')).toEqual(['shop']);
    expect(looseSegments('/shop///')).toEqual(['shop']);
    expect(looseSegments('/Shop/P/Tee')).toEqual(['Shop', 'P', 'Tee']);
  });
  it('leaves alone a path with nothing to normalise, and any path with an empty segment', () => {
    for (const p of ['/', '/shop', '/shop/p/tee', '//evil.example', '//evil.example/', '///x/', '/shop//p/', '', 'shop/'])
      expect(looseSegments(p), p).toBeNull();
  });
  it('is linear on a long run of slashes', () => {
    const start = performance.now();
    expect(looseSegments(`/a${'/'.repeat(200_000)}b/`)).toBeNull();
    expect(performance.now() - start).toBeLessThan(500);
  });
});

describe('isSameSitePath and isFilePath', () => {
  it('allows only one leading slash and no backslash', () => {
    expect(isSameSitePath('/shop?x=1')).toBe(true);
    for (const p of ['//evil.example', '/\\evil.example', 'https://evil.example', 'shop']) expect(isSameSitePath(p), p).toBe(false);
  });
  it('knows asset folders and file extensions, not page addresses', () => {
    for (const p of ['/assets/x.js', '/static/a', '/logo.PNG', '/wp-login.php', '/journal/pic.jpg']) expect(isFilePath(p), p).toBe(true);
    for (const p of ['/shop', '/journal/version-1.2', '/shop/p/tee', '/.', '/a.']) expect(isFilePath(p), p).toBe(false);
  });
});

describe('pageTag', () => {
  const page = (nonce: string) => `<script nonce="${nonce}">a</script><p>x</p><script nonce="${nonce}">b</script>`;
  it('is the same for two renders that differ only by their nonce, whole or in parts, string or bytes', () => {
    const a = pageTag(page('AAAAAAAAAAAAAAAAAAAAAA=='), 'AAAAAAAAAAAAAAAAAAAAAA==', 'br');
    const b = pageTag(page('BBBBBBBBBBBBBBBBBBBBBB=='), 'BBBBBBBBBBBBBBBBBBBBBB==', 'br');
    expect(a).toBe(b);
    const text = page('CCCCCCCCCCCCCCCCCCCCCC==');
    expect(pageTag([text.slice(0, 40), text.slice(40)], 'CCCCCCCCCCCCCCCCCCCCCC==', 'br')).toBe(a);
    expect(pageTag(Buffer.from(text), 'CCCCCCCCCCCCCCCCCCCCCC==', 'br')).toBe(a);
  });
  it('changes with the content and with the coding', () => {
    const n = 'AAAAAAAAAAAAAAAAAAAAAA==';
    const a = pageTag(page(n), n, 'br');
    expect(pageTag(page(n).replace('<p>x</p>', '<p>y</p>'), n, 'br')).not.toBe(a);
    expect(pageTag(page(n), n, 'gzip')).not.toBe(a);
    expect(pageTag(page(n), n, null)).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });
  it('reads the nonce back from a policy', () => {
    expect(nonceOfPolicy("script-src 'nonce-ab+/c==' 'strict-dynamic'")).toBe('ab+/c==');
    expect(nonceOfPolicy("default-src 'self'")).toBeNull();
    expect(nonceOfPolicy(null)).toBeNull();
  });
});

describe('matches', () => {
  const req = (h?: string) => ({ headers: h === undefined ? {} : { 'if-none-match': h } }) as unknown as FastifyRequest;
  it('compares If-None-Match weakly, in a list, and takes *', () => {
    expect(matches(req('"a"'), '"a"')).toBe(true);
    expect(matches(req('W/"a"'), '"a"')).toBe(true);
    expect(matches(req('"b", "a"'), '"a"')).toBe(true);
    expect(matches(req('*'), '"a"')).toBe(true);
    expect(matches(req('"b"'), '"a"')).toBe(false);
    expect(matches(req(), '"a"')).toBe(false);
  });
});
