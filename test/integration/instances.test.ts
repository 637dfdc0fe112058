import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freePort, startServer, tempDir, waitFor, type Started } from '../helpers/process.js';
import { PG_URL } from '../helpers/db.js';

/** A visitor whose requests alternate between instances; one cookie jar for both. */
class Browser {
  cookies = new Map<string, string>();
  private n = 0;
  constructor(private readonly bases: string[]) {}

  next(): string {
    return this.bases[this.n++ % this.bases.length]!;
  }

  async call(method: string, path: string, body?: unknown, base = this.next()): Promise<{ status: number; json: () => Promise<any>; text: () => Promise<string> }> {
    const headers: Record<string, string> = { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && this.cookies.has('crumb')) headers['x-csrf-token'] = this.cookies.get('crumb')!;
    const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'manual' });
    for (const sc of res.headers.getSetCookie()) {
      const [pair] = sc.split(';');
      const i = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    return res;
  }
}

describe('two instances on one PostgreSQL', () => {
  const started: Started[] = [];
  const bases: string[] = [];
  let dbName = '';
  beforeAll(async () => {
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
      const s = startServer({ DATABASE_URL: u.toString(), PORT: String(port), DATA_DIR: tempDir(), OWNER_EMAIL: 'owner@example.com', OWNER_PASSWORD: 'correct horse battery staple' });
      started.push(s);
      bases.push(`http://127.0.0.1:${port}`);
    }
    for (const s of started) await waitFor(() => s.output().includes('Tessera is serving') || s.child.exitCode !== null, 90_000, 'an instance');
    for (const s of started) expect(s.output()).toContain('Tessera is serving');
  }, 180_000);

  afterAll(async () => {
    for (const s of started) if (s.child.exitCode === null) s.child.kill('SIGTERM');
    await Promise.all(started.map((s) => s.exited));
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
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
    const v = new Browser(bases);
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
    const login = await v.call('POST', '/api/auth/login', { email: 'owner@example.com', password: 'correct horse battery staple' }, bases[0]);
    expect(login.status).toBe(200);
    const me = await v.call('GET', '/api/auth/me', undefined, bases[1]);
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe('owner@example.com');
  });
});
