/**
 * Taxes end to end: a UK shop with VAT-inclusive prices (classes, an e-book taxed by its French billing
 * address) and a US shop whose tax is added by state; bad rules refused with their message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { DB_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { CARD, confirmed } from '../../helpers/orders.js';
import { taxMessages } from '../../../src/core/messages.js';

const ADD = '/api/commerce/shopping-cart/entries';
const PLACE = '/api/checkout/place-order';
const RULES = '/api/checkout/admin/tax-rules';
const LONDON = { name: 'Ada Lovelace', line1: '10 Downing St', city: 'London', postalCode: 'SW1A 2AA', country: 'GB' };
const NEW_YORK = { name: 'Ann Buyer', line1: '1 Broadway', city: 'New York', region: 'NY', postalCode: '10004', country: 'US' };
const PORTLAND = { name: 'Ann Buyer', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };

let seq = 0;

describe.each(DB_KINDS)('taxes on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  const ids = () => t.seed.productIds;

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    const ship = await owner.send('POST', '/api/checkout/admin/shipping-options', { name: 'Free post', kind: 'flat', priceCents: 0 });
    expect(ship.statusCode, ship.body).toBe(200);
    const db = t.database.db;
    await db.execute(sql`update product_variants set price_cents = 2400, on_sale = false where sku in ('SHIRT-M-SAND', 'EBOOK-PLANTS')`);
    await db.execute(sql`update product_variants set price_cents = 10000, unlimited = true where sku = 'SERVICE-TUNEUP'`);
    await db.execute(
      sql`update items set structured_content = structured_content || '{"taxClass":"reduced"}'::jsonb where id = ${ids()['houseplant-field-guide']}`,
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  async function shop(currency: string, inclusive: boolean, rules: Array<Record<string, unknown>>) {
    await t.database.db.execute(sql`update websites set currency = ${currency}`);
    await t.database.db.execute(sql`delete from tax_rules`);
    t.app.services.websites.invalidate();
    const s = await owner.send('PUT', '/api/checkout/admin/tax-settings', { pricesIncludeTax: inclusive });
    expect(s.statusCode, s.body).toBe(200);
    for (const r of rules) {
      const res = await owner.send('POST', RULES, r);
      expect(res.statusCode, res.body).toBe(200);
    }
  }
  async function shopper(item: string, sku: string): Promise<Visitor> {
    const v = new Visitor(t.app);
    const r = await v.send('POST', ADD, { itemId: ids()[item], sku, quantity: 1 });
    expect(r.statusCode, r.body).toBe(200);
    return v;
  }
  const place = async (v: Visitor, email: string, state: Record<string, unknown>) =>
    v.send('POST', PLACE, await confirmed(v, { email, ...state, payment: CARD, idempotencyKey: `tax-${kind}-${++seq}` }));
  const mailTo = async (email: string, kindOf: string) =>
    (
      await rows<{ text_body: string }>(
        t.database.db,
        sql`select text_body from mail_outbox where to_address = ${email} and kind = ${kindOf} order by id desc limit 1`,
      )
    )[0]?.text_body ?? '';

  it('a UK shop with VAT-inclusive prices: £24.00 incl. £4.00 VAT on cart, quote, order, email, confirmation and refund', async () => {
    await shop('GBP', true, [
      { name: 'UK VAT', country: 'GB', rateBasisPoints: 2000, appliesToShipping: true },
      { name: 'UK reduced', country: 'GB', rateBasisPoints: 500, taxClass: 'reduced' },
      { name: 'France e-books', country: 'FR', rateBasisPoints: 550, taxClass: 'reduced' },
    ]);
    const v = await shopper('linen-camp-shirt', 'SHIRT-M-SAND');
    const q = await v.send('POST', '/api/checkout/quote', { email: 'uk@example.com', shippingAddress: LONDON });
    expect(q.statusCode, q.body).toBe(200);
    expect(q.json().cart).toMatchObject({ subtotalCents: 2400, taxCents: 400, taxIncluded: true, taxLabel: 'VAT', grandTotalCents: 2400 });
    expect(q.json().pricing.pricesIncludeTax).toBe(true);
    const cartPage = await v.get('/cart');
    expect(cartPage.body).toContain('incl. £4.00 VAT');

    const placed = await place(v, 'uk@example.com', { shippingAddress: LONDON });
    expect(placed.statusCode, placed.body).toBe(200);
    const [o] = await rows<{ id: string; tax_cents: number; grand_total_cents: number; tax_included: boolean; billing_address: unknown }>(
      t.database.db,
      sql`select id, tax_cents, grand_total_cents, tax_included, billing_address from orders where email = 'uk@example.com'`,
    );
    expect([Number(o!.tax_cents), Number(o!.grand_total_cents), o!.tax_included]).toEqual([400, 2400, true]);
    const mail = await mailTo('uk@example.com', 'order-confirmation');
    expect(mail).toContain('Total: £24.00');
    expect(mail).toContain('incl. £4.00 VAT');
    expect(mail).not.toContain('VAT: £4.00');
    const page = await v.get(String(placed.json().confirmationUrl));
    expect(page.body).toContain('incl. £4.00 VAT');

    const refund = await owner.send('POST', `/api/checkout/admin/orders/${o!.id}/refund`, {});
    expect(refund.statusCode, refund.body).toBe(200);
    const detail = (await owner.get(`/api/checkout/admin/orders/${o!.id}`)).json();
    expect(detail.order.refundedCents).toBe(2400);
    expect(detail.order.totals).toMatchObject({ taxCents: 400, taxIncluded: true, taxLabel: 'VAT', refundedTaxCents: 400 });
    expect(await mailTo('uk@example.com', 'order-refund')).toContain('This includes £4.00 VAT.');
  });

  it('an e-book bought with a French billing address carries French VAT at 5.5 % (the £24.00 price stays, its tax part is £1.25)', async () => {
    const v = await shopper('houseplant-field-guide', 'EBOOK-PLANTS');
    // A digital-only order needs the billing country: refused on its field without it, nothing placed.
    const none = await place(v, 'fr@example.com', {});
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toEqual({ 'billingAddress.country': taxMessages.BILLING_COUNTRY_REQUIRED });
    const billingAddress = { country: 'FR' };
    const q = await v.send('POST', '/api/checkout/quote', { email: 'fr@example.com', billingAddress });
    expect(q.json().cart).toMatchObject({ taxCents: 125, taxIncluded: true, grandTotalCents: 2400, requiresShipping: false });
    const placed = await place(v, 'fr@example.com', { billingAddress });
    expect(placed.statusCode, placed.body).toBe(200);
    const [o] = await rows<{ tax_cents: number; grand_total_cents: number; billing_address: unknown }>(
      t.database.db,
      sql`select tax_cents, grand_total_cents, billing_address from orders where email = 'fr@example.com'`,
    );
    expect([Number(o!.tax_cents), Number(o!.grand_total_cents)]).toEqual([125, 2400]);
    const billing = typeof o!.billing_address === 'string' ? JSON.parse(o!.billing_address) : o!.billing_address;
    expect(billing.country).toBe('FR');
    expect(await mailTo('fr@example.com', 'order-confirmation')).toContain('incl. £1.25 VAT');
    // The same e-book to a UK buyer: the UK's reduced rate, 5 % of a £24.00 inclusive price.
    const uk = await shopper('houseplant-field-guide', 'EBOOK-PLANTS');
    const ukq = await uk.send('POST', '/api/checkout/quote', { email: 'gb-ebook@example.com', billingAddress: { country: 'GB' } });
    expect(ukq.json().cart).toMatchObject({ taxCents: 114, grandTotalCents: 2400 });
  });

  it('a US shop adds tax by state: New York 8.88 %, Oregon none; a service follows its class', async () => {
    await shop('USD', false, [
      { name: 'New York', country: 'US', region: 'NY', rateBasisPoints: 888 },
      { name: 'Oregon', country: 'US', region: 'Oregon', rateBasisPoints: 0 },
    ]);
    const rules = (await owner.get(RULES)).json().taxRules;
    expect(rules.map((r: { region: string }) => r.region).sort()).toEqual(['NY', 'OR']);
    const ny = await shopper('linen-camp-shirt', 'SHIRT-M-SAND');
    const nyq = (await ny.send('POST', '/api/checkout/quote', { email: 'ny@example.com', shippingAddress: NEW_YORK })).json().cart;
    expect(nyq).toMatchObject({ subtotalCents: 2400, taxCents: 213, taxIncluded: false, taxLabel: 'Tax', grandTotalCents: 2613 });
    const placed = await place(ny, 'ny@example.com', { shippingAddress: NEW_YORK });
    expect(placed.statusCode, placed.body).toBe(200);
    expect(await mailTo('ny@example.com', 'order-confirmation')).toContain('Tax: $2.13');
    const or = await shopper('linen-camp-shirt', 'SHIRT-M-SAND');
    const orq = (await or.send('POST', '/api/checkout/quote', { email: 'or@example.com', shippingAddress: PORTLAND })).json().cart;
    expect(orq).toMatchObject({ taxCents: 0, grandTotalCents: 2400 });

    // A service is taxed by its class: standard in New York, untaxed once the owner marks it exempt.
    const svc = await shopper('bike-tune-up', 'SERVICE-TUNEUP');
    const standard = (await svc.send('POST', '/api/checkout/quote', { billingAddress: NEW_YORK })).json().cart;
    expect(standard).toMatchObject({ taxCents: 888, grandTotalCents: 10888 });
    await t.database.db.execute(
      sql`update items set structured_content = structured_content || '{"taxClass":"exempt"}'::jsonb where id = ${ids()['bike-tune-up']}`,
    );
    const exempt = (await svc.send('POST', '/api/checkout/quote', { billingAddress: NEW_YORK })).json().cart;
    expect(exempt).toMatchObject({ taxCents: 0, grandTotalCents: 10000 });
  });

  it('refuses a rate over 100 %, an unknown country and an unknown region with their message; nothing is saved', async () => {
    const before = (await owner.get(RULES)).json().taxRules.length;
    const high = await owner.send('POST', RULES, { name: 'Too much', country: 'GB', rateBasisPoints: 15000 });
    expect(high.statusCode).toBe(400);
    expect(high.json().errors.rateBasisPoints).toBe(taxMessages.RATE_TOO_HIGH);
    const country = await owner.send('POST', RULES, { name: 'Nowhere', country: 'QQ', rateBasisPoints: 500 });
    expect(country.statusCode).toBe(400);
    expect(country.json().errors.country).toBeTruthy();
    const region = await owner.send('POST', RULES, { name: 'Nowhere', country: 'US', region: 'ZZ', rateBasisPoints: 500 });
    expect(region.statusCode).toBe(400);
    expect(region.json().errors.region).toBe(taxMessages.regionUnknown('ZZ', 'US'));
    const cls = await owner.send('POST', RULES, { name: 'Zero', country: 'GB', rateBasisPoints: 0, taxClass: 'zero' });
    expect(cls.statusCode).toBe(400);
    expect((await owner.get(RULES)).json().taxRules.length).toBe(before);
  });
});
