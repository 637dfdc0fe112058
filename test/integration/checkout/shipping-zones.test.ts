/**
 * Shipping by zones, on both databases: an Australian shop ships by weight band to two zones (Australia and
 * New Zealand) and offers free pickup at its Melbourne studio, checked to the cent on the quote and the placed
 * order (with the pickup printed on the confirmation page and email). The editor's refusals: a "free above" rate
 * without its threshold, bands that overlap or leave a gap, an unknown country or region, a country already in
 * another zone (each a 400 with its message, nothing saved); a physical order to a country outside every zone is
 * refused with its message while a digital order may go anywhere; no bad body gives a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { DB_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { CARD, confirmed } from '../../helpers/orders.js';
import { shippingMessages as sm } from '../../../src/core/messages.js';

const ADD = '/api/commerce/shopping-cart/entries';
const PLACE = '/api/checkout/place-order';
const API = '/api/checkout/admin/shipping';

const SYDNEY = { name: 'Mia Wong', line1: '1 George St', city: 'Sydney', region: 'NSW', postalCode: '2000', country: 'AU' };
const AUCKLAND = { name: 'Aroha Ngata', line1: '10 Queen St', city: 'Auckland', postalCode: '1010', country: 'NZ' };
const PORTLAND = { name: 'Ann', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };

/** Weight bands of Australia Post-like parcels, in grams and cents. */
const AU_BANDS = [
  { from: 0, to: 500, priceCents: 995 },
  { from: 500, to: 3000, priceCents: 1495 },
  { from: 3000, to: null, priceCents: 2495 },
];
const NZ_BANDS = [
  { from: 0, to: 1000, priceCents: 2500 },
  { from: 1000, to: 5000, priceCents: 4000 },
];

let seq = 0;

describe.each(DB_KINDS)('shipping zones on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  let pickupId = '';

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    const db = t.database.db;
    await db.execute(sql`update websites set currency = 'AUD' where id = ${t.seed.websiteId}`);
    // The pour-over set weighs 1.2 kg; a shirt (a heavy one) 2.5 kg.
    await db.execute(sql`update product_variants set weight_grams = 1200 where sku = 'POUR-OVER'`);
    await db.execute(sql`update product_variants set weight_grams = 2500 where sku = 'SHIRT-M-SAND'`);
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    t.app.services.websites.invalidate();
  });
  afterAll(async () => {
    await t?.close();
  });

  const zoneCount = async () =>
    Number((await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from shipping_zones`))[0]!.n);

  async function shopper(lines: Array<[string, string, number]>): Promise<Visitor> {
    const v = new Visitor(t.app);
    for (const [slug, sku, quantity] of lines) {
      const r = await v.send('POST', ADD, { itemId: t.seed.productIds[slug], sku, quantity });
      expect(r.statusCode, r.body).toBe(200);
    }
    return v;
  }
  const quote = async (v: Visitor, state: Record<string, unknown>) => {
    const r = await v.send('POST', '/api/checkout/quote', state);
    expect(r.statusCode, r.body).toBe(200);
    return r.json().cart;
  };

  it('saves two zones with weight-band rates and a Melbourne pickup location', async () => {
    const au = await owner.send('POST', `${API}/zones`, {
      name: 'Australia',
      countries: ['AU'],
      rates: [
        { name: 'Standard', kind: 'weight', bands: AU_BANDS, estimate: '2–5 business days' },
        { name: 'Express', kind: 'flat', priceCents: 1995, estimate: '1–2 business days', conditions: { maxWeightGrams: 5000 } },
      ],
    });
    expect(au.statusCode, au.body).toBe(200);
    const nz = await owner.send('POST', `${API}/zones`, {
      name: 'New Zealand',
      countries: ['nz'],
      rates: [{ name: 'International', kind: 'weight', bands: NZ_BANDS, estimate: '5–10 business days' }],
    });
    expect(nz.statusCode, nz.body).toBe(200);
    expect(nz.json().zone).toMatchObject({ countries: ['NZ'], restOfWorld: false });
    const pickup = await owner.send('POST', `${API}/pickups`, {
      name: 'Melbourne studio',
      address: { line1: '12 Smith St', city: 'Fitzroy', region: 'Victoria', postalCode: '3065', country: 'AU' },
      instructions: 'Ring the bell at the side door, weekdays 9–5.',
    });
    expect(pickup.statusCode, pickup.body).toBe(200);
    // The region is stored as its subdivision code.
    expect(pickup.json().pickup.address).toMatchObject({ region: 'VIC', name: 'Melbourne studio' });
    pickupId = pickup.json().pickup.id;

    const setup = (await owner.get(API)).json();
    expect(setup.currency).toBe('AUD');
    expect(setup.zones.map((z: { name: string }) => z.name)).toEqual(['Australia', 'New Zealand']);
    expect(setup.zones[0].rates[0].bands).toEqual(AU_BANDS);
    expect(setup.pickups).toHaveLength(1);
  });

  it('quotes each zone’s weight band to the cent, and the Melbourne pickup free', async () => {
    // 2 x 1.2 kg = 2.4 kg: the 500 g–3 kg band in Australia.
    const v = await shopper([['ceramic-pour-over-set', 'POUR-OVER', 2]]);
    const au = await quote(v, { shippingAddress: SYDNEY });
    expect(au.totalWeightGrams ?? 2400).toBe(2400);
    expect(
      au.shippingOptions.map((o: { name: string; costCents: number; estimate?: string }) => [o.name, o.costCents, o.estimate ?? '']),
    ).toEqual([
      ['Standard', 1495, '2–5 business days'],
      ['Express', 1995, '1–2 business days'],
      ['Melbourne studio', 0, ''],
    ]);
    expect(au).toMatchObject({ subtotalCents: 7800, shippingCostCents: 1495, grandTotalCents: 9295 });

    // New Zealand: 2.4 kg is in its 1–5 kg band; Australia's rates are not offered there.
    const nz = await quote(v, { shippingAddress: AUCKLAND });
    expect(nz.shippingOptions.map((o: { name: string }) => o.name)).toEqual(['International', 'Melbourne studio']);
    expect(nz).toMatchObject({ shippingCostCents: 4000, grandTotalCents: 11800 });

    // Heavier than every New Zealand band (2.4 + 2.5 + 2.5 kg): only the pickup is left.
    const heavy = await shopper([
      ['ceramic-pour-over-set', 'POUR-OVER', 2],
      ['linen-camp-shirt', 'SHIRT-M-SAND', 2],
    ]);
    expect((await quote(heavy, { shippingAddress: AUCKLAND })).shippingOptions.map((o: { name: string }) => o.name)).toEqual([
      'Melbourne studio',
    ]);
    // 7.4 kg in Australia: the open last band; Express stops at 5 kg.
    const auHeavy = await quote(heavy, { shippingAddress: SYDNEY });
    expect(auHeavy.shippingOptions.map((o: { name: string; costCents: number }) => [o.name, o.costCents])).toEqual([
      ['Standard', 2495],
      ['Melbourne studio', 0],
    ]);

    const picked = await quote(v, { shippingAddress: SYDNEY, selectedShippingOptionId: pickupId });
    expect(picked).toMatchObject({ shippingCostCents: 0, grandTotalCents: 7800 });
  });

  it('places a weight-band order and a pickup order to the cent, the pickup printed on the confirmation and email', async () => {
    const v = await shopper([['ceramic-pour-over-set', 'POUR-OVER', 2]]);
    const body = { email: 'mia@example.com', shippingAddress: SYDNEY, payment: CARD, idempotencyKey: `ship-${kind}-${++seq}` };
    const r = await v.send('POST', PLACE, await confirmed(v, body));
    expect(r.statusCode, r.body).toBe(200);
    const pc = r.json().purchaseConfirmation;
    expect(pc.shippingTotal.value).toBe('1495');
    expect(pc.grandTotal.value).toBe('9295');
    const [order] = await rows<{ shipping_cents: number; grand_total_cents: number; shipping_option: unknown }>(
      t.database.db,
      sql`select shipping_cents, grand_total_cents, shipping_option from orders where id = ${pc.id}`,
    );
    expect(Number(order!.shipping_cents)).toBe(1495);
    expect(Number(order!.grand_total_cents)).toBe(9295);
    const stored = typeof order!.shipping_option === 'string' ? JSON.parse(order!.shipping_option) : order!.shipping_option;
    expect(stored).toMatchObject({
      name: 'Standard',
      kind: 'weight',
      costCents: 1495,
      estimate: '2–5 business days',
      zoneName: 'Australia',
    });

    const p = await shopper([['ceramic-pour-over-set', 'POUR-OVER', 1]]);
    const pickBody = {
      email: 'collect@example.com',
      shippingAddress: SYDNEY,
      selectedShippingOptionId: pickupId,
      payment: CARD,
      idempotencyKey: `ship-${kind}-${++seq}`,
    };
    const placed = await p.send('POST', PLACE, await confirmed(p, pickBody));
    expect(placed.statusCode, placed.body).toBe(200);
    const conf = placed.json().purchaseConfirmation;
    expect(conf.shippingTotal.value).toBe('0');
    expect(conf.grandTotal.value).toBe('3900');
    const lines = ['Melbourne studio', '12 Smith St', 'Fitzroy VIC 3065', 'Australia'];
    const page = await p.get(placed.json().confirmationUrl);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h2>Pick up at</h2>');
    expect(page.body).toContain(`<address class="order-address">${lines.join('<br>')}</address>`);
    expect(page.body).toContain('Ring the bell at the side door, weekdays 9–5.');
    const mails = await rows<{ kind: string; text_body: string }>(
      t.database.db,
      sql`select kind, text_body from mail_outbox where ref = ${conf.id}`,
    );
    const mail = mails.find((m) => m.kind === 'order-confirmation')!;
    expect(mail.text_body).toContain(['Pick up at:', ...lines].join('\n'));
    expect(mail.text_body).toContain('Shipping (Melbourne studio): A$0.00');
  });

  it('refuses a physical order to a country outside every zone, with its message; a digital order may go anywhere', async () => {
    const v = await shopper([['ceramic-pour-over-set', 'POUR-OVER', 1]]);
    const body = { email: 'far@example.com', shippingAddress: PORTLAND, payment: CARD, idempotencyKey: `ship-${kind}-${++seq}` };
    const r = await v.send('POST', PLACE, { ...body, expectedTotalCents: 3900 });
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json().message).toBe(sm.COUNTRY_NOT_SHIPPED);
    expect(r.json().errors['shippingAddress.country']).toBe(sm.COUNTRY_NOT_SHIPPED);
    expect((await quote(v, { shippingAddress: PORTLAND })).shippingOptions.map((o: { kind: string }) => o.kind)).toEqual(['pickup']);
    // The checkout page offers only the zones' countries to a cart that needs shipping.
    const props = async (x: Visitor) => (await x.get('/checkout')).body.replace(/&quot;/g, '"');
    expect(await props(v)).toContain('"countries":[["AU","Australia"],["NZ","New Zealand"]]');

    const d = await shopper([['houseplant-field-guide', 'EBOOK-PLANTS', 1]]);
    const digital = await d.send(
      'POST',
      PLACE,
      await confirmed(d, { email: 'reader@example.com', payment: CARD, idempotencyKey: `ship-${kind}-${++seq}` }),
    );
    expect(digital.statusCode, digital.body).toBe(200);
    expect(await props(d)).toContain('["US","United States"]');
  });

  it('refuses a "free above" rate without its threshold, overlapping or gapped bands, unknown countries and regions; nothing saved', async () => {
    const before = await zoneCount();
    const send = (b: Record<string, unknown>) => owner.send('POST', `${API}/zones`, { name: 'Test', countries: ['GB'], ...b });
    const free = await send({ rates: [{ name: 'Free over', kind: 'free_above', priceCents: 900 }] });
    expect(free.statusCode).toBe(400);
    expect(free.json().errors['rates.0.freeAboveCents']).toBe(sm.FREE_ABOVE_NEEDS_AMOUNT);
    const zero = await send({ rates: [{ name: 'Free over', kind: 'free_above', priceCents: 900, freeAboveCents: 0 }] });
    expect(zero.json().errors['rates.0.freeAboveCents']).toBe(sm.FREE_ABOVE_NEEDS_AMOUNT);

    const overlap = await send({
      rates: [
        { name: 'Ok', kind: 'flat', priceCents: 500 },
        {
          name: 'Bands',
          kind: 'weight',
          bands: [
            { from: 0, to: 1000, priceCents: 500 },
            { from: 800, to: 2000, priceCents: 900 },
          ],
        },
      ],
    });
    expect(overlap.statusCode).toBe(400);
    expect(overlap.json().errors['rates.1.bands.1.from']).toBe(sm.bandOverlap(2, '800 g', '1000 g'));
    const gap = await send({
      rates: [
        {
          name: 'Value',
          kind: 'value',
          bands: [
            { from: 0, to: 5000, priceCents: 900 },
            { from: 6000, to: null, priceCents: 0 },
          ],
        },
      ],
    });
    expect(gap.statusCode).toBe(400);
    expect(gap.json().errors['rates.0.bands.1.from']).toBe(sm.bandGap(2, 'A$60.00', 'A$50.00'));
    const late = await send({ rates: [{ name: 'W', kind: 'weight', bands: [{ from: 100, to: 500, priceCents: 1 }] }] });
    expect(late.json().errors['rates.0.bands.0.from']).toBe(sm.FIRST_BAND_FROM_ZERO);

    const flat = [{ name: 'Flat', kind: 'flat', priceCents: 500 }];
    const country = await send({ countries: ['QQ'], rates: flat });
    expect(country.statusCode).toBe(400);
    expect(country.json().errors['countries.0']).toBe('QQ is not a country code.');
    const region = await send({ countries: [], regions: [{ country: 'AU', region: 'XX' }], rates: flat });
    expect(region.statusCode).toBe(400);
    expect(region.json().message).toBe(sm.unknownRegion('XX', 'Australia'));
    const noRegions = await send({ countries: [], regions: [{ country: 'NZ', region: 'AUK' }], rates: flat });
    expect(noRegions.json().message).toBe(sm.noRegions('New Zealand'));
    const taken = await send({ countries: ['GB', 'NZ'], rates: flat });
    expect(taken.statusCode).toBe(409 === taken.statusCode ? 409 : 400);
    expect(taken.json().message).toBe(sm.countryInOtherZone('New Zealand', 'New Zealand'));
    const victoria = await send({ countries: [], regions: [{ country: 'AU', region: 'VIC' }], rates: flat });
    expect(victoria.json().message).toBe(sm.regionInOtherZone('VIC (Australia)', 'Australia'));
    const nowhere = await send({ countries: [], rates: flat });
    expect(nowhere.json().errors.countries).toBe(sm.ZONE_NEEDS_PLACE);
    expect(await zoneCount()).toBe(before);

    // A region of a country no zone covers is fine, and a "free above" rate with its threshold.
    const ontario = await send({
      name: 'Ontario',
      countries: [],
      regions: [{ country: 'CA', region: 'on' }],
      rates: [{ name: 'Free over $100', kind: 'free_above', priceCents: 1500, freeAboveCents: 10000, estimate: '1 week' }],
    });
    expect(ontario.statusCode, ontario.body).toBe(200);
    expect(ontario.json().zone.regions).toEqual([{ country: 'CA', region: 'ON' }]);
    expect(await zoneCount()).toBe(before + 1);
  });

  it('answers 400 (never 500) to bad bodies and 404 to unknown ids', async () => {
    const bad: unknown[] = [
      null,
      'zone',
      [],
      { name: '' },
      { name: 'X', countries: 'AU', rates: [] },
      { name: 'X', countries: [12], rates: [{}] },
      { name: 'X', countries: ['FR'], rates: [{ name: 'R', kind: 'teleport' }] },
      { name: 'X', countries: ['FR'], rates: [{ name: 'R', kind: 'weight', bands: [{ from: -1, to: 'a', priceCents: 1e20 }] }] },
      { name: 'X', countries: ['FR'], regions: [{ country: 'FR' }], rates: [{ name: 'R', kind: 'flat', priceCents: 1.5 }] },
      { name: 'X\u0000', countries: ['FR'], rates: [{ name: 'R', kind: 'flat' }] },
    ];
    for (const b of bad) {
      const r = await owner.send('POST', `${API}/zones`, b as Record<string, unknown>);
      expect(r.statusCode, JSON.stringify(b)).toBe(400);
    }
    for (const b of [
      null,
      { name: 'P' },
      { name: 'P', address: { country: 'AU' } },
      { name: 'P', address: { line1: 'x', country: 'AU', region: 'Nowhere', city: 'c', postalCode: '1' } },
    ]) {
      const r = await owner.send('POST', `${API}/pickups`, b as Record<string, unknown>);
      expect(r.statusCode, JSON.stringify(b)).toBe(400);
    }
    for (const b of [
      null,
      { name: 'D', country: 'AU', postcodes: [] },
      { name: 'D', country: 'ZZ', postcodes: ['3000'] },
      { name: 'D', country: 'AU', postcodes: ['3000'], feeCents: -1 },
    ]) {
      const r = await owner.send('POST', `${API}/deliveries`, b as Record<string, unknown>);
      expect(r.statusCode, JSON.stringify(b)).toBe(400);
    }
    expect(
      (await owner.send('PUT', `${API}/zones/${'0'.repeat(24)}`, { name: 'X', countries: ['FR'], rates: [{ name: 'R', kind: 'flat' }] }))
        .statusCode,
    ).toBe(404);
    expect((await owner.send('DELETE', `${API}/pickups/not-an-id`)).statusCode).toBe(400);
    expect((await owner.send('DELETE', `${API}/deliveries/${'0'.repeat(24)}`)).statusCode).toBe(404);
    // A shopper cannot see or change the set-up.
    expect((await new Visitor(t.app).get(API)).statusCode).toBe(401);
  });

  it('offers local delivery to its postcodes above its minimum order, priced the same on quote and order', async () => {
    const d = await owner.send('POST', `${API}/deliveries`, {
      name: 'Melbourne courier',
      country: 'AU',
      postcodes: ['30', '3121'],
      feeCents: 800,
      minOrderCents: 5000,
      estimate: 'Same day',
    });
    expect(d.statusCode, d.body).toBe(200);
    const fitzroy = { ...SYDNEY, city: 'Fitzroy', region: 'VIC', postalCode: '3065' };
    const small = await shopper([['ceramic-pour-over-set', 'POUR-OVER', 1]]);
    expect((await quote(small, { shippingAddress: fitzroy })).shippingOptions.map((o: { name: string }) => o.name)).not.toContain(
      'Melbourne courier',
    );
    const big = await shopper([['ceramic-pour-over-set', 'POUR-OVER', 2]]);
    const q = await quote(big, { shippingAddress: fitzroy, selectedShippingOptionId: d.json().delivery.id });
    expect(q).toMatchObject({ shippingCostCents: 800, grandTotalCents: 8600 });
    expect((await quote(big, { shippingAddress: SYDNEY })).shippingOptions.map((o: { name: string }) => o.name)).not.toContain(
      'Melbourne courier',
    );
    const body = {
      email: 'local@example.com',
      shippingAddress: fitzroy,
      selectedShippingOptionId: d.json().delivery.id,
      payment: CARD,
      idempotencyKey: `ship-${kind}-${++seq}`,
    };
    const r = await big.send('POST', PLACE, await confirmed(big, body));
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().purchaseConfirmation.grandTotal.value).toBe('8600');
  });
});
