/**
 * Expression values are plain JS primitives: number, string, boolean, null.
 * These helpers convert between them the way the platform's expressions do
 * (close to JavaScript, but stricter about strings that look like numbers).
 */

export type Lit = number | string | boolean | null;

export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

export function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/** End of a run of hex digits in s[i, end). */
export function scanHex(s: string, i: number, end: number): number {
  while (i < end && isHexDigit(s.charCodeAt(i))) i++;
  return i;
}

/** Decimal scan results below zero are errors. */
export const DEC_NO_EXP_DIGIT = -2;
export const DEC_TWO_DOTS = -3;
export const DEC_DOT_IN_EXP = -4;

/**
 * Scan a decimal number that starts with a digit at `i`: digits, one optional
 * point, an optional exponent with an optional sign. Returns the end offset or
 * one of the DEC_* error codes.
 */
export function scanDecimal(s: string, i: number, end: number): number {
  let dot = false;
  let exp = false;
  let expSign = false;
  let needDigit = false;
  let j = i;
  for (; j < end; j++) {
    const c = s.charCodeAt(j);
    if (c >= 48 && c <= 57) {
      needDigit = false;
    } else if (c === 46 /* . */) {
      if (dot) return DEC_TWO_DOTS;
      if (exp) return DEC_DOT_IN_EXP;
      dot = true;
    } else if (c === 101 || c === 69 /* e E */) {
      if (exp) break;
      exp = true;
      needDigit = true;
    } else if (c === 43 || c === 45 /* + - */) {
      // A sign belongs to the number only right after the exponent marker.
      if (!needDigit || !exp || expSign) break;
      expSign = true;
    } else {
      break;
    }
  }
  return needDigit ? DEC_NO_EXP_DIGIT : j;
}

/** String to number: the whole string must be a decimal or 0x hex number (with an optional sign); '' is 0. */
export function strToNum(s: string): number {
  const len = s.length;
  if (len === 0) return 0;
  let i = 0;
  const c0 = s.charCodeAt(0);
  if (c0 === 43 || c0 === 45) i++;
  if (i === len) return NaN;
  const c = s.charCodeAt(i);
  if (!isDigit(c)) return NaN;
  if (c === 48) {
    const x = s.charCodeAt(i + 1);
    if (x === 120 || x === 88 /* x X */) {
      return scanHex(s, i + 2, len) === len ? parseInt(s, 16) : NaN;
    }
  }
  return scanDecimal(s, i, len) === len ? parseFloat(s) : NaN;
}

export function toNum(v: Lit): number {
  switch (typeof v) {
    case 'number':
      return v;
    case 'string':
      return strToNum(v);
    case 'boolean':
      return v ? 1 : 0;
    default:
      return 0; // null
  }
}

export function toBool(v: Lit): boolean {
  switch (typeof v) {
    case 'boolean':
      return v;
    case 'number':
    case 'string':
      return !!v;
    default:
      return false;
  }
}

export function toStr(v: Lit): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
    case 'boolean':
      return String(v);
    default:
      return 'null';
  }
}

/** Built-in functions. `undefined` means the call failed ('Error calling function'). */
export type ExprFn = (args: Lit[]) => Lit | undefined;

function pick(args: Lit[], better: (a: number, b: number) => boolean): Lit | undefined {
  const n = args.length;
  if (n === 0) return undefined;
  let best = toNum(args[0]);
  for (let i = 1; i < n; i++) {
    const x = toNum(args[i]);
    if (!better(best, x)) best = x;
  }
  return best;
}

export const FUNCTIONS: ReadonlyMap<string, ExprFn> = new Map<string, ExprFn>([
  ['max', (a) => pick(a, (x, y) => x > y)],
  ['min', (a) => pick(a, (x, y) => x < y)],
  ['abs', (a) => (a.length === 0 ? undefined : Math.abs(toNum(a[0])))],
  ['num', (a) => (a.length === 0 ? undefined : toNum(a[0]))],
  ['str', (a) => (a.length === 0 ? undefined : toStr(a[0]))],
  ['bool', (a) => (a.length === 0 ? undefined : toBool(a[0]))],
]);
