/**
 * The owner's instalment preferences: the 'instalments' namespace of the commerce preferences, stored by
 * the platform area in the commerce_preferences table (GET/PUT /api/v1/commerce-preferences/instalments).
 *
 * Shape (all optional; anything missing or malformed means "no instalments", never an error on a page):
 *   {
 *     "available": true,                 // the owner offers instalments
 *     "merchantCountry": "US",           // the payment account's country (US, CA, AU, NZ, GB are supported)
 *     "limits": { "USD": { "min": 100, "max": 200000 } }   // per currency, minor units; min exclusive, max inclusive
 *   }
 */
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/index.js';
import { schema } from '../../db/index.js';
import { isSupportedCurrency, normalizeCurrency } from '../../core/money.js';

export const INSTALMENTS_NAMESPACE = 'instalments';

const minor = z
  .union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,17}$/)])
  .transform((v) => String(v));

const limitsSchema = z.object({ min: minor, max: minor });

const prefsSchema = z.object({
  available: z.boolean().optional().default(false),
  merchantCountry: z.string().trim().max(8).nullable().optional(),
  limits: z.record(z.string(), z.unknown()).optional().default({}),
});

export interface InstalmentLimits {
  /** Minor units, exclusive. */
  min: string;
  /** Minor units, inclusive. */
  max: string;
}

export interface InstalmentPreferences {
  available: boolean;
  merchantCountry: string | null;
  /** Limits by currency code (upper case). */
  limits: Record<string, InstalmentLimits>;
}

export const NO_INSTALMENTS: InstalmentPreferences = Object.freeze({
  available: false,
  merchantCountry: null,
  limits: Object.freeze({}) as Record<string, InstalmentLimits>,
});

/**
 * Reads a stored value leniently: a malformed currency entry is dropped (that currency shows no pill),
 * a malformed object as a whole means no instalments. Never throws.
 */
export function parseInstalmentPreferences(value: unknown): InstalmentPreferences {
  const parsed = prefsSchema.safeParse(value ?? {});
  if (!parsed.success) return NO_INSTALMENTS;
  const limits: Record<string, InstalmentLimits> = {};
  for (const [code, raw] of Object.entries(parsed.data.limits)) {
    if (!isSupportedCurrency(code)) continue;
    const l = limitsSchema.safeParse(raw);
    if (!l.success || BigInt(l.data.max) <= BigInt(l.data.min)) continue;
    limits[normalizeCurrency(code)] = l.data;
  }
  const country = parsed.data.merchantCountry ? parsed.data.merchantCountry.toUpperCase() : null;
  return { available: parsed.data.available, merchantCountry: country, limits };
}

/** The instalment preferences of a website, from the platform's commerce preferences storage. */
export async function loadInstalmentPreferences(db: Db | Tx, websiteId: string): Promise<InstalmentPreferences> {
  const [row] = await db
    .select({ value: schema.commercePreferences.value })
    .from(schema.commercePreferences)
    .where(and(eq(schema.commercePreferences.websiteId, websiteId), eq(schema.commercePreferences.namespace, INSTALMENTS_NAMESPACE)));
  return parseInstalmentPreferences(row?.value);
}

/** The demo store's preferences: instalments on, a US account, USD orders over $1.00 and up to $2,000.00. */
export const DEMO_INSTALMENT_PREFERENCES = Object.freeze({
  available: true,
  merchantCountry: 'US',
  limits: { USD: { min: 100, max: 200000 } },
});

/**
 * Seeds the demo preferences unless the owner already has some (safe to call again). Returns whether
 * it wrote. The seed calls it once with the new website's id.
 */
export async function seedInstalmentPreferences(
  db: Db | Tx,
  websiteId: string,
  value: Record<string, unknown> = DEMO_INSTALMENT_PREFERENCES,
): Promise<boolean> {
  const inserted = await db
    .insert(schema.commercePreferences)
    .values({ websiteId, namespace: INSTALMENTS_NAMESPACE, value: { ...value } })
    .onConflictDoNothing()
    .returning({ websiteId: schema.commercePreferences.websiteId });
  return inserted.length > 0;
}
