/**
 * The `date` formatter's strftime-style directives, formatted through CLDR
 * (@phensley/cldr) so names, day periods and zone names follow the locale.
 *
 * A format such as `%A, %B %d %Y` is translated once into parts: CLDR
 * pattern fields (`EEEE`, `MMMM`, `dd`, `y`), quoted literal text, and a few
 * values CLDR has no field for (space-padded day and hour, century, ISO week
 * year, epoch seconds, weekday numbers), computed per date. The parts are
 * joined into one CLDR pattern and formatted with formatDateRaw.
 *
 * The composite directives use fixed patterns whose words come from the
 * locale: %c is `E, MMM d, y h:mm:ss a z`, %x `MM/dd/y` (02/18/2021, as the
 * reference), %X `hh:mm:ss a` (06:26:05 AM), %r `h:mm:ss a`, %D `MM/dd/yy`,
 * %F `y-MM-dd`, %T `HH:mm:ss`, %R `HH:mm`. %Z (and the zone of %c) is the
 * locale's short zone name (EST in English, MEZ in German); where the locale
 * has none and CLDR would print an offset (GMT+9), the zone's own abbreviation
 * (JST), as the reference prints it. %z is the ISO offset (-05:00). Unknown
 * directives print nothing.
 */
import type { CLDR, GregorianDate } from '@phensley/cldr';

type Calc =
  | 'century'
  | 'day-space'
  | 'hour24-space'
  | 'hour12-space'
  | 'iso-year'
  | 'iso-year2'
  | 'iso-week'
  | 'epoch-seconds'
  | 'weekday-mon1'
  | 'weekday-sun0'
  | 'week-sun'
  | 'week-mon'
  | 'ampm-lower'
  | 'zone-short';

type Part = { pattern: string } | { literal: string } | { calc: Calc };

const DIRECTIVES: Record<string, Part | Part[]> = {
  a: { pattern: 'E' },
  A: { pattern: 'EEEE' },
  b: { pattern: 'MMM' },
  h: { pattern: 'MMM' },
  B: { pattern: 'MMMM' },
  c: [{ pattern: 'E, MMM d, y h:mm:ss a ' }, { calc: 'zone-short' }],
  C: { calc: 'century' },
  d: { pattern: 'dd' },
  D: { pattern: 'MM/dd/yy' },
  e: { calc: 'day-space' },
  F: { pattern: 'y-MM-dd' },
  g: { calc: 'iso-year2' },
  G: { calc: 'iso-year' },
  H: { pattern: 'HH' },
  i: { pattern: 'h' },
  I: { pattern: 'hh' },
  j: { pattern: 'DDD' },
  k: { calc: 'hour24-space' },
  l: { calc: 'hour12-space' },
  m: { pattern: 'MM' },
  M: { pattern: 'mm' },
  n: { literal: '\n' },
  N: { pattern: 'SSSSSSSSS' },
  p: { pattern: 'a' },
  P: { calc: 'ampm-lower' },
  q: { pattern: 'Q' },
  r: { pattern: 'h:mm:ss a' },
  R: { pattern: 'HH:mm' },
  s: { calc: 'epoch-seconds' },
  S: { pattern: 'ss' },
  t: { literal: '\t' },
  T: { pattern: 'HH:mm:ss' },
  u: { calc: 'weekday-mon1' },
  U: { calc: 'week-sun' }, // %U and %W: the week of the year as CLDR counts it for the locale
  v: [{ calc: 'day-space' }, { literal: '-' }, { pattern: 'MMM' }, { literal: '-' }, { pattern: 'y' }],
  V: { calc: 'iso-week' },
  w: { calc: 'weekday-sun0' },
  W: { calc: 'week-mon' },
  x: { pattern: 'MM/dd/y' },
  X: { pattern: 'hh:mm:ss a' },
  y: { pattern: 'yy' },
  Y: { pattern: 'y' },
  z: { pattern: 'xxx' },
  Z: { calc: 'zone-short' },
};

/** Translate a strftime-style format into parts (literal runs merged). */
export function translateFormat(fmt: string): Part[] {
  const parts: Part[] = [];
  let lit = '';
  const flush = () => {
    if (lit !== '') parts.push({ literal: lit });
    lit = '';
  };
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i];
    if (ch !== '%' || i === fmt.length - 1) {
      lit += ch;
      continue;
    }
    const c = fmt[++i];
    if (c === '%') {
      lit += '%';
      continue;
    }
    const d = Object.prototype.hasOwnProperty.call(DIRECTIVES, c) ? DIRECTIVES[c] : undefined;
    if (d === undefined) continue;
    for (const p of Array.isArray(d) ? d : [d]) {
      if ('literal' in p) lit += p.literal;
      else {
        flush();
        parts.push(p);
      }
    }
  }
  flush();
  return parts;
}

/** Quoted literal text for a CLDR pattern (callers keep apostrophes out: CLDR's parser has no escape for them). */
const quote = (s: string): string => (s === '' ? '' : "'" + s + "'");
const spacePad = (n: number): string => (n < 10 ? ' ' + n : String(n));
const zeroPad = (n: number, w: number): string => String(n).padStart(w, '0');

/** ISO 8601 week and week-year of a calendar date. */
function isoWeek(year: number, month: number, day: number): [number, number] {
  const t = new Date(Date.UTC(year, month - 1, day));
  const dow = (t.getUTCDay() + 6) % 7; // Monday 0
  t.setUTCDate(t.getUTCDate() - dow + 3); // the Thursday of this week
  const isoYear = t.getUTCFullYear();
  const week = 1 + Math.floor((t.getTime() - Date.UTC(isoYear, 0, 1)) / (7 * 86400000));
  return [isoYear, week];
}

/** A zone's own abbreviation at an instant (JST, CET), for locales whose short zone name is only an offset. */
export type ZoneAbbr = (epoch: number, zoneId: string) => string;

function calc(cldr: CLDR, d: GregorianDate, c: Calc, zoneId: string, abbr: ZoneAbbr | undefined): string {
  switch (c) {
    case 'zone-short': {
      const name = cldr.Calendars.formatDateRaw(d, { pattern: 'z' });
      return abbr !== undefined && /^(GMT|UTC)[+-]/.test(name) ? abbr(d.unixEpoch(), zoneId) : name;
    }
    case 'century':
      return zeroPad((d.year() / 100) | 0, 2);
    case 'day-space':
      return spacePad(d.dayOfMonth());
    case 'hour24-space':
      return spacePad(d.hourOfDay());
    case 'hour12-space':
      return spacePad(d.hour() === 0 ? 12 : d.hour());
    case 'iso-year':
      return String(isoWeek(d.year(), d.month(), d.dayOfMonth())[0]);
    case 'iso-year2':
      return zeroPad(isoWeek(d.year(), d.month(), d.dayOfMonth())[0] % 100, 2);
    case 'iso-week':
      return zeroPad(isoWeek(d.year(), d.month(), d.dayOfMonth())[1], 2);
    case 'epoch-seconds':
      return String(Math.floor(d.unixEpoch() / 1000));
    case 'weekday-mon1':
      return String(d.dayOfWeek() === 1 ? 7 : d.dayOfWeek() - 1);
    case 'weekday-sun0':
      return String(d.dayOfWeek() - 1);
    case 'week-sun':
    case 'week-mon':
      return zeroPad(d.weekOfYear(), 2);
    case 'ampm-lower':
      return cldr.Calendars.formatDateRaw(d, { pattern: 'a' }).toLowerCase();
  }
}

/** Format an instant with translated parts in a locale (its CLDR instance) and time zone. */
export function formatStrftime(cldr: CLDR, epoch: number, zoneId: string, parts: readonly Part[], abbr?: ZoneAbbr): string {
  const d = cldr.Calendars.toGregorianDate({ date: epoch, zoneId });
  let out = '';
  let pattern = '';
  const text = (s: string) => {
    // An apostrophe cannot be quoted in a CLDR pattern: format what came before and append it as is.
    let i: number;
    while ((i = s.indexOf("'")) !== -1) {
      pattern += quote(s.slice(0, i));
      out += pattern === '' ? "'" : cldr.Calendars.formatDateRaw(d, { pattern }) + "'";
      pattern = '';
      s = s.slice(i + 1);
    }
    pattern += quote(s);
  };
  for (const p of parts) {
    if ('pattern' in p) pattern += p.pattern;
    else if ('literal' in p) text(p.literal);
    else text(calc(cldr, d, p.calc, zoneId, abbr));
  }
  return pattern === '' ? out : out + cldr.Calendars.formatDateRaw(d, { pattern });
}
