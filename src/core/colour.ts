/**
 * Colours: hex and HSL parsing/formatting, conversions and the dark/light tests.
 * HSL output: hue 0-360; saturation, lightness and alpha 0-1.
 */
import { COLOR_24BIT_MIDPOINT, DARK_BRIGHTNESS_THRESHOLD } from './constants';
import { colour as m } from './messages';

export interface Rgb {
  r: number;
  g: number;
  b: number;
}
export interface Hsl {
  h: number;
  s: number;
  l: number;
  a?: number;
}

export class ColourError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ColourError';
  }
}

/**
 * Parses a hex colour of 3 to 6 hex characters, with or without '#'. Three characters are the
 * shorthand (#abc = #aabbcc); four and five are zero-padded on the left to six. Null otherwise.
 */
export function parseHex(text: string): Rgb | null {
  const t = String(text ?? '')
    .trim()
    .replace(/^#/, '');
  if (!/^[0-9a-fA-F]{3,6}$/.test(t)) return null;
  const six =
    t.length === 3
      ? t
          .split('')
          .map((c) => c + c)
          .join('')
      : t.padStart(6, '0');
  const n = parseInt(six, 16);
  return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
}

export function isHexColour(text: string): boolean {
  return parseHex(text) !== null;
}

const clampByte = (x: number) => Math.min(255, Math.max(0, Math.round(x)));

/** '#rrggbb' in lower case. */
export function formatHex(c: Rgb): string {
  return `#${[c.r, c.g, c.b].map((x) => clampByte(x).toString(16).padStart(2, '0')).join('')}`;
}

/** Checks an HSL value and throws a ColourError with its message (core/messages.ts) when it is out of bounds. */
export function validateHsl(c: Partial<Hsl>): asserts c is Hsl {
  for (const k of ['h', 's', 'l'] as const) {
    if (typeof c[k] !== 'number' || Number.isNaN(c[k])) throw new ColourError(m.MISSING_HSL_VALUE);
  }
  if (c.h! < 0 || c.h! > 360) throw new ColourError(m.HUE_OUT_OF_BOUNDS);
  if (c.s! < 0 || c.s! > 1) throw new ColourError(m.SATURATION_OUT_OF_BOUNDS);
  if (c.l! < 0 || c.l! > 1) throw new ColourError(m.LIGHTNESS_OUT_OF_BOUNDS);
  if (c.a !== undefined && (typeof c.a !== 'number' || Number.isNaN(c.a) || c.a < 0 || c.a > 1)) {
    throw new ColourError(m.ALPHA_OUT_OF_BOUNDS);
  }
}

/**
 * Parses 'hsl(h, s%, l%)' or 'hsla(h, s%, l%, a)' (percent signs optional: 50 and 50% both mean 0.5;
 * alpha as 0-1 or a percentage). Throws a ColourError for a missing component or out-of-bounds values.
 */
export function parseHsl(text: string): Hsl {
  const match = /^\s*hsla?\s*\(([^)]*)\)\s*$/i.exec(String(text ?? ''));
  const parts = (match ? match[1] : String(text ?? '')).split(/[\s,/]+/).filter((p) => p !== '');
  if (parts.length < 3) throw new ColourError(m.MISSING_HSL_VALUE);
  // Length first: the number pattern never sees a long part.
  const num = (p: string) => (p.length <= 40 && /^-?\d*\.?\d+(e-?\d+)?%?$/i.test(p) ? parseFloat(p) : NaN);
  const h = num(parts[0].replace(/deg$/i, ''));
  const pct = (p: string) => num(p) / 100;
  const c: Hsl = { h, s: pct(parts[1]), l: pct(parts[2]) };
  if (parts.length > 3) c.a = parts[3].endsWith('%') ? pct(parts[3]) : num(parts[3]);
  validateHsl(c);
  return c;
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

/** 'hsl(120, 50%, 25%)' or 'hsla(120, 50%, 25%, 0.5)'; validates first. */
export function formatHsl(c: Hsl): string {
  validateHsl(c);
  const body = `${round(c.h, 2)}, ${round(c.s * 100, 2)}%, ${round(c.l * 100, 2)}%`;
  return c.a === undefined ? `hsl(${body})` : `hsla(${body}, ${round(c.a, 3)})`;
}

export function hslToRgb(c: Hsl): Rgb {
  validateHsl(c);
  const h = (c.h % 360) / 360;
  const { s, l } = c;
  if (s === 0) {
    const v = clampByte(l * 255);
    return { r: v, g: v, b: v };
  }
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const hue = (t: number) => {
    if (t < 0) t += 1;
    if (t > 1) t -= 1;
    if (t < 1 / 6) return p + (q - p) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
    return p;
  };
  return { r: clampByte(hue(h + 1 / 3) * 255), g: clampByte(hue(h) * 255), b: clampByte(hue(h - 1 / 3) * 255) };
}

export function rgbToHsl(c: Rgb): Hsl {
  const r = clampByte(c.r) / 255;
  const g = clampByte(c.g) / 255;
  const b = clampByte(c.b) / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return { h: 0, s: 0, l };
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  let h: number;
  if (max === r) h = (g - b) / d + (g < b ? 6 : 0);
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  return { h: h * 60, s, l };
}

/** Perceived brightness 0-255 (ITU-R 601 weights: 0.299 R + 0.587 G + 0.114 B). */
export function brightness(c: Rgb): number {
  return (c.r * 299 + c.g * 587 + c.b * 114) / 1000;
}

function toRgb(c: Rgb | string): Rgb | null {
  return typeof c === 'string' ? parseHex(c) : c;
}

/** Dark when the perceived brightness is below 65% of 256 (166.4). Unparsable colours are not dark. */
export function isDarkColour(c: Rgb | string): boolean {
  const rgb = toRgb(c);
  return rgb !== null && brightness(rgb) < DARK_BRIGHTNESS_THRESHOLD;
}

/** The 24-bit split: light when the colour's 24-bit value is above the midpoint (0xffffff / 2). */
export function isLightBy24BitMidpoint(c: Rgb | string): boolean {
  const rgb = toRgb(c);
  if (!rgb) return false;
  return rgb.r * 65536 + rgb.g * 256 + rgb.b > COLOR_24BIT_MIDPOINT;
}
