/**
 * Shipping: zones (named sets of countries and regions) with their rates, local pickup and local delivery, as
 * pure rules the server and the checkout page both run. The server flattens the owner's set-up into a list of
 * `ShippingOption`s (`shippingOptionsOf`); checkout prices the ones that reach an address (`offeredShipping`).
 *
 * Bands (by weight in grams, or by order value in minor units) are checked to leave no gap and never overlap:
 * the first starts at 0 and covers 0; each next one starts where the one before ends and covers what is above
 * that, up to and including its own end; the last may have no end.
 */
import { shippingMessages as m } from './messages.js';

export type RateKind = 'flat' | 'weight' | 'value' | 'free_above';
export type ShippingOptionKind = RateKind | 'pickup' | 'local_delivery';
export const RATE_KINDS: readonly RateKind[] = ['flat', 'weight', 'value', 'free_above'];

export interface Band {
  from: number;
  /** null: no upper limit (last band only). */
  to: number | null;
  priceCents: number;
}

/** When a rate is offered: order value (merchandise subtotal) and parcel weight, inclusive; null means no limit. */
export interface RateConditions {
  minOrderCents?: number | null;
  maxOrderCents?: number | null;
  minWeightGrams?: number | null;
  maxWeightGrams?: number | null;
}

export interface ShippingRate {
  id: string;
  name: string;
  kind: RateKind;
  /** flat: the price; free_above: the price below the threshold. */
  priceCents: number;
  /** free_above: the subtotal at or above which shipping is free (always given). */
  freeAboveCents?: number | null;
  /** weight and value: the price by band. */
  bands?: Band[];
  /** What the shopper is told, such as "2–4 business days". */
  estimate: string;
  conditions?: RateConditions;
  enabled?: boolean;
}

export interface ZoneRegion {
  country: string;
  /** The subdivision code of the country's address data (VIC, NSW, CA...). */
  region: string;
}

export interface ShippingZone {
  id: string;
  name: string;
  /** Whole countries (ISO codes). */
  countries: string[];
  /** Regions of countries not listed whole. */
  regions: ZoneRegion[];
  /** Covers every address no other zone covers. */
  restOfWorld: boolean;
  rates: ShippingRate[];
}

export interface PickupAddress {
  name: string;
  line1: string;
  line2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
}

export interface PickupLocation {
  id: string;
  name: string;
  address: PickupAddress;
  instructions: string;
}

export interface LocalDelivery {
  id: string;
  name: string;
  country: string;
  /** Postcodes or their prefixes ("30" covers 3000-3099 in a four-digit country). */
  postcodes: string[];
  feeCents: number;
  minOrderCents: number;
  estimate: string;
}

export interface ShippingSetup {
  zones: ShippingZone[];
  pickups: PickupLocation[];
  deliveries: LocalDelivery[];
}

/** One choice checkout can offer: a zone's rate, a local delivery area or a pickup location. */
export interface ShippingOption {
  id: string;
  name: string;
  kind: ShippingOptionKind;
  priceCents: number;
  freeAboveCents?: number | null;
  bands?: Band[];
  estimate?: string;
  conditions?: RateConditions;
  /** Rates: the zone's id and what it covers. */
  zoneId?: string;
  zoneName?: string;
  countries?: string[];
  regions?: ZoneRegion[];
  restOfWorld?: boolean;
  /** Local delivery: the postcodes and the minimum order. */
  postcodes?: string[];
  minOrderCents?: number;
  /** Pickup: where (and the address as its country prints it) and how. */
  pickup?: { address: PickupAddress; instructions: string; lines?: string[] };
}

export interface ShippingPlace {
  country: string;
  region?: string;
  postalCode?: string;
}

const whole = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) ? Math.max(0, Math.trunc(n)) : 0);
const up = (s: string | undefined | null) => (s ?? '').trim().toUpperCase();
const compactPostcode = (s: string | undefined | null) => up(s).replace(/[\s-]/g, '');

/** The band a value falls in, or null when it is above every band. */
export function bandFor(bands: readonly Band[], value: number): Band | null {
  const sorted = [...bands].sort((a, b) => a.from - b.from);
  return sorted.find((b) => b.to === null || value <= b.to) ?? null;
}

function withinConditions(c: RateConditions | undefined, subtotalCents: number, weightGrams: number): boolean {
  if (!c) return true;
  const inRange = (v: number, lo?: number | null, hi?: number | null) => (lo == null || v >= lo) && (hi == null || v <= hi);
  return inRange(subtotalCents, c.minOrderCents, c.maxOrderCents) && inRange(weightGrams, c.minWeightGrams, c.maxWeightGrams);
}

/** What an option costs for a parcel, or null when the option does not take it. */
export function shippingCost(o: ShippingOption, subtotalCents: number, weightGrams: number): number | null {
  if (!withinConditions(o.conditions, subtotalCents, weightGrams)) return null;
  switch (o.kind) {
    case 'flat':
      return whole(o.priceCents);
    case 'free_above':
      // Without a threshold the rate is its price: a missing threshold never makes shipping free.
      return o.freeAboveCents != null && o.freeAboveCents > 0 && subtotalCents >= o.freeAboveCents ? 0 : whole(o.priceCents);
    case 'weight':
    case 'value': {
      const band = bandFor(o.bands ?? [], o.kind === 'weight' ? weightGrams : subtotalCents);
      return band ? whole(band.priceCents) : null;
    }
    case 'local_delivery':
      return subtotalCents >= whole(o.minOrderCents) ? whole(o.priceCents) : null;
    case 'pickup':
      return 0;
    default:
      return null;
  }
}

/** How closely a zone's option covers a place: 3 its region, 2 its country, 1 the rest of the world, 0 not at all. */
function zoneMatch(o: ShippingOption, place: ShippingPlace | null | undefined): number {
  // Before an address is given, the rest of the world's rates are what the shopper may expect.
  if (!place?.country) return o.restOfWorld ? 1 : 0;
  const c = up(place.country);
  const r = up(place.region);
  if (r && (o.regions ?? []).some((z) => up(z.country) === c && up(z.region) === r)) return 3;
  if ((o.countries ?? []).some((x) => up(x) === c)) return 2;
  return o.restOfWorld ? 1 : 0;
}

/** Whether a local delivery area covers a postcode (by whole postcode or prefix). */
export function deliversTo(o: Pick<ShippingOption, 'countries' | 'postcodes'>, place: ShippingPlace | null | undefined): boolean {
  const pc = compactPostcode(place?.postalCode);
  if (!pc || !place?.country) return false;
  if (!(o.countries ?? []).some((c) => up(c) === up(place.country))) return false;
  return (o.postcodes ?? []).some((p) => {
    const x = compactPostcode(p);
    return x !== '' && pc.startsWith(x);
  });
}

export interface PricedOption {
  option: ShippingOption;
  costCents: number;
}

/**
 * The options a parcel to a place can take, priced: the rates of the zone that covers the place most closely
 * (its region over its country over the rest of the world), then local delivery where the postcode is covered,
 * then every pickup location.
 */
export function offeredShipping(
  options: readonly ShippingOption[],
  place: ShippingPlace | null | undefined,
  subtotalCents: number,
  weightGrams: number,
): PricedOption[] {
  const rates = options.filter((o) => o.kind !== 'pickup' && o.kind !== 'local_delivery');
  const best = Math.max(0, ...rates.map((o) => zoneMatch(o, place)));
  const chosen = [
    ...(best > 0 ? rates.filter((o) => zoneMatch(o, place) === best) : []),
    ...options.filter((o) => o.kind === 'local_delivery' && deliversTo(o, place)),
    ...options.filter((o) => o.kind === 'pickup'),
  ];
  const out: PricedOption[] = [];
  for (const option of chosen) {
    const costCents = shippingCost(option, subtotalCents, weightGrams);
    if (costCents !== null) out.push({ option, costCents });
  }
  return out;
}

/**
 * The countries a physical order may be sent to: every country a zone, a local delivery area or a pickup location
 * names; null when a rest-of-the-world zone takes every country.
 */
export function shippingCountries(options: readonly ShippingOption[]): string[] | null {
  if (options.some((o) => o.restOfWorld)) return null;
  const set = new Set<string>();
  for (const o of options) {
    for (const c of o.countries ?? []) set.add(up(c));
    for (const r of o.regions ?? []) set.add(up(r.country));
    if (o.pickup) set.add(up(o.pickup.address.country));
  }
  return [...set].sort();
}

/** Why a physical order cannot go to a country (a message), or null when some zone, delivery or pickup covers it. */
export function countryRefusal(options: readonly ShippingOption[], country: string | null | undefined): string | null {
  if (options.length === 0) return m.NO_SHIPPING_SET_UP;
  const allowed = shippingCountries(options);
  if (allowed === null || !country) return null;
  return allowed.includes(up(country)) ? null : m.COUNTRY_NOT_SHIPPED;
}

/** The owner's set-up as checkout's options, in order: each zone's rates, local deliveries, pickup locations. */
export function shippingOptionsOf(setup: ShippingSetup): ShippingOption[] {
  const out: ShippingOption[] = [];
  for (const z of setup.zones) {
    for (const r of z.rates) {
      if (r.enabled === false) continue;
      out.push({
        id: r.id,
        name: r.name,
        kind: r.kind,
        priceCents: r.priceCents,
        ...(r.kind === 'free_above' ? { freeAboveCents: r.freeAboveCents ?? null } : {}),
        ...(r.kind === 'weight' || r.kind === 'value' ? { bands: r.bands ?? [] } : {}),
        estimate: r.estimate,
        ...(r.conditions ? { conditions: r.conditions } : {}),
        zoneId: z.id,
        zoneName: z.name,
        countries: z.countries,
        regions: z.regions,
        restOfWorld: z.restOfWorld,
      });
    }
  }
  for (const d of setup.deliveries) {
    out.push({
      id: d.id,
      name: d.name,
      kind: 'local_delivery',
      priceCents: d.feeCents,
      estimate: d.estimate,
      countries: [d.country],
      postcodes: d.postcodes,
      minOrderCents: d.minOrderCents,
    });
  }
  for (const p of setup.pickups) {
    out.push({ id: p.id, name: p.name, kind: 'pickup', priceCents: 0, pickup: { address: p.address, instructions: p.instructions } });
  }
  return out;
}

// ---- Checks of the owner's set-up (the editor and the server refuse the same way) ---------------

/** The first problem of a band table, as [index of the band, message], or null when it is sound. */
export function bandProblem(bands: readonly Band[], show: (v: number) => string): [number, string] | null {
  if (bands.length === 0) return [0, m.BANDS_REQUIRED];
  for (let i = 0; i < bands.length; i++) {
    const b = bands[i]!;
    if (i === 0 && b.from !== 0) return [0, m.FIRST_BAND_FROM_ZERO];
    if (b.to !== null && b.to <= b.from) return [i, m.BAND_EMPTY];
    if (b.to === null && i < bands.length - 1) return [i, m.OPEN_BAND_LAST];
    if (i > 0) {
      const prevTo = bands[i - 1]!.to;
      if (prevTo === null) return [i - 1, m.OPEN_BAND_LAST];
      if (b.from < prevTo) return [i, m.bandOverlap(i + 1, show(b.from), show(prevTo))];
      if (b.from > prevTo) return [i, m.bandGap(i + 1, show(b.from), show(prevTo))];
    }
  }
  return null;
}

/** A rate's problems by field path (freeAboveCents, bands.2.from, conditions.maxOrderCents...). */
export function rateProblems(r: Omit<ShippingRate, 'id'>, money: (cents: number) => string): Record<string, string> {
  const out: Record<string, string> = {};
  if (r.kind === 'free_above' && !(r.freeAboveCents != null && r.freeAboveCents > 0)) out.freeAboveCents = m.FREE_ABOVE_NEEDS_AMOUNT;
  if (r.kind === 'weight' || r.kind === 'value') {
    const problem = bandProblem(r.bands ?? [], r.kind === 'weight' ? (g) => `${g} g` : money);
    if (problem) out[(r.bands ?? []).length === 0 ? 'bands' : `bands.${problem[0]}.from`] = problem[1];
  }
  const c = r.conditions ?? {};
  if (c.minOrderCents != null && c.maxOrderCents != null && c.minOrderCents > c.maxOrderCents)
    out['conditions.maxOrderCents'] = m.CONDITION_RANGE;
  if (c.minWeightGrams != null && c.maxWeightGrams != null && c.minWeightGrams > c.maxWeightGrams)
    out['conditions.maxWeightGrams'] = m.CONDITION_RANGE;
  return out;
}

/** What an order keeps of its shipping choice: printed on the order, its confirmation and its emails. */
export interface OrderShippingChoice {
  id: string;
  name: string;
  costCents: number;
  kind: ShippingOptionKind;
  estimate: string;
  zoneName?: string;
  pickup?: { address: PickupAddress; instructions: string };
}

export function orderShippingOption(o: ShippingOption & { costCents: number }): OrderShippingChoice {
  return {
    id: o.id,
    name: o.name,
    costCents: o.costCents,
    kind: o.kind,
    estimate: o.estimate ?? '',
    ...(o.zoneName ? { zoneName: o.zoneName } : {}),
    ...(o.pickup ? { pickup: o.pickup } : {}),
  };
}

/** The pickup location of an order's stored shipping choice, or null when it is shipped or delivered. */
export function pickupOf(stored: Record<string, unknown> | null | undefined): { address: PickupAddress; instructions: string } | null {
  const p = stored?.kind === 'pickup' ? (stored.pickup as { address?: PickupAddress; instructions?: unknown } | undefined) : undefined;
  return p?.address ? { address: p.address, instructions: String(p.instructions ?? '') } : null;
}
