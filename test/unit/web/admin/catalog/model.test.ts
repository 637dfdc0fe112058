import { describe, expect, it } from 'vitest';
import {
  blankVariant,
  combinations,
  DIMENSIONS_HINT,
  isoToZoned,
  regenerate,
  serverVariant,
  suggestSku,
  zonedToIso,
} from '../../../../../src/web/admin/catalog/model.js';

describe('product editor model', () => {
  it('generates one variant per combination of option values, first option slowest', () => {
    const c = combinations([
      { name: 'Size', values: ['S', 'M', 'L'] },
      { name: 'Colour', values: ['Sand', 'Navy'] },
    ]);
    expect(c).toHaveLength(6);
    expect(c[0]).toEqual({ Size: 'S', Colour: 'Sand' });
    expect(c[5]).toEqual({ Size: 'L', Colour: 'Navy' });
    expect(combinations([{ name: 'Size', values: [] }])).toEqual([{}]);
  });

  it('suggests SKUs from the title and values, made distinct; typed SKUs stay', () => {
    expect(suggestSku('Linen Shirt', { Size: 'S', Colour: 'Sand' })).toBe('LINEN-SHIRT-S-SAND');
    expect(suggestSku('Café crème', {})).toBe('CAFE-CREME');
    const one = regenerate('Tee', [{ name: 'Size', values: ['S'] }], [blankVariant('Tee', {})]);
    const typed = [{ ...one[0]!, sku: 'MY-SKU', skuAuto: false, price: '9.00', qtyInStock: '4' }];
    const more = regenerate('Tee', [{ name: 'Size', values: ['S', 'M'] }], typed);
    expect(more.map((v) => v.sku)).toEqual(['MY-SKU', 'TEE-M']);
    // The existing variant keeps its data; the new one copies the first one's price.
    expect(more[0]).toMatchObject({ qtyInStock: '4', price: '9.00' });
    expect(more[1]).toMatchObject({ price: '9.00' });
    // Adding a second option keeps the variant under its first combination.
    const two = regenerate(
      'Tee',
      [
        { name: 'Size', values: ['S', 'M'] },
        { name: 'Colour', values: ['Red', 'Blue'] },
      ],
      more,
    );
    expect(two).toHaveLength(4);
    expect(two[0]).toMatchObject({ sku: 'MY-SKU', attributes: { Size: 'S', Colour: 'Red' }, qtyInStock: '4' });
  });

  it('reads amounts in the currency minor units and refuses what it cannot read', () => {
    const v = { ...blankVariant('x', {}), price: '12.50', salePrice: '9,99', onSale: true, qtyInStock: '3', weight: '0.45' };
    expect(serverVariant(v, 'USD', 0)).toMatchObject({
      errors: {},
      variant: { priceCents: 1250, salePriceCents: 999, onSale: true, qtyInStock: 3, weightGrams: 450 },
    });
    expect(serverVariant({ ...v, price: '1200' }, 'JPY', 0).variant.priceCents).toBe(1200);
    expect(serverVariant({ ...v, price: 'ten' }, 'USD', 2).errors).toEqual({ 'variants.2.priceCents': 'Enter an amount such as 12.50.' });
    expect(serverVariant({ ...v, qtyInStock: '-1' }, 'USD', 0).errors).toHaveProperty('variants.0.qtyInStock');
  });

  it('reads dimensions in the chosen unit: all three or none, numbers 0 or more', () => {
    const v = { ...blankVariant('x', {}), price: '1' };
    expect(serverVariant(v, 'USD', 0).variant.dimensions).toBeNull();
    expect(serverVariant({ ...v, length: '12,5', width: '9', height: '1.25', dimUnit: 'in' as const }, 'USD', 0)).toMatchObject({
      errors: {},
      variant: { dimensions: { unit: 'in', length: 12.5, width: 9, height: 1.25 } },
    });
    expect(serverVariant({ ...v, length: '12', width: '', height: '3' }, 'USD', 1).errors).toEqual({
      'variants.1.dimensions': DIMENSIONS_HINT,
    });
    expect(serverVariant({ ...v, length: '12', width: '-1', height: '3' }, 'USD', 0).errors).toEqual({
      'variants.0.dimensions': DIMENSIONS_HINT,
    });
    expect(serverVariant({ ...v, length: 'long', width: '1', height: '3' }, 'USD', 0).variant.dimensions).toBeNull();
  });

  it('reads a wall-clock time in the site time zone, across daylight saving', () => {
    expect(zonedToIso('2026-07-01T09:30', 'Europe/London')).toBe('2026-07-01T08:30:00.000Z');
    expect(zonedToIso('2026-01-15T09:30', 'Europe/London')).toBe('2026-01-15T09:30:00.000Z');
    expect(zonedToIso('2026-03-08T12:00', 'America/New_York')).toBe('2026-03-08T16:00:00.000Z');
    expect(isoToZoned('2026-07-01T08:30:00.000Z', 'Europe/London')).toBe('2026-07-01T09:30');
    expect(zonedToIso('tomorrow', 'UTC')).toBeNull();
  });
});
