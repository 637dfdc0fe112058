import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { siteUserMessages } from '../../../src/server/platform/site-users.js';

const PASSWORD = 'a long enough secret';

/** Every reset token mailed to an address, oldest first. */
async function resetTokens(t: TestApp, to: string): Promise<string[]> {
  const r = await rows<{ text_body: string }>(
    t.database.db,
    sql`select text_body from mail_outbox where to_address = ${to} and kind = 'site-user-reset' order by id`,
  );
  return r.map((m) => new URL(/https?:\/\/\S+\/account\/reset\?token=\S+/.exec(m.text_body)![0]).searchParams.get('token')!);
}

async function confirmedUser(t: TestApp, email: string): Promise<void> {
  const v = new Visitor(t.app);
  expect((await v.send('POST', '/api/site-users/accounts', { email, password: PASSWORD, displayName: 'Ada' })).statusCode).toBe(202);
  const [m] = await rows<{ text_body: string }>(
    t.database.db,
    sql`select text_body from mail_outbox where to_address = ${email} and kind = 'site-user-confirm'`,
  );
  const link = new URL(/https?:\/\/\S+\/account\/confirm\?token=\S+/.exec(m!.text_body)![0]);
  expect((await v.get(link.pathname + link.search)).statusCode).toBe(303);
}

describe.each(APP_KINDS)('reset links: only the newest one works (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
  });
  afterAll(() => t.close());

  it('issuing a new reset link kills the older one', async () => {
    await confirmedUser(t, 'twice@example.com');
    const v = new Visitor(t.app);
    expect((await v.send('POST', '/api/site-users/account/password-reset', { email: 'twice@example.com' })).statusCode).toBe(202);
    expect((await v.send('POST', '/api/site-users/account/password-reset', { email: 'twice@example.com' })).statusCode).toBe(202);
    const [older, newer] = await resetTokens(t, 'twice@example.com');
    const stale = await v.send('POST', '/api/site-users/account/password', { token: older, password: 'the older link password' });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().message).toBe(siteUserMessages.LINK_EXPIRED);
    expect(
      (await v.send('POST', '/api/site-users/account/password', { token: newer, password: 'the newer link password' })).statusCode,
    ).toBe(200);
  });

  it('using a reset link kills every other reset link of the account', async () => {
    await confirmedUser(t, 'race@example.com');
    const v = new Visitor(t.app);
    expect((await v.send('POST', '/api/site-users/account/password-reset', { email: 'race@example.com' })).statusCode).toBe(202);
    const [first] = await resetTokens(t, 'race@example.com');
    // A second link issued by another path (a leaked mailbox copy made earlier): put one straight in the table.
    await t.database.db.execute(sql`insert into site_user_tokens (token_hash, site_user_id, kind, expires_at)
      select 'older-token-hash', site_user_id, 'reset', now() + interval '1 hour' from site_user_tokens where kind = 'reset' and site_user_id = (select id from site_users where email = 'race@example.com')`);
    expect((await v.send('POST', '/api/site-users/account/password', { token: first, password: 'a brand new secret' })).statusCode).toBe(
      200,
    );
    const left = await rows(
      t.database.db,
      sql`select 1 from site_user_tokens t join site_users u on u.id = t.site_user_id where u.email = 'race@example.com' and t.kind = 'reset'`,
    );
    expect(left).toHaveLength(0);
  });

  it('an owner sign-in link: a newer one kills the older, and using one kills the rest', async () => {
    const owners = t.app.services.owners;
    const [admin] = await rows<{ id: string }>(t.database.db, sql`select id from accounts order by created_at limit 1`);
    const a = await owners.createSignInLink(admin!.id);
    const b = await owners.createSignInLink(admin!.id);
    const v = new Visitor(t.app);
    const stale = await v.get(`/config/login/link?token=${a}`);
    expect(stale.headers.location).toMatch(/^\/config\/login\?error=/);
    const c = await owners.createSignInLink(admin!.id);
    expect((await v.get(`/config/login/link?token=${c}`)).headers.location).toBe('/config');
    expect((await new Visitor(t.app).get(`/config/login/link?token=${b}`)).headers.location).toMatch(/^\/config\/login\?error=/);
  });
});
