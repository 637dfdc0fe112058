import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { placeOrder } from '../../helpers/orders.js';
import { rows } from '../../../src/server/db-util.js';
import { CSV_COLUMNS } from '../../../src/server/checkout/order-admin-routes.js';
import { csvSafeText as csvCell } from '../../../src/core/csv.js';
import { trackingUrl } from '../../../src/server/checkout/order-admin.js';

const API = '/api/checkout/admin/orders';

/** Issue 24: the order desk's calls on both databases. */
describe.each(APP_KINDS)('the order desk on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  let ids: Record<string, string>;

  const stockOf = async (sku: string) =>
    Number((await rows<{ q: number }>(t.database.db, sql`select qty_in_stock as q from product_variants where sku = ${sku}`))[0]!.q);
  const mailsFor = (ref: string) =>
    rows<{ kind: string; to_address: string; subject: string; text_body: string }>(
      t.database.db,
      sql`select kind, to_address, subject, text_body from mail_outbox where ref = ${ref} order by id`,
    );
  const twoLineOrder = (email = 'ada@example.com', name = 'Ada Buyer') =>
    placeOrder(
      t.app,
      [
        { itemId: ids['ceramic-pour-over-set']!, sku: 'POUR-OVER', quantity: 2 },
        { itemId: ids['linen-camp-shirt']!, sku: 'SHIRT-S-NAVY', quantity: 1 },
      ],
      { email, address: { name, line1: '1 Main St', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US' } },
    );

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    ids = t.seed.productIds;
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    expect(
      (await owner.send('POST', '/api/checkout/admin/shipping-options', { name: 'Standard', kind: 'flat', priceCents: 500 })).statusCode,
    ).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('fulfils one line with a carrier and tracking number (shipping email with the tracking link), then the rest; never more than ordered', async () => {
    const o = await twoLineOrder('fulfil@example.com', 'Fay Fulfil');
    const d0 = (await owner.get(`${API}/${o.id}`)).json();
    expect(d0.lines.map((l: { sku: string; quantity: number; fulfilled: number }) => [l.sku, l.quantity, l.fulfilled])).toEqual([
      ['POUR-OVER', 2, 0],
      ['SHIRT-S-NAVY', 1, 0],
    ]);
    expect(d0.order.fulfilmentStatus).toBe('unfulfilled');

    const tooMany = await owner.send('POST', `${API}/${o.id}/fulfil`, {
      lines: [{ line: 0, quantity: 3 }],
      carrier: 'ups',
      trackingNumber: '1Z999',
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe('You cannot fulfil more than the quantity left to fulfil on a line.');
    expect(tooMany.json().errors).toEqual({ 'lines.0.quantity': 'You cannot fulfil more than the quantity left to fulfil on a line.' });

    const first = await owner.send('POST', `${API}/${o.id}/fulfil`, {
      lines: [{ line: 0, quantity: 2 }],
      carrier: 'ups',
      trackingNumber: '1Z 999 AA1',
    });
    expect(first.statusCode, first.body).toBe(200);
    const d1 = first.json();
    expect(d1.order.fulfilmentStatus).toBe('partial');
    expect(d1.order.status).toBe('paid');
    expect(d1.fulfilments).toHaveLength(1);
    expect(d1.fulfilments[0]).toMatchObject({
      carrier: 'UPS',
      trackingNumber: '1Z 999 AA1',
      trackingUrl: 'https://www.ups.com/track?tracknum=1Z%20999%20AA1',
      lines: [{ line: 0, quantity: 2 }],
    });
    const shipped = (await mailsFor(o.id)).filter((m) => m.kind === 'order-shipped');
    expect(shipped).toHaveLength(1);
    expect(shipped[0]!.to_address).toBe('fulfil@example.com');
    expect(shipped[0]!.subject).toMatch(/^Your order #\d+ from .+ has shipped$/);
    expect(shipped[0]!.text_body).toContain('2 x Ceramic Pour-Over Set (POUR-OVER)');
    expect(shipped[0]!.text_body).toContain('Tracking number: 1Z 999 AA1');
    expect(shipped[0]!.text_body).toContain('Track your parcel: https://www.ups.com/track?tracknum=1Z%20999%20AA1');
    expect(
      d1.timeline.some((e: { kind: string; text: string }) => e.kind === 'fulfilled' && e.text === 'Fulfilled 2 × Ceramic Pour-Over Set'),
    ).toBe(true);
    expect(d1.timeline.some((e: { kind: string; text: string }) => e.kind === 'email' && e.text.includes('has shipped'))).toBe(true);

    // The line is done: one more is more than ordered.
    const again = await owner.send('POST', `${API}/${o.id}/fulfil`, { lines: [{ line: 0, quantity: 1 }] });
    expect(again.statusCode).toBe(400);
    // An unknown carrier keeps the number without a link.
    const rest = await owner.send('POST', `${API}/${o.id}/fulfil`, { carrier: 'Bike courier', trackingNumber: 'BC-42' });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json().order).toMatchObject({ fulfilmentStatus: 'fulfilled', status: 'fulfilled' });
    expect(rest.json().lines.map((l: { fulfilled: number }) => l.fulfilled)).toEqual([2, 1]);
    const last = (await mailsFor(o.id)).filter((m) => m.kind === 'order-shipped')[1]!;
    expect(last.text_body).toContain('Tracking number: BC-42');
    expect(last.text_body).not.toContain('Track your parcel');
    const done = await owner.send('POST', `${API}/${o.id}/fulfil`, {});
    expect(done.statusCode).toBe(409);
    expect(done.json().message).toBe('This order is already fulfilled.');
  });

  it('refunds one line of a two-line order with restock: provider refund, refund row, stock back, partially refunded, email, analytics and home revenue reduced', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const beforePour = await stockOf('POUR-OVER');
    const beforeShirt = await stockOf('SHIRT-S-NAVY');
    const o = await twoLineOrder('refund@example.com', 'Rae Refund');
    const total = Number(o.grandTotal.value);
    await t.app.analytics.record('order_placed', { cart_value: total, currency_code: 'USD', order_id: o.id });
    await t.app.analytics.ingest.drain();
    const revenue = async () =>
      (await owner.get(`/api/analytics/dashboard?from=${today}&to=${today}`)).json().revenue.find((r: { dim: string }) => r.dim === 'USD')
        ?.total;
    const homeSales = async () => (await owner.get('/api/admin/dashboard')).json().periods[0].current.salesCents;
    const revenueBefore = await revenue();
    const salesBefore = await homeSales();
    expect(await stockOf('POUR-OVER')).toBe(beforePour - 2);

    const r = await owner.send('POST', `${API}/${o.id}/refund`, { lines: [{ line: 1, quantity: 1 }], restock: true, reason: 'Too small' });
    expect(r.statusCode, r.body).toBe(200);
    const d = r.json();
    expect(d.order.status).toBe('partially_refunded');
    expect(d.paymentStatus).toBe('partially_refunded');
    expect(d.order.refundedCents).toBe(7200);
    expect(d.refundableCents).toBe(total - 7200);
    expect(d.refunds).toEqual([
      expect.objectContaining({ state: 'done', amountCents: 7200, restock: true, reason: 'Too small', lines: [{ line: 1, quantity: 1 }] }),
    ]);
    expect(d.lines.map((l: { refunded: number }) => l.refunded)).toEqual([0, 1]);
    expect(await stockOf('SHIRT-S-NAVY')).toBe(beforeShirt);
    expect(await stockOf('POUR-OVER')).toBe(beforePour - 2);
    // Through the provider: the test provider's payment shows the partial refund.
    const tp = await rows<{ refunded_cents: number | string }>(
      t.database.db,
      sql`select refunded_cents from test_payments where id = ${d.order.payment.paymentId}`,
    );
    expect(Number(tp[0]!.refunded_cents)).toBe(7200);
    const refundMail = (await mailsFor(o.id)).filter((m) => m.kind === 'order-refund');
    expect(refundMail).toHaveLength(1);
    expect(refundMail[0]!.text_body).toContain('We have refunded $72.00 on your order');
    expect(refundMail[0]!.text_body).toContain('1 x Linen Camp Shirt (SHIRT-S-NAVY)');
    expect(
      d.timeline.some(
        (e: { kind: string; text: string; detail?: string }) =>
          e.kind === 'refund' && e.text === 'Refunded $72.00 for 1 × Linen Camp Shirt' && e.detail === 'Items restocked. Reason: Too small',
      ),
    ).toBe(true);

    // Analytics revenue is net of refunds by the refund's day; the owner home's sales by the order's.
    expect(await revenue()).toBe(revenueBefore - 7200);
    expect(await homeSales()).toBe(salesBefore - 7200);

    // The same line cannot be refunded twice; more money than is left is refused; the rest in full.
    const twice = await owner.send('POST', `${API}/${o.id}/refund`, { lines: [{ line: 1, quantity: 1 }] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toBe('You cannot refund more than the quantity left to refund on a line.');
    const tooMuch = await owner.send('POST', `${API}/${o.id}/refund`, { amountCents: total - 7200 + 1 });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toBe(
      `The refund is more than the amount left to refund on this order. At most $${((total - 7200) / 100).toFixed(2)} can be refunded.`,
    );
    const rest = await owner.send('POST', `${API}/${o.id}/refund`, {});
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json().order).toMatchObject({ status: 'refunded', refundedCents: total });
    expect(await stockOf('POUR-OVER')).toBe(beforePour);
    const over = await owner.send('POST', `${API}/${o.id}/refund`, { amountCents: 1 });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe('This order is already refunded.');
    expect(await revenue()).toBe(revenueBefore - total);
  });

  it('refunds an amount without restocking: the stock stays, the order is partially refunded', async () => {
    const o = await twoLineOrder('amount@example.com', 'Amy Amount');
    const stock = await stockOf('POUR-OVER');
    const r = await owner.send('POST', `${API}/${o.id}/refund`, {
      amountCents: 550,
      restock: false,
      lines: [{ line: 0, quantity: 1 }],
      notify: false,
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().order).toMatchObject({ status: 'partially_refunded', refundedCents: 550 });
    expect(await stockOf('POUR-OVER')).toBe(stock);
    expect((await mailsFor(o.id)).filter((m) => m.kind === 'order-refund')).toHaveLength(0);
  });

  it('bad input gets a clear 4xx and changes nothing', async () => {
    const o = await twoLineOrder('bad@example.com', 'Bo Bad');
    const before = (await owner.get(`${API}/${o.id}`)).json();
    const cases: Array<[string, unknown, number, string]> = [
      ['refund', { amountCents: -100 }, 400, 'The refund amount cannot be negative.'],
      ['refund', { amountCents: 1.5 }, 400, 'Must be a whole number of cents.'],
      ['refund', { amountCents: Number(o.grandTotal.value) + 1 }, 400, 'The refund is more than the amount left to refund on this order.'],
      ['refund', { lines: [{ line: 0, quantity: -1 }] }, 400, 'Quantities cannot be negative.'],
      ['refund', { lines: [{ line: 0, quantity: 3 }] }, 400, 'You cannot refund more than the quantity left to refund on a line.'],
      ['refund', { lines: [{ line: 7, quantity: 1 }] }, 400, 'That line is not part of this order.'],
      ['refund', { lines: [{ line: 0, quantity: 0 }] }, 400, 'Choose the lines to refund or enter an amount.'],
      ['refund', { amountCents: 0 }, 400, 'Choose the lines to refund or enter an amount.'],
      [
        'refund',
        {
          lines: [
            { line: 0, quantity: 1 },
            { line: 0, quantity: 1 },
          ],
        },
        400,
        'Each line can appear only once.',
      ],
      ['refund', { reason: 'x'.repeat(501), amountCents: 1 }, 400, 'The reason is at most 500 characters.'],
      ['fulfil', { lines: [{ line: 1, quantity: 2 }] }, 400, 'You cannot fulfil more than the quantity left to fulfil on a line.'],
      ['fulfil', { lines: [{ line: 0, quantity: -2 }] }, 400, 'Quantities cannot be negative.'],
      ['fulfil', { lines: [{ line: 9, quantity: 1 }] }, 400, 'That line is not part of this order.'],
      ['fulfil', { trackingNumber: '<script>' }, 400, 'Tracking numbers use letters, digits, spaces and . / _ -.'],
      ['fulfil', { carrier: 'x'.repeat(61) }, 400, 'The carrier is at most 60 characters.'],
      ['notes', { body: '   ' }, 400, 'Write the note.'],
      ['notes', { body: 'x'.repeat(2001) }, 400, 'A note is at most 2,000 characters.'],
      ['notes', {}, 400, 'Write the note.'],
    ];
    for (const [action, body, status, message] of cases) {
      const r = await owner.send('POST', `${API}/${o.id}/${action}`, body);
      expect(r.statusCode, `${action} ${JSON.stringify(body).slice(0, 80)} -> ${r.body}`).toBe(status);
      expect(r.json().message, `${action} ${JSON.stringify(body).slice(0, 80)}`).toContain(message);
    }
    const after = (await owner.get(`${API}/${o.id}`)).json();
    expect(after.order).toEqual(before.order);
    expect(after.refunds).toEqual([]);
    expect(after.fulfilments).toEqual([]);
    // Unknown orders, visitors without a session, writes without the crumb, bad list queries.
    expect((await owner.send('POST', `${API}/000000000000000000000000/refund`, {})).statusCode).toBe(404);
    expect((await owner.send('POST', `${API}/000000000000000000000000/fulfil`, {})).statusCode).toBe(404);
    expect((await owner.send('POST', `${API}/%00/notes`, { body: 'x' })).statusCode).toBe(400);
    expect((await new Visitor(t.app).send('POST', `${API}/${o.id}/refund`, {})).statusCode).toBe(401);
    expect((await new Visitor(t.app).get(`${API}.csv`)).statusCode).toBe(401);
    expect((await owner.send('POST', `${API}/${o.id}/refund`, {}, { crumb: false })).statusCode).toBe(403);
    for (const q of [
      'payment=lost',
      'fulfilment=maybe',
      'from=2026-13-45',
      'from=yesterday',
      'sort=price',
      'dir=up',
      'page=0',
      'pageSize=1000',
      `q=${'x'.repeat(201)}`,
      'q=%00',
    ]) {
      const r = await owner.get(`${API}?${q}`);
      expect(r.statusCode, `${q} -> ${r.body}`).toBe(400);
      if (!q.startsWith('page')) expect((await owner.get(`${API}.csv?${q}`)).statusCode, q).toBe(400);
    }
    expect((await new Visitor(t.app).get(`${API}/${o.id}`)).statusCode).toBe(401);
  });

  it('notes appear in the timeline with their author', async () => {
    const o = await twoLineOrder('notes@example.com', 'Nia Notes');
    const r = await owner.send('POST', `${API}/${o.id}/notes`, { body: 'Customer asked for <b>gift wrap</b>.' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().notes).toEqual([expect.objectContaining({ author: OWNER.email, body: 'Customer asked for <b>gift wrap</b>.' })]);
    const kinds = r.json().timeline.map((e: { kind: string }) => e.kind);
    expect(kinds).toContain('note');
    expect(kinds).toContain('placed');
    expect(kinds).toContain('paid');
    expect(kinds).toContain('email');
  });

  it('lists with search, filters, sort and pages, and exports the filtered list as CSV', async () => {
    const a = await twoLineOrder('zed.search@example.com', 'Zed Searcher');
    const b = await placeOrder(t.app, [{ itemId: ids['ceramic-pour-over-set']!, sku: 'POUR-OVER', quantity: 1 }], {
      email: 'quinn@example.com',
      address: { name: '=HYPERLINK("x")', line1: '2 Side St', city: 'Austin', region: 'TX', postalCode: '73301', country: 'US' },
    });
    await owner.send('POST', `${API}/${b.id}/fulfil`, { notify: false });
    const list = async (q: string) => {
      const r = await owner.get(`${API}?${q}`);
      expect(r.statusCode, r.body).toBe(200);
      return r.json();
    };
    expect((await list('q=zed.search')).orders.map((o: { id: string }) => o.id)).toEqual([a.id]);
    expect((await list('q=ZED%20SEARCHER')).orders.map((o: { id: string }) => o.id)).toEqual([a.id]);
    expect((await list(`q=%23${a.orderNumber}`)).orders.map((o: { id: string }) => o.id)).toEqual([a.id]);
    expect((await list('q=%25')).total).toBe(0);
    const fulfilled = await list('fulfilment=fulfilled');
    expect(fulfilled.orders.some((o: { id: string }) => o.id === b.id)).toBe(true);
    expect(fulfilled.orders.every((o: { fulfilmentStatus: string }) => o.fulfilmentStatus === 'fulfilled')).toBe(true);
    const unf = await list('fulfilment=unfulfilled&payment=paid');
    expect(unf.orders.some((o: { id: string }) => o.id === a.id)).toBe(true);
    expect(
      unf.orders.every(
        (o: { fulfilmentStatus: string; paymentStatus: string }) => o.fulfilmentStatus === 'unfulfilled' && o.paymentStatus === 'paid',
      ),
    ).toBe(true);
    const refunded = await list('payment=partially_refunded');
    expect(refunded.total).toBeGreaterThan(0);
    expect(refunded.orders.every((o: { paymentStatus: string }) => o.paymentStatus === 'partially_refunded')).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    const all = await list(`from=2000-01-01&to=2999-12-31&pageSize=100`);
    expect((await list('from=2999-01-01')).total).toBe(0);
    expect((await list('to=2000-01-01')).total).toBe(0);
    void today;
    // Sort and pages: oldest first, two a page, every order exactly once.
    const asc = await list('sort=number&dir=asc&pageSize=2');
    expect(asc.total).toBe(all.total);
    const pages: number[] = [];
    for (let p = 1; p <= Math.ceil(asc.total / 2); p++)
      pages.push(...(await list(`sort=number&dir=asc&pageSize=2&page=${p}`)).orders.map((o: { orderNumber: number }) => o.orderNumber));
    expect(pages).toEqual([...pages].sort((x, y) => x - y));
    expect(new Set(pages).size).toBe(all.total);
    const byTotal = (await list('sort=total&dir=desc&pageSize=100')).orders.map(
      (o: { totals: { grandTotalCents: number } }) => o.totals.grandTotalCents,
    );
    expect(byTotal).toEqual([...byTotal].sort((x, y) => y - x));

    // CSV of the filtered list.
    const csv = await owner.get(`${API}.csv?fulfilment=fulfilled&sort=number&dir=asc`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    const records = parse(csv.body, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(records[0]!)).toEqual(CSV_COLUMNS);
    expect(records.length).toBe(fulfilled.total);
    const row = records.find((x) => x.Order === String(b.orderNumber))!;
    expect(row).toMatchObject({
      Email: 'quinn@example.com',
      Customer: `'=HYPERLINK("x")`,
      'Payment status': 'paid',
      'Fulfilment status': 'fulfilled',
      Items: '1 x Ceramic Pour-Over Set (POUR-OVER)',
      Currency: 'USD',
      Subtotal: '39.00',
      Total: (Number(b.grandTotal.value) / 100).toFixed(2),
      Refunded: '0.00',
      'Ship to country': 'US',
    });
    expect(records.every((x) => x['Fulfilment status'] === 'fulfilled')).toBe(true);
  });
});

describe('order desk helpers', () => {
  it('builds carrier tracking links and defuses spreadsheet formulas', () => {
    expect(trackingUrl('usps', '9400 1000')).toBe('https://tools.usps.com/go/TrackConfirmAction?tLabels=9400%201000');
    expect(trackingUrl('FedEx', '123')).toBe('https://www.fedex.com/fedextrack/?trknbr=123');
    expect(trackingUrl('Local courier', '123')).toBe('');
    expect(trackingUrl('ups', '')).toBe('');
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('-5')).toBe("'-5");
    expect(csvCell('Ada')).toBe('Ada');
  });
});
