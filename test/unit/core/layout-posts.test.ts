import { describe, it, expect } from 'vitest';
import { BlockType } from '../../../src/core/enums.js';
import { addBlock, createBlock, htmlLayout, layoutTextBlocksHtml, moveBlockUp, validateLayout } from '../../../src/core/layout.js';

let n = 0;
const ids = { newId: (p: string) => `${p}u${++n}` };

describe('a journal post body as a layout (issue 27)', () => {
  it('turns an HTML body into one valid text block, and an empty body into the default text block', () => {
    const l = htmlLayout('<p>Written <em>before</em> blocks.</p>', ids);
    expect(validateLayout(l).ok).toBe(true);
    expect(l.sections).toHaveLength(1);
    expect(l.sections[0]!.blocks.map((b) => [b.type, b.data.html])).toEqual([[BlockType.HTML, '<p>Written <em>before</em> blocks.</p>']]);
    const empty = htmlLayout('  ', ids);
    expect(validateLayout(empty).ok).toBe(true);
    expect(empty.sections[0]!.blocks[0]!.data.html).toBe(createBlock(BlockType.HTML).data.html);
  });

  it('reads the text blocks back in reading order, leaving other blocks out', () => {
    let l = htmlLayout('<p>First</p>', ids);
    const section = l.sections[0]!.id;
    for (const b of [
      createBlock(BlockType.BUTTON, { ...ids, data: { label: 'Go', link: '/go' } }),
      createBlock(BlockType.HTML, { ...ids, data: { html: '<p>Second</p>' } }),
    ]) {
      const r = addBlock(l, section, b);
      if (!r.ok) throw new Error(r.message);
      l = r.layout;
    }
    expect(layoutTextBlocksHtml(l)).toBe('<p>First</p>\n<p>Second</p>');
    const second = l.sections[0]!.blocks[2]!.id;
    const once = moveBlockUp(l, second);
    if (!once.ok) throw new Error(once.message);
    const twice = moveBlockUp(once.layout, second);
    if (!twice.ok) throw new Error(twice.message);
    expect(layoutTextBlocksHtml(twice.layout)).toBe('<p>Second</p>\n<p>First</p>');
  });
});
