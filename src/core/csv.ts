/**
 * The one CSV writer every export uses (products, orders, customers, list members, form submissions).
 *
 * A spreadsheet runs a cell that starts with =, +, -, @, a tab or a carriage return as a formula (CSV
 * injection): a visitor who types `=HYPERLINK(...)` as their name would have it run on the owner's computer
 * when the export is opened. Every such cell gets a leading single quote, as OWASP recommends (a negative
 * number too: the exports write amounts as positive numbers). Then a cell holding a comma, a quote or a line
 * break is quoted (RFC 4180). Pure: no I/O.
 */

const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);

/** The text of one cell with a formula start neutralised (no quoting). */
export function csvSafeText(value: unknown): string {
  const s = value === null || value === undefined ? '' : String(value);
  if (s === '' || !FORMULA_START.has(s[0]!)) return s;
  return `'${s}`;
}

/** One cell as it goes into the file: neutralised, then quoted when it must be (a neutralised cell always is). */
export function csvField(value: unknown): string {
  const raw = value === null || value === undefined ? '' : String(value);
  const s = csvSafeText(raw);
  return s !== raw || /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A whole file: each row's cells encoded, lines ended by CRLF. */
export function csvText(rows: ReadonlyArray<ReadonlyArray<unknown>>): string {
  let out = '';
  for (const r of rows) out += `${r.map(csvField).join(',')}\r\n`;
  return out;
}

/**
 * The reverse of csvSafeText for a file read back in (our own export re-imported): a leading quote that stands
 * before a formula start is taken off, so a title such as "-20% off" survives the round trip.
 */
export function csvUnguard(text: string): string {
  return text.length > 1 && text[0] === "'" && FORMULA_START.has(text[1]!) ? text.slice(1) : text;
}
