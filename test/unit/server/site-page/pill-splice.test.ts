import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { brotliParts, brotliWithPill, gzipParts, gzipWithPill, splitAtPill } from '../../../../src/server/site-page/pill-splice.js';

const EMPTY = Buffer.from('<div data-island="CartPill" data-props="{&quot;totalQuantity&quot;:0}"></div>');

/** A shopper's copy of a page, put together from parts made once per page, decodes to the page with their pill. */
describe('pill splice', () => {
  const cases: Array<[string, string, string, string]> = [
    [
      'a page',
      '<html><body>' + 'Linen — café, 12 € '.repeat(2000),
      '</body><script>x</script></html>',
      '<div data-island="CartPill">3 ✓</div>',
    ],
    ['pill first, nothing after it', '', '', 'p'],
    ['an empty pill of their own', 'before', 'after', ''],
    ['parts past one stored block and one meta-block', 'z'.repeat(200_000), 'y'.repeat(70_000), 'q'.repeat(140_000)],
  ];
  it.each(cases)('%s: gzip and brotli decode to the page with the pill', async (_name, before, after, pill) => {
    const split = splitAtPill(Buffer.from(before + EMPTY.toString() + after), EMPTY)!;
    expect(split).not.toBeNull();
    const [gz, br] = await Promise.all([gzipParts(split), brotliParts(split, 5)]);
    for (const own of [pill, `${pill}2`]) {
      const expected = before + own + after;
      expect(gunzipSync(gzipWithPill(split, gz, Buffer.from(own))).toString()).toBe(expected);
      expect(brotliDecompressSync(brotliWithPill(split, br, Buffer.from(own))).toString()).toBe(expected);
    }
  });

  it('splits only a page that holds the empty pill exactly once', () => {
    expect(splitAtPill(Buffer.from('no pill here'), EMPTY)).toBeNull();
    expect(splitAtPill(Buffer.concat([EMPTY, Buffer.from('x'), EMPTY]), EMPTY)).toBeNull();
    expect(splitAtPill(Buffer.concat([Buffer.from('a'), EMPTY, Buffer.from('b')]), EMPTY)?.prefix.toString()).toBe('a');
  });
});
