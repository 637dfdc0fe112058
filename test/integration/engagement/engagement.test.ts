import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { solveChallenge } from 'altcha-lib/v1';
import { APP_KINDS } from '../../helpers/db.js';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { rows } from '../../../src/server/db-util.js';
import { OwnerService } from '../../../src/server/platform/owners.js';
import { Role, ProductType } from '../../../src/core/enums.js';
import { engagement as em, forms as fm } from '../../../src/core/messages.js';
import { mailingListsOf } from '../../../src/server/engagement/index.js';
import { registerEmailPreview } from '../../../src/server/mail/index.js';
import { signMemberToken } from '../../../src/server/engagement/lists.js';
import { restockServiceOf } from '../../../src/server/restock/index.js';
import { NEWSLETTER_FORM_ID } from '../../../src/server/forms/seed.js';

const API = '/api/config/engagement';
const SIGN_UP = '/api/engagement/newsletter';

let ipSeq = 1;
const freshIp = () => `10.31.${Math.floor(ipSeq / 250)}.${(ipSeq++ % 250) + 1}`;

async function altchaToken(v: Visitor, action: string): Promise<string> {
  const res = await v.get(`/api/captcha/challenge?action=${action}`);
  expect(res.statusCode).toBe(200);
  const ch = res.json() as { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string };
  const sol = await solveChallenge(ch.challenge, ch.salt, ch.algorithm, ch.maxnumber).promise;
  return Buffer.from(
    JSON.stringify({ algorithm: ch.algorithm, challenge: ch.challenge, number: sol!.number, salt: ch.salt, signature: ch.signature }),
  ).toString('base64');
}

/** A visitor posting from its own address (so rate limits of one test do not touch another). */
function visitor(t: TestApp): Visitor & { ip: string } {
  const v = new Visitor(t.app) as Visitor & { ip: string };
  v.ip = freshIp();
  return v;
}

async function signUp(t: TestApp, body: unknown, v = visitor(t)) {
  return t.app.inject({
    method: 'POST',
    url: SIGN_UP,
    remoteAddress: v.ip,
    headers: {
      cookie: 'crumb=engagement-crumb-0123456789',
      'x-csrf-token': 'engagement-crumb-0123456789',
      'content-type': 'application/json',
    },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const POPUP = {
  enabled: true,
  title: 'Ten percent off',
  text: 'Join the list.',
  imageUrl: '',
  imageAlt: '',
  action: 'newsletter',
  buttonText: 'Sign Up',
  buttonUrl: '',
  placeholder: 'Email Address',
  successText: 'Welcome aboard!',
  listId: null,
  anchor: 'bottom-right',
  trigger: 'delay',
  delaySeconds: 0,
  scrollPercent: 50,
  pages: 'all',
  showAgainDays: 0,
  captcha: false,
};

describe.each(APP_KINDS)('engagement on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  let defaultListId = '';

  const members = async (listId: string) =>
    rows<{ id: string; email: string; status: string; source: string }>(
      t.database.db,
      sql`SELECT id, email, status, source FROM mailing_list_members WHERE list_id = ${listId} ORDER BY created, id`,
    );
  const outbox = async (to: string) =>
    rows<{ kind: string; subject: string; text_body: string }>(
      t.database.db,
      sql`SELECT kind, subject, text_body FROM mail_outbox WHERE to_address = ${to} ORDER BY id`,
    );

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
    const lists = await owner.get(`${API}/lists`);
    expect(lists.statusCode).toBe(200);
    const l = (lists.json() as { lists: Array<{ id: string; isDefault: boolean }> }).lists;
    expect(l).toHaveLength(1);
    expect(l[0]!.isDefault).toBe(true);
    defaultListId = l[0]!.id;
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('a popup sign-up joins the default list once, shown in the owner list', async () => {
    const saved = await owner.send('PUT', `${API}/popup`, POPUP);
    expect(saved.statusCode).toBe(200);
    const v1 = (saved.json() as { popup: { version: number } }).popup.version;
    const res = await signUp(t, { email: '  Reader@Example.com ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, status: 'subscribed', message: 'Welcome aboard!' });
    // The same address again (other case) keeps one member.
    expect((await signUp(t, { email: 'reader@example.com' })).statusCode).toBe(200);
    const m = await members(defaultListId);
    expect(m.filter((x) => x.email.toLowerCase() === 'reader@example.com')).toEqual([
      expect.objectContaining({ email: 'Reader@Example.com', status: 'subscribed', source: 'popup' }),
    ]);
    const list = await owner.get(`${API}/lists/${defaultListId}/members`);
    expect(list.statusCode).toBe(200);
    expect((list.json() as { members: Array<{ email: string }> }).members.map((x) => x.email)).toContain('Reader@Example.com');
    // Saving the same popup keeps its version; a change raises it.
    expect(((await owner.send('PUT', `${API}/popup`, POPUP)).json() as { popup: { version: number } }).popup.version).toBe(v1);
    expect(
      ((await owner.send('PUT', `${API}/popup`, { ...POPUP, title: 'Fifteen percent off' })).json() as { popup: { version: number } }).popup
        .version,
    ).toBe(v1 + 1);
  });

  it('bad input: clear 400s in the specs words, 403 without the crumb, 404 when the popup is off; nothing written', async () => {
    await owner.send('PUT', `${API}/popup`, POPUP);
    const before = (await members(defaultListId)).length;
    const blank = await signUp(t, { email: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe(em.EMAIL_REQUIRED);
    const invalid = await signUp(t, { email: 'not-an-address' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toBe(fm.INVALID_EMAIL);
    expect(invalid.json().errors).toEqual({ email: fm.INVALID_EMAIL });
    expect((await signUp(t, '[1,2]')).statusCode).toBe(400);
    expect((await signUp(t, { email: 42 })).statusCode).toBe(400);
    expect((await signUp(t, { email: `${'a'.repeat(300)}@example.com` })).statusCode).toBe(400);
    const noCrumb = await t.app.inject({
      method: 'POST',
      url: SIGN_UP,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'x@example.com' }),
    });
    expect(noCrumb.statusCode).toBe(403);
    await owner.send('PUT', `${API}/popup`, { ...POPUP, enabled: false });
    const off = await signUp(t, { email: 'off@example.com' });
    expect(off.statusCode).toBe(404);
    expect(off.json().message).toBe(em.POPUP_OFF);
    expect((await members(defaultListId)).length).toBe(before);
    // Owner input is checked too.
    const badPopup = await owner.send('PUT', `${API}/popup`, { ...POPUP, anchor: 'middle', delaySeconds: -1 });
    expect(badPopup.statusCode).toBe(400);
    expect(Object.keys(badPopup.json().errors ?? {})).toEqual(expect.arrayContaining(['anchor', 'delaySeconds']));
    const badLink = await owner.send('PUT', `${API}/popup`, { ...POPUP, imageUrl: 'javascript:alert(1)' });
    expect(badLink.statusCode).toBe(400);
    expect((await owner.send('PUT', `${API}/popup`, { ...POPUP, listId: 'no-such-list' })).statusCode).toBe(404);
    expect((await owner.send('POST', `${API}/lists`, { name: '  ' })).json().errors).toEqual({ name: em.LIST_NAME_REQUIRED });
    expect((await owner.send('PUT', `${API}/cookies`, { mode: 'sometimes', text: '', policyUrl: '' })).statusCode).toBe(400);
  });

  it('the popup captcha is checked with the promo-popup action', async () => {
    await owner.send('PUT', `${API}/popup`, { ...POPUP, captcha: true });
    const v = visitor(t);
    expect((await signUp(t, { email: 'captcha@example.com' }, v)).json().message).toBe(fm.CAPTCHA_INCOMPLETE);
    const wrong = await signUp(t, { email: 'captcha@example.com', captchaKey: await altchaToken(v, 'form-block') }, v);
    expect(wrong.statusCode).toBe(400);
    const ok = await signUp(t, { email: 'captcha@example.com', captchaKey: await altchaToken(v, 'promo-popup') }, v);
    expect(ok.statusCode).toBe(200);
    await owner.send('PUT', `${API}/popup`, POPUP);
  });

  it('double opt-in: pending until the emailed link is confirmed by POST; forged links refused', async () => {
    const created = await owner.send('POST', `${API}/lists`, { name: 'VIP', doubleOptIn: true });
    expect(created.statusCode).toBe(201);
    const vip = (created.json() as { list: { id: string } }).list.id;
    await owner.send('PUT', `${API}/popup`, { ...POPUP, listId: vip });
    const res = await signUp(t, { email: 'optin@example.com' });
    expect(res.json()).toMatchObject({ status: 'pending', message: em.CONFIRM_SENT });
    const [member] = await members(vip);
    expect(member).toMatchObject({ email: 'optin@example.com', status: 'pending' });
    const mail = await outbox('optin@example.com');
    expect(mail).toHaveLength(1);
    expect(mail[0]!.kind).toBe('newsletter-confirmation');
    const link = /https?:\/\/\S+\/newsletter\/confirm\/(\S+)/.exec(mail[0]!.text_body);
    expect(link).not.toBeNull();
    const token = link![1]!;
    // GET (a mail scanner) changes nothing.
    const page = await t.app.inject({ method: 'GET', url: `/newsletter/confirm/${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(em.CONFIRM_BUTTON);
    expect((await members(vip))[0]!.status).toBe('pending');
    const posted = await t.app.inject({ method: 'POST', url: `/newsletter/confirm/${token}` });
    expect(posted.statusCode).toBe(303);
    const done = await t.app.inject({ method: 'GET', url: String(posted.headers.location) });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain(em.CONFIRMED_TITLE);
    expect((await members(vip))[0]!.status).toBe('subscribed');
    // A forged or cross-purpose token does nothing.
    const forged = `${member!.id}.${'A'.repeat(43)}`;
    expect((await t.app.inject({ method: 'POST', url: `/newsletter/confirm/${forged}` })).statusCode).toBe(400);
    const key = await mailingListsOf(t.app).key();
    expect(
      (await t.app.inject({ method: 'POST', url: `/newsletter/unsubscribe/${signMemberToken(key, 'confirm', member!.id)}` })).statusCode,
    ).toBe(400);
    expect((await members(vip))[0]!.status).toBe('subscribed');
    await owner.send('PUT', `${API}/popup`, POPUP);
  });

  it('unsubscribe (300): signed link, GET shows the page, POST and one-click remove; tampered links refused', async () => {
    await signUp(t, { email: 'leaver@example.com' });
    const member = (await members(defaultListId)).find((x) => x.email === 'leaver@example.com')!;
    const url = await mailingListsOf(t.app).unsubscribeUrl(member.id);
    const path = new URL(url, 'http://x').pathname;
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('page-type-300');
    expect(page.body).toContain('leaver@example.com');
    expect((await members(defaultListId)).find((x) => x.id === member.id)!.status).toBe('subscribed');
    const tampered = path.slice(0, -2) + (path.endsWith('AA') ? 'BB' : 'AA');
    expect((await t.app.inject({ method: 'POST', url: tampered })).statusCode).toBe(400);
    const posted = await t.app.inject({ method: 'POST', url: path });
    expect(posted.statusCode).toBe(303);
    const done = await t.app.inject({ method: 'GET', url: String(posted.headers.location) });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain(em.UNSUBSCRIBED_TITLE);
    expect((await members(defaultListId)).find((x) => x.id === member.id)!.status).toBe('unsubscribed');
    // RFC 8058 one-click from a mail client (no crumb, no session).
    const again = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe('Unsubscribed');
    // Signing up again re-subscribes.
    await signUp(t, { email: 'leaver@example.com' });
    expect((await members(defaultListId)).find((x) => x.id === member.id)!.status).toBe('subscribed');
  });

  it('CSV export neutralises formulas and quotes; owners only', async () => {
    await signUp(t, { email: '=cmd@example.com' });
    await signUp(t, { email: '-"q"@example.com' });
    const res = await owner.get(`${API}/lists/${defaultListId}/export.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename="Newsletter.csv"');
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('Email,Status,Source,Signed Up,Confirmed,Unsubscribed,Unsubscribe Link');
    // Each subscribed member's own one-click link works.
    const cmd = lines.find((l) => l.startsWith(`"'=cmd@`))!;
    const link = /(https?:\/\/[^,]+\/newsletter\/unsubscribe\/[^,\s]+)$/.exec(cmd)![1]!;
    expect((await t.app.inject({ method: 'GET', url: new URL(link).pathname })).body).toContain('=cmd@example.com');
    expect(res.body).toContain(`"'=cmd@example.com",subscribed,popup,`);
    expect(res.body).toContain(`"'-""q""@example.com",subscribed,popup,`);
    expect((await t.app.inject({ method: 'GET', url: `${API}/lists/${defaultListId}/export.csv` })).statusCode).toBe(401);
    expect((await owner.get(`${API}/lists/no-such-list/export.csv`)).statusCode).toBe(404);
  });

  it('a newsletter form submission and the restock opt-in join the same list', async () => {
    const v = new Visitor(t.app);
    const key = ((await v.send('POST', '/api/form/FormSubmissionKey')).json() as { key: string }).key;
    const form = await rows<{ fields: Array<{ id: string; type: string }> }>(
      t.database.db,
      sql`SELECT fields FROM forms WHERE id = ${NEWSLETTER_FORM_ID}`,
    );
    const emailField = form[0]!.fields.find((f) => f.type === 'email')!.id;
    const sub = await v.send('POST', '/api/form/SaveFormSubmission', {
      formId: NEWSLETTER_FORM_ID,
      key,
      form: JSON.stringify({ [emailField]: 'former@example.com' }),
      captchaKey: await altchaToken(v, 'newsletter-block'),
    });
    expect(sub.statusCode).toBe(200);
    expect((await members(defaultListId)).find((x) => x.email === 'former@example.com')).toMatchObject({
      status: 'subscribed',
      source: 'form',
    });

    const sold = await rows<{ id: string; item_id: string }>(
      t.database.db,
      sql`SELECT v.id, v.item_id FROM product_variants v JOIN items i ON i.id = v.item_id
          WHERE NOT v.unlimited AND v.qty_in_stock = 0 AND coalesce((i.structured_content->>'productType')::int, ${ProductType.PHYSICAL}) = ${ProductType.PHYSICAL} LIMIT 1`,
    );
    expect(sold[0]).toBeDefined();
    await owner.send('PUT', '/api/site-users/account/notifications/restock/settings', { settings: { mailingListSignUpEnabled: true } });
    const restock = restockServiceOf(t.app);
    await restock.signUp({ productId: sold[0]!.item_id, variantId: sold[0]!.id, email: 'waiter@example.com', isJoinMailingList: true });
    await restock.signUp({ productId: sold[0]!.item_id, variantId: sold[0]!.id, email: 'nojoin@example.com', isJoinMailingList: false });
    const m = await members(defaultListId);
    expect(m.find((x) => x.email === 'waiter@example.com')).toMatchObject({ status: 'subscribed', source: 'restock' });
    expect(m.find((x) => x.email === 'nojoin@example.com')).toBeUndefined();
  });

  it('cookie banner: opt-in asks analytics first, gates owner scripts, and the no-JS choice sets the cookies', async () => {
    await owner.send('PUT', '/api/site-header-footer', {
      header: '<script>window.ownerHeader = 1</script>',
      footer: '<script type="application/ld+json">{"a":1}</script>',
    });
    const saved = await owner.send('PUT', `${API}/cookies`, { mode: 'opt-in', text: '', policyUrl: '/privacy' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().cookiePolicy).toBe('ask');
    const v = new Visitor(t.app);
    const home = await v.get('/');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('data-island="CookieBanner"');
    expect(home.body).toContain(em.BANNER_REJECT);
    // The admin's scripts carry the page's CSP nonce (plugins/csp.ts); gated ones wait as text/plain.
    expect(home.body).toMatch(
      /<script type="text\/plain" data-tessera-consent="marketing" data-type="" nonce="[A-Za-z0-9+/=]+">window\.ownerHeader = 1<\/script>/,
    );
    expect(home.body).toMatch(/<script nonce="[A-Za-z0-9+/=]+" type="application\/ld\+json">\{"a":1\}<\/script>/);
    expect(home.body).toMatch(/"cookiePolicy":"ask"/);
    // The plain form post: refuse, come back; census cookies cleared.
    v.cookies.set('ss_cvr', 'abc|1|1|1|1');
    const post = await v.send('POST', '/api/engagement/consent', 'choice=reject&back=%2Fshop', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(post.statusCode).toBe(303);
    expect(post.headers.location).toBe('/shop');
    expect(v.cookies.get('tessera_consent')).toBe('denied');
    expect(v.cookies.get('tessera_cookie_choices')).toBe('analytics:0|marketing:0');
    expect(v.cookies.has('ss_cvr')).toBe(false);
    const after = await v.get('/');
    expect(after.body).not.toContain('data-island="CookieBanner"');
    expect(after.body).toContain('data-tessera-consent="marketing"');
    // Accepting runs the owner's scripts as written; an open redirect is refused.
    const acc = await v.send('POST', '/api/engagement/consent', 'choice=accept&back=%2F%2Fevil.example', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(acc.headers.location).toBe('/');
    expect((await v.get('/')).body).toMatch(/<script nonce="[A-Za-z0-9+/=]+">window\.ownerHeader = 1<\/script>/);
    expect(
      (
        await v.send('POST', '/api/engagement/consent', 'choice=maybe', {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).statusCode,
    ).toBe(400);
    // Notice mode: an information banner until dismissed; cookies stay implied.
    const notice = await owner.send('PUT', `${API}/cookies`, { mode: 'notice', text: 'We <3 cookies', policyUrl: '' });
    expect(notice.json().cookiePolicy).toBe('implied');
    const n = new Visitor(t.app);
    const first = await n.get('/');
    expect(first.body).toContain('We &lt;3 cookies');
    expect(first.body).toContain(`>${em.BANNER_DISMISS}</button>`);
    expect(first.body).not.toContain('data-tessera-consent');
    expect(
      (
        await n.send('POST', '/api/engagement/consent', 'choice=dismiss', {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).statusCode,
    ).toBe(303);
    expect((await n.get('/')).body).not.toContain('data-island="CookieBanner"');
    const off = await owner.send('PUT', `${API}/cookies`, { mode: 'off', text: '', policyUrl: '' });
    expect(off.json().cookiePolicy).toBe('implied');
    expect((await new Visitor(t.app).get('/')).body).not.toContain('data-island="CookieBanner"');
    await owner.send('PUT', '/api/site-header-footer', { header: '', footer: '' });
  });

  it('the popup island is on the chosen pages only', async () => {
    await owner.send('PUT', `${API}/popup`, { ...POPUP, pages: ['/shop/*'] });
    const v = new Visitor(t.app);
    const shop = await v.get('/shop');
    expect(shop.body).toContain('data-island="PromoPopup"');
    expect(shop.body).toContain('&quot;anchor&quot;:&quot;bottom-right&quot;');
    expect((await v.get('/')).body).not.toContain('data-island="PromoPopup"');
    expect((await v.get('/cart')).body).not.toContain('data-island="PromoPopup"');
    await owner.send('PUT', `${API}/popup`, POPUP);
  });

  it('email preview (301): every email, rendered by its sending function; the registry takes more', async () => {
    registerEmailPreview('test-extra', { label: 'Extra', render: (ctx) => ({ subject: `Hello from ${ctx.storeName}`, text: 'x' }) });
    const list = await owner.get(`${API}/emails`);
    expect(list.statusCode).toBe(200);
    const names = (list.json() as { emails: Array<{ name: string }> }).emails.map((e) => e.name);
    expect(names).toEqual(
      expect.arrayContaining(['order-confirmation', 'restock', 'form-notification', 'newsletter-confirmation', 'test-extra']),
    );
    for (const name of names) {
      const r = await owner.get(`${API}/emails/${name}`);
      expect(r.statusCode, name).toBe(200);
      const e = r.json() as { pageType: number; email: { subject: string; text: string } };
      expect(e.pageType).toBe(301);
      expect(e.email.subject.length, name).toBeGreaterThan(0);
    }
    const order = (await owner.get(`${API}/emails/order-confirmation`)).json() as { email: { subject: string; text: string } };
    expect(order.email.subject).toMatch(/^Your order #1001 from /);
    expect(order.email.text).toContain('Linen Shirt');
    expect((await owner.get(`${API}/emails/nope`)).statusCode).toBe(404);
  });

  it('roles: anonymous 401, a role without access 403', async () => {
    const owners = new OwnerService(t.database);
    const o = await owners.create({
      websiteId: t.seed.websiteId,
      email: `reporting-${kind}@example.com`,
      password: 'a long enough password',
      role: Role.REPORTING,
    });
    const token = (await owners.startSession(o.id)).token;
    for (const url of [`${API}/popup`, `${API}/cookies`, `${API}/lists`, `${API}/emails`, `${API}/lists/${defaultListId}/members`]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      expect((await t.app.inject({ method: 'GET', url, headers: { cookie: `tessera_owner=${token}` } })).statusCode, url).toBe(403);
    }
  });
});
