/**
 * The product page's gallery: every image of the product, thumbnails, previous/next arrows, swipe, arrow
 * keys on the thumbnails, and a full-screen view with zoom (the shared Modal: focus kept inside, Escape or
 * Close shuts it, focus returns). It follows the product's variant choice (productStore): choosing a variant
 * with its own image shows that image. Without JavaScript the slides are a scroll-snap strip, every
 * thumbnail links to its slide and every image links to its large file.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent } from 'react';
import { Modal } from './Modal.js';
import { commerce } from '../../core/messages.js';
import { chosenImageUrl } from '../../core/product.js';
import { formatUrl } from '../../core/image.js';
import { useProductChoice } from '../client/product-store.js';
import { domId } from './product-props.js';
import type { ProductGalleryImage, ProductGalleryProps } from '../../core/api/storefront.js';

const ZOOM_STEPS = [1, 1.5, 2, 3] as const;
/** A horizontal move of at least this many pixels (more across than down) is a swipe. */
const SWIPE_PX = 40;

const large = (img: ProductGalleryImage) => (img.srcset ? formatUrl(img.src, 1500) : img.src);
const position = (img: ProductGalleryImage) => `${img.focalPoint.x * 100}% ${img.focalPoint.y * 100}%`;

export function ProductGallery({ scope, title, images, sizes, variants, chosen }: ProductGalleryProps) {
  const choice = useProductChoice(scope, chosen);
  const n = images.length;
  const own = chosenImageUrl(variants, choice.attributes);
  const ownIndex = own ? images.findIndex((x) => x.src === own) : -1;
  const [index, setIndex] = useState(Math.max(0, ownIndex));
  // The strip starts at the image the page opened on (without JavaScript it is the one in view), and keeps
  // that order: the position of image i is (i - start) around the strip.
  const [start] = useState(Math.max(0, ownIndex));
  const order = images.map((_, k) => (start + k) % n);
  const [mounted, setMounted] = useState(false);
  const [open, setOpen] = useState(false);
  const zoomLinks = useRef<Array<HTMLAnchorElement | null>>([]);
  const swipe = useRef<{ x: number; y: number; moved: boolean } | null>(null);
  const refocus = useRef(false);
  const shownVariantImage = useRef(ownIndex);
  const id = (part: string) => domId(scope, `gallery-${part}`);

  useEffect(() => setMounted(true), []);

  // A newly chosen variant with its own image shows it.
  useEffect(() => {
    if (ownIndex === shownVariantImage.current) return;
    shownVariantImage.current = ownIndex;
    if (ownIndex >= 0) setIndex(ownIndex);
  }, [ownIndex]);

  // Closing the full-screen view returns focus to the image now shown (the one it was opened from may have moved away).
  useEffect(() => {
    if (open || !refocus.current) return;
    refocus.current = false;
    zoomLinks.current[index]?.focus();
  }, [open, index]);

  const go = (i: number) => setIndex(((i % n) + n) % n);

  const onPointerDown = (e: PointerEvent) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    swipe.current = { x: e.clientX, y: e.clientY, moved: false };
  };
  const onPointerUp = (e: PointerEvent) => {
    const s = swipe.current;
    if (!s) return;
    const dx = e.clientX - s.x;
    if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > Math.abs(e.clientY - s.y)) {
      s.moved = true;
      go(index + (dx < 0 ? 1 : -1));
    } else swipe.current = null;
  };

  const openZoom = (e: MouseEvent) => {
    e.preventDefault();
    // The click that ends a swipe does not open the full-screen view.
    if (swipe.current?.moved) {
      swipe.current = null;
      return;
    }
    swipe.current = null;
    setOpen(true);
  };

  const hiddenSlide = (i: number) => mounted && i !== index;
  const shown = images[index];
  return (
    <section
      className={`product-gallery${mounted ? ' is-enhanced' : ''}`}
      aria-label={commerce.galleryLabel(title)}
      aria-roledescription="carousel"
    >
      <div
        className="product-gallery__stage"
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (swipe.current = null)}
      >
        <div
          className="product-gallery__track"
          style={{ transform: mounted ? `translateX(${-100 * ((index - start + n) % n)}%)` : undefined }}
        >
          {order
            .map((i) => ({ img: images[i], i }))
            .map(({ img, i }) => (
              <div
                key={`${img.src}-${i}`}
                id={id(`slide-${i + 1}`)}
                className={`product-gallery__slide${i === index ? ' is-current' : ''}`}
                role="group"
                aria-roledescription="slide"
                aria-label={commerce.imageOf(i + 1, n)}
                aria-hidden={hiddenSlide(i) ? true : undefined}
              >
                <a
                  ref={(el) => {
                    zoomLinks.current[i] = el;
                  }}
                  className="product-gallery__zoom"
                  href={large(img)}
                  aria-haspopup="dialog"
                  aria-label={commerce.zoomImage(i + 1, n)}
                  tabIndex={hiddenSlide(i) ? -1 : undefined}
                  onClick={openZoom}
                  draggable={false}
                >
                  {/* In a picture: React's server render would otherwise add its own preload for an eager image (the page has one). */}
                  <picture>
                    <img
                      className="product-detail__image"
                      src={img.src}
                      srcSet={img.srcset}
                      sizes={img.srcset ? sizes : undefined}
                      width={img.width}
                      height={img.height}
                      alt={img.alt}
                      loading={i === index ? 'eager' : 'lazy'}
                      fetchPriority={i === index ? 'high' : undefined}
                      decoding={i === index ? undefined : 'async'}
                      draggable={false}
                      style={{ objectPosition: position(img) }}
                    />
                  </picture>
                </a>
              </div>
            ))}
        </div>
        {n > 1 && <Arrows shown={mounted} onMove={(d) => go(index + d)} />}
      </div>
      {n > 1 && <Thumbnails images={images} index={index} mounted={mounted} slideId={(i) => id(`slide-${i + 1}`)} onChoose={setIndex} />}
      <p className="visually-hidden" aria-live="polite">
        {mounted ? commerce.imageOf(index + 1, n) : ''}
      </p>
      {open && shown && (
        <ZoomDialog
          title={title}
          titleId={id('zoom-title')}
          image={shown}
          index={index}
          count={n}
          go={go}
          onClose={() => {
            refocus.current = true;
            setOpen(false);
          }}
        />
      )}
    </section>
  );
}

interface ThumbnailsProps {
  images: ProductGalleryImage[];
  index: number;
  mounted: boolean;
  slideId: (i: number) => string;
  onChoose: (i: number) => void;
}

/** The thumbnails: links to their slides; with JavaScript one tab stop, the arrow keys (Home, End) move and show. */
function Thumbnails({ images, index, mounted, slideId, onChoose }: ThumbnailsProps) {
  const n = images.length;
  const thumbs = useRef<Array<HTMLAnchorElement | null>>([]);
  const onKey = (e: KeyboardEvent) => {
    const keys: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowDown: index + 1,
      ArrowLeft: index - 1,
      ArrowUp: index - 1,
      Home: 0,
      End: n - 1,
    };
    if (!(e.key in keys)) return;
    e.preventDefault();
    const next = ((keys[e.key] % n) + n) % n;
    onChoose(next);
    thumbs.current[next]?.focus();
  };
  return (
    <ul className="product-gallery__thumbs" aria-label={commerce.THUMBNAILS_LABEL} onKeyDown={onKey}>
      {images.map((img, i) => (
        <li key={`${img.src}-${i}`}>
          <a
            ref={(el) => {
              thumbs.current[i] = el;
            }}
            href={`#${slideId(i)}`}
            aria-label={commerce.showImage(i + 1, n)}
            aria-current={i === index ? 'true' : undefined}
            tabIndex={mounted && i !== index ? -1 : undefined}
            onClick={(e) => {
              e.preventDefault();
              onChoose(i);
            }}
          >
            <img
              src={img.srcset ? formatUrl(img.src, 300) : img.src}
              alt=""
              width={img.width}
              height={img.height}
              loading="lazy"
              decoding="async"
              style={{ objectPosition: position(img) }}
            />
          </a>
        </li>
      ))}
    </ul>
  );
}

interface ZoomDialogProps {
  title: string;
  titleId: string;
  image: ProductGalleryImage;
  index: number;
  count: number;
  go: (i: number) => void;
  onClose: () => void;
}

/** The full-screen view: the image at 100 to 300 % (scrolls to pan), previous and next image. */
function ZoomDialog({ title, titleId, image, index, count, go, onClose }: ZoomDialogProps) {
  const [zoom, setZoom] = useState(0);
  const scale = ZOOM_STEPS[zoom];
  return (
    <Modal title={title} titleId={titleId} className="product-zoom" onClose={onClose}>
      <div className="product-zoom__tools">
        {count > 1 && (
          <button type="button" onClick={() => go(index - 1)}>
            {commerce.PREVIOUS_IMAGE}
          </button>
        )}
        <button type="button" aria-disabled={zoom === 0 ? true : undefined} onClick={() => setZoom((z) => Math.max(0, z - 1))}>
          {commerce.ZOOM_OUT}
        </button>
        <span className="product-zoom__level" aria-live="polite">
          {commerce.imageOf(index + 1, count)} · {scale * 100}%
        </span>
        <button
          type="button"
          aria-disabled={zoom === ZOOM_STEPS.length - 1 ? true : undefined}
          onClick={() => setZoom((z) => Math.min(ZOOM_STEPS.length - 1, z + 1))}
        >
          {commerce.ZOOM_IN}
        </button>
        {count > 1 && (
          <button type="button" onClick={() => go(index + 1)}>
            {commerce.NEXT_IMAGE}
          </button>
        )}
      </div>
      <div className="product-zoom__view">
        <img
          src={large(image)}
          srcSet={image.srcset}
          sizes={`${Math.round(scale * 100)}vw`}
          width={image.width}
          height={image.height}
          alt={image.alt}
          style={{ width: `${scale * 100}%` }}
        />
      </div>
    </Modal>
  );
}

/** Previous and next over the image: they need JavaScript, so they show once the island runs. */
function Arrows({ shown, onMove }: { shown: boolean; onMove: (delta: number) => void }) {
  return (
    <>
      <button type="button" className="product-gallery__arrow product-gallery__arrow--prev" hidden={!shown} onClick={() => onMove(-1)}>
        <span aria-hidden="true">‹</span>
        <span className="visually-hidden">{commerce.PREVIOUS_IMAGE}</span>
      </button>
      <button type="button" className="product-gallery__arrow product-gallery__arrow--next" hidden={!shown} onClick={() => onMove(1)}>
        <span aria-hidden="true">›</span>
        <span className="visually-hidden">{commerce.NEXT_IMAGE}</span>
      </button>
    </>
  );
}
