/**
 * The product editor's model (pure functions, tested in test/unit/web/admin/catalog/model.test.ts): options and the variant
 * matrix they generate, suggested SKUs, amounts in the store currency's minor units, wall-clock times in the
 * site's time zone, and the product list's stock in words.
 */
import { suggestSku } from '../../../core/product.js';
import { moneyDecimalString, toMinorUnits } from '../../../core/money.js';
import type { DimensionUnit, ProductVariant, VariantDimensions } from '../../../core/api/catalog.js';
import { zoneOffsetAt } from '../../../core/time.js';

export interface ProductOption {
  name: string;
  values: string[];
}

export interface DraftVariant {
  id?: string;
  attributes: Record<string, string>;
  sku: string;
  /** The SKU follows the title and options until the owner types one. */
  skuAuto: boolean;
  price: string;
  salePrice: string;
  onSale: boolean;
  qtyInStock: string;
  unlimited: boolean;
  weight: string;
  /** Parcel dimensions as typed, in `dimUnit`; all three empty: none. */
  length: string;
  width: string;
  height: string;
  dimUnit: DimensionUnit;
  imageUrl: string;
  lowStockThreshold: number;
}

export { DIMENSION_UNITS, type DimensionUnit, type VariantDimensions } from '../../../core/api/catalog.js';
/** The SKU rule is core's: the server's product import suggests the same SKUs as the editor. */
export { suggestSku };

export const DIMENSIONS_HINT = 'Enter the length, width and height as numbers such as 12.5, or leave all three empty.';

/** A variant as the server answers it and the editor sends it. */
export type ServerVariant = ProductVariant;

/** The options a product's variants use, in the saved option order, values in first-seen order. */
export function optionsOf(ordering: string[], variants: Array<{ attributes: Record<string, string> }>): ProductOption[] {
  return ordering.map((name) => {
    const values: string[] = [];
    for (const v of variants) {
      const x = v.attributes[name];
      if (x && !values.includes(x)) values.push(x);
    }
    return { name, values };
  });
}

/** Every combination of the options' values (the first option varies slowest). */
export function combinations(options: ProductOption[]): Array<Record<string, string>> {
  const used = options.filter((o) => o.name.trim() && o.values.length > 0);
  let out: Array<Record<string, string>> = [{}];
  for (const o of used) out = out.flatMap((a) => o.values.map((v) => ({ ...a, [o.name.trim()]: v })));
  return out;
}

export const comboKey = (a: Record<string, string>, names: string[]) => names.map((n) => `${n}=${a[n] ?? ''}`).join('\u0001');

/** Makes every SKU in the list distinct by suffixing repeats (-2, -3, ...); only the automatic ones change. */
export function distinctSkus(variants: DraftVariant[]): DraftVariant[] {
  const seen = new Set(variants.filter((v) => !v.skuAuto).map((v) => v.sku.toLowerCase()));
  return variants.map((v) => {
    if (!v.skuAuto) return v;
    let sku = v.sku;
    for (let i = 2; seen.has(sku.toLowerCase()); i++) sku = `${v.sku}-${i}`;
    seen.add(sku.toLowerCase());
    return sku === v.sku ? v : { ...v, sku };
  });
}

export function blankVariant(title: string, attributes: Record<string, string>, like?: DraftVariant): DraftVariant {
  return {
    attributes,
    sku: suggestSku(title, attributes),
    skuAuto: true,
    price: like?.price ?? '',
    salePrice: like?.salePrice ?? '',
    onSale: false,
    qtyInStock: like?.qtyInStock ?? '0',
    unlimited: like?.unlimited ?? false,
    weight: like?.weight ?? '',
    length: like?.length ?? '',
    width: like?.width ?? '',
    height: like?.height ?? '',
    dimUnit: like?.dimUnit ?? 'cm',
    imageUrl: '',
    lowStockThreshold: 0,
  };
}

/**
 * The variants for `options`: one per combination; a combination that had a variant keeps it (its id, price,
 * stock, SKU), a new one copies the price of the first variant. Without options, the single variant stays.
 */
export function regenerate(title: string, options: ProductOption[], current: DraftVariant[]): DraftVariant[] {
  const names = options.filter((o) => o.name.trim() && o.values.length > 0).map((o) => o.name.trim());
  const combos = combinations(options);
  if (names.length === 0) {
    const one = current[0] ?? blankVariant(title, {});
    return [{ ...one, attributes: {}, sku: one.skuAuto ? suggestSku(title, {}) : one.sku }];
  }
  const byKey = new Map(current.map((v) => [comboKey(v.attributes, names), v]));
  // A variant made before an option was added keeps its data in the first combination that has its values.
  const loose = current.filter((v) => !byKey.has(comboKey(v.attributes, names)) || Object.keys(v.attributes).length !== names.length);
  const out = combos.map((attributes) => {
    const found = byKey.get(comboKey(attributes, names));
    if (found && Object.keys(found.attributes).length === names.length)
      return { ...found, attributes, sku: found.skuAuto ? suggestSku(title, attributes) : found.sku };
    const i = loose.findIndex((v) => Object.entries(v.attributes).every(([k, x]) => attributes[k] === x));
    if (i >= 0) {
      const [prev] = loose.splice(i, 1);
      return { ...prev!, attributes, sku: prev!.skuAuto ? suggestSku(title, attributes) : prev!.sku };
    }
    return blankVariant(title, attributes, current[0]);
  });
  return distinctSkus(out);
}

export function draftOf(v: ServerVariant, currency: string): DraftVariant {
  return {
    id: v.id,
    attributes: v.attributes,
    sku: v.sku,
    skuAuto: false,
    price: moneyDecimalString(v.priceCents, currency),
    salePrice: v.salePriceCents ? moneyDecimalString(v.salePriceCents, currency) : '',
    onSale: v.onSale,
    qtyInStock: String(v.qtyInStock),
    unlimited: v.unlimited,
    weight: v.weightGrams ? String(v.weightGrams / 1000) : '',
    length: v.dimensions ? String(v.dimensions.length) : '',
    width: v.dimensions ? String(v.dimensions.width) : '',
    height: v.dimensions ? String(v.dimensions.height) : '',
    dimUnit: v.dimensions?.unit ?? 'cm',
    imageUrl: v.imageUrl ?? '',
    lowStockThreshold: v.lowStockThreshold ?? 0,
  };
}

export const AMOUNT_HINT = 'Enter an amount such as 12.50.';

/** The variant as the server takes it, or the fields (by server name) whose text cannot be read. */
export function serverVariant(v: DraftVariant, currency: string, i: number): { variant: ServerVariant; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const amount = (s: string, field: string) => {
    if (!s.trim()) return 0;
    try {
      const n = toMinorUnits(s.trim().replace(',', '.'), currency);
      if (n < 0) throw new Error('negative');
      return n;
    } catch {
      errors[`variants.${i}.${field}`] = AMOUNT_HINT;
      return 0;
    }
  };
  const priceCents = amount(v.price, 'priceCents');
  const salePriceCents = amount(v.salePrice, 'salePriceCents');
  const qty = Number(v.qtyInStock || 0);
  if (!v.unlimited && (!Number.isInteger(qty) || qty < 0)) errors[`variants.${i}.qtyInStock`] = 'Stock must be a whole number, 0 or more.';
  const kg = Number((v.weight || '0').replace(',', '.'));
  if (!Number.isFinite(kg) || kg < 0) errors[`variants.${i}.weightGrams`] = 'Enter a weight in kilograms such as 0.45.';
  const sides = [v.length, v.width, v.height].map((x) => x.trim().replace(',', '.'));
  let dimensions: VariantDimensions | null = null;
  if (sides.some(Boolean)) {
    const [length, width, height] = sides.map((x) => (x ? Number(x) : NaN)) as [number, number, number];
    if ([length, width, height].every((n) => Number.isFinite(n) && n >= 0)) dimensions = { unit: v.dimUnit, length, width, height };
    else errors[`variants.${i}.dimensions`] = DIMENSIONS_HINT;
  }
  return {
    variant: {
      ...(v.id ? { id: v.id } : {}),
      sku: v.sku.trim(),
      attributes: v.attributes,
      priceCents,
      salePriceCents,
      onSale: v.onSale && salePriceCents > 0,
      qtyInStock: v.unlimited ? 0 : Math.max(0, Math.trunc(qty) || 0),
      unlimited: v.unlimited,
      weightGrams: Math.round((Number.isFinite(kg) ? kg : 0) * 1000),
      dimensions,
      imageUrl: v.imageUrl,
      lowStockThreshold: v.lowStockThreshold,
    },
    errors,
  };
}

// ---- The product list ----------------------------------------------------------------------------

/** A product's stock in words: tracked stock, and how many variants are unlimited or sold out ("Unlimited" only when all are). */
export function stockWords(row: { variants: Array<{ qtyInStock: number; unlimited: boolean }> }): string {
  const vs = row.variants;
  const unlimited = vs.filter((v) => v.unlimited).length;
  if (vs.length === 0) return 'No variants';
  if (unlimited === vs.length) return 'Unlimited';
  const tracked = vs.filter((v) => !v.unlimited);
  const total = tracked.reduce((s, v) => s + v.qtyInStock, 0);
  const soldOut = tracked.filter((v) => v.qtyInStock <= 0).length;
  const parts = [`${total} in stock`];
  if (vs.length > 1) parts[0] += ` for ${tracked.length} variant${tracked.length === 1 ? '' : 's'}`;
  if (unlimited) parts.push(`${unlimited} unlimited`);
  if (soldOut && vs.length > 1) parts.push(`${soldOut} sold out`);
  return parts.join(', ');
}

// ---- Time zones ----------------------------------------------------------------------------------

/** 'YYYY-MM-DDTHH:mm' on the clocks of `timeZone` -> the instant (ISO, UTC), or null when it cannot be read. */
export function zonedToIso(local: string, timeZone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!m) return null;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  let at = wall - zoneOffsetAt(wall, timeZone);
  at = wall - zoneOffsetAt(at, timeZone);
  return new Date(at).toISOString();
}

/** An instant -> 'YYYY-MM-DDTHH:mm' on the clocks of `timeZone` (for a datetime-local input). */
export function isoToZoned(iso: string, timeZone: string): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return '';
  const d = new Date(at + zoneOffsetAt(at, timeZone));
  return d.toISOString().slice(0, 16);
}
