/**
 * Issue 21, item 13: kill -9 between the card charge and the order commit. A real server process dies at
 * that point (TESSERA_CRASH_AT=after-charge, honoured only under the test runner); on restart the payment
 * reconciler finds the open payment attempt and completes its order, or, when the order can no longer be
 * made as the shopper confirmed it, refunds the payment. Nothing charged is left without an order or a refund.
 * The same for a donation (TESSERA_CRASH_AT=after-donation-charge): the reconciler records it, once.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { freePort, tempDir, waitFor } from '../helpers/process.js';
import { serverProcesses, withScratchPostgres } from '../helpers/crash.js';
import { HttpVisitor } from '../helpers/http-visitor.js';
import { open, type Database } from '../../src/db/index.js';
import { rows } from '../../src/server/db-util.js';

const servers = serverProcesses();

const OWNER = { email: 'owner@example.com', password: 'correct horse battery staple' };
const CARD = { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Buyer' };
const SETTLED = 'payment reconciler settled open payment attempts';

async function crashRun(env: Record<string, string>, openDb: () => Promise<Database>) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  env = { ...env, ...OWNER_ENV, PORT: String(port), PAYMENT_RECONCILE_AFTER_SECONDS: '1', PAYMENT_RECONCILE_EVERY_SECONDS: '1' };
  const serve = async (extra: Record<string, string>) => {
    const s = await servers.serve({ ...env, ...extra }, 180_000);
    return s;
  };
  /** A shopper with an ebook in the cart who pays by card; the server dies after the charge. */
  const shopperDiesAtCharge = async (email: string) => {
    const v = new HttpVisitor([base]);
    await v.call('GET', '/health');
    const ctx = (await (await v.call('GET', '/shop/p/houseplant-field-guide?format=json')).json()) as { item: { id: string } };
    expect(
      (await v.call('POST', '/api/commerce/shopping-cart/entries', { itemId: ctx.item.id, sku: 'EBOOK-PLANTS', quantity: 1 })).status,
    ).toBe(200);
    const quote = (await (await v.call('POST', '/api/checkout/quote', { email })).json()) as { cart: { grandTotalCents: number } };
    const answer = await v
      .call('POST', '/api/checkout/place-order', {
        email,
        payment: CARD,
        idempotencyKey: `crash-key-${email.split('@')[0]}`,
        expectedTotalCents: quote.cart.grandTotalCents,
      })
      .then((r) => r.status)
      .catch(() => 'connection lost');
    expect(answer).toBe('connection lost');
    return quote.cart.grandTotalCents;
  };

  // 1. The first shopper's payment goes through and the process dies before the order is made.
  const first = await serve({ TESSERA_CRASH_AT: 'after-charge' });
  const totalA = await shopperDiesAtCharge('a@example.com');
  expect(await first.exited).toBeNull(); // killed by a signal
  // 2. On restart the reconciler completes that order: the owner sees it, paid.
  const second = await serve({ TESSERA_CRASH_AT: 'after-charge' });
  await waitFor(() => second.output().includes(SETTLED), 120_000, 'the reconciler');
  const owner = new HttpVisitor([base]);
  await owner.call('GET', '/health');
  expect((await owner.call('POST', '/api/auth/login', OWNER)).status).toBe(200);
  const listed = (await (await owner.call('GET', '/api/checkout/admin/orders')).json()) as {
    orders: Array<{ email: string; status: string; grandTotalCents: number }>;
  };
  const orderA = listed.orders.filter((o) => o.email === 'a@example.com');
  expect(orderA).toHaveLength(1);
  expect(orderA[0]).toMatchObject({ status: 'paid' });

  // 3. The second shopper's payment goes through, the process dies, and the price changes before the restart:
  // the order can no longer be made at the total the shopper confirmed, so the payment is refunded.
  await shopperDiesAtCharge('b@example.com');
  expect(await second.exited).toBeNull();
  let db = await openDb();
  await db.db.execute(sql`update product_variants set price_cents = price_cents + 100 where sku = 'EBOOK-PLANTS'`);
  await db.close();
  const third = await serve({ TESSERA_CRASH_AT: 'after-donation-charge' });
  await waitFor(() => third.output().includes(SETTLED), 120_000, 'the reconciler');

  // 4. A donor's card is charged and the process dies before the donation is recorded; on restart the
  // reconciler records it, and the donor's retry of the same form is that one donation, not a second charge.
  const donor = new HttpVisitor([base]);
  await donor.call('GET', '/health');
  const gift = {
    amountCents: 2500,
    donorName: 'Dee Donor',
    email: 'dee@example.com',
    message: 'For the kiln',
    payment: CARD,
    idempotencyKey: 'crash-donation-key',
  };
  const donated = await donor
    .call('POST', '/api/donations', gift)
    .then((r) => r.status)
    .catch(() => 'connection lost');
  expect(donated).toBe('connection lost');
  expect(await third.exited).toBeNull();
  const fourth = await serve({});
  await waitFor(() => fourth.output().includes(SETTLED), 120_000, 'the reconciler');
  const owner2 = new HttpVisitor([base]);
  await owner2.call('GET', '/health');
  expect((await owner2.call('POST', '/api/auth/login', OWNER)).status).toBe(200);
  const donors = (await (await owner2.call('GET', '/api/donations/admin/donations')).json()) as {
    donations: Array<{ id: string; email: string; amountCents: number; donorName: string; message: string }>;
    count: number;
  };
  expect(donors.count).toBe(1);
  expect(donors.donations[0]).toMatchObject({
    email: 'dee@example.com',
    donorName: 'Dee Donor',
    amountCents: 2500,
    message: 'For the kiln',
  });
  await donor.call('GET', '/health');
  const again = await donor.call('POST', '/api/donations', gift);
  expect(again.status).toBe(200);
  expect(await again.json()).toMatchObject({ duplicate: true, donation: { id: donors.donations[0]!.id, amountCents: 2500 } });
  fourth.child.kill('SIGTERM');
  expect(await fourth.exited).toBe(0);

  // What the database and the provider hold: one order for a, paid by its charge; b's charge refunded, no order.
  db = await openDb();
  try {
    const attempts = await rows<{ idempotency_key: string; state: string; payment_id: string; order_id: string | null }>(
      db.db,
      sql`select idempotency_key, state, payment_id, order_id from payment_attempts order by idempotency_key`,
    );
    expect(attempts.map((a) => [a.idempotency_key, a.state])).toEqual([
      ['crash-key-a', 'completed'],
      ['crash-key-b', 'voided'],
      ['donation:crash-donation-key', 'completed'],
    ]);
    const orders = await rows<{ id: string; email: string; grand_total_cents: number; payment: { paymentId: string } }>(
      db.db,
      sql`select id, email, grand_total_cents, payment from orders`,
    );
    expect(orders.map((o) => o.email)).toEqual(['a@example.com']);
    expect(Number(orders[0]!.grand_total_cents)).toBe(totalA);
    expect(orders[0]!.id).toBe(attempts[0]!.order_id);
    const payments = await rows<{ id: string; status: string; amount_cents: number; refunded_cents: number }>(
      db.db,
      sql`select id, status, amount_cents, refunded_cents from test_payments order by created`,
    );
    expect(payments).toHaveLength(3);
    const byId = new Map(payments.map((p) => [p.id, p]));
    expect(byId.get(orders[0]!.payment.paymentId)).toMatchObject({ status: 'succeeded' });
    // The reconciler found both payments at the provider by the attempts' keys and recorded them.
    expect(attempts[0]!.payment_id).toBe(orders[0]!.payment.paymentId);
    const refunded = byId.get(attempts[1]!.payment_id);
    expect(refunded).toMatchObject({ status: 'refunded' });
    expect(Number(refunded!.refunded_cents)).toBe(Number(refunded!.amount_cents));
    // The donation: one row, paid by the charge the crashed process made (the reconciler found it by the key).
    const gifts = await rows<{ payment_id: string; amount_cents: number; idempotency_key: string }>(
      db.db,
      sql`select payment_id, amount_cents, idempotency_key from donations`,
    );
    expect(gifts).toHaveLength(1);
    expect(gifts[0]).toMatchObject({ idempotency_key: 'crash-donation-key', payment_id: attempts[2]!.payment_id });
    expect(byId.get(gifts[0]!.payment_id)).toMatchObject({ status: 'succeeded' });
    expect(Number(byId.get(gifts[0]!.payment_id)!.amount_cents)).toBe(2500);
    // The shopper's confirmation email was queued with the order.
    const mails = await rows<{ to_address: string }>(db.db, sql`select to_address from mail_outbox where ref = ${orders[0]!.id}`);
    expect(mails.map((m) => m.to_address)).toEqual(['a@example.com']);
  } finally {
    await db.close();
  }
}

const OWNER_ENV = { OWNER_EMAIL: OWNER.email, OWNER_PASSWORD: OWNER.password };

describe('kill -9 between the charge and the order commit', () => {
  it('completes or refunds every orphaned payment on restart, on PGlite', async () => {
    const dir = tempDir();
    await crashRun({ DATA_DIR: dir }, () => open({ dataDir: dir, migrate: false }));
  }, 600_000);

  it('completes or refunds every orphaned payment on restart, on PostgreSQL', async () => {
    await withScratchPostgres('tessera_paycrash', (url) =>
      crashRun({ DATABASE_URL: url, DATA_DIR: tempDir() }, () => open({ databaseUrl: url, migrate: false, poolSize: 2 })),
    );
  }, 600_000);
});
