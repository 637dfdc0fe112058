/**
 * Owner calls under /api/checkout/admin (admin and store manager): orders (order-admin-routes.ts),
 * shipping options, tax rules, coupons, and the minimum order subtotal the cart enforces
 * (website settings storeSettings.minimumOrderSubtotalCents).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { sql } from 'drizzle-orm';
import { normalizeCouponCode } from '../../core/checkout.js';
import { centsSchema, couponSchema, shippingOptionSchema, taxRuleSchema } from '../../core/store-rules.js';
import { newId } from '../../db/ids.js';
import { rows } from '../db-util.js';
import { HttpError, notFound } from '../errors.js';
import type { CheckoutService } from './service.js';
import { registerOrderDesk } from './order-admin-routes.js';
import { can } from '../../core/roles.js';
import { countryOptions } from '../site-page/index.js';

const cents = centsSchema;
const id = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'Unknown id.') });

// The bodies' schemas are shared with the /config forms (core/store-rules.ts).
const shippingBody = shippingOptionSchema;
const taxBody = taxRuleSchema;
const couponBody = couponSchema;

type Obj = Record<string, unknown>;

/** A code another coupon of the site holds: a 409 that names the code field, so a form shows it beside it. */
const CODE_TAKEN = 'A coupon with that code already exists.';
const codeTaken = () => new HttpError(409, CODE_TAKEN, { code: CODE_TAKEN });

/** Whether the database refused a row for a unique index (the driver's error or one it wraps). */
function uniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

export async function checkoutAdminRoutes(app: FastifyInstance, opts: { checkout: CheckoutService }) {
  const { checkout } = opts;
  const { websites } = app.services;
  const db = app.database.db;
  const owner = { preHandler: app.requireOwner(can('checkout', 'write')) };
  const ownerRead = { preHandler: app.requireOwner(can('checkout', 'read')) };
  const siteId = async () => (await websites.get()).id;

  // ---- Orders -----------------------------------------------------------------------------------

  await registerOrderDesk(app, checkout, siteId);

  // The country lists of the shipping and tax editors, named in the shop's language.
  app.get('/api/checkout/admin/countries', ownerRead, async (_req, reply) => {
    reply.header('cache-control', 'private, max-age=3600');
    return { countries: countryOptions((await websites.get()).locale) };
  });

  // ---- Settings: the minimum order subtotal -------------------------------------------------------

  app.get('/api/checkout/admin/settings', ownerRead, async () => {
    const site = await websites.get();
    const s = websites.storeSettings(site);
    return { minimumOrderSubtotalCents: Math.max(0, Number(s.minimumOrderSubtotalCents) || 0), currency: site.currency };
  });

  app.put('/api/checkout/admin/settings', owner, async (req) => {
    const body = z.object({ minimumOrderSubtotalCents: cents }).parse(req.body ?? {});
    const site = await websites.get();
    await db.transaction(async (tx) => {
      // Merged in the database so a concurrent change to other store settings is kept.
      await tx.execute(sql`update websites set settings = jsonb_set(settings, '{storeSettings}', coalesce(settings -> 'storeSettings', '{}'::jsonb) || ${JSON.stringify({ minimumOrderSubtotalCents: body.minimumOrderSubtotalCents })}::jsonb),
        version = version + 1 where id = ${site.id}`);
    });
    websites.invalidate();
    return { minimumOrderSubtotalCents: body.minimumOrderSubtotalCents, currency: site.currency };
  });

  // ---- Shipping options, tax rules, coupons -------------------------------------------------------

  const shippingJson = (r: Obj) => ({
    id: r.id,
    name: r.name,
    kind: r.kind,
    priceCents: Number(r.price_cents),
    freeAboveCents: Number(r.free_above_cents),
    weightRates: r.weight_rates,
    countries: r.countries,
    enabled: r.enabled,
    ordering: Number(r.ordering),
  });
  app.get('/api/checkout/admin/shipping-options', ownerRead, async () => {
    const r = await rows<Obj>(
      db,
      sql`select * from shipping_options where website_id = ${await siteId()} order by ordering, created_at, id`,
    );
    return { shippingOptions: r.map(shippingJson) };
  });
  app.post('/api/checkout/admin/shipping-options', owner, async (req) => {
    const b = shippingBody.parse(req.body ?? {});
    const r = await rows<Obj>(
      db,
      sql`insert into shipping_options (id, website_id, name, kind, price_cents, free_above_cents, weight_rates, countries, enabled, ordering)
        values (${newId()}, ${await siteId()}, ${b.name}, ${b.kind}, ${b.priceCents}, ${b.freeAboveCents}, ${JSON.stringify(b.weightRates)}::jsonb,
          ${JSON.stringify(b.countries.map((c) => c.toUpperCase()))}::jsonb, ${b.enabled}, ${b.ordering}) returning *`,
    );
    return { shippingOption: shippingJson(r[0]!) };
  });
  app.put('/api/checkout/admin/shipping-options/:id', owner, async (req) => {
    const { id: oid } = id.parse(req.params);
    const b = shippingBody.parse(req.body ?? {});
    const r = await rows<Obj>(
      db,
      sql`update shipping_options set name = ${b.name}, kind = ${b.kind}, price_cents = ${b.priceCents}, free_above_cents = ${b.freeAboveCents},
        weight_rates = ${JSON.stringify(b.weightRates)}::jsonb, countries = ${JSON.stringify(b.countries.map((c) => c.toUpperCase()))}::jsonb, enabled = ${b.enabled}, ordering = ${b.ordering}
        where id = ${oid} and website_id = ${await siteId()} returning *`,
    );
    if (!r[0]) throw notFound('That shipping option does not exist.');
    return { shippingOption: shippingJson(r[0]) };
  });
  app.delete('/api/checkout/admin/shipping-options/:id', owner, async (req) => {
    const { id: oid } = id.parse(req.params);
    const r = await rows<Obj>(db, sql`delete from shipping_options where id = ${oid} and website_id = ${await siteId()} returning id`);
    if (!r[0]) throw notFound('That shipping option does not exist.');
    return { deleted: oid };
  });

  const taxJson = (r: Obj) => ({
    id: r.id,
    name: r.name,
    country: r.country,
    region: r.region,
    rateBasisPoints: Number(r.rate_basis_points),
    appliesToShipping: r.applies_to_shipping,
  });
  app.get('/api/checkout/admin/tax-rules', ownerRead, async () => {
    const r = await rows<Obj>(db, sql`select * from tax_rules where website_id = ${await siteId()} order by country, region, id`);
    return { taxRules: r.map(taxJson) };
  });
  app.post('/api/checkout/admin/tax-rules', owner, async (req) => {
    const b = taxBody.parse(req.body ?? {});
    const r = await rows<Obj>(
      db,
      sql`insert into tax_rules (id, website_id, name, country, region, rate_basis_points, applies_to_shipping)
        values (${newId()}, ${await siteId()}, ${b.name}, ${b.country.toUpperCase()}, ${b.region.toUpperCase()}, ${b.rateBasisPoints}, ${b.appliesToShipping}) returning *`,
    );
    return { taxRule: taxJson(r[0]!) };
  });
  app.put('/api/checkout/admin/tax-rules/:id', owner, async (req) => {
    const { id: tid } = id.parse(req.params);
    const b = taxBody.parse(req.body ?? {});
    const r = await rows<Obj>(
      db,
      sql`update tax_rules set name = ${b.name}, country = ${b.country.toUpperCase()}, region = ${b.region.toUpperCase()}, rate_basis_points = ${b.rateBasisPoints},
        applies_to_shipping = ${b.appliesToShipping} where id = ${tid} and website_id = ${await siteId()} returning *`,
    );
    if (!r[0]) throw notFound('That tax rule does not exist.');
    return { taxRule: taxJson(r[0]) };
  });
  app.delete('/api/checkout/admin/tax-rules/:id', owner, async (req) => {
    const { id: tid } = id.parse(req.params);
    const r = await rows<Obj>(db, sql`delete from tax_rules where id = ${tid} and website_id = ${await siteId()} returning id`);
    if (!r[0]) throw notFound('That tax rule does not exist.');
    return { deleted: tid };
  });

  registerCouponRoutes(app, { db, owner, ownerRead, siteId });
}

type OwnerGuard = { preHandler: ReturnType<FastifyInstance['requireOwner']> };

/** Coupons: list, create, edit and delete, a code unique within the site. */
function registerCouponRoutes(
  app: FastifyInstance,
  ctx: { db: FastifyInstance['database']['db']; owner: OwnerGuard; ownerRead: OwnerGuard; siteId: () => Promise<string> },
) {
  const { db, owner, ownerRead, siteId } = ctx;
  const couponJson = (r: Obj) => ({
    id: r.id,
    code: r.code,
    kind: r.kind,
    percentBasisPoints: Number(r.percent_basis_points),
    amountCents: Number(r.amount_cents),
    minSubtotalCents: Number(r.min_subtotal_cents),
    expiresAt: r.expires_at ? new Date(r.expires_at as string).getTime() : null,
    usageLimit: Number(r.usage_limit),
    timesUsed: Number(r.times_used),
    appliesToGiftCards: r.applies_to_gift_cards === true,
    enabled: r.enabled,
  });
  app.get('/api/checkout/admin/coupons', ownerRead, async () => {
    const r = await rows<Obj>(db, sql`select * from coupons where website_id = ${await siteId()} order by created_at desc, id`);
    return { coupons: r.map(couponJson) };
  });
  app.post('/api/checkout/admin/coupons', owner, async (req) => {
    const b = couponBody.parse(req.body ?? {});
    const r = await rows<Obj>(
      db,
      sql`insert into coupons (id, website_id, code, kind, percent_basis_points, amount_cents, min_subtotal_cents, expires_at, usage_limit, applies_to_gift_cards, enabled)
        values (${newId()}, ${await siteId()}, ${normalizeCouponCode(b.code)}, ${b.kind}, ${b.percentBasisPoints}, ${b.amountCents}, ${b.minSubtotalCents},
          ${b.expiresAt ? new Date(b.expiresAt).toISOString() : null}::timestamptz, ${b.usageLimit}, ${b.appliesToGiftCards}, ${b.enabled})
        on conflict (website_id, code) do nothing returning *`,
    );
    if (!r[0]) throw codeTaken();
    return { coupon: couponJson(r[0]) };
  });
  app.put('/api/checkout/admin/coupons/:id', owner, async (req) => {
    const { id: cid } = id.parse(req.params);
    const b = couponBody.parse(req.body ?? {});
    const site = await siteId();
    // The unique index decides a clash: a check before the update would let two edits racing to one code
    // both pass it, and the loser would meet the index as a 500.
    const r = await rows<Obj>(
      db,
      sql`update coupons set code = ${normalizeCouponCode(b.code)}, kind = ${b.kind}, percent_basis_points = ${b.percentBasisPoints}, amount_cents = ${b.amountCents},
        min_subtotal_cents = ${b.minSubtotalCents}, expires_at = ${b.expiresAt ? new Date(b.expiresAt).toISOString() : null}::timestamptz, usage_limit = ${b.usageLimit},
        applies_to_gift_cards = ${b.appliesToGiftCards}, enabled = ${b.enabled}
        where id = ${cid} and website_id = ${site} returning *`,
    ).catch((e: unknown) => {
      throw uniqueViolation(e) ? codeTaken() : e;
    });
    if (!r[0]) throw notFound('That coupon does not exist.');
    return { coupon: couponJson(r[0]) };
  });
  app.delete('/api/checkout/admin/coupons/:id', owner, async (req) => {
    const { id: cid } = id.parse(req.params);
    const r = await rows<Obj>(db, sql`delete from coupons where id = ${cid} and website_id = ${await siteId()} returning id`);
    if (!r[0]) throw notFound('That coupon does not exist.');
    return { deleted: cid };
  });
}
