/**
 * Address lookup (the editor's places calls) behind a provider interface. The Google Places web service is
 * the one real provider, used when GOOGLE_MAPS_API_KEY is set; without it the calls answer 'not configured'.
 */
export interface PlacePrediction {
  placeId: string;
  description: string;
}

export interface PlaceDetails {
  placeId: string;
  formattedAddress: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  mapLat: number | null;
  mapLng: number | null;
}

export interface PlacesProvider {
  autocomplete(params: { input: string; sessionToken?: string; language?: string }): Promise<{ predictions: PlacePrediction[] }>;
  details(params: {
    placeId: string;
    sessionToken?: string;
    language?: string;
    trackingContext?: { productPage: string; productSection: string };
  }): Promise<PlaceDetails>;
}

type Component = { long_name?: string; short_name?: string; types?: string[] };

/** Google Places web service (legacy JSON endpoints). */
export class GooglePlacesProvider implements PlacesProvider {
  constructor(
    private readonly key: string,
    private readonly base = 'https://maps.googleapis.com/maps/api/place',
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  private async call(path: string, params: Record<string, string | undefined>): Promise<Record<string, unknown>> {
    const u = new URL(`${this.base}/${path}/json`);
    for (const [k, v] of Object.entries(params)) if (v) u.searchParams.set(k, v);
    u.searchParams.set('key', this.key);
    const res = await this.fetchImpl(u, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`Places service answered HTTP ${res.status}`);
    const data = (await res.json()) as Record<string, unknown>;
    if (data.status !== 'OK' && data.status !== 'ZERO_RESULTS') throw new Error(`Places service status ${String(data.status)}`);
    return data;
  }

  async autocomplete(p: { input: string; sessionToken?: string; language?: string }) {
    const data = await this.call('autocomplete', { input: p.input, sessiontoken: p.sessionToken, language: p.language, types: 'address' });
    const preds = (data.predictions ?? []) as Array<{ place_id: string; description: string }>;
    return { predictions: preds.map((x) => ({ placeId: x.place_id, description: x.description })) };
  }

  async details(p: { placeId: string; sessionToken?: string; language?: string }) {
    const data = await this.call('details', {
      place_id: p.placeId,
      sessiontoken: p.sessionToken,
      language: p.language,
      fields: 'address_component,formatted_address,geometry',
    });
    const r = (data.result ?? {}) as {
      address_components?: Component[];
      formatted_address?: string;
      geometry?: { location?: { lat: number; lng: number } };
    };
    const c = (type: string, short = false) => {
      const x = (r.address_components ?? []).find((a) => a.types?.includes(type));
      return (short ? x?.short_name : x?.long_name) ?? '';
    };
    return {
      placeId: p.placeId,
      formattedAddress: r.formatted_address ?? '',
      addressLine1: [c('street_number'), c('route')].filter(Boolean).join(' '),
      addressLine2: c('subpremise'),
      city: c('locality') || c('postal_town'),
      region: c('administrative_area_level_1', true),
      postalCode: c('postal_code'),
      country: c('country', true),
      mapLat: r.geometry?.location?.lat ?? null,
      mapLng: r.geometry?.location?.lng ?? null,
    };
  }
}

export function placesProviderFromEnv(env: Record<string, string | undefined>): PlacesProvider | null {
  const key = env.GOOGLE_MAPS_API_KEY;
  return key ? new GooglePlacesProvider(key) : null;
}
