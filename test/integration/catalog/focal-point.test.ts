/**
 * A product image's focal point (issue 24) on both databases: the product editor's save stores mediaFocalPoint
 * per image, GET answers it, an image saved without one keeps the centre, and a point outside the picture is
 * refused with a clear error rather than stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';

describe.each(APP_KINDS)('product image focal point on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores and answers the focal point, keeps the centre by default and refuses a point outside the image', async () => {
    const id = t.seed.productIds['linen-camp-shirt']!;
    const p = (await owner.get(`/api/config/products/${id}`)).json();
    expect(p.images[0].mediaFocalPoint).toEqual({ x: 0.5, y: 0.5 });
    const moved = {
      ...p,
      images: p.images.map((img: Record<string, unknown>, i: number) => (i === 0 ? { ...img, mediaFocalPoint: { x: 0.2, y: 0.8 } } : img)),
    };
    const r = await owner.send('PUT', `/api/config/products/${id}`, moved);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().images[0].mediaFocalPoint).toEqual({ x: 0.2, y: 0.8 });
    const [stored] = await rows<{ f: unknown }>(t.database.db, sql`select assets->0->'mediaFocalPoint' as f from items where id = ${id}`);
    const f = typeof stored!.f === 'string' ? JSON.parse(stored!.f) : stored!.f;
    expect(f).toEqual({ x: 0.2, y: 0.8 });

    const outside = {
      ...r.json(),
      images: r.json().images.map((img: Record<string, unknown>) => ({ ...img, mediaFocalPoint: { x: 1.5, y: 0.5 } })),
    };
    const bad = await owner.send('PUT', `/api/config/products/${id}`, outside);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).not.toContain('Internal');
    expect((await owner.get(`/api/config/products/${id}`)).json().images[0].mediaFocalPoint).toEqual({ x: 0.2, y: 0.8 });

    const saved = r.json() as { images: Array<Record<string, unknown>> };
    const { mediaFocalPoint: _drop, ...plain } = saved.images[0]!;
    void _drop;
    const back = await owner.send('PUT', `/api/config/products/${id}`, { ...saved, images: [plain, ...saved.images.slice(1)] });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().images[0].mediaFocalPoint).toEqual({ x: 0.5, y: 0.5 });
  });
});
