import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../helpers/app.js';
import { ImageVariants, ImageVariantError } from '../../../src/server/images/variants.js';
import { imageAttributes, ImagePropError } from '../../../src/core/image.js';

describe('image variants', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp('pglite');
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (url: string, accept = 'image/avif,image/webp,*/*') => t.app.inject({ method: 'GET', url, headers: { accept } });

  it('serves every srcset width, scaled by sharp, as WebP when accepted and JPEG otherwise', async () => {
    for (const w of [100, 300, 500, 750, 1000]) {
      const res = await get(`/demo-media/linen-shirt.jpg?format=${w}w`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers.vary).toContain('Accept');
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.width).toBe(w);
      expect(meta.format).toBe('webp');
    }
    const jpeg = await get('/demo-media/pour-over.jpg?format=300w', 'image/jpeg,*/*');
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(jpeg.rawPayload).metadata()).width).toBe(300);
  });

  it('never upscales a raster image, and rasterises vector art at the asked width', async () => {
    const big = await get('/demo-media/linen-shirt.jpg?format=2500w');
    expect((await sharp(big.rawPayload).metadata()).width).toBe(1200);
    const svg = await get('/demo-media/gallery-1.svg?format=750w', 'image/png');
    expect(svg.headers['content-type']).toBe('image/png');
    expect((await sharp(svg.rawPayload).metadata()).width).toBe(750);
  });

  it('refuses unknown formats, missing files and path traversal; the original is served without a format', async () => {
    expect((await get('/demo-media/linen-shirt.jpg?format=301w')).statusCode).toBe(400);
    expect((await get('/demo-media/no-such.jpg?format=300w')).statusCode).toBe(404);
    // Encoded slashes and dot segments are refused before routing (plugins/path.ts).
    expect((await get('/demo-media/..%2f..%2fpackage.json?format=300w')).statusCode).toBe(400);
    expect([400, 404]).toContain((await get('/demo-media/%2e%2e/%2e%2e/etc/passwd?format=300w')).statusCode);
    const original = await get('/demo-media/linen-shirt.jpg');
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('image/jpeg');
  });

  it('makes a variant once and serves it from the disk cache afterwards', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-img-'));
    try {
      const v = new ImageVariants({ '/m/': 'seed/media' }, dir);
      const [a, b] = await Promise.all([
        v.variant('/m/gift-card.jpg', '500w', 'image/webp'),
        v.variant('/m/gift-card.jpg', '500w', 'image/webp'),
      ]);
      expect(a.file).toBe(b.file);
      expect(readdirSync(dir)).toHaveLength(1);
      const again = new ImageVariants({ '/m/': 'seed/media' }, dir);
      expect((await again.variant('/m/gift-card.jpg', '500w', 'image/webp')).file).toBe(a.file);
      expect(readdirSync(dir)).toHaveLength(1);
      expect(() => v.resolveSource('/m/../package.json')).toThrow(ImageVariantError);
      expect(() => v.resolveSource('/m/%00.jpg')).toThrow(ImageVariantError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('image template rule', () => {
  const base = { src: '/a.jpg', width: 600, height: 400, alt: 'A' };
  it('requires src, width, height and alt with positive integer sizes', () => {
    expect(() => imageAttributes({ ...base, width: 'wide' })).toThrow(/requires a positive integer/);
    expect(() => imageAttributes({ ...base, height: -2 })).toThrow(/negative value or non-integer value/);
    expect(() => imageAttributes({ ...base, width: 1.5 })).toThrow(/negative value or non-integer value/);
    expect(() => imageAttributes({ ...base, loader: 'cdn' })).toThrow(/received unknown loader type/);
    expect(() => imageAttributes({ ...base, loader: 'sqs' })).toThrow(ImagePropError);
    expect(() => imageAttributes({ ...base, loader: 'sqs', sizes: '100vw', srcset: 'x 1w' })).toThrow(ImagePropError);
  });
  it('maps priority to fetchpriority and loading, and the sqs loader to the seven widths', () => {
    expect(imageAttributes({ ...base, priority: 'high' })).toMatchObject({ fetchpriority: 'high', loading: 'eager' });
    expect(imageAttributes({ ...base, priority: 'low' })).toMatchObject({ fetchpriority: 'low', loading: 'lazy' });
    expect(imageAttributes(base)).toMatchObject({ loading: 'lazy', 'data-image-focal-point': '0.5,0.5' });
    expect(imageAttributes(base).fetchpriority).toBeUndefined();
    const sqs = imageAttributes({ ...base, loader: 'sqs', sizes: '50vw' });
    expect(sqs.srcset).toBe(['100w', '300w', '500w', '750w', '1000w', '1500w', '2500w'].map((w) => `/a.jpg?format=${w} ${w}`).join(', '));
    expect(imageAttributes({ ...base, srcset: '/a.jpg 1x' }).srcset).toBe('/a.jpg 1x');
  });
});
