import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../helpers/db.js';
import { testApp, type TestApp } from '../../helpers/app.js';
import { schema } from '../../../src/db/index.js';
import { newId } from '../../../src/db/ids.js';
import type { ReviewService } from '../../../src/server/reviews/service.js';
import { reviewServicesOf } from '../../../src/server/reviews/index.js';

/**
 * A product page's reviews read for several products in one statement (ReviewService.forProducts, behind
 * forProductPage) are exactly what the one-product read gives: the count and sum of all approved reviews,
 * the newest 50 of them in order, nothing pending or rejected, nothing of another product.
 */
describe.each(DB_KINDS)('product reviews read together on %s', (kind) => {
  let t: TestApp;
  let ids: string[];
  let service: ReviewService;

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    ids = Object.values(t.seed.productIds).slice(0, 4);
    service = reviewServicesOf(t.app).reviews;
    const now = Date.now();
    // One review request per review (at most one review per request and product).
    const counts = [0, 3, 80, 1];
    await t.database.db.transaction(async (tx) => {
      for (const [p, itemId] of ids.entries()) {
        for (let n = 0; n < counts[p]!; n++) {
          const orderId = newId();
          const requestId = newId();
          await tx.insert(schema.orders).values({
            id: orderId,
            websiteId: t.seed.websiteId,
            idempotencyKey: `rb-${orderId}`,
            cartId: newId(),
            email: 'r@example.com',
            currency: 'USD',
          });
          await tx
            .insert(schema.reviewRequests)
            .values({ id: requestId, websiteId: t.seed.websiteId, orderId, email: 'r@example.com', status: 'sent', runAt: new Date(now) });
          // Same creation time for some, so the id breaks the tie; every fifth is pending, every seventh rejected.
          const status = n % 5 === 4 ? 'pending' : n % 7 === 6 ? 'rejected' : 'approved';
          await tx.insert(schema.productReviews).values({
            id: newId(),
            websiteId: t.seed.websiteId,
            itemId,
            requestId,
            rating: 1 + (n % 5),
            title: `R${n}`,
            body: `Review ${n}`,
            authorName: `B${n}`,
            status,
            created: new Date(now - Math.floor(n / 2) * 1000),
          });
        }
      }
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('forProducts gives each product what forProduct gives it, and leaves out products without approved reviews', async () => {
    const together = await service.forProducts([...ids, 'no-such-item']);
    for (const id of ids) {
      const alone = await service.forProduct(id);
      if (alone.summary.count === 0) expect(together.has(id)).toBe(false);
      else expect(together.get(id)).toEqual(alone);
    }
    expect(together.has('no-such-item')).toBe(false);
    const many = together.get(ids[2]!)!;
    expect(many.reviews).toHaveLength(50);
    expect(many.summary.count).toBeGreaterThan(50);
  });

  it('pages that ask at the same time get their own product reviews', async () => {
    const asked = await Promise.all([...ids, ...ids].map((id) => service.forProductPage(id)));
    for (const [i, id] of [...ids, ...ids].entries()) expect(asked[i]).toEqual(await service.forProduct(id));
  });
});
