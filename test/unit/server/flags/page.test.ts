import { describe, expect, it } from 'vitest';
import { removeCustomScripts, removeDisabledBlocks } from '../../../../src/server/flags/page.js';

describe('beta blocks in rendered content', () => {
  const off = (t: number) => t !== 52 && t !== 46;

  it('removes a switched-off block with everything nested in it, and keeps the rest', () => {
    const html =
      '<p>a</p><div class="sqs-block" data-block-type="52"><div><div>x</div></div><section>y</section></div><p>b</p><div data-block-type="5">img</div>';
    expect(removeDisabledBlocks(html, off)).toBe('<p>a</p><p>b</p><div data-block-type="5">img</div>');
  });

  it('removes several blocks, of other element kinds too, and leaves unclosed markup readable', () => {
    const html = '<section data-block-type="46"><section>in</section></section>mid<div data-block-type="52">d</div>end';
    expect(removeDisabledBlocks(html, off)).toBe('midend');
    expect(removeDisabledBlocks('<div data-block-type="52">never closed', off)).toBe('');
    expect(removeDisabledBlocks('<p>no blocks</p>', off)).toBe('<p>no blocks</p>');
  });
});

describe('safe mode', () => {
  it('removes custom scripts but keeps JSON data islands', () => {
    const html =
      '<p>x</p><script>bad()</script><script type="application/json" id="d">{"a":1}</script><SCRIPT src="/x.js"></SCRIPT><script type="application/ld+json">{}</script>';
    expect(removeCustomScripts(html)).toBe(
      '<p>x</p><script type="application/json" id="d">{"a":1}</script><script type="application/ld+json">{}</script>',
    );
  });
});
