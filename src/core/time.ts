/**
 * Time-since wording, file sizes and time-zone offsets.
 *
 * timeSince thresholds (elapsed = now - then):
 *   >= 365 days 'about a year ago'; >= 30 days 'about a month ago'; >= 7 days 'about a week ago';
 *   >= 1 day 'about a day ago'; >= 1 hour 'about an hour ago'; >= 1 minute 'about a minute ago';
 *   else (including future times) 'less than a minute ago'.
 */
import { BYTES_IN_MB, FILE_SIZE_STEP, FILE_SIZE_UNITS } from './constants';
import { time as m } from './messages';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
export const WEEK_MS = 7 * DAY_MS;
export const MONTH_MS = 30 * DAY_MS;
export const YEAR_MS = 365 * DAY_MS;

const toMs = (t: number | Date) => (t instanceof Date ? t.getTime() : t);

export function timeSince(then: number | Date, now: number | Date): string {
  const elapsed = toMs(now) - toMs(then);
  if (!(elapsed >= MINUTE_MS)) return m.LESS_THAN_A_MINUTE_AGO;
  if (elapsed >= YEAR_MS) return m.ABOUT_A_YEAR_AGO;
  if (elapsed >= MONTH_MS) return m.ABOUT_A_MONTH_AGO;
  if (elapsed >= WEEK_MS) return m.ABOUT_A_WEEK_AGO;
  if (elapsed >= DAY_MS) return m.ABOUT_A_DAY_AGO;
  if (elapsed >= HOUR_MS) return m.ABOUT_AN_HOUR_AGO;
  return m.ABOUT_A_MINUTE_AGO;
}

/** '0 Bytes', '1 KB', '1.5 MB' ... up to YB, 1024 per step, at most `decimals` decimals. */
export function formatFileSize(bytes: number, decimals = 2): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return `0 ${FILE_SIZE_UNITS[0]}`;
  const places = Math.max(0, decimals);
  let i = Math.min(FILE_SIZE_UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(FILE_SIZE_STEP)));
  // Log rounding can land one unit off at an exact power of 1024; rounding can reach the next unit.
  if (i > 0 && bytes < FILE_SIZE_STEP ** i) i -= 1;
  let value = parseFloat((bytes / FILE_SIZE_STEP ** i).toFixed(places));
  if (value >= FILE_SIZE_STEP && i < FILE_SIZE_UNITS.length - 1) {
    i += 1;
    value = parseFloat((bytes / FILE_SIZE_STEP ** i).toFixed(places));
  }
  return `${value} ${FILE_SIZE_UNITS[i]}`;
}

/** Megabytes with 1,000,000 bytes in a MB. */
export function bytesToMegabytes(bytes: number): number {
  return bytes / BYTES_IN_MB;
}

/** The offset (ms) of `timeZone` from UTC at instant `at`: the zone's wall clock minus UTC, to the second. */
export function zoneOffsetAt(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - Math.floor(at / 1000) * 1000;
}
