import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { DB_KINDS } from '../../helpers/db.js';
import { rows } from '../../../src/server/db-util.js';
import { SESSION_HOURS } from '../../../src/server/platform/site-users.js';

const PASSWORD = 'a long enough secret';

/** Signs up, confirms and signs in a site user; answers the visitor holding the session cookie. */
async function signedIn(t: TestApp, email: string): Promise<Visitor> {
  const v = new Visitor(t.app);
  expect((await v.send('POST', '/api/site-users/accounts', { email, password: PASSWORD, displayName: 'Ada' })).statusCode).toBe(202);
  const [mail] = await rows<{ text_body: string }>(
    t.database.db,
    sql`select text_body from mail_outbox where to_address = ${email} order by id desc limit 1`,
  );
  const link = new URL(/https?:\/\/\S+/.exec(mail!.text_body)![0]);
  expect((await v.get(link.pathname + link.search)).statusCode).toBe(303);
  expect(v.cookies.get('tessera_site_user')).toBeTruthy();
  return v;
}

const authenticated = async (v: Visitor) =>
  ((await v.get('/api/site-users/account/session')).json() as { authenticated: boolean }).authenticated;

describe.each(DB_KINDS)('site-user sessions on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reads a signed-in visitor’s session once per write to the site-user tables on PGlite, and for every request on PostgreSQL', async () => {
    const v = await signedIn(t, 'reads@example.com');
    const before = t.app.siteUsers.sessionReads;
    for (let i = 0; i < 4; i++) expect(await authenticated(v)).toBe(true);
    expect(t.app.siteUsers.sessionReads - before).toBe(kind === 'pglite' ? 1 : 4);
    // A write to another account's row still moves the kept sessions out (the trigger is per statement): one read more.
    await t.database.db.execute(
      sql`update site_user_profiles set display_name = 'Someone' where site_user_id in (select id from site_users where email = 'nobody@example.com')`,
    );
    const after = t.app.siteUsers.sessionReads;
    expect(await authenticated(v)).toBe(true);
    expect(await authenticated(v)).toBe(true);
    expect(t.app.siteUsers.sessionReads - after).toBe(kind === 'pglite' ? 1 : 2);
  });

  it('sees a session ended, expired or an account disabled by plain SQL at the next request', async () => {
    const ended = await signedIn(t, 'ended@example.com');
    expect(await authenticated(ended)).toBe(true);
    await t.database.db.execute(
      sql`delete from site_user_sessions where site_user_id in (select id from site_users where email = 'ended@example.com')`,
    );
    expect(await authenticated(ended)).toBe(false);

    const expired = await signedIn(t, 'expired@example.com');
    expect(await authenticated(expired)).toBe(true);
    await t.database.db.execute(
      sql`update site_user_sessions set expires_at = now() - interval '1 minute' where site_user_id in (select id from site_users where email = 'expired@example.com')`,
    );
    expect(await authenticated(expired)).toBe(false);

    const disabled = await signedIn(t, 'disabled@example.com');
    expect(await authenticated(disabled)).toBe(true);
    await t.database.db.execute(sql`update site_users set disabled = true where email = 'disabled@example.com'`);
    expect(await authenticated(disabled)).toBe(false);
  });

  it('checks a kept session’s expiry at each use, with no write in between', async () => {
    const v = await signedIn(t, 'clock@example.com');
    const token = v.cookies.get('tessera_site_user')!;
    const now = Date.now();
    expect(await t.app.siteUsers.fromSession(token, new Date(now))).not.toBeNull();
    // The browser-session cookie's session lasts SESSION_HOURS: past it, the same (kept) session is refused.
    expect(await t.app.siteUsers.fromSession(token, new Date(now + (SESSION_HOURS + 1) * 3_600_000))).toBeNull();
    expect(await t.app.siteUsers.fromSession(token, new Date(now))).not.toBeNull();
    // Unknown tokens are refused and not kept.
    const reads = t.app.siteUsers.sessionReads;
    expect(await t.app.siteUsers.fromSession('no-such-session', new Date(now))).toBeNull();
    expect(await t.app.siteUsers.fromSession('no-such-session', new Date(now))).toBeNull();
    expect(t.app.siteUsers.sessionReads - reads).toBe(2);
  });
});
