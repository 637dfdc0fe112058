/**
 * The structured data of the storefront's pages from their rows: the home page's store and website, a
 * product page's product (with the store's shipping rates), a blog post and an event. Built by the page
 * pipeline (server/pages/routes.ts); kept per content version where it reads the database.
 */
import type { FastifyInstance } from 'fastify';
import type { WebsiteRow } from '../platform/index.js';
import type { CollectionRow, ItemRow } from '../site-context/index.js';
import type { VariantRow } from '../commerce/index.js';
import type { ShippingOption } from '../../core/checkout.js';
import { scriptJson } from '../../core/html.js';
import { blogPostingJsonLd, eventJsonLd, organizationJsonLd, productBrand, productJsonLd, webSiteJsonLd } from './json-ld.js';

type Obj = Record<string, unknown>;

/** The store's enabled shipping options, read once per content version (shipping writes move it). */
export function storeShipping(app: FastifyInstance, site: WebsiteRow): Promise<ShippingOption[]> {
  if (!app.hasDecorator('checkout')) return Promise.resolve([]);
  return app.siteCache.get('seo-shipping', site.id, () => app.checkout.service.shippingOptions(app.database.db, site.id));
}

/** The store's own country (ISO code) from its business address, or ''. */
export function homeCountry(site: WebsiteRow): string {
  const loc = site.settings.location as Obj | undefined;
  const c = typeof loc?.country === 'string' ? loc.country.trim() : '';
  return /^[A-Za-z]{2}$/.test(c) ? c.toUpperCase() : '';
}

/** The home page's store (OnlineStore when it has a products collection) and website. */
export function homeJsonLd(site: WebsiteRow, origin: string, collections: CollectionRow[]): Obj[] {
  const store = collections.some((c) => c.enabled && c.typeName === 'products');
  const description = String(site.settings.siteDescription ?? '');
  return [
    organizationJsonLd({ origin, title: site.title, description, settings: site.settings, store }),
    webSiteJsonLd({ origin, title: site.title }),
  ];
}

export interface ProductPageLd {
  site: WebsiteRow;
  row: ItemRow;
  variants: VariantRow[];
  origin: string;
  /** The product page's path. */
  path: string;
  description: string;
  /** aggregateRating and review (server/reviews), when the product has approved reviews. */
  reviews?: Obj;
}

/**
 * A product page's structured data (Product, or ProductGroup of its variants) as JSON text safe inside
 * the theme's <script type="application/ld+json"> element.
 */
export async function productPageJsonLd(app: FastifyInstance, p: ProductPageLd): Promise<string> {
  const sc = p.row.structuredContent ?? {};
  const ld = productJsonLd({
    origin: p.origin,
    url: p.origin + p.path,
    id: p.row.id,
    name: p.row.title,
    description: p.description,
    images: p.row.assets.map((a) => String(a.assetUrl ?? '')),
    brand: productBrand(sc, p.site.title),
    currency: p.site.currency,
    productType: Number(sc.productType ?? 1),
    structuredContent: sc,
    variants: p.variants,
    shipping: await storeShipping(app, p.site),
    homeCountry: homeCountry(p.site),
    ...(p.reviews ? { reviews: p.reviews } : {}),
  });
  return scriptJson(ld);
}

/** A blog post's or an event's structured data (none for other items, or an event with no place). */
export function itemJsonLd(site: WebsiteRow, c: CollectionRow, row: ItemRow, item: Obj, origin: string): Obj[] {
  const url = origin + String(item.fullUrl ?? '');
  const images = row.assets.map((a) => String(a.assetUrl ?? ''));
  const description = String(item.excerpt ?? '');
  if (c.typeName === 'blog')
    return [
      blogPostingJsonLd({
        origin,
        url,
        title: row.title,
        description,
        images,
        published: row.publishOn,
        modified: row.updatedAt,
        author: row.author ?? '',
        siteTitle: site.title,
      }),
    ];
  if (c.typeName === 'events') {
    const ev = eventJsonLd({
      origin,
      url,
      title: row.title,
      description,
      images,
      start: new Date(Number(item.startDate)),
      end: new Date(Number(item.endDate)),
      location: (item.location as Obj | null) ?? null,
      siteTitle: site.title,
    });
    return ev ? [ev] : [];
  }
  return [];
}
