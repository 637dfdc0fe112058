/** Product review rules shared by the server and the browser: ratings, averages and their texts. */
import { reviews as text } from './messages.js';

export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const REVIEW_BODY_MAX = 5000;
export const REVIEW_TITLE_MAX = 120;
export const REVIEW_NAME_MAX = 80;

/** Whether a value is a whole star rating from 1 to 5. */
export function isRating(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= RATING_MIN && v <= RATING_MAX;
}

export interface RatingSummary {
  count: number;
  /** The mean of the ratings rounded to one decimal place (0 when there are none). */
  average: number;
  /** The average as shown: '4.5', '5.0'. */
  averageText: string;
  /** '4.5 out of 5 stars' */
  label: string;
  /** '3 reviews' */
  countText: string;
  /** Percent width of the filled stars (average / 5), for a star bar. */
  percent: number;
}

/** The summary of a product's approved ratings: count and average rounded half up to one decimal. */
export function ratingSummary(count: number, sum: number): RatingSummary {
  const c = Math.max(0, Math.trunc(count));
  // Rounded in tenths with integers, so 4.45 (89/20) becomes 4.5 and not 4.4 through float error.
  const tenths = c === 0 ? 0 : Math.floor((sum * 10 * 2 + c) / (2 * c));
  const average = tenths / 10;
  const averageText = average.toFixed(1);
  return {
    count: c,
    average,
    averageText,
    label: text.outOf5(averageText),
    countText: text.count(c),
    percent: Math.round((average / RATING_MAX) * 1000) / 10,
  };
}
