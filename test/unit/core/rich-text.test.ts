import { describe, expect, it } from 'vitest';
import {
  ENTER_A_LINK,
  checkTextLink,
  isRichTextAttribute,
  isSafeHref,
  unsafeLinkMessage,
  RICH_TEXT_TAGS,
} from '../../../src/core/rich-text.js';
import { safeHtml } from '../../../src/server/editor/render.js';
import { platform } from '../../../src/core/messages.js';

describe('rich-text allow-list (shared by the editor and the public page)', () => {
  it('the server keeps exactly the listed formatting (images with a safe source and a text alternative) and drops scripts, handlers, styles and classes', () => {
    const html =
      '<p class="x" style="color:red" onclick="steal()" lang="en">A <strong>bold</strong> <b>b</b> <em>it</em> <i>i</i> <a href="/shop" onmouseover="x()">link</a></p>' +
      '<script>alert(1)</script><ul><li>one</li></ul><ol><li>two</li></ol><h2>Head</h2><h3>Sub</h3><img src="x" onerror="alert(1)"><div>div text</div>';
    expect(safeHtml(html)).toBe(
      '<p lang="en">A <strong>bold</strong> <b>b</b> <em>it</em> <i>i</i> <a href="/shop">link</a></p><ul><li>one</li></ul><ol><li>two</li></ol><h2>Head</h2><h3>Sub</h3><img src="x" alt="" />div text',
    );
    expect(
      safeHtml('<a href="javascript:alert(1)">x</a><a href="mailto:a@b.co">m</a><a href="tel:+1555">t</a><a href="//evil.example">p</a>'),
    ).toBe('<a>x</a><a href="mailto:a@b.co">m</a><a href="tel:+1555">t</a><a>p</a>');
    expect(safeHtml('<a href="https://x.example" target="_blank">n</a>')).toBe(
      '<a href="https://x.example" target="_blank" rel="noopener noreferrer">n</a>',
    );
    for (const t of ['strong', 'em', 'a', 'ul', 'ol', 'li', 'h2', 'h3', 'p', 'br']) expect(RICH_TEXT_TAGS).toContain(t);
  });

  it('attributes and hrefs are judged the way sanitize-html judges them', () => {
    expect(isRichTextAttribute('a', 'href')).toBe(true);
    expect(isRichTextAttribute('p', 'lang')).toBe(true);
    expect(isRichTextAttribute('p', 'class')).toBe(false);
    expect(isRichTextAttribute('a', 'onclick')).toBe(false);
    for (const ok of ['/shop', '#top', 'https://www.example.com', 'http://a.example/x?y#z', 'mailto:a@b.co', 'tel:+15550100', 'page.html'])
      expect(isSafeHref(ok), ok).toBe(true);
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' java\tscript:alert(1)',
      'java\nscript:x',
      'data:text/html,<b>',
      'vbscript:x',
      '//evil.example',
      '\\\\evil.example',
      'ftp://x.example',
    ])
      expect(isSafeHref(bad), bad).toBe(false);
  });

  it('the link field keeps http(s), mailto:, tel: and site paths, and refuses other schemes in words', () => {
    expect(checkTextLink(' /shop ')).toEqual({ ok: true, value: '/shop' });
    expect(checkTextLink('https://www.example.com/a')).toEqual({ ok: true, value: 'https://www.example.com/a' });
    expect(checkTextLink('www.example.com')).toEqual({ ok: true, value: 'https://www.example.com' });
    expect(checkTextLink('mailto:hello@example.com')).toEqual({ ok: true, value: 'mailto:hello@example.com' });
    expect(checkTextLink('tel:+1 555 0100')).toEqual({ ok: true, value: 'tel:+1 555 0100' });
    expect(checkTextLink('javascript:alert(1)')).toEqual({ ok: false, message: unsafeLinkMessage('javascript') });
    expect(checkTextLink('JAVASCRIPT:alert(1)')).toEqual({ ok: false, message: unsafeLinkMessage('javascript') });
    expect(checkTextLink('java script:alert(1)')).toEqual({ ok: false, message: unsafeLinkMessage('javascript') });
    expect(checkTextLink('data:text/html,hi')).toEqual({ ok: false, message: unsafeLinkMessage('data') });
    expect(checkTextLink('//evil.example')).toMatchObject({ ok: false });
    expect(checkTextLink('')).toEqual({ ok: false, message: ENTER_A_LINK });
    expect(checkTextLink('not a link')).toEqual({
      ok: false,
      message: platform.linksFormattedAs('https://www.example.com', 'www.example.com'),
    });
  });
});
