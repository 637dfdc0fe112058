/**
 * The owner's store rules (shipping options, tax rules, coupons): one zod schema each, read by the server to check
 * a save (server/checkout/admin-routes.ts) and by the /config forms (web/admin/CouponsScreen.tsx, ShippingScreen.tsx,
 * TaxScreen.tsx) before they send, so both refuse the same value with the same message on the same field.
 */
import { z } from 'zod';
import { isCountryCode } from './countries.js';

/** An amount in the store currency's minor units. */
export const centsSchema = z
  .number({ error: 'Must be an amount in cents.' })
  .int('Must be a whole number of cents.')
  .min(0, 'Must be 0 or more.')
  .max(1e13, 'Too large.');
const noNul = (v: string) => !v.includes('\u0000');

export const SHIPPING_KINDS = ['flat', 'free_above', 'weight'] as const;
export const COUPON_KINDS = ['percent', 'fixed', 'free_shipping'] as const;

/** A "free above" rate refused without its threshold. */
export const FREE_ABOVE_NEEDS_AMOUNT = 'Enter the order subtotal above which shipping is free.';
/** Two-letter codes that name no country, said back to the owner. */
export const unknownCountries = (codes: string[]) =>
  codes.length === 1
    ? `${codes[0]!.toUpperCase()} is not a country code.`
    : `These are not country codes: ${codes.map((c) => c.toUpperCase()).join(', ')}.`;

export const shippingOptionSchema = z
  .object({
    name: z.string().trim().min(1, 'Name is required.').max(100).refine(noNul, 'Must not contain NUL characters.'),
    kind: z.enum(SHIPPING_KINDS, { error: 'Kind must be flat, free_above or weight.' }),
    priceCents: centsSchema.default(0),
    freeAboveCents: centsSchema.default(0),
    weightRates: z
      .array(z.object({ upToGrams: z.number().int().min(1).max(1e7), priceCents: centsSchema }))
      .max(50)
      .default([]),
    countries: z
      .array(z.string().regex(/^[A-Za-z]{2}$/, 'Countries are two-letter codes.'))
      .max(300)
      .default([])
      .superRefine((codes, ctx) => {
        const unknown = codes.filter((c) => !isCountryCode(c));
        if (unknown.length > 0) ctx.addIssue({ code: 'custom', message: unknownCountries(unknown) });
      }),
    enabled: z.boolean().default(true),
    ordering: z.number().int().min(0).max(10000).default(0),
  })
  .refine((b) => b.kind !== 'weight' || b.weightRates.length > 0, {
    message: 'A weight-based option needs at least one rate.',
    path: ['weightRates'],
  })
  // An empty threshold would make every order's shipping free.
  .refine((b) => b.kind !== 'free_above' || b.freeAboveCents > 0, {
    message: FREE_ABOVE_NEEDS_AMOUNT,
    path: ['freeAboveCents'],
  });
export type ShippingOptionBody = z.output<typeof shippingOptionSchema>;

export const taxRuleSchema = z.object({
  name: z.string().trim().min(1, 'Name is required.').max(100).refine(noNul, 'Must not contain NUL characters.'),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'Country must be a two-letter code.')
    .refine(isCountryCode, { error: (i) => unknownCountries([String(i.input)]) }),
  region: z.string().trim().max(20).refine(noNul, 'Must not contain NUL characters.').default(''),
  rateBasisPoints: z.number().int('Rate must be whole basis points.').min(0).max(10000, 'Rate must be 100% or less.'),
  appliesToShipping: z.boolean().default(false),
});
export type TaxRuleBody = z.output<typeof taxRuleSchema>;

export const couponSchema = z
  .object({
    code: z
      .string()
      .trim()
      .min(2, 'Code must be 2 to 40 characters.')
      .max(40)
      .regex(/^[A-Za-z0-9_-]+$/, 'Codes use letters, digits, - and _.'),
    kind: z.enum(COUPON_KINDS, { error: 'Kind must be percent, fixed or free_shipping.' }),
    percentBasisPoints: z.number().int().min(0).max(10000, 'A percentage is 100% or less.').default(0),
    amountCents: centsSchema.default(0),
    minSubtotalCents: centsSchema.default(0),
    expiresAt: z.number().int().positive().nullable().default(null),
    usageLimit: z.number().int().min(0).max(1e9).default(0),
    /** Off by default: a gift card bought with a coupon would be money sold at a discount. */
    appliesToGiftCards: z.boolean().default(false),
    enabled: z.boolean().default(true),
  })
  .refine((b) => b.kind !== 'percent' || b.percentBasisPoints > 0, { message: 'Enter the percentage off.', path: ['percentBasisPoints'] })
  .refine((b) => b.kind !== 'fixed' || b.amountCents > 0, { message: 'Enter the amount off.', path: ['amountCents'] });
export type CouponBody = z.output<typeof couponSchema>;
