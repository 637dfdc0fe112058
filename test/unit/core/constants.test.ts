import { describe, expect, it } from 'vitest';
import * as c from '../../../src/core/constants';
import { excerptText, showComments, truncate } from '../../../src/core/content';

describe('constants pin the spec values', () => {
  it('storefront section 9', () => {
    expect(c.CART_COUNT_CAP).toBe(100);
    expect(c.QUANTITY_MAX).toBe(9999);
    expect(c.ADD_TO_CART_ADDED_DELAY_MS).toBe(1000);
    expect(c.ADD_TO_CART_RESET_DELAY_MS).toBe(2000);
    expect(c.ANALYTICS_TIMEOUT_MS).toBe(2500);
    expect([
      c.ERROR_REPORTER_MAX_SENDS,
      c.ERROR_REPORTER_MAX_QUEUED,
      c.ERROR_REPORTER_DEBOUNCE_MS,
      c.ERROR_REPORTER_MAX_STACK_CHARS,
    ]).toEqual([20, 10, 1000, 5000]);
    expect([c.EMAIL_MIN_LENGTH, c.EMAIL_MAX_LENGTH]).toEqual([3, 256]);
    expect([c.QUERY_PARSER_DEPTH, c.QUERY_PARSER_ARRAY_LIMIT, c.QUERY_PARSER_PARAMETER_LIMIT]).toEqual([5, 20, 1000]);
    expect(c.SRCSET_WIDTHS).toEqual([100, 300, 500, 750, 1000, 1500, 2500]);
    expect(c.EXCERPT_MAX_CHARS).toBe(250);
    expect(c.CAPTCHA_DEFAULT_THEME).toBe('light');
    expect(c.CAPTCHA_DEFAULT_SIZE).toBe('normal');
    expect(c.DEFAULT_INSTALMENT_COUNT).toBe(4);
    expect(c.LIGHTBOX_MARGIN_PX).toBe(50);
    expect(c.LIGHTBOX_RESIZE_DEBOUNCE_MS).toBe(100);
  });
  it('platform section 9', () => {
    expect(c.ANALYTICS_ID_COOKIE_MAX_AGE_DAYS).toBe(390);
    expect(c.ANALYTICS_DEFAULTS).toEqual({ fireEvents: true, logging: false, beacon: true, validate: false });
    expect(c.TEMPLATE_MAX_PARTIAL_DEPTH).toBe(16);
    expect(c.TEMPLATE_DEFAULT_TIME_ZONE).toBe('America/New_York');
    expect(c.SCROLL_OFFSET_PX).toBe(30);
    expect(c.DEFAULT_TWEEN_MS).toBe(300);
    expect(c.DARK_BRIGHTNESS_THRESHOLD).toBeCloseTo(166.4, 10);
    expect(c.COLOR_24BIT_MIDPOINT).toBe(8388607.5);
    expect(c.TRUNCATE_DEFAULT_LENGTH).toBe(100);
    expect(c.TRUNCATE_SUFFIX).toBe('...');
    expect(c.THUMBNAIL_BUCKETS).toEqual([100, 300, 500, 750, 1000]);
    expect(c.DEFAULT_FOCAL_POINT).toEqual({ x: 0.5, y: 0.5 });
    expect([c.WEEKS_PER_YEAR, c.MONTHS_PER_YEAR]).toEqual([52, 12]);
    expect([c.MOBILE_MAX_WIDTH_PX, c.DESKTOP_MIN_WIDTH_PX]).toEqual([432, 433]);
    expect([c.WAIT_FOR_ELEMENT_TIMEOUT_MS, c.WAIT_FOR_ELEMENT_DEBOUNCE_MS]).toEqual([3000, 100]);
    expect(c.FILE_SIZE_UNITS).toEqual(['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB']);
    expect(c.BYTES_IN_MB).toBe(1_000_000);
    expect(c.CAPTCHA_COMPACT_BELOW_PX).toBe(320);
    expect([
      c.MAX_BLOCKS_PER_LAYOUT,
      c.MAX_ALBUM_TRACKS,
      c.MAX_ITEMS_USER_ORDERABLE_COLLECTION,
      c.MAX_PRODUCTS_IN_COLLECTION,
      c.NESTED_CATEGORIES_LIMIT,
      c.MAX_TAG_LENGTH,
      c.MAX_CATEGORY_LENGTH,
    ]).toEqual([60, 60, 250, 200, 10000, 50, 25]);
    expect([c.MAX_PHOTO_GALLERY_SERVICE_GALLERIES, c.PHOTO_GALLERY_SERVICE_GALLERY_SIZE, c.DEFAULT_SLIDER_ASPECT_RATIO]).toEqual([
      20, 50, 50,
    ]);
    expect(c.EMPTY_LAYOUT_GRID_COLUMNS).toBe(12);
    expect(c.PERFORMANCE_FLUSH_AFTER_LOAD_MS).toBe(30000);
    expect(c.PAGE_SPEED_MAX_WAIT_MS).toBe(60000);
    expect(c.STORE_ROOT_CATEGORY_DISPLAY_INDEX).toBe(1);
  });
  it('web vitals ratings', () => {
    expect(c.rateWebVital('LCP', 2500)).toBe('good');
    expect(c.rateWebVital('LCP', 2501)).toBe('needs-improvement');
    expect(c.rateWebVital('LCP', 4001)).toBe('poor');
    expect(c.rateWebVital('CLS', 0.1)).toBe('good');
    expect(c.rateWebVital('CLS', 0.26)).toBe('poor');
    expect(c.rateWebVital('FCP', 3000)).toBe('needs-improvement');
    expect(c.rateWebVital('FID', 301)).toBe('poor');
  });
});

describe('content', () => {
  it('comments visibility', () => {
    expect(showComments({ commentState: 1, publicCommentCount: 0 }, true)).toBe(true);
    expect(showComments({ commentState: 2, publicCommentCount: 3 }, true)).toBe(true);
    expect(showComments({ commentState: 2, publicCommentCount: 0 }, true)).toBe(false);
    expect(showComments({ commentState: 1, publicCommentCount: 9 }, false)).toBe(false);
  });
  it('truncate at 100 with ...', () => {
    expect(truncate('short')).toBe('short');
    const long = 'word '.repeat(30);
    const t = truncate(long);
    expect(t.endsWith('...')).toBe(true);
    expect(t.length).toBeLessThanOrEqual(103);
    expect(truncate('abcdefghij', 4)).toBe('abcd...');
    expect(truncate('ab cdefghij', 6, '…')).toBe('ab…');
  });
  it('excerpts are capped at 250', () => {
    expect(excerptText('x'.repeat(300))).toHaveLength(250);
    expect(excerptText('  a \n b ')).toBe('a b');
  });
});
