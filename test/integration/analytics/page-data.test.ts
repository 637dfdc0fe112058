/** The page data island names the collection of a list page (census and event data carry collection ids). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../helpers/app.js';

describe('collection ids on list pages (PGlite)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp('pglite', { RATE_LIMIT_STORE: 'memory' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the shop list carries data-collection-id and the page data island its collectionId', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/shop' });
    expect(res.statusCode).toBe(200);
    const shop = t.seed.collectionIds.shop;
    expect(shop).toBeTruthy();
    expect(res.body).toContain(`data-collection-id="${shop}"`);
    const island = /<script type="application\/json" id="tessera-page">([^<]*)<\/script>/.exec(res.body);
    expect(island).not.toBeNull();
    expect(JSON.parse(island![1]!)).toMatchObject({ collectionId: shop, itemId: null });
  });
});
