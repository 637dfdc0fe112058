import { renderIsland } from '../../web/ssr.js';
import type { GalleryImage, GalleryProps } from '../../core/api/storefront.js';
import type { GalleryOptions } from './context.js';

type Obj = Record<string, unknown>;

/** The gallery island of a gallery collection: its options and images, rendered on the server. */
export function galleryIsland(collection: Obj, items: Obj[]): string {
  const options = collection.gallery as GalleryOptions;
  const images: GalleryImage[] = [];
  for (const it of items) {
    const img = it.image as {
      src: string;
      srcset: string;
      width: number;
      height: number;
      alt: string;
      focalPoint: { x: number; y: number };
    } | null;
    if (!img) continue;
    images.push({
      id: String(it.id),
      title: String(it.title ?? ''),
      description: String(it.excerpt ?? ''),
      src: img.src,
      srcset: img.srcset,
      width: img.width,
      height: img.height,
      alt: img.alt,
      focalPoint: img.focalPoint,
    });
  }
  const props: GalleryProps = { id: String(collection.id), title: String(collection.title ?? ''), options, images };
  return renderIsland('Gallery', props as unknown as Record<string, unknown>);
}
