/** A demo product with several images and variant images, for the product page gallery tests. */
import { expect } from 'vitest';
import { OWNER, Visitor, type TestApp } from './app.js';

export const SHIRT_IMAGES = [
  ['linen-shirt', 'A sand-coloured linen shirt'],
  ['gallery-1', 'The shirt folded'],
  ['gallery-2', 'The navy shirt'],
  ['gallery-3', 'The collar up close'],
] as const;

/** Gives the linen shirt four images, the navy variants the third as their own, and puts the small navy one on sale. */
export async function dressTheShirt(app: TestApp['app'], productId: string): Promise<void> {
  const owner = new Visitor(app);
  expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
  const product = (await owner.get(`/api/config/products/${productId}`)).json();
  const images = SHIRT_IMAGES.map(([name, altText]) => ({ assetUrl: `/demo-media/${name}.jpg`, altText, originalSize: '1200x1200' }));
  const variants = (product.variants as Array<Record<string, unknown>>).map((v) => ({
    ...v,
    imageUrl: String(v.sku).endsWith('NAVY') ? '/demo-media/gallery-2.jpg' : '',
    ...(v.sku === 'SHIRT-S-NAVY' ? { onSale: true, salePriceCents: 5600 } : {}),
  }));
  const res = await owner.send('PUT', `/api/config/products/${productId}`, { ...product, images, variants });
  expect(res.statusCode, res.body).toBe(200);
}
