/**
 * HTTP Range requests (RFC 9110 section 14) for member files, so a video player can seek: one byte range
 * per request. A malformed header, or several ranges, is ignored (the whole file, 200), as the RFC allows;
 * a range that starts past the end is unsatisfiable (416).
 */

export type RangeResult = { kind: 'whole' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/** The range of `size` bytes a Range header asks for (end inclusive). */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return { kind: 'whole' };
  // Length first: no pattern ever sees a long header.
  if (header.length > 200) return { kind: 'whole' };
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return { kind: 'whole' };
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return { kind: 'whole' };
  if (a === '') {
    // A suffix: the last n bytes.
    const n = Number(b);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  const end = b === '' ? size - 1 : Number(b);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  if (end < start) return { kind: 'whole' };
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}
