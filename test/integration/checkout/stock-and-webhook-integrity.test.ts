/**
 * Issue 38, items 6 and 7 b–d, on both databases:
 * - an unlimited variant sold through the real checkout keeps its count, and its product saves unchanged;
 *   the migration sets counts that went below 0 back to 0 and keeps them from going there again;
 * - a JSON place-order must confirm the total it pays (expectedTotalCents);
 * - a Stripe webhook signed more than 5 minutes in the future is refused (the clock injected);
 * - a signed event for a PaymentIntent Stripe does not have is acknowledged as not ours, not 503 for ever.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { DB_KINDS } from '../../helpers/db.js';
import { StripeStandin } from '../../helpers/stripe-standin.js';
import { rows } from '../../../src/server/db-util.js';
import { MIGRATIONS_DIR } from '../../../src/db/index.js';
import { checkoutMessages } from '../../../src/core/messages.js';
import { webhookMessages } from '../../../src/server/stripe/routes.js';

const ADD = '/api/commerce/shopping-cart/entries';
const PLACE = '/api/checkout/place-order';
const QUOTE = '/api/checkout/quote';
const WEBHOOK = '/api/payments/stripe/webhook';
const CARD = { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Buyer' };

let seq = 0;
const key = () => `issue38-${++seq}-${Math.random().toString(36).slice(2, 10)}`;

describe.each(DB_KINDS)('issue 38 stock and checkout integrity on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  const stockOf = async (sku: string) => {
    const r = await rows<{ q: number }>(t.database.db, sql`select qty_in_stock as q from product_variants where sku = ${sku}`);
    return Number(r[0]!.q);
  };
  /** A shopper with `quantity` tune-ups in the cart, and the total the checkout quoted them. */
  async function shopper(quantity: number) {
    const v = new Visitor(t.app);
    const add = await v.send('POST', ADD, { itemId: t.seed.productIds['bike-tune-up'], sku: 'SERVICE-TUNEUP', quantity });
    expect(add.statusCode, add.body).toBe(200);
    const q = await v.send('POST', QUOTE, { email: 'ada@example.com' });
    expect(q.statusCode, q.body).toBe(200);
    return { v, total: q.json().cart.grandTotalCents as number };
  }

  it('sells an unlimited variant without touching its count, and the product then saves unchanged', async () => {
    await t.database.db.execute(sql`update product_variants set qty_in_stock = 2, unlimited = true where sku = 'SERVICE-TUNEUP'`);
    for (let i = 0; i < 2; i++) {
      const { v, total } = await shopper(3);
      const placed = await v.send('POST', PLACE, {
        email: 'ada@example.com',
        payment: CARD,
        idempotencyKey: key(),
        expectedTotalCents: total,
      });
      expect(placed.statusCode, placed.body).toBe(200);
    }
    expect(await stockOf('SERVICE-TUNEUP')).toBe(2);
    const id = t.seed.productIds['bike-tune-up']!;
    const product = (await owner.get(`/api/config/products/${id}`)).json();
    const saved = await owner.send('PUT', `/api/config/products/${id}`, product);
    expect(saved.statusCode, saved.body).toBe(200);
  });

  it('a tracked variant is still taken down, and never below 0', async () => {
    await t.database.db.execute(sql`update product_variants set qty_in_stock = 4, unlimited = false where sku = 'SERVICE-TUNEUP'`);
    const { v, total } = await shopper(3);
    expect(
      (await v.send('POST', PLACE, { email: 'ada@example.com', payment: CARD, idempotencyKey: key(), expectedTotalCents: total }))
        .statusCode,
    ).toBe(200);
    expect(await stockOf('SERVICE-TUNEUP')).toBe(1);
    const again = await shopper(1);
    await t.database.db.execute(sql`update product_variants set qty_in_stock = 0 where sku = 'SERVICE-TUNEUP'`);
    expect(
      (
        await again.v.send('POST', PLACE, {
          email: 'ada@example.com',
          payment: CARD,
          idempotencyKey: key(),
          expectedTotalCents: again.total,
        })
      ).statusCode,
    ).toBe(400);
    expect(await stockOf('SERVICE-TUNEUP')).toBe(0);
  });

  it('migration 0033 sets negative counts back to 0 (a manual movement) and refuses new ones', async () => {
    const db = t.database.db;
    // The state a database was in before the migration: no check yet, and counts an unlimited variant's sales took below 0.
    await db.execute(sql`alter table product_variants drop constraint product_variants_qty_not_negative`);
    await db.execute(sql`update product_variants set qty_in_stock = -388, unlimited = true where sku = 'SERVICE-TUNEUP'`);
    await db.execute(sql`update product_variants set qty_in_stock = -2 where sku = 'SHIRT-S-SAND'`);
    const file = readFileSync(join(MIGRATIONS_DIR, '0033_stock_repair.sql'), 'utf8');
    await db.transaction(async (tx) => {
      for (const statement of file.split('--> statement-breakpoint')) if (statement.trim()) await tx.execute(sql.raw(statement));
    });
    expect(await stockOf('SERVICE-TUNEUP')).toBe(0);
    expect(await stockOf('SHIRT-S-SAND')).toBe(0);
    const moved = await rows<{ reason: string; delta: number }>(
      db,
      sql`select m.reason, m.delta from stock_movements m join product_variants v on v.id = m.variant_id where v.sku = 'SERVICE-TUNEUP' order by m.id desc limit 1`,
    );
    expect(moved[0]).toMatchObject({ reason: 'manual', delta: 388 });
    await expect(db.execute(sql`update product_variants set qty_in_stock = -1 where sku = 'SHIRT-S-SAND'`)).rejects.toThrow();
  });

  it('a JSON place-order without expectedTotalCents is refused with a clear 400, nothing charged', async () => {
    await t.database.db.execute(sql`update product_variants set qty_in_stock = 10, unlimited = false where sku = 'SERVICE-TUNEUP'`);
    const { v, total } = await shopper(1);
    const bare = await v.send('POST', PLACE, { email: 'ada@example.com', payment: CARD, idempotencyKey: key() });
    expect(bare.statusCode, bare.body).toBe(400);
    expect(bare.json().message).toBe(checkoutMessages.CONFIRM_TOTAL);
    expect(await stockOf('SERVICE-TUNEUP')).toBe(10);
    const changed = await v.send('POST', PLACE, {
      email: 'ada@example.com',
      payment: CARD,
      idempotencyKey: key(),
      expectedTotalCents: total - 1,
    });
    expect(changed.statusCode).toBe(409);
    const ok = await v.send('POST', PLACE, { email: 'ada@example.com', payment: CARD, idempotencyKey: key(), expectedTotalCents: total });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await stockOf('SERVICE-TUNEUP')).toBe(9);
  });

  it('the no-JavaScript checkout form posts the total it shows, and places the order with it', async () => {
    await t.database.db.execute(sql`update product_variants set qty_in_stock = 10, unlimited = false where sku = 'SERVICE-TUNEUP'`);
    const v = new Visitor(t.app);
    expect((await v.send('POST', ADD, { itemId: t.seed.productIds['bike-tune-up'], sku: 'SERVICE-TUNEUP', quantity: 2 })).statusCode).toBe(
      200,
    );
    const crumb = await v.crumb();
    const page = await v.get('/checkout');
    expect(page.statusCode).toBe(200);
    const field = (name: string) => page.body.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1];
    expect(field('expectedTotalCents')).toBe('17000');
    const form = (extra: Record<string, string>) =>
      v.send(
        'POST',
        '/api/checkout/form',
        new URLSearchParams({
          crumb,
          idempotencyKey: field('idempotencyKey')!,
          action: 'place',
          email: 'plain@example.com',
          cardNumber: '4242424242424242',
          cardExpiry: '12/40',
          cardCvc: '123',
          ...extra,
        }).toString(),
        { crumb: false, headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' } },
      );
    // A post without the field (not the page's own) is drawn again with the message, nothing charged.
    const bare = await form({});
    expect(bare.statusCode).toBe(400);
    expect(bare.body).toContain('The order total was not confirmed');
    expect(await stockOf('SERVICE-TUNEUP')).toBe(10);
    const placed = await form({ expectedTotalCents: field('expectedTotalCents')! });
    expect(placed.statusCode, placed.body).toBe(303);
    expect(String(placed.headers.location)).toMatch(/^\/order-confirmed\//);
    expect(await stockOf('SERVICE-TUNEUP')).toBe(8);
  });
});

describe.each(DB_KINDS)('issue 38 Stripe webhooks on %s', (kind) => {
  let t: TestApp;
  let standin: StripeStandin;
  /** The instant the webhook's clock reads (ms): fixed, so the test never depends on how fast it runs. */
  const NOW = Date.UTC(2026, 11, 1, 12, 0, 0);

  beforeAll(async () => {
    standin = await new StripeStandin().start();
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory', ...standin.env() });
    t.app.stripe.clock.now = () => NOW;
  });
  afterAll(async () => {
    await t?.close();
    await standin?.stop();
  });

  /** A signed delivery of a payment_intent.succeeded for `pi`, signed at `at` (unix seconds). */
  const deliver = (pi: string, at: number, eventId = `evt_${key()}`) => {
    const d = standin.signedDelivery(
      {
        id: eventId,
        type: 'payment_intent.succeeded',
        created: at,
        data: { object: { id: pi, object: 'payment_intent', status: 'succeeded' } },
      },
      at,
    );
    return t.app.inject({ method: 'POST', url: WEBHOOK, payload: d.body, headers: d.headers });
  };
  const seconds = Math.floor(NOW / 1000);

  it('refuses a signature dated more than 5 minutes ahead, takes one within, and still refuses one older than 5 minutes', async () => {
    const ahead = await deliver('pi_missing_ahead', seconds + 301);
    expect(ahead.statusCode).toBe(400);
    expect(ahead.json().message).toBe(webhookMessages.FUTURE_SIGNATURE);
    const old = await deliver('pi_missing_old', seconds - 301);
    expect(old.statusCode).toBe(400);
    expect(old.json().message).toBe(webhookMessages.BAD_SIGNATURE);
    const within = await deliver('pi_missing_within', seconds + 299);
    expect(within.statusCode, within.body).toBe(200);
    const justPast = await deliver('pi_missing_past', seconds - 299);
    expect(justPast.statusCode, justPast.body).toBe(200);
  });

  it('acknowledges a signed event for a PaymentIntent Stripe does not have (404 resource_missing) as not ours, once', async () => {
    const eventId = `evt_${key()}`;
    const r = await deliver('pi_nobody_knows', seconds, eventId);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ received: true, duplicate: false, result: 'not ours' });
    // Stripe was asked, and answered 404.
    expect(standin.requests.some((q) => q.method === 'GET' && q.path.startsWith('/v1/payment_intents/pi_nobody_knows'))).toBe(true);
    const again = await deliver('pi_nobody_knows', seconds, eventId);
    expect(again.json()).toMatchObject({ received: true, duplicate: true });
  });
});
