import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { testApp, Visitor, OWNER, type TestApp } from '../helpers/app.js';
import { DB_KINDS, testDatabase, type DbKind } from '../helpers/db.js';
import { tempDir } from '../helpers/process.js';
import { rows } from '../../src/server/db-util.js';
import { hashToken } from '../../src/db/ids.js';
import { open, type Database } from '../../src/db/index.js';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { seedDemo } from '../../src/server/seed.js';
import { prepare } from '../../src/server/first-start.js';
import { OwnerService, PLACEHOLDER_EMAIL } from '../../src/server/platform/owners.js';
import { FORGOT_LIMITS } from '../../src/server/platform/owner-recovery.js';
import { ownerAccount as words } from '../../src/core/messages.js';

const resetLinkIn = (text: string) => /https:\/\/shop\.example\/config\/reset\?token=([\w-]+)/.exec(text)?.[1] ?? '';
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe.each(DB_KINDS)('owner password reset by email on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory', PUBLIC_URL: 'https://shop.example' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const resetMails = (to: string) =>
    rows<{ text_body: string; html_body: string }>(
      t.database.db,
      sql`select text_body, html_body from mail_outbox where kind = 'owner-password-reset' and to_address = ${to} order by id`,
    );

  it('answers the same for a known and an unknown email, and mails a single-use link from the public origin that ends every session', async () => {
    const signedIn = new Visitor(t.app);
    expect((await signedIn.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);

    const v = new Visitor(t.app);
    const known = await v.send('POST', '/api/auth/forgot', { email: OWNER.email.toUpperCase() });
    const unknown = await v.send('POST', '/api/auth/forgot', { email: 'nobody@example.com' });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(await resetMails('nobody@example.com')).toEqual([]);
    const [mail] = await resetMails(OWNER.email);
    const token = resetLinkIn(mail!.text_body);
    expect(token).not.toBe('');
    expect(mail!.html_body).toContain(`https://shop.example/config/reset?token=${token}`);
    // Stored as its hash only.
    const stored = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from owner_sessions where kind = 'reset' and token_hash = ${hashToken(token)}`,
    );
    expect(stored[0]!.n).toBe(1);

    const pageRes = await v.get(`/config/reset?token=${token}`);
    expect(pageRes.statusCode).toBe(200);
    expect(pageRes.body).toContain('<label for="password">New password</label>');

    // Bad input: a clear error tied to its field, and the link still works.
    const short = await v.send('POST', '/api/auth/reset', form({ token, password: 'short', confirm: 'short', crumb: await v.crumb() }), {
      headers: FORM,
    });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('aria-describedby="password-hint password-error" aria-invalid="true"');
    expect(short.body).toContain(words.PASSWORD_SHORT);
    const mismatch = await v.send('POST', '/api/auth/reset', { token, password: 'a new long password', confirm: 'another one' });
    expect(mismatch.json().errors).toEqual({ confirm: words.PASSWORD_MISMATCH });

    const ok = await v.send(
      'POST',
      '/api/auth/reset',
      form({ token, password: 'a new long password', confirm: 'a new long password', crumb: await v.crumb() }),
      { headers: FORM },
    );
    expect(ok.statusCode, ok.body).toBe(303);
    expect(ok.headers.location).toBe('/config');
    // The session from before the reset has ended; the resetter is signed in afresh.
    expect((await signedIn.get('/api/auth/me')).statusCode).toBe(401);
    expect((await v.get('/api/auth/me')).statusCode).toBe(200);
    // Single use.
    expect((await v.get(`/config/reset?token=${token}`)).statusCode).toBe(410);
    expect(
      (await v.send('POST', '/api/auth/reset', { token, password: 'yet another password', confirm: 'yet another password' })).statusCode,
    ).toBe(410);
    // The old password is gone, the new one signs in.
    const fresh = new Visitor(t.app);
    expect((await fresh.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(401);
    expect((await fresh.send('POST', '/api/auth/login', { email: OWNER.email, password: 'a new long password' })).statusCode).toBe(200);
    await t.app.services.owners.setPassword((await t.app.services.owners.byEmail(OWNER.email))!.id, OWNER.password);
  });

  it('an expired link is refused; a newer link replaces an older one', async () => {
    const owners = t.app.services.owners;
    const id = (await owners.byEmail(OWNER.email))!.id;
    const older = await owners.createResetToken(id);
    const newer = await owners.createResetToken(id);
    expect((await t.app.inject({ method: 'GET', url: `/config/reset?token=${older}` })).statusCode).toBe(410);
    expect((await t.app.inject({ method: 'GET', url: `/config/reset?token=${newer}` })).statusCode).toBe(200);
    const hour = 61 * 60_000;
    expect(await owners.resetAccount(newer, new Date(Date.now() + hour))).toBeNull();
    expect(await owners.completeReset(newer, 'a long enough password', new Date(Date.now() + hour))).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: '/config/reset?token=nonsense' })).statusCode).toBe(410);
  });

  it('is rate limited per email without saying so, and per address with a clear 429', async () => {
    const v = new Visitor(t.app);
    const target = 'limited@example.com';
    await t.app.services.owners.create({ websiteId: t.seed.websiteId, email: target, password: 'some long password', role: 1 });
    const answers = [];
    for (let i = 0; i < FORGOT_LIMITS.email.max + 2; i++)
      answers.push((await v.send('POST', '/api/auth/forgot', { email: target })).json());
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect((await resetMails(target)).length).toBe(FORGOT_LIMITS.email.max);

    expect((await v.send('POST', '/api/auth/forgot', { email: 'not an email' })).json().errors).toEqual({ email: words.EMAIL_INVALID });
    let last = 0;
    for (let i = 0; i <= FORGOT_LIMITS.ip.max; i++)
      last = (await v.send('POST', '/api/auth/forgot', { email: `x${i}@example.com` })).statusCode;
    expect(last).toBe(429);
  });
});

describe.each(DB_KINDS)('the first sign-in without OWNER_EMAIL on %s', (kind) => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await testDatabase(kind);
    app = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_STORE: 'memory', SEED_DEMO: 'false' }),
      database,
      logger: false,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('the one-time link asks for an email and a password, saves them, and every start prints a new link until then', async () => {
    const config = { SEED_DEMO: false, OWNER_EMAIL: undefined, OWNER_PASSWORD: undefined };
    const firstLink = await prepare(database, config);
    const restartLink = await prepare(database, config);
    expect(firstLink).toMatch(/^\/config\/login\/link\?token=/);
    expect(restartLink).toMatch(/^\/config\/login\/link\?token=/);
    const v = new Visitor(app);
    // A restart's link replaces the first one.
    expect((await v.get(firstLink!)).headers.location).toBe('/config/login?error=link');
    const follow = await v.get(restartLink!);
    expect(follow.headers.location).toBe('/config/welcome');
    // Every screen leads to the setup screen until it is done.
    expect((await v.get('/config/orders')).headers.location).toBe('/config/welcome');
    const welcome = await v.get('/config/welcome');
    expect(welcome.statusCode).toBe(200);
    expect(welcome.body).toContain('<label for="email">Your email</label>');
    expect(welcome.body).not.toContain(PLACEHOLDER_EMAIL);

    const bad = await v.send(
      'POST',
      '/api/auth/setup',
      form({ email: PLACEHOLDER_EMAIL, password: 'short', confirm: '', crumb: await v.crumb() }),
      { headers: FORM },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(words.fixMany(2));
    expect(bad.body).toContain('<p class="admin-login__field-error" id="email-error">');
    expect(bad.body).toContain('id="email" name="email" aria-describedby="email-hint email-error" aria-invalid="true"');

    const ok = await v.send(
      'POST',
      '/api/auth/setup',
      form({ email: 'Me@Example.com', password: 'my own long password', confirm: 'my own long password', crumb: await v.crumb() }),
      { headers: FORM },
    );
    expect(ok.statusCode, ok.body).toBe(303);
    expect((await v.get('/api/auth/me')).json().email).toBe('me@example.com');
    expect((await v.get('/config/welcome')).headers.location).toBe('/config');
    // Once set up, the setup call changes nothing; and a start prints no link.
    expect(
      (await v.send('POST', '/api/auth/setup', { email: 'other@example.com', password: 'x'.repeat(10), confirm: 'x'.repeat(10) }))
        .statusCode,
    ).toBe(409);
    expect(await prepare(database, config)).toBeNull();
    const again = new Visitor(app);
    expect((await again.send('POST', '/api/auth/login', { email: 'me@example.com', password: 'my own long password' })).statusCode).toBe(
      200,
    );
  });
});

const cli = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ['scripts/cli.mjs', 'owner-link-cli', ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', PUBLIC_URL: '', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });

/** A site whose admin forgot everything: a password nobody knows, on a folder (PGlite) or a database (PostgreSQL). */
async function forgottenSite(
  kind: DbKind,
): Promise<{ env: Record<string, string>; reopen: () => Promise<Database>; cleanup: () => Promise<void> }> {
  if (kind === 'pglite') {
    const dir = tempDir('tessera-owner-link-');
    const d = await open({ dataDir: dir });
    const seed = await seedDemo(d);
    await new OwnerService(d).ensureAdmin(seed.websiteId, 'forgetful@example.com', 'a password nobody remembers');
    await d.close();
    return {
      env: { DATA_DIR: dir },
      reopen: () => open({ dataDir: dir, migrate: false }),
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const d = await testDatabase('postgres');
  const seed = await seedDemo(d);
  await new OwnerService(d).ensureAdmin(seed.websiteId, 'forgetful@example.com', 'a password nobody remembers');
  return { env: { DATABASE_URL: d.url! }, reopen: () => open({ databaseUrl: d.url!, migrate: false }), cleanup: () => d.close() };
}

describe.each(DB_KINDS)('npm run owner-link on %s', (kind) => {
  it('prints a one-time sign-in link for an existing admin that signs them in once', { timeout: 240_000 }, async () => {
    const site = await forgottenSite(kind);
    try {
      const usage = cli([], site.env);
      expect(usage.status).toBe(2);
      expect(usage.stderr).toContain('usage: npm run owner-link -- <admin email>');
      expect(usage.stderr).toContain('  forgetful@example.com');
      const unknown = cli(['someone@example.com'], site.env);
      expect(unknown.status).toBe(1);
      expect(unknown.stderr).toContain('no admin account signs in with someone@example.com');

      const r = cli(['Forgetful@Example.com'], { ...site.env, PUBLIC_URL: 'https://shop.example' });
      expect(r.status, r.stderr).toBe(0);
      const m = /https:\/\/shop\.example(\/config\/login\/link\?token=[\w-]+)/.exec(r.stdout);
      expect(m, r.stdout).not.toBeNull();

      const database = await site.reopen();
      if (kind === 'pglite') {
        // While something holds the PGlite folder, the command says to stop it and changes nothing.
        const locked = cli(['forgetful@example.com'], site.env);
        expect(locked.status).toBe(1);
        expect(locked.stderr).toContain(`holds the PGlite folder`);
        expect(locked.stderr).toContain('Stop it, run `npm run owner-link -- forgetful@example.com` again');
      }
      const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_STORE: 'memory' }), database, logger: false });
      try {
        const v = new Visitor(app);
        const follow = await v.get(m![1]!);
        expect(follow.headers.location).toBe('/config');
        expect((await v.get('/api/auth/me')).json().email).toBe('forgetful@example.com');
        expect((await new Visitor(app).get(m![1]!)).headers.location).toBe('/config/login?error=link');
      } finally {
        await app.close();
        await database.close();
      }
    } finally {
      await site.cleanup();
    }
  });
});
