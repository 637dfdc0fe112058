import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../../src/core/html';

describe('escapeHtml', () => {
  it('turns the five HTML special characters into entities', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    );
  });

  it('escapes an ampersand once, so existing entities are shown as written', () => {
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });

  it('leaves other text alone', () => {
    expect(escapeHtml('Café – 10 €')).toBe('Café – 10 €');
  });

  it('turns other values into text first', () => {
    expect(escapeHtml(null)).toBe('');
    expect(escapeHtml(undefined)).toBe('');
    expect(escapeHtml(42)).toBe('42');
  });
});
