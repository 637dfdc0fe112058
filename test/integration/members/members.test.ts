/**
 * Member areas and locked content (issue #14): every door of a locked page refuses a non-member and
 * serves a member (page HTML, ?format=json, search results, files), the lock screen and page passwords
 * (rate limited, owners pass through), joining a paid area through the test-mode checkout, lesson progress
 * and the paywall events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { APP_KINDS } from '../../helpers/db.js';
import { OWNER, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { members as messages } from '../../../src/core/messages.js';
import { sql } from 'drizzle-orm';
import { rows } from '../../../src/server/db-util.js';
import { confirmed } from '../../helpers/orders.js';

const CARD = { type: 'card', number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Ada Member' };
const VIDEO_BYTES = Buffer.from('\u0000\u0000\u0000\u0018ftypmp42 lesson-one-video-bytes');
let keySeq = 0;
const key = () => `members-key-${Date.now()}-${++keySeq}`;

async function signIn(app: FastifyInstance): Promise<Visitor> {
  const v = new Visitor(app);
  const res = await v.send('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password });
  expect(res.statusCode).toBe(200);
  return v;
}

/** The newest emailed link to `path` sent to an address, as a path with its query (read from the outbox). */
async function mailedLink(t: TestApp, to: string, path: string, kind?: string): Promise<string | null> {
  const r = await rows<{ text_body: string; kind: string }>(
    t.database.db,
    sql`select text_body, kind from mail_outbox where to_address = ${to} order by id desc`,
  );
  for (const m of r) {
    if (kind && m.kind !== kind) continue;
    const hit = m.text_body
      .match(/https?:\/\/\S+/g)
      ?.map((u) => new URL(u))
      .find((u) => u.pathname === path);
    if (hit) return hit.pathname + hit.search;
  }
  return null;
}

function pageType(body: string): number {
  return Number(/data-page-type="(\d+)"/.exec(body)?.[1]);
}

describe.each(APP_KINDS)('members and locked content on %s', (kind) => {
  let t: TestApp;
  let owner: Visitor;
  let course: { id: string; urlId: string; fullUrl: string };
  let lesson1: { id: string; fullUrl: string };
  let lesson2: { id: string; fullUrl: string };
  let fileUrl: string;
  let member: Visitor;

  beforeAll(async () => {
    t = await testApp(kind);
    owner = await signIn(t.app);
    const up = await owner.send('POST', '/api/members/files', VIDEO_BYTES.toString('latin1'), {
      headers: { 'content-type': 'video/mp4', 'x-file-name': 'lesson-1.mp4' },
    });
    expect(up.statusCode, up.body).toBe(201);
    fileUrl = up.json().url;
    const c = await owner.send('POST', '/api/members/courses', { title: 'Pottery basics', description: 'Throwing on the wheel.' });
    expect(c.statusCode, c.body).toBe(201);
    course = c.json();
    const l1 = await owner.send('POST', `/api/members/courses/${course.id}/lessons`, {
      title: 'Centering clay',
      chapter: 'Getting started',
      videoUrl: fileUrl,
      durationSeconds: 312,
      body: '<p>The secret glaze recipe is ash and feldspar. <img src="/demo-media/gallery-2.svg" alt=""></p>',
    });
    expect(l1.statusCode, l1.body).toBe(201);
    lesson1 = l1.json();
    const l2 = await owner.send('POST', `/api/members/courses/${course.id}/lessons`, {
      title: 'Opening the form',
      chapter: 'Getting started',
      embedUrl: 'https://www.youtube-nocookie.com/embed/abc123',
    });
    expect(l2.statusCode, l2.body).toBe(201);
    lesson2 = l2.json();
    const area = await owner.send('POST', '/api/members/areas', {
      name: 'Pottery School',
      description: 'Every lesson of the course.',
      access: 'once',
      priceCents: 2500,
      collectionIds: [course.id],
    });
    expect(area.statusCode, area.body).toBe(201);
    expect(area.json()).toMatchObject({ id: 'pottery-school', access: 'once', priceCents: 2500 });
    expect(area.json().productItemId).toEqual(expect.any(String));
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  it('refuses a locked course to a non-member at every door: page, JSON view, lesson, search, files', async () => {
    const v = new Visitor(t.app);
    const list = await v.get(course.fullUrl);
    expect(list.statusCode).toBe(403);
    expect(pageType(list.body)).toBe(106);
    expect(list.body).toMatch(/<a[^>]*href="\/members\/join\/pottery-school\?from=[0-9a-f]+"[^>]*>Join<\/a>/);
    expect(list.body).toContain('Pottery School · $25.00');
    // The access-denied page's words come from the members messages (page 106: the text, Join and Sign in).
    expect(list.body).toContain(`<p>${messages.DENIED_TEXT}</p>`);
    expect(list.body).toMatch(new RegExp(`<a[^>]*href="/account/login\\?next=[^"]*"[^>]*>${messages.SIGN_IN_BUTTON}</a>`));
    expect(list.body).not.toContain('Centering clay');

    const json = await v.get(`${course.fullUrl}?format=json`);
    expect(json.statusCode).toBe(403);
    expect(json.json().pageType).toBe(106);
    expect(json.body).not.toContain('Centering clay');
    expect(json.body).not.toContain('Throwing on the wheel');

    for (const url of [lesson1.fullUrl, `${lesson1.fullUrl}?format=json`, `${lesson1.fullUrl}?format=json-pretty`]) {
      const r = await v.get(url);
      expect(r.statusCode, url).toBe(403);
      expect(r.body, url).not.toContain('secret glaze');
      expect(r.body, url).not.toContain(fileUrl);
    }

    const search = await v.get('/search?q=feldspar');
    expect(search.statusCode).toBe(200);
    expect(search.body).not.toContain('Centering clay');
    expect(search.body).toContain('No results for');
    const searchJson = await v.get('/search?q=feldspar&format=json');
    expect(searchJson.json().search.count).toBe(0);

    expect((await v.get(fileUrl)).statusCode).toBe(403);
    expect((await v.get('/demo-media/gallery-2.svg')).statusCode).toBe(403);
    // A file also used by open content stays open.
    expect((await v.get('/demo-media/linen-shirt.jpg')).statusCode).toBe(200);
  });

  it('the seeded free area: its page JSON never carries the page body', async () => {
    const v = new Visitor(t.app);
    const r = await v.get('/members?format=json');
    expect(r.statusCode).toBe(403);
    expect(r.json().pageType).toBe(106);
    expect(r.body).not.toContain('Early access to new makers');
    expect(r.json().joinUrl).toBe('/members/join/fernhill-members?from=' + r.json().collection.id);
  });

  it("puts the area's collections in the member-area navigation (_memberareas, memberAreas for themes)", async () => {
    const home = await new Visitor(t.app).get('/?format=json');
    const nav = home.json().navigation;
    expect(nav._memberareas).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ title: 'Members', memberAreaId: 'fernhill-members', fullUrl: '/members' }),
        expect.objectContaining({ title: 'Pottery basics', memberAreaId: 'pottery-school', fullUrl: course.fullUrl }),
      ]),
    );
    expect(nav.memberAreas).toEqual(nav._memberareas);
    const html = await new Visitor(t.app).get('/');
    expect(html.body).toMatch(new RegExp(`<nav class="site-footer__nav" aria-label="Members">[\\s\\S]*?href="${course.fullUrl}"`));
  });

  it('with the member-areas feature switched off, member-area pages are not found', async () => {
    expect((await owner.send('PUT', '/api/flags/features', { features: { memberAreas: false } })).statusCode).toBe(200);
    const v = new Visitor(t.app);
    const off = await v.get(course.fullUrl);
    expect(off.statusCode).toBe(404);
    expect(off.body).not.toContain('Centering clay');
    expect((await owner.send('PUT', '/api/flags/features', { features: { memberAreas: true } })).statusCode).toBe(200);
    expect((await v.get(course.fullUrl)).statusCode).toBe(403);
  });

  it('owners pass through member areas', async () => {
    const r = await owner.get(lesson1.fullUrl);
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('secret glaze');
    expect((await owner.get(fileUrl)).statusCode).toBe(200);
  });

  it('a visitor joins the paid area: account, test-mode checkout, membership confirmed (208), then every door opens', async () => {
    member = new Visitor(t.app);
    const join = await member.get(`/members/join/pottery-school?from=${course.id}`);
    expect(join.statusCode).toBe(200);
    expect(join.body).toContain('Join Pottery School');

    const asked = await member.send('POST', '/api/members/areas/pottery-school/join', {
      email: 'ada@example.com',
      password: 'a long password',
      displayName: 'Ada',
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toEqual({ message: messages.JOIN_CHECK_EMAIL });
    // Not signed in, not a member: the address is proved first, by the link in the mailbox.
    expect((await member.get('/api/site-users/account/session')).json().authenticated).toBe(false);
    const link = await mailedLink(t, 'ada@example.com', '/account/confirm');
    expect(link).toContain('next=%2Fmembers%2Fjoin%2Fpottery-school');
    const confirmedLink = await member.get(link!);
    expect(confirmedLink.statusCode).toBe(303);
    expect(confirmedLink.headers.location).toBe('/members/join/pottery-school');
    // Confirmed and signed in: the paid join goes on to the checkout.
    const joined = await member.send('POST', '/api/members/areas/pottery-school/join', {});
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json().next).toBe('/checkout');
    // Not a member until the order is paid.
    expect((await member.get(lesson1.fullUrl)).statusCode).toBe(403);

    const view = await member.get('/api/checkout');
    expect(view.json().cart.entries).toHaveLength(1);
    const placed = await member.send(
      'POST',
      '/api/checkout/place-order',
      await confirmed(member, { email: 'ada@example.com', payment: CARD }),
      { headers: { 'idempotency-key': key() } },
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const confirmation = placed.json().confirmationUrl as string;
    const redirect = await member.get(confirmation);
    expect(redirect.statusCode).toBe(303);
    expect(redirect.headers.location).toMatch(/^\/members\/confirmed\/pottery-school\?order=/);
    const confirmedPage = await member.get(String(redirect.headers.location));
    expect(confirmedPage.statusCode).toBe(200);
    expect(pageType(confirmedPage.body)).toBe(208);
    expect(confirmedPage.body).toContain(messages.CONFIRMED_TITLE);
    expect(confirmedPage.body).toContain('(test mode)');
    expect(confirmedPage.body).toContain(`href="${course.fullUrl}"`);

    const list = await member.get(course.fullUrl);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('Centering clay');
    const lesson = await member.get(lesson1.fullUrl);
    expect(lesson.statusCode).toBe(200);
    expect(lesson.body).toContain('secret glaze');
    // The uploaded video is the LessonVideo island (it reports the position while it plays).
    expect(lesson.body).toContain('data-island="LessonVideo"');
    expect(lesson.body).toMatch(new RegExp(`<video controls="" preload="metadata" src="${fileUrl}"`));
    expect(lesson.body).toContain('Next lesson: Opening the form');
    const json = await member.get(`${lesson1.fullUrl}?format=json`);
    expect(json.statusCode).toBe(200);
    expect(json.json().item.lesson.title).toBe('Centering clay');

    const search = await member.get('/search?q=feldspar&format=json');
    expect(search.json().search.results.map((r: { title: string }) => r.title)).toContain('Centering clay');

    const file = await member.get(fileUrl);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('video/mp4');
    expect(file.rawPayload.equals(VIDEO_BYTES)).toBe(true);
    expect((await member.get('/demo-media/gallery-2.svg')).statusCode).toBe(200);
  });

  it('records lesson progress per member and shows the next lesson; refuses progress from non-members', async () => {
    const before = await member.get(`${course.fullUrl}?format=json`);
    expect(before.json().course.progressText).toBe('0 of 2 lessons complete');
    expect(before.json().course.chapters[0].lessons[0].status).toBe('started');
    const done = await member.send('POST', '/api/members/progress', { itemId: lesson1.id, completed: true });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ ok: true, completed: true, done: 1 });
    const after = await member.get(course.fullUrl);
    expect(after.body).toContain('1 of 2 lessons complete');
    const stranger = new Visitor(t.app);
    expect((await stranger.send('POST', '/api/members/progress', { itemId: lesson1.id, completed: true })).statusCode).toBe(401);
    expect((await member.send('POST', '/api/members/progress', { itemId: 'nope', completed: true })).statusCode).toBe(404);
    expect((await member.send('POST', '/api/members/progress', { completed: true })).statusCode).toBe(400);

    // The third-party video click goes through the site (recorded) to the player.
    const watch = await member.get(`/members/watch/${lesson2.id}`);
    expect(watch.statusCode).toBe(302);
    expect(watch.headers.location).toBe('https://www.youtube-nocookie.com/embed/abc123');
  });

  it('serves member files in byte ranges so a video can seek (206, 416), to members only', async () => {
    const size = VIDEO_BYTES.length;
    const whole = await member.get(fileUrl);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const part = await member.get(fileUrl, { range: 'bytes=4-11' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 4-11/${size}`);
    expect(part.headers['content-length']).toBe('8');
    expect(part.rawPayload.equals(VIDEO_BYTES.subarray(4, 12))).toBe(true);
    const open = await member.get(fileUrl, { range: 'bytes=10-' });
    expect(open.statusCode).toBe(206);
    expect(open.headers['content-range']).toBe(`bytes 10-${size - 1}/${size}`);
    expect(open.rawPayload.equals(VIDEO_BYTES.subarray(10))).toBe(true);
    const suffix = await member.get(fileUrl, { range: 'bytes=-5' });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.rawPayload.equals(VIDEO_BYTES.subarray(size - 5))).toBe(true);
    const beyond = await member.get(fileUrl, { range: 'bytes=9999-' });
    expect(beyond.statusCode, JSON.stringify(beyond.headers) + beyond.body).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${size}`);
    // An end past the file is cut to the file; a malformed header or a stale If-Range gets the whole file.
    const past = await member.get(fileUrl, { range: `bytes=0-${size + 100}` });
    expect(past.statusCode).toBe(206);
    expect(past.headers['content-range']).toBe(`bytes 0-${size - 1}/${size}`);
    expect((await member.get(fileUrl, { range: 'bytes=abc' })).statusCode).toBe(200);
    expect((await member.get(fileUrl, { range: 'bytes=2-3', 'if-range': '"other"' })).statusCode).toBe(200);
    expect((await member.get(fileUrl, { range: 'bytes=2-3', 'if-range': whole.headers.etag as string })).statusCode).toBe(206);
    // A range request does not open the door for a non-member.
    const stranger = await new Visitor(t.app).get(fileUrl, { range: 'bytes=0-3' });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.body).not.toContain('ftyp');
  });

  it("the player's progress completes a lesson at the end of the video or at 90% watched", async () => {
    const progress = (body: Record<string, unknown>) => member.send('POST', '/api/members/progress', { itemId: lesson1.id, ...body });
    expect((await progress({ completed: false })).json().completed).toBe(false); // the button test completed it
    // Lesson 1 is 312 seconds long: 90% is 280.8 seconds.
    const early = await progress({ positionSeconds: 120 });
    expect(early.statusCode, early.body).toBe(200);
    expect(early.json().completed).toBe(false);
    expect((await progress({ positionSeconds: 280 })).json().completed).toBe(false);
    const enough = await progress({ positionSeconds: 281 });
    expect(enough.json()).toMatchObject({ ok: true, completed: true });
    // A later, earlier position (seeking back) never undoes it.
    expect((await progress({ positionSeconds: 10 })).json().completed).toBe(true);
    const json = await member.get(`${course.fullUrl}?format=json`);
    expect(json.json().course.chapters[0].lessons[0].status).toBe('completed');

    // Lesson 2 has no duration set: the player's own duration counts, and the end of the video completes it.
    const l2 = (body: Record<string, unknown>) => member.send('POST', '/api/members/progress', { itemId: lesson2.id, ...body });
    await l2({ completed: false });
    expect((await l2({ positionSeconds: 50, durationSeconds: 100 })).json().completed).toBe(false);
    expect((await l2({ positionSeconds: 60 })).json().completed).toBe(false);
    const ended = await l2({ positionSeconds: 61, ended: true });
    expect(ended.json()).toMatchObject({ completed: true, done: 2 });

    // Bad reports are refused in words, nothing written; strangers may not report.
    const bad = await l2({ positionSeconds: -1 });
    expect(bad.statusCode).toBe(400);
    expect((await l2({ durationSeconds: 'long' })).statusCode).toBe(400);
    expect((await new Visitor(t.app).send('POST', '/api/members/progress', { itemId: lesson1.id, ended: true })).statusCode).toBe(401);
  });

  it('the owner sees the member and the paywall events', async () => {
    const list = await owner.get('/api/members/members?areaId=pottery-school');
    expect(list.statusCode).toBe(200);
    expect(list.json().members).toEqual([
      expect.objectContaining({ email: 'ada@example.com', status: 'active', orderId: expect.any(String) }),
    ]);
    await t.app.analytics.ingest.drain();
    const events = await owner.get('/api/members/analytics');
    const counts = Object.fromEntries((events.json().events as Array<{ name: string; count: number }>).map((e) => [e.name, e.count]));
    expect(counts.video_access_denied_view).toBeGreaterThanOrEqual(2);
    expect(counts.video_join_click).toBeGreaterThanOrEqual(1);
    expect(counts.video_list_view).toBeGreaterThanOrEqual(1);
    expect(counts.video_details_view).toBeGreaterThanOrEqual(1);
    expect(counts.video_third_party_click).toBe(1);
    expect((await new Visitor(t.app).get('/api/members/members')).statusCode).toBe(401);
  });

  it('a signed-in site user joins the free area at once; a wrong join answers in the spec words', async () => {
    const v = new Visitor(t.app);
    expect((await v.get('/members')).statusCode).toBe(403);
    const form = await v.get('/members/join/fernhill-members');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('name="email"');
    // The email of an existing account answers as a new one would; the account's owner gets an email
    // with a sign-in link back here, and nobody is signed in.
    const taken = await v.send('POST', '/api/members/areas/fernhill-members/join', {
      email: 'ada@example.com',
      password: 'another password',
    });
    expect(taken.statusCode).toBe(202);
    expect(taken.json()).toEqual({ message: messages.JOIN_CHECK_EMAIL });
    expect(await mailedLink(t, 'ada@example.com', '/account/login')).toBe('/account/login?next=%2Fmembers%2Fconfirmed%2Ffernhill-members');
    expect((await v.get('/api/site-users/account/session')).json().authenticated).toBe(false);
    const badEmail = await v.send('POST', '/api/members/areas/fernhill-members/join', {
      email: 'not-an-email',
      password: 'another password',
    });
    expect(badEmail.statusCode).toBe(400);
    expect((await v.send('POST', '/api/members/areas/no-such-area/join', {})).statusCode).toBe(404);
    // Signed in (the account made by the paid join), joining needs no form.
    const signIn = await v.send('POST', '/api/site-users/account/session', { email: 'ada@example.com', password: 'a long password' });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect((await v.get('/members/join/fernhill-members')).body).toContain('Signed in as ada@example.com');
    const joined = await v.send('POST', '/api/members/areas/fernhill-members/join', {});
    expect(joined.json()).toEqual({ next: '/members/confirmed/fernhill-members' });
    const page = await v.get('/members');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Early access to new makers');
    // A form post without JavaScript lands on the confirmation.
    const crumb = await v.crumb();
    const again = await v.send('POST', '/api/members/areas/fernhill-members/join', `crumb=${crumb}`, {
      crumb: false,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe('/members/confirmed/fernhill-members');
    const confirmed = await v.get('/members/confirmed/fernhill-members?format=json');
    expect(confirmed.json().pageType).toBe(208);
    expect(confirmed.json().membership.contents).toEqual([{ title: 'Members', fullUrl: '/members' }]);
  });

  it('a join without an account: the same answer for every address, a confirmation email, the free area once confirmed', async () => {
    // ada@example.com has an account (the paid join above); grace@example.com has none.
    const answers = [];
    for (const email of ['ada@example.com', 'grace@example.com']) {
      const v = new Visitor(t.app);
      const json = await v.send('POST', '/api/members/areas/fernhill-members/join', { email, password: 'chosen by whoever asked' });
      const crumb = await v.crumb();
      const form = await v.send(
        'POST',
        '/api/members/areas/fernhill-members/join',
        `crumb=${crumb}&email=${encodeURIComponent(email)}&password=chosen+by+whoever+asked`,
        { crumb: false, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      );
      answers.push({
        status: [json.statusCode, form.statusCode],
        json: json.body,
        cookies: json.cookies
          .map((c) => c.name)
          .concat(form.cookies.map((c) => c.name))
          .filter((n) => n !== 'crumb'),
        form: form.body
          .replaceAll(email, '<email>')
          .replaceAll(crumb, '<crumb>')
          .replace(/nonce="[^"]*"/g, ''),
      });
      expect(form.body).toContain(messages.JOIN_CHECK_EMAIL);
      expect((await v.get('/api/site-users/account/session')).json().authenticated).toBe(false);
    }
    expect(answers[0]!.status).toEqual([202, 200]);
    expect(answers[1]).toEqual(answers[0]);
    // Both answers carry the sign-up's browser key (issue 38), and nothing else: no session.
    expect(answers[0]!.cookies).toEqual(['tessera_sign_up', 'tessera_sign_up']);

    // Whoever asked cannot sign in with the password they chose: the address is not confirmed. The answer is a
    // wrong password's (issue 38, item 7), and the address's owner is mailed a link to the account page again.
    const early = await new Visitor(t.app).send('POST', '/api/site-users/account/session', {
      email: 'grace@example.com',
      password: 'chosen by whoever asked',
    });
    expect(early.statusCode).toBe(401);
    await t.app.services.signInLimits.idle();
    const listed = (await owner.get('/api/members/members')).json() as { members: Array<{ email: string; status: string }> };
    expect(listed.members.filter((m) => m.email === 'grace@example.com').map((m) => m.status)).toEqual(['awaiting confirmation']);

    // The owner of the address follows the link in their own browser (not the one that asked, issue 38):
    // nothing is granted and nobody signed in until they choose their password; the asker's is dropped.
    const grace = new Visitor(t.app);
    expect((await grace.get('/members')).statusCode).toBe(403);
    expect(await mailedLink(t, 'grace@example.com', '/account/confirm', 'site-user-confirm-again')).not.toBeNull();
    const link = await mailedLink(t, 'grace@example.com', '/account/confirm', 'site-user-confirm');
    const asked = await grace.get(link!);
    expect(asked.statusCode).toBe(200);
    expect(asked.cookies.map((c) => c.name)).not.toContain('tessera_site_user');
    expect(asked.body).toContain('name="next" value="/members/confirmed/fernhill-members"');
    expect(
      (await owner.get('/api/members/members'))
        .json()
        .members.filter((m: { email: string }) => m.email === 'grace@example.com')
        .map((m: { status: string }) => m.status),
    ).toEqual(['awaiting confirmation']);
    const token = new URLSearchParams(link!.split('?')[1]).get('token')!;
    const chosen = `crumb=${await grace.crumb()}&token=${encodeURIComponent(token)}&next=${encodeURIComponent('/members/confirmed/fernhill-members')}&password=grace+chose+this`;
    const landed = await grace.send('POST', '/api/site-users/account/confirm', chosen, {
      crumb: false,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(landed.statusCode).toBe(303);
    expect(landed.headers.location).toBe('/members/confirmed/fernhill-members');
    expect(
      (
        await new Visitor(t.app).send('POST', '/api/site-users/account/session', {
          email: 'grace@example.com',
          password: 'chosen by whoever asked',
        })
      ).statusCode,
    ).toBe(401);
    const welcome = await grace.get('/members/confirmed/fernhill-members?format=json');
    expect(welcome.json().pageType).toBe(208);
    expect((await grace.get('/members')).statusCode).toBe(200);
    const after = (await owner.get('/api/members/members')).json() as { members: Array<{ email: string; status: string }> };
    expect(after.members.filter((m) => m.email === 'grace@example.com').map((m) => m.status)).toEqual(['active']);
  });

  it('a subscription area: the join goes through the subscription checkout; a refund ends the membership', async () => {
    const settings = await owner.get('/api/members/settings');
    const faq = (settings.json().collections as Array<{ id: string; urlId: string }>).find(
      (c) => c.urlId === 'questions' || c.urlId === 'faq',
    )!;
    const created = await owner.send('POST', '/api/members/areas', {
      id: 'insiders',
      name: 'Insiders',
      access: 'subscription',
      priceCents: 500,
      billingUnit: 'MONTH',
      billingValue: 1,
      collectionIds: [faq.id],
    });
    expect(created.statusCode, created.body).toBe(201);
    const v = new Visitor(t.app);
    expect((await v.get(`/${faq.urlId}`)).statusCode).toBe(403);
    expect(
      (await v.send('POST', '/api/members/areas/insiders/join', { email: 'sub@example.com', password: 'a long password' })).statusCode,
    ).toBe(202);
    const link = await mailedLink(t, 'sub@example.com', '/account/confirm');
    expect((await v.get(link!)).headers.location).toBe('/members/join/insiders');
    const joined = await v.send('POST', '/api/members/areas/insiders/join', {});
    expect(joined.statusCode, joined.body).toBe(200);
    const next = joined.json().next as string;
    expect(next).toMatch(/^\/checkout\?cartToken=/);
    const cartToken = decodeURIComponent(next.split('cartToken=')[1]!);
    const checkoutView = await v.get(`/api/checkout?cartToken=${encodeURIComponent(cartToken)}`);
    expect(checkoutView.json().subscription.plan).toEqual({ billingPeriod: { value: 1, unit: 'MONTH' }, numBillingCycles: 0 });
    const placed = await v.send(
      'POST',
      '/api/checkout/place-order',
      await confirmed(v, { cartToken, email: 'sub@example.com', payment: CARD }),
      { headers: { 'idempotency-key': key() } },
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const redirect = await v.get(placed.json().confirmationUrl);
    expect(redirect.statusCode).toBe(303);
    expect(redirect.headers.location).toMatch(/^\/members\/confirmed\/insiders\?order=/);
    expect((await v.get(`/${faq.urlId}`)).statusCode).toBe(200);
    // The refund ends it.
    const orderId = placed.json().purchaseConfirmation.id as string;
    const refund = await owner.send('POST', `/api/checkout/admin/orders/${orderId}/refund`, {});
    expect(refund.statusCode, refund.body).toBe(200);
    const after = await v.get(`/${faq.urlId}`);
    expect(after.statusCode).toBe(403);
    expect(pageType(after.body)).toBe(106);
    expect((await owner.send('DELETE', '/api/members/areas/insiders')).statusCode).toBe(204);
    expect((await v.get(`/${faq.urlId}`)).statusCode).toBe(200);
  });

  it('refuses bad area input in the spec words, writing nothing', async () => {
    const bad = await owner.send('POST', '/api/members/areas', { name: 'Paid', access: 'once', priceCents: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(messages.PRICE_REQUIRED);
    const noName = await owner.send('POST', '/api/members/areas', { name: ' ', access: 'free' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toBe(messages.NAME_REQUIRED);
    const unknown = await owner.send('POST', '/api/members/areas', { name: 'Ghost', access: 'free', collectionIds: ['nope'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(messages.UNKNOWN_COLLECTION);
    const badType = await owner.send('POST', '/api/members/areas', { name: 'X', access: 'paid' });
    expect(badType.statusCode).toBe(400);
    const areas = await owner.get('/api/members/settings');
    expect(
      areas
        .json()
        .areas.map((a: { id: string }) => a.id)
        .sort(),
    ).toEqual(['fernhill-members', 'pottery-school']);
    const lesson = await owner.send('POST', `/api/members/courses/${course.id}/lessons`, {
      title: 'No video',
      embedUrl: 'javascript:alert(1)',
    });
    expect(lesson.statusCode).toBe(400);
    expect(lesson.json().message).toBe(messages.VIDEO_SOURCE);
    const upload = await owner.send('POST', '/api/members/files', 'x', { headers: { 'content-type': 'text/html' } });
    expect(upload.statusCode).toBe(415);
    // Over the 50 MB a member file may have: the members message, not the generic one.
    const huge = await owner.send('POST', '/api/members/files', 'x'.repeat(50 * 1024 * 1024 + 1), {
      headers: { 'content-type': 'video/mp4', 'x-file-name': 'big.mp4' },
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toBe(messages.FILE_TOO_LARGE);
  });

  it('a page password (protected content 105) guards the page and its JSON; the right password opens it for the visit', async () => {
    const settings = await owner.get('/api/members/settings');
    const about = (settings.json().collections as Array<{ id: string; urlId: string }>).find((c) => c.urlId === 'about')!;
    expect((await owner.send('PUT', `/api/members/page-passwords/${about.id}`, { password: 'ab' })).statusCode).toBe(400);
    expect((await owner.send('PUT', `/api/members/page-passwords/${about.id}`, { password: 'green tea' })).statusCode).toBe(200);
    const v = new Visitor(t.app);
    const page = await v.get('/about');
    expect(page.statusCode).toBe(403);
    expect(pageType(page.body)).toBe(105);
    expect(page.body).toContain('name="password"');
    const aboutJson = await v.get('/about?format=json');
    expect(aboutJson.json().pageType).toBe(105);
    expect(aboutJson.json().collection).toEqual({
      id: about.id,
      title: 'About',
      urlId: 'about',
      fullUrl: '/about',
      typeName: expect.any(String),
    });
    // A form post without JavaScript.
    const crumb = await v.crumb();
    const wrong = await v.send('POST', '/api/members/unlock', `crumb=${crumb}&target=${about.id}&next=%2Fabout&password=coffee`, {
      crumb: false,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain(messages.WRONG_PASSWORD);
    const right = await v.send('POST', '/api/members/unlock', `crumb=${crumb}&target=${about.id}&next=%2Fabout&password=green+tea`, {
      crumb: false,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe('/about');
    expect((await v.get('/about')).statusCode).toBe(200);
    // A new password ends the old unlocks.
    await owner.send('PUT', `/api/members/page-passwords/${about.id}`, { password: 'black tea' });
    expect((await v.get('/about')).statusCode).toBe(403);
    expect((await owner.get('/about')).statusCode).toBe(200);
    await owner.send('PUT', `/api/members/page-passwords/${about.id}`, { password: null });
    expect((await new Visitor(t.app).get('/about')).statusCode).toBe(200);
  });

  it('the site lock screen (103): every page and file is behind it, owners pass, the password is rate limited', async () => {
    expect((await owner.send('PUT', '/api/members/site-password', { password: 'open sesame' })).statusCode).toBe(200);
    const v = new Visitor(t.app);
    const home = await v.get('/');
    expect(home.statusCode).toBe(403);
    expect(pageType(home.body)).toBe(103);
    expect(home.body).toContain(messages.LOCK_TEXT);
    expect(home.body).not.toContain('Linen camp shirt');
    const homeJson = await v.get('/?format=json');
    expect(homeJson.json().pageType).toBe(103);
    expect(homeJson.body).not.toContain('Linen');
    expect((await v.get('/shop/p/linen-camp-shirt?format=json')).json().pageType).toBe(103);
    expect((await v.get('/search?q=linen')).body).not.toContain('Linen camp shirt');
    expect((await v.get('/demo-media/linen-shirt.jpg')).statusCode).toBe(403);
    expect((await v.get('/demo-media/linen-shirt.jpg?format=300w')).statusCode).toBe(403);
    expect((await v.get('/theme/site.css')).statusCode).toBe(200);
    // The content APIs are behind the lock too (stock of a product, languages, maps): 401 in the lock's words.
    const stockUrl = `/api/commerce/inventory/stock/?itemId=${t.seed.productIds['linen-camp-shirt']}`;
    const stock = await v.get(stockUrl);
    expect(stock.statusCode).toBe(401);
    expect(stock.json().message).toBe(messages.LOCK_TEXT);
    expect(stock.body).not.toContain('SHIRT-');
    expect((await v.get('/api/multilingual/languages')).statusCode).toBe(401);
    // A form submission (a POST) is refused as well; the visitor's cart, the crumb and beacons still work.
    expect((await v.send('POST', '/api/form/SaveFormSubmission', { formId: 'x' })).statusCode).toBe(401);
    expect((await v.get('/api/commerce/shopping-cart')).statusCode).not.toBe(401);
    expect((await v.send('POST', '/api/census/RecordHit', { path: '/' })).statusCode).not.toBe(401);
    // Owners pass through, pages and APIs.
    expect((await owner.get('/')).statusCode).toBe(200);
    expect((await owner.get(stockUrl)).statusCode).toBe(200);

    const ok = await v.send('POST', '/api/members/unlock', { target: 'site', password: 'open sesame', next: '/shop' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ ok: true, next: '/shop' });
    expect((await v.get('/')).statusCode).toBe(200);
    expect((await v.get('/demo-media/linen-shirt.jpg')).statusCode).toBe(200);
    const unlocked = await v.get(stockUrl);
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.body).toContain('SHIRT-');

    const guesser = new Visitor(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await guesser.send('POST', '/api/members/unlock', { target: 'site', password: `guess ${i}` })).statusCode);
    // 10 tries per 10 minutes per address (the earlier unlocks of this address count too), then 429.
    const first429 = statuses.indexOf(429);
    expect(first429).toBeGreaterThan(0);
    expect(statuses.slice(0, first429).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(first429).every((s) => s === 429)).toBe(true);
    const limited = await guesser.send('POST', '/api/members/unlock', { target: 'site', password: 'open sesame' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(messages.TOO_MANY_PASSWORDS);
    expect((await guesser.get('/')).statusCode).toBe(403);
    await owner.send('PUT', '/api/members/site-password', { password: null });
    expect((await new Visitor(t.app).get('/')).statusCode).toBe(200);
  });
});
