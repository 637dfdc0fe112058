/** Content rules: comments visibility, truncation and excerpts. */
import { EXCERPT_MAX_CHARS, TRUNCATE_DEFAULT_LENGTH, TRUNCATE_SUFFIX } from './constants';

/**
 * Comments are shown when commentState equals 1 or publicCommentCount is above 0, and the
 * site's comments-enabled setting is on.
 */
export function showComments(item: { commentState?: number | null; publicCommentCount?: number | null }, commentsEnabled: boolean): boolean {
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
  return String(text ?? '').replace(/\s+/g, ' ').trim().slice(0, max);
}
