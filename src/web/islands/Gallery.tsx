/**
 * The gallery block: grid, slideshow, slider and stacked designs with their options.
 * Without JavaScript every design works: slides are a scroll-snap track, arrows and thumbnails are
 * links to the slides, and an image opens its large version. With JavaScript the island adds
 * autoplay (paused on hover, focus, or a reduced-motion preference), keyboard arrows, a live
 * slide counter and the lightbox (the shared Modal: dark or light, Escape closes, focus returns).
 */
import { useCallback, useEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type MouseEvent } from 'react';
import { Modal } from './Modal.js';
import type { GalleryImage, GalleryOptionsProps, GalleryProps } from '../../core/api/storefront.js';
export type { GalleryImage, GalleryOptionsProps, GalleryProps };

const large = (src: string) => `${src}${src.includes('?') ? '&' : '?'}format=1500w`;
const objectPosition = (fp: { x: number; y: number }) => `${fp.x * 100}% ${fp.y * 100}%`;

function Meta({ image, onlyTitle, className }: { image: GalleryImage; onlyTitle: boolean; className: string }) {
  return (
    <figcaption className={className}>
      <span className="gallery__meta-title">{image.title}</span>
      {!onlyTitle && image.description ? <span className="gallery__meta-description">{image.description}</span> : null}
    </figcaption>
  );
}

export function Gallery({ id, title, options: o, images }: GalleryProps) {
  const [index, setIndex] = useState(0);
  const [open, setOpen] = useState<number | null>(null);
  const [paused, setPaused] = useState(false);
  const [stopped, setStopped] = useState(false);
  const track = useRef<HTMLDivElement>(null);
  const n = images.length;
  const slideId = (i: number) => `gallery-${id}-slide-${i}`;
  const carousel = o.design === 'slideshow' || o.design === 'slider';

  const goTo = useCallback(
    (i: number, smooth = true) => {
      const next = ((i % n) + n) % n;
      setIndex(next);
      const el = track.current;
      const slide = el?.children[next] as HTMLElement | undefined;
      if (el && slide) {
        const align = o.design === 'slider' ? o.activeAlignment : 'left';
        const left =
          align === 'center'
            ? slide.offsetLeft - (el.clientWidth - slide.clientWidth) / 2
            : align === 'right'
              ? slide.offsetLeft - (el.clientWidth - slide.clientWidth)
              : slide.offsetLeft;
        el.scrollTo({ left, behavior: smooth ? 'smooth' : 'auto' });
      }
    },
    [n, o.design, o.activeAlignment],
  );

  // Autoplay: every autoplayDuration seconds, unless paused, stopped, or the visitor prefers less motion.
  useEffect(() => {
    if (!carousel || !o.autoplay || paused || stopped || n < 2) return;
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    const t = setInterval(() => goTo(index + 1), o.autoplayDuration * 1000);
    return () => clearInterval(t);
  }, [carousel, o.autoplay, o.autoplayDuration, paused, stopped, n, index, goTo]);

  // Scrolling the track by touch or trackpad moves the current slide too.
  useEffect(() => {
    const el = track.current;
    if (!el || !carousel) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onScroll = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const kids = [...el.children] as HTMLElement[];
        let best = 0;
        let bestDist = Infinity;
        kids.forEach((k, i) => {
          const d = Math.abs(k.offsetLeft - el.scrollLeft);
          if (d < bestDist) {
            bestDist = d;
            best = i;
          }
        });
        setIndex(best);
      }, 100);
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      clearTimeout(timer);
      el.removeEventListener('scroll', onScroll);
    };
  }, [carousel]);

  // Arrow keys move between images while the lightbox is open.
  useEffect(() => {
    if (open === null) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'ArrowRight') setOpen((o2) => (o2 === null ? o2 : (o2 + 1) % n));
      else if (e.key === 'ArrowLeft') setOpen((o2) => (o2 === null ? o2 : (o2 - 1 + n) % n));
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, n]);

  const onTrackKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight') {
      e.preventDefault();
      goTo(index + 1);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      goTo(index - 1);
    }
  };

  const linkTo = (i: number) => (e: MouseEvent) => {
    e.preventDefault();
    goTo(i);
  };

  const openImage = (i: number) => (e: MouseEvent) => {
    if (!o.lightbox) return;
    e.preventDefault();
    setOpen(i);
  };

  const metaClass = `gallery__meta gallery__meta--${o.metaPosition}${o.showMetaOnHover ? ' gallery__meta--hover' : ''}`;
  const rootStyle = {
    '--gallery-gap': `${o.padding}px`,
    '--gallery-per-row': o.thumbnailsPerRow,
    '--gallery-ratio': o.autoCrop ? String(o.aspectRatioValue) : 'auto',
    '--gallery-slider-ratio': `100 / ${o.sliderAspectRatio}`,
    '--gallery-strip-height': `${o.thumbnailStripHeight}px`,
    '--gallery-strip-margin': `${o.thumbnailStripMargin}px`,
    '--gallery-thumb-max': `${o.maxWidth}px`,
  } as CSSProperties;
  const cls = `gallery gallery--${o.design} gallery--ratio-${o.aspectRatio}${o.transparentBackground ? ' gallery--transparent' : ''}${o.autoCrop ? ' gallery--crop' : ''}`;
  const target = !o.lightbox && o.newWindow ? '_blank' : undefined;

  const picture = (img: GalleryImage, i: number, sizes: string) => (
    <img
      src={img.src}
      srcSet={img.srcset}
      sizes={sizes}
      width={img.width}
      height={img.height}
      alt={img.alt}
      loading={i === 0 ? 'eager' : 'lazy'}
      decoding="async"
      style={{ objectPosition: objectPosition(img.focalPoint) }}
    />
  );

  const opener = (img: GalleryImage, i: number, sizes: string) => (
    <a
      className="gallery__open"
      href={large(img.src)}
      target={target}
      rel={target ? 'noopener' : undefined}
      onClick={openImage(i)}
      aria-label={o.lightbox ? `Open ${img.title || img.alt} in a larger view` : `${img.title || img.alt}: full size image`}
      aria-haspopup={o.lightbox ? 'dialog' : undefined}
    >
      {picture(img, i, sizes)}
    </a>
  );

  let body;
  if (o.design === 'grid') {
    body = (
      <ul className="gallery__grid">
        {images.map((img, i) => (
          <li key={img.id} className="gallery__item">
            <figure>
              {opener(img, i, `(max-width: 432px) 100vw, ${Math.ceil(100 / o.thumbnailsPerRow)}vw`)}
              <Meta image={img} onlyTitle={o.showMetaOnlyTitle} className={metaClass} />
            </figure>
          </li>
        ))}
      </ul>
    );
  } else if (o.design === 'stacked') {
    body = (
      <ol className="gallery__stack">
        {images.map((img, i) => (
          <li key={img.id} className="gallery__item">
            <figure>
              {opener(img, i, '(max-width: 432px) 100vw, 900px')}
              {o.showMetaBasic ? <Meta image={img} onlyTitle={false} className="gallery__meta gallery__meta--basic" /> : null}
            </figure>
          </li>
        ))}
      </ol>
    );
  } else {
    const showCaptions = o.design === 'slideshow' ? o.showMeta : true;
    body = (
      <>
        <div className="gallery__viewport">
          <div
            ref={track}
            className={`gallery__track gallery__track--${o.activeAlignment}`}
            tabIndex={0}
            role="group"
            aria-label={`${title}: use the arrow keys to move between images`}
            onKeyDown={onTrackKey}
            onMouseEnter={() => setPaused(true)}
            onMouseLeave={() => setPaused(false)}
            onFocus={() => setPaused(true)}
            onBlur={() => setPaused(false)}
          >
            {images.map((img, i) => (
              // The slide is a div: the group role is not allowed on a figure (axe aria-allowed-role); the figure sits inside.
              <div
                key={img.id}
                id={slideId(i)}
                className={`gallery__slide${i === index ? ' is-active' : ''}`}
                role="group"
                aria-roledescription="slide"
                aria-label={`${i + 1} of ${n}`}
              >
                <figure className="gallery__slide-figure" style={{ margin: 0 }}>
                  {opener(img, i, o.design === 'slider' ? '(max-width: 432px) 85vw, 40vw' : '(max-width: 432px) 100vw, 1100px')}
                  {showCaptions ? <Meta image={img} onlyTitle={o.showMetaOnlyTitle} className={metaClass} /> : null}
                </figure>
              </div>
            ))}
          </div>
          {o.controls || o.design === 'slideshow' ? (
            <div className="gallery__controls">
              <a
                className="gallery__arrow gallery__arrow--prev"
                href={`#${slideId((index - 1 + n) % n)}`}
                onClick={linkTo(index - 1)}
                aria-label="Previous image"
              >
                <span aria-hidden="true">‹</span>
              </a>
              <a
                className="gallery__arrow gallery__arrow--next"
                href={`#${slideId((index + 1) % n)}`}
                onClick={linkTo(index + 1)}
                aria-label="Next image"
              >
                <span aria-hidden="true">›</span>
              </a>
            </div>
          ) : null}
        </div>
        <div className="gallery__status">
          <p className="gallery__counter" aria-live={o.autoplay && !stopped ? 'off' : 'polite'}>
            Image {index + 1} of {n}
          </p>
          {o.autoplay ? (
            <button type="button" className="gallery__pause" onClick={() => setStopped((s) => !s)} aria-pressed={stopped}>
              {stopped ? 'Play slideshow' : 'Pause slideshow'}
            </button>
          ) : null}
        </div>
        {o.design === 'slideshow' && o.thumbnails ? (
          <ul className={`gallery__thumbs${o.squareThumbs ? ' gallery__thumbs--square' : ''}`} aria-label="Choose an image">
            {images.map((img, i) => (
              <li key={img.id}>
                <a
                  href={`#${slideId(i)}`}
                  onClick={linkTo(i)}
                  aria-current={i === index ? 'true' : undefined}
                  aria-label={`Show image ${i + 1}: ${img.title || img.alt}`}
                >
                  <img
                    src={`${img.src}${img.src.includes('?') ? '&' : '?'}format=300w`}
                    alt=""
                    width={img.width}
                    height={img.height}
                    loading="lazy"
                    decoding="async"
                  />
                </a>
              </li>
            ))}
          </ul>
        ) : null}
      </>
    );
  }

  const shown = open === null ? null : images[open];
  return (
    <section className={cls} style={rootStyle} aria-roledescription={carousel ? 'carousel' : undefined} aria-label={title}>
      {body}
      {shown && open !== null ? (
        <Modal
          title={shown.title || shown.alt}
          titleId={`gallery-${id}-lightbox-title`}
          onClose={() => setOpen(null)}
          className={`gallery-lightbox gallery-lightbox--${o.lightboxTheme}`}
        >
          <div className="gallery-lightbox__stage">
            <img src={large(shown.src)} alt={shown.alt} width={shown.width} height={shown.height} />
            {shown.description ? <p className="gallery-lightbox__caption">{shown.description}</p> : null}
            <div className="gallery-lightbox__nav">
              <button type="button" onClick={() => setOpen((open - 1 + n) % n)} aria-label="Previous image">
                ‹ Previous
              </button>
              <span className="gallery-lightbox__count">
                {open + 1} / {n}
              </span>
              <button type="button" onClick={() => setOpen((open + 1) % n)} aria-label="Next image">
                Next ›
              </button>
            </div>
          </div>
        </Modal>
      ) : null}
    </section>
  );
}
