/**
 * The like button of the demo theme's journal posts and its like call, on both databases: one like per
 * visitor and item (a like cookie), the count on the page following at once (cached pages included), the
 * crumb required (a crumb-less plain post only from a page of this site), a rate limit, and no likes for
 * products or unknown items.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { otherInstance, testApp, Visitor, type TestApp } from '../../helpers/app.js';
import { APP_KINDS } from '../../helpers/db.js';
import { LIKE_COUNT_SECONDS } from '../../../src/server/content/likes.js';
import { LIKE_COOKIE } from '../../../src/core/cookies.js';

const POST = '/journal/how-we-choose-our-linen';

function likeButton(html: string): { itemId: string; count: number; action: string } {
  const m = /data-island="LikeButton" data-props="([^"]*)"/.exec(html);
  expect(m, 'the like button island').not.toBeNull();
  const props = JSON.parse(m![1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
  const shown = /<span class="like-count" data-like-count="(\d+)">(\d+)<\/span>/.exec(html);
  expect(shown?.[1]).toBe(String(props.count));
  expect(html).toContain(`<form class="sqs-simple-like like-button" action="${props.action}" method="post">`);
  return props;
}

describe.each(APP_KINDS)('likes on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, { RATE_LIMIT_STORE: 'memory', TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts one like per visitor and shows the count on the post', async () => {
    const a = new Visitor(t.app);
    const first = likeButton((await a.get(POST)).body);
    expect(first.count).toBe(0);
    expect(first.action).toBe(`/api/content-items/${first.itemId}/like`);

    const r1 = await a.send('POST', first.action, {});
    expect(r1.statusCode, r1.body).toBe(200);
    expect(r1.json()).toEqual({ liked: true, likeCount: 1 });
    const cookie = r1.cookies.find((c) => c.name === LIKE_COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    // The same visitor again: still one.
    expect((await a.send('POST', first.action, {})).json()).toEqual({ liked: true, likeCount: 1 });
    expect(likeButton((await new Visitor(t.app).get(POST)).body).count).toBe(1);

    const b = new Visitor(t.app);
    expect((await b.send('POST', first.action, {})).json()).toEqual({ liked: true, likeCount: 2 });
    // A forged like cookie is replaced, not trusted as someone else's id.
    const c = new Visitor(t.app);
    c.cookies.set(LIKE_COOKIE, 'not-an-id');
    expect((await c.send('POST', first.action, {})).json().likeCount).toBe(3);

    // Without JavaScript: a plain form post from a page of this site, answered with the post again.
    const plain = await t.app.inject({
      method: 'POST',
      url: first.action,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      payload: '',
    });
    expect(plain.statusCode).toBe(303);
    expect(plain.headers.location).toBe(POST);
    expect(likeButton((await new Visitor(t.app).get(POST)).body).count).toBe(4);
  });

  it("keeps a post's count between renders, and shows a like taken elsewhere within LIKE_COUNT_SECONDS", async () => {
    // A page cache switched off: every page below is rendered, so only the kept count can repeat a number.
    const off = await otherInstance(t, { PAGE_CACHE_SECONDS: '0' });
    try {
      const v = new Visitor(off.app);
      const before = likeButton((await v.get(POST)).body);
      // A like recorded by another instance (here: straight into the table) is not seen at once...
      await t.database.exec(`insert into item_likes (item_id, liker) values ('${before.itemId}', '${'e'.repeat(32)}')`);
      expect(likeButton((await v.get(POST)).body).count).toBe(before.count);
      // ...but once the kept count is LIKE_COUNT_SECONDS old.
      const now = Date.now();
      const clock = vi.spyOn(Date, 'now').mockImplementation(() => now + LIKE_COUNT_SECONDS * 1000 + 1);
      try {
        expect(likeButton((await v.get(POST)).body).count).toBe(before.count + 1);
      } finally {
        clock.mockRestore();
      }
      // A like taken by this instance shows on its next page at once.
      expect((await v.send('POST', before.action, {})).json().likeCount).toBe(before.count + 2);
      expect(likeButton((await v.get(POST)).body).count).toBe(before.count + 2);
    } finally {
      await off.close();
    }
  });

  it('needs the crumb, limits the rate and refuses products and unknown items', async () => {
    const v = new Visitor(t.app);
    const { action } = likeButton((await v.get(POST)).body);
    expect((await v.send('POST', action, {}, { crumb: false })).statusCode).toBe(403);
    const crossSite = await t.app.inject({
      method: 'POST',
      url: action,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
      payload: '',
    });
    expect(crossSite.statusCode).toBe(403);

    const product = t.seed.productIds['linen-camp-shirt']!;
    expect((await v.send('POST', `/api/content-items/${product}/like`, {})).statusCode).toBe(404);
    expect((await v.send('POST', '/api/content-items/no-such-item/like', {})).statusCode).toBe(404);
    expect((await new Visitor(t.app).get('/shop/p/linen-camp-shirt')).body).not.toContain('data-island="LikeButton"');

    const spam = new Visitor(t.app);
    const codes: number[] = [];
    // Per address, whatever cookies the client sends: a fresh like cookie each time is no fresh allowance.
    for (let i = 0; i < 32; i++) {
      spam.cookies.delete(LIKE_COOKIE);
      codes.push((await spam.send('POST', action, {}, { headers: { 'x-forwarded-for': '10.9.9.9' } })).statusCode);
    }
    expect(
      codes.slice(0, 30).every((s) => s === 200),
      codes.join(','),
    ).toBe(true);
    expect(codes.slice(30)).toEqual([429, 429]);
    expect((await new Visitor(t.app).send('POST', action, {}, { headers: { 'x-forwarded-for': '10.9.9.10' } })).statusCode).toBe(200);
  });
});
