import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, OWNER, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { hashToken } from '../../../src/db/ids.js';
import { Role } from '../../../src/core/enums.js';
import { ALREADY_MEMBER, INVITE_EXPIRED, INVITE_LIMIT } from '../../../src/server/platform/team-invites.js';

const linkIn = (text: string) => /\/config\/invite\?token=([\w-]+)/.exec(text)?.[1] ?? '';

describe.each(APP_KINDS)('team invitations on %s', (kind) => {
  let t: TestApp;
  let admin: Visitor;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory', PUBLIC_URL: 'https://shop.example' });
    admin = new Visitor(t.app);
    expect((await admin.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  const inviteMail = async (to: string) => {
    const r = await rows<{ text_body: string; html_body: string }>(
      t.database.db,
      sql`select text_body, html_body from mail_outbox where kind = 'team-invite' and to_address = ${to} order by id desc limit 1`,
    );
    return r[0]!;
  };

  it('invites by email with a one-time link from the public origin; the token is stored hashed; the invitee chooses a password and is signed in with the role', async () => {
    const bad = await admin.send('POST', '/api/admin/team/invites', { email: 'nope', role: Role.EDITOR });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.email).toBeDefined();
    expect((await admin.send('POST', '/api/admin/team/invites', { email: 'x@example.com', role: 99 })).statusCode).toBe(400);
    expect((await admin.send('POST', '/api/admin/team/invites', { email: OWNER.email, role: Role.EDITOR })).json().errors).toEqual({
      email: ALREADY_MEMBER,
    });
    expect(
      (await admin.send('POST', '/api/admin/team/invites', { email: 'sam@example.com', role: Role.STORE_MANAGER }, { crumb: false }))
        .statusCode,
    ).toBe(403);

    const r = await admin.send('POST', '/api/admin/team/invites', {
      email: 'Sam@Example.com',
      displayName: 'Sam',
      role: Role.STORE_MANAGER,
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().member).toMatchObject({ email: 'sam@example.com', role: Role.STORE_MANAGER, state: 'invited' });
    const mail = await inviteMail('sam@example.com');
    expect(mail.text_body).toContain('https://shop.example/config/invite?token=');
    const token = linkIn(mail.text_body);
    expect(token.length).toBeGreaterThan(20);
    // At rest only its hash.
    const stored = await rows<{ token_hash: string; expires_at: string | Date }>(
      t.database.db,
      sql`select token_hash, expires_at from owner_sessions where kind = 'invite'`,
    );
    expect(stored.map((s) => s.token_hash)).toEqual([hashToken(token)]);
    expect(JSON.stringify(stored)).not.toContain(token);
    const days = (new Date(stored[0]!.expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    const team = await admin.get('/api/admin/team');
    expect(team.json().members.find((m: { email: string }) => m.email === 'sam@example.com')).toMatchObject({ state: 'invited' });
    expect(team.json().roles.map((x: { name: string }) => x.name)).toEqual([
      'Admin',
      'Website manager',
      'Store manager',
      'Editor',
      'Draft editor',
      'Moderator',
      'Reporting',
      'Billing',
      'Viewer',
      'Commenter',
      'Campaigns editor',
      'Scheduling',
      'Scheduling editor',
      'Scheduling viewer',
    ]);
    // The invited account cannot sign in yet.
    expect(
      (await new Visitor(t.app).send('POST', '/api/auth/login', { email: 'sam@example.com', password: 'anything at all' })).statusCode,
    ).toBe(401);

    const invitee = new Visitor(t.app);
    const page = await invitee.get(`/config/invite?token=${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('sam@example.com');
    expect(page.headers['cache-control']).toBe('no-store');
    expect((await invitee.get('/config/invite?token=not-a-real-token-at-all')).statusCode).toBe(410);
    const short = await invitee.send('POST', '/api/auth/invite', { token, password: 'short', confirm: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors.password).toBe('Use at least 8 characters for the password.');
    expect(
      (await invitee.send('POST', '/api/auth/invite', { token, password: 'a good long password', confirm: 'another one' })).json().errors,
    ).toEqual({ confirm: 'The two passwords do not match.' });
    const ok = await invitee.send('POST', '/api/auth/invite', { token, password: 'a good long password', confirm: 'a good long password' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await invitee.get('/api/auth/me')).json()).toMatchObject({ email: 'sam@example.com', role: Role.STORE_MANAGER });
    // The store manager's powers, not more.
    expect((await invitee.get('/api/admin/dashboard')).statusCode).toBe(200);
    expect((await invitee.get('/api/admin/team')).statusCode).toBe(403);
    // The link works once.
    const again = await new Visitor(t.app).send('POST', '/api/auth/invite', {
      token,
      password: 'a good long password',
      confirm: 'a good long password',
    });
    expect(again.statusCode).toBe(410);
    expect(again.json().message).toBe(INVITE_EXPIRED);
    // The password chosen signs in.
    expect(
      (await new Visitor(t.app).send('POST', '/api/auth/login', { email: 'sam@example.com', password: 'a good long password' })).statusCode,
    ).toBe(200);
    expect((await admin.get('/api/admin/team')).json().members.find((m: { email: string }) => m.email === 'sam@example.com').state).toBe(
      'active',
    );
    // Now a member, a new invitation to the address is refused.
    expect((await admin.send('POST', '/api/admin/team/invites', { email: 'sam@example.com', role: Role.EDITOR })).statusCode).toBe(400);
  });

  it('an expired link is refused; inviting again replaces the link; the last admin cannot be demoted or removed', async () => {
    await admin.send('POST', '/api/admin/team/invites', { email: 'lee@example.com', role: Role.EDITOR });
    const first = linkIn((await inviteMail('lee@example.com')).text_body);
    await admin.send('POST', '/api/admin/team/invites', { email: 'lee@example.com', role: Role.VIEWER });
    const second = linkIn((await inviteMail('lee@example.com')).text_body);
    expect(second).not.toBe(first);
    expect((await new Visitor(t.app).send('POST', '/api/auth/invite', { token: first, password: 'a good long password' })).statusCode).toBe(
      410,
    );
    await t.database.db.execute(
      sql`update owner_sessions set expires_at = now() - interval '1 minute' where token_hash = ${hashToken(second)}`,
    );
    expect((await new Visitor(t.app).get(`/config/invite?token=${second}`)).statusCode).toBe(410);
    expect(
      (await new Visitor(t.app).send('POST', '/api/auth/invite', { token: second, password: 'a good long password' })).statusCode,
    ).toBe(410);
    expect((await admin.get('/api/admin/team')).json().members.find((m: { email: string }) => m.email === 'lee@example.com')).toMatchObject(
      { state: 'expired', role: Role.VIEWER },
    );

    const me = (await admin.get('/api/admin/team')).json().me as string;
    const demote = await admin.send('PUT', `/api/config/team/${me}`, { role: Role.EDITOR });
    expect(demote.statusCode).toBe(400);
    expect(demote.json().message).toBe('A website needs at least one admin.');
    // Removing an invited member takes their link with them.
    const lee = (await admin.get('/api/admin/team')).json().members.find((m: { email: string }) => m.email === 'lee@example.com');
    expect((await admin.send('DELETE', `/api/config/team/${lee.id}`)).statusCode).toBe(200);
    expect((await rows(t.database.db, sql`select 1 from owner_sessions where account_id = ${lee.id}`)).length).toBe(0);
  });

  it('invitations are rate-limited per admin', async () => {
    let last = 0;
    for (let i = 0; i <= INVITE_LIMIT.max; i++)
      last = (await admin.send('POST', '/api/admin/team/invites', { email: `many${i}@example.com`, role: Role.VIEWER })).statusCode;
    expect(last).toBe(429);
  });
});
