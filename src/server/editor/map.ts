/**
 * Map blocks through a provider interface. With a provider key in the site settings (`mapsApiKey`)
 * the map is an embedded map of that provider; without one the block is a static address card (no
 * third-party request at all), with a link to open the place in a map.
 */
import { escapeHtml } from '../../core/html.js';

type Obj = Record<string, unknown>;

export interface MapPlace {
  title: string;
  address: string;
  lat: number | null;
  lng: number | null;
  zoom: number;
}

export interface MapProvider {
  readonly name: string;
  /** The map's HTML (an accessible iframe), or '' when the place cannot be shown. */
  embed(place: MapPlace): string;
}

export function mapPlace(d: Obj): MapPlace {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const zoom = Number(d.zoom);
  return {
    title: String(d.title ?? ''),
    address: String(d.address ?? ''),
    lat: num(d.lat),
    lng: num(d.lng),
    zoom: Number.isInteger(zoom) && zoom >= 1 && zoom <= 20 ? zoom : 14,
  };
}

/** The Google Maps Embed API (keys for it are public by design and restricted by referrer). */
export class GoogleEmbedProvider implements MapProvider {
  readonly name = 'google';
  constructor(private readonly key: string) {}
  embed(p: MapPlace): string {
    const q = p.lat !== null && p.lng !== null ? `${p.lat},${p.lng}` : p.address;
    if (!q) return '';
    const src = `https://www.google.com/maps/embed/v1/place?key=${encodeURIComponent(this.key)}&q=${encodeURIComponent(q)}&zoom=${p.zoom}`;
    return `<iframe class="map-block__frame" src="${escapeHtml(src)}" title="${escapeHtml(`Map: ${p.title || p.address}`)}" loading="lazy" referrerpolicy="no-referrer-when-downgrade"></iframe>`;
  }
}

/** The provider of a site: a key in settings -> Google embed; none -> null (the static address card). */
export function mapProviderFor(settings: Obj): MapProvider | null {
  const key = typeof settings.mapsApiKey === 'string' ? settings.mapsApiKey.trim() : '';
  return /^[A-Za-z0-9_-]{20,100}$/.test(key) ? new GoogleEmbedProvider(key) : null;
}
