/** Content formatters: images, srcsets, colours, dimensions, video, audio, item classes. */
import type { Context } from '../context';
import type { FormatterFn } from '../types';
import { asNumber, asString, escapeAttr, isTruthy, path, step } from '../util';
import { isOnSale, isSoldOut } from './commerce-util';
import { slugify } from './core';
import { execTemplate, widget } from './exec';

export const SRCSET_WIDTHS = ['100w', '300w', '500w', '750w', '1000w', '1500w', '2500w'];
const MAX_ALT = 250;
const IMAGE_BLOCK = 5;
const STORE_ITEM = 11;

/** Decimal text of numbers (fractions are costly to print and focal points repeat). */
const numText = new Map<number, string>();
function numberText(n: number): string {
  if ((n | 0) === n) return '' + n;
  let t = numText.get(n);
  if (t === undefined) {
    t = '' + n;
    if (numText.size > 5000) numText.clear();
    numText.set(n, t);
  }
  return t;
}

export function focalPoint(media: unknown): string {
  const fp = step(media, 'mediaFocalPoint');
  return fp === undefined ? '0.5,0.5' : numberText(asNumber(step(fp, 'x'))) + ',' + numberText(asNumber(step(fp, 'y')));
}

function removeTags(s: string): string {
  let out = '';
  let inTag = false;
  for (const ch of s) {
    if (ch === '<') inTag = true;
    else if (ch === '>') {
      inTag = false;
      out += ' ';
    } else if (!inTag) out += ch;
  }
  return out;
}

export function altText(ctx: Context, image: unknown): string {
  const bt = ctx.resolve(P_BLOCK_TYPE);
  if (bt !== undefined && asNumber(bt) === IMAGE_BLOCK) return asString(step(image, 'altText')).trim();
  const title = step(image, 'title');
  if (isTruthy(title)) return asString(title);
  const body = step(image, 'body');
  if (isTruthy(body)) {
    const t = removeTags(asString(body));
    if (t.length > 0) return t.substring(0, Math.min(t.length, MAX_ALT));
  }
  const fn = step(image, 'filename');
  return isTruthy(fn) ? asString(fn) : '';
}

export function imageMeta(image: unknown, ctx: Context, preferredAlt?: string): string {
  if (image === undefined) return '';
  const key = step(image, 'componentKey');
  const url = asString(step(image, 'assetUrl'));
  const alt = escapeAttr(preferredAlt !== undefined ? preferredAlt : altText(ctx, image));
  let out = '';
  const lap = step(image, 'licensedAssetPreview');
  if (lap !== null && typeof lap === 'object' && !Array.isArray(lap)) out += 'data-licensed-asset-preview="true" ';
  if (key !== undefined) out += `data-component-key="${asString(key)}" `;
  out += `data-src="${url}" data-image="${url}" data-image-dimensions="${asString(step(image, 'originalSize'))}" `;
  out += `data-image-focal-point="${focalPoint(image)}" alt="${alt}" `;
  return out;
}

const dims = (v: unknown): string[] | null => {
  const parts = asString(v).split('x');
  return parts.length === 2 ? parts : null;
};

const INVALID_SOURCE = "Invalid source parameter. Pass in 'originalSize'";

function resize(v: unknown, byWidth: boolean, requested: number): number | string {
  const p = dims(v);
  if (p === null) return INVALID_SOURCE;
  const w = parseInt(p[0], 10);
  const h = parseInt(p[1], 10);
  return (byWidth ? w * (requested / h) : h * (requested / w)) | 0;
}

export function thumbnailForWidth(width: number): string {
  if (width > 1000) return '1500w';
  if (width > 750) return '1000w';
  if (width > 500) return '750w';
  if (width > 300) return '500w';
  if (width > 100) return '300w';
  return '100w';
}

const VALID_HEX = /^[abcdef0-9]{3,6}$/i;
function hexToInt(hex: string): number {
  let h = hex.charAt(0) === '#' ? hex.slice(1) : hex;
  if (!VALID_HEX.test(h)) return -1;
  if (h.length === 3) h = h[0] + h[0] + h[1] + h[1] + h[2] + h[2];
  return parseInt(h, 16);
}

const AUDIO = `<script>Y.use('squarespace-audio-player-frontend');</script>
<div class="squarespace-audio-player" data-audio-asset-url="{structuredContent.audioAssetUrl}" data-item-id="{id}" id="audio-player-{id}"></div>`;

const COLOR_KEYS = ['topLeft', 'topRight', 'bottomLeft', 'bottomRight', 'center'];
const fixed2 = (n: number) => parseFloat(n.toFixed(2));

const P_PROMOTED = ['promotedBlockType'];
const P_CATEGORIES = ['categories'];
const P_TAGS = ['tags'];
const P_AUTHOR = ['author'];
const P_RECORD_TYPE_LABEL = ['recordTypeLabel'];
const P_INDEX = ['@index'];
const P_STARRED = ['starred'];
const P_BLOCK_TYPE = ['blockType'];

/** Append ` prefix-slug` for each entry of a (truthy) list. */
function classList(out: string, prefix: string, n: unknown): string {
  if (!isTruthy(n) || !Array.isArray(n)) return out;
  for (let i = 0; i < n.length; i++) out += ' ' + prefix + '-' + slugify(asString(n[i]));
  return out;
}

export const CONTENT_FORMATTERS: Record<string, FormatterFn> = {
  AbsUrl: (v, _a, ctx: Context) => asString(ctx.resolve(['base-url'])) + '/' + asString(v),
  'audio-player': (v, args, ctx: Context) => widget(ctx, 'audio-player', v, args, execTemplate(ctx, AUDIO, v, true)),
  capitalize: (v) => asString(v).toUpperCase(),
  'child-image-meta': (v, args, ctx: Context) => imageMeta(path(v, ['items', args.length === 0 ? 0 : parseInt(args[0], 10)]), ctx),
  'cover-image-meta': (v, _a, ctx: Context) => imageMeta(step(v, 'coverImage'), ctx),
  'color-weight': (v) => {
    const c = hexToInt(asString(v));
    return c === -1 ? undefined : c > 0xffffff / 2 ? 'light' : 'dark';
  },
  height: (v) => {
    const p = dims(v);
    return p === null ? undefined : parseInt(p[1], 10);
  },
  width: (v) => {
    const p = dims(v);
    return p === null ? undefined : parseInt(p[0], 10);
  },
  humanizeDuration: (v) => {
    const s = (asNumber(v) / 1000) | 0;
    const m = (s / 60) | 0;
    return `${m}:${String(s - m * 60).padStart(2, '0')}`;
  },
  image: (v, args, ctx: Context) => {
    const cls = args.length === 1 ? args[0] : 'thumb-image';
    const alt = escapeAttr(altText(ctx, v));
    const url = asString(step(v, 'assetUrl'));
    return (
      `<noscript><img src="${url}" alt="${alt}" /></noscript><img class="${cls}" ` +
      imageMeta(v, ctx, alt) +
      `data-load="false" data-image-id="${asString(step(v, 'id'))}" data-type="image" />`
    );
  },
  'image-color': (v, args) => {
    const cd = step(v, 'colorData');
    if (cd === undefined) return undefined;
    if (args.length > 0) {
      const c = asString(step(cd, args[0] + 'Average'));
      if (c.length === 0) return `"${args[0]}" not found.`;
      return (args.length > 1 ? `${args[1]}: ` : '') + `#${c}`;
    }
    return COLOR_KEYS.map((k) => `data-color-${k}="#${asString(step(cd, k + 'Average'))}" `).join('');
  },
  'image-meta': (v, _a, ctx: Context) => imageMeta(v, ctx),
  'image-srcset': (v) => {
    if (v === undefined) return v;
    const url = asString(step(v, 'assetUrl'));
    const variants = asString(step(v, 'systemDataVariants'))
      .split(',')
      .filter((s) => s[s.length - 1] === 'w');
    if (!variants.length) return v;
    let original = '';
    const last = variants[variants.length - 1];
    if (last !== SRCSET_WIDTHS[SRCSET_WIDTHS.length - 1]) {
      for (let i = SRCSET_WIDTHS.length - 2; i >= 0; i--) {
        if (last === SRCSET_WIDTHS[i]) {
          original = `,${url}?format=original ${SRCSET_WIDTHS[i + 1]}`;
          break;
        }
      }
    }
    return ` srcset="${variants.map((w) => `${url}?format=${w} ${w}`).join(',')}${original}"`;
  },
  'item-classes': (v, _a, ctx: Context) => {
    let out = 'hentry';
    const promoted = ctx.resolve(P_PROMOTED);
    if (isTruthy(promoted)) out += ' promoted promoted-block-' + slugify(asString(promoted));
    out = classList(out, 'category', ctx.resolve(P_CATEGORIES));
    out = classList(out, 'tag', ctx.resolve(P_TAGS));
    const author = ctx.resolve(P_AUTHOR);
    const dn = step(author, 'displayName');
    if (isTruthy(author) && isTruthy(dn)) out += ' author-' + slugify(asString(dn));
    out += ' post-type-' + asString(ctx.resolve(P_RECORD_TYPE_LABEL));
    const idx = ctx.resolve(P_INDEX);
    if (idx !== undefined) out += ' article-index-' + asNumber(idx);
    if (isTruthy(ctx.resolve(P_STARRED))) out += ' featured';
    if (asNumber(step(v, 'recordType')) === STORE_ITEM) {
      if (isOnSale(v)) out += ' on-sale';
      if (isSoldOut(v)) out += ' sold-out';
    }
    return out;
  },
  resizedHeightForWidth: (v, args) => resize(v, false, parseInt(args[0], 10)),
  resizedWidthForHeight: (v, args) => resize(v, true, parseInt(args[0], 10)),
  squarespaceThumbnailForWidth: (_v, args) => thumbnailForWidth(parseInt(args[0], 10)),
  squarespaceThumbnailForHeight: (v, args) => {
    const r = resize(v, true, parseInt(args[0], 10));
    return typeof r === 'number' ? thumbnailForWidth(r) : r;
  },
  'website-color': (v) => {
    const h = step(v, 'hue');
    const s = step(v, 'saturation');
    const l = step(v, 'lightness');
    if (h === undefined || s === undefined || l === undefined) return 'Missing an H/S/L value.';
    const hue = asNumber(h);
    let sat = asNumber(s);
    let light = asNumber(l);
    const a = step(v, 'alpha');
    const alpha = a === undefined ? null : asNumber(a);
    let err = '';
    if (hue < 0 || hue > 360) err += 'Hue out of bounds. ';
    if (sat >= 0 && sat <= 1) sat *= 100;
    else err += 'Saturation out of bounds. ';
    if (light >= 0 && light <= 1) light *= 100;
    else err += 'Lightness out of bounds. ';
    if (alpha !== null && (alpha < 0 || alpha > 1)) err += 'Alpha out of bounds.';
    if (err) return err;
    return alpha !== null
      ? `hsla(${fixed2(hue)}, ${fixed2(sat)}%, ${fixed2(light)}%, ${fixed2(alpha)})`
      : `hsl(${fixed2(hue)}, ${fixed2(sat)}%, ${fixed2(light)}%)`;
  },
  video: (v, args, ctx: Context) => {
    const oembed = step(v, 'oembed');
    const cd = step(v, 'colorData');
    const url = asString(step(v, 'assetUrl'));
    const loadFalse = args.includes('load-false');
    const useColor = args.includes('color-data');
    let out = '<div class="sqs-video-wrapper" ';
    if (loadFalse) out += ' data-load="false" ';
    out += `data-html="${escapeAttr(asString(step(oembed, 'html')))}" data-provider-name="${asString(step(oembed, 'providerName'))}">`;
    if (isTruthy(step(v, 'overlay'))) {
      out += '<div class="sqs-video-overlay';
      if (isTruthy(step(v, 'mainImageId')) || isTruthy(step(v, 'systemDataId'))) {
        out += `" style="opacity: 0;"><img data-load="false" data-src="${url}" data-image-dimensions="${asString(step(v, 'originalSize'))}" data-image-focal-point="${focalPoint(v)}" `;
        if (useColor && isTruthy(cd)) {
          for (const k of COLOR_KEYS) out += `data-color-${k.toLowerCase()}="#${asString(step(cd, k + 'Average'))}" `;
        }
        out += '/>';
      } else out += ' no-thumb" style="opacity: 0;">';
      out += '<div class="sqs-video-opaque"> </div><div class="sqs-video-icon"></div></div>';
    }
    out += '</div>';
    return widget(ctx, 'video', v, args, out);
  },
};
