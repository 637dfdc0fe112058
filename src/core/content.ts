/** Content rules: comments visibility, truncation and excerpts, and the content limits (tag and category lengths, collection sizes). */
import {
  EXCERPT_MAX_CHARS,
  MAX_ALBUM_TRACKS,
  MAX_CATEGORY_LENGTH,
  MAX_ITEMS_USER_ORDERABLE_COLLECTION,
  MAX_PRODUCTS_IN_COLLECTION,
  MAX_TAG_LENGTH,
  TRUNCATE_DEFAULT_LENGTH,
  TRUNCATE_SUFFIX,
} from './constants';
import { CollectionType } from './enums';
import { contentLimits as lm } from './messages';

/**
 * Comments are shown when commentState equals 1 or publicCommentCount is above 0, and the
 * site's comments-enabled setting is on.
 */
export function showComments(
  item: { commentState?: number | null; publicCommentCount?: number | null },
  commentsEnabled: boolean,
): boolean {
  if (!commentsEnabled) return false;
  return item.commentState === 1 || (item.publicCommentCount ?? 0) > 0;
}

/**
 * Cuts text to at most `length` characters (default 100) and appends the suffix (default '...')
 * when it was cut, preferring the last word boundary within the limit.
 */
export function truncate(text: string, length: number = TRUNCATE_DEFAULT_LENGTH, suffix: string = TRUNCATE_SUFFIX): string {
  const s = String(text ?? '');
  if (s.length <= length) return s;
  const cut = s.slice(0, length);
  const space = cut.lastIndexOf(' ');
  return (space > 0 ? cut.slice(0, space) : cut).trimEnd() + suffix;
}

/** Collapses whitespace and caps excerpt / alt fallback text at 250 characters. */
export function excerptText(text: string, max: number = EXCERPT_MAX_CHARS): string {
  return String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max);
}

// ---- Content limits ----------------------------------------------------

/** Length in characters (code points, so an emoji counts once), after trimming. */
const charLength = (s: string): number => [...String(s ?? '').trim()].length;

/** A tag longer than 50 characters is refused; answers the message, or null when the tag is fine. */
export function tagError(tag: string): string | null {
  return charLength(tag) > MAX_TAG_LENGTH ? lm.tagTooLong(MAX_TAG_LENGTH) : null;
}

/** A category longer than 25 characters is refused; answers the message, or null when it is fine. */
export function categoryError(name: string): string | null {
  return charLength(name) > MAX_CATEGORY_LENGTH ? lm.categoryTooLong(MAX_CATEGORY_LENGTH) : null;
}

/** The first too-long tag's message, keyed by its path (`${field}.${index}`), or {} when all fit. */
export function tagListErrors(tags: readonly string[], field = 'tags'): Record<string, string> {
  const i = tags.findIndex((t) => tagError(t) !== null);
  return i < 0 ? {} : { [`${field}.${i}`]: lm.tagTooLong(MAX_TAG_LENGTH) };
}

/** The first too-long category's message, keyed by its path (`${field}.${index}`), or {} when all fit. */
export function categoryListErrors(categories: readonly string[], field = 'categories'): Record<string, string> {
  const i = categories.findIndex((c) => categoryError(c) !== null);
  return i < 0 ? {} : { [`${field}.${i}`]: lm.categoryTooLong(MAX_CATEGORY_LENGTH) };
}

/** Collections ordered by date (journals, events): the owner does not order their items by hand. */
const DATE_ORDERED_TYPE_NAMES: readonly string[] = Object.freeze(['blog', 'events']);

/**
 * How many items a collection may hold: 200 for a store (products), 250 for any other collection
 * whose items the owner orders by hand (galleries, albums, index pages, ...), no limit (null) for
 * date-ordered collections such as journals and events.
 */
export function collectionItemLimit(c: { type: number; typeName?: string | null }): number | null {
  if (c.type === CollectionType.PRODUCTS) return MAX_PRODUCTS_IN_COLLECTION;
  if (DATE_ORDERED_TYPE_NAMES.includes(c.typeName ?? '')) return null;
  return MAX_ITEMS_USER_ORDERABLE_COLLECTION;
}

/**
 * Whether one more item may go into a collection that holds `count` items now: null when it may,
 * else the limit's message. Callers count under the collection's row lock so concurrent adds
 * cannot pass the limit together.
 */
export function collectionAddError(c: { type: number; typeName?: string | null }, count: number, adding = 1): string | null {
  const max = collectionItemLimit(c);
  if (max === null || count + adding <= max) return null;
  return c.type === CollectionType.PRODUCTS ? lm.productsLimit(max) : lm.itemsLimit(max);
}

/** An album has at most 60 tracks: null when `tracks` fit, else the message. */
export function albumTracksError(tracks: number): string | null {
  return tracks > MAX_ALBUM_TRACKS ? lm.albumTrackLimit(MAX_ALBUM_TRACKS) : null;
}

/** A post's cover image: the first of its item's assets (what the journal list and the post page show). */
export interface PostCover {
  assetUrl: string;
  altText: string;
  originalSize: string | null;
}

/** The post's own fields, beside its body (the post editor's calls, server and admin alike). */
export interface PostFields {
  collectionId: string;
  title: string;
  urlId: string;
  excerpt: string;
  author: string;
  tags: string[];
  categories: string[];
  status: string;
  publishOn: string;
  commentState: number;
  cover: PostCover | null;
}

/** A collection's address on the site. */
export function collectionUrl(c: { urlId: string }): string {
  return `/${c.urlId}`;
}

/** An item's address: under /p/ in a store collection, straight under the collection otherwise. */
export function itemUrl(c: { urlId: string; type: number }, i: { urlId: string }): string {
  return c.type === CollectionType.PRODUCTS ? `/${c.urlId}/p/${i.urlId}` : `/${c.urlId}/${i.urlId}`;
}
