/**
 * The bulk editor's model (pure functions, tested in test/unit/web/admin/catalog/bulk-model.test.ts): a variant's
 * cells as the owner reads and types them (amounts in the store currency, weight in kilograms), and the changes
 * the typed text makes, or the message of each cell that cannot be read.
 */
import { moneyDecimalString, toMinorUnits } from '../../../core/money.js';
import { shipsAsParcel, type BulkEditChange, type BulkEditVariant } from '../../../core/api/catalog.js';
import { AMOUNT_HINT } from './model.js';

export const BULK_FIELDS = ['sku', 'priceCents', 'salePriceCents', 'qtyInStock', 'weightGrams'] as const;
export type BulkField = (typeof BULK_FIELDS)[number];
export const BULK_LABELS: Record<BulkField, string> = {
  sku: 'SKU',
  priceCents: 'Price',
  salePriceCents: 'Sale price',
  qtyInStock: 'Stock',
  weightGrams: 'Weight (kg)',
};
export const STOCK_HINT = 'Stock must be a whole number, 0 or more.';
export const WEIGHT_HINT = 'Enter a weight in kilograms such as 0.45.';
export const SKU_HINT = 'Every variant needs a SKU.';

/** The cell's key: `<variantId>.<field>`, as the server keys a refused cell. */
export const cellKey = (variantId: string, field: BulkField) => `${variantId}.${field}`;

/** Whether the cell can be edited: stock only when counted, weight only for what ships as a parcel. */
export function editable(v: BulkEditVariant, field: BulkField, productType: number): boolean {
  if (field === 'qtyInStock') return !v.unlimited;
  if (field === 'weightGrams') return shipsAsParcel(productType);
  return true;
}

/** A variant's cells as text. */
export function cellsOf(v: BulkEditVariant, currency: string): Record<BulkField, string> {
  return {
    sku: v.sku,
    priceCents: moneyDecimalString(v.priceCents, currency),
    salePriceCents: v.salePriceCents === null ? '' : moneyDecimalString(v.salePriceCents, currency),
    qtyInStock: String(v.qtyInStock),
    weightGrams: v.weightGrams ? String(v.weightGrams / 1000) : '0',
  };
}

function amount(text: string, currency: string): number | null {
  try {
    const n = toMinorUnits(text.trim().replace(',', '.'), currency);
    return n < 0 ? null : n;
  } catch {
    return null;
  }
}

/** One cell's text read as the server's value, or its message. */
export function readCell(field: BulkField, text: string, currency: string): { value: string | number | null } | { error: string } {
  const t = text.trim();
  if (field === 'sku') return t ? { value: t } : { error: SKU_HINT };
  if (field === 'salePriceCents' && !t) return { value: null };
  if (field === 'priceCents' || field === 'salePriceCents') {
    const n = t ? amount(t, currency) : null;
    return n === null ? { error: AMOUNT_HINT } : { value: n };
  }
  if (field === 'qtyInStock') {
    const n = Number(t);
    return t && Number.isInteger(n) && n >= 0 ? { value: n } : { error: STOCK_HINT };
  }
  const kg = Number(t.replace(',', '.'));
  return t && Number.isFinite(kg) && kg >= 0 ? { value: Math.round(kg * 1000) } : { error: WEIGHT_HINT };
}

/**
 * The changes that `typed` (cell key -> text) makes to `variants`: only cells whose value differs from the stored
 * one are sent. Cells that cannot be read are answered as errors, keyed as the cells.
 */
export function changesOf(
  variants: Array<BulkEditVariant & { productType: number }>,
  typed: Record<string, string>,
  currency: string,
): { changes: BulkEditChange[]; errors: Record<string, string> } {
  const changes: BulkEditChange[] = [];
  const errors: Record<string, string> = {};
  for (const v of variants) {
    const change: Record<string, unknown> = {};
    for (const field of BULK_FIELDS) {
      const key = cellKey(v.id, field);
      if (!(key in typed) || !editable(v, field, v.productType)) continue;
      const read = readCell(field, typed[key]!, currency);
      if ('error' in read) errors[key] = read.error;
      else if (read.value !== v[field]) change[field] = read.value;
    }
    if (Object.keys(change).length) changes.push({ variantId: v.id, ...change });
  }
  return { changes, errors };
}
