/**
 * The newsletter link pages (confirm, unsubscribe) drawn in the site's layout, and the mailing list a
 * newsletter form joins (chosen in the form builder, checked on save, the default list when deleted).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { APP_KINDS } from '../../helpers/db.js';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { rows } from '../../../src/server/db-util.js';
import { engagement as em } from '../../../src/core/messages.js';
import { mailingListsOf } from '../../../src/server/engagement/index.js';
import { configureForms } from '../../../src/server/forms/service.js';

const API = '/api/config/engagement';
const TITLE = "Tessa's <Shop> & Co";
/** The title as the theme's `html` formatter writes it, and in <title> (which escapes quotes too). */
const TITLE_HTML = "Tessa's &lt;Shop&gt; &amp; Co";
const TITLE_TAG = 'Tessa&#39;s &lt;Shop&gt; &amp; Co';

interface Form {
  id: string;
  kind: string;
  storage: { listId?: string | null };
}

const newsletterForm = (id: string, listId: unknown) => ({
  id,
  name: `Newsletter ${id}`,
  kind: 'newsletter',
  fields: [{ id: 'email', type: 'email', title: 'Email', required: true }],
  submitButtonText: 'Join',
  captcha: { enabled: false },
  storage: { notify: false, listId },
});

/** The page's analytics data island, parsed (null when it has none). */
function pageData(html: string): { track: boolean; pageType: number } | null {
  const m = /<script type="application\/json" id="tessera-page">([^<]*)<\/script>/.exec(html);
  return m ? (JSON.parse(m[1]!) as { track: boolean; pageType: number }) : null;
}

describe.each(APP_KINDS)('newsletter pages and form lists on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  let defaultListId = '';

  const members = async (listId: string) =>
    rows<{ id: string; email: string; status: string; source: string; source_ref: string | null }>(
      t.database.db,
      sql`SELECT id, email, status, source, source_ref FROM mailing_list_members WHERE list_id = ${listId} ORDER BY created, id`,
    );
  const outbox = async (to: string) =>
    rows<{ kind: string; text_body: string }>(
      t.database.db,
      sql`SELECT kind, text_body FROM mail_outbox WHERE to_address = ${to} ORDER BY id`,
    );
  const createList = async (name: string, doubleOptIn = false) => {
    const r = await owner.send('POST', `${API}/lists`, { name, doubleOptIn });
    expect(r.statusCode).toBe(201);
    return (r.json() as { list: { id: string } }).list.id;
  };
  /** A visitor's submission of a form through the JavaScript path (a fresh key each time). */
  const submit = async (formId: string, email: string) => {
    const v = new Visitor(t.app);
    const key = ((await v.send('POST', '/api/form/FormSubmissionKey')).json() as { key: string }).key;
    const res = await v.send('POST', '/api/form/SaveFormSubmission', { formId, key, form: JSON.stringify({ email }) });
    expect(res.statusCode, res.body).toBe(200);
  };
  const subscribeDefault = async (email: string) => {
    const r = await t.database.db.transaction((tx) =>
      mailingListsOf(t.app).subscribe(tx, { websiteId: t.seed.websiteId, email, source: 'owner' }),
    );
    return r.memberId;
  };
  const themed = (html: string) => {
    expect(html).toContain('<link rel="stylesheet" href="/theme/site.css">');
    expect(html).toContain('class="site-header"');
    expect(html).toContain(`<a class="site-title" href="/">${TITLE_HTML}</a>`);
    expect(html).toContain('page-type-300');
    expect(html).toContain(`<a href="/">Back to ${TITLE_HTML}</a>`);
    // Not counted in analytics: no client bundle and a data island that says so.
    expect(html).not.toContain('<script type="module"');
    expect(html.match(/id="tessera-page"/g)).toHaveLength(1);
    expect(pageData(html)).toMatchObject({ track: false, pageType: 300 });
  };

  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory' });
    configureForms(t.app, { perIp: { max: 1000, windowMs: 60_000 }, perForm: { max: 1000, windowMs: 60_000 } });
    await t.database.db.execute(sql`UPDATE websites SET title = ${TITLE} WHERE id = ${t.seed.websiteId}`);
    // Written behind the app's back (no content-version move), so its caches are told.
    t.app.siteCache.clear();
    t.app.services.websites.invalidate();
    owner = new Visitor(t.app);
    expect((await owner.send('POST', '/api/auth/login', OWNER)).statusCode).toBe(200);
    const l = ((await owner.get(`${API}/lists`)).json() as { lists: Array<{ id: string; isDefault: boolean }> }).lists;
    defaultListId = l.find((x) => x.isDefault)!.id;
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('unsubscribe: GET and the no-JavaScript POST are drawn in the theme, with the same statuses and texts; escaped', async () => {
    const email = '<i>reader</i>@example.com';
    const memberId = await subscribeDefault(email);
    const path = new URL(await mailingListsOf(t.app).unsubscribeUrl(memberId), 'http://x').pathname;

    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    themed(page.body);
    expect(page.body).toContain(`<title>${em.UNSUBSCRIBE_TITLE} — ${TITLE_TAG}</title>`);
    expect(page.body).toMatch(new RegExp(`<h1 class="page-title"[^>]*>${em.UNSUBSCRIBE_TITLE}</h1>`));
    expect(page.body).toContain(
      `Stop newsletter emails from <strong>${TITLE_HTML}</strong> to <strong>&lt;i&gt;reader&lt;/i&gt;@example.com</strong>?`,
    );
    expect(page.body).not.toContain('<i>reader</i>');
    expect(page.body).toContain(`<form class="newsletter-page__form" method="post" action="${path}">`);
    expect(page.body).toContain(`<button type="submit" class="button">${em.UNSUBSCRIBE_BUTTON}</button>`);
    // GET changes nothing (mail scanners follow links).
    expect((await members(defaultListId)).find((x) => x.id === memberId)!.status).toBe('subscribed');

    const posted = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    // POST/redirect/GET: back to the link's page, which now says so.
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe(path);
    const done = await t.app.inject({ method: 'GET', url: path });
    expect(done.statusCode).toBe(200);
    themed(done.body);
    expect(done.body).toMatch(new RegExp(`<h1 class="page-title"[^>]*>${em.UNSUBSCRIBED_TITLE}</h1>`));
    expect(done.body).toContain(
      `<strong>&lt;i&gt;reader&lt;/i&gt;@example.com</strong> will get no more newsletter emails from <strong>${TITLE_HTML}</strong>.`,
    );
    expect(done.body).not.toContain('<form class="newsletter-page__form"');
    expect((await members(defaultListId)).find((x) => x.id === memberId)!.status).toBe('unsubscribed');

    // Following the link again shows the unsubscribed page; one-click stays plain text.
    const again = await t.app.inject({ method: 'GET', url: path });
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain(em.UNSUBSCRIBED_TITLE);
    themed(again.body);
    const oneClick = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.headers['content-type']).toContain('text/plain');
    expect(oneClick.body).toBe('Unsubscribed');

    // Invalid links: 400, themed, with the same texts; one-click gets plain text.
    const bad = path.slice(0, -2) + (path.endsWith('AA') ? 'BB' : 'AA');
    for (const method of ['GET', 'POST'] as const) {
      const r = await t.app.inject({ method, url: bad });
      expect(r.statusCode).toBe(400);
      themed(r.body);
      expect(r.body).toMatch(new RegExp(`<h1 class="page-title"[^>]*>${em.LINK_INVALID_TITLE}</h1>`));
      expect(r.body).toContain(`role="alert">${em.LINK_INVALID}</p>`);
    }
    const badOneClick = await t.app.inject({
      method: 'POST',
      url: bad,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(badOneClick.statusCode).toBe(400);
    expect(badOneClick.body).toBe(em.LINK_INVALID);
  });

  it('a newsletter form set to a double opt-in list: the sign-up is pending there, and the confirm pages are themed', async () => {
    const vip = await createList('VIP <club>', true);
    const created = await owner.send('POST', '/api/config/forms', newsletterForm('vip-news', vip));
    expect(created.statusCode, created.body).toBe(200);
    expect((created.json() as { form: Form }).form.storage.listId).toBe(vip);

    await submit('vip-news', 'vip@example.com');
    expect(await members(vip)).toEqual([
      expect.objectContaining({ email: 'vip@example.com', status: 'pending', source: 'form', source_ref: 'form:vip-news' }),
    ]);
    expect((await members(defaultListId)).some((x) => x.email === 'vip@example.com')).toBe(false);
    const mail = await outbox('vip@example.com');
    expect(mail.map((x) => x.kind)).toEqual(['newsletter-confirmation']);
    const path = new URL(/https?:\/\/\S+\/newsletter\/confirm\/\S+/.exec(mail[0]!.text_body)![0]).pathname;

    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    themed(page.body);
    expect(page.body).toContain(`<title>${em.CONFIRM_TITLE} — ${TITLE_TAG}</title>`);
    expect(page.body).toContain(`Subscribe <strong>vip@example.com</strong> to the <strong>${TITLE_HTML}</strong> newsletter?`);
    expect(page.body).toContain(`<button type="submit" class="button">${em.CONFIRM_BUTTON}</button>`);
    expect((await members(vip))[0]!.status).toBe('pending');

    const posted = await t.app.inject({ method: 'POST', url: path });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe(path);
    const done = await t.app.inject({ method: 'GET', url: path });
    expect(done.statusCode).toBe(200);
    themed(done.body);
    expect(done.body).toMatch(new RegExp(`<h1 class="page-title"[^>]*>${em.CONFIRMED_TITLE}</h1>`));
    expect(done.body).toContain(`<strong>vip@example.com</strong> is now subscribed to the <strong>${TITLE_HTML}</strong> newsletter.`);
    expect((await members(vip))[0]!.status).toBe('subscribed');
    const seen = await t.app.inject({ method: 'GET', url: path });
    expect(seen.statusCode).toBe(200);
    expect(seen.body).toContain(em.CONFIRMED_TITLE);

    const forged = path.slice(0, -2) + (path.endsWith('AA') ? 'BB' : 'AA');
    for (const method of ['GET', 'POST'] as const) {
      const r = await t.app.inject({ method, url: forged });
      expect(r.statusCode).toBe(400);
      themed(r.body);
      expect(r.body).toContain(em.LINK_INVALID);
    }
  });

  it('a form set to a list adds sign-ups to that list; once the list is deleted they go to the default list', async () => {
    const spring = await createList('Spring sale');
    expect((await owner.send('POST', '/api/config/forms', newsletterForm('spring-news', spring))).statusCode).toBe(200);
    await submit('spring-news', 'first@example.com');
    expect((await members(spring)).map((x) => x.email)).toEqual(['first@example.com']);
    expect((await members(defaultListId)).some((x) => x.email === 'first@example.com')).toBe(false);

    // There is no delete call yet: the list goes the way any other deletion would (its members with it).
    await t.database.db.execute(sql`DELETE FROM mailing_lists WHERE id = ${spring}`);
    await submit('spring-news', 'second@example.com');
    expect((await members(defaultListId)).find((x) => x.email === 'second@example.com')).toMatchObject({
      status: 'subscribed',
      source: 'form',
      source_ref: 'form:spring-news',
    });
    // The stored setting is left as it was; saving it again is refused until another list is chosen.
    const stored = ((await owner.get('/api/config/forms/spring-news')).json() as { form: Form }).form;
    expect(stored.storage.listId).toBe(spring);
    const resave = await owner.send('PUT', '/api/config/forms/spring-news', newsletterForm('spring-news', spring));
    expect(resave.statusCode).toBe(400);
    expect((await owner.send('PUT', '/api/config/forms/spring-news', newsletterForm('spring-news', null))).statusCode).toBe(200);
  });

  it('the popup set to a list that was deleted since signs visitors up to the default list', async () => {
    const summer = await createList('Summer popup');
    const { popup } = (await owner.get(`${API}/popup`)).json() as { popup: Record<string, unknown> };
    const { version: _v, ...rest } = popup;
    const saved = await owner.send('PUT', `${API}/popup`, { ...rest, enabled: true, action: 'newsletter', captcha: false, listId: summer });
    expect(saved.statusCode, saved.body).toBe(200);
    const visitor = new Visitor(t.app);
    expect((await visitor.send('POST', '/api/engagement/newsletter', { email: 'popup-one@example.com' })).statusCode).toBe(200);
    expect((await members(summer)).map((x) => x.email)).toEqual(['popup-one@example.com']);
    await t.database.db.execute(sql`DELETE FROM mailing_lists WHERE id = ${summer}`);
    const after = await visitor.send('POST', '/api/engagement/newsletter', { email: 'popup-two@example.com' });
    expect(after.statusCode, after.body).toBe(200);
    expect((await members(defaultListId)).find((x) => x.email === 'popup-two@example.com')).toMatchObject({
      status: 'subscribed',
      source: 'popup',
    });
  });

  it('no list chosen (absent, null or blank) is the default list', async () => {
    const form = newsletterForm('plain-news', '');
    const created = await owner.send('POST', '/api/config/forms', form);
    expect(created.statusCode).toBe(200);
    expect((created.json() as { form: Form }).form.storage.listId).toBeNull();
    await submit('plain-news', 'plain@example.com');
    expect((await members(defaultListId)).find((x) => x.email === 'plain@example.com')).toMatchObject({
      status: 'subscribed',
      source: 'form',
    });
    const { listId: _omit, ...storage } = form.storage;
    void _omit;
    expect((await owner.send('PUT', '/api/config/forms/plain-news', { ...form, storage })).statusCode).toBe(200);
  });

  it("a list id that is not one of the site's lists is refused with a clear 400; nothing is saved", async () => {
    const mine = await createList('Ours');
    expect((await owner.send('POST', '/api/config/forms', newsletterForm('guarded-news', mine))).statusCode).toBe(200);
    await t.database.db.execute(sql`INSERT INTO websites (id, title, created_at) VALUES ('foreign-site', 'Someone else', '2100-01-01')`);
    await t.database.db.execute(sql`INSERT INTO mailing_lists (id, website_id, name) VALUES ('foreign-list', 'foreign-site', 'Theirs')`);
    try {
      for (const listId of ['foreign-list', 'no-such-list', 'x'.repeat(65)]) {
        const put = await owner.send('PUT', '/api/config/forms/guarded-news', newsletterForm('guarded-news', listId));
        expect(put.statusCode, listId).toBe(400);
        expect(put.json().message).toContain(em.LIST_NOT_FOUND);
        expect(put.json().errors).toEqual({ 'storage.listId': em.LIST_NOT_FOUND });
      }
      const post = await owner.send('POST', '/api/config/forms', newsletterForm('foreign-news', 'foreign-list'));
      expect(post.statusCode).toBe(400);
      expect(post.json().message).toBe(em.LIST_NOT_FOUND);
      expect((await owner.get('/api/config/forms/foreign-news')).statusCode).toBe(404);
      expect(((await owner.get('/api/config/forms/guarded-news')).json() as { form: Form }).form.storage.listId).toBe(mine);
      expect((await owner.send('PUT', '/api/config/forms/guarded-news', newsletterForm('guarded-news', 42))).statusCode).toBe(400);
    } finally {
      await t.database.db.execute(sql`DELETE FROM websites WHERE id = 'foreign-site'`);
    }
  });

  it("the form builder's list names: names only, for the roles that edit forms", async () => {
    const res = await owner.get(`${API}/list-names`);
    expect(res.statusCode).toBe(200);
    const lists = (res.json() as { lists: Array<Record<string, unknown>> }).lists;
    expect(lists[0]).toEqual({ id: defaultListId, name: 'Newsletter', isDefault: true });
    expect(lists.map((l) => l.name)).toContain('VIP <club>');
    expect(Object.keys(lists[1]!).sort()).toEqual(['id', 'isDefault', 'name']);
    expect((await t.app.inject({ method: 'GET', url: `${API}/list-names` })).statusCode).toBe(401);
  });
});
