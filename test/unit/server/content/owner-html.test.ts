import { describe, expect, it } from 'vitest';
import { cleanOwnerHtml, ownerHtmlInternals } from '../../../../src/server/content/owner-html.js';

const { alreadyClean, sanitize } = ownerHtmlInternals;

/** A fixed pseudo-random sequence (mulberry32), so a failure names a reproducible input. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('owner HTML: the quick check of bodies the cleaner would not change', () => {
  it('lets through only what the cleaner gives back unchanged (random bodies from tags, text and markup characters)', () => {
    const rand = random(28);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
    const tags = ['p', 'h2', 'strong', 'em', 'b', 'span', 'code', 'sub', 'li', 'div', 'script', 'br', 'a', 'img', 'P'];
    const texts = [
      'Linen shirt',
      ' ',
      '\n',
      '\t',
      "don't",
      '"quoted"',
      'a & b',
      '&amp;',
      '&nbsp;',
      '<',
      '>',
      'é ✓ 🙂',
      '\r',
      '\u0000',
      '\u2028',
      '=',
      '/',
      'x y',
    ];
    let clean = 0;
    for (let n = 0; n < 20_000; n++) {
      let html = '';
      const parts = 1 + Math.floor(rand() * 8);
      for (let k = 0; k < parts; k++) {
        const r = rand();
        if (r < 0.35) html += pick(texts);
        else if (r < 0.65) html += `<${pick(tags)}>`;
        else if (r < 0.95) html += `</${pick(tags)}>`;
        else html += pick(['<p class="x">', '<p >', '</ p>', '<!-- c -->', '<p/>', '<br/>']);
      }
      if (alreadyClean(html)) {
        clean++;
        expect(sanitize(html), JSON.stringify(html)).toBe(html);
      }
    }
    // The generator reaches the quick path often enough for the comparison to mean something.
    expect(clean).toBeGreaterThan(500);
  });

  it('well-formed paragraphs and headings with inline emphasis pass; the rest is cleaned as before', () => {
    const ok = [
      '<p>Linen shirt, number 12.</p>',
      '<p>Part 1: linen and shirts.</p><p>Second paragraph.</p>',
      '<h2>Care</h2>\n<p>Wash <strong>cold</strong>, <em>don\'t</em> tumble "dry".</p>',
      'Just text',
    ];
    for (const html of ok) {
      expect(alreadyClean(html)).toBe(true);
      expect(sanitize(html)).toBe(html);
      expect(cleanOwnerHtml(html)).toBe(html);
    }
    const cleaned = [
      '<p>a <a href="/x">b</a></p>',
      '<p><p>nested</p></p>',
      '<p>a &amp; b</p>',
      '<p>open',
      '<strong><p>x</p></strong>',
      '<p class="x">y</p>',
      '<p>a<br>b</p>',
      '<div>x</div>',
    ];
    for (const html of cleaned) {
      expect(alreadyClean(html)).toBe(false);
      expect(cleanOwnerHtml(html)).toBe(sanitize(html));
    }
  });
});
