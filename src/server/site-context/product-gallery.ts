import { renderIsland } from '../../web/ssr.js';
import type { ProductGalleryImage, ProductGalleryProps } from '../../core/api/storefront.js';
import { chosenImageUrl } from '../../core/product.js';
import { imageJson } from './context.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});

/** The main image's sizes on the product page (two columns from 433 px, one below). */
export const PRODUCT_IMAGE_SIZES = '(max-width: 432px) 100vw, 55vw';

export interface ProductGallery {
  html: string;
  /** The image shown first (the page's largest paint), as the preload names it. */
  first: { src: string; srcset?: string; sizes?: string } | null;
}

/**
 * The product page's gallery island: every image of the item (its assets, then any variant's own image that
 * is not among them), through the image template (srcset at the seven widths on the site's image hosts), and
 * the image the page opens on: the chosen variant's (`chosen`, from `?variant=`), else the first.
 */
export function productGallery(item: Obj, chosen: Record<string, string>): ProductGallery {
  const title = String(item.title ?? '');
  const assets = Array.isArray(item.items) ? (item.items as unknown[]).map(obj) : [];
  const variants = (Array.isArray(obj(item.structuredContent).variants) ? (obj(item.structuredContent).variants as unknown[]) : []).map(
    (v) => {
      const o = obj(v);
      return { attributes: obj(o.attributes) as Record<string, string>, ...(o.imageUrl ? { imageUrl: String(o.imageUrl) } : {}) };
    },
  );
  const sources = assets.filter((a) => typeof a.assetUrl === 'string' && a.assetUrl !== '');
  for (const v of variants)
    if (v.imageUrl && !sources.some((a) => a.assetUrl === v.imageUrl)) sources.push({ assetUrl: v.imageUrl, originalSize: '1200x1200' });
  const images: ProductGalleryImage[] = [];
  for (const a of sources) {
    const img = imageJson(a, String(a.altText || title), { sizes: PRODUCT_IMAGE_SIZES }) as
      (Record<string, string> & { width: number; height: number; focalPoint: { x: number; y: number } }) | null;
    if (!img) continue;
    images.push({
      src: img.src,
      ...(img.srcset ? { srcset: img.srcset } : {}),
      width: img.width,
      height: img.height,
      alt: img.alt,
      focalPoint: img.focalPoint,
    });
  }
  if (images.length === 0) return { html: '', first: null };
  const own = chosenImageUrl(variants, chosen);
  const at = own ? images.findIndex((x) => x.src === own) : -1;
  const shown = images[Math.max(0, at)];
  const props: ProductGalleryProps = {
    scope: String(item.id ?? ''),
    title,
    images,
    sizes: PRODUCT_IMAGE_SIZES,
    variants,
    ...(Object.keys(chosen).length > 0 ? { chosen } : {}),
  };
  return {
    html: renderIsland('ProductGallery', props as unknown as Record<string, unknown>),
    first: { src: shown.src, ...(shown.srcset ? { srcset: shown.srcset, sizes: PRODUCT_IMAGE_SIZES } : {}) },
  };
}
