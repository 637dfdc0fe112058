import { describe, expect, it } from 'vitest';
import {
  cellKey,
  cellsOf,
  changesOf,
  editable,
  readCell,
  STOCK_HINT,
  WEIGHT_HINT,
} from '../../../../../src/web/admin/catalog/bulk-model.js';
import { stockWords } from '../../../../../src/web/admin/catalog/model.js';
import { AMOUNT_HINT } from '../../../../../src/web/admin/catalog/model.js';
import { ProductType } from '../../../../../src/core/enums.js';

const variant = {
  id: 'v1',
  name: 'S',
  sku: 'TEE-S',
  priceCents: 1250,
  salePriceCents: null,
  qtyInStock: 3,
  unlimited: false,
  weightGrams: 450,
};

describe('the bulk editor model', () => {
  it('shows a variant’s cells in the store currency and kilograms', () => {
    expect(cellsOf(variant, 'GBP')).toEqual({
      sku: 'TEE-S',
      priceCents: '12.50',
      salePriceCents: '',
      qtyInStock: '3',
      weightGrams: '0.45',
    });
    expect(cellsOf({ ...variant, salePriceCents: 999, weightGrams: 0 }, 'JPY')).toMatchObject({ salePriceCents: '999', weightGrams: '0' });
  });

  it('reads typed cells, or answers the message of the cell', () => {
    expect(readCell('priceCents', '12,5', 'EUR')).toEqual({ value: 1250 });
    expect(readCell('priceCents', 'twelve', 'EUR')).toEqual({ error: AMOUNT_HINT });
    expect(readCell('priceCents', '', 'EUR')).toEqual({ error: AMOUNT_HINT });
    expect(readCell('salePriceCents', ' ', 'EUR')).toEqual({ value: null });
    expect(readCell('qtyInStock', '2.5', 'EUR')).toEqual({ error: STOCK_HINT });
    expect(readCell('weightGrams', '1.2', 'EUR')).toEqual({ value: 1200 });
    expect(readCell('weightGrams', '-1', 'EUR')).toEqual({ error: WEIGHT_HINT });
    expect(readCell('sku', '  ', 'EUR')).toEqual({ error: 'Every variant needs a SKU.' });
  });

  it('sends only the cells that change a value, and never stock of unlimited variants or weight of digital products', () => {
    const rows = [
      { ...variant, productType: ProductType.PHYSICAL },
      { ...variant, id: 'v2', unlimited: true, productType: ProductType.DIGITAL },
    ];
    expect(editable(rows[1]!, 'qtyInStock', ProductType.DIGITAL)).toBe(false);
    expect(editable(rows[1]!, 'weightGrams', ProductType.GIFT_CARD)).toBe(false);
    const typed = {
      [cellKey('v1', 'priceCents')]: '12.50',
      [cellKey('v1', 'weightGrams')]: '0.5',
      [cellKey('v1', 'salePriceCents')]: '',
      [cellKey('v2', 'qtyInStock')]: '9',
      [cellKey('v2', 'weightGrams')]: '1',
      [cellKey('v2', 'priceCents')]: '8',
    };
    expect(changesOf(rows, typed, 'USD')).toEqual({
      changes: [
        { variantId: 'v1', weightGrams: 500 },
        { variantId: 'v2', priceCents: 800 },
      ],
      errors: {},
    });
    expect(changesOf(rows, { [cellKey('v1', 'priceCents')]: 'x' }, 'USD').errors).toEqual({ 'v1.priceCents': AMOUNT_HINT });
  });
});

describe('the product list’s stock words', () => {
  const v = (qtyInStock: number, unlimited = false) => ({ qtyInStock, unlimited });
  it('says Unlimited only when every variant is, and names unlimited and sold-out variants beside the count', () => {
    expect(stockWords({ variants: [v(4), v(0, true), v(2), v(6), v(1), v(0)] })).toBe(
      '13 in stock for 5 variants, 1 unlimited, 1 sold out',
    );
    expect(stockWords({ variants: [v(0, true), v(0, true)] })).toBe('Unlimited');
    expect(stockWords({ variants: [v(3), v(2)] })).toBe('5 in stock for 2 variants');
    expect(stockWords({ variants: [v(0)] })).toBe('0 in stock');
    expect(stockWords({ variants: [] })).toBe('No variants');
  });
});
