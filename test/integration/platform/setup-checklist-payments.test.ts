/**
 * Issue 23: the dashboard's "Take payments" step is honest. It ticks only when Stripe keys are saved AND the
 * connection check passed for those keys (charges enabled), against the local Stripe stand-in; a failed check
 * or a changed key takes the tick away. On both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { StripeStandin } from '../../helpers/stripe-standin.js';

describe.each(APP_KINDS)('set-up checklist: Take payments on %s', (kind) => {
  let t: TestApp;
  let admin: Visitor;
  let standin: StripeStandin;

  beforeAll(async () => {
    standin = await new StripeStandin().start();
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory', STRIPE_API_URL: standin.url });
    admin = new Visitor(t.app);
    expect((await admin.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await standin?.stop();
  });

  const payments = async () => {
    const r = await admin.get('/api/admin/dashboard');
    expect(r.statusCode, r.body).toBe(200);
    return (r.json() as { checklist: Array<{ key: string; done: boolean; href: string; note?: string }> }).checklist.find(
      (c) => c.key === 'payments',
    )!;
  };

  it('ticks after keys are saved and the check passes; a failed check or a new key untick it', async () => {
    expect(await payments()).toMatchObject({ done: false, href: '/config/payments' });
    // Checking with no keys is not a pass.
    expect((await admin.send('POST', '/api/config/payments/check', {})).json()).toMatchObject({ ok: false });
    expect((await payments()).done).toBe(false);

    const save = await admin.send('PUT', '/api/config/payments', {
      publishableKey: 'pk_test_tessera_standin',
      secretKey: standin.secretKey,
      webhookSecret: standin.webhookSecret,
    });
    expect(save.statusCode, save.body).toBe(200);
    expect((await payments()).done).toBe(false);

    const check = await admin.send('POST', '/api/config/payments/check', {});
    expect(check.json()).toMatchObject({ ok: true, chargesEnabled: true, mode: 'test' });
    expect(await payments()).toMatchObject({ done: true, note: 'Connected in Stripe test mode: save live keys to take real money.' });

    // Stripe refuses the key (rolled in its dashboard): the next check fails and the step is not done.
    const good = standin.secretKey;
    (standin as unknown as { secretKey: string }).secretKey = 'sk_test_rolled_elsewhere';
    expect((await admin.send('POST', '/api/config/payments/check', {})).json()).toMatchObject({ ok: false });
    expect((await payments()).done).toBe(false);
    (standin as unknown as { secretKey: string }).secretKey = good;
    expect((await admin.send('POST', '/api/config/payments/check', {})).json()).toMatchObject({ ok: true });
    expect((await payments()).done).toBe(true);

    // A different key was never checked: not done until it is.
    expect((await admin.send('PUT', '/api/config/payments', { secretKey: 'sk_test_another_key_1234' })).statusCode).toBe(200);
    expect((await payments()).done).toBe(false);
  });
});
