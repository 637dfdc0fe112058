/**
 * Owner calls under /api/checkout/admin/shipping: the whole set-up, and zones (with their rates), pickup
 * locations and local delivery areas to add, change and delete. Thin: shapes in core/api/shipping.ts, rules in
 * core/shipping.ts, storage in shipping-store.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { deliverySchema, pickupSchema, zoneSchema, type ShippingSetupAnswer } from '../../core/api/shipping.js';
import { shippingMessages as m } from '../../core/messages.js';
import { formatMoney } from '../../core/money.js';
import { can } from '../../core/roles.js';
import { notFound } from '../errors.js';
import { addLegacyOption, deleteShipping, saveDelivery, savePickup, saveZone, shippingSetup } from './shipping-store.js';
import { shippingOptionSchema } from '../../core/store-rules.js';

const params = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'Unknown id.') });
const BASE = '/api/checkout/admin/shipping';

export async function shippingAdminRoutes(app: FastifyInstance): Promise<void> {
  const { websites } = app.services;
  const db = app.database.db;
  const owner = { preHandler: app.requireOwner(can('checkout', 'write')) };
  const ownerRead = { preHandler: app.requireOwner(can('checkout', 'read')) };
  const idOf = (req: { params: unknown }) => (req.params && (req.params as { id?: unknown }).id ? params.parse(req.params).id : null);

  app.get(BASE, ownerRead, async (): Promise<ShippingSetupAnswer> => {
    const site = await websites.get();
    return { ...(await shippingSetup(db, site.id)), currency: site.currency };
  });

  // Each list on its own too (the editor reads the whole set-up above).
  app.get(`${BASE}/zones`, ownerRead, async () => ({ zones: (await shippingSetup(db, (await websites.get()).id)).zones }));
  app.get(`${BASE}/pickups`, ownerRead, async () => ({ pickups: (await shippingSetup(db, (await websites.get()).id)).pickups }));
  app.get(`${BASE}/deliveries`, ownerRead, async () => ({ deliveries: (await shippingSetup(db, (await websites.get()).id)).deliveries }));

  const zone = async (req: { params: unknown; body: unknown }) => {
    const site = await websites.get();
    const id = idOf(req);
    const body = zoneSchema((c) => formatMoney(c, site.currency)).parse(req.body ?? {});
    const saved = await saveZone(db, site.id, id, body, site.locale);
    if (!saved) throw notFound(m.ZONE_NOT_FOUND);
    return { zone: saved };
  };
  app.post(`${BASE}/zones`, owner, zone);
  app.put(`${BASE}/zones/:id`, owner, zone);

  const pickup = async (req: { params: unknown; body: unknown }) => {
    const site = await websites.get();
    const saved = await savePickup(db, site.id, idOf(req), pickupSchema.parse(req.body ?? {}), site.locale);
    if (!saved) throw notFound(m.PICKUP_NOT_FOUND);
    return { pickup: saved };
  };
  app.post(`${BASE}/pickups`, owner, pickup);
  app.put(`${BASE}/pickups/:id`, owner, pickup);

  const delivery = async (req: { params: unknown; body: unknown }) => {
    const site = await websites.get();
    const saved = await saveDelivery(db, site.id, idOf(req), deliverySchema.parse(req.body ?? {}));
    if (!saved) throw notFound(m.DELIVERY_NOT_FOUND);
    return { delivery: saved };
  };
  app.post(`${BASE}/deliveries`, owner, delivery);
  app.put(`${BASE}/deliveries/:id`, owner, delivery);

  // The earlier one-list call: the option joins the zone of its countries (shipping-store.ts addLegacyOption).
  app.post('/api/checkout/admin/shipping-options', owner, async (req) => {
    const site = await websites.get();
    const rate = await addLegacyOption(db, site.id, shippingOptionSchema.parse(req.body ?? {}), site.locale);
    return { shippingOption: rate };
  });

  const NOT_FOUND = { zones: m.ZONE_NOT_FOUND, pickups: m.PICKUP_NOT_FOUND, deliveries: m.DELIVERY_NOT_FOUND } as const;
  for (const what of ['zones', 'pickups', 'deliveries'] as const) {
    app.delete(`${BASE}/${what}/:id`, owner, async (req) => {
      const { id } = params.parse(req.params);
      if (!(await deleteShipping(db, (await websites.get()).id, what, id))) throw notFound(NOT_FOUND[what]);
      return { deleted: id };
    });
  }
}
