/** Slugs and store url ids. */
import { STORE_URL_ID_MIN_LENGTH } from './constants';

/**
 * Lower-case ASCII slug: accents removed, runs of other characters turned into one hyphen,
 * no leading or trailing hyphens. 'Café & Crème!' -> 'cafe-creme'. With keepSlashes, '/' survives
 * (the 'url-slug-with-slash' filter): 'Shop/New In' -> 'shop/new-in'.
 */
export function slugify(text: string, options: { keepSlashes?: boolean } = {}): string {
  const base = String(text ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const segments = options.keepSlashes ? base.split('/') : [base];
  return segments
    .map((s) => s.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, ''))
    .join('/')
    .replace(/\/{2,}/g, '/');
}

/**
 * The url id of a new store collection: the slug of the title; when it is empty or shorter than
 * 3 characters, the slug of the fallback title; on collision with a taken id, the next free
 * numeric suffix (-1, -2, ...).
 */
export function storeUrlId(title: string, taken: Iterable<string> = [], fallbackTitle = 'store'): string {
  let base = slugify(title);
  if (base.length < STORE_URL_ID_MIN_LENGTH) base = slugify(fallbackTitle);
  if (base === '') base = 'store';
  return nextFreeSlug(base, taken);
}

/** base when free, else base-1, base-2, ... the first one not taken. */
export function nextFreeSlug(base: string, taken: Iterable<string>): string {
  const set = taken instanceof Set ? (taken as Set<string>) : new Set(taken);
  if (!set.has(base)) return base;
  for (let i = 1; ; i++) {
    const candidate = `${base}-${i}`;
    if (!set.has(candidate)) return candidate;
  }
}
