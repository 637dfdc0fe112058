import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  MONTH_MS,
  WEEK_MS,
  YEAR_MS,
  bytesToMegabytes,
  formatFileSize,
  timeSince,
} from '../../../src/core/time';

const now = Date.UTC(2024, 5, 1);

describe('timeSince', () => {
  it('wording at each threshold', () => {
    expect(timeSince(now - 59_999, now)).toBe('less than a minute ago');
    expect(timeSince(now - MINUTE_MS, now)).toBe('about a minute ago');
    expect(timeSince(now - HOUR_MS + 1, now)).toBe('about a minute ago');
    expect(timeSince(now - HOUR_MS, now)).toBe('about an hour ago');
    expect(timeSince(now - DAY_MS, now)).toBe('about a day ago');
    expect(timeSince(now - WEEK_MS, now)).toBe('about a week ago');
    expect(timeSince(now - MONTH_MS, now)).toBe('about a month ago');
    expect(timeSince(now - YEAR_MS + 1, now)).toBe('about a month ago');
    expect(timeSince(now - YEAR_MS, now)).toBe('about a year ago');
    expect(timeSince(now - 5 * YEAR_MS, now)).toBe('about a year ago');
  });
  it('future, equal and invalid times', () => {
    expect(timeSince(now + HOUR_MS, now)).toBe('less than a minute ago');
    expect(timeSince(new Date(now), new Date(now))).toBe('less than a minute ago');
    expect(timeSince(Number.NaN, now)).toBe('less than a minute ago');
  });
});

describe('file sizes', () => {
  it('units at 1024', () => {
    expect(formatFileSize(0)).toBe('0 Bytes');
    expect(formatFileSize(500)).toBe('500 Bytes');
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(1024 ** 2 * 3)).toBe('3 MB');
    expect(formatFileSize(1024 ** 8)).toBe('1 YB');
    expect(formatFileSize(1024 ** 9)).toBe('1024 YB');
    expect(formatFileSize(1234567, 1)).toBe('1.2 MB');
  });
  it('changes unit exactly at each power of 1024, Bytes through YB', () => {
    const units = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];
    expect(formatFileSize(1)).toBe('1 Bytes');
    expect(formatFileSize(1023)).toBe('1023 Bytes');
    for (let i = 1; i < units.length; i++) {
      expect(formatFileSize(1024 ** i)).toBe(`1 ${units[i]}`);
      expect(formatFileSize(1024 ** i * 2.25)).toBe(`2.25 ${units[i]}`);
    }
    // Just under a step: 1023.99 KB, and a value that rounds to 1024 of a unit shows 1 of the next.
    expect(formatFileSize(1024 ** 2 - 10)).toBe('1023.99 KB');
    expect(formatFileSize(1024 ** 2 - 1)).toBe('1 MB');
    expect(formatFileSize(1024 ** 3 - 1, 0)).toBe('1 GB');
    // Bad input reads as nothing.
    expect(formatFileSize(-5)).toBe('0 Bytes');
    expect(formatFileSize(Number.NaN)).toBe('0 Bytes');
  });
  it('bytes in a MB is 1,000,000', () => {
    expect(bytesToMegabytes(2_500_000)).toBe(2.5);
  });
});
