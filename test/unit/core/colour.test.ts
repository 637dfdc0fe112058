import { describe, expect, it } from 'vitest';
import {
  ColourError,
  brightness,
  formatHex,
  formatHsl,
  hslToRgb,
  isDarkColour,
  isLightBy24BitMidpoint,
  parseHex,
  parseHsl,
  rgbToHsl,
  validateHsl,
} from '../../../src/core/colour';

describe('hex', () => {
  it('parses 3 and 6 characters, with or without #', () => {
    expect(parseHex('#fff')).toEqual({ r: 255, g: 255, b: 255 });
    expect(parseHex('0a0')).toEqual({ r: 0, g: 170, b: 0 });
    expect(parseHex('#1E90FF')).toEqual({ r: 30, g: 144, b: 255 });
  });
  it('4 and 5 characters are zero-padded', () => {
    expect(parseHex('ffff')).toEqual({ r: 0, g: 255, b: 255 });
    expect(parseHex('#10000')).toEqual({ r: 1, g: 0, b: 0 });
  });
  it('rejects other lengths and non-hex', () => {
    expect(parseHex('ff')).toBeNull();
    expect(parseHex('#1234567')).toBeNull();
    expect(parseHex('#ggg')).toBeNull();
  });
  it('formats lower-case 6-digit hex', () => {
    expect(formatHex({ r: 30, g: 144, b: 255 })).toBe('#1e90ff');
    expect(formatHex({ r: 300, g: -2, b: 0.4 })).toBe('#ff0000');
  });
});

describe('hsl', () => {
  it('parses hsl and hsla strings', () => {
    expect(parseHsl('hsl(120, 50%, 25%)')).toEqual({ h: 120, s: 0.5, l: 0.25 });
    expect(parseHsl('hsla(0, 100%, 50%, 0.5)')).toEqual({ h: 0, s: 1, l: 0.5, a: 0.5 });
  });
  it('throws the spec messages', () => {
    expect(() => parseHsl('hsl(361, 50%, 50%)')).toThrow('Hue out of bounds.');
    expect(() => parseHsl('hsl(-1, 50%, 50%)')).toThrow('Hue out of bounds.');
    expect(() => parseHsl('hsl(10, 101%, 50%)')).toThrow('Saturation out of bounds.');
    expect(() => parseHsl('hsl(10, 50%, 150%)')).toThrow('Lightness out of bounds.');
    expect(() => parseHsl('hsla(10, 50%, 50%, 2)')).toThrow('Alpha out of bounds.');
    expect(() => parseHsl('hsl(10, 50%)')).toThrow('Missing an H/S/L value.');
    expect(() => parseHsl('hsl(10, x, 50%)')).toThrow('Missing an H/S/L value.');
    expect(() => validateHsl({ h: 1, s: 0.5 })).toThrow(ColourError);
  });
  it('formats', () => {
    expect(formatHsl({ h: 120, s: 0.5, l: 0.25 })).toBe('hsl(120, 50%, 25%)');
    expect(formatHsl({ h: 0, s: 1, l: 0.5, a: 0.5 })).toBe('hsla(0, 100%, 50%, 0.5)');
    expect(() => formatHsl({ h: 0, s: 1, l: 0.5, a: -0.1 })).toThrow('Alpha out of bounds.');
  });
  it('converts both ways', () => {
    expect(hslToRgb({ h: 0, s: 1, l: 0.5 })).toEqual({ r: 255, g: 0, b: 0 });
    expect(hslToRgb({ h: 120, s: 1, l: 0.25 })).toEqual({ r: 0, g: 128, b: 0 });
    expect(hslToRgb({ h: 0, s: 0, l: 0.5 })).toEqual({ r: 128, g: 128, b: 128 });
    expect(hslToRgb({ h: 360, s: 1, l: 0.5 })).toEqual({ r: 255, g: 0, b: 0 });
    const hsl = rgbToHsl({ r: 30, g: 144, b: 255 });
    expect(hsl.h).toBeCloseTo(209.6, 1);
    expect(hslToRgb(hsl)).toEqual({ r: 30, g: 144, b: 255 });
  });
});

describe('dark and light tests', () => {
  it('brightness threshold 65% of 256', () => {
    expect(brightness({ r: 255, g: 255, b: 255 })).toBe(255);
    expect(isDarkColour('#000')).toBe(true);
    expect(isDarkColour('#fff')).toBe(false);
    // grey 166 -> brightness 166 < 166.4 -> dark; 167 -> light
    expect(isDarkColour({ r: 166, g: 166, b: 166 })).toBe(true);
    expect(isDarkColour({ r: 167, g: 167, b: 167 })).toBe(false);
    expect(isDarkColour('nope')).toBe(false);
  });
  it('24-bit midpoint split', () => {
    expect(isLightBy24BitMidpoint('#800000')).toBe(true);
    expect(isLightBy24BitMidpoint('#7fffff')).toBe(false);
    expect(isLightBy24BitMidpoint('#0000ff')).toBe(false);
  });
});
