import { describe, expect, it } from 'vitest';
import { render } from '../../../src/template/index.js';
import { formatMoney, formatMoneyAmount } from '../../../src/core/money.js';

describe('money in templates goes through core money', () => {
  it('core formats the amount alone exactly, grouped with commas', () => {
    expect(formatMoneyAmount(123450, 'USD')).toBe('1,234.50');
    expect(formatMoneyAmount(123450, 'JPY')).toBe('123,450');
    expect(formatMoneyAmount('999999999999999', 'JPY')).toBe('999,999,999,999,999');
    expect(formatMoneyAmount(-5, 'USD')).toBe('-0.05');
  });

  it('the money formatter renders minor units with core formatMoney, exact to 15 integer places', () => {
    const json = {
      a: { value: '123450', currency: 'USD' },
      b: { value: '123450', currency: 'JPY' },
      c: { value: '99999999999999999', currency: 'USD' },
      d: { value: '1999', currency: 'HUF' },
    };
    const out = render('{a|money}|{b|money}|{c|money}|{d|money}', json, { locale: 'en-US' }).output;
    expect(out).toBe(
      [formatMoney(123450, 'USD'), formatMoney(123450, 'JPY'), formatMoney('99999999999999999', 'USD'), formatMoney(1999, 'HUF')].join('|'),
    );
    expect(out.split('|')[2]).toBe('$999,999,999,999,999.99');
  });
});
