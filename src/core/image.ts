/**
 * The image template rule: validates image props and produces the attribute set of an <img>.
 *
 * Props: src, width, height, alt (required); class, style, priority, sizes, loader, srcset,
 * focalPoint, passthrough. width/height are positive integers. priority: 'high' -> fetchpriority
 * high + eager loading; 'low' -> fetchpriority low + lazy; null/absent -> lazy. loader: 'raw'
 * (default; srcset only as given) or 'sqs' (srcset of the 7 platform widths via ?format=, sizes
 * required). A srcset prop is only allowed with the raw loader.
 */
import { DEFAULT_FOCAL_POINT, SRCSET_WIDTHS } from './constants';
import { image as m, template as t } from './messages';

export type ImagePriority = 'high' | 'low' | null;
export type ImageLoader = 'sqs' | 'raw';

export interface ImageProps {
  src: string;
  width: number | string;
  height: number | string;
  alt: string;
  class?: string;
  style?: string;
  priority?: ImagePriority;
  sizes?: string;
  loader?: ImageLoader | string;
  srcset?: string;
  focalPoint?: { x: number; y: number } | null;
  /** Extra attributes copied as they are. */
  passthrough?: Record<string, string | number | boolean>;
}

export type ImageAttributes = Record<string, string>;

export class ImagePropError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImagePropError';
  }
}

function dimension(src: string, name: 'width' | 'height', value: unknown): number {
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) value = Number(value);
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new ImagePropError(m.invalidProp(src, name, m.REQUIRES_POSITIVE_INTEGER));
  }
  if (!Number.isInteger(value) || value <= 0) {
    throw new ImagePropError(m.invalidProp(src, name, m.NEGATIVE_OR_NON_INTEGER));
  }
  return value;
}

/** Appends ?format={w}w (or &format=) to a URL, keeping any fragment last. */
export function formatUrl(src: string, width: number): string {
  const hashAt = src.indexOf('#');
  const base = hashAt >= 0 ? src.slice(0, hashAt) : src;
  const hash = hashAt >= 0 ? src.slice(hashAt) : '';
  return `${base}${base.includes('?') ? '&' : '?'}format=${width}w${hash}`;
}

/**
 * Whether an image URL is served by the site's own image hosts, the ones that answer the `?format=`
 * size query: a path on the site's own origin (`/demo-media/x.jpg`), or an absolute URL whose origin is
 * in `hosts` (the site's public origin and its configured media CDN hosts, at most MAX_IMAGE_HOSTS).
 * Images anywhere else get no platform srcset: their host would not know the format query.
 */
export function onImageHost(src: string, hosts: readonly string[]): boolean {
  if (src.startsWith('/')) return !src.startsWith('//') && !src.startsWith('/\\');
  if (src.length > 4096 || !/^https?:\/\//i.test(src)) return false;
  let origin: string;
  try {
    origin = new URL(src).origin;
  } catch {
    return false;
  }
  return hosts.some((h) => h === origin);
}

/** The platform srcset: '{src}?format=100w 100w, ... , {src}?format=2500w 2500w'. */
export function platformSrcset(src: string): string {
  return SRCSET_WIDTHS.map((w) => `${formatUrl(src, w)} ${w}w`).join(', ');
}

/** Validates the props and returns the <img> attributes. Throws ImagePropError with its message (core/messages.ts). */
export function imageAttributes(props: ImageProps): ImageAttributes {
  const src = typeof props?.src === 'string' ? props.src : '';
  if (src === '') throw new ImagePropError(m.missingProp(String(props?.src ?? ''), 'src'));
  for (const k of ['width', 'height', 'alt'] as const) {
    if (props[k] === undefined || props[k] === null) throw new ImagePropError(m.missingProp(src, k));
  }
  const width = dimension(src, 'width', props.width);
  const height = dimension(src, 'height', props.height);

  const loader = props.loader ?? 'raw';
  if (loader !== 'sqs' && loader !== 'raw') throw new ImagePropError(m.unknownLoader(src, String(loader)));

  const priority = props.priority ?? null;
  if (priority !== null && priority !== 'high' && priority !== 'low') {
    throw new ImagePropError(`Image with src "${src}" has invalid "priority" property: expected high, low or null`);
  }

  const attrs: ImageAttributes = { src, width: String(width), height: String(height), alt: String(props.alt) };
  if (props.class) attrs.class = props.class;
  if (props.style) attrs.style = props.style;

  if (loader === 'sqs') {
    if (props.srcset)
      throw new ImagePropError(`Image with src "${src}" has "srcset" property: srcset is only allowed with the "raw" loader`);
    if (!props.sizes) throw new ImagePropError(`Image with src "${src}" is missing "sizes" property: required with the "sqs" loader`);
    attrs.srcset = platformSrcset(src);
    attrs.sizes = props.sizes;
  } else {
    if (props.srcset) attrs.srcset = props.srcset;
    if (props.sizes) attrs.sizes = props.sizes;
  }

  if (priority === 'high') {
    attrs.fetchpriority = 'high';
    attrs.loading = 'eager';
  } else if (priority === 'low') {
    attrs.fetchpriority = 'low';
    attrs.loading = 'lazy';
  } else {
    attrs.loading = 'lazy';
  }
  attrs.decoding = 'async';

  const fp = focalPoint(props.focalPoint);
  attrs['data-image-focal-point'] = `${fp.x},${fp.y}`;
  attrs['data-image-dimensions'] = `${width}x${height}`;

  for (const [k, v] of Object.entries(props.passthrough ?? {})) {
    if (!(k in attrs)) attrs[k] = String(v);
  }
  return attrs;
}

/** A focal point with x and y clamped to 0-1; default 0.5,0.5. */
export function focalPoint(p: { x?: unknown; y?: unknown } | null | undefined): { x: number; y: number } {
  const pick = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : d);
  return { x: pick(p?.x, DEFAULT_FOCAL_POINT.x), y: pick(p?.y, DEFAULT_FOCAL_POINT.y) };
}

/** Parses an originalSize 'WxH' string; throws "Invalid source parameter. Pass in 'originalSize'". */
export function parseOriginalSize(originalSize: unknown): { width: number; height: number } {
  const match = typeof originalSize === 'string' ? /^\s*(\d+)\s*x\s*(\d+)\s*$/i.exec(originalSize) : null;
  if (!match) throw new ImagePropError(t.INVALID_SOURCE_PARAMETER);
  return { width: Number(match[1]), height: Number(match[2]) };
}

/** The format width to request for a displayed width: the first platform width at least as wide (2500 at most). */
export function formatWidthFor(displayWidth: number): number {
  return SRCSET_WIDTHS.find((w) => w >= displayWidth) ?? SRCSET_WIDTHS[SRCSET_WIDTHS.length - 1];
}
