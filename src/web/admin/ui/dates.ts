/**
 * Dates and times in /config, written in the shop's locale and time zone (Site settings), not the browser's: an
 * en-GB shop reads 31/01/2027 wherever its owner signs in. The shell sets them once it knows the shop.
 */
let shop: { locale?: string; timeZone?: string } = {};
const cache = new Map<string, Intl.DateTimeFormat>();

/** Called by the shell with the shop's settings; an unknown tag or zone falls back to the browser's. */
export function setShopLocale(locale: string | undefined, timeZone: string | undefined): void {
  if (shop.locale === locale && shop.timeZone === timeZone) return;
  shop = { locale: valid(() => Intl.DateTimeFormat.supportedLocalesOf(locale ?? []).length > 0, locale), timeZone };
  if (!valid(() => new Intl.DateTimeFormat('en', { timeZone }) !== null, timeZone)) shop.timeZone = undefined;
  cache.clear();
}

function valid<T>(check: () => boolean, value: T): T | undefined {
  try {
    return check() ? value : undefined;
  } catch {
    return undefined;
  }
}

function formatter(style: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let f = cache.get(style);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat(shop.locale, { ...options, timeZone: shop.timeZone });
    } catch {
      f = new Intl.DateTimeFormat(undefined, options);
    }
    cache.set(style, f);
  }
  return f;
}

/** The shop's locale tag, for a format this module has no name for. */
export const shopLocale = () => shop.locale;

const asDate = (t: number | string | Date) => (t instanceof Date ? t : new Date(t));

/** A day in figures: 31/01/2027 (en-GB), 1/31/2027 (en-US), 2027/1/31 (ja-JP). */
export const formatDay = (t: number | string | Date) =>
  formatter('day', { year: 'numeric', month: 'numeric', day: 'numeric' }).format(asDate(t));
/** A day with its month named: 31 Jan 2027. */
export const formatDayMedium = (t: number | string | Date) => formatter('day-medium', { dateStyle: 'medium' }).format(asDate(t));
/** A day and a time in figures: 31/01/2027, 14:05. */
export const formatWhen = (t: number | string | Date) => `${formatDay(t)}, ${formatter('time', { timeStyle: 'short' }).format(asDate(t))}`;
/** A day with its month named, and a time: 31 Jan 2027, 14:05. */
export const formatWhenMedium = (t: number | string | Date) =>
  formatter('when-medium', { dateStyle: 'medium', timeStyle: 'short' }).format(asDate(t));
