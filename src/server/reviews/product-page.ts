/**
 * What the product page gets from this area: approved reviews with their average and count (for the
 * reviews tab and the anchor link next to the title), related products, and the schema.org
 * AggregateRating and Review properties of the product's structured data. The page pipeline calls
 * productPageExtras once per product page.
 */
import type { FastifyInstance } from 'fastify';
import type { WebsiteRow } from '../platform/index.js';
import { itemJson, productsFor, type CollectionRow, type ItemRow } from '../site-context/index.js';
import { relatedProducts as relatedText, reviews as text } from '../../core/messages.js';
import { RATING_MAX } from '../../core/reviews.js';
import { reviewSettingsOf } from './settings.js';
import { reviewServicesOf } from './index.js';
import { ReviewService } from './service.js';
import { timeSince } from '../../core/time.js';

type Obj = Record<string, unknown>;

const stars = (n: number) => '★'.repeat(n) + '☆'.repeat(RATING_MAX - n);

export interface ProductPageInput {
  site: WebsiteRow;
  collections: CollectionRow[];
  row: ItemRow;
  /** The product's page JSON (itemJson); `reviews` and `relatedProducts` are added to it. */
  item: Obj;
  origin: string;
}

/**
 * What productPageExtras worked out for an item row. The page reads its row per content version
 * (plugins/site-cache.ts 'page-item'), and the reviews and related products below are read under that
 * same version, so a row object stands for one version: the extras of a row are worked out on its first
 * page and reused by the next ones (with the same website row, collections and origin) until the version
 * moves and the page reads a new row. Shared between requests: read-only. Related cards' `timeSince`
 * follows the clock, so it is worked out again per page.
 */
interface Extras {
  reviews: Obj;
  related: { heading: string; source: unknown; items: Array<{ json: Obj; publishOn: Date }> } | null;
  reviewsJsonLd: Obj;
}
const extrasOf = new WeakMap<ItemRow, { site: WebsiteRow; collections: CollectionRow[]; origin: string; extras: Promise<Extras> }>();

/** `reviewsJsonLd` holds the product's schema.org aggregateRating and review (empty without approved reviews). */
export async function productPageExtras(app: FastifyInstance, input: ProductPageInput): Promise<{ reviewsJsonLd: Obj }> {
  const { site, row, item, collections, origin } = input;
  let kept = extrasOf.get(row);
  if (!kept || kept.site !== site || kept.collections !== collections || kept.origin !== origin) {
    kept = { site, collections, origin, extras: makeExtras(app, input) };
    extrasOf.set(row, kept);
    const failed = kept;
    // A failed read is not kept.
    kept.extras.catch(() => {
      if (extrasOf.get(row) === failed) extrasOf.delete(row);
    });
  }
  const extras = await kept.extras;
  const now = Date.now();
  item.reviews = extras.reviews;
  item.relatedProducts = extras.related
    ? {
        heading: extras.related.heading,
        source: extras.related.source,
        items: extras.related.items.map(({ json, publishOn }) => ({ ...json, timeSince: timeSince(publishOn, now) })),
      }
    : null;
  return { reviewsJsonLd: extras.reviewsJsonLd };
}

async function makeExtras(app: FastifyInstance, input: ProductPageInput): Promise<Extras> {
  const { reviews, related } = reviewServicesOf(app);
  const { site, row } = input;
  const settings = reviewSettingsOf(site.settings);
  // Kept per content version (plugins/site-cache.ts): writes to reviews, related products, items and
  // variants move it. Cached values are shared between requests: read them, never change them.
  const cache = app.siteCache;
  const [{ summary, reviews: list }, { rel, products }] = await Promise.all([
    // Which products have approved reviews is one read per content version; the others need no query.
    cache.get('product-reviews', row.id, async () =>
      (await cache.get('reviewed-products', site.id, () => reviews.reviewedItems(site.id))).has(row.id)
        ? reviews.forProductPage(row.id)
        : ReviewService.NONE,
    ),
    cache.get('related-products', `${row.id}:${settings.relatedCount}`, async () => {
      // Products of one category (or collection) share its list and its variants: one read per content version.
      let groupProducts: Awaited<ReturnType<typeof productsFor>> | undefined;
      const found = await related.forProduct(
        row,
        settings.relatedCount,
        async (key, load) => {
          const g = await cache.get('related-group', `${key}:${settings.relatedCount}`, async () => {
            const items = await load();
            return { items, products: await productsFor(app.database.db, items) };
          });
          groupProducts = g.products;
          return g.items;
        },
        await cache.get('related-chosen', site.id, () => related.withChosen(site.id)),
      );
      return { rel: found, products: groupProducts ?? (await productsFor(app.database.db, found.items)) };
    }),
  ]);

  const reviewsJson: Obj = {
    ...summary,
    tabLabel: `${text.TAB} (${summary.count})`,
    noneYet: text.NONE_YET,
    starsText: stars(Math.round(summary.average)),
    list: list.map((r) => ({
      id: r.id,
      rating: r.rating,
      ratingLabel: text.outOf5(String(r.rating)),
      starsText: stars(r.rating),
      title: r.title,
      body: r.body,
      authorName: r.authorName,
      created: r.created,
      createdIso: new Date(r.created).toISOString().slice(0, 10),
    })),
  };

  const byId = new Map(input.collections.map((c) => [c.id, c]));
  const shown = rel.items.filter((i) => byId.has(i.collectionId));
  const relatedJson: Extras['related'] = shown.length
    ? {
        heading: relatedText.HEADING,
        source: rel.source,
        items: shown.map((i) => {
          const json = itemJson(byId.get(i.collectionId)!, i, products.get(i.id), {
            currency: site.currency,
            commentsEnabled: false,
            // The related cards' grid: one column on a phone, about 280 px wide from there.
            sizes: '(max-width: 432px) 100vw, 280px',
          });
          const sc = json.structuredContent as { variants?: unknown[]; productType?: number; additionalFieldsFormId?: unknown };
          // A product with one variant and no form is added from the card; one with choices is chosen on its own page.
          json.quickAdd = (sc.variants?.length ?? 0) === 1 && sc.productType !== 4 && !sc.additionalFieldsFormId;
          json.chooseOptionsText = relatedText.CHOOSE_OPTIONS;
          return { json, publishOn: i.publishOn };
        }),
      }
    : null;

  // Ratings and reviews as schema.org properties, added to the product's structured data (server/seo).
  const jsonLd: Obj = {};
  if (summary.count > 0) {
    jsonLd.aggregateRating = {
      '@type': 'AggregateRating',
      ratingValue: summary.averageText,
      reviewCount: summary.count,
      bestRating: 5,
      worstRating: 1,
    };
    jsonLd.review = list.slice(0, 10).map((r) => ({
      '@type': 'Review',
      author: { '@type': 'Person', name: r.authorName },
      datePublished: new Date(r.created).toISOString().slice(0, 10),
      ...(r.title ? { name: r.title } : {}),
      reviewBody: r.body,
      reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating: 5, worstRating: 1 },
    }));
  }
  return { reviews: reviewsJson, related: relatedJson, reviewsJsonLd: jsonLd };
}
