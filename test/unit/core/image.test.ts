import { describe, expect, it } from 'vitest';
import { focalPoint, formatUrl, formatWidthFor, imageAttributes, parseOriginalSize, platformSrcset } from '../../../src/core/image';

const base = { src: '/img/a.jpg', width: 800, height: 600, alt: 'A' };

describe('imageAttributes', () => {
  it('required props', () => {
    expect(() => imageAttributes({ ...base, src: '' })).toThrow(/missing required "src"/);
    expect(() => imageAttributes({ ...base, alt: undefined as unknown as string })).toThrow(/missing required "alt"/);
    expect(() => imageAttributes({ ...base, width: undefined as unknown as number })).toThrow(/missing required "width"/);
  });
  it('width and height are positive integers', () => {
    expect(() => imageAttributes({ ...base, width: 'abc' })).toThrow(/"width" property: requires a positive integer$/);
    expect(() => imageAttributes({ ...base, height: -5 })).toThrow(/"height" property: negative value or non-integer value$/);
    expect(() => imageAttributes({ ...base, width: 10.5 })).toThrow(/negative value or non-integer value/);
    expect(() => imageAttributes({ ...base, width: 0 })).toThrow(/negative value or non-integer value/);
    expect(imageAttributes({ ...base, width: '800' }).width).toBe('800');
  });
  it('priority maps to fetchpriority and loading', () => {
    expect(imageAttributes({ ...base, priority: 'high' })).toMatchObject({ fetchpriority: 'high', loading: 'eager' });
    expect(imageAttributes({ ...base, priority: 'low' })).toMatchObject({ fetchpriority: 'low', loading: 'lazy' });
    const none = imageAttributes({ ...base, priority: null });
    expect(none.loading).toBe('lazy');
    expect(none.fetchpriority).toBeUndefined();
    expect(() => imageAttributes({ ...base, priority: 'urgent' as 'high' })).toThrow(/priority/);
  });
  it('sqs loader builds the srcset of the 7 widths and needs sizes', () => {
    const a = imageAttributes({ ...base, loader: 'sqs', sizes: '100vw' });
    expect(a.srcset.split(', ')).toHaveLength(7);
    expect(a.srcset.startsWith('/img/a.jpg?format=100w 100w, ')).toBe(true);
    expect(a.srcset.endsWith('/img/a.jpg?format=2500w 2500w')).toBe(true);
    expect(a.sizes).toBe('100vw');
    expect(() => imageAttributes({ ...base, loader: 'sqs' })).toThrow(/sizes/);
    expect(() => imageAttributes({ ...base, loader: 'sqs', sizes: '1px', srcset: 'x 1w' })).toThrow(/srcset/);
  });
  it('raw loader passes srcset through, and is the default', () => {
    expect(imageAttributes({ ...base, srcset: 'a.jpg 1x' }).srcset).toBe('a.jpg 1x');
    expect(imageAttributes(base).srcset).toBeUndefined();
    expect(() => imageAttributes({ ...base, loader: 'cdn' })).toThrow(/received unknown loader type "cdn"/);
  });
  it('focal point, class, style and passthrough', () => {
    const a = imageAttributes({ ...base, class: 'c', style: 's', focalPoint: { x: 0.2, y: 1.7 }, passthrough: { 'data-x': 1, alt: 'no' } });
    expect(a).toMatchObject({ class: 'c', style: 's', 'data-image-focal-point': '0.2,1', 'data-x': '1', alt: 'A' });
    expect(imageAttributes(base)['data-image-focal-point']).toBe('0.5,0.5');
    expect(focalPoint(undefined)).toEqual({ x: 0.5, y: 0.5 });
  });
});

describe('helpers', () => {
  it('formatUrl keeps queries and fragments', () => {
    expect(formatUrl('/a.jpg?v=1#f', 300)).toBe('/a.jpg?v=1&format=300w#f');
    expect(platformSrcset('/b.png').split(', ')[2]).toBe('/b.png?format=500w 500w');
  });
  it('originalSize', () => {
    expect(parseOriginalSize('1500x1000')).toEqual({ width: 1500, height: 1000 });
    expect(() => parseOriginalSize('big')).toThrow("Invalid source parameter. Pass in 'originalSize'");
    expect(() => parseOriginalSize(undefined)).toThrow("Invalid source parameter. Pass in 'originalSize'");
  });
  it('format width buckets', () => {
    expect(formatWidthFor(50)).toBe(100);
    expect(formatWidthFor(100)).toBe(100);
    expect(formatWidthFor(101)).toBe(300);
    expect(formatWidthFor(1001)).toBe(1500);
    expect(formatWidthFor(9000)).toBe(2500);
  });
});
