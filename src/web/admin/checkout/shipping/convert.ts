/** The shipping editor's drafts to and from the wire shapes (amounts as typed <-> minor units). */
import type { ShippingRate, ShippingZone } from '../../../../core/shipping.js';
import { readAmount, readGrams, shownAmount, shownGrams } from './parts.js';
import type { RateDraft } from './RateEditor.js';

export const AMOUNT = 'Enter an amount such as 5.99.';
export const GRAMS = 'Enter whole grams, such as 500.';

export function draftOf(r: ShippingRate, currency: string): RateDraft {
  const a = (c: number | null | undefined) => shownAmount(c, currency);
  const byWeight = r.kind === 'weight';
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    price: r.kind === 'weight' || r.kind === 'value' ? '' : a(r.priceCents),
    freeAbove: a(r.freeAboveCents),
    estimate: r.estimate ?? '',
    bands: (r.bands ?? []).map((b) => ({
      from: byWeight ? shownGrams(b.from) : a(b.from),
      to: byWeight ? shownGrams(b.to) : a(b.to),
      price: a(b.priceCents),
    })),
    minOrder: a(r.conditions?.minOrderCents),
    maxOrder: a(r.conditions?.maxOrderCents),
    minWeight: shownGrams(r.conditions?.minWeightGrams),
    maxWeight: shownGrams(r.conditions?.maxWeightGrams),
    enabled: r.enabled !== false,
  };
}

/** A rate draft as the request's rate, and the messages of the amounts that cannot be read (by field path). */
export function rateBody(d: RateDraft, currency: string, errors: Record<string, string>, prefix: string) {
  const money = (s: string, path: string) => {
    const v = readAmount(s, currency);
    if (Number.isNaN(v)) errors[prefix + path] = AMOUNT;
    return v;
  };
  const grams = (s: string, path: string) => {
    const v = readGrams(s);
    if (Number.isNaN(v)) errors[prefix + path] = GRAMS;
    return v;
  };
  const edge = d.kind === 'weight' ? grams : money;
  const banded = d.kind === 'weight' || d.kind === 'value';
  return {
    ...(d.id ? { id: d.id } : {}),
    name: d.name,
    kind: d.kind,
    priceCents: banded ? 0 : (money(d.price, 'priceCents') ?? 0),
    freeAboveCents: d.kind === 'free_above' ? money(d.freeAbove, 'freeAboveCents') : null,
    bands: banded
      ? d.bands.map((b, i) => ({
          from: edge(b.from, `bands.${i}.from`) ?? 0,
          to: edge(b.to, `bands.${i}.to`),
          priceCents: money(b.price, `bands.${i}.priceCents`) ?? 0,
        }))
      : [],
    estimate: d.estimate,
    conditions: {
      minOrderCents: money(d.minOrder, 'conditions.minOrderCents'),
      maxOrderCents: money(d.maxOrder, 'conditions.maxOrderCents'),
      minWeightGrams: grams(d.minWeight, 'conditions.minWeightGrams'),
      maxWeightGrams: grams(d.maxWeight, 'conditions.maxWeightGrams'),
    },
    enabled: d.enabled,
  };
}

export interface ZoneDraft {
  name: string;
  countries: string[];
  regions: Array<{ country: string; region: string }>;
  restOfWorld: boolean;
  rates: RateDraft[];
}

export const zoneDraftOf = (z: ShippingZone, currency: string): ZoneDraft => ({
  name: z.name,
  countries: z.countries,
  regions: z.regions,
  restOfWorld: z.restOfWorld,
  rates: z.rates.map((r) => draftOf(r, currency)),
});

export function zoneBody(z: ZoneDraft, currency: string) {
  const errors: Record<string, string> = {};
  const body = { ...z, rates: z.rates.map((r, i) => rateBody(r, currency, errors, `rates.${i}.`)) };
  return { body, errors };
}
