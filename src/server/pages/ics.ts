/** An iCalendar file for one event (RFC 5545), with UTC compact dates like the calendar links. */
export function compactUtc(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

function escapeText(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** Folds a content line at 75 octets as the format asks. */
function fold(line: string): string {
  const out: string[] = [];
  let rest = line;
  while (Buffer.byteLength(rest) > 75) {
    let cut = 75;
    while (Buffer.byteLength(rest.slice(0, cut)) > 75) cut--;
    out.push(rest.slice(0, cut));
    rest = ' ' + rest.slice(cut);
  }
  out.push(rest);
  return out.join('\r\n');
}

export function eventIcs(
  ev: {
    id: string;
    title: string;
    excerpt: string;
    startDate: number;
    endDate: number;
    url: string;
    location?: Record<string, unknown> | null;
  },
  now = Date.now(),
): string {
  const loc = ev.location
    ? ['addressTitle', 'addressLine1', 'addressLine2', 'addressCountry']
        .map((k) => String(ev.location?.[k] ?? '').trim())
        .filter(Boolean)
        .join(', ')
    : '';
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Tessera//Events//EN',
    'BEGIN:VEVENT',
    `UID:${ev.id}@tessera`,
    `DTSTAMP:${compactUtc(now)}`,
    `DTSTART:${compactUtc(ev.startDate)}`,
    `DTEND:${compactUtc(ev.endDate)}`,
    `SUMMARY:${escapeText(ev.title)}`,
    ev.excerpt ? `DESCRIPTION:${escapeText(ev.excerpt)}` : '',
    loc ? `LOCATION:${escapeText(loc)}` : '',
    `URL:${ev.url}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ].filter(Boolean);
  return lines.map(fold).join('\r\n') + '\r\n';
}
