import { describe, expect, it } from 'vitest';
import { HISTORY_LIMIT, record, redo, startHistory, undo } from '../../../../../../src/web/admin/content/editor/history.js';
import { blockName, readTextBlock, writeTextBlock } from '../../../../../../src/web/admin/content/editor/blocks.js';
import { createBlock } from '../../../../../../src/core/layout.js';
import { BlockType } from '../../../../../../src/core/enums.js';

describe('editor undo history', () => {
  it('undoes and redoes in order, and a new edit drops the redo list', () => {
    let h = startHistory('a');
    h = record(h, 'b');
    h = record(h, 'c');
    h = undo(h);
    expect(h.present).toBe('b');
    h = undo(h);
    expect(h.present).toBe('a');
    expect(undo(h)).toBe(h);
    h = redo(h);
    expect(h.present).toBe('b');
    h = record(h, 'd');
    expect(h.future).toEqual([]);
    expect(redo(h)).toBe(h);
    expect(h.past).toEqual(['a', 'b']);
  });

  it('an edit that changes nothing is not a step, and at most HISTORY_LIMIT steps are kept', () => {
    const h0 = startHistory(0);
    expect(record(h0, 0)).toBe(h0);
    let h = h0;
    for (let i = 1; i <= HISTORY_LIMIT + 20; i++) h = record(h, i);
    expect(h.past.length).toBe(HISTORY_LIMIT);
    expect(h.past[0]).toBe(20);
  });
});

describe('text block formats', () => {
  it('reads and writes headings and paragraphs, escaping what the owner types', () => {
    expect(writeTextBlock('h2', 'Fish & <chips>')).toBe('<h2>Fish &amp; &lt;chips&gt;</h2>');
    expect(readTextBlock('<h2>Fish &amp; &lt;chips&gt;</h2>')).toEqual({ format: 'h2', text: 'Fish & <chips>' });
    const html = writeTextBlock('p', 'One\nline two\n\nSecond');
    expect(html).toBe('<p>One<br>line two</p><p>Second</p>');
    expect(readTextBlock(html)).toEqual({ format: 'p', text: 'One\nline two\n\nSecond' });
  });

  it('keeps richer HTML as HTML', () => {
    expect(readTextBlock('<p>A <strong>bold</strong> word</p>')).toEqual({ format: 'html', text: '<p>A <strong>bold</strong> word</p>' });
    expect(writeTextBlock('html', '<ul><li>x</li></ul>')).toBe('<ul><li>x</li></ul>');
  });

  it('names blocks for the canvas and screen readers', () => {
    expect(blockName(createBlock(BlockType.HTML, { data: { html: '<h2>Spring</h2>' } }))).toBe('Heading: Spring');
    expect(blockName(createBlock(BlockType.BUTTON, { data: { label: 'Shop now' } }))).toBe('Button: Shop now');
    expect(blockName(createBlock(BlockType.PRODUCT, { data: { productId: 'p1' } }), [{ id: 'p1', title: 'Mug' }])).toBe('Product: Mug');
    expect(blockName(createBlock(BlockType.TOCK))).toBe('Tock: placeholder');
  });
});
