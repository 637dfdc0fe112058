/**
 * What the product page gets from this area: approved reviews with their average and count (for the
 * reviews tab and the anchor link next to the title), related products, and the schema.org Product
 * JSON-LD with AggregateRating and Review. The page pipeline calls productPageExtras once per product page.
 */
import type { FastifyInstance } from 'fastify';
import type { WebsiteRow } from '../platform/index.js';
import { itemJson, productsFor, type CollectionRow, type ItemRow } from '../site-context/index.js';
import { relatedProducts as relatedText, reviews as text } from '../../core/messages.js';
import { RATING_MAX } from '../../core/reviews.js';
import { moneyDecimalString } from '../../core/money.js';
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
  productJsonLd: string;
}
const extrasOf = new WeakMap<ItemRow, { site: WebsiteRow; collections: CollectionRow[]; origin: string; extras: Promise<Extras> }>();

/** `productJsonLd` is the schema.org JSON-LD as text, safe to write between <script type="application/ld+json"> tags. */
export async function productPageExtras(app: FastifyInstance, input: ProductPageInput): Promise<{ productJsonLd: string }> {
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
  return { productJsonLd: extras.productJsonLd };
}

async function makeExtras(app: FastifyInstance, input: ProductPageInput): Promise<Extras> {
  const { reviews, related } = reviewServicesOf(app);
  const { site, row, item } = input;
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
            sizes: '(max-width: 432px) 50vw, 200px',
          });
          const sc = json.structuredContent as { variants?: unknown[]; productType?: number; additionalFieldsFormId?: unknown };
          // A product with one variant and no form is added from the card; one with choices is chosen on its own page.
          json.quickAdd = (sc.variants?.length ?? 0) === 1 && sc.productType !== 4 && !sc.additionalFieldsFormId;
          json.chooseOptionsText = relatedText.CHOOSE_OPTIONS;
          return { json, publishOn: i.publishOn };
        }),
      }
    : null;

  // schema.org structured data for search engines: one Offer per variant, with its own price and stock.
  type V = {
    sku?: string;
    attributes?: Record<string, string>;
    priceMoney?: { value: string };
    salePriceMoney?: { value: string };
    onSale?: boolean;
    unlimited?: boolean;
    qtyInStock?: number;
  };
  const sc = (item.structuredContent ?? {}) as { variants?: V[] };
  const variants = sc.variants ?? [];
  const url = input.origin + String(item.fullUrl ?? '');
  const offers = variants.map((v) => {
    const cents = v.onSale ? v.salePriceMoney?.value : v.priceMoney?.value;
    const options = Object.values(v.attributes ?? {}).filter(Boolean);
    return {
      '@type': 'Offer',
      url,
      ...(v.sku ? { sku: v.sku } : {}),
      ...(options.length ? { name: `${row.title} - ${options.join(' / ')}` } : {}),
      priceCurrency: site.currency,
      price: moneyDecimalString(cents ?? '0', site.currency),
      availability: v.unlimited || Number(v.qtyInStock) > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/NewCondition',
    };
  });
  const first = variants[0];
  const image = item.assetUrl ? (String(item.assetUrl).startsWith('http') ? item.assetUrl : input.origin + String(item.assetUrl)) : null;
  const jsonLd: Obj = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: row.title,
    url,
    description: String(item.excerpt ?? ''),
    ...(image ? { image } : {}),
    ...(first?.sku ? { sku: first.sku } : {}),
    ...(variants.length > 1 ? { productGroupID: row.id } : {}),
    ...(offers.length === 1 ? { offers: offers[0] } : offers.length > 1 ? { offers } : {}),
  };
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
  // Written into a <script> element: every '<', '>' and '&' escaped, so no text a buyer wrote can end or
  // change the element (the engine's json formatter escapes only '</').
  const ldText = JSON.stringify(jsonLd)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return { reviews: reviewsJson, related: relatedJson, productJsonLd: ldText };
}
