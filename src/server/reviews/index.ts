import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/index.js';
import { orderFulfilledHooks, type OrderFulfilledHook } from '../checkout/index.js';
import { REVIEW_REQUEST_JOB, ReviewService, onOrderFulfilled } from './service.js';
import { RelatedProducts } from './related.js';
import { reviewRoutes } from './routes.js';
import { reviewRequestEmail } from './emails.js';
import { REVIEW_REQUEST_PATH } from './service.js';
import { registerEmailPreview } from '../mail/index.js';

// The review request email in the owners' email preview (301), rendered by the real function with sample data.
registerEmailPreview('review-request', {
  label: 'Review request',
  render: (ctx) =>
    reviewRequestEmail({
      storeName: ctx.storeName,
      buyerName: 'Ada Buyer',
      orderNumber: 1001,
      productTitles: ['Ceramic Pour-Over Set', 'Engraved Walnut Cutting Board'],
      reviewUrl: `${ctx.origin}${REVIEW_REQUEST_PATH}/000000000000000000000000.sample-link-for-the-preview-only`,
      look: ctx.look,
    }),
});

interface ReviewServices {
  reviews: ReviewService;
  related: RelatedProducts;
}

const byDatabase = new WeakMap<Database, ReviewServices>();

/** The review services of an app (the page pipeline, other areas and tests reach them through its database). */
export function reviewServicesOf(app: FastifyInstance): ReviewServices {
  const s = byDatabase.get(app.database);
  if (!s) throw new Error('The reviews area is not registered on this app');
  return s;
}

/** Marking an order fulfilled (delivered) schedules its review request in the same transaction. */
const fulfilledHook: OrderFulfilledHook = (tx, order) => onOrderFulfilled(tx, order);

/** The reviews area: review requests after delivery, reviews and their moderation, related products. */
export async function reviewsArea(app: FastifyInstance): Promise<void> {
  const reviews = new ReviewService(app.database, app.services.mailer, app.emailOrigin, app.log);
  const related = new RelatedProducts(app.database);
  byDatabase.set(app.database, { reviews, related });
  app.services.jobs.register(REVIEW_REQUEST_JOB, async (payload) => {
    if (typeof payload.requestId === 'string') await reviews.sendRequest(payload.requestId);
  });
  if (!orderFulfilledHooks.includes(fulfilledHook)) orderFulfilledHooks.push(fulfilledHook);
  await reviewRoutes(app, { reviews, related });
}
export { productPageExtras } from './product-page.js';
