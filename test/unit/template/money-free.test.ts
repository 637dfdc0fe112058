/** Issue 45 item 1: the money formatter's `free:` label belongs to the instruction that names it, whatever rendered first. */
import { describe, expect, it } from 'vitest';
import { render } from '../../../src/template/index.js';

const out = (tpl: string, json: unknown) => render(tpl, json, { locale: 'en-US' }).output;

describe('money free: label in one process', () => {
  it('a labelled zero first does not make later plain zeros print the label', () => {
    const zero = { a: { value: '0', currency: 'EUR' } };
    expect(out('{a|money free:Free}', zero)).toBe('Free');
    expect(out('{a|money}', zero)).toBe('€0.00');
    expect(out('{a|money free:Gratis}', zero)).toBe('Gratis');
    expect(out('{a|money}', zero)).toBe('€0.00');
  });

  it('a plain zero first does not make later labels ignored', () => {
    const zero = { a: { value: '0', currency: 'GBP' } };
    expect(out('{a|money}', zero)).toBe('£0.00');
    expect(out('{a|money free:Free}', zero)).toBe('Free');
    expect(out('{a|money free:Complimentary}', zero)).toBe('Complimentary');
    expect(out('{a|money}', zero)).toBe('£0.00');
  });

  it('the label also goes with other options, and only zero takes it', () => {
    const zero = { a: { value: '0', currency: 'CAD' }, b: { value: '150', currency: 'CAD' } };
    expect(out('{a|money style:code}', zero)).toBe(out('{a|money style:code}', zero));
    const plain = out('{a|money style:code}', zero);
    expect(out('{a|money style:code free:Free}', zero)).toBe('Free');
    expect(out('{a|money style:code}', zero)).toBe(plain);
    expect(out('{b|money free:Free}', zero)).toBe(out('{b|money}', zero));
  });
});
