/**
 * The owner's shipping set-up in the database: zones (each with its rates in one row, so a zone and its rates
 * are saved or refused together), pickup locations and local delivery areas; read by checkout as options.
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/index.js';
import { rows } from '../db-util.js';
import { newId } from '../../db/ids.js';
import { HttpError } from '../errors.js';
import { shippingMessages as m } from '../../core/messages.js';
import type { DeliveryBody, PickupBody, ZoneBody } from '../../core/api/shipping.js';
import type { CountryOption } from '../../core/api/common.js';
import type { ShippingOptionBody } from '../../core/store-rules.js';
import {
  shippingCountries,
  shippingOptionsOf,
  type LocalDelivery,
  type ShippingRate,
  type PickupLocation,
  type ShippingOption,
  type ShippingSetup,
  type ShippingZone,
} from '../../core/shipping.js';
import { addressFormat, checkedAddress, countryName, formatAddress } from '../site-page/index.js';

type Obj = Record<string, unknown>;
const parse = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

const zoneFrom = (r: Obj): ShippingZone & { ordering: number } => ({
  id: String(r.id),
  name: String(r.name),
  countries: parse<string[]>(r.countries) ?? [],
  regions: parse<ShippingZone['regions']>(r.regions) ?? [],
  restOfWorld: r.rest_of_world === true,
  rates: parse<ShippingZone['rates']>(r.rates) ?? [],
  ordering: Number(r.ordering ?? 0),
});
const pickupFrom = (r: Obj): PickupLocation => ({
  id: String(r.id),
  name: String(r.name),
  address: parse<PickupLocation['address']>(r.address),
  instructions: String(r.instructions ?? ''),
});
const deliveryFrom = (r: Obj): LocalDelivery => ({
  id: String(r.id),
  name: String(r.name),
  country: String(r.country),
  postcodes: parse<string[]>(r.postcodes) ?? [],
  feeCents: Number(r.fee_cents ?? 0),
  minOrderCents: Number(r.min_order_cents ?? 0),
  estimate: String(r.estimate ?? ''),
});

export async function shippingSetup(
  db: Db | Tx,
  websiteId: string,
): Promise<ShippingSetup & { zones: Array<ShippingZone & { ordering: number }> }> {
  // One after another: inside a transaction they share one connection.
  const zones = await rows<Obj>(db, sql`select * from shipping_zones where website_id = ${websiteId} order by ordering, created_at, id`);
  const pickups = await rows<Obj>(
    db,
    sql`select * from pickup_locations where website_id = ${websiteId} order by ordering, created_at, id`,
  );
  const deliveries = await rows<Obj>(
    db,
    sql`select * from local_delivery_areas where website_id = ${websiteId} order by ordering, created_at, id`,
  );
  return { zones: zones.map(zoneFrom), pickups: pickups.map(pickupFrom), deliveries: deliveries.map(deliveryFrom) };
}

/** Checkout's options: every zone rate, local delivery area and pickup location of the site. */
export async function shippingOptionsFor(db: Db | Tx, websiteId: string): Promise<ShippingOption[]> {
  const options = shippingOptionsOf(await shippingSetup(db, websiteId));
  // A pickup's address as its country prints it, for the checkout page to show beside the choice.
  for (const o of options) if (o.pickup) o.pickup = { ...o.pickup, lines: formatAddress(o.pickup.address, 'en') };
  return options;
}

const refuse = (field: string, message: string) => new HttpError(400, message, { [field]: message });

/**
 * The checks a zone needs beyond its shape: its regions are the country's own subdivisions, and no country or
 * region is in another zone (an address belongs to one zone), nor the rest of the world twice.
 */
function checkZonePlaces(body: ZoneBody, others: ShippingZone[], locale: string): void {
  body.regions.forEach((r, i) => {
    const subs = addressFormat(r.country, locale).subdivisions;
    if (!subs) throw refuse(`regions.${i}.region`, m.noRegions(countryName(r.country, locale)));
    if (!subs.some(([code]) => code.toUpperCase() === r.region))
      throw refuse(`regions.${i}.region`, m.unknownRegion(r.region, countryName(r.country, locale)));
  });
  for (const o of others) {
    if (body.restOfWorld && o.restOfWorld) throw refuse('restOfWorld', m.ONE_REST_OF_WORLD);
    for (const c of body.countries) {
      if (o.countries.includes(c) || o.regions.some((r) => r.country === c))
        throw refuse('countries', m.countryInOtherZone(countryName(c, locale), o.name));
    }
    body.regions.forEach((r, i) => {
      if (o.countries.includes(r.country) || o.regions.some((x) => x.country === r.country && x.region === r.region))
        throw refuse(`regions.${i}.region`, m.regionInOtherZone(`${r.region} (${countryName(r.country, locale)})`, o.name));
    });
  }
}

/** Saves a zone with its rates (a new one when `id` is null); null when the zone to update does not exist. */
export async function saveZone(db: Db, websiteId: string, id: string | null, body: ZoneBody, locale: string): Promise<ShippingZone | null> {
  return db.transaction(async (tx) => {
    // The site's zones are read under a lock so two saves cannot put one country in two zones.
    const all = (await rows<Obj>(tx, sql`select * from shipping_zones where website_id = ${websiteId} order by id for update`)).map(
      zoneFrom,
    );
    if (id && !all.some((z) => z.id === id)) return null;
    // A region listed with its whole country adds nothing.
    const regions = body.regions.filter((r) => !body.countries.includes(r.country));
    const clean: ZoneBody = { ...body, countries: [...new Set(body.countries)], regions };
    checkZonePlaces(
      clean,
      all.filter((z) => z.id !== id),
      locale,
    );
    const rates = clean.rates.map((r) => ({
      id: r.id ?? newId(),
      name: r.name,
      kind: r.kind,
      priceCents: r.kind === 'weight' || r.kind === 'value' ? 0 : r.priceCents,
      freeAboveCents: r.kind === 'free_above' ? (r.freeAboveCents ?? null) : null,
      bands: r.kind === 'weight' || r.kind === 'value' ? r.bands : [],
      estimate: r.estimate,
      ...(r.conditions ? { conditions: r.conditions } : {}),
      enabled: r.enabled,
    }));
    const j = (v: unknown) => JSON.stringify(v);
    const r = id
      ? await rows<Obj>(
          tx,
          sql`update shipping_zones set name = ${clean.name}, countries = ${j(clean.countries)}::jsonb, regions = ${j(regions)}::jsonb,
            rest_of_world = ${clean.restOfWorld}, rates = ${j(rates)}::jsonb, ordering = ${clean.ordering}
            where id = ${id} and website_id = ${websiteId} returning *`,
        )
      : await rows<Obj>(
          tx,
          sql`insert into shipping_zones (id, website_id, name, countries, regions, rest_of_world, rates, ordering)
            values (${newId()}, ${websiteId}, ${clean.name}, ${j(clean.countries)}::jsonb, ${j(regions)}::jsonb, ${clean.restOfWorld},
              ${j(rates)}::jsonb, ${clean.ordering}) returning *`,
        );
    return r[0] ? zoneFrom(r[0]) : null;
  });
}

/** Saves a pickup location; its address is checked against its country's format first. */
export async function savePickup(
  db: Db,
  websiteId: string,
  id: string | null,
  body: PickupBody,
  locale: string,
): Promise<PickupLocation | null> {
  // The address's name line is the location's name unless the owner gave another.
  const { address, errors } = checkedAddress({ ...body.address, name: body.address.name || body.name }, locale);
  const wrong = Object.entries(errors)[0];
  if (wrong) throw refuse(`address.${wrong[0]}`, wrong[1]);
  const a = JSON.stringify(address);
  const r = id
    ? await rows<Obj>(
        db,
        sql`update pickup_locations set name = ${body.name}, address = ${a}::jsonb, instructions = ${body.instructions}, ordering = ${body.ordering}
          where id = ${id} and website_id = ${websiteId} returning *`,
      )
    : await rows<Obj>(
        db,
        sql`insert into pickup_locations (id, website_id, name, address, instructions, ordering)
          values (${newId()}, ${websiteId}, ${body.name}, ${a}::jsonb, ${body.instructions}, ${body.ordering}) returning *`,
      );
  return r[0] ? pickupFrom(r[0]) : null;
}

export async function saveDelivery(db: Db, websiteId: string, id: string | null, b: DeliveryBody): Promise<LocalDelivery | null> {
  const p = JSON.stringify(b.postcodes);
  const r = id
    ? await rows<Obj>(
        db,
        sql`update local_delivery_areas set name = ${b.name}, country = ${b.country}, postcodes = ${p}::jsonb, fee_cents = ${b.feeCents},
          min_order_cents = ${b.minOrderCents}, estimate = ${b.estimate}, ordering = ${b.ordering}
          where id = ${id} and website_id = ${websiteId} returning *`,
      )
    : await rows<Obj>(
        db,
        sql`insert into local_delivery_areas (id, website_id, name, country, postcodes, fee_cents, min_order_cents, estimate, ordering)
          values (${newId()}, ${websiteId}, ${b.name}, ${b.country}, ${p}::jsonb, ${b.feeCents}, ${b.minOrderCents}, ${b.estimate}, ${b.ordering}) returning *`,
      );
  return r[0] ? deliveryFrom(r[0]) : null;
}

const TABLES = { zones: 'shipping_zones', pickups: 'pickup_locations', deliveries: 'local_delivery_areas' } as const;

/** Deletes one of the site's zones, pickups or delivery areas; false when it does not exist. */
export async function deleteShipping(db: Db, websiteId: string, what: keyof typeof TABLES, id: string): Promise<boolean> {
  const r = await rows<Obj>(
    db,
    sql`delete from ${sql.identifier(TABLES[what])} where id = ${id} and website_id = ${websiteId} returning id`,
  );
  return r.length > 0;
}

/**
 * The countries checkout offers: a cart that needs shipping may choose only the countries the shop ships to (its
 * zones, local delivery areas and pickups); any other cart, or a shop that set no shipping up yet, every country.
 */
export function checkoutCountries(
  all: CountryOption[],
  view: { cart: { requiresShipping?: unknown }; pricing: { shippingOptions: ShippingOption[] } },
): CountryOption[] {
  if (view.cart.requiresShipping !== true) return all;
  const allowed = shippingCountries(view.pricing.shippingOptions);
  if (allowed === null || allowed.length === 0) return all;
  return all.filter(([code]) => allowed.includes(code));
}

/** The country the address form starts with: the shop's default when checkout offers it, else the first offered. */
export function firstCountry(offered: CountryOption[], preferred: string): string {
  return offered.some(([c]) => c === preferred) || offered.length === 0 ? preferred : offered[0]![0];
}

/**
 * The earlier one-list API (POST shipping-options, kept for scripts written against it): the option becomes a rate
 * of the zone with exactly its countries (no countries: the rest-of-the-world zone), made when there is none.
 */
export async function addLegacyOption(db: Db, websiteId: string, b: ShippingOptionBody, locale: string): Promise<ShippingRate> {
  const countries = [...new Set(b.countries.map((c) => c.toUpperCase()))].sort();
  const tiers = [...b.weightRates].sort((x, y) => x.upToGrams - y.upToGrams);
  const rate = {
    name: b.name,
    kind: b.kind,
    priceCents: b.priceCents,
    freeAboveCents: b.kind === 'free_above' ? b.freeAboveCents : null,
    bands:
      b.kind === 'weight'
        ? tiers.map((t, i) => ({ from: i === 0 ? 0 : tiers[i - 1]!.upToGrams, to: t.upToGrams, priceCents: t.priceCents }))
        : [],
    estimate: '',
    enabled: b.enabled,
  };
  const zones = (await shippingSetup(db, websiteId)).zones as Array<ShippingZone & { ordering: number }>;
  const same = zones.find((z) =>
    countries.length === 0 ? z.restOfWorld : z.regions.length === 0 && [...z.countries].sort().join() === countries.join(),
  );
  const body: ZoneBody = same
    ? {
        name: same.name,
        countries: same.countries,
        regions: same.regions,
        restOfWorld: same.restOfWorld,
        ordering: same.ordering,
        rates: [...same.rates.map((r) => ({ ...r, bands: r.bands ?? [], estimate: r.estimate ?? '', enabled: r.enabled !== false })), rate],
      }
    : {
        name: countries.length ? countries.join(', ') : m.REST_OF_WORLD,
        countries,
        regions: [],
        restOfWorld: countries.length === 0,
        ordering: b.ordering,
        rates: [rate],
      };
  const saved = await saveZone(db, websiteId, same?.id ?? null, body, locale);
  return saved!.rates[saved!.rates.length - 1]!;
}
