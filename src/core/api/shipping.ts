/**
 * Shipping's wire shapes: a zone with its rates, a pickup location and a local delivery area as the /config
 * editor sends them (checked by the server and by the editor before it sends, with the same messages), and the
 * owner's whole set-up as the server answers it.
 */
import { z } from 'zod';
import { isCountryCode } from '../countries.js';
import { centsSchema } from '../store-rules.js';
import { shippingMessages as m } from '../messages.js';
import { RATE_KINDS, rateProblems, type LocalDelivery, type PickupLocation, type RateKind, type ShippingZone } from '../shipping.js';
import { storableText as str } from './common.js';

const id = z.string().regex(/^[0-9a-f]{24}$/, 'Unknown id.');
const name = str(100).trim().min(1, 'Name is required.');
const country = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'Countries are two-letter codes.')
  .transform((c) => c.toUpperCase())
  .refine(isCountryCode, { error: (i) => `${String(i.input).toUpperCase()} is not a country code.` });
const grams = z
  .number({ error: 'Must be a weight in grams.' })
  .int('Must be whole grams.')
  .min(0, 'Must be 0 or more.')
  .max(1e8, 'Too large.');
const optionalCents = centsSchema.nullable().optional();
const optionalGrams = grams.nullable().optional();

const bandSchema = (kind: 'weight' | 'value') =>
  z.object({
    from: kind === 'weight' ? grams : centsSchema,
    to: (kind === 'weight' ? grams : centsSchema).nullable(),
    priceCents: centsSchema,
  });

/** A rate as the editor sends it; the bands are checked for gaps and overlaps with amounts in the shop's money. */
export const rateSchema = (money: (cents: number) => string) =>
  z
    .object({
      id: id.optional(),
      name,
      kind: z.enum(RATE_KINDS as [RateKind, ...RateKind[]], { error: 'Kind must be flat, weight, value or free_above.' }),
      priceCents: centsSchema.default(0),
      freeAboveCents: optionalCents,
      bands: z
        .array(z.union([bandSchema('weight'), bandSchema('value')]))
        .max(50, 'At most 50 bands.')
        .default([]),
      estimate: str(100).trim().default(''),
      conditions: z
        .object({
          minOrderCents: optionalCents,
          maxOrderCents: optionalCents,
          minWeightGrams: optionalGrams,
          maxWeightGrams: optionalGrams,
        })
        .optional(),
      enabled: z.boolean().default(true),
    })
    .superRefine((r, ctx) => {
      for (const [path, message] of Object.entries(rateProblems(r, money)))
        ctx.addIssue({ code: 'custom', message, path: path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) });
    });

/** A zone with all its rates: saved in one write, so a refused rate saves nothing. */
export const zoneSchema = (money: (cents: number) => string) =>
  z
    .object({
      name,
      countries: z.array(country).max(300).default([]),
      regions: z
        .array(
          z.object({
            country,
            region: str(20)
              .trim()
              .min(1)
              .transform((r) => r.toUpperCase()),
          }),
        )
        .max(500)
        .default([]),
      restOfWorld: z.boolean().default(false),
      rates: z.array(rateSchema(money)).max(50, 'At most 50 rates.'),
      ordering: z.number().int().min(0).max(10000).default(0),
    })
    .refine((z) => z.restOfWorld || z.countries.length > 0 || z.regions.length > 0, { message: m.ZONE_NEEDS_PLACE, path: ['countries'] })
    .refine((z) => z.rates.length > 0, { message: m.ZONE_NEEDS_RATE, path: ['rates'] });
export type ZoneBody = z.output<ReturnType<typeof zoneSchema>>;

/** A pickup location: its address is checked against its country's format by the server. */
export const pickupSchema = z.object({
  name,
  address: z.object({
    name: str(200).trim().default(''),
    line1: str(200).trim().default(''),
    line2: str(200).trim().default(''),
    city: str(100).trim().default(''),
    region: str(100).trim().default(''),
    postalCode: str(20).trim().default(''),
    country,
  }),
  instructions: str(1000).trim().default(''),
  ordering: z.number().int().min(0).max(10000).default(0),
});
export type PickupBody = z.output<typeof pickupSchema>;

export const deliverySchema = z.object({
  name,
  country,
  postcodes: z
    .array(str(20).trim())
    .max(1000, 'At most 1000 postcodes.')
    .transform((l) => [...new Set(l.map((p) => p.toUpperCase()).filter(Boolean))])
    .refine((l) => l.length > 0, { message: m.POSTCODES_REQUIRED }),
  feeCents: centsSchema.default(0),
  minOrderCents: centsSchema.default(0),
  estimate: str(100).trim().default(''),
  ordering: z.number().int().min(0).max(10000).default(0),
});
export type DeliveryBody = z.output<typeof deliverySchema>;

/** GET /api/checkout/admin/shipping: the owner's whole set-up. */
export interface ShippingSetupAnswer {
  zones: Array<ShippingZone & { ordering: number }>;
  pickups: PickupLocation[];
  deliveries: LocalDelivery[];
  currency: string;
}
