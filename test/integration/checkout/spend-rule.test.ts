import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it("counts a partially refunded order net of its refund, the same on the dashboard, the customers list, the customer's page and the CSV", async () => {
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

    const figures = async () => {
      const sales = (await admin.get('/api/admin/dashboard')).json().periods[0].current.salesCents as number;
      const listed = (await admin.get('/api/admin/customers?q=rae@')).json().customers[0].spendCents as number;
      const detail = (await admin.get('/api/admin/customers/detail?email=rae@example.com')).json().customer.spendCents as number;
      const csvRow = (await admin.get('/api/admin/customers.csv?q=rae@')).body.split('\n')[1]!;
      return { sales, listed, detail, csv: csvRow.split(',')[2] };
    };
    expect(await figures()).toEqual({ sales: total, listed: total, detail: total, csv: (total / 100).toFixed(2) });

    const refund = await admin.send('POST', `/api/checkout/admin/orders/${order.id}/refund`, {
      amountCents: 500,
      restock: false,
      notify: false,
    });
    expect(refund.statusCode, refund.body).toBe(200);
    const net = total - 500;
    expect(await figures()).toEqual({ sales: net, listed: net, detail: net, csv: (net / 100).toFixed(2) });
  });
});
