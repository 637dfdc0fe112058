/**
 * Issue 38: pre-account takeover through sign-up, session fixation on sign-in, and the site-user cookies.
 *
 * The attacker signs up (or joins a member area) with the victim's address and a password of their own;
 * the victim, who gets the "Confirm your account" email, follows it in their own browser. The attacker's
 * password must never become the account's, and the victim's guest orders must never reach it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { placeOrder } from '../../helpers/orders.js';
import { rows } from '../../../src/server/db-util.js';
import { siteUserMessages } from '../../../src/server/platform/site-users.js';
import { accountData, orderLinks } from '../../../src/server/platform/account-data.js';
import { CONFIRM_TITLE } from '../../../src/web/islands/AccountPage.js';
import { SITE_USER_INFO_COOKIE_NAME } from '../../../src/core/cookies.js';
import { Role } from '../../../src/core/enums.js';

const ATTACKER_PASSWORD = 'the attacker chose this';
const VICTIM_PASSWORD = 'the victim chose this';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const SESSION = 'tessera_site_user';
const SIGN_UP = 'tessera_sign_up';
const CART = 'tessera_cart';

/** The newest link to `path` mailed to `to` (path and query). */
async function mailedLink(t: TestApp, to: string, path: string): Promise<string> {
  const r = await rows<{ text_body: string }>(
    t.database.db,
    sql`select text_body from mail_outbox where to_address = ${to} order by id desc`,
  );
  for (const mail of r) {
    const m = mail.text_body.match(/https?:\/\/\S+/g)?.find((u) => new URL(u).pathname === path && new URL(u).searchParams.has('token'));
    if (m) return new URL(m).pathname + new URL(m).search;
  }
  throw new Error(`no ${path} link mailed to ${to}`);
}
const tokenOf = (link: string) => new URLSearchParams(link.split('?')[1]).get('token')!;

async function formPost(v: Visitor, url: string, fields: Record<string, string>) {
  const body = new URLSearchParams({ crumb: await v.crumb(), ...fields });
  return v.send('POST', url, body.toString(), { crumb: false, headers: FORM });
}

/** Each sign-up from its own address (the sign-up limit is per address; the tests make many). */
let ipSeq = 0;
const fromNewIp = () => ({ 'x-forwarded-for': `10.38.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}` });
const signUp = (v: Visitor, email: string, password: string) =>
  v.send('POST', '/api/site-users/accounts', { email, password }, { headers: fromNewIp() });
const signIn = (v: Visitor, email: string, password: string) => v.send('POST', '/api/site-users/account/session', { email, password });
const who = async (v: Visitor) =>
  (await v.get('/api/site-users/account/session')).json() as { authenticated: boolean; email?: string; xsrfToken?: string };

describe.each(APP_KINDS)('account takeover and session fixation on %s', (kind) => {
  let t: TestApp;
  let ebook: { itemId: string; sku: string; quantity: number };
  beforeAll(async () => {
    // One trusted proxy hop: X-Forwarded-Proto says whether the request was secure, X-Forwarded-For the client.
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory', TRUST_PROXY: 'true' });
    // A digital line: no shipping option needed.
    ebook = { itemId: t.seed.productIds['houseplant-field-guide']!, sku: 'EBOOK-PLANTS', quantity: 1 };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a sign-up with somebody else’s address: their click asks for their own password, and the attacker’s never works', async () => {
    const victimEmail = 'victim.one@example.com';
    const order = await placeOrder(t.app, [ebook], { email: victimEmail });
    const attacker = new Visitor(t.app);
    expect((await signUp(attacker, victimEmail, ATTACKER_PASSWORD)).statusCode).toBe(202);

    // The victim follows the link in their own browser: no session, the link is not spent, a password form.
    const victim = new Visitor(t.app);
    const link = await mailedLink(t, victimEmail, '/account/confirm');
    const opened = await victim.get(link);
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['cache-control']).toBe('no-store');
    expect(opened.cookies.map((c) => c.name)).not.toContain(SESSION);
    expect(opened.body).toContain(CONFIRM_TITLE);
    expect(opened.body).toContain('action="/api/site-users/account/confirm" method="post"');
    expect(opened.body).toContain(`name="token" value="${tokenOf(link)}"`);
    expect((await who(victim)).authenticated).toBe(false);
    // Opening it again still shows the form (a mail scanner's visit spends nothing).
    expect((await new Visitor(t.app).get(link)).statusCode).toBe(200);
    // The attacker's password does not sign in (the address is not confirmed).
    expect((await signIn(new Visitor(t.app), victimEmail, ATTACKER_PASSWORD)).statusCode).not.toBe(200);

    // A short password is refused with the rule, the page drawn again with the token (no JavaScript).
    const short = await formPost(victim, '/api/site-users/account/confirm', { token: tokenOf(link), password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain(siteUserMessages.PASSWORD_TOO_SHORT);
    expect(short.body).toContain(`name="token" value="${tokenOf(link)}"`);
    expect(short.body).not.toContain('value="short"');

    // The victim chooses a password (a plain form post): confirmed, signed in, the guest order is theirs.
    const chosen = await formPost(victim, '/api/site-users/account/confirm', { token: tokenOf(link), password: VICTIM_PASSWORD });
    expect(chosen.statusCode).toBe(303);
    expect(chosen.headers.location).toBe('/account');
    expect((await who(victim)).email).toBe(victimEmail);
    const xsrf = (await who(victim)).xsrfToken!;
    const mine = (await victim.get('/api/site-users/account/orders', { 'x-siteuser-xsrf-token': xsrf })).json().orders as Array<{
      orderNumber: number;
    }>;
    expect(mine.map((o) => o.orderNumber)).toContain(order.orderNumber);

    // The attacker's password is gone for good; their browser's key does nothing; the link is spent.
    const late = await signIn(new Visitor(t.app), victimEmail, ATTACKER_PASSWORD);
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe(siteUserMessages.SIGN_IN_FAILED);
    const replay = await attacker.get(link);
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toBe('/account/login?error=link');
    expect((await who(attacker)).authenticated).toBe(false);
    expect((await signIn(new Visitor(t.app), victimEmail, VICTIM_PASSWORD)).statusCode).toBe(200);
  });

  it('the password form as JSON: signs in with the xsrf token, refuses a spent or made-up link', async () => {
    const email = 'victim.json@example.com';
    await signUp(new Visitor(t.app), email, ATTACKER_PASSWORD);
    const link = await mailedLink(t, email, '/account/confirm');
    const victim = new Visitor(t.app);
    const bad = await victim.send('POST', '/api/site-users/account/confirm', { token: 'made-up', password: VICTIM_PASSWORD });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(siteUserMessages.LINK_EXPIRED);
    const missing = await victim.send('POST', '/api/site-users/account/confirm', {});
    expect(missing.statusCode).toBe(400);
    const ok = await victim.send('POST', '/api/site-users/account/confirm', {
      token: tokenOf(link),
      password: VICTIM_PASSWORD,
      next: '//evil.example/x',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ xsrfToken: expect.any(String), next: '/account' });
    expect(ok.headers['cache-control']).toBe('no-store');
    expect((await victim.get('/api/site-users/account', { 'x-siteuser-xsrf-token': ok.json().xsrfToken })).json().email).toBe(email);
    const again = await new Visitor(t.app).send('POST', '/api/site-users/account/confirm', {
      token: tokenOf(link),
      password: ATTACKER_PASSWORD,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(siteUserMessages.LINK_EXPIRED);
  });

  it('a second sign-up for a pending address replaces the pending one; the link signs in only the browser that signed up', async () => {
    const email = 'victim.two@example.com';
    const attacker = new Visitor(t.app);
    await signUp(attacker, email, ATTACKER_PASSWORD);
    const attackersLink = await mailedLink(t, email, '/account/confirm');
    const victim = new Visitor(t.app);
    const signedUp = await signUp(victim, email, VICTIM_PASSWORD);
    expect(signedUp.statusCode).toBe(202);
    const victimsLink = await mailedLink(t, email, '/account/confirm');
    expect(victimsLink).not.toBe(attackersLink);
    // The earlier link died with the pending account it was for.
    expect((await attacker.get(attackersLink)).headers.location).toBe('/account/login?error=link');
    // In the browser that signed up, the link confirms with the password typed there and signs in.
    const landed = await victim.get(victimsLink);
    expect(landed.statusCode).toBe(303);
    expect(landed.headers.location).toBe('/account');
    expect((await who(victim)).email).toBe(email);
    expect(landed.cookies.find((c) => c.name === SIGN_UP)).toMatchObject({ value: '' });
    expect((await signIn(new Visitor(t.app), email, ATTACKER_PASSWORD)).statusCode).toBe(401);
    expect((await signIn(new Visitor(t.app), email, VICTIM_PASSWORD)).statusCode).toBe(200);
    const accounts = await rows<{ n: number | string }>(t.database.db, sql`select count(*) as n from site_users where email = ${email}`);
    expect(Number(accounts[0]!.n)).toBe(1);
  });

  it('the sign-up key of one account does not confirm another: the attacker’s browser key against the victim’s link', async () => {
    const attacker = new Visitor(t.app);
    await signUp(attacker, 'attacker.own@example.com', ATTACKER_PASSWORD);
    const key = attacker.cookies.get(SIGN_UP)!;
    await signUp(new Visitor(t.app), 'victim.three@example.com', VICTIM_PASSWORD);
    const victimsLink = await mailedLink(t, 'victim.three@example.com', '/account/confirm');
    const withKey = new Visitor(t.app);
    withKey.cookies.set(SIGN_UP, key);
    expect((await withKey.get(victimsLink)).statusCode).toBe(200);
    expect((await who(withKey)).authenticated).toBe(false);
  });

  it('a member join with somebody else’s address grants nothing and sets no password until the owner of the address chooses one', async () => {
    const email = 'victim.member@example.com';
    const attacker = new Visitor(t.app);
    const joined = await attacker.send('POST', '/api/members/areas/fernhill-members/join', { email, password: ATTACKER_PASSWORD });
    expect(joined.statusCode, joined.body).toBe(202);
    expect(joined.cookies.find((c) => c.name === SIGN_UP)).toBeDefined();
    const link = await mailedLink(t, email, '/account/confirm');
    const victim = new Visitor(t.app);
    expect((await victim.get(link)).statusCode).toBe(200);
    const status = async () =>
      rows<{ status: string }>(
        t.database.db,
        sql`select m.status from member_area_members m join site_users u on u.id = m.site_user_id where u.email = ${email}`,
      );
    expect((await status()).map((r) => r.status)).toEqual(['awaiting']);
    // The victim's own join for the pending address replaces the attacker's (and its awaiting membership).
    const again = await victim.send('POST', '/api/members/areas/fernhill-members/join', { email, password: VICTIM_PASSWORD });
    expect(again.statusCode).toBe(202);
    expect((await attacker.get(link)).headers.location).toBe('/account/login?error=link');
    const landed = await victim.get(await mailedLink(t, email, '/account/confirm'));
    expect(landed.statusCode).toBe(303);
    expect(landed.headers.location).toBe('/members/confirmed/fernhill-members');
    expect((await status()).map((r) => r.status)).toEqual(['active']);
    expect((await signIn(new Visitor(t.app), email, ATTACKER_PASSWORD)).statusCode).toBe(401);
  });

  it('rows found by email belong to an account only once its address is proved', async () => {
    const email = 'proved@example.com';
    const order = await placeOrder(t.app, [ebook], { email });
    const v = new Visitor(t.app);
    await signUp(v, email, VICTIM_PASSWORD);
    expect((await v.get(await mailedLink(t, email, '/account/confirm'))).statusCode).toBe(303);
    const [u] = await rows<{ id: string; website_id: string }>(
      t.database.db,
      sql`select id, website_id from site_users where email = ${email}`,
    );
    const user = { id: u!.id, websiteId: u!.website_id, email, displayName: '', language: '' };
    const data = await accountData(t.app);
    const links = await orderLinks(t.app);
    expect((await data.orders({ ...user, confirmed: true }, links)).orders.map((o) => o.orderNumber)).toEqual([order.orderNumber]);
    expect((await data.orders({ ...user, confirmed: false }, links)).orders).toEqual([]);
    await expect(data.setNewsletters({ ...user, confirmed: false }, [])).rejects.toThrow(siteUserMessages.NOT_CONFIRMED);
  });

  it('site-user sign-in never keeps the session token the browser brought (fixation), and ends it', async () => {
    const email = 'fixation@example.com';
    const v = new Visitor(t.app);
    await signUp(v, email, VICTIM_PASSWORD);
    await v.get(await mailedLink(t, email, '/account/confirm'));
    const planted = v.cookies.get(SESSION)!;
    expect((await who(v)).authenticated).toBe(true);

    // A browser carrying a planted token (here a real session) signs in: a new token, and the old one ends.
    const other = new Visitor(t.app);
    other.cookies.set(SESSION, planted);
    const res = await signIn(other, email, VICTIM_PASSWORD);
    expect(res.statusCode).toBe(200);
    const fresh = res.cookies.find((c) => c.name === SESSION)!;
    expect(fresh.value).not.toBe(planted);
    expect((await who(other)).authenticated).toBe(true);
    const stale = new Visitor(t.app);
    stale.cookies.set(SESSION, planted);
    expect((await who(stale)).authenticated).toBe(false);

    // A made-up token is never adopted either.
    const madeUp = new Visitor(t.app);
    madeUp.cookies.set(SESSION, 'a'.repeat(43));
    const again = await signIn(madeUp, email, VICTIM_PASSWORD);
    expect(again.cookies.find((c) => c.name === SESSION)!.value).not.toBe('a'.repeat(43));

    // The confirmation link rotates too.
    const e2 = 'fixation.two@example.com';
    const w = new Visitor(t.app);
    await signUp(w, e2, VICTIM_PASSWORD);
    const before = madeUp.cookies.get(SESSION)!;
    w.cookies.set(SESSION, before);
    const landed = await w.get(await mailedLink(t, e2, '/account/confirm'));
    expect(landed.cookies.find((c) => c.name === SESSION)!.value).not.toBe(before);
    expect((await who(w)).email).toBe(e2);
    expect((await who(madeUp)).authenticated).toBe(false);
  });

  it('site-user sign-in gives the adopted cart a new token: a cart cookie planted before it never opens the user’s cart (cart fixation)', async () => {
    const email = 'cart.fixation@example.com';
    const owner = new Visitor(t.app);
    await signUp(owner, email, VICTIM_PASSWORD);
    await owner.get(await mailedLink(t, email, '/account/confirm'));

    // The attacker makes a cart and plants its cookie in the victim's browser, which then signs in.
    const attacker = new Visitor(t.app);
    expect((await attacker.send('POST', '/api/commerce/shopping-cart/entries', ebook)).statusCode).toBe(200);
    const planted = attacker.cookies.get(CART)!;
    expect(planted).toBeTruthy();
    const victim = new Visitor(t.app);
    victim.cookies.set(CART, planted);
    const signedIn = await signIn(victim, email, VICTIM_PASSWORD);
    expect(signedIn.statusCode).toBe(200);
    const fresh = signedIn.cookies.find((c) => c.name === CART)?.value;
    expect(fresh).toBeTruthy();
    expect(fresh).not.toBe(planted);

    // The victim's cart (the adopted one) grows; the planted cookie reaches none of it.
    expect((await victim.send('POST', '/api/commerce/shopping-cart/entries', ebook)).statusCode).toBe(200);
    const mine = (await victim.get('/api/commerce/shopping-cart')).json() as { totalQuantity: number };
    expect(mine.totalQuantity).toBe(2);
    const seen = (await attacker.get('/api/commerce/shopping-cart')).json() as { totalQuantity?: number; entries?: unknown[] };
    expect(seen.totalQuantity ?? 0).toBe(0);
    expect(seen.entries ?? []).toEqual([]);
  });

  it('owner sign-in never keeps the session token the browser brought (fixation), and ends it', async () => {
    const first = new Visitor(t.app);
    expect((await first.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).statusCode).toBe(200);
    const planted = first.cookies.get('tessera_owner')!;
    const other = new Visitor(t.app);
    other.cookies.set('tessera_owner', planted);
    const res = await other.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'tessera_owner')!.value).not.toBe(planted);
    expect((await other.get('/api/auth/me')).statusCode).toBe(200);
    expect((await first.get('/api/auth/me')).statusCode).toBe(401);

    // The one-time sign-in link and accepting a team invitation rotate too.
    const admin = (await rows<{ id: string }>(t.database.db, sql`select id from accounts where email = ${OWNER.email}`))[0]!.id;
    const byLink = new Visitor(t.app);
    const before = other.cookies.get('tessera_owner')!;
    byLink.cookies.set('tessera_owner', before);
    const landed = await byLink.get(`/config/login/link?token=${await t.app.services.owners.createSignInLink(admin)}`);
    expect(landed.statusCode).toBe(303);
    expect(landed.cookies.find((c) => c.name === 'tessera_owner')!.value).not.toBe(before);
    expect((await other.get('/api/auth/me')).statusCode).toBe(401);
    expect((await byLink.get('/api/auth/me')).statusCode).toBe(200);
    const invited = await byLink.send('POST', '/api/admin/team/invites', { email: `invitee.${kind}@example.com`, role: Role.EDITOR });
    expect(invited.statusCode, invited.body).toBe(201);
    const invitee = new Visitor(t.app);
    const adminToken = byLink.cookies.get('tessera_owner')!;
    invitee.cookies.set('tessera_owner', adminToken);
    const accepted = await invitee.send('POST', '/api/auth/invite', {
      token: tokenOf(await mailedLink(t, `invitee.${kind}@example.com`, '/config/invite')),
      password: VICTIM_PASSWORD,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(invitee.cookies.get('tessera_owner')).not.toBe(adminToken);
    expect((await invitee.get('/api/auth/me')).json().email).toBe(`invitee.${kind}@example.com`);
    expect((await byLink.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('sets the site-user cookies HttpOnly (the session, the sign-up key), SameSite=Lax, Path, and Secure behind HTTPS', async () => {
    for (const https of [false, true]) {
      const headers: Record<string, string> = https ? { 'x-forwarded-proto': 'https' } : {};
      const email = `cookies.${https}@example.com`;
      const v = new Visitor(t.app);
      const up = await v.send(
        'POST',
        '/api/site-users/accounts',
        { email, password: VICTIM_PASSWORD },
        { headers: { ...headers, ...fromNewIp() } },
      );
      expect(up.statusCode, up.body).toBe(202);
      const key = up.cookies.find((c) => c.name === SIGN_UP)!;
      expect(key).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/account/confirm', maxAge: 48 * 3600 });
      expect(!!key.secure).toBe(https);
      const landed = await v.get(await mailedLink(t, email, '/account/confirm'), headers);
      const session = landed.cookies.find((c) => c.name === SESSION)!;
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(!!session.secure).toBe(https);
      const signedIn = (
        await v.send('POST', '/api/site-users/account/session', { email, password: VICTIM_PASSWORD, rememberMe: true }, { headers })
      ).cookies;
      const remembered = signedIn.find((c) => c.name === SESSION)!;
      expect(remembered).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(!!remembered.secure).toBe(https);
      expect(remembered.expires).toBeInstanceOf(Date);
      const info = signedIn.find((c) => c.name === SITE_USER_INFO_COOKIE_NAME)!;
      expect(info.httpOnly).toBeFalsy();
      expect(info).toMatchObject({ sameSite: 'Lax', path: '/' });
      expect(!!info.secure).toBe(https);
    }
  });
});
