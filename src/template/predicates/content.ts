/** Content predicates: record types, collections, folders, gallery options, events, promoted blocks. */
import type { Context } from '../context';
import type { PredicateFn } from '../types';
import { asBoolean, asNumber, asString, isTruthy, path, step } from '../util';

const RECORD_TYPES: Array<[string, number]> = [
  ['undefined', -1],
  ['text', 1],
  ['image', 2],
  ['quote', 4],
  ['link', 5],
  ['audio', 7],
  ['video', 8],
  ['store-item', 11],
  ['event', 12],
  ['gallery', 14],
  ['binary', 15],
  ['css-asset', 16],
  ['tweak-asset', 17],
  ['digital-good', 18],
  ['attachment', 19],
  ['wordpress-export', 20],
  ['json-export', 21],
  ['site-search', 30],
  ['active-time', 31],
  ['tweet', 50],
  ['checkin', 52],
  ['kbarticle', 54],
];
const PROMOTED_RECORDS: Record<string, [number, string]> = {
  'external-video?': [8, 'video'],
  'video?': [8, 'video'],
  'image?': [2, 'image'],
  'quote?': [4, 'quote'],
  'link?': [5, 'link'],
  'gallery?': [14, 'gallery'],
};
const PROMOTED_BLOCKS = ['map', 'embed', 'image', 'code', 'quote', 'twitter', 'link', 'video', 'foursquare', 'instagram', 'form'];
const BACKGROUND_SOURCES: Array<[string, number]> = [
  ['undefined', -1],
  ['upload', 1],
  ['instagram', 2],
  ['video', 3],
  ['none', 4],
];
const FOLDER_INDEX = 1;
const FOLDER_REDIRECT = 2;
const COLLECTION_TEMPLATE_PAGE = 7;
const COLLECTION_PAGE = 10;

/** Gallery options from the storefront gallery table. */
const GALLERY_SELECT: Record<string, string[]> = {
  design: ['grid', 'slideshow', 'slider', 'stacked'],
  'meta-position': ['top', 'top-left', 'top-right', 'center', 'bottom', 'bottom-left', 'bottom-right'],
  'active-alignment': ['center', 'left', 'right'],
  'aspect-ratio': ['square', 'standard', 'standard-vertical', 'four-three', 'three-four-vertical', 'widescreen', 'anamorphic-widescreen'],
  lightboxTheme: ['dark', 'light'],
};
const GALLERY_BOOLEAN = [
  'autoplay',
  'auto-crop',
  'controls',
  'lightbox',
  'square-thumbs',
  'show-meta',
  'show-meta-on-hover',
  'thumbnails',
  'show-meta-basic',
  'show-meta-only-title',
  'newWindow',
  'transparentBackground',
];

const node = (ctx: Context) => ctx.frame.node;

function removeTags(s: string): string {
  return s.replace(/<[^>]*>?/g, ' ');
}

function utcDay(ms: number): string {
  const d = new Date(ms);
  return isNaN(d.getTime()) ? 'NaN' : `${d.getUTCFullYear()}-${d.getUTCMonth()}-${d.getUTCDate()}`;
}

export const CONTENT_PREDICATES: Record<string, PredicateFn> = {
  'calendar-view?': (_a, ctx: Context) => asBoolean(ctx.resolve(['calendarView'])),
  'child-images?': (_a, ctx: Context) => {
    const items = step(node(ctx), 'items');
    if (!Array.isArray(items) || items.length === 0) return false;
    return isTruthy(step(items[0], 'mainImageId')) || isTruthy(step(items[0], 'systemDataId'));
  },
  'clickable?': (_a, ctx: Context) => {
    const b = ctx.resolve(['folderBehavior']);
    if (b === undefined) return true;
    const t = asNumber(b);
    return t === FOLDER_INDEX || t === FOLDER_REDIRECT;
  },
  'collection?': (_a, ctx: Context) => isTruthy(step(node(ctx), 'collection')),
  'collection-page?': (_a, ctx: Context) => {
    const t = path(node(ctx), ['collection', 'type']);
    return t !== undefined && asNumber(t) === COLLECTION_PAGE;
  },
  'collection-template-page?': (_a, ctx: Context) => {
    const c = step(node(ctx), 'collection');
    const t = c === undefined ? step(node(ctx), 'type') : step(c, 'type');
    return t !== undefined && asNumber(t) === COLLECTION_TEMPLATE_PAGE;
  },
  'collectionTypeNameEquals?': (args, ctx: Context) => args.length > 0 && asString(ctx.resolve(['typeName'])) === args[0],
  'excerpt?': (_a, ctx: Context) => {
    const ex = step(node(ctx), 'excerpt');
    const html = step(ex, 'html');
    const text = typeof html === 'string' ? html : typeof ex === 'string' ? ex : '';
    return removeTags(text).replace(/[\s\u200b\u00a0]+/g, '').length > 0;
  },
  'external-link?': (_a, ctx: Context) => isTruthy(step(node(ctx), 'externalLink')),
  'folder?': (_a, ctx: Context) => isTruthy(path(node(ctx), ['collection', 'folder'])),
  'gallery-meta?': (_a, ctx: Context) => {
    const o = ctx.resolve(['options']);
    return isTruthy(step(o, 'controls')) || isTruthy(step(o, 'indicators'));
  },
  'has-multiple?': (_a, ctx: Context) => {
    const n = node(ctx);
    const size = Array.isArray(n) ? n.length : n !== null && typeof n === 'object' ? Object.keys(n).length : 0;
    return size > 1;
  },
  'index?': (_a, ctx: Context) => {
    const c = step(node(ctx), 'collection');
    if (c === null || typeof c !== 'object' || Array.isArray(c)) return false;
    const b = step(c, 'folderBehavior');
    return isTruthy(step(c, 'folder')) && typeof b === 'number' && b === FOLDER_INDEX;
  },
  'location?': (_a, ctx: Context) => {
    const l = step(node(ctx), 'location');
    return step(l, 'mapLat') !== undefined && step(l, 'mapLng') !== undefined;
  },
  'main-image?': (_a, ctx: Context) => isTruthy(step(node(ctx), 'mainImageId')) || isTruthy(step(node(ctx), 'systemDataId')),
  'passthrough?': (_a, ctx: Context) => isTruthy(step(node(ctx), 'passthrough')) && asString(step(node(ctx), 'sourceUrl')) !== '',
  'redirect?': (_a, ctx: Context) => asNumber(step(node(ctx), 'folderBehavior')) === FOLDER_REDIRECT,
  'same-day?': (_a, ctx: Context) => utcDay(asNumber(step(node(ctx), 'startDate'))) === utcDay(asNumber(step(node(ctx), 'endDate'))),
  'serviceNameEmail?': (_a, ctx: Context) => asString(step(node(ctx), 'serviceName')) === 'email',
  'show-past-events?': (_a, ctx: Context) => asString(step(node(ctx), 'showPastOrUpcomingEvents')) === 'past',
};

for (const [option, values] of Object.entries(GALLERY_SELECT)) {
  for (const value of values) {
    CONTENT_PREDICATES[`gallery-${option}-${value}?`] = (_a, ctx: Context) => {
      const v = step(ctx.resolve(['options']), option);
      return v !== undefined && asString(v) === value;
    };
  }
}
for (const option of GALLERY_BOOLEAN) {
  CONTENT_PREDICATES[`gallery-${option}?`] = (_a, ctx: Context) => {
    const v = step(ctx.resolve(['options']), option);
    return v !== undefined && asBoolean(v);
  };
}
for (const [name, code] of RECORD_TYPES) {
  if (PROMOTED_RECORDS[`${name}?`]) continue;
  CONTENT_PREDICATES[`${name}?`] = (_a, ctx: Context) => asNumber(step(node(ctx), 'recordType')) === code;
}
for (const [name, [code, block]] of Object.entries(PROMOTED_RECORDS)) {
  CONTENT_PREDICATES[name] = (_a, ctx: Context) =>
    asNumber(step(node(ctx), 'recordType')) === code || asString(step(node(ctx), 'promotedBlockType')) === block;
}
for (const block of PROMOTED_BLOCKS) {
  CONTENT_PREDICATES[`promoted${block.toUpperCase()}?`] = (_a, ctx: Context) => asString(step(node(ctx), 'promotedBlockType')) === block;
}
for (const [name, code] of BACKGROUND_SOURCES) {
  CONTENT_PREDICATES[`background-source-${name}?`] = (_a, ctx: Context) => asNumber(step(node(ctx), 'backgroundSource')) === code;
}
