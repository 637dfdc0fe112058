/** Publish dates of posts on the site's clocks (the site's time zone, not the browser's). */
export { isoToZoned, zonedToIso } from '../../catalog/model.js';

/** An instant as the site's clocks show it ('Nov 25, 2026, 9:30 AM'). */
export function formatDateTime(iso: string, timeZone: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  try {
    return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(at);
  } catch {
    return at.toLocaleString();
  }
}
