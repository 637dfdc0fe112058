/**
 * Issue 25: kill -9 between the PaymentIntent succeeding and the order commit. A real server process, paying
 * through the local stand-in of Stripe's API, dies at that point (TESSERA_CRASH_AT=after-charge, honoured only
 * under the test runner); on restart the payment reconciler finds the open attempt, asks Stripe for its
 * PaymentIntent (its id was recorded before the intent was confirmed) and completes the order: one order, one
 * confirmation email, and the webhook delivered afterwards changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { freePort, tempDir, waitFor } from '../helpers/process.js';
import { serverProcesses, withScratchPostgres } from '../helpers/crash.js';
import { HttpVisitor } from '../helpers/http-visitor.js';
import { StripeStandin } from '../helpers/stripe-standin.js';
import { open, type Database } from '../../src/db/index.js';
import { rows } from '../../src/server/db-util.js';

const servers = serverProcesses();

const SETTLED = 'payment reconciler settled open payment attempts';

async function crashRun(env: Record<string, string>, openDb: () => Promise<Database>) {
  const standin = await new StripeStandin().start();
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    env = { ...env, ...standin.env(), PORT: String(port), PAYMENT_RECONCILE_AFTER_SECONDS: '1', PAYMENT_RECONCILE_EVERY_SECONDS: '1' };
    const serve = async (extra: Record<string, string>) => {
      const s = await servers.serve({ ...env, ...extra }, 180_000);
      return s;
    };
    // 1. The shopper's PaymentIntent succeeds and the process dies before the order is made.
    const first = await serve({ TESSERA_CRASH_AT: 'after-charge' });
    const v = new HttpVisitor([base]);
    await v.call('GET', '/health');
    const ctx = (await (await v.call('GET', '/shop/p/houseplant-field-guide?format=json')).json()) as { item: { id: string } };
    expect(
      (await v.call('POST', '/api/commerce/shopping-cart/entries', { itemId: ctx.item.id, sku: 'EBOOK-PLANTS', quantity: 1 })).status,
    ).toBe(200);
    const quote = (await (await v.call('POST', '/api/checkout/quote', { email: 'a@example.com' })).json()) as {
      cart: { grandTotalCents: number };
    };
    const answer = await v
      .call('POST', '/api/checkout/place-order', {
        email: 'a@example.com',
        payment: { type: 'token', provider: 'stripe', token: 'pm_card_visa' },
        idempotencyKey: 'stripe-crash-key-a',
        expectedTotalCents: quote.cart.grandTotalCents,
      })
      .then((r) => r.status)
      .catch(() => 'connection lost');
    expect(answer).toBe('connection lost');
    expect(await first.exited).toBeNull(); // killed by a signal
    const [pi] = [...standin.intents.values()];
    expect(pi).toMatchObject({ status: 'succeeded', amount: quote.cart.grandTotalCents });

    // 2. On restart the reconciler completes that order from the PaymentIntent.
    const second = await serve({});
    await waitFor(() => second.output().includes(SETTLED), 120_000, 'the reconciler');
    // 3. Stripe's webhook, delivered late (to the real server, signed): acknowledged, no second order.
    for (const e of standin.eventsOf('payment_intent.succeeded', String(pi!.id))) {
      const d = standin.signedDelivery(e);
      const res = await fetch(`${base}/api/payments/stripe/webhook`, { method: 'POST', body: d.body, headers: d.headers });
      expect(res.status).toBe(200);
    }
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    const db = await openDb();
    try {
      const attempts = await rows<{ state: string; payment_id: string; order_id: string | null }>(
        db.db,
        sql`select state, payment_id, order_id from payment_attempts`,
      );
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ state: 'completed', payment_id: pi!.id });
      const orders = await rows<{
        id: string;
        email: string;
        status: string;
        grand_total_cents: number;
        payment: { provider: string; paymentId: string };
      }>(db.db, sql`select id, email, status, grand_total_cents, payment from orders`);
      expect(orders).toHaveLength(1);
      expect(orders[0]).toMatchObject({ email: 'a@example.com', status: 'paid', payment: { provider: 'stripe', paymentId: pi!.id } });
      expect(Number(orders[0]!.grand_total_cents)).toBe(quote.cart.grandTotalCents);
      expect(orders[0]!.id).toBe(attempts[0]!.order_id);
      expect(standin.held(String(pi!.id))).toBe(quote.cart.grandTotalCents);
      const mails = await rows<{ to_address: string }>(db.db, sql`select to_address from mail_outbox where ref = ${orders[0]!.id}`);
      expect(mails.map((m) => m.to_address)).toEqual(['a@example.com']);
    } finally {
      await db.close();
    }
  } finally {
    await standin.stop();
  }
}

describe('kill -9 between the PaymentIntent succeeding and the order commit', () => {
  it('the reconciler completes the order on restart, on PGlite', async () => {
    const dir = tempDir();
    await crashRun({ DATA_DIR: dir }, () => open({ dataDir: dir, migrate: false }));
  }, 600_000);

  it('the reconciler completes the order on restart, on PostgreSQL', async () => {
    await withScratchPostgres('tessera_stripecrash', (url) =>
      crashRun({ DATABASE_URL: url, DATA_DIR: tempDir() }, () => open({ databaseUrl: url, migrate: false, poolSize: 2 })),
    );
  }, 600_000);
});
