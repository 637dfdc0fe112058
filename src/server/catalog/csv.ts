/**
 * Product CSV in the column layouts of Squarespace's product export and Shopify's product CSV (both publicly
 * documented): reading a file into products with their variants (each row's errors named by its row number),
 * and writing the catalogue back out in either layout.
 *
 * Squarespace: one row per variant; the product's own columns (Title, Description, Product URL, ...) only on its
 * first row, the following rows of the same product leave Title empty. Price and Sale Price are decimals of the
 * store currency, On Sale Yes/No, Stock a number or 'Unlimited', Visible Yes/No, Hosted Image URLs separated by
 * spaces or line breaks, Weight in kilograms, Length, Width and Height in centimetres (or followed by 'in').
 * Shopify: rows grouped by Handle; the first row of a handle carries Title, Body (HTML), Tags, ...; every row with
 * an option value or SKU is a variant; a row with only Image Src adds an image. Variant Price is what the buyer
 * pays and Variant Compare At Price the crossed-out price (so a compare-at above the price is a sale), Variant
 * Grams the weight (Variant Weight Unit only how Shopify shows it; the layout has no dimensions, so an update keeps
 * a product's own), Variant Inventory Tracker empty means the stock is not tracked (unlimited).
 */
import { parse } from 'csv-parse';
import { csvText, csvUnguard } from '../../core/csv.js';
import { toMinorUnits, moneyDecimalString } from '../../core/money.js';
import { slugify } from '../../core/slug.js';
import { ProductType } from '../../core/enums.js';

export type CsvFormat = 'squarespace' | 'shopify';

export const SQUARESPACE_COLUMNS = [
  'Product ID [Non Editable]',
  'Variant ID [Non Editable]',
  'Product Type [Non Editable]',
  'Product Page',
  'Product URL',
  'Title',
  'Description',
  'SKU',
  'Option Name 1',
  'Option Value 1',
  'Option Name 2',
  'Option Value 2',
  'Option Name 3',
  'Option Value 3',
  'Price',
  'Sale Price',
  'On Sale',
  'Stock',
  'Categories',
  'Tags',
  'Weight',
  'Length',
  'Width',
  'Height',
  'Visible',
  'Hosted Image URLs',
] as const;

export const SHOPIFY_COLUMNS = [
  'Handle',
  'Title',
  'Body (HTML)',
  'Vendor',
  'Product Category',
  'Type',
  'Tags',
  'Published',
  'Option1 Name',
  'Option1 Value',
  'Option2 Name',
  'Option2 Value',
  'Option3 Name',
  'Option3 Value',
  'Variant SKU',
  'Variant Grams',
  'Variant Inventory Tracker',
  'Variant Inventory Qty',
  'Variant Inventory Policy',
  'Variant Fulfillment Service',
  'Variant Price',
  'Variant Compare At Price',
  'Variant Requires Shipping',
  'Variant Taxable',
  'Variant Barcode',
  'Image Src',
  'Image Position',
  'Image Alt Text',
  'Gift Card',
  'SEO Title',
  'SEO Description',
  'Variant Image',
  'Variant Weight Unit',
  'Status',
] as const;

/** The most rows one file may hold (and the size of the file, checked by the route). */
export const MAX_ROWS = 20_000;
export const MAX_CSV_BYTES = 20 * 1_000_000;
/** The most columns a file's header may name (Shopify's layout has about 50, with room for extra metafield columns), and the longest row (in characters: a long description fits). */
export const MAX_COLUMNS = 250;
export const MAX_ROW_CHARS = 2_000_000;

export const CSV_TEXT = {
  UNKNOWN_LAYOUT: 'This file is not in the Squarespace or Shopify product layout: its first line must hold their column names.',
  EMPTY: 'The file holds no products.',
  TOO_MANY_ROWS: `A file can hold up to ${MAX_ROWS} rows.`,
  CANNOT_READ: (detail: string) => `The file cannot be read as CSV: ${detail}`,
  TOO_LARGE: 'The file is too large: a product CSV can be up to 20 MB.',
  TOO_MANY_COLUMNS: `The first line names more than ${MAX_COLUMNS} columns: this is not a product CSV.`,
  ROW_TOO_LONG: (line: number) =>
    `the row on line ${line} is longer than ${MAX_ROW_CHARS / 1_000_000} million characters (a quote that is never closed makes the rest of the file one cell).`,
  QUOTE_NOT_CLOSED: (line: number) => `a quoted cell is never closed (the file ends inside it, at line ${line}).`,
  NOT_UTF8: 'The file is not UTF-8 text (it may be UTF-16 or Latin-1): save it as "CSV UTF-8" and choose it again.',
  NO_TITLE: 'Enter a title for this product.',
  NO_PRODUCT: 'This variant row follows no product row.',
  PRICE: (column: string, value: string) => `${column} "${value}" is not an amount (use a number such as 12.50).`,
  STOCK: (value: string) => `Stock "${value}" is not a whole number of 0 or more, or Unlimited.`,
  WEIGHT: (column: string, value: string) => `${column} "${value}" is not a weight of 0 or more.`,
  WEIGHT_UNIT: (value: string) => `Variant Weight Unit must be g, kg, lb or oz, not "${value}".`,
  DIMENSION: (column: string, value: string) =>
    `${column} "${value}" is not a length of 0 or more (a number, in cm unless followed by in).`,
  DIMENSIONS_ALL: 'Enter the length, width and height together, or none of them.',
  DIMENSIONS_UNIT: 'Give the length, width and height in the same unit.',
  OPTION_VALUE: (name: string) => `Enter a value for the option ${name}.`,
  DUPLICATE_SKU: (sku: string, first: number) => `The SKU ${sku} is already used on row ${first} of this file.`,
  IMAGE_URL: (url: string) => `The image address ${url} must start with http:// or https://.`,
  IMAGE_REFUSED: (url: string, why: string) => `The image ${url} cannot be imported: ${why}.`,
  YES_NO: (column: string, value: string) => `${column} must be Yes or No, not "${value}".`,
  TRUE_FALSE: (column: string, value: string) => `${column} must be TRUE or FALSE, not "${value}".`,
} as const;

export interface RowError {
  row: number;
  message: string;
}

export interface ParsedVariant {
  row: number;
  sku: string;
  attributes: Record<string, string>;
  priceCents: number;
  salePriceCents: number;
  onSale: boolean;
  qtyInStock: number;
  unlimited: boolean;
  weightGrams: number;
  /** Parcel dimensions; null: none; undefined: the file's layout has no dimension columns (an update keeps them). */
  dimensions?: Dimensions | null;
  imageUrl: string;
}

export interface Dimensions {
  unit: 'cm' | 'in';
  length: number;
  width: number;
  height: number;
}

/** The product columns an import reads and an export writes. */
interface ProductColumns {
  storeUrlId: string;
  title: string;
  urlId: string;
  body: string;
  productType: number;
  tags: string[];
  categories: string[];
  seoTitle: string;
  seoDescription: string;
  options: string[];
  images: Array<{ url: string; alt: string }>;
}

export interface ParsedProduct extends ProductColumns {
  row: number;
  /** Squarespace's Product ID column (our product id on a re-import of our own export). */
  productId: string;
  status: 'published' | 'draft';
  variants: ParsedVariant[];
}

export interface ParsedFile {
  format: CsvFormat;
  products: ParsedProduct[];
  errors: RowError[];
}

type Row = Record<string, string>;

/** Why an image address is refused before anything is fetched (outbound.ts), or null. */
export type ImageCheck = (url: string) => string | null;

/** The layout a header line belongs to, or null. */
export function detectFormat(headers: string[]): CsvFormat | null {
  const h = new Set(headers.map((x) => x.trim().toLowerCase()));
  if (h.has('handle') || h.has('url handle') || h.has('variant sku')) return 'shopify';
  if (h.has('product id [non editable]') || (h.has('title') && h.has('hosted image urls')) || (h.has('title') && h.has('option name 1')))
    return 'squarespace';
  return null;
}

/** The file is handed to the CSV reader this many characters at a time, with a turn of the event loop between. */
const PARSE_CHUNK = 256 * 1024;

/** Reads the CSV text into rows keyed by lower-case column name, giving the event loop a turn between chunks. */
async function readRows(text: string): Promise<{ headers: string[]; rows: Row[] }> {
  // A row (an unclosed quote included) is at most MAX_ROW_CHARS long, so the reader never holds more than that
  // of one record; a row wider than the header keeps only the header's columns.
  const parser = parse({ bom: true, skip_empty_lines: true, relax_column_count: true, relax_quotes: true, max_record_size: MAX_ROW_CHARS });
  const records: string[][] = [];
  let width = 0;
  parser.on('readable', () => {
    for (let r = parser.read() as string[] | null; r !== null; r = parser.read() as string[] | null) {
      if (records.length === 0) {
        if (r.length > MAX_COLUMNS) {
          parser.destroy(new CsvReadError(CSV_TEXT.TOO_MANY_COLUMNS));
          return;
        }
        width = r.length;
      }
      // The row limit is checked while reading, so a file of tiny rows is not held whole first.
      if (records.length > MAX_ROWS) {
        parser.destroy(new CsvReadError(CSV_TEXT.TOO_MANY_ROWS));
        return;
      }
      records.push(r.length > width ? r.slice(0, width) : r);
    }
  });
  let failed: unknown = null;
  const ended = new Promise<void>((resolve, reject) => {
    parser.once('end', resolve);
    parser.on('error', (e) => {
      failed ??= e;
      reject(e);
    });
  });
  ended.catch(() => undefined);
  for (let at = 0; at < text.length && !failed;) {
    let end = Math.min(text.length, at + PARSE_CHUNK);
    // Never between the two halves of a surrogate pair.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
    parser.write(text.slice(at, end));
    at = end;
    await new Promise<void>((r) => setImmediate(r));
  }
  if (failed) throw failed;
  parser.end();
  await ended;
  const headers = (records[0] ?? []).map((x) => x.trim());
  const rows = records.slice(1).map((r) => Object.fromEntries(headers.map((h, i) => [h.toLowerCase(), csvUnguard((r[i] ?? '').trim())])));
  return { headers, rows };
}

/** A problem the reader names in its own words (shown as it is, not after "cannot be read as CSV"). */
class CsvReadError extends Error {}

/** The reader's errors in words: the line where it stopped and why. */
function readProblem(e: unknown): string {
  if (e instanceof CsvReadError) return e.message;
  const err = e as { code?: string; lines?: number };
  const line = typeof err.lines === 'number' ? err.lines : 0;
  if (err.code === 'CSV_MAX_RECORD_SIZE') return CSV_TEXT.CANNOT_READ(CSV_TEXT.ROW_TOO_LONG(line));
  if (err.code === 'CSV_QUOTE_NOT_CLOSED') return CSV_TEXT.CANNOT_READ(CSV_TEXT.QUOTE_NOT_CLOSED(line));
  return CSV_TEXT.CANNOT_READ(e instanceof Error ? e.message.slice(0, 300) : String(e).slice(0, 300));
}

/** Text that came from a file in another encoding: NUL characters (UTF-16) or replacement characters. */
function notUtf8(text: string): boolean {
  return text.includes('\u0000') || text.includes('\uFFFD');
}

const splitList = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** Reads a file (`format` forces a layout; otherwise the header line decides). Never throws for bad content. */
export async function parseProductCsv(
  text: string,
  currency: string,
  format?: CsvFormat,
  imageRefusal: ImageCheck = () => null,
): Promise<ParsedFile> {
  let read: { headers: string[]; rows: Row[] };
  if (notUtf8(text)) return { format: format ?? 'squarespace', products: [], errors: [{ row: 1, message: CSV_TEXT.NOT_UTF8 }] };
  try {
    read = await readRows(text);
  } catch (e) {
    return { format: format ?? 'squarespace', products: [], errors: [{ row: 1, message: readProblem(e) }] };
  }
  const detected = format ?? detectFormat(read.headers);
  if (!detected) return { format: 'squarespace', products: [], errors: [{ row: 1, message: CSV_TEXT.UNKNOWN_LAYOUT }] };
  if (read.rows.length > MAX_ROWS) return { format: detected, products: [], errors: [{ row: 1, message: CSV_TEXT.TOO_MANY_ROWS }] };
  const out = detected === 'shopify' ? readShopify(read.rows, currency, imageRefusal) : readSquarespace(read.rows, currency, imageRefusal);
  if (out.products.length === 0 && out.errors.length === 0) out.errors.push({ row: 1, message: CSV_TEXT.EMPTY });
  // SKUs repeat nowhere in a file.
  const seen = new Map<string, number>();
  for (const p of out.products) {
    for (const v of p.variants) {
      if (!v.sku) continue;
      const first = seen.get(v.sku.toLowerCase());
      if (first !== undefined) out.errors.push({ row: v.row, message: CSV_TEXT.DUPLICATE_SKU(v.sku, first) });
      else seen.set(v.sku.toLowerCase(), v.row);
    }
  }
  out.errors.sort((a, b) => a.row - b.row);
  return { format: detected, ...out };
}

function amount(value: string, column: string, currency: string, row: number, errors: RowError[]): number {
  // '$1,234.50' and '12.50' read alike; a lone comma is a decimal comma ('12,50').
  const bare = value.replace(/[\s$€£¥]/g, '');
  const s = /^\d+,\d{1,2}$/.test(bare) ? bare.replace(',', '.') : bare.replace(/,/g, '');
  if (!s) return 0;
  try {
    if (!/^\d+(\.\d+)?$/.test(s)) throw new Error('not a number');
    return toMinorUnits(s, currency);
  } catch {
    errors.push({ row, message: CSV_TEXT.PRICE(column, value) });
    return 0;
  }
}

function checkImage(url: string, row: number, errors: RowError[], refusal: ImageCheck): boolean {
  if (!/^https?:\/\/\S+$/i.test(url) || url.length > 2000) {
    errors.push({ row, message: CSV_TEXT.IMAGE_URL(url.slice(0, 200)) });
    return false;
  }
  const why = refusal(url);
  if (why) errors.push({ row, message: CSV_TEXT.IMAGE_REFUSED(url.slice(0, 200), why) });
  return !why;
}

function readSquarespace(rows: Row[], currency: string, refusal: ImageCheck): { products: ParsedProduct[]; errors: RowError[] } {
  const products: ParsedProduct[] = [];
  const errors: RowError[] = [];
  const g = (r: Row, c: string) => r[c.toLowerCase()] ?? '';
  rows.forEach((r, i) => {
    const row = i + 2;
    const title = g(r, 'Title');
    const startsProduct =
      title !== '' ||
      g(r, 'Product URL') !== '' ||
      (g(r, 'Product ID [Non Editable]') !== '' && g(r, 'Product ID [Non Editable]') !== products.at(-1)?.productId);
    let p = products.at(-1);
    if (startsProduct) {
      if (!title) errors.push({ row, message: CSV_TEXT.NO_TITLE });
      const type = g(r, 'Product Type [Non Editable]').toUpperCase();
      const visible = g(r, 'Visible');
      if (visible && !/^(yes|no|true|false)$/i.test(visible)) errors.push({ row, message: CSV_TEXT.YES_NO('Visible', visible) });
      const images = g(r, 'Hosted Image URLs')
        .split(/\s+/)
        .filter(Boolean)
        .filter((u) => checkImage(u, row, errors, refusal))
        .map((url) => ({ url, alt: '' }));
      p = {
        row,
        productId: g(r, 'Product ID [Non Editable]'),
        storeUrlId: g(r, 'Product Page'),
        title,
        urlId: slugify(g(r, 'Product URL')),
        body: g(r, 'Description'),
        status: /^(no|false)$/i.test(visible) ? 'draft' : 'published',
        productType:
          type === 'DIGITAL'
            ? ProductType.DIGITAL
            : type === 'SERVICE'
              ? ProductType.SERVICE
              : type === 'GIFT_CARD'
                ? ProductType.GIFT_CARD
                : ProductType.PHYSICAL,
        tags: splitList(g(r, 'Tags')),
        categories: splitList(g(r, 'Categories')),
        seoTitle: '',
        seoDescription: '',
        options: [1, 2, 3].map((n) => g(r, `Option Name ${n}`)).filter(Boolean),
        images,
        variants: [],
      };
      products.push(p);
    } else if (!p) {
      errors.push({ row, message: CSV_TEXT.NO_PRODUCT });
      return;
    }
    const attributes: Record<string, string> = {};
    p.options.forEach((name, k) => {
      const value = g(r, `Option Value ${k + 1}`);
      if (!value) errors.push({ row, message: CSV_TEXT.OPTION_VALUE(name) });
      else attributes[name] = value;
    });
    const stock = g(r, 'Stock');
    const unlimited = /^unlimited$/i.test(stock);
    const qty = unlimited || stock === '' ? 0 : Number(stock);
    if (!unlimited && stock !== '' && (!/^\d+$/.test(stock) || !Number.isSafeInteger(qty)))
      errors.push({ row, message: CSV_TEXT.STOCK(stock) });
    const onSaleText = g(r, 'On Sale');
    if (onSaleText && !/^(yes|no|true|false)$/i.test(onSaleText)) errors.push({ row, message: CSV_TEXT.YES_NO('On Sale', onSaleText) });
    const weight = g(r, 'Weight');
    const kg = weight === '' ? 0 : Number(weight.replace(',', '.'));
    if (!Number.isFinite(kg) || kg < 0) errors.push({ row, message: CSV_TEXT.WEIGHT('Weight', weight) });
    const dimensions = 'length' in r || 'width' in r || 'height' in r ? readDimensions(r, row, errors) : undefined;
    p.variants.push({
      row,
      sku: g(r, 'SKU'),
      attributes,
      priceCents: amount(g(r, 'Price'), 'Price', currency, row, errors),
      salePriceCents: amount(g(r, 'Sale Price'), 'Sale Price', currency, row, errors),
      onSale: /^(yes|true)$/i.test(onSaleText),
      qtyInStock: Number.isSafeInteger(qty) && qty >= 0 ? qty : 0,
      unlimited,
      weightGrams: Number.isFinite(kg) && kg >= 0 ? Math.round(kg * 1000) : 0,
      dimensions,
      imageUrl: '',
    });
  });
  return { products, errors };
}

/**
 * Squarespace's Length, Width and Height: numbers in centimetres, or followed by 'in' for inches ('10 in', as
 * the export writes a variant measured in inches). All three or none; all empty or 0 is none.
 */
function readDimensions(r: Row, row: number, errors: RowError[]): Dimensions | null {
  let bad = false;
  const sides = (['Length', 'Width', 'Height'] as const).map((column) => {
    const text = (r[column.toLowerCase()] ?? '').trim();
    if (text === '') return { column, value: 0, unit: null, empty: true };
    const m = /^(\d{1,9}(?:[.,]\d{1,6})?)\s*(cm|in)?$/i.exec(text);
    if (!m) {
      errors.push({ row, message: CSV_TEXT.DIMENSION(column, text.slice(0, 50)) });
      bad = true;
      return { column, value: 0, unit: null, empty: true };
    }
    return { column, value: Number(m[1]!.replace(',', '.')), unit: (m[2]?.toLowerCase() as 'cm' | 'in' | undefined) ?? null, empty: false };
  });
  if (bad || sides.every((x) => x.empty || x.value === 0)) return null;
  if (sides.some((x) => x.empty)) {
    errors.push({ row, message: CSV_TEXT.DIMENSIONS_ALL });
    return null;
  }
  const units = new Set(sides.map((x) => x.unit ?? 'cm'));
  if (units.size > 1) {
    errors.push({ row, message: CSV_TEXT.DIMENSIONS_UNIT });
    return null;
  }
  return { unit: [...units][0]!, length: sides[0]!.value, width: sides[1]!.value, height: sides[2]!.value };
}

function readShopify(rows: Row[], currency: string, refusal: ImageCheck): { products: ParsedProduct[]; errors: RowError[] } {
  const products: ParsedProduct[] = [];
  const errors: RowError[] = [];
  const byHandle = new Map<string, ParsedProduct>();
  const g = (r: Row, ...cols: string[]) => {
    for (const c of cols) {
      const v = r[c.toLowerCase()];
      if (v !== undefined && v !== '') return v;
    }
    return '';
  };
  rows.forEach((r, i) => {
    const row = i + 2;
    const handle = slugify(g(r, 'Handle', 'URL handle')) || slugify(g(r, 'Title'));
    let p = handle ? byHandle.get(handle) : products.at(-1);
    if (!p) {
      const title = g(r, 'Title');
      if (!title) errors.push({ row, message: CSV_TEXT.NO_TITLE });
      const published = g(r, 'Published', 'Published on online store');
      if (published && !/^(true|false)$/i.test(published)) errors.push({ row, message: CSV_TEXT.TRUE_FALSE('Published', published) });
      const statusText = g(r, 'Status').toLowerCase();
      const gift = g(r, 'Gift Card', 'Gift card');
      const type = g(r, 'Type');
      p = {
        row,
        productId: '',
        storeUrlId: '',
        title,
        urlId: handle,
        body: g(r, 'Body (HTML)', 'Description'),
        status: statusText ? (statusText === 'active' ? 'published' : 'draft') : /^false$/i.test(published) ? 'draft' : 'published',
        productType: /^true$/i.test(gift) ? ProductType.GIFT_CARD : ProductType.PHYSICAL,
        tags: splitList(g(r, 'Tags')),
        categories: type ? [type] : [],
        seoTitle: g(r, 'SEO Title', 'SEO title'),
        seoDescription: g(r, 'SEO Description', 'SEO description'),
        // A product without options has Option1 Name 'Title' and value 'Default Title'.
        options: [1, 2, 3].map((n) => g(r, `Option${n} Name`, `Option${n} name`)).filter((x) => x && x !== 'Title'),
        images: [],
        variants: [],
      };
      products.push(p);
      if (handle) byHandle.set(handle, p);
    }
    const image = g(r, 'Image Src', 'Product image URL');
    if (image && checkImage(image, row, errors, refusal) && !p.images.some((x) => x.url === image))
      p.images.push({ url: image, alt: g(r, 'Image Alt Text', 'Image alt text') });
    const isVariant =
      [1, 2, 3].some((n) => g(r, `Option${n} Value`, `Option${n} value`)) ||
      g(r, 'Variant SKU', 'SKU') !== '' ||
      g(r, 'Variant Price', 'Price') !== '';
    if (!isVariant) return;
    const attributes: Record<string, string> = {};
    p.options.forEach((name, k) => {
      const value = g(r, `Option${k + 1} Value`, `Option${k + 1} value`);
      if (!value) errors.push({ row, message: CSV_TEXT.OPTION_VALUE(name) });
      else attributes[name] = value;
    });
    const tracker = r['variant inventory tracker'];
    const qtyText = g(r, 'Variant Inventory Qty', 'Inventory quantity');
    const qty = qtyText === '' ? 0 : Number(qtyText);
    if (qtyText !== '' && (!/^-?\d+$/.test(qtyText) || !Number.isSafeInteger(qty))) errors.push({ row, message: CSV_TEXT.STOCK(qtyText) });
    const unlimited = tracker !== undefined && tracker === '';
    const gramsText = g(r, 'Variant Grams', 'Weight value (grams)');
    const grams = gramsText === '' ? 0 : Number(gramsText);
    if (!Number.isFinite(grams) || grams < 0) errors.push({ row, message: CSV_TEXT.WEIGHT('Variant Grams', gramsText) });
    // Variant Grams is the weight; the unit only says how Shopify shows it.
    const weightUnit = g(r, 'Variant Weight Unit', 'Weight unit for display');
    if (weightUnit && !/^(g|kg|lb|lbs|oz)$/i.test(weightUnit)) errors.push({ row, message: CSV_TEXT.WEIGHT_UNIT(weightUnit.slice(0, 20)) });
    const price = amount(g(r, 'Variant Price', 'Price'), 'Variant Price', currency, row, errors);
    const compare = amount(g(r, 'Variant Compare At Price', 'Compare-at price'), 'Variant Compare At Price', currency, row, errors);
    const onSale = compare > price;
    const variantImage = g(r, 'Variant Image');
    if (variantImage && checkImage(variantImage, row, errors, refusal) && !p.images.some((x) => x.url === variantImage))
      p.images.push({ url: variantImage, alt: '' });
    p.variants.push({
      row,
      sku: g(r, 'Variant SKU', 'SKU'),
      attributes,
      priceCents: onSale ? compare : price,
      salePriceCents: onSale ? price : 0,
      onSale,
      qtyInStock: Number.isSafeInteger(qty) ? Math.max(0, qty) : 0,
      unlimited,
      weightGrams: Number.isFinite(grams) && grams >= 0 ? Math.round(grams) : 0,
      imageUrl: variantImage && /^https?:\/\//i.test(variantImage) ? variantImage : '',
    });
  });
  for (const p of products)
    if (p.variants.length === 0) errors.push({ row: p.row, message: 'Add a price for this product (a variant row).' });
  return { products, errors };
}

// ---- Export --------------------------------------------------------------------------------------

export interface ExportProduct extends ProductColumns {
  id: string;
  status: string;
  /** A parsed variant's columns, with its id and its stored dimensions (none: null). */
  variants: Array<Omit<ParsedVariant, 'row' | 'dimensions'> & { id: string; dimensions: Dimensions | null }>;
}

const TYPE_NAMES: Record<number, string> = {
  [ProductType.PHYSICAL]: 'PHYSICAL',
  [ProductType.DIGITAL]: 'DIGITAL',
  [ProductType.SERVICE]: 'SERVICE',
  [ProductType.GIFT_CARD]: 'GIFT_CARD',
};

/** The catalogue as a CSV file in `format`'s layout; image addresses are made absolute with `origin`. */
export function exportProductCsv(products: ExportProduct[], format: CsvFormat, currency: string, origin: string): string {
  const abs = (u: string) => (u.startsWith('/') ? `${origin}${u}` : u);
  const money = (n: number) => moneyDecimalString(n, currency);
  // Centimetres as plain numbers (Squarespace's layout); a variant measured in inches keeps its unit.
  const side = (d: Dimensions | null, k: 'length' | 'width' | 'height') => [d ? `${d[k]}${d.unit === 'in' ? ' in' : ''}` : '0'];
  const rows: string[][] = [];
  if (format === 'squarespace') {
    rows.push([...SQUARESPACE_COLUMNS]);
    for (const p of products) {
      p.variants.forEach((v, i) => {
        const first = i === 0;
        const opts = [0, 1, 2].flatMap((k) => (p.options[k] ? [first ? p.options[k]! : '', v.attributes[p.options[k]!] ?? ''] : ['', '']));
        rows.push([
          p.id,
          v.id,
          first ? (TYPE_NAMES[p.productType] ?? 'PHYSICAL') : '',
          first ? p.storeUrlId : '',
          first ? p.urlId : '',
          first ? p.title : '',
          first ? p.body : '',
          v.sku,
          ...opts,
          money(v.priceCents),
          v.salePriceCents ? money(v.salePriceCents) : '',
          v.onSale ? 'Yes' : 'No',
          v.unlimited ? 'Unlimited' : String(v.qtyInStock),
          first ? p.categories.join(', ') : '',
          first ? p.tags.join(', ') : '',
          v.weightGrams ? String(v.weightGrams / 1000) : '0',
          ...side(v.dimensions, 'length'),
          ...side(v.dimensions, 'width'),
          ...side(v.dimensions, 'height'),
          first ? (p.status === 'published' ? 'Yes' : 'No') : '',
          first ? p.images.map((x) => abs(x.url)).join(' ') : '',
        ]);
      });
    }
  } else {
    rows.push([...SHOPIFY_COLUMNS]);
    const col = Object.fromEntries(SHOPIFY_COLUMNS.map((c, i) => [c, i])) as Record<(typeof SHOPIFY_COLUMNS)[number], number>;
    for (const p of products) {
      const n = Math.max(p.variants.length, p.images.length);
      for (let i = 0; i < n; i++) {
        const r: string[] = SHOPIFY_COLUMNS.map(() => '');
        const v = p.variants[i];
        const img = p.images[i];
        r[col.Handle] = p.urlId;
        if (i === 0) {
          r[col.Title] = p.title;
          r[col['Body (HTML)']] = p.body;
          r[col.Type] = p.categories[0] ?? '';
          r[col.Tags] = p.tags.join(', ');
          r[col.Published] = p.status === 'published' ? 'TRUE' : 'FALSE';
          r[col['Gift Card']] = p.productType === ProductType.GIFT_CARD ? 'TRUE' : 'FALSE';
          r[col['SEO Title']] = p.seoTitle;
          r[col['SEO Description']] = p.seoDescription;
          r[col.Status] = p.status === 'published' ? 'active' : 'draft';
        }
        if (v) {
          const names = p.options.length ? p.options : ['Title'];
          names.forEach((name, k) => {
            if (k > 2) return;
            if (i === 0) r[col[`Option${k + 1} Name` as 'Option1 Name']] = name;
            r[col[`Option${k + 1} Value` as 'Option1 Value']] = p.options.length ? (v.attributes[name] ?? '') : 'Default Title';
          });
          r[col['Variant SKU']] = v.sku;
          r[col['Variant Grams']] = String(v.weightGrams);
          r[col['Variant Inventory Tracker']] = v.unlimited ? '' : 'shopify';
          r[col['Variant Inventory Qty']] = v.unlimited ? '' : String(v.qtyInStock);
          r[col['Variant Inventory Policy']] = 'deny';
          r[col['Variant Fulfillment Service']] = 'manual';
          r[col['Variant Price']] = money(v.onSale ? v.salePriceCents : v.priceCents);
          r[col['Variant Compare At Price']] = v.onSale ? money(v.priceCents) : '';
          r[col['Variant Requires Shipping']] = p.productType === ProductType.PHYSICAL ? 'TRUE' : 'FALSE';
          r[col['Variant Taxable']] = 'TRUE';
          r[col['Variant Image']] = v.imageUrl ? abs(v.imageUrl) : '';
          r[col['Variant Weight Unit']] = 'kg';
        }
        if (img) {
          r[col['Image Src']] = abs(img.url);
          r[col['Image Position']] = String(i + 1);
          r[col['Image Alt Text']] = img.alt;
        }
        rows.push(r);
      }
    }
  }
  return csvText(rows);
}
