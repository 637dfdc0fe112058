/** `date` formatter: strftime-style patterns in the website's time zone (default America/New_York), through CLDR. strftime() below stays for fixed English/UTC uses (calendar links). */
import type { Context } from '../context';
import type { FormatterFn } from '../types';
import { TZ } from '@phensley/timezone';
import { asNumber, asString } from '../util';
import { cldrFor } from '../cldr';
import { formatStrftime, translateFormat } from './date-pattern';

const SHORT_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LONG_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export interface ZonedDate {
  epoch: number;
  year: number;
  month: number; // 1-12
  day: number;
  hour: number; // 0-23
  minute: number;
  second: number;
  ms: number;
  weekday: number; // 0 = Sunday
  offset: number; // ms east of UTC
  zoneAbbr: string;
}

const fieldFormatters = new Map<string, Intl.DateTimeFormat | null>();
const abbrFormatters = new Map<string, Intl.DateTimeFormat>();

function fieldsFormatter(zone: string): Intl.DateTimeFormat | null {
  let f = fieldFormatters.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      f = null;
    }
    fieldFormatters.set(zone, f);
  }
  return f;
}

interface ZoneInfo {
  offset: number;
  abbr: string;
}
const zoneInfoCache = new Map<string, Map<number, ZoneInfo>>();

/** Offset and abbreviation of a zone at an instant, cached per zone and hour (transitions fall on hour edges). */
function zoneInfo(epoch: number, zone: string): ZoneInfo {
  let byHour = zoneInfoCache.get(zone);
  if (byHour === undefined) {
    byHour = new Map();
    zoneInfoCache.set(zone, byHour);
  }
  const hour = Math.floor(epoch / 3600000);
  let info = byHour.get(hour);
  if (info === undefined) {
    const at = hour * 3600000;
    const f = fieldsFormatter(zone) ?? fieldsFormatter('UTC')!;
    let year = 1970,
      month = 1,
      day = 1,
      h = 0,
      minute = 0,
      second = 0;
    for (const p of f.formatToParts(at)) {
      switch (p.type) {
        case 'year':
          year = +p.value;
          break;
        case 'month':
          month = +p.value;
          break;
        case 'day':
          day = +p.value;
          break;
        case 'hour':
          h = +p.value;
          break;
        case 'minute':
          minute = +p.value;
          break;
        case 'second':
          second = +p.value;
          break;
      }
    }
    info = { offset: Date.UTC(year, month - 1, day, h, minute, second) - at, abbr: zoneAbbr(at, zone) };
    if (byHour.size > 100000) byHour.clear();
    byHour.set(hour, info);
  }
  return info;
}

/** Break an instant into calendar fields in a time zone (UTC when the zone is unknown). */
export function zoned(epoch: number, zone: string): ZonedDate {
  const info = zoneInfo(epoch, zone);
  const d = new Date(epoch + info.offset);
  return {
    epoch,
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    ms: d.getUTCMilliseconds(),
    weekday: d.getUTCDay(),
    offset: info.offset,
    zoneAbbr: info.abbr,
  };
}

function abbrFormatter(locale: string, zone: string): Intl.DateTimeFormat {
  const key = locale + ' ' + zone;
  let f = abbrFormatters.get(key);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' });
    } catch {
      f = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', timeZoneName: 'short' });
    }
    abbrFormatters.set(key, f);
  }
  return f;
}

/** The zone's abbreviation at an instant, for the `date` formatter's %Z where the locale has only an offset. */
const zoneAbbrAt = (epoch: number, zone: string): string => zoneInfo(epoch, zone).abbr;

/** Short zone name (EST, BST, ...); tries a second English locale when the first gives only an offset. */
function zoneAbbr(epoch: number, zone: string): string {
  // The IANA database's own abbreviation (JST, CET, EST), as the platform prints it; Intl for the rest.
  const tz = TZ.fromUTC(zone, epoch)?.abbr;
  if (tz && /^[A-Z]{2,5}$/.test(tz)) return tz;
  for (const loc of ['en-US', 'en-GB', 'en-AU', 'en-IN']) {
    const p = abbrFormatter(loc, zone)
      .formatToParts(epoch)
      .find((x) => x.type === 'timeZoneName');
    const v = p ? p.value : 'UTC';
    if (!/^GMT[+-]/.test(v)) return v;
  }
  return (
    abbrFormatter('en-US', zone)
      .formatToParts(epoch)
      .find((x) => x.type === 'timeZoneName')?.value ?? 'UTC'
  );
}

const pad = (n: number | string, ch: string, w: number) => {
  const s = String(n);
  return s.length >= w ? s : ch.repeat(w - s.length) + s;
};

function dayOfYear(d: ZonedDate): number {
  return Math.round((Date.UTC(d.year, d.month - 1, d.day) - Date.UTC(d.year, 0, 1)) / 86400000) + 1;
}

function isoWeek(d: ZonedDate): [number, number] {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day));
  const dow = (t.getUTCDay() + 6) % 7; // Monday = 0
  t.setUTCDate(t.getUTCDate() - dow + 3);
  const isoYear = t.getUTCFullYear();
  const firstThursday = new Date(Date.UTC(isoYear, 0, 4));
  const week = 1 + Math.round((t.getTime() - firstThursday.getTime()) / 86400000 / 7 - (((firstThursday.getUTCDay() + 6) % 7) - 3) / 7);
  return [isoYear, week];
}

/** Week of year as the US calendar counts it (weeks start Sunday; week 1 holds January 1). */
function weekOfYear(d: ZonedDate): number {
  const sat = new Date(Date.UTC(d.year, d.month - 1, d.day + (6 - d.weekday)));
  const doy = Math.round((sat.getTime() - Date.UTC(sat.getUTCFullYear(), 0, 1)) / 86400000);
  return Math.floor(doy / 7) + 1;
}

const h12 = (h: number) => (h % 12 === 0 ? 12 : h % 12);

/** strftime's directives: each turns the date into its part of the text (an unknown directive is dropped). */
const DIRECTIVES: Record<string, (d: ZonedDate) => string | number> = {
  '%': () => '%',
  a: (d) => SHORT_DAYS[d.weekday],
  A: (d) => LONG_DAYS[d.weekday],
  b: (d) => SHORT_MONTHS[d.month - 1],
  h: (d) => SHORT_MONTHS[d.month - 1],
  B: (d) => LONG_MONTHS[d.month - 1],
  c: (d) => strftime(d, `%a, %b ${d.day}, %Y %i:%M:%S %p %Z`),
  C: (d) => pad((d.year / 100) | 0, '0', 2),
  d: (d) => pad(d.day, '0', 2),
  D: (d) => strftime(d, '%m/%d/%y'),
  e: (d) => pad(d.day, ' ', 2),
  F: (d) => strftime(d, '%Y-%m-%d'),
  g: (d) => pad(isoWeek(d)[0] % 100, '0', 2),
  G: (d) => pad(isoWeek(d)[0], '0', 4),
  H: (d) => pad(d.hour, '0', 2),
  i: (d) => h12(d.hour),
  I: (d) => pad(h12(d.hour), '0', 2),
  j: (d) => pad(dayOfYear(d), '0', 3),
  k: (d) => pad(d.hour, ' ', 2),
  l: (d) => pad(h12(d.hour), ' ', 2),
  m: (d) => pad(d.month, '0', 2),
  M: (d) => pad(d.minute, '0', 2),
  n: () => '\n',
  N: (d) => pad(d.ms * 1e6, '0', 9),
  p: (d) => (d.hour < 12 ? 'AM' : 'PM'),
  P: (d) => (d.hour < 12 ? 'am' : 'pm'),
  q: (d) => (((d.month - 1) / 3) | 0) + 1,
  r: (d) => strftime(d, `${h12(d.hour)}:%M:%S %p`),
  R: (d) => strftime(d, '%H:%M'),
  s: (d) => (d.epoch / 1000) | 0,
  S: (d) => pad(d.second, '0', 2),
  t: () => '\t',
  T: (d) => strftime(d, '%H:%M:%S'),
  u: (d) => (d.weekday === 0 ? '7' : String(d.weekday)),
  U: (d) => pad(weekOfYear(d), '0', 2),
  v: (d) => strftime(d, '%e-%b-%Y'),
  V: (d) => pad(isoWeek(d)[1], '0', 2),
  w: (d) => d.weekday,
  W: (d) => pad(weekOfYear(d), '0', 2),
  x: (d) => strftime(d, '%m/%d/%Y'),
  X: (d) => strftime(d, '%I:%M:%S %p'),
  y: (d) => pad(d.year % 100, '0', 2),
  Y: (d) => d.year,
  z: (d) => {
    const neg = d.offset < 0;
    const mins = Math.abs(d.offset) / 60000;
    return (neg ? '-' : '+') + pad((mins / 60) | 0, '0', 2) + ':' + pad(mins % 60, '0', 2);
  },
  Z: (d) => d.zoneAbbr,
};

export function strftime(d: ZonedDate, fmt: string): string {
  let out = '';
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i];
    if (ch !== '%') {
      out += ch;
      continue;
    }
    i++;
    if (i === fmt.length) {
      out += '%';
      break;
    }
    const directive = DIRECTIVES[fmt[i]!];
    if (directive) out += directive(d);
  }
  return out;
}

/** The website's time zone: website.timeZone, else the render option, else America/New_York. */
const P_TIME_ZONE = ['website', 'timeZone'];
export function timeZoneOf(ctx: Context): string {
  const z = ctx.resolve(P_TIME_ZONE);
  return z === undefined ? ctx.timeZone : asString(z);
}

/** Julian days the platform's calendar supports: Mon Jan 1 4713 B.C. to Fri Dec 31 8652 A.D. */
const JD_MIN = 0;
const JD_MAX = 4881503;
const JD_UNIX_EPOCH = 2440588;

/** Throws (reported as an engine error) when a timestamp is outside the supported calendar range. */
export function checkJulianDay(epochMs: number): void {
  const jd = Math.floor(epochMs / 86400000) + JD_UNIX_EPOCH;
  if (jd < JD_MIN || jd > JD_MAX) {
    throw new Error(`Julian day ${jd} is outside the supported range of this library: Mon Jan  1 4713 B.C. to Fri Dec 31 8652 A.D.`);
  }
}

/** Per instruction (the args array is compiled once): the translated format, and results for the locale and zone last used. */
interface DateSlot {
  parts: ReturnType<typeof translateFormat>;
  fmt: string;
  locale: string;
  zone: string;
  byEpoch: Map<number, string>;
}
const slotOfArgs = new WeakMap<string[], DateSlot>();
const dateResults = new Map<string, Map<number, string>>();

function resultsFor(locale: string, zone: string, fmt: string): Map<number, string> {
  const key = locale + '\u0000' + zone + '\u0000' + fmt;
  let byEpoch = dateResults.get(key);
  if (byEpoch === undefined) {
    if (dateResults.size > 1000) dateResults.clear();
    byEpoch = new Map();
    dateResults.set(key, byEpoch);
  }
  return byEpoch;
}

export const DATE_FORMATTERS: Record<string, FormatterFn> = {
  /** strftime-style directives in the website's zone, in the render locale through CLDR (see date-pattern.ts). */
  date: (v, args, ctx: Context) => {
    if (args.length === 0) return '';
    const n = asNumber(v);
    if (!isFinite(n)) return '';
    checkJulianDay(n);
    // Results are cached per locale, zone and format, since one timestamp is
    // often shown several ways and lists repeat dates.
    const zone = timeZoneOf(ctx);
    let slot = slotOfArgs.get(args);
    if (slot === undefined) {
      const fmt = args.join(' ');
      slot = { parts: translateFormat(fmt), fmt, locale: ctx.locale, zone, byEpoch: resultsFor(ctx.locale, zone, fmt) };
      slotOfArgs.set(args, slot);
    } else if (slot.zone !== zone || slot.locale !== ctx.locale) {
      slot.zone = zone;
      slot.locale = ctx.locale;
      slot.byEpoch = resultsFor(ctx.locale, zone, slot.fmt);
    }
    const byEpoch = slot.byEpoch;
    let out = byEpoch.get(n);
    if (out === undefined) {
      out = formatStrftime(cldrFor(ctx.locale), n, zone, slot.parts, zoneAbbrAt);
      if (byEpoch.size > 10000) byEpoch.clear();
      byEpoch.set(n, out);
    }
    return out;
  },
};
