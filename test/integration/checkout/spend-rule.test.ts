import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { DB_KINDS } from '../../helpers/db.js';
import { confirmed } from '../../helpers/orders.js';

const ADD = '/api/commerce/shopping-cart/entries';
const PLACE = '/api/checkout/place-order';
const CARD = { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Rae Refund' };
const ADDRESS = { name: 'Rae Refund', line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' };

describe.each(DB_KINDS)('sales and spend on %s', (kind) => {
  let t: TestApp;
  let admin: Visitor;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    admin = new Visitor(t.app);
    expect((await admin.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts orders placed with and without JavaScript and a partial refund alike on the dashboard, analytics, the customers and both CSV exports', async () => {
    expect(
      (await admin.send('POST', '/api/checkout/admin/shipping-options', { name: 'Standard', kind: 'flat', priceCents: 500 })).statusCode,
    ).toBe(200);
    const buyer = new Visitor(t.app);
    expect(
      (await buyer.send('POST', ADD, { itemId: t.seed.productIds['ceramic-pour-over-set'], sku: 'POUR-OVER', quantity: 1 })).statusCode,
    ).toBe(200);
    const placed = await buyer.send(
      'POST',
      PLACE,
      await confirmed(buyer, { email: 'rae@example.com', shippingAddress: ADDRESS, payment: CARD }),
      { headers: { 'idempotency-key': `spend-${kind}-${Date.now()}` } },
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const order = placed.json().purchaseConfirmation;
    const total = Math.round(Number(order.grandTotal.decimalValue) * 100);

    // A second order by the same customer, placed without JavaScript (the plain checkout form).
    const plain = new Visitor(t.app);
    expect(
      (await plain.send('POST', ADD, { itemId: t.seed.productIds['bike-tune-up'], sku: 'SERVICE-TUNEUP', quantity: 1 })).statusCode,
    ).toBe(200);
    const crumb = await plain.crumb();
    const page = await plain.get('/checkout');
    const field = (name: string) => page.body.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1];
    const posted = await plain.send(
      'POST',
      '/api/checkout/form',
      new URLSearchParams({
        crumb,
        idempotencyKey: field('idempotencyKey')!,
        expectedTotalCents: field('expectedTotalCents')!,
        action: 'place',
        email: 'rae@example.com',
        cardNumber: '4242424242424242',
        cardExpiry: '12/40',
        cardCvc: '123',
      }).toString(),
      { crumb: false, headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' } },
    );
    expect(posted.statusCode, posted.body).toBe(303);
    const both = total + Number(field('expectedTotalCents'));

    const today = new Date().toISOString().slice(0, 10);
    const figures = async () => {
      const home = (await admin.get('/api/admin/dashboard')).json().periods[0].current;
      const analytics = (await admin.get(`/api/analytics/dashboard?from=${today}&to=${today}`)).json();
      const listed = (await admin.get('/api/admin/customers?q=rae@')).json().customers[0].spendCents as number;
      const detail = (await admin.get('/api/admin/customers/detail?email=rae@example.com')).json().customer.spendCents as number;
      const csvRow = (parse((await admin.get('/api/admin/customers.csv?q=rae@')).body) as string[][])[1]!;
      const orders = (await admin.get('/api/checkout/admin/orders.csv')).body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\n')
        .slice(1);
      const cents = (x: string) => Math.round(Number(x) * 100);
      // Total less Refunded, the CSV's last money columns (no field in these rows holds a comma).
      const ordersNet = orders.map((r) => r.split(',')).reduce((n, c) => n + cents(c[c.length - 3]!) - cents(c[c.length - 2]!), 0);
      return {
        homeSales: home.salesCents as number,
        homeOrders: home.orders as number,
        analyticsOrders: analytics.totals.orders as number,
        analyticsSales: analytics.revenue.find((r: { dim: string }) => r.dim === 'USD')?.total as number,
        listed,
        detail,
        customersCsv: csvRow[7],
        ordersCsv: { orders: orders.length, net: ordersNet },
      };
    };
    const expected = (net: number) => ({
      homeSales: net,
      homeOrders: 2,
      analyticsOrders: 2,
      analyticsSales: net,
      listed: net,
      detail: net,
      customersCsv: (net / 100).toFixed(2),
      ordersCsv: { orders: 2, net },
    });
    expect(await figures()).toEqual(expected(both));

    const refund = await admin.send('POST', `/api/checkout/admin/orders/${order.id}/refund`, {
      amountCents: 500,
      restock: false,
      notify: false,
    });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(await figures()).toEqual(expected(both - 500));
  });
});
