import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freePort, startServer, tempDir, waitFor, type Started } from '../helpers/process.js';
import { PG_URL } from '../helpers/db.js';
import { HttpVisitor } from '../helpers/http-visitor.js';
import { SmtpSink } from '../helpers/smtp-sink.js';
import { solveChallenge } from 'altcha-lib/v1';

describe('two instances on one PostgreSQL', () => {
  const started: Started[] = [];
  const bases: string[] = [];
  let dbName = '';
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await new SmtpSink().start();
    dbName = `tessera_two_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(PG_URL);
    u.pathname = `/${dbName}`;
    // Both start at once: migrations and the first-start seed must happen exactly once.
    const ports = [await freePort(), await freePort()];
    for (const port of ports) {
      const s = startServer({
        DATABASE_URL: u.toString(),
        PORT: String(port),
        DATA_DIR: tempDir(),
        OWNER_EMAIL: 'owner@example.com',
        OWNER_PASSWORD: 'correct horse battery staple',
        SMTP_URL: sink.url,
      });
      started.push(s);
      bases.push(`http://127.0.0.1:${port}`);
    }
    for (const s of started)
      await waitFor(() => s.output().includes('Tessera is serving') || s.child.exitCode !== null, 90_000, 'an instance');
    for (const s of started) expect(s.output()).toContain('Tessera is serving');
  }, 180_000);

  afterAll(async () => {
    for (const s of started) if (s.child.exitCode === null) s.child.kill('SIGTERM');
    await Promise.all(started.map((s) => s.exited));
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    await sink?.close();
  });

  it('seeded one demo store although both instances started together', async () => {
    const c = new pg.Client({ connectionString: PG_URL.replace(/\/[^/]*$/, `/${dbName}`) });
    await c.connect();
    const sites = await c.query('SELECT count(*)::int AS n FROM websites');
    const owners = await c.query('SELECT count(*)::int AS n FROM accounts');
    await c.end();
    expect(sites.rows[0].n).toBe(1);
    expect(owners.rows[0].n).toBe(1);
  });

  it('keeps one cart, one crumb and one owner session for a visitor who alternates instances', async () => {
    const v = new HttpVisitor(bases);
    await v.call('GET', '/');
    const ctx = await (await v.call('GET', '/shop/p/ceramic-pour-over-set?format=json')).json();
    for (let i = 0; i < 6; i++) {
      const res = await v.call('POST', '/api/commerce/shopping-cart/entries', { itemId: ctx.item.id, sku: 'POUR-OVER', quantity: 1 });
      expect(res.status).toBe(200);
    }
    for (const base of bases) {
      const cart = await (await v.call('GET', '/api/commerce/shopping-cart', undefined, base)).json();
      expect(cart.totalQuantity).toBe(6);
      expect(cart.entries).toHaveLength(1);
    }
    const login = await v.call(
      'POST',
      '/api/auth/login',
      { email: 'owner@example.com', password: 'correct horse battery staple' },
      bases[0],
    );
    expect(login.status).toBe(200);
    const me = await v.call('GET', '/api/auth/me', undefined, bases[1]);
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe('owner@example.com');
  });

  /** Solves the self-hosted captcha of one instance; the token is checked by the other. */
  async function captcha(v: HttpVisitor, action: string): Promise<string> {
    const c = await (await v.call('GET', `/api/captcha/challenge?action=${action}`)).json();
    const sol = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
    return Buffer.from(
      JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: sol!.number, salt: c.salt, signature: c.signature }),
    ).toString('base64');
  }

  it('takes a form submission whose captcha, key and submission each go to a different instance', async () => {
    const v = new HttpVisitor(bases);
    await v.call('GET', '/contact');
    const token = await captcha(v, 'form-block');
    const { key } = await (await v.call('POST', '/api/form/FormSubmissionKey')).json();
    const form = JSON.stringify({
      name: ['Ada', 'Lovelace'],
      email: 'ada@example.com',
      topic: 'Order',
      message: 'Hello from two instances',
    });
    const res = await v.call('POST', '/api/form/SaveFormSubmission', {
      formId: 'contact-form',
      key,
      form,
      captchaKey: token,
      pagePath: '/contact',
      contentSource: 'c',
    });
    expect(res.status).toBe(200);
    expect((await res.json()).success).toBe(true);
    // The key was spent on one instance; replaying it on the other is refused.
    const replay = await v.call('POST', '/api/form/SaveFormSubmission', {
      formId: 'contact-form',
      key,
      form,
      captchaKey: await captcha(v, 'form-block'),
    });
    expect(replay.status).toBe(401);
  });

  it('emails each restock sign-up exactly once when send-all runs on both instances at once', async () => {
    const owner = new HttpVisitor(bases);
    await owner.call('GET', '/health');
    expect(
      (await owner.call('POST', '/api/auth/login', { email: 'owner@example.com', password: 'correct horse battery staple' })).status,
    ).toBe(200);
    const API = '/api/site-users/account/notifications/restock';
    expect((await owner.call('PUT', `${API}/settings`, { settings: { autoSend: false, batchSize: 5, batchDelaySeconds: 0 } })).status).toBe(
      200,
    );
    const ctx = await (await owner.call('GET', '/shop/p/merino-wool-throw?format=json')).json();
    const variant = ctx.item.structuredContent.variants.find((x: { sku: string }) => x.sku === 'THROW-CLAY');
    const n = 12;
    for (let i = 0; i < n; i++) {
      const visitor = new HttpVisitor(bases);
      await visitor.call('GET', '/health');
      const res = await visitor.call('POST', API, {
        isJoinMailingList: false,
        productId: ctx.item.id,
        variantId: variant.id,
        siteVisitorEmail: `twin${i}@example.com`,
        captchaToken: await captcha(visitor, 'product-waitlist'),
      });
      expect(res.status).toBe(200);
    }
    expect((await owner.call('PUT', `/api/commerce/inventory/variants/${variant.id}`, { qtyInStock: 100 })).status).toBe(200);
    const sendRequests = [{ productId: ctx.item.id, variantId: variant.id }];
    const [a, b] = await Promise.all(bases.map((base) => owner.call('POST', `${API}/send/all`, { sendRequests }, base)));
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    await waitFor(() => sink.messages.filter((m) => m.to[0]!.startsWith('twin')).length >= n, 60_000, 'the restock emails');
    // Until both instances have nothing left to do (no job due or running, no email waiting to go): a duplicate
    // would have been queued, and delivered, by then. The outbox holds one email per sign-up.
    const c = new pg.Client({ connectionString: PG_URL.replace(/\/[^/]*$/, `/${dbName}`) });
    await c.connect();
    try {
      const outstanding = async () =>
        (
          await c.query(`SELECT (SELECT count(*) FROM jobs WHERE (status = 'pending' AND run_at <= now()) OR status = 'running')::int AS j,
                                (SELECT count(*) FROM mail_outbox WHERE status IN ('pending', 'sending'))::int AS m`)
        ).rows[0];
      await expect.poll(outstanding, { timeout: 60_000, interval: 100 }).toEqual({ j: 0, m: 0 });
      expect((await c.query(`SELECT count(*)::int AS n FROM mail_outbox WHERE to_address LIKE 'twin%'`)).rows[0].n).toBe(n);
    } finally {
      await c.end();
    }
    const got = sink.messages.filter((m) => m.to[0]!.startsWith('twin')).map((m) => m.to[0]);
    expect(got).toHaveLength(n);
    expect(new Set(got).size).toBe(n);
  }, 120_000);
});
